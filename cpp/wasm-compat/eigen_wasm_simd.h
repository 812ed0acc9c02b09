/* Force-included in the wasm build before anything else. Eigen 3.4 has no wasm SIMD backend;
 * with -msse4.1 it uses its SSE kernels, which Emscripten translates to wasm SIMD (SSE4.1's
 * floor and blends are single wasm instructions; the native baseline stays plain SSE2). Clang passes
 * for GCC 4.2, so Eigen would also take its inline-asm workarounds for old GCC, which cannot
 * compile to wasm: say "not GCC" after Eigen has set up its macros. */
#pragma once
#include <Eigen/src/Core/util/Macros.h>
#undef EIGEN_COMP_GNUC
#define EIGEN_COMP_GNUC 0
#undef EIGEN_GNUC_AT_LEAST
#define EIGEN_GNUC_AT_LEAST(x, y) 0
/* Eigen assumes 2 * sizeof(void*) SSE registers, 8 in wasm32, and so runs its matrix products
 * on panels of 2 rows instead of 4 (about a sixth slower in training). The engines that run the
 * SIMD have 16 (x86-64) or 32 (arm64) registers: 16 gives the kernel the native build uses. */
#define EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS 16

/* Emscripten 3.1.6 converts float lanes to int one lane at a time through lrint (a TODO in its
 * emmintrin.h), and Eigen's exp() converts every packet: the softmax spent most of its time
 * there. Each conversion below is one wasm SIMD instruction plus a select that keeps SSE's
 * answer (INT_MIN) for NaN and for values out of range. wasm's pmin/pmax are SSE's minps/maxps
 * with the operands swapped: one instruction instead of a compare and a select. */
#include <emmintrin.h>
#include <wasm_simd128.h>

static __inline__ __m128i __attribute__((__always_inline__, __nodebug__)) ap_cvttps_epi32(__m128 a) {
  const v128_t in_range = wasm_f32x4_lt(wasm_f32x4_abs((v128_t)a), wasm_f32x4_splat(2147483648.0f));
  return wasm_v128_bitselect(wasm_i32x4_trunc_sat_f32x4((v128_t)a), wasm_i32x4_splat((int)0x80000000), in_range);
}
static __inline__ __m128i __attribute__((__always_inline__, __nodebug__)) ap_cvtps_epi32(__m128 a) {
  return ap_cvttps_epi32((__m128)wasm_f32x4_nearest((v128_t)a));
}
static __inline__ __m128i __attribute__((__always_inline__, __nodebug__)) ap_cvttpd_epi32(__m128d a) {
  const v128_t in_range = wasm_f64x2_lt(wasm_f64x2_abs((v128_t)a), wasm_f64x2_splat(2147483648.0));
  const v128_t low = wasm_i32x4_shuffle(in_range, wasm_i32x4_splat(0), 0, 2, 4, 4); /* (2 x 64) -> low (2 x 32), upper 0 */
  return wasm_v128_bitselect(wasm_i32x4_trunc_sat_f64x2_zero((v128_t)a),
                             wasm_i32x4_make((int)0x80000000, (int)0x80000000, 0, 0), low);
}
static __inline__ __m128i __attribute__((__always_inline__, __nodebug__)) ap_cvtpd_epi32(__m128d a) {
  return ap_cvttpd_epi32((__m128d)wasm_f64x2_nearest((v128_t)a));
}
#define _mm_cvttps_epi32 ap_cvttps_epi32
#define _mm_cvtps_epi32 ap_cvtps_epi32
#define _mm_cvttpd_epi32 ap_cvttpd_epi32
#define _mm_cvtpd_epi32 ap_cvtpd_epi32
#define _mm_min_ps(a, b) ((__m128)wasm_f32x4_pmin((v128_t)(b), (v128_t)(a)))
#define _mm_max_ps(a, b) ((__m128)wasm_f32x4_pmax((v128_t)(b), (v128_t)(a)))
#define _mm_min_pd(a, b) ((__m128d)wasm_f64x2_pmin((v128_t)(b), (v128_t)(a)))
#define _mm_max_pd(a, b) ((__m128d)wasm_f64x2_pmax((v128_t)(b), (v128_t)(a)))
