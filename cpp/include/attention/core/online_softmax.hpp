#pragma once
// FlashAttention's online softmax: the keys visited in blocks, never the whole row of scores
// at once. Each query row keeps a running maximum m, a running sum l of exp(logit - m) and a
// running unnormalised output o; a larger maximum rescales l and o by exp(m_before - m_after).
// After the last block, o / l is the head's output.
#include <optional>
#include <vector>

#include "attention/core/scalar.hpp"

namespace attention {

struct OnlineBlock {
  long start = 0, end = 0;               // keys [start, end)
  std::vector<std::optional<double>> m;  // n: the running maximum over the visible keys so far; none yet: empty
  Vector l;                              // n: the running sum of exp(logit - m)
  Vector rescale;                        // n: exp(m_before - m_after) (0 on a row's first visible key, 1 before it)
  Matrix o;                              // (n, d_v): the running unnormalised output
  Matrix out;                            // (n, d_v): o / l, the output if the keys stopped here (0: no key seen yet)
};

// One head: logits (n, m), visible (n, m) or empty for all, values (m, d_v).
std::vector<OnlineBlock> online_softmax(const Matrix& logits, const Matrix& visible, const Matrix& values, long block);

}  // namespace attention
