#pragma once
// Times the attention kernel the same way in every build (native SSE2, native -march=native,
// wasm in Node, wasm in Chromium): seeded inputs, one warm-up, then the median of repeated runs.
// A run repeats the kernel until it lasts at least 10 ms, because browsers coarsen their
// clocks (to 0.1 ms in Chromium without cross-origin isolation): 1% at most, where a 1 ms run
// was off by up to 10%.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif

#include "attention/kernel/kernel.hpp"
#include "attention/core/rng.hpp"

namespace bench {

struct Timing {
  double median_ms;
  int runs;
};

// The seeded inputs of every timing: X (n, d) and W_q, W_k, W_v, W_o (d, d), the weights
// packed once before the timing, as a page keeps them while the sentence changes.
template <class T>
struct KernelInputs {
  attention::MatrixT<T> X;
  attention::KernelWeights<T> weights;
  KernelInputs(long n, long d, long heads) : KernelInputs(attention::NumpyRandom(0), n, d, heads) {}
  // out = the kernel on these inputs (W_o with several heads)
  void run(attention::Workspace<T>& ws, attention::MatrixT<T>& out) const { attention::attention_forward<T>(X, weights, ws, out); }

 private:
  KernelInputs(attention::NumpyRandom rng, long n, long d, long heads)
      : X(rng.randn(n, d).cast<T>()), weights(random_weights(rng, d, heads)) {}
  static attention::KernelWeights<T> random_weights(attention::NumpyRandom& rng, long d, long heads) {
    const attention::MatrixT<T> Wq = rng.randn(d, d).cast<T>(), Wk = rng.randn(d, d).cast<T>(), Wv = rng.randn(d, d).cast<T>(),
                                Wo = rng.randn(d, d).cast<T>();
    return attention::KernelWeights<T>(Wq, Wk, Wv, heads > 1 ? &Wo : nullptr, heads);
  }
};

template <class T>
Timing time_kernel(long n, long d, long heads, int min_runs, double min_seconds) {
  const KernelInputs<T> in(n, d, heads);
  attention::Workspace<T> ws;
  attention::MatrixT<T> out;
  const auto now_ms = [] {
#ifdef __EMSCRIPTEN__
    return emscripten_get_now();  // performance.now()
#else
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
  };
  const auto batch_ms = [&](int batch) {
    const double t0 = now_ms();
    for (int b = 0; b < batch; ++b) in.run(ws, out);
    return now_ms() - t0;
  };
  batch_ms(3);  // warm-up: allocates the workspace, lets a JIT tier up
  int batch = 1;
  constexpr double kBatchMs = 10;
  while (batch_ms(batch) < kBatchMs && batch < (1 << 16)) batch *= 2;
  std::vector<double> ms;
  double total = 0;
  while (static_cast<int>(ms.size()) < min_runs || (total < min_seconds * 1000 && ms.size() < 200)) {
    const double dt = batch_ms(batch);
    if (dt < kBatchMs / 2 && batch < (1 << 20)) {  // the batch was sized during a hiccup: too short for the clock
      batch *= 2;
      ms.clear();
      total = 0;
      continue;
    }
    ms.push_back(dt / batch);
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
