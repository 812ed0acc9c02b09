#pragma once
// The attention forward pass alone, for speed: projections, scaled dot-product scores, a
// stable softmax in place (softmax_numerators.hpp), the weighted values, the output projection, every product in
// panel_product.hpp's loop. The weights are packed once (KernelWeights) and kept across runs,
// as they stay fixed while the input changes. It keeps no trace (run_self does that, and is
// tested to agree), so the benchmarks measure the math.
// Header-only so each benchmark build compiles it with its own flags (SSE2, -march=native, wasm).
#include <cmath>

#include "attention/panel_product.hpp"
#include "attention/scalar.hpp"
#include "attention/softmax_numerators.hpp"

namespace attention {

// The layer's weights as the kernel keeps them across runs: W_q, W_k and W_v side by side in
// one packed matrix (one product gives Q, K and V), and W_o packed alone.
template <class T>
struct KernelWeights {
  long heads = 1, dk = 0, dv = 0;
  Panels<T> qkv, o;
  bool has_o = false;

  KernelWeights(const MatrixT<T>& W_q, const MatrixT<T>& W_k, const MatrixT<T>& W_v, const MatrixT<T>* W_o, long heads)
      : heads(heads), dk(W_q.cols() / heads), dv(W_v.cols() / heads), has_o(W_o != nullptr) {
    MatrixT<T> joined(W_q.rows(), W_q.cols() + W_k.cols() + W_v.cols());  // (d, h*d_k + h*d_k + h*d_v)
    joined << W_q, W_k, W_v;
    qkv.pack(joined);
    if (W_o) o.pack(*W_o);
  }
};

template <class T>
struct Workspace {
  MatrixT<T> QKV, S, concat;  // (n, h*(2 d_k + d_v)), (n, n), (n, h*d_v)
  std::vector<T> sums;         // (n) one head's softmax denominators
  Panels<T> keys, values;      // one head's K^T (d_k, n) and V (n, d_v)
};

// out = softmax(Q_h K_h^T / sqrt(d_k)) V_h per head, concatenated, times W_o when given.
template <class T>
void attention_forward(const MatrixT<T>& X, const KernelWeights<T>& w, Workspace<T>& ws, MatrixT<T>& out) {
  const long n = X.rows(), heads = w.heads, dk = w.dk, dv = w.dv;
  const T scale = T(1) / std::sqrt(static_cast<T>(dk));
  w.qkv.multiply(X, ws.QKV);
  const long width = ws.QKV.cols();
  const auto K = ws.QKV.middleCols(heads * dk, heads * dk), V = ws.QKV.rightCols(heads * dv);
  ws.S.resize(n, n);
  ws.sums.resize(n);
  T* sums = ws.sums.data();
  ws.concat.resize(n, heads * dv);
  for (long h = 0; h < heads; ++h) {
    ws.keys.pack(K.middleCols(h * dk, dk).transpose());
    ws.keys.multiply(ws.QKV.data() + h * dk, width, n, ws.S.data(), n);  // Q_h K_h^T
    for (long i = 0; i < n; ++i) sums[i] = softmax_numerators(ws.S.data() + i * n, n, scale);
    T* out_h = ws.concat.data() + h * dv;
    ws.values.pack(V.middleCols(h * dv, dv));
    ws.values.multiply(ws.S.data(), n, n, out_h, heads * dv);
    for (long i = 0; i < n; ++i) {  // the softmax's division, on d_v numbers of a row rather than n
      const T inv = T(1) / sums[i];
      for (long j = 0; j < dv; ++j) out_h[i * heads * dv + j] *= inv;
    }
  }
  if (w.has_o) w.o.multiply(ws.concat, out);
  else out = ws.concat;
}

}  // namespace attention
