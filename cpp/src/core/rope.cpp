#include "attention/core/rope.hpp"

#include <cmath>

namespace attention {

namespace {
double theta(long i, long d_k, double base) { return std::pow(base, -2.0 * static_cast<double>(i) / static_cast<double>(d_k)); }
}  // namespace

Matrix rope_angles(long positions, long d_k, double base) {
  Matrix a(positions, d_k / 2);
  for (long p = 0; p < positions; ++p) {
    for (long i = 0; i < d_k / 2; ++i) a(p, i) = static_cast<double>(p) * theta(i, d_k, base);
  }
  return a;
}

template <class T>
MatrixT<T> rope_rotate(const MatrixT<T>& x, long d_k, double base, RopeStyle style, long offset) {
  MatrixT<T> y(x.rows(), x.cols());
  const long half = d_k / 2;
  for (long r = 0; r < x.rows(); ++r) {
    const double p = static_cast<double>(r + offset);
    for (long i = 0; i < half; ++i) {
      const double angle = p * theta(i, d_k, base);
      const T c = static_cast<T>(std::cos(angle)), s = static_cast<T>(std::sin(angle));
      const long a = style == RopeStyle::interleaved ? 2 * i : i;       // the pair's first column
      const long b = style == RopeStyle::interleaved ? 2 * i + 1 : i + half;  // and its second
      for (long block = 0; block < x.cols(); block += d_k) {
        const T u = x(r, block + a), v = x(r, block + b);
        y(r, block + a) = u * c - v * s;
        y(r, block + b) = u * s + v * c;
      }
    }
  }
  return y;
}

template MatrixT<double> rope_rotate(const MatrixT<double>&, long, double, RopeStyle, long);
template MatrixT<float> rope_rotate(const MatrixT<float>&, long, double, RopeStyle, long);

}  // namespace attention
