#pragma once
// Self-attention, every intermediate kept: the trace a learner reads step by step.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <variant>

#include "attention/core/decode.hpp"
#include "attention/core/error.hpp"
#include "attention/core/head_detector.hpp"
#include "attention/core/head_pass.hpp"
#include "attention/core/online_softmax.hpp"
#include "attention/core/parameters.hpp"
#include "attention/core/prose.hpp"
#include "attention/core/scalar.hpp"
#include "attention/core/spec.hpp"

namespace attention {

// What a layer's key/value heads cost at this spec's widths: its weights and what a decoder
// caches per token (one key and one value row per key/value head).
struct KvCost {
  long kv_heads = 0;
  std::uint64_t parameters = 0;       // W_q + W_k + W_v (+ W_o)
  std::uint64_t cache_per_token = 0;  // kv_heads x (d_k + d_v) numbers
};

// Self-attention, and cross-attention (queries from the sentence, keys and values from the
// source: m = the source's length; in self mode m = n and the source is the sentence). What a
// trace holds is what it shows: every field is an entry of its schema below.
template <class T>
struct SelfTrace {
  std::vector<std::string> tokens;
  Parameters parameters;                 // X, W_q, W_k, W_v, W_o, score weights (double)
  std::optional<MatrixT<T>> positional;  // (n, d) sinusoidal encoding
  std::optional<MatrixT<T>> X_in;        // (n, d) X plus positional, when on
  std::optional<MatrixT<T>> positional_source;  // (m, d) cross: the source's sinusoidal encoding
  std::optional<MatrixT<T>> X_source_in;        // (m, d) cross: X_source plus its positional encoding
  MatrixT<T> Q, K, V;                    // (n, h*d_k), (m, kv_heads*d_k), (m, kv_heads*d_v)
  std::optional<MatrixT<T>> Q_norm, K_norm;  // qk_norm: each head's rows over their RMS, shaped like Q and K
  std::optional<Matrix> rope_angles;     // (max(n, m), d_k/2): position x pair
  std::optional<MatrixT<T>> Q_rope, K_rope;  // Q and K rotated, shaped like them
  std::vector<long> kv_group;            // h: the key/value head each query head reads
  std::vector<KvCost> kv_costs;          // multi-head (kv_heads = heads), this spec's, multi-query (1)
  std::vector<double> alibi_slopes;      // h
  std::vector<Matrix> bias;              // h x (n, m): -slope |i - j|
  double scale = 1;                      // multiplies the scores
  MatrixT<T> mask;                       // (n, m) 1 visible, 0 hidden; empty for none
  // h x (n, m): score(q, k) alone, before scale, bias, cap and temperature. Kept only with ALiBi
  // or a softcap, where the scores are not a multiple of it and the page cannot divide it back out.
  std::vector<MatrixT<T>> raw_scores;
  std::vector<MatrixT<T>> scores;        // h x (n, m): softcap(score * scale + bias) / temperature
  std::vector<MatrixT<T>> weights;       // h x (n, m)
  std::vector<HeadScores> head_scores;   // h, self mode: what each head's weights do (head_detector.hpp)
  std::vector<MatrixT<T>> heads;         // h x (n, d_v)
  MatrixT<T> concat;                     // (n, h*d_v)
  MatrixT<T> output;                     // (n, d) with W_o, else (n, h*d_v)
  std::optional<MatrixT<T>> residual_sum;  // (n, d) X_in + output
  std::optional<MatrixT<T>> normalized;    // (n, d) layer norm of the above
  std::vector<long> empty_rows;            // query rows with every key masked (weights 0)
  std::vector<std::vector<OnlineBlock>> online;  // h x blocks: the online softmax, when asked for
  std::vector<DecodeStep> decode;                // n: generation with a KV cache, when asked for
  std::optional<DecodeCost> decode_cost;         // its multiply-adds, with and without the cache
};

// One entry of a trace: the serialiser writes a trace by walking these rows (and computes
// nothing), the page's Trace type and its walkthrough read them at build time, the NumPy
// program and the fixture tests take their names from them.
struct TraceInfo {
  TraceInfo(const char* name, const char* shape, const char* when, const char* kind, const char* step, const char* label,
            const char* rows, const char* group, const char* role)
      : name(name), shape(shape), when(when), kind(kind), step(step), label(prose(label)), rows(rows), group(group), role(role) {}
  const char* name;
  const char* shape;  // in the spec's terms: "n x d_model", "heads x n x m"; one term: a vector
  const char* when;   // "" always; else the spec that puts it in the trace: "positional=rope",
                      // "mode=cross positional=sinusoidal" (all of), "positional=alibi|softcap" (any of)
  const char* kind;   // signed, weights (0 to 1), mask (0/1), count, index, text, steps, spec, detector
                      // (a head's pattern scores), layers (the trained model's, each a self trace)
  const char* step;   // the walkthrough step that shows it ("" none)
  const char* label;  // what it is, in a line
  const char* rows;   // what its rows are: "tokens", "source" ("" none)
  const char* group;  // entries of one group are drawn over one colour range ("" its own)
  const char* role;   // "query" or "key": the rows a score reads, in the order they are made
};

template <class Trace>
using TraceMember = std::variant<std::monostate, Matrix Trace::*, std::optional<Matrix> Trace::*, std::vector<Matrix> Trace::*,
                                 Vector Trace::*, std::vector<long> Trace::*, std::vector<double> Trace::*, double Trace::*,
                                 std::vector<std::string> Trace::*, Matrix Parameters::*, std::optional<Matrix> Parameters::*,
                                 std::vector<std::vector<OnlineBlock>> Trace::*, std::vector<DecodeStep> Trace::*,
                                 std::optional<DecodeCost> Trace::*, std::vector<KvCost> Trace::*,
                                 std::vector<HeadScores> Trace::*>;

template <class Trace>
struct TraceEntry : TraceInfo {
  TraceMember<Trace> member;  // monostate: written by the caller (the spec, the warnings)
};

using SelfEntry = TraceEntry<SelfTrace<double>>;

inline const std::vector<SelfEntry>& self_trace_schema() {
  using S = SelfTrace<double>;
  static const std::vector<SelfEntry> rows = {
      {{"tokens", "n", "", "text", "", "the tokens, in order", "", "", ""}, &S::tokens},
      {{"spec", "", "", "spec", "", "the spec with every default filled in", "", "", ""}, {}},
      {{"X", "n x d_model", "", "signed", "embed", "one embedding per token", "tokens", "X", ""}, &Parameters::X},
      {{"source_tokens", "m", "mode=cross", "text", "", "the source's tokens", "", "", ""}, {}},
      {{"X_source", "m x d_model", "mode=cross", "signed", "embed", "the source's embeddings", "source", "X", ""}, &Parameters::X_source},
      {{"positional", "n x d_model", "positional=sinusoidal", "signed", "embed", "the sinusoidal encoding", "tokens", "X", ""}, &S::positional},
      {{"X_in", "n x d_model", "positional=sinusoidal", "signed", "embed", "X plus the encoding", "tokens", "X", ""}, &S::X_in},
      {{"positional_source", "m x d_model", "mode=cross positional=sinusoidal", "signed", "", "the source's encoding", "source", "X", ""},
       &S::positional_source},
      {{"X_source_in", "m x d_model", "mode=cross positional=sinusoidal", "signed", "", "X_source plus its encoding", "source", "X", ""},
       &S::X_source_in},
      {{"W_q", "d_model x heads*d_k", "", "signed", "project", "query weights", "", "W", ""}, &Parameters::W_q},
      {{"W_k", "d_model x kv_heads*d_k", "", "signed", "project", "key weights", "", "W", ""}, &Parameters::W_k},
      {{"W_v", "d_model x kv_heads*d_v", "", "signed", "project", "value weights", "", "W", ""}, &Parameters::W_v},
      {{"Q", "n x heads*d_k", "", "signed", "project", "the queries", "tokens", "QKV", "query"}, &S::Q},
      {{"K", "m x kv_heads*d_k", "", "signed", "project", "the keys", "source", "QKV", "key"}, &S::K},
      {{"V", "m x kv_heads*d_v", "", "signed", "project", "the values", "source", "QKV", ""}, &S::V},
      {{"kv_group", "heads", "", "index", "project", "the key/value head each query head reads", "", "", ""}, &S::kv_group},
      {{"Q_norm", "n x heads*d_k", "qk_norm", "signed", "project", "each head's query row over its root mean square", "tokens", "QKV", "query"},
       &S::Q_norm},
      {{"K_norm", "m x kv_heads*d_k", "qk_norm", "signed", "project", "each head's key row over its root mean square", "source", "QKV", "key"},
       &S::K_norm},
      {{"kv_costs", "", "", "count", "", "parameters and cache per token: multi-head, this spec's, multi-query", "", "", ""},
       &S::kv_costs},
      {{"rope_angles", "max(n, m) x d_k/2", "positional=rope", "signed", "rotate", "the angle of each position and pair, in radians", "", "", ""},
       &S::rope_angles},
      {{"Q_rope", "n x heads*d_k", "positional=rope", "signed", "rotate", "Q turned by its positions", "tokens", "QKV", "query"}, &S::Q_rope},
      {{"K_rope", "m x kv_heads*d_k", "positional=rope", "signed", "rotate", "K turned by its positions", "source", "QKV", "key"}, &S::K_rope},
      {{"raw_scores", "heads x n x m", "positional=alibi|softcap", "signed", "score", "score(q, k) before scale, bias, cap and temperature",
        "tokens", "", ""}, &S::raw_scores},
      {{"W_a", "d_k x d_k", "score=general", "signed", "score", "bilinear weights", "", "", ""}, &Parameters::W_a},
      {{"W_1", "d_k x d_a", "score=additive", "signed", "score", "additive scoring's query weights", "", "W_12", ""}, &Parameters::W_1},
      {{"W_2", "d_k x d_a", "score=additive", "signed", "score", "additive scoring's key weights", "", "W_12", ""}, &Parameters::W_2},
      {{"v_a", "d_a", "score=additive", "signed", "", "additive scoring's output vector", "", "", ""}, &Parameters::v_a},
      {{"alibi_slopes", "heads", "positional=alibi", "signed", "alibi", "each head's slope m_h", "", "", ""}, &S::alibi_slopes},
      {{"bias", "heads x n x m", "positional=alibi", "signed", "alibi", "-m_h |i - j|", "tokens", "", ""}, &S::bias},
      {{"scale", "", "", "signed", "", "what the scores are multiplied by", "", "", ""}, &S::scale},
      {{"mask", "n x m", "mask", "mask", "mask", "1 visible, 0 hidden", "tokens", "", ""}, &S::mask},
      {{"scores", "heads x n x m", "", "signed", "scale", "the logits: softcap(score x scale + bias) / temperature", "tokens", "", ""},
       &S::scores},
      {{"weights", "heads x n x m", "", "weights", "softmax", "each row a distribution over the keys", "tokens", "", ""}, &S::weights},
      {{"head_scores", "heads", "mode=self", "detector", "", "each head's previous-token, duplicate-token, induction and first-token score",
        "", "", ""}, &S::head_scores},
      {{"heads", "heads x n x d_v", "", "signed", "weigh", "each head's output: weights times V", "tokens", "heads", ""}, &S::heads},
      {{"concat", "n x heads*d_v", "", "signed", "concat", "the heads side by side", "tokens", "heads", ""}, &S::concat},
      {{"W_o", "heads*d_v x d_model", "heads>1|W_o", "signed", "concat", "output weights", "", "", ""}, &Parameters::W_o},
      {{"output", "n x d_model", "", "signed", "concat", "the attention output", "tokens", "", ""}, &S::output},
      {{"residual_sum", "n x d_model", "residual", "signed", "sublayer", "X_in plus the output", "tokens", "sublayer", ""}, &S::residual_sum},
      {{"normalized", "n x d_model", "layer_norm", "signed", "sublayer", "each row to mean 0, variance 1", "tokens", "sublayer", ""},
       &S::normalized},
      {{"empty_rows", "", "", "index", "", "query rows with every key masked", "", "", ""}, &S::empty_rows},
      {{"decode", "n", "decode", "steps", "decode", "each step's caches, scores, weights and output row", "", "", ""}, &S::decode},
      {{"decode_cost", "", "decode", "count", "", "multiply-adds with and without the cache", "", "", ""}, &S::decode_cost},
      {{"online", "heads x blocks", "online_block", "steps", "online", "each block's m, l, rescale and o", "", "", ""}, &S::online},
      {{"warnings", "", "", "text", "", "what the learner should know about these numbers", "", "", ""}, {}},
  };
  return rows;
}

// `kept`: the caller's last draw, reused when this spec's weights are the same (parameters.hpp).
template <class T>
Result<SelfTrace<T>> run_self(const Spec& spec, KeptDraw* kept = nullptr);

// 1 where query i may see key j under the spec's mask, 0 where not; empty for no mask. (n, m)
template <class T>
MatrixT<T> visibility(const Spec& spec, long n, long m);

// Vaswani et al.: PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(same).
Matrix sinusoidal_encoding(long n, long d);  // (n, d)

// Each row to mean 0 and variance 1 (biased), eps 1e-5, as torch.nn.functional.layer_norm.
template <class T>
MatrixT<T> layer_norm_rows(const MatrixT<T>& x);

}  // namespace attention
