#include "attention/packed_weights.hpp"

#include "attention/rng.hpp"
#include "support.hpp"

// Shapes that cross every block edge of the packed product: one number, sizes below a
// register panel, a depth and width over Eigen's cache blocks, and more tokens than the
// widest block of X (4096).
TEST_CASE("a product with packed weights equals Eigen's product", "[kernel][packed]") {
  struct Shape { long n, d_in, d_out; };
  for (const Shape s : {Shape{1, 1, 1}, Shape{3, 5, 7}, Shape{9, 700, 1300}, Shape{130, 96, 33}, Shape{4100, 3, 6}}) {
    attention::NumpyRandom rng(7);
    const attention::Matrix X = rng.randn(s.n, s.d_in), W = rng.randn(s.d_in, s.d_out);
    const attention::PackedWeights<double> packed(W);
    attention::PackedWeights<double>::Buffer panel;
    attention::Matrix out;
    packed.multiply(X, out, panel);
    const attention::Matrix expected = X * W;
    INFO("n " << s.n << ", d_in " << s.d_in << ", d_out " << s.d_out);
    REQUIRE(out.rows() == s.n);
    REQUIRE(out.cols() == s.d_out);
    CHECK((out - expected).cwiseAbs().maxCoeff() / std::max(1.0, expected.cwiseAbs().maxCoeff()) < 1e-12);

    const attention::PackedWeights<float> packed32(W.cast<float>());
    attention::PackedWeights<float>::Buffer panel32;
    attention::MatrixT<float> out32;
    packed32.multiply(X.cast<float>(), out32, panel32);
    CHECK((out32.cast<double>() - expected).cwiseAbs().maxCoeff() / std::max(1.0, expected.cwiseAbs().maxCoeff()) < 1e-4);
  }
}

TEST_CASE("packed weights are reused: a second input gets its own product", "[kernel][packed]") {
  attention::NumpyRandom rng(3);
  const attention::Matrix W = rng.randn(64, 48), A = rng.randn(8, 64), B = rng.randn(20, 64);
  const attention::PackedWeights<double> packed(W);
  attention::PackedWeights<double>::Buffer panel;
  attention::Matrix out;
  packed.multiply(A, out, panel);
  packed.multiply(B, out, panel);
  CHECK((out - B * W).cwiseAbs().maxCoeff() < 1e-12);
}
