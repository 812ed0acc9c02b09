#include "attention/core/softmax.hpp"

#include <cmath>

#include "attention/core/rng.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using attention::Matrix;

TEST_CASE("softmax survives scores of 1e6 in double", "[softmax]") {
  Matrix s(1, 3);
  s << 1e6, 1e6 - 1, -1e6;
  const Matrix w = attention::softmax_rows<double>(s, Matrix(), nullptr);
  CHECK(w(0, 0) == Approx(1 / (1 + std::exp(-1.0))).epsilon(tol::last_bits));
  CHECK(w(0, 1) == Approx(std::exp(-1.0) / (1 + std::exp(-1.0))).epsilon(tol::last_bits));
  CHECK(w(0, 2) == 0.0);
  CHECK(w.allFinite());
}

TEST_CASE("a row with every position masked is zero and reported", "[softmax][mask]") {
  Matrix s(2, 2), visible(2, 2);
  s << 1, 2, 3, 4;
  visible << 0, 0, 1, 1;
  std::vector<long> empty;
  const Matrix w = attention::softmax_rows<double>(s, visible, &empty);
  CHECK(w.row(0).isZero());
  CHECK(w.row(1).sum() == Approx(1));
  CHECK(empty == std::vector<long>{0});
  std::vector<long> empty_hard;
  const Matrix h = attention::hardmax_rows<double>(s, visible, &empty_hard);
  CHECK(h.row(0).isZero());
  CHECK(empty_hard == std::vector<long>{0});
}

TEST_CASE("hard attention is one-hot on the first maximum", "[softmax][hard]") {
  Matrix s(2, 4);
  s << 1, 3, 3, 2,
       5, 5, 5, 5;
  const Matrix h = attention::hardmax_rows<double>(s, Matrix(), nullptr);
  CHECK(h(0, 1) == 1);
  CHECK(h.row(0).sum() == 1);
  CHECK(h(1, 0) == 1);
  CHECK(h.row(1).sum() == 1);
}

TEST_CASE("softmax rows are probability distributions", "[softmax][property]") {
  attention::NumpyRandom rng(1);
  for (int trial = 0; trial < 200; ++trial) {
    const Matrix s = rng.randn(5, 7) * (1 + trial * 10.0);
    const Matrix w = attention::softmax_rows<double>(s, Matrix(), nullptr);
    for (long i = 0; i < w.rows(); ++i) {
      REQUIRE(w.row(i).sum() == Approx(1).epsilon(tol::reordered));
      REQUIRE(w.row(i).minCoeff() >= 0);
    }
    // Adding a constant to a row changes nothing.
    const Matrix shifted = attention::softmax_rows<double>((s.array() + 1234.5).matrix(), Matrix(), nullptr);
    REQUIRE((shifted - w).cwiseAbs().maxCoeff() < tol::reordered);
  }
}

TEST_CASE("the float path agrees with double", "[softmax][float]") {
  attention::NumpyRandom rng(2);
  const Matrix s = rng.randn(4, 6);
  const Matrix wd = attention::softmax_rows<double>(s, Matrix(), nullptr);
  const attention::MatrixT<float> wf = attention::softmax_rows<float>(s.cast<float>(), attention::MatrixT<float>(), nullptr);
  CHECK((wf.cast<double>() - wd).cwiseAbs().maxCoeff() < tol::float_few_roundings);
}
