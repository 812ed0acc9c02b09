#pragma once
// ALiBi (Press et al.): no positions in the embeddings; head h's logits get the bias
// -m_h |i - j|, a penalty growing with distance at a rate of its own per head.
#include <vector>

#include "attention/core/scalar.hpp"

namespace attention {

// The slopes of the paper's reference code: for H a power of two, m_h = 2^(-8h/H), h = 1..H;
// otherwise those of the largest power of two P below H, then every other slope of 2P, up to H.
std::vector<double> alibi_slopes(long heads);

// -slope * |i - j|  // (n, m)
Matrix alibi_bias(double slope, long n, long m);

// Row i of alibi_bias(slope, n, m), the same numbers, without the other rows: a decode step or
// one clicked cell needs one query's bias, and building the whole matrix for it costs n x m.  // (1, m)
Matrix alibi_bias_row(double slope, long i, long m);

}  // namespace attention
