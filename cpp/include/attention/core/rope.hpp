#pragma once
// Rotary position embedding (RoFormer): each head's block of a query or key row is cut into
// d_k/2 pairs, and pair i of the row at position p turns by the angle p * theta_i,
// theta_i = base^(-2i/d_k). Then q_p . k_r depends on the positions only through p - r.
#include "attention/core/scalar.hpp"
#include "attention/core/spec.hpp"

namespace attention {

// angles(p, i) = p * base^(-2i / d_k)  // (positions, d_k/2)
Matrix rope_angles(long positions, long d_k, double base);

// Every block of d_k columns of x (n, blocks*d_k) rotated; row r is at position r + offset.
// Pairs are columns (2i, 2i+1) (interleaved) or (i, i + d_k/2) (halves).
template <class T>
MatrixT<T> rope_rotate(const MatrixT<T>& x, long d_k, double base, RopeStyle style, long offset = 0);

}  // namespace attention
