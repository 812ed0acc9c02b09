#include "attention/core/rng.hpp"

#include "support.hpp"

using attention::NumpyRandom;

TEST_CASE("NumPy's legacy streams for several seeds", "[rng]") {
  const auto fixture = support::load_fixture("random.json");
  for (const auto& c : fixture["cases"]) {
    const auto seed = c["seed"].get<std::uint32_t>();
    const std::string dist = c["dist"];
    const long rows = c["shape"][0], cols = c["shape"][1];
    DYNAMIC_SECTION("seed " << seed << " " << dist) {
      NumpyRandom rng(seed);
      attention::Matrix m = dist == "uniform" ? rng.rand(rows, cols)
                            : dist == "normal" ? rng.randn(rows, cols)
                                               : rng.randint(std::stoull(dist.substr(4)), rows, cols);
      for (long r = 0; r < rows; ++r)
        for (long k = 0; k < cols; ++k) CHECK(m(r, k) == c["values"][r][k].get<double>());  // bit for bit
    }
  }
}

TEST_CASE("seed 42 with randint(3) three times gives seed 004's weight matrices", "[rng][seed004]") {
  const auto fixture = support::load_fixture("random.json");
  NumpyRandom rng(42);
  for (int i = 0; i < 3; ++i) {
    const attention::Matrix m = rng.randint(3, 3, 3);
    for (long r = 0; r < 3; ++r)
      for (long k = 0; k < 3; ++k) CHECK(m(r, k) == fixture["seed004_weights"][i][r][k].get<double>());
  }
  // Seed 004's W_Query as printed by NumPy: [[2 0 2] [2 0 0] [2 1 2]].
  NumpyRandom again(42);
  const attention::Matrix w_query = again.randint(3, 3, 3);
  CHECK(w_query(0, 0) == 2);
  CHECK(w_query(1, 2) == 0);
  CHECK(w_query(2, 1) == 1);
}

TEST_CASE("randn keeps its cached second value across calls", "[rng]") {
  NumpyRandom a(7), b(7);
  const attention::Matrix one = a.randn(1, 3), two = a.randn(1, 3);
  const attention::Matrix both = b.randn(1, 6);
  for (int i = 0; i < 3; ++i) {
    CHECK(one(0, i) == both(0, i));
    CHECK(two(0, i) == both(0, i + 3));
  }
}

TEST_CASE("randint(1) draws nothing from the stream", "[rng]") {
  NumpyRandom a(5), b(5);
  CHECK(a.randint(1) == 0);
  CHECK(a.uniform() == b.uniform());
}

TEST_CASE("uniform draws stay between 0 and 1", "[rng][property]") {
  NumpyRandom rng(99);
  for (int i = 0; i < 100000; ++i) {
    const double u = rng.uniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
  }
}
