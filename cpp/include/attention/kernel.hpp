#pragma once
// The attention forward pass alone, for speed: projections, scaled dot-product scores, a
// fused stable softmax in place, the weighted values, the output projection. It keeps no
// trace (run_self does that, and is tested to agree), so the benchmarks measure the math.
// Header-only so each benchmark build compiles it with its own flags (SSE2, -march=native, wasm).
#include <cmath>

#include "attention/scalar.hpp"

namespace attention {

template <class T>
struct Workspace {
  MatrixT<T> Q, K, V, S, concat;  // (n, h*d_k) x3, (n, n), (n, h*d_v)
};

// out = softmax(Q_h K_h^T / sqrt(d_k)) V_h per head, concatenated, times W_o when given.
template <class T>
void attention_forward(const MatrixT<T>& X, const MatrixT<T>& W_q, const MatrixT<T>& W_k, const MatrixT<T>& W_v,
                       const MatrixT<T>* W_o, long heads, Workspace<T>& ws, MatrixT<T>& out) {
  const long n = X.rows(), dk = W_q.cols() / heads, dv = W_v.cols() / heads;
  const T scale = T(1) / std::sqrt(static_cast<T>(dk));
  ws.Q.noalias() = X * W_q;
  ws.K.noalias() = X * W_k;
  ws.V.noalias() = X * W_v;
  ws.concat.resize(n, heads * dv);
  for (long h = 0; h < heads; ++h) {
    ws.S.noalias() = (ws.Q.middleCols(h * dk, dk) * scale) * ws.K.middleCols(h * dk, dk).transpose();
    for (long i = 0; i < n; ++i) {  // fused, stable softmax of each row, in place
      auto row = ws.S.row(i);
      row = (row.array() - row.maxCoeff()).exp();
      row /= row.sum();
    }
    ws.concat.middleCols(h * dv, dv).noalias() = ws.S * ws.V.middleCols(h * dv, dv);
  }
  if (W_o) out.noalias() = ws.concat * *W_o;
  else out = ws.concat;
}

}  // namespace attention
