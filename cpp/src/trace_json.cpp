#include "attention/trace_json.hpp"

#include "attention/attention.hpp"
#include "attention/decode.hpp"
#include "attention/encoder_decoder.hpp"
#include "attention/json_read.hpp"
#include "attention/limits.hpp"
#include "attention/online_softmax.hpp"

namespace attention {

using nlohmann::json;

json matrix_json(const Matrix& m) {
  json rows = json::array();
  for (long r = 0; r < m.rows(); ++r) {
    json row = json::array();
    for (long c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

json vector_json(const Vector& v) {
  json out = json::array();
  for (long i = 0; i < v.size(); ++i) out.push_back(v(i));
  return out;
}

namespace {

// Where the numbers of a trace go: nested JSON arrays, or (packed) a flat buffer that the JSON
// points into with {"@": offset, "shape": [rows, cols]}. Parsing a 512-token trace as JSON
// costs a second in the browser; the packed form crosses the wasm boundary as one copy.
class Numbers {
 public:
  explicit Numbers(std::vector<double>* packed) : packed_(packed) {}

  json matrix(const Matrix& m) const {
    if (!packed_) return matrix_json(m);
    json ref = {{"@", packed_->size()}, {"shape", {m.rows(), m.cols()}}};
    packed_->insert(packed_->end(), m.data(), m.data() + m.size());  // row-major: already in order
    return ref;
  }

  json vector(const Vector& v) const {
    if (!packed_) return vector_json(v);
    json ref = {{"@", packed_->size()}, {"shape", {v.size()}}};
    packed_->insert(packed_->end(), v.data(), v.data() + v.size());
    return ref;
  }

  json stack(const std::vector<Matrix>& ms) const {
    json out = json::array();
    for (const auto& m : ms) out.push_back(matrix(m));
    return out;
  }

 private:
  std::vector<double>* packed_;
};

void put_parameters(json& j, const Parameters& p, const Numbers& out) {
  const std::pair<const char*, const std::optional<Matrix>*> named[] = {
      {"W_q", &p.W_q}, {"W_k", &p.W_k}, {"W_v", &p.W_v}, {"W_o", &p.W_o},
      {"W_a", &p.W_a}, {"W_1", &p.W_1}, {"W_2", &p.W_2}, {"W_c", &p.W_c},
  };
  for (const auto& [key, m] : named) {
    if (m->has_value()) j[key] = out.matrix(**m);
  }
  if (p.v_a) j["v_a"] = out.vector(p.v_a->row(0).transpose());
}

// m: null where a row has seen no visible key yet.
json optional_numbers(const std::vector<std::optional<double>>& v) {
  json a = json::array();
  for (const auto& x : v) a.push_back(x ? json(*x) : json(nullptr));
  return a;
}

json self_json(const Spec& s, const SelfTrace<double>& t, const Numbers& out) {
  json j;
  const bool cross = s.mode == Mode::cross;
  j["X"] = out.matrix(t.parameters.X);
  if (cross) {
    j["source_tokens"] = s.source_tokens;
    j["X_source"] = out.matrix(t.parameters.X_source);
  }
  if (t.positional) {
    j["positional"] = out.matrix(*t.positional);
    j["X_in"] = out.matrix(t.X_in);
    if (cross) {
      j["positional_source"] = out.matrix(*t.positional_source);
      j["X_source_in"] = out.matrix(t.X_source_in);
    }
  }
  put_parameters(j, t.parameters, out);
  j["Q"] = out.matrix(t.Q);
  j["K"] = out.matrix(t.K);
  j["V"] = out.matrix(t.V);
  j["kv_group"] = t.kv_group;
  if (t.rope_angles) {
    j["rope_angles"] = out.matrix(*t.rope_angles);
    j["Q_rope"] = out.matrix(*t.Q_rope);
    j["K_rope"] = out.matrix(*t.K_rope);
  }
  if (!t.alibi_slopes.empty()) {
    j["alibi_slopes"] = t.alibi_slopes;
    j["bias"] = out.stack(t.bias);
  }
  j["scale"] = t.scale;
  if (s.mask != MaskKind::none) j["mask"] = out.matrix(t.mask);
  if (!t.raw_scores.empty()) j["raw_scores"] = out.stack(t.raw_scores);
  j["scores"] = out.stack(t.scores);
  j["weights"] = out.stack(t.weights);
  j["heads"] = out.stack(t.heads);
  j["concat"] = out.matrix(t.concat);
  j["output"] = out.matrix(t.output);
  if (t.residual_sum) j["residual_sum"] = out.matrix(*t.residual_sum);
  if (t.normalized) j["normalized"] = out.matrix(*t.normalized);
  j["empty_rows"] = t.empty_rows;
  if (s.online_block > 0) {
    json heads = json::array();
    for (std::size_t i = 0; i < t.scores.size(); ++i) {
      const long g = t.kv_group[i];
      json blocks = json::array();
      for (const auto& b : online_softmax(t.scores[i], t.mask, t.V.middleCols(g * s.d_v, s.d_v), s.online_block)) {
        blocks.push_back({{"keys", {b.start, b.end}}, {"m", optional_numbers(b.m)}, {"l", out.vector(b.l)},
                          {"rescale", out.vector(b.rescale)}, {"o", out.matrix(b.o)}});
      }
      heads.push_back(std::move(blocks));
    }
    j["online"] = std::move(heads);
  }
  if (!t.empty_rows.empty()) {
    j["warnings"].push_back(std::to_string(t.empty_rows.size()) +
                            " row(s) have every position masked; their weights are all 0");
  }
  return j;
}

json encoder_decoder_json(const EncoderDecoderTrace<double>& t, const Numbers& out) {
  json j;
  j["annotations"] = out.matrix(t.parameters.X);
  j["decoder_state"] = out.vector(t.parameters.decoder_state->row(0).transpose());
  put_parameters(j, t.parameters, out);
  j["scale"] = t.scale;
  j["scores"] = out.vector(t.scores);
  j["weights"] = out.vector(t.weights);
  j["weighted"] = out.matrix(t.weighted);
  j["context"] = out.vector(t.context);
  j["output"] = out.vector(t.output);
  return j;
}

}  // namespace

Result<json> run_trace(const Spec& s, std::vector<double>* packed) {
  const Numbers out(packed);
  json j;
  if (s.mode != Mode::encoder_decoder) {
    auto t = run_self<double>(s);
    if (!t) return t.error();
    j = self_json(s, t.value(), out);
    if (s.decode) {
      const auto d = run_decode(s, t.value().parameters);
      if (!d) return d.error();
      json steps = json::array();
      for (const auto& step : d.value().steps) {
        steps.push_back({{"t", step.t}, {"k_cache", out.matrix(step.k_cache)}, {"v_cache", out.matrix(step.v_cache)},
                         {"scores", out.matrix(step.scores)}, {"weights", out.matrix(step.weights)},
                         {"output", out.vector(step.output.row(0).transpose())}});
      }
      j["decode"] = std::move(steps);
      j["decode_cost"] = {{"with_cache", d.value().with_cache}, {"without_cache", d.value().without_cache}};
    }
  } else {
    auto t = run_encoder_decoder<double>(s);
    if (!t) return t.error();
    j = encoder_decoder_json(t.value(), out);
  }
  j["spec"] = to_json(s);
  j["tokens"] = s.tokens;
  if (!j.contains("warnings")) j["warnings"] = json::array();
  return j;
}

json parameters_json(const Spec& s) {
  const Parameters p = draw_parameters(s);
  const Numbers out(nullptr);
  json j;
  j["tokens"] = s.tokens;
  if (s.mode == Mode::encoder_decoder) {
    j["annotations"] = out.matrix(p.X);
    j["decoder_state"] = out.vector(p.decoder_state->row(0).transpose());
  } else {
    j["X"] = out.matrix(p.X);
    if (s.mode == Mode::cross) {
      j["source_tokens"] = s.source_tokens;
      j["X_source"] = out.matrix(p.X_source);
    }
  }
  put_parameters(j, p, out);
  return j;
}

json parameters_text(const std::string& text) {
  const auto parsed = json_read::parse_text(text, "the spec is not valid JSON");
  if (!parsed) return error_json(parsed.error());
  const auto spec = parse_spec_unbounded(parsed.value());
  if (!spec) return error_json(spec.error());
  const std::size_t drawn = drawn_numbers(spec.value());
  if (drawn > limits::max_trace_cells) {
    return error_json(error_at("d_model", "this spec would draw about " + std::to_string(drawn) + " numbers; the limit is " +
                                        std::to_string(limits::max_trace_cells) + " (a smaller d_model, d_k, d_v or fewer heads)"));
  }
  return parameters_json(spec.value());
}

json run_trace_text(const std::string& text, std::vector<double>* packed) {
  auto spec = parse_spec_text(text);
  Result<json> trace = spec ? run_trace(spec.value(), packed) : Result<json>(spec.error());
  if (!trace) return error_json(trace.error());
  return std::move(trace).value();
}

}  // namespace attention
