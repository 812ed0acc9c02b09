// The kernel timed inside wasm, as bench/native_bench.cpp times it natively: a module of its
// own (build/wasm/attention-bench.mjs, wasm inlined), so the page's core carries no benchmark
// code. bench(n, d, heads, "f32"|"f64", min_runs, min_seconds) -> {"ms": median, "runs": k}.
#include <emscripten/bind.h>

#include <algorithm>
#include <string>

#include "kernel_timing.hpp"

namespace {

std::string bench_kernel(long n, long d, long heads, const std::string& precision, int min_runs, double min_seconds) {
  if (n < 1 || n > 4096 || d < 1 || d > 1024 || heads < 1 || d % heads != 0 || (precision != "f32" && precision != "f64")) {
    return R"({"error": {"field": "", "message": "bench: n 1..4096, d 1..1024, heads dividing d, precision f32|f64"}})";
  }
  const auto t = bench::time_kernel(precision, n, d, heads, min_runs, min_seconds);
  return "{\"ms\": " + std::to_string(t.median_ms) + ", \"runs\": " + std::to_string(t.runs) + "}";
}

// The largest difference between the float and the double kernel on the timing's inputs: the
// float path (wasm SIMD's float lanes, the float exp) is what the timing measures, so
// tests/wasm checks it computes the same attention.
double float_agreement(long n, long d, long heads) {
  attention::Workspace<double> wd;
  attention::Matrix exact;
  bench::KernelInputs<double>(n, d, heads).run(wd, exact);
  attention::Workspace<float> wf;
  attention::MatrixT<float> approx;
  bench::KernelInputs<float>(n, d, heads).run(wf, approx);
  return (approx.cast<double>() - exact).cwiseAbs().maxCoeff() / std::max(1.0, exact.cwiseAbs().maxCoeff());
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_bench) {
  emscripten::function("bench", &bench_kernel);
  emscripten::function("float_agreement", &float_agreement);
}
