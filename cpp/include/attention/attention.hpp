#pragma once
// Self-attention, every intermediate kept: the trace a learner reads step by step.
#include <optional>
#include <string>
#include <vector>

#include "attention/error.hpp"
#include "attention/parameters.hpp"
#include "attention/scalar.hpp"
#include "attention/spec.hpp"

namespace attention {

// Self-attention, and cross-attention (queries from the sentence, keys and values from the
// source: m = the source's length; in self mode m = n and the source is the sentence).
template <class T>
struct SelfTrace {
  std::vector<std::string> tokens;
  Parameters parameters;                 // X, W_q, W_k, W_v, W_o, score weights (double)
  std::optional<MatrixT<T>> positional;  // (n, d) sinusoidal encoding
  MatrixT<T> X_in;                       // (n, d) X, plus positional when on
  std::optional<MatrixT<T>> positional_source;  // (m, d) cross: the source's sinusoidal encoding
  MatrixT<T> X_source_in;                // (m, d) cross: X_source, plus its positional encoding
  MatrixT<T> Q, K, V;                    // (n, h*d_k), (m, kv_heads*d_k), (m, kv_heads*d_v)
  std::optional<Matrix> rope_angles;     // (max(n, m), d_k/2): position x pair
  std::optional<MatrixT<T>> Q_rope, K_rope;  // Q and K rotated, shaped like them
  std::vector<long> kv_group;            // h: the key/value head each query head reads
  std::vector<double> alibi_slopes;      // h
  std::vector<Matrix> bias;              // h x (n, m): -slope |i - j|
  double scale = 1;                      // multiplies the scores
  MatrixT<T> mask;                       // (n, m) 1 visible, 0 hidden; empty for none
  // h x (n, m): score(q, k) alone, before scale, bias, cap and temperature. Kept only with ALiBi
  // or a softcap, where the scores are not a multiple of it and the page cannot divide it back out.
  std::vector<MatrixT<T>> raw_scores;
  std::vector<MatrixT<T>> scores;        // h x (n, m): softcap(score * scale + bias) / temperature
  std::vector<MatrixT<T>> weights;       // h x (n, m)
  std::vector<MatrixT<T>> heads;         // h x (n, d_v)
  MatrixT<T> concat;                     // (n, h*d_v)
  MatrixT<T> output;                     // (n, d) with W_o, else (n, h*d_v)
  std::optional<MatrixT<T>> residual_sum;  // (n, d) X_in + output
  std::optional<MatrixT<T>> normalized;    // (n, d) layer norm of the above
  std::vector<long> empty_rows;            // query rows with every key masked (weights 0)
};

template <class T>
Result<SelfTrace<T>> run_self(const Spec& spec);

// Shared by both modes: scores of queries (rows of q) against keys (rows of k) under the
// spec's score function, before scale and temperature. Shapes: q (n, d_k), k (m, d_k) -> (n, m).
template <class T>
MatrixT<T> score_matrix(const Spec& spec, const Parameters& p, const MatrixT<T>& q, const MatrixT<T>& k);

// The factor the scores are multiplied by: the spec's `scale`, else 1/sqrt(d_k) for scaled_dot.
double effective_scale(const Spec& spec);

// Whether the trace keeps raw_scores: with ALiBi or a softcap the scores are no multiple of q.k.
bool keeps_raw_scores(const Spec& spec);

// The logits of one head from its raw scores score(q, k) (n, m):
// softcap(raw * scale + bias) / temperature, where bias (ALiBi) may be empty and softcap off.
template <class T>
MatrixT<T> logits_of(const Spec& spec, const MatrixT<T>& raw, const Matrix& bias);

// 1 where query i may see key j under the spec's mask, 0 where not; empty for no mask. (n, m)
template <class T>
MatrixT<T> visibility(const Spec& spec, long n, long m);

// Vaswani et al.: PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(same).
Matrix sinusoidal_encoding(long n, long d);  // (n, d)

// Each row to mean 0 and variance 1 (biased), eps 1e-5, as torch.nn.functional.layer_norm.
template <class T>
MatrixT<T> layer_norm_rows(const MatrixT<T>& x);

// The key to blame when scores overflow, so the page can show the message beside it: the
// scale or the temperature when the scores were finite before them, else the inputs.
std::string score_overflow_field(const Spec& spec, bool unscaled_finite);

}  // namespace attention
