#pragma once
// The benchmark kernel's softmax: the numerators exp((s - max) * scale) of a row of scores, in
// place, with their sum, over simd.hpp's vectors. exp is Cephes' (as Eigen's is: the same
// numbers in double, within one float rounding in float), written for the vector type so that
// a row is read once for its maximum and once for the rest. Eigen's expression (a pass for the
// maximum, one for exp, one for the sum) took 1.8 times as long natively and 1.6 times in wasm,
// over 8 (1024, 1024) matrices of scores in float.
//
// A numerator below e^cutoff, the square root of the smallest normal number (1e-19 in float,
// 1e-154 in double), is 0: beneath the rounding of the largest, which is 1. Rows whose scores
// spread widely otherwise made subnormal numbers, in exp and in the product with V, which x86
// computes many times slower, natively and in wasm alike: the softmax of scores a few hundred
// apart took 2.8 times as long.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "attention/kernel/simd.hpp"

namespace attention {

namespace detail {
template <class T>
struct ExpConstants;
template <>
struct ExpConstants<float> {
  using Int = std::int32_t;
  static constexpr int kMantissa = 23, kBias = 127;
  static constexpr float kRound = 12582912.f;  // 1.5 * 2^23: adding it rounds to an integer, kept in the low bits
  static constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
};
template <>
struct ExpConstants<double> {
  using Int = std::int64_t;
  static constexpr int kMantissa = 52, kBias = 1023;
  static constexpr double kRound = 6755399441055744.0;  // 1.5 * 2^52
  static constexpr double kLn2Hi = 6.93145751953125e-1, kLn2Lo = 1.42860682030941723212e-6;
};

// e^x in each lane, for x in [cutoff, 0]: x = k ln 2 + r with |r| <= ln 2 / 2, e^x = 2^k e^r.
template <class T>
typename simd::Vector<T>::type exp(typename simd::Vector<T>::type x) {
  using V = simd::Vector<T>;
  using Vec = typename V::type;
  using C = ExpConstants<T>;
  typedef typename C::Int Ints __attribute__((vector_size(simd::kBytes)));
  const Vec t = x * T(1.4426950408889634) + C::kRound;  // k + kRound
  const Vec k = t - C::kRound;
  const Vec r = x - k * C::kLn2Hi - k * C::kLn2Lo;
  Vec e_r;
  if constexpr (std::is_same_v<T, float>) {
    e_r = (((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r + 4.1665795894e-2f) * r +
            1.6666665459e-1f) * r + 5.0000001201e-1f) * (r * r) + r + 1.f;
  } else {
    const Vec rr = r * r;
    const Vec p = r * ((1.26177193074810590878e-4 * rr + 3.02994407707441961300e-2) * rr + 9.99999999999999999910e-1);
    const Vec q = ((3.00198505138664455042e-6 * rr + 2.52448340349684104192e-3) * rr + 2.27265548208155028766e-1) * rr +
                  2.00000000000000000009e0;
    e_r = 1 + 2 * p / (q - p);
  }
  const Ints two_k = ((Ints)t - (Ints)V::splat(C::kRound) + C::kBias) << C::kMantissa;  // the bits of 2^k
  return e_r * (Vec)two_k;
}
}  // namespace detail

// The cutoff: the log of the square root of the smallest normal number, computed once.
template <class T>
T softmax_cutoff() {
  static const T cutoff = std::log(std::numeric_limits<T>::min()) / 2;
  return cutoff;
}

// row[0:n] = exp((row - max(row)) * scale), 0 below e^cutoff; returns their sum. For finite
// scores and scale > 0 (a NaN counts as -inf, and a row with +inf sums to 0).
template <class T>
T softmax_numerators(T* row, long n, T scale) {
  using V = simd::Vector<T>;
  using Vec = typename V::type;
  typedef typename detail::ExpConstants<T>::Int Ints __attribute__((vector_size(simd::kBytes)));
  constexpr long L = V::kLanes;
  const auto load = [&](long j) { Vec v; std::memcpy(&v, row + j, sizeof v); return v; };
  Vec most = V::splat(-std::numeric_limits<T>::infinity());
  long j = 0;
  for (; j + L <= n; j += L) most = simd::max(load(j), most);
  T top = most[0];
  for (long l = 1; l < L; ++l) top = std::max(top, most[l]);
  for (; j < n; ++j) top = std::max(top, row[j]);

  const T cutoff = softmax_cutoff<T>();
  const Vec shift = V::splat(top), by = V::splat(scale), low = V::splat(cutoff);
  // Two vectors a step, each with its own sum: V8 adds a stack check and reloads spilled
  // constants on every step of a loop, so this halves them (a gain in Chromium where the softmax
  // is most of the work, and none lost natively).
  Vec sums{}, sums2{};
  const auto numerator = [&](long at) {
    const Vec x = (load(at) - shift) * by;
    const Vec kept = (Vec)((Ints)detail::exp<T>(simd::max(x, low)) & (Ints)(x >= low));
    std::memcpy(row + at, &kept, sizeof kept);
    return kept;
  };
  for (j = 0; j + 2 * L <= n; j += 2 * L) {
    sums += numerator(j);
    sums2 += numerator(j + L);
  }
  for (; j + L <= n; j += L) sums += numerator(j);
  sums += sums2;
  T sum = 0;
  for (long l = 0; l < L; ++l) sum += sums[l];
  for (; j < n; ++j) {
    const T x = (row[j] - top) * scale;
    row[j] = x >= cutoff ? std::exp(x) : T(0);
    sum += row[j];
  }
  return sum;
}

}  // namespace attention
