#pragma once
// Times the attention kernel the same way in every build (native SSE2, native -march=native,
// wasm in Node, wasm in Chromium): seeded inputs, one warm-up, then the median of repeated runs.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "attention/kernel.hpp"
#include "attention/rng.hpp"

namespace bench {

struct Timing {
  double median_ms;
  int runs;
};

template <class T>
Timing time_kernel(long n, long d, long heads, int min_runs, double min_seconds) {
  attention::NumpyRandom rng(0);
  const attention::MatrixT<T> X = rng.randn(n, d).cast<T>();
  const attention::MatrixT<T> Wq = rng.randn(d, d).cast<T>(), Wk = rng.randn(d, d).cast<T>(), Wv = rng.randn(d, d).cast<T>();
  const attention::MatrixT<T> Wo = rng.randn(d, d).cast<T>();
  attention::Workspace<T> ws;
  attention::MatrixT<T> out;
  const auto* wo = heads > 1 ? &Wo : nullptr;
  attention::attention_forward<T>(X, Wq, Wk, Wv, wo, heads, ws, out);  // warm-up, allocates the workspace
  std::vector<double> ms;
  double total = 0;
  using clock = std::chrono::steady_clock;
  while (static_cast<int>(ms.size()) < min_runs || (total < min_seconds * 1000 && ms.size() < 200)) {
    const auto t0 = clock::now();
    attention::attention_forward<T>(X, Wq, Wk, Wv, wo, heads, ws, out);
    const double dt = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    ms.push_back(dt);
    total += dt;
  }
  std::sort(ms.begin(), ms.end());
  volatile T sink = out(0, 0);  // keep the result alive
  (void)sink;
  return {ms[ms.size() / 2], static_cast<int>(ms.size())};
}

inline Timing time_kernel(const std::string& precision, long n, long d, long heads, int min_runs, double min_seconds) {
  return precision == "f32" ? time_kernel<float>(n, d, heads, min_runs, min_seconds)
                            : time_kernel<double>(n, d, heads, min_runs, min_seconds);
}

}  // namespace bench
