#include "attention/small_product.hpp"

#include "attention/rng.hpp"
#include "support.hpp"

namespace {
template <class T>
double relative(const attention::MatrixT<T>& got, const attention::Matrix& expected) {
  return (got.template cast<double>() - expected).cwiseAbs().maxCoeff() / std::max(1.0, expected.cwiseAbs().maxCoeff());
}
}  // namespace

// Every way the training model calls it, at shapes that cross each edge of the loop: rows in
// blocks of 4 and the 1 to 3 left, columns two vectors at a time, one vector, and one number
// (m = 11 in doubles: 2 panels of 4, one of 2, one single; in floats: one of 8, none, 3
// singles), a depth of 0 and of 1.
TEMPLATE_TEST_CASE("a small product equals Eigen's, with either side transposed, into a block, and added", "[train][small-product]",
                   double, float) {
  using T = TestType;
  using M = attention::MatrixT<T>;
  const double tolerance = std::is_same_v<T, double> ? 1e-13 : 1e-5;
  struct Shape { long n, k, m; };
  for (const Shape s : {Shape{1, 1, 1}, Shape{4, 8, 8}, Shape{7, 16, 11}, Shape{13, 3, 2}, Shape{2, 0, 5}, Shape{256, 16, 16}}) {
    INFO("n " << s.n << ", k " << s.k << ", m " << s.m);
    attention::NumpyRandom rng(11);
    const attention::Matrix A = rng.randn(s.n, s.k), B = rng.randn(s.k, s.m), C0 = rng.randn(s.n, s.m);
    const attention::Matrix AB = s.k == 0 ? attention::Matrix::Zero(s.n, s.m) : attention::Matrix(A * B);
    const M a = A.cast<T>(), b = B.cast<T>(), at = a.transpose(), bt = b.transpose();

    CHECK(relative<T>(attention::multiply_small(a, b), AB) < tolerance);
    CHECK(relative<T>(attention::multiply_small(at.transpose(), b), AB) < tolerance);  // A read down its columns
    CHECK(relative<T>(attention::multiply_small(a, bt.transpose()), AB) < tolerance);  // B copied into rows first
    CHECK(relative<T>(attention::multiply_small(at.transpose(), bt.transpose()), AB) < tolerance);

    M sum = C0.cast<T>();
    attention::multiply_small(a, bt.transpose(), sum, true);
    CHECK(relative<T>(sum, C0 + AB) < tolerance);

    // Into columns 3 .. 3+m of a wider matrix, from blocks of wider ones (one head's columns)
    M wide = M::Constant(s.n, s.m + 5, T(7)), wide_a = M::Zero(s.n, s.k + 2);
    wide_a.middleCols(1, s.k) = a;
    attention::multiply_small(wide_a.middleCols(1, s.k), b, wide.middleCols(3, s.m));
    CHECK(relative<T>(M(wide.middleCols(3, s.m)), AB) < tolerance);
    CHECK((wide.leftCols(3).array() == T(7)).all());  // the columns around the block are untouched
    CHECK((wide.rightCols(2).array() == T(7)).all());
  }
}
