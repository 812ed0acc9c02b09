#pragma once
// The vector type of the benchmark kernel's loops, written with GCC/Clang vector types: SSE2
// natively (AVX under -march=native) and wasm SIMD from Emscripten, so the native and the wasm
// builds run the same source.

namespace attention::simd {

// 128-bit vectors in the baseline builds (SSE2, wasm SIMD); 256-bit where the compiler may use
// AVX (the -march=native benchmark), so that build is not held to half its width.
#ifdef __AVX__
constexpr int kBytes = 32;
#else
constexpr int kBytes = 16;
#endif

template <class T>
struct Vector {
  typedef T type __attribute__((vector_size(kBytes)));
  static constexpr long kLanes = kBytes / sizeof(T);
  static type splat(T a) { return a - type{}; }  // a in every lane: x - 0 is x, so no subtraction is left
};

// The larger of a and b in each lane, b where a is NaN. Natively the compare and select is one
// max instruction; in wasm, clang writes a compare and a bitselect, which V8 compiles to three
// (and a register), where wasm's pseudo-maximum is one.
template <class Vec>
Vec max(Vec a, Vec b) {
#ifdef __wasm_simd128__
  if constexpr (sizeof(a[0]) == 4) return __builtin_wasm_pmax_f32x4(b, a);
  else return __builtin_wasm_pmax_f64x2(b, a);
#else
  return a > b ? a : b;
#endif
}

}  // namespace attention::simd
