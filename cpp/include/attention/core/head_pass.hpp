#pragma once
// One head's attention in stages, written once. The full run, decode's steps, a clicked cell's
// derivation and the encoder-decoder's one query go through these stages in this order, and so
// does the trained model (each of its layers is a run): a variant of attention that changes a
// stage changes it here, for every path.
//
//   scored rows  the projected queries and keys as the score reads them: QK-norm, then RoPE
//   score        score(q, k) under the spec's score function                       (n, m)
//   logits       softcap(score * scale + bias) / temperature                       (n, m)
//   normalise    each row to weights over the keys it sees: softmax or hardmax     (n, m)
//   weigh        weights V                                                         (n, d_v)
//   after        the heads' outputs side by side, times W_o when there is one      (n, width)
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attention/core/error.hpp"
#include "attention/core/parameters.hpp"
#include "attention/core/scalar.hpp"
#include "attention/core/spec.hpp"

namespace attention {

// The rows a head's scores read, made in order from the projected queries or keys (any number
// of whole heads, d_k columns each): QK-norm divides each head's row by its root mean square,
// then RoPE turns them by position. The trace keeps each stage
// under the projection's name and the stage's suffix (Q_rope); the derivation of one cell makes
// them the same way for its rows.
template <class T>
struct ScoredRows {
  std::optional<MatrixT<T>> norm;  // each head's rows over their root mean square (qk_norm)
  std::optional<MatrixT<T>> rope;  // turned by position

  // Every stage made, in order: the suffix of its trace name and its rows.
  std::vector<std::pair<const char*, const MatrixT<T>*>> stages() const {
    std::vector<std::pair<const char*, const MatrixT<T>*>> out;
    if (norm) out.emplace_back("_norm", &*norm);
    if (rope) out.emplace_back("_rope", &*rope);
    return out;
  }
  const MatrixT<T>& last(const MatrixT<T>& projected) const {
    const auto all = stages();
    return all.empty() ? projected : *all.back().second;
  }
};

// `first`: the position of the first row (a derivation's one query row sits at its own).
template <class T>
ScoredRows<T> scored_rows(const Spec& spec, const MatrixT<T>& projected, long first = 0);

// Scores of queries (rows of q) against keys (rows of k) under the spec's score function,
// before scale and temperature. Shapes: q (n, d_k), k (m, d_k) -> (n, m).
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

// Each row of logits to weights over the keys it sees (visible(i, j) != 0; empty: all), by
// softmax, or one-hot on the largest with `hard`. A row that sees no key is zeros, and its
// index is added to empty_rows when given.
template <class T>
MatrixT<T> normalise(const Spec& spec, const MatrixT<T>& logits, const MatrixT<T>& visible, std::vector<long>* empty_rows);

// What one head's pass made, every stage after the scored rows.
template <class T>
struct HeadPass {
  MatrixT<T> raw;      // (n, m): score(q, k)
  MatrixT<T> logits;   // (n, m): the trace's scores
  MatrixT<T> weights;  // (n, m)
  MatrixT<T> out;      // (n, d_v): weights V
};

// One head: q (n, d_k) its scored query rows, k (m, d_k) and v (m, d_v) its key/value group's
// scored key rows and values, bias (n, m) ALiBi's or empty, visible (n, m) or empty. Refused
// when the logits overflow, naming `head` (none: the encoder-decoder's one head).
template <class T>
Result<HeadPass<T>> head_pass(const Spec& spec, const Parameters& p, const MatrixT<T>& q, const MatrixT<T>& k, const MatrixT<T>& v,
                              const Matrix& bias, const MatrixT<T>& visible, std::optional<long> head,
                              std::vector<long>* empty_rows = nullptr);

// The heads' outputs side by side (n, heads*d_v) to the layer's output: times W_o when there is one.
template <class T>
MatrixT<T> after_heads(const Parameters& p, const MatrixT<T>& concat);

// The key to blame when scores overflow, so the page can show the message beside it: the
// scale or the temperature when the scores were finite before them, else the inputs.
std::string score_overflow_field(const Spec& spec, bool unscaled_finite);

}  // namespace attention
