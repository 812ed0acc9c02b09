#include "attention/io/float16.hpp"

#include <cmath>

namespace attention {

std::uint16_t to_float16(double x) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (std::isnan(a)) return sign | 0x7E00;
  if (a >= 65504) return sign | 0x7BFF;
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);  // a = m 2^e, m in [0.5, 1): its leading bit is 2^(e - 1)
  if (e - 1 < -14) {  // below the smallest normal half: a multiple of 2^-24, rounded (1024 of them is the smallest normal)
    return sign | static_cast<std::uint16_t>(std::nearbyint(std::ldexp(a, 24)));
  }
  double mantissa = std::nearbyint(std::ldexp(a, 10 - (e - 1)));  // 1024 to 2048: the leading bit and ten more
  int exponent = e - 1 + 15;
  if (mantissa == 2048) {
    mantissa = 1024;
    ++exponent;
  }
  if (exponent >= 31) return sign | 0x7BFF;
  return sign | static_cast<std::uint16_t>(exponent << 10) | static_cast<std::uint16_t>(mantissa - 1024);
}

double from_float16(std::uint16_t half) {
  const double sign = half & 0x8000 ? -1.0 : 1.0;
  const int exponent = half >> 10 & 31, mantissa = half & 1023;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

void append_float16(std::string& out, const Matrix& m) {
  for (long i = 0; i < m.size(); ++i) {
    const std::uint16_t h = to_float16(m.data()[i]);
    out += static_cast<char>(h & 0xFF);
    out += static_cast<char>(h >> 8);
  }
}

double float16_at(const std::string& bytes, std::size_t at) {
  return from_float16(static_cast<std::uint16_t>(static_cast<unsigned char>(bytes[at]) | static_cast<unsigned char>(bytes[at + 1]) << 8));
}

}  // namespace attention
