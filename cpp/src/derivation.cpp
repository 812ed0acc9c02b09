#include "attention/derivation.hpp"

#include <cmath>

#include "attention/attention.hpp"
#include "attention/encoder_decoder.hpp"
#include "attention/json_read.hpp"

namespace attention {

using nlohmann::json;

namespace {

// The score of query row q against key row k, term by term.
json score_terms(const Spec& s, const Parameters& p, const Matrix& q, const Matrix& k, double factor) {
  json d;
  json terms = json::array();
  double raw = 0;
  switch (s.score) {
    case ScoreKind::dot:
    case ScoreKind::scaled_dot:
      for (long m = 0; m < q.cols(); ++m) {
        terms.push_back({{"q", q(0, m)}, {"k", k(0, m)}, {"product", q(0, m) * k(0, m)}});
      }
      break;
    case ScoreKind::general: {
      const Matrix wk = (*p.W_a * k.transpose()).transpose();  // (1, d_k): W_a k
      for (long m = 0; m < q.cols(); ++m) {
        terms.push_back({{"q", q(0, m)}, {"W_a_k", wk(0, m)}, {"product", q(0, m) * wk(0, m)}});
      }
      break;
    }
    case ScoreKind::additive: {
      const Matrix a = q * *p.W_1, b = k * *p.W_2;  // (1, d_a) each
      for (long m = 0; m < a.cols(); ++m) {
        const double t = std::tanh(a(0, m) + b(0, m));
        terms.push_back({{"q_W_1", a(0, m)}, {"k_W_2", b(0, m)}, {"tanh", t}, {"v_a", (*p.v_a)(0, m)},
                         {"product", (*p.v_a)(0, m) * t}});
      }
      break;
    }
  }
  // The raw score is recomputed the way the core computes it, so it matches the trace exactly.
  const MatrixT<double> one = score_matrix<double>(s, p, q, k);
  raw = one(0, 0);
  d["terms"] = terms;
  d["raw"] = raw;
  d["factor"] = factor;
  d["value"] = raw * factor;
  return d;
}

json softmax_terms(const Spec& s, const std::vector<double>& row_scores, const std::vector<bool>& visible, long col) {
  json d;
  double top = -INFINITY;
  long best = -1;
  for (std::size_t j = 0; j < row_scores.size(); ++j) {
    if (visible[j] && row_scores[j] > top) { top = row_scores[j]; best = static_cast<long>(j); }
  }
  d["row_scores"] = row_scores;
  d["visible"] = visible;
  if (best < 0) {
    d["empty_row"] = true;
    d["value"] = 0.0;
    return d;
  }
  d["max"] = top;
  if (s.hard) {
    d["argmax"] = best;
    d["value"] = best == col ? 1.0 : 0.0;
    return d;
  }
  json exps = json::array();
  double sum = 0;
  for (std::size_t j = 0; j < row_scores.size(); ++j) {
    const double e = visible[j] ? std::exp(row_scores[j] - top) : 0.0;
    exps.push_back(e);
    sum += e;
  }
  d["exps"] = exps;
  d["sum"] = sum;
  d["value"] = exps[static_cast<std::size_t>(col)].get<double>() / sum;
  return d;
}

Error out_of_range(const std::string& what, long v, long n) {
  return error_at(what, std::to_string(v) + " is out of range (0 to " + std::to_string(n - 1) + ")");
}

}  // namespace

Result<json> derive(const Spec& s, const std::string& matrix, long head, long row, long col) {
  if (matrix != "scores" && matrix != "weights" && matrix != "output") {
    return error_at("matrix", "must be scores, weights or output, got \"" + matrix + "\"");
  }
  const long n = static_cast<long>(s.tokens.size());
  json d{{"matrix", matrix}, {"head", head}, {"row", row}, {"col", col}};

  if (s.mode == Mode::encoder_decoder) {
    if (matrix == "output") return error_at("matrix", "encoder_decoder derivations cover scores and weights");
    if (col < 0 || col >= n) return out_of_range("col", col, n);
    const auto t = run_encoder_decoder<double>(s);
    if (!t) return t.error();
    const Parameters& p = t.value().parameters;
    const double factor = t.value().scale / s.temperature;
    d["query_token"] = "decoder_state";
    d["key_token"] = s.tokens[static_cast<std::size_t>(col)];
    d["score"] = score_terms(s, p, *p.decoder_state, p.X.row(col), factor);
    if (matrix == "weights") {
      const VectorT<double>& sc = t.value().scores;
      d["softmax"] = softmax_terms(s, std::vector<double>(sc.data(), sc.data() + sc.size()), std::vector<bool>(static_cast<std::size_t>(n), true), col);
    }
    return d;
  }

  if (head < 0 || head >= s.heads) return out_of_range("head", head, s.heads);
  if (row < 0 || row >= n) return out_of_range("row", row, n);
  const auto run = run_self<double>(s);
  if (!run) return run.error();
  const SelfTrace<double>& t = run.value();
  const Parameters& p = t.parameters;
  const std::vector<std::string>& keys = s.mode == Mode::cross ? s.source_tokens : s.tokens;
  const long m = static_cast<long>(keys.size());
  d["query_token"] = s.tokens[static_cast<std::size_t>(row)];

  if (matrix == "output") {
    const long width = t.output.cols();
    if (col < 0 || col >= width) return out_of_range("col", col, width);
    json terms = json::array();
    if (p.W_o) {  // output = concat W_o
      for (long k = 0; k < t.concat.cols(); ++k) {
        terms.push_back({{"concat", t.concat(row, k)}, {"W_o", (*p.W_o)(k, col)}, {"product", t.concat(row, k) * (*p.W_o)(k, col)}});
      }
      d["via"] = "W_o";
    } else {      // output = weights V
      for (long j = 0; j < m; ++j) {
        terms.push_back({{"token", keys[static_cast<std::size_t>(j)]}, {"weight", t.weights[0](row, j)},
                         {"v", t.V(j, col)}, {"product", t.weights[0](row, j) * t.V(j, col)}});
      }
      d["via"] = "weights";
    }
    d["terms"] = terms;
    d["value"] = t.output(row, col);
    return d;
  }

  if (col < 0 || col >= m) return out_of_range("col", col, m);
  d["key_token"] = keys[static_cast<std::size_t>(col)];
  const double factor = t.scale / s.temperature;
  // The rows the score is made of: rotated with rope, and the key from the head's key/value group.
  const long g = t.kv_group[static_cast<std::size_t>(head)];
  const Matrix q = (t.Q_rope ? *t.Q_rope : t.Q).block(row, head * s.d_k, 1, s.d_k);
  const Matrix k = (t.K_rope ? *t.K_rope : t.K).block(col, g * s.d_k, 1, s.d_k);
  d["score"] = score_terms(s, p, q, k, factor);
  d["kv_head"] = g;
  if (t.Q_rope) {
    const auto row_of = [](const Matrix& x) { return std::vector<double>(x.data(), x.data() + x.size()); };
    d["rope"] = {{"q", row_of(t.Q.block(row, head * s.d_k, 1, s.d_k))}, {"k", row_of(t.K.block(col, g * s.d_k, 1, s.d_k))},
                 {"q_position", row}, {"k_position", col}};
  }
  // With a bias or a cap the logit is softcap(raw * scale + bias) / temperature, said term by term.
  if (!t.bias.empty() || s.softcap) {
    const double raw = d["score"]["raw"];
    const double bias = t.bias.empty() ? 0.0 : t.bias[static_cast<std::size_t>(head)](row, col);
    const double before_cap = raw * t.scale + bias;
    d["score"]["scale"] = t.scale;
    d["score"]["temperature"] = s.temperature;
    if (!t.bias.empty()) d["score"]["bias"] = bias;
    if (s.softcap) {
      d["score"]["softcap"] = *s.softcap;
      d["score"]["before_cap"] = before_cap;
    }
  }
  d["score"]["value"] = t.scores[static_cast<std::size_t>(head)](row, col);  // exactly the trace's number
  if (matrix == "weights") {
    std::vector<double> scores(static_cast<std::size_t>(m));
    std::vector<bool> visible(static_cast<std::size_t>(m));
    for (long j = 0; j < m; ++j) {
      scores[static_cast<std::size_t>(j)] = t.scores[static_cast<std::size_t>(head)](row, j);
      visible[static_cast<std::size_t>(j)] = t.mask.size() == 0 || t.mask(row, j) != 0.0;
    }
    d["softmax"] = softmax_terms(s, scores, visible, col);
    d["softmax"]["value"] = t.weights[static_cast<std::size_t>(head)](row, col);
  }
  return d;
}

json derive_text(const std::string& request) {
  const auto fail = [](const Error& e) { return json{{"error", {{"field", e.field}, {"message", e.message}}}}; };
  const auto parsed = json_read::parse_request(request, "derive: expected {spec, matrix, head, row, col}");
  if (!parsed) return fail(parsed.error());
  const json& r = parsed.value();
  if (!r.contains("spec")) return fail(error_at("spec", "derive: give the spec of the trace"));
  const auto spec = parse_spec(r.at("spec"));
  if (!spec) return fail(spec.error());
  if (r.contains("matrix") && !r.at("matrix").is_string()) return fail(error_at("matrix", "must be scores, weights or output"));
  // An index that is missing or not a whole number is -1 (refused by derive), head defaults to 0.
  const auto index = [&](const char* k, long missing) -> long {
    std::int64_t v;
    if (!r.contains(k)) return missing;
    return json_read::integral(r.at(k), 0, 1 << 30, v) ? static_cast<long>(v) : -1;
  };
  const auto d = derive(spec.value(), r.value("matrix", std::string()), index("head", 0), index("row", -1), index("col", -1));
  return d ? d.value() : fail(d.error());
}

}  // namespace attention
