// Half precision against the compiler's own conversion (GCC's _Float16, correctly rounded from
// double in software), over every half and over doubles of every magnitude.
#include "attention/io/float16.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <catch2/catch.hpp>

namespace {
std::uint16_t compiler_half(double x) {
  const _Float16 h = static_cast<_Float16>(x);
  std::uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}
}  // namespace

TEST_CASE("every finite half reads back as the compiler's value and writes back to its bits", "[io][float16]") {
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const auto h = static_cast<std::uint16_t>(bits);
    _Float16 f;
    std::memcpy(&f, &h, 2);
    const double x = attention::from_float16(h);
    if (std::isnan(static_cast<double>(f))) {
      CHECK(std::isnan(x));
      continue;
    }
    INFO(bits);
    CHECK(x == static_cast<double>(f));
    if (std::isfinite(x)) CHECK(attention::to_float16(x) == h);
  }
}

TEST_CASE("a double rounds to the nearest half, ties to even, as the compiler rounds it", "[io][float16]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1, 1);
  std::uniform_int_distribution<int> exponent(-30, 16);  // zero and subnormals to the largest half
  long checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = std::ldexp(mantissa(rng), exponent(rng));
    if (std::fabs(x) >= 65504) continue;
    INFO(x);
    CHECK(attention::to_float16(x) == compiler_half(x));
    ++checked;
  }
  CHECK(checked > 190000);
  // Halfway between two halves: to the even one (1 + 2^-11 lies between 1 and 1 + 2^-10).
  CHECK(attention::to_float16(1 + std::ldexp(1, -11)) == 0x3C00);
  CHECK(attention::to_float16(1 + 3 * std::ldexp(1, -11)) == 0x3C02);
  CHECK(attention::to_float16(std::ldexp(1, -25)) == 0);  // half the smallest subnormal: to zero
  CHECK(attention::to_float16(-0.0) == 0x8000);
}

TEST_CASE("past the largest half a number stays at it, and NaN stays NaN", "[io][float16]") {
  CHECK(attention::to_float16(65504) == 0x7BFF);
  CHECK(attention::to_float16(1e9) == 0x7BFF);
  CHECK(attention::to_float16(-std::numeric_limits<double>::infinity()) == 0xFBFF);
  CHECK(std::isnan(attention::from_float16(attention::to_float16(std::nan("")))));
}
