#include "attention/kernel/softmax_numerators.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attention/core/rng.hpp"
#include "support.hpp"
#include "tolerance.hpp"

namespace {
// The largest relative difference from exp((x - max) * scale) by std::exp, over the numerators
// that are kept; every one below the cutoff must be exactly 0, and the sum must be theirs.
template <class T>
double worst_relative(long n, double spread, T scale) {
  attention::NumpyRandom rng(static_cast<std::uint32_t>(n));
  std::vector<T> row(static_cast<std::size_t>(n));
  for (auto& x : row) x = static_cast<T>(rng.normal() * spread);
  std::vector<T> got = row;
  const T sum = attention::softmax_numerators(got.data(), n, scale);
  const T top = *std::max_element(row.begin(), row.end());
  const T cutoff = attention::softmax_cutoff<T>();
  double worst = 0, total = 0;
  for (long j = 0; j < n; ++j) {
    const T x = (row[j] - top) * scale;
    if (x < cutoff) {
      CHECK(got[j] == T(0));
      continue;
    }
    const double expected = std::exp(static_cast<double>(x));
    worst = std::max(worst, std::abs(got[j] / expected - 1));
    total += got[j];
  }
  CHECK(std::abs(sum - total) <= tol::float_few_roundings * total);
  return worst;
}
}  // namespace

// Lengths around the vector width (the tail is computed one number at a time), and scores from
// close together to thousands apart, where most numerators underflow.
TEST_CASE("softmax numerators are exp to the last bits, and 0 below the cutoff", "[kernel][softmax]") {
  for (long n : {1L, 2L, 3L, 4L, 5L, 7L, 8L, 9L, 17L, 1000L}) {
    for (double spread : {0.01, 1.0, 30.0, 3000.0}) {
      INFO("n " << n << ", spread " << spread);
      CHECK(worst_relative<double>(n, spread, 0.35) < tol::last_bits);
      CHECK(worst_relative<float>(n, spread, 0.35f) < tol::float_last_bits);
    }
  }
}

TEST_CASE("softmax numerators keep the largest at 1 and take -inf as 0", "[kernel][softmax]") {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> row = {-inf, 2.0, 2.0, -inf, 1.0};
  const double sum = attention::softmax_numerators(row.data(), 5, 1.0);
  CHECK((row[0] == 0.0 && row[1] == 1.0 && row[2] == 1.0 && row[3] == 0.0));
  CHECK(std::abs(row[4] / std::exp(-1.0) - 1) < tol::last_bits);
  CHECK(std::abs(sum - (2.0 + row[4])) < tol::last_bits);
}
