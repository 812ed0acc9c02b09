// Attention written the way a tutorial would, in plain JavaScript with typed arrays: naive
// triple-loop matrix products, a max-subtracted softmax per row. The baseline a page without
// WebAssembly would have.
function matmul(A, B, n, k, m, Out) {  // (n, k) x (k, m)
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let t = 0; t < k; t++) s += A[i * k + t] * B[t * m + j];
      Out[i * m + j] = s;
    }
  }
}

export function attentionForward(X, Wq, Wk, Wv, Wo, n, d, heads, Arr) {
  const dk = d / heads;
  const Q = new Arr(n * d), K = new Arr(n * d), V = new Arr(n * d), concat = new Arr(n * d), S = new Arr(n * n);
  matmul(X, Wq, n, d, d, Q);
  matmul(X, Wk, n, d, d, K);
  matmul(X, Wv, n, d, d, V);
  const scale = 1 / Math.sqrt(dk);
  for (let h = 0; h < heads; h++) {
    const o = h * dk;
    for (let i = 0; i < n; i++) {
      let max = -Infinity;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let t = 0; t < dk; t++) s += Q[i * d + o + t] * K[j * d + o + t];
        s *= scale;
        S[i * n + j] = s;
        if (s > max) max = s;
      }
      let sum = 0;
      for (let j = 0; j < n; j++) { const e = Math.exp(S[i * n + j] - max); S[i * n + j] = e; sum += e; }
      for (let j = 0; j < n; j++) S[i * n + j] /= sum;
      for (let t = 0; t < dk; t++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += S[i * n + j] * V[j * d + o + t];
        concat[i * d + o + t] = s;
      }
    }
  }
  if (!Wo) return concat;
  const out = new Arr(n * d);
  matmul(concat, Wo, n, d, d, out);
  return out;
}
