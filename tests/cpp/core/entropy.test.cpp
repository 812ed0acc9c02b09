#include <catch2/catch.hpp>

#include <cmath>

#include "attention/core/entropy.hpp"
#include "attention/io/spec.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using nlohmann::json;

namespace {
attention::Spec spec_of(const json& j) { return attention::parse_spec(j).value(); }
}  // namespace

TEST_CASE("unscaled scores saturate as d_k grows, scaled ones do not", "[entropy]") {
  const auto r = attention::entropy_curve(spec_of({{"sentence", "the quick brown fox jumps over the lazy dog"}, {"seed", 3}}),
                                          {1, 4, 16, 64, 256});
  REQUIRE(r.ok());
  const json& c = r.value();
  const double uniform = c["uniform"];
  CHECK(uniform == Approx(std::log(9.0)));  // 9 tokens
  const auto& dot = c["dot"];
  const auto& scaled = c["scaled_dot"];
  CHECK(dot[0].get<double>() == Approx(scaled[0].get<double>()));  // at d_k = 1 the factor is 1
  for (int i = 1; i < 5; ++i) CHECK(dot[i].get<double>() < dot[i - 1].get<double>());
  CHECK(dot[4].get<double>() < 0.1 * uniform);     // unscaled at 256: nearly one-hot
  CHECK(scaled[4].get<double>() > 0.5 * uniform);  // scaled: still spread
  CHECK(c["d_k"] == json({1, 4, 16, 64, 256}));
}

TEST_CASE("entropy points match NumPy", "[entropy]") {
  const json fixtures = support::load_fixture("entropy.json");
  for (const auto& c : fixtures["cases"]) {
    const auto r = attention::entropy_curve(spec_of(c["spec"]), c["widths"].get<std::vector<long>>());
    REQUIRE(r.ok());
    for (const char* k : {"dot", "scaled_dot"}) {
      for (std::size_t i = 0; i < c[k].size(); ++i) CHECK(r.value()[k][i].get<double>() == Approx(c[k][i].get<double>()).epsilon(tol::against_numpy));
    }
  }
}

TEST_CASE("entropy_curve names what is wrong", "[entropy][errors]") {
  const auto s = spec_of(json::object());
  CHECK(attention::entropy_curve(s, {}).error().message == "widths: give from 1 to 16 widths");
  CHECK(attention::entropy_curve(s, {0}).error().message == "widths: each width must be from 1 to 1024, got 0");
}
