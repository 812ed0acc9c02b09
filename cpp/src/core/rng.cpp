#include "attention/core/rng.hpp"

#include <cmath>

namespace attention {

namespace {
constexpr int kN = 624;
constexpr int kM = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfu;
constexpr std::uint32_t kUpper = 0x80000000u;
constexpr std::uint32_t kLower = 0x7fffffffu;
}  // namespace

NumpyRandom::NumpyRandom(std::uint32_t seed) {
  key_[0] = seed;
  for (int i = 1; i < kN; ++i) {
    key_[i] = 1812433253u * (key_[i - 1] ^ (key_[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
  }
}

void NumpyRandom::twist() {
  for (int i = 0; i < kN; ++i) {
    const std::uint32_t y = (key_[i] & kUpper) | (key_[(i + 1) % kN] & kLower);
    key_[i] = key_[(i + kM) % kN] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
  }
  pos_ = 0;
}

std::uint32_t NumpyRandom::next_uint32() {
  if (pos_ >= kN) twist();
  std::uint32_t y = key_[pos_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

double NumpyRandom::uniform() {
  const std::uint32_t a = next_uint32() >> 5;  // 27 bits
  const std::uint32_t b = next_uint32() >> 6;  // 26 bits
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

double NumpyRandom::normal() {
  if (has_gauss_) {
    has_gauss_ = false;
    return gauss_;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * uniform() - 1.0;
    x2 = 2.0 * uniform() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  gauss_ = f * x1;  // NumPy returns the second value first and keeps the first for the next call
  has_gauss_ = true;
  return f * x2;
}

std::uint64_t NumpyRandom::randint(std::uint64_t high) {
  // randint(high) draws in [0, high - 1]; a range of one value consumes nothing, as in NumPy.
  const std::uint64_t rng = high - 1;
  if (rng == 0) return 0;
  std::uint64_t mask = rng;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  if (rng <= 0xffffffffull) {
    std::uint64_t v;
    do {
      v = next_uint32() & mask;
    } while (v > rng);
    return v;
  }
  std::uint64_t v;
  do {
    const std::uint64_t hi = next_uint32();
    v = ((hi << 32) | next_uint32()) & mask;
  } while (v > rng);
  return v;
}

Matrix NumpyRandom::rand(long rows, long cols) {
  Matrix m(rows, cols);
  for (long i = 0; i < m.size(); ++i) m.data()[i] = uniform();
  return m;
}

Matrix NumpyRandom::randn(long rows, long cols) {
  Matrix m(rows, cols);
  for (long i = 0; i < m.size(); ++i) m.data()[i] = normal();
  return m;
}

Matrix NumpyRandom::randint(std::uint64_t high, long rows, long cols) {
  Matrix m(rows, cols);
  for (long i = 0; i < m.size(); ++i) m.data()[i] = static_cast<double>(randint(high));
  return m;
}

}  // namespace attention
