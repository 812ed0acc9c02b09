// attention-bench: the kernel timed natively. Built twice (see CMakeLists.txt): baseline
// x86-64 (SSE2, the same 128-bit width as wasm SIMD) and -march=native.
// usage: attention-bench N D HEADS f32|f64 [MIN_RUNS MIN_SECONDS]  -> one JSON line
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kernel_timing.hpp"

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: attention-bench N D HEADS f32|f64 [MIN_RUNS MIN_SECONDS]\n");
    return 2;
  }
  const long n = std::atol(argv[1]), d = std::atol(argv[2]), heads = std::atol(argv[3]);
  const std::string precision = argv[4];
  const int min_runs = argc > 5 ? std::atoi(argv[5]) : 5;
  const double min_seconds = argc > 6 ? std::atof(argv[6]) : 0.2;
  if (n < 1 || d < 1 || heads < 1 || d % heads || (precision != "f32" && precision != "f64")) {
    std::fprintf(stderr, "attention-bench: bad arguments\n");
    return 2;
  }
  const auto t = bench::time_kernel(precision, n, d, heads, min_runs, min_seconds);
  std::printf("{\"n\":%ld,\"d\":%ld,\"heads\":%ld,\"precision\":\"%s\",\"ms\":%.6f,\"runs\":%d}\n", n, d, heads,
              precision.c_str(), t.median_ms, t.runs);
  return 0;
}
