#include "attention/core/alibi.hpp"

#include <cmath>
#include <cstdlib>

namespace attention {

std::vector<double> alibi_slopes(long heads) {
  const auto power_of_two = [](long n) {
    std::vector<double> out;
    const double start = std::pow(2.0, -8.0 / static_cast<double>(n));
    for (long i = 1; i <= n; ++i) out.push_back(std::pow(start, static_cast<double>(i)));
    return out;
  };
  long p = 1;
  while (p * 2 <= heads) p *= 2;
  std::vector<double> slopes = power_of_two(p);
  if (p == heads) return slopes;
  const std::vector<double> finer = alibi_slopes(2 * p);
  for (std::size_t i = 0; i < finer.size() && static_cast<long>(slopes.size()) < heads; i += 2) slopes.push_back(finer[i]);
  return slopes;
}

Matrix alibi_bias(double slope, long n, long m) {
  Matrix b(n, m);
  for (long i = 0; i < n; ++i) {
    for (long j = 0; j < m; ++j) b(i, j) = -slope * static_cast<double>(std::labs(i - j));
  }
  return b;
}

Matrix alibi_bias_row(double slope, long i, long m) {
  Matrix b(1, m);
  for (long j = 0; j < m; ++j) b(0, j) = -slope * static_cast<double>(std::labs(i - j));
  return b;
}

}  // namespace attention
