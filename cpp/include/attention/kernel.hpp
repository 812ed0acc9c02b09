#pragma once
// The attention forward pass alone, for speed: projections, scaled dot-product scores, a
// fused stable softmax in place, the weighted values, the output projection. The weights are
// packed once (KernelWeights) and kept across runs, as they stay fixed while the input
// changes. It keeps no trace (run_self does that, and is tested to agree), so the benchmarks
// measure the math.
// Header-only so each benchmark build compiles it with its own flags (SSE2, -march=native, wasm).
#include <cmath>

#include "attention/packed_weights.hpp"
#include "attention/scalar.hpp"

namespace attention {

// The layer's weights as the kernel keeps them across runs: W_q, W_k and W_v side by side in
// one packed matrix (one product gives Q, K and V), and W_o packed alone.
template <class T>
struct KernelWeights {
  long heads = 1, dk = 0, dv = 0;
  PackedWeights<T> qkv, o;
  bool has_o = false;

  KernelWeights(const MatrixT<T>& W_q, const MatrixT<T>& W_k, const MatrixT<T>& W_v, const MatrixT<T>* W_o, long heads)
      : heads(heads), dk(W_q.cols() / heads), dv(W_v.cols() / heads), has_o(W_o != nullptr) {
    MatrixT<T> joined(W_q.rows(), W_q.cols() + W_k.cols() + W_v.cols());  // (d, h*d_k + h*d_k + h*d_v)
    joined << W_q, W_k, W_v;
    qkv = PackedWeights<T>(joined);
    if (W_o) o = PackedWeights<T>(*W_o);
  }
};

template <class T>
struct Workspace {
  MatrixT<T> QKV, S, concat;                // (n, h*(2 d_k + d_v)), (n, n), (n, h*d_v)
  typename PackedWeights<T>::Buffer panel;  // X packed for the kernel
};

// out = softmax(Q_h K_h^T / sqrt(d_k)) V_h per head, concatenated, times W_o when given.
template <class T>
void attention_forward(const MatrixT<T>& X, const KernelWeights<T>& w, Workspace<T>& ws, MatrixT<T>& out) {
  const long n = X.rows(), heads = w.heads, dk = w.dk, dv = w.dv;
  const T scale = T(1) / std::sqrt(static_cast<T>(dk));
  w.qkv.multiply(X, ws.QKV, ws.panel);
  const auto Q = ws.QKV.leftCols(heads * dk), K = ws.QKV.middleCols(heads * dk, heads * dk), V = ws.QKV.rightCols(heads * dv);
  ws.concat.resize(n, heads * dv);
  for (long h = 0; h < heads; ++h) {
    ws.S.noalias() = (Q.middleCols(h * dk, dk) * scale) * K.middleCols(h * dk, dk).transpose();
    for (long i = 0; i < n; ++i) {  // fused, stable softmax of each row, in place
      auto row = ws.S.row(i);
      row = (row.array() - row.maxCoeff()).exp();
      row /= row.sum();
    }
    ws.concat.middleCols(h * dv, dv).noalias() = ws.S * V.middleCols(h * dv, dv);
  }
  if (w.has_o) w.o.multiply(ws.concat, out, ws.panel);
  else out = ws.concat;
}

}  // namespace attention
