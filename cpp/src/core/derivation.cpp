#include "attention/core/derivation.hpp"

#include <cmath>
#include <map>
#include <utility>

#include "attention/core/alibi.hpp"
#include "attention/core/attention.hpp"
#include "attention/core/encoder_decoder.hpp"

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

namespace {

// What one query row of one head is made of: the only part of a trace a clicked cell needs. A
// whole trace at 512 tokens is every head's n x m scores, and the decode steps and online blocks
// beside them; a cell reads one query row and the keys and values of its head's group. The
// numbers are made as the trace makes them (the same products of the same rows and columns).
struct HeadRow {
  long kv_head = 0;
  Matrix q_plain, q;  // (1, d_k): the query row as projected, and as the score reads it
  Matrix K_plain, K;  // (m, d_k): the keys of the head's key/value group, the same
  ScoredRows<double> queries, keys;  // the stages between
  Matrix V;           // (m, d_v)
  Matrix bias;        // (1, m): ALiBi's, or empty
  Matrix logits;      // (1, m): the trace's scores row
  Matrix weights;     // (1, m)
  Matrix out;         // (1, d_v): the head's output row
};

class CellRows {
 public:
  CellRows(const Spec& s, long row) : s_(s), row_(row), p_(draw_parameters(s)) {
    const bool cross = s.mode == Mode::cross;
    const long n = static_cast<long>(s.tokens.size()), d = s.d_model;
    const long m = cross ? static_cast<long>(s.source_tokens.size()) : n;
    x_ = p_.X.row(row);                              // (1, d)
    source_ = cross ? p_.X_source : p_.X;            // (m, d)
    if (s.positional == Positional::sinusoidal) {    // the encoding's rows do not depend on n
      x_ += sinusoidal_encoding(row + 1, d).row(row);
      source_ += sinusoidal_encoding(m, d);
    }
    visible_ = visibility<double>(s, n, m);
    if (visible_.size()) visible_ = Matrix(visible_.row(row));  // (1, m)
    if (s.positional == Positional::alibi) slopes_ = alibi_slopes(s.heads);
  }

  const Parameters& parameters() const { return p_; }

  Result<HeadRow> head(long i) {
    const long dk = s_.d_k, dv = s_.d_v, g = i / (s_.heads / s_.kv_heads);
    HeadRow r;
    r.kv_head = g;
    r.q_plain = x_ * p_.W_q->middleCols(i * dk, dk);  // (1, d_k)
    if (!group_keys_.count(g)) {
      Matrix k = source_ * p_.W_k->middleCols(g * dk, dk), v = source_ * p_.W_v->middleCols(g * dv, dv);
      group_keys_[g] = {std::move(k), std::move(v)};
    }
    r.K_plain = group_keys_[g].first;
    r.V = group_keys_[g].second;
    for (const Matrix* x : {&x_, &source_, &r.q_plain, &r.K_plain, &r.V}) {
      if (!x->allFinite()) return error_at("X", "the projections Q, K, V overflow; use smaller values in X or the weights");
    }
    r.queries = scored_rows<double>(s_, r.q_plain, row_);
    r.keys = scored_rows<double>(s_, r.K_plain);
    r.q = r.queries.last(r.q_plain);
    r.K = r.keys.last(r.K_plain);
    if (!slopes_.empty()) r.bias = alibi_bias_row(slopes_[static_cast<std::size_t>(i)], row_, r.K.rows());
    ATTENTION_TRY(pass, head_pass<double>(s_, p_, r.q, r.K, r.V, r.bias, visible_, i));
    r.logits = std::move(pass.logits);
    r.weights = std::move(pass.weights);
    r.out = std::move(pass.out);
    return r;
  }

  bool visible(long j) const { return visible_.size() == 0 || visible_(0, j) != 0.0; }

 private:
  const Spec& s_;
  long row_;
  Parameters p_;
  Matrix x_;        // (1, d): the query's input row, with its positional encoding
  Matrix source_;   // (m, d): what keys and values come from
  Matrix visible_;  // (1, m), or empty for no mask
  std::vector<double> slopes_;
  std::map<long, std::pair<Matrix, Matrix>> group_keys_;  // key/value head -> its K (m, d_k), V (m, d_v)
};

}  // namespace

