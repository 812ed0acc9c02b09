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

template <class T>
struct SelfTrace {
  std::vector<std::string> tokens;
  Parameters parameters;                 // X, W_q, W_k, W_v, W_o, score weights (double)
  std::optional<MatrixT<T>> positional;  // (n, d) sinusoidal encoding
  MatrixT<T> X_in;                       // (n, d) X, plus positional when on
  MatrixT<T> Q, K, V;                    // (n, h*d_k), (n, h*d_k), (n, h*d_v)
  double scale = 1;                      // multiplies the scores
  MatrixT<T> mask;                       // (n, n) 1 visible, 0 hidden; empty for none
  std::vector<MatrixT<T>> scores;        // h x (n, n): score * scale / temperature
  std::vector<MatrixT<T>> weights;       // h x (n, n)
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

// Vaswani et al.: PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(same).
Matrix sinusoidal_encoding(long n, long d);  // (n, d)

// Each row to mean 0 and variance 1 (biased), eps 1e-5, as torch.nn.functional.layer_norm.
template <class T>
MatrixT<T> layer_norm_rows(const MatrixT<T>& x);

// The key to blame when scores overflow, so the page can show the message beside it: the
// scale or the temperature when the scores were finite before them, else the inputs.
std::string score_overflow_field(const Spec& spec, bool unscaled_finite);

}  // namespace attention
