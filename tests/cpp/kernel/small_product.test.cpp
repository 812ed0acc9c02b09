#include "attention/kernel/small_product.hpp"

#include "attention/core/rng.hpp"
#include "support.hpp"
#include "tolerance.hpp"

namespace {
template <class T>
double relative(const attention::MatrixT<T>& got, const attention::Matrix& expected) {
  if (!got.allFinite()) return 1e300;  // a NaN would escape maxCoeff
  return (got.template cast<double>() - expected).cwiseAbs().maxCoeff() / std::max(1.0, expected.cwiseAbs().maxCoeff());
}
}  // namespace

// Every way the training model calls it, at shapes that cross each edge of the loop: rows in
// blocks of 4 and the 1 to 3 left, columns two vectors at a time, one vector, and one number
// (m = 11 in doubles: 2 panels of 4, one of 2, one single; in floats: one of 8, none, 3
// singles), a depth of 0 and of 1, and one column (B transposed is then read in place).
TEMPLATE_TEST_CASE("a small product equals Eigen's, with either side transposed, into a block, and added", "[train][small-product]",
                   double, float) {
  using T = TestType;
  using M = attention::MatrixT<T>;
  const double tolerance = std::is_same_v<T, double> ? tol::short_product : tol::float_vs_double;
  struct Shape { long n, k, m; };
  for (const Shape s : {Shape{1, 1, 1}, Shape{4, 8, 8}, Shape{7, 16, 11}, Shape{13, 3, 2}, Shape{2, 0, 5}, Shape{256, 16, 16},
                        Shape{6, 5, 1}}) {
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

    // As the model takes one head: A, B and C columns of wider matrices (rows further apart
    // than they are long), B also as a transposed block (K_h^T), and added into a block.
    M wide = M::Constant(s.n, s.m + 5, T(7)), wide_a = M::Zero(s.n, s.k + 2), wide_b = M::Zero(s.k, s.m + 3),
      wide_bt = M::Zero(s.m, s.k + 4);
    wide_a.middleCols(1, s.k) = a;
    wide_b.middleCols(2, s.m) = b;
    wide_bt.middleCols(3, s.k) = bt;
    attention::multiply_small(wide_a.middleCols(1, s.k), wide_b.middleCols(2, s.m), wide.middleCols(3, s.m));
    CHECK(relative<T>(M(wide.middleCols(3, s.m)), AB) < tolerance);
    CHECK((wide.leftCols(3).array() == T(7)).all());  // the columns around the block are untouched
    CHECK((wide.rightCols(2).array() == T(7)).all());
    attention::multiply_small(wide_a.middleCols(1, s.k), wide_bt.middleCols(3, s.k).transpose(), wide.middleCols(3, s.m), true);
    CHECK(relative<T>(M(wide.middleCols(3, s.m)), 2 * AB) < tolerance);
    CHECK((wide.rightCols(2).array() == T(7)).all());
  }
}