Result<json> derive(const Spec& s, const std::string& matrix, long head, long row, long col) {
  if (matrix != "scores" && matrix != "weights" && matrix != "output") {
    return error_at("matrix", "must be scores, weights or output, got \"" + matrix + "\"");
  }
  const long n = static_cast<long>(s.tokens.size());
  json d{{"matrix", matrix}, {"head", head}, {"row", row}, {"col", col}};

  if (s.mode == Mode::encoder_decoder) {  // one query: the whole computation is one row already
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
  const std::vector<std::string>& keys = s.mode == Mode::cross ? s.source_tokens : s.tokens;
  const long m = static_cast<long>(keys.size());
  const long width = s.heads > 1 || s.W_o ? s.d_model : s.heads * s.d_v;  // an output row
  if (matrix == "output" ? col < 0 || col >= width : col < 0 || col >= m) return out_of_range("col", col, matrix == "output" ? width : m);
  CellRows cell(s, row);
  const Parameters& p = cell.parameters();
  d["query_token"] = s.tokens[static_cast<std::size_t>(row)];

  if (matrix == "output") {
    json terms = json::array();
    double value = 0;
    if (p.W_o) {  // output = concat W_o: the query's row of every head
      Matrix concat(1, s.heads * s.d_v);
      for (long i = 0; i < s.heads; ++i) {
        ATTENTION_TRY(r, cell.head(i));
        concat.middleCols(i * s.d_v, s.d_v) = r.out;
      }
      const Matrix out = after_heads<double>(p, concat).col(col);  // (1, 1)
      if (!concat.allFinite() || !out.allFinite()) return error_at("X", "the attention output overflows; use smaller values");
      for (long k = 0; k < concat.cols(); ++k) {
        terms.push_back({{"concat", concat(0, k)}, {"W_o", (*p.W_o)(k, col)}, {"product", concat(0, k) * (*p.W_o)(k, col)}});
      }
      d["via"] = "W_o";
      value = out(0, 0);
    } else {      // output = weights V, one head
      ATTENTION_TRY(r, cell.head(0));
      const Matrix out = after_heads<double>(p, r.out).col(col);  // (1, 1): the head's row, with no W_o
      if (!out.allFinite()) return error_at("X", "the attention output overflows; use smaller values");
      for (long j = 0; j < m; ++j) {
        terms.push_back({{"token", keys[static_cast<std::size_t>(j)]}, {"weight", r.weights(0, j)},
                         {"v", r.V(j, col)}, {"product", r.weights(0, j) * r.V(j, col)}});
      }
      d["via"] = "weights";
      value = out(0, 0);
    }
    d["terms"] = terms;
    d["value"] = value;
    return d;
  }

  d["key_token"] = keys[static_cast<std::size_t>(col)];
  ATTENTION_TRY(r, cell.head(head));
  const double scale = effective_scale(s), factor = scale / s.temperature;
  // The rows the score is made of: rotated with rope, and the key from the head's key/value group.
  d["score"] = score_terms(s, p, r.q, r.K.row(col), factor);
  d["kv_head"] = r.kv_head;
  // The query's and the key's rows at every stage, named as the trace names them; the last is
  // the one the score reads.
  const auto row_of = [](const auto& x) { return std::vector<double>(x.data(), x.data() + x.size()); };
  json stages = json::array({{{"q_name", "Q"}, {"k_name", "K"}, {"q", row_of(r.q_plain)}, {"k", row_of(r.K_plain.row(col))}}});
  const auto q_stages = r.queries.stages(), k_stages = r.keys.stages();
  for (std::size_t i = 0; i < q_stages.size(); ++i) {
    stages.push_back({{"q_name", std::string("Q") + q_stages[i].first}, {"k_name", std::string("K") + k_stages[i].first},
                      {"q", row_of(*q_stages[i].second)}, {"k", row_of(k_stages[i].second->row(col))}});
  }
  d["stages"] = stages;
  if (s.positional == Positional::rope) {
    const json& before = stages[stages.size() - 2];  // the rows RoPE turns
    d["rope"] = {{"q", before["q"]}, {"k", before["k"]}, {"q_position", row}, {"k_position", col}};
  }
  // With a bias or a cap the logit is softcap(raw * scale + bias) / temperature, said term by term.
  if (r.bias.size() || s.softcap) {
    const double raw = d["score"]["raw"];
    const double bias = r.bias.size() ? r.bias(0, col) : 0.0;
    const double before_cap = raw * scale + bias;
    d["score"]["scale"] = scale;
    d["score"]["temperature"] = s.temperature;
    if (r.bias.size()) d["score"]["bias"] = bias;
    if (s.softcap) {
      d["score"]["softcap"] = *s.softcap;
      d["score"]["before_cap"] = before_cap;
    }
  }
  d["score"]["value"] = r.logits(0, col);  // the trace's number: its row, made the same way
  if (matrix == "weights") {
    std::vector<double> scores(static_cast<std::size_t>(m));
    std::vector<bool> visible(static_cast<std::size_t>(m));
    for (long j = 0; j < m; ++j) {
      scores[static_cast<std::size_t>(j)] = r.logits(0, j);
      visible[static_cast<std::size_t>(j)] = cell.visible(j);
    }
    d["softmax"] = softmax_terms(s, scores, visible, col);
    d["softmax"]["value"] = r.weights(0, col);
  }
  return d;
}

const std::vector<DerivedRecord>& derivation_schema() {
  static const std::vector<DerivedRecord> records = {
      {"ScoreTerm", "One term of a score, with what it adds (product): q·k's, q·(W_a k)'s or the additive score's.", {},
       {{"product", "number"}},
       {{{"q", "number"}, {"k", "number"}}, {{"q", "number"}, {"W_a_k", "number"}},
        {{"q_W_1", "number"}, {"k_W_2", "number"}, {"tanh", "number"}, {"v_a", "number"}}}},
      {"Score", "A score term by term: raw is their sum, value = raw × factor (scale ÷ temperature).", {},
       {{"terms", "ScoreTerm[]"}, {"raw", "number"}, {"factor", "number"}, {"value", "number"}}},
      {"Logit", "With ALiBi's bias or a softcap: value = softcap(raw × scale + bias) / temperature, each part said.", {"Score"},
       {{"scale", "number"}, {"temperature", "number"}, {"bias", "number", true}},
       {{}, {{"softcap", "number"}, {"before_cap", "number"}}}},
      {"Stage", "The rows a score reads at one stage, named as the trace names them (Q, Q_norm, Q_rope, ...).", {},
       {{"q_name", "string"}, {"k_name", "string"}, {"q", "number[]"}, {"k", "number[]"}}},
      {"RopeTurn", "RoPE's turn of the query's and the key's rows, by their positions.", {},
       {{"q", "number[]"}, {"k", "number[]"}, {"q_position", "integer"}, {"k_position", "integer"}}},
      {"Weighing", "How a weight came from its row of scores: every key masked (all 0), hard attention's highest visible score, or the softmax's exp(score − max) over their sum.", {},
       {{"row_scores", "number[]"}, {"visible", "boolean[]"}, {"value", "number"}},
       {{{"empty_row", "true"}}, {{"max", "number"}, {"argmax", "integer"}}, {{"max", "number"}, {"exps", "number[]"}, {"sum", "number"}}}},
      {"Cell", "The cell derived, numbered from 0 as the trace's arrays.", {},
       {{"head", "integer"}, {"row", "integer"}, {"col", "integer"}, {"query_token", "string"}}},
      {"Scored", "A score's derivation; encoder_decoder's has no key/value head and no stages.", {"Cell"},
       {{"key_token", "string"}, {"score", "Score | Logit"}, {"kv_head", "integer", true}, {"stages", "Stage[]", true},
        {"rope", "RopeTurn", true}}},
      {"ScoresCell", "A clicked score.", {"Scored"}, {{"matrix", "\"scores\""}}},
      {"WeightsCell", "A clicked weight: its score, then its row's softmax.", {"Scored"}, {{"matrix", "\"weights\""}, {"softmax", "Weighing"}}},
      {"ConcatTerm", "A term of concat times a column of W_o.", {}, {{"concat", "number"}, {"W_o", "number"}, {"product", "number"}}},
      {"ValueTerm", "A term of weights times a column of V (one head, no W_o).", {},
       {{"token", "string"}, {"weight", "number"}, {"v", "number"}, {"product", "number"}}},
      {"OutputCell", "A clicked output: concat times a column of W_o, or (one head, no W_o) weights times a column of V.", {"Cell"},
       {{"matrix", "\"output\""}, {"value", "number"}},
       {{{"via", "\"W_o\""}, {"terms", "ConcatTerm[]"}}, {{"via", "\"weights\""}, {"terms", "ValueTerm[]"}}}},
      {"CellDerivation", "How one cell came to be, as derive() writes it.", {}, {}, {}, "ScoresCell | WeightsCell | OutputCell"},
  };
  return records;
}

}  // namespace attention
