/* Force-included in the wasm build before anything else. Eigen 3.4 has no wasm SIMD backend;
 * with -msse2 it uses its SSE2 kernels, which Emscripten translates to wasm SIMD. Clang passes
 * for GCC 4.2, so Eigen would also take its inline-asm workarounds for old GCC, which cannot
 * compile to wasm: say "not GCC" after Eigen has set up its macros. */
#pragma once
#include <Eigen/src/Core/util/Macros.h>
#undef EIGEN_COMP_GNUC
#define EIGEN_COMP_GNUC 0
#undef EIGEN_GNUC_AT_LEAST
#define EIGEN_GNUC_AT_LEAST(x, y) 0
