// Rotary position embedding: a rotation (norms kept), and scores that see only i - j.
#include "attention/core/rope.hpp"

#include "attention/core/rng.hpp"
#include "attention/io/trace_json.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using attention::Matrix;
using attention::RopeStyle;
using nlohmann::json;

TEST_CASE("rope keeps the norm of every pair and row", "[rope][property]") {
  attention::NumpyRandom rng(3);
  const Matrix x = rng.randn(7, 12);  // two heads of d_k 6
  for (const RopeStyle style : {RopeStyle::interleaved, RopeStyle::halves}) {
    const Matrix y = attention::rope_rotate<double>(x, 6, 10000, style, 0);
    for (long r = 0; r < x.rows(); ++r) CHECK(y.row(r).norm() == Approx(x.row(r).norm()).epsilon(tol::few_roundings));
    CHECK(y.row(0) == x.row(0));  // position 0 does not turn
  }
}

TEST_CASE("with rope, shifting every position by the same amount leaves the scores unchanged", "[rope][property]") {
  attention::NumpyRandom rng(5);
  const Matrix q = rng.randn(6, 8), k = rng.randn(6, 8);
  for (const RopeStyle style : {RopeStyle::interleaved, RopeStyle::halves}) {
    const Matrix at0 = attention::rope_rotate<double>(q, 8, 500, style, 0) * attention::rope_rotate<double>(k, 8, 500, style, 0).transpose();
    const Matrix at9 = attention::rope_rotate<double>(q, 8, 500, style, 9) * attention::rope_rotate<double>(k, 8, 500, style, 9).transpose();
    CHECK(((at0 - at9).cwiseAbs().maxCoeff()) < tol::reordered);
  }
}

TEST_CASE("rope pairs columns (2i, 2i+1) or (i, i + d_k/2)", "[rope]") {
  Matrix x(2, 4);
  x << 1, 0, 0, 0,  //
      1, 0, 0, 0;
  const double a = 1.0;  // position 1, pair 0: theta_0 = 1
  const Matrix inter = attention::rope_rotate<double>(x, 4, 10000, RopeStyle::interleaved, 0);
  CHECK(inter(1, 0) == Approx(std::cos(a)));
  CHECK(inter(1, 1) == Approx(std::sin(a)));  // the pair's partner is the next column
  const Matrix halves = attention::rope_rotate<double>(x, 4, 10000, RopeStyle::halves, 0);
  CHECK(halves(1, 0) == Approx(std::cos(a)));
  CHECK(halves(1, 2) == Approx(std::sin(a)));  // the partner is half a head away
  CHECK(halves(1, 1) == 0.0);
}

TEST_CASE("the rope trace: rotated Q and K, the angles, and scores from the rotated ones", "[rope]") {
  const json t = attention::run_trace_text(R"({"sentence": "a b c d", "positional": "rope", "d_model": 4, "heads": 1, "score": "dot"})");
  REQUIRE(t.contains("Q_rope"));
  CHECK(t["rope_angles"].size() == 4);
  CHECK(t["rope_angles"][0].size() == 2);
  CHECK(t["rope_angles"][2][0].get<double>() == 2.0);  // position 2 x theta_0 = 1
  double dot = 0;
  for (int c = 0; c < 4; ++c) dot += t["Q_rope"][1][c].get<double>() * t["K_rope"][3][c].get<double>();
  CHECK(t["scores"][0][1][3].get<double>() == Approx(dot).epsilon(tol::few_roundings));
  CHECK(t["Q"] != t["Q_rope"]);
}
