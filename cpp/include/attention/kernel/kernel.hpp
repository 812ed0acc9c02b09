#pragma once
// The attention forward pass alone, for speed: projections, scaled dot-product scores, a
// stable softmax in place (softmax_numerators.hpp), the weighted values, the output
// projection, every product in panel_product.hpp's loop. The weights are packed once
// (KernelWeights) and kept across runs, as they stay fixed while the input changes. It keeps
// no trace (run_self does that, and is tested to agree), so the benchmarks measure the math.
// Header-only so each benchmark build compiles it with its own flags (SSE2, -march=native, wasm).
#include <algorithm>
#include <cmath>
#include <vector>

#include "attention/kernel/panel_product.hpp"
#include "attention/core/scalar.hpp"
#include "attention/kernel/softmax_numerators.hpp"

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

// The bytes of one block of scores: a quarter of a 512 KB L2, which also holds K_h^T and V_h.
constexpr long kScoreBlockBytes = 128 * 1024;

template <class T>
struct Workspace {
  MatrixT<T> QKV, S, concat;  // (n, h*(2 d_k + d_v)), (block, n), (n, h*d_v)
  std::vector<T> sums;         // (block) a block's softmax denominators
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
  // One head's scores are taken a block of rows at a time, so that the block stays in L2 from
  // its product with K^T through its softmax to its product with V: with the whole (n, n) per
  // head, each of those passes went out to memory (the kernel benchmark in BENCHMARKS.md measures
  // the difference at n = 1024).
  const long block = std::max(4L, std::min(n, kScoreBlockBytes / (n * long(sizeof(T)))));
  ws.S.resize(block, n);
  ws.sums.resize(block);
  T* sums = ws.sums.data();
  ws.concat.resize(n, heads * dv);
  for (long h = 0; h < heads; ++h) {
    ws.keys.pack(K.middleCols(h * dk, dk).transpose());
    ws.values.pack(V.middleCols(h * dv, dv));
    for (long r0 = 0; r0 < n; r0 += block) {
      const long rows = std::min(block, n - r0);
      T* out_rows = ws.concat.data() + r0 * heads * dv + h * dv;
      ws.keys.multiply(ws.QKV.data() + r0 * width + h * dk, width, rows, ws.S.data(), n);  // Q_h K_h^T (rows, n)
      for (long i = 0; i < rows; ++i) sums[i] = softmax_numerators(ws.S.data() + i * n, n, scale);
      ws.values.multiply(ws.S.data(), n, rows, out_rows, heads * dv);
      for (long i = 0; i < rows; ++i) {  // the softmax's division, on d_v numbers of a row rather than n
        const T inv = T(1) / sums[i];
        for (long j = 0; j < dv; ++j) out_rows[i * heads * dv + j] *= inv;
      }
    }
  }
  if (w.has_o) w.o.multiply(ws.concat, out);
  else out = ws.concat;
}

}  // namespace attention
