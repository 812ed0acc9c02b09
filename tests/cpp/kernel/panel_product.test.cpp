#include "attention/kernel/panel_product.hpp"

#include "attention/core/rng.hpp"
#include "support.hpp"
#include "tolerance.hpp"

namespace {
double relative(const attention::Matrix& got, const attention::Matrix& expected) {
  return (got - expected).cwiseAbs().maxCoeff() / std::max(1.0, expected.cwiseAbs().maxCoeff());
}
}  // namespace

// Shapes that cross every edge of the loop: one number, fewer rows than a block of 4 and fewer
// columns than a panel, each remainder of rows (1, 2, 3), more rows than a row block (64), a
// long depth, and a depth of 0.
TEST_CASE("a product over kept panels equals Eigen's product", "[kernel][panels]") {
  struct Shape { long n, k, m; };
  for (const Shape s : {Shape{1, 1, 1}, Shape{3, 5, 7}, Shape{9, 700, 1300}, Shape{130, 96, 33}, Shape{66, 513, 9},
                        Shape{4100, 3, 6}, Shape{2, 0, 5}}) {
    attention::NumpyRandom rng(7);
    const attention::Matrix X = rng.randn(s.n, s.k), W = rng.randn(s.k, s.m);
    const attention::Matrix expected = s.k == 0 ? attention::Matrix::Zero(s.n, s.m) : attention::Matrix(X * W);
    INFO("n " << s.n << ", k " << s.k << ", m " << s.m);
    const attention::Panels<double> packed(W);
    attention::Matrix out;
    packed.multiply(X, out);
    REQUIRE(out.rows() == s.n);
    REQUIRE(out.cols() == s.m);
    CHECK(relative(out, expected) < tol::reordered);

    const attention::Panels<float> packed32(W.cast<float>());
    attention::MatrixT<float> out32;
    packed32.multiply(X.cast<float>(), out32);
    CHECK(relative(out32.cast<double>(), expected) < tol::float_long_sums);
  }
}

TEST_CASE("kept panels are reused: a second input gets its own product, a second pack its own panels", "[kernel][panels]") {
  attention::NumpyRandom rng(3);
  const attention::Matrix W = rng.randn(64, 48), A = rng.randn(8, 64), B = rng.randn(20, 64), W2 = rng.randn(64, 10);
  attention::Panels<double> packed(W);
  attention::Matrix out;
  packed.multiply(A, out);
  packed.multiply(B, out);
  CHECK(relative(out, B * W) < tol::reordered);
  packed.pack(W2);
  packed.multiply(B, out);
  CHECK(relative(out, B * W2) < tol::reordered);
}

// As the kernel uses it for one head: Q_h K_h^T from columns of a wider matrix, K^T packed
// from a transposed block, the result written into columns of a wider one. Depths of 12 and 13
// and 11 keys: the transposing pack and the interleaving of A's rows, whole blocks of vector
// lanes and the numbers left over, in doubles (2 lanes) and floats (4).
TEMPLATE_TEST_CASE("a product of blocks: A's rows and out's rows apart by a stride, B a transposed block", "[kernel][panels]",
                   double, float) {
  using T = TestType;
  const double tolerance = std::is_same_v<T, double> ? tol::reordered : tol::float_vs_double;
  for (const long dk : {12L, 13L}) {
    INFO("d_k " << dk);
    attention::NumpyRandom rng(5);
    const attention::MatrixT<T> QK = rng.randn(11, 2 * dk).cast<T>();  // Q (11, d_k) and K (11, d_k) side by side
    const auto Q = QK.leftCols(dk), K = QK.rightCols(dk);
    attention::Panels<T> keys(K.transpose());
    attention::MatrixT<T> wide = attention::MatrixT<T>::Constant(11, 15, T(7));  // (11, 11) goes in at column 2
    keys.multiply(QK.data(), QK.cols(), 11, wide.data() + 2, wide.cols());
    const attention::Matrix expected = Q.template cast<double>() * K.template cast<double>().transpose();
    CHECK(relative(wide.middleCols(2, 11).template cast<double>(), expected) < tolerance);
    CHECK((wide.leftCols(2).array() == T(7)).all());  // columns around the block are untouched
    CHECK((wide.rightCols(2).array() == T(7)).all());
  }
}
