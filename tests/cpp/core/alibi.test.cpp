// ALiBi's slopes, as the paper's reference code gives them, and the bias in the logits.
#include "attention/core/alibi.hpp"

#include "attention/io/trace_json.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using nlohmann::json;

TEST_CASE("alibi slopes: 2^(-8h/H) for a power of two, interleaved otherwise", "[alibi]") {
  CHECK(attention::alibi_slopes(8) == std::vector<double>{0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625});
  CHECK(attention::alibi_slopes(1) == std::vector<double>{std::pow(2.0, -8.0)});
  // Six heads: the four of H = 4, then slopes 1 and 3 of H = 8 (the reference's [0::2]).
  CHECK(attention::alibi_slopes(6) == std::vector<double>{0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125});
}

TEST_CASE("alibi adds -m_h |i - j| to each head's logits", "[alibi]") {
  const json plain = attention::run_trace_text(R"({"sentence": "a b c", "heads": 2})");
  const json biased = attention::run_trace_text(R"({"sentence": "a b c", "heads": 2, "positional": "alibi"})");
  REQUIRE(biased.contains("bias"));
  CHECK(biased["alibi_slopes"] == json({std::pow(2.0, -4.0), std::pow(2.0, -8.0)}));
  for (int h = 0; h < 2; ++h) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        const double m = biased["alibi_slopes"][h];
        CHECK(biased["bias"][h][i][j].get<double>() == -m * std::abs(i - j));
        CHECK(biased["scores"][h][i][j].get<double>() ==
              Approx(plain["scores"][h][i][j].get<double>() - m * std::abs(i - j)).epsilon(tol::few_roundings));
      }
    }
  }
}

TEST_CASE("one row of the ALiBi bias is that row of the whole matrix, bit for bit", "[alibi]") {
  for (const double slope : attention::alibi_slopes(6)) {
    const attention::Matrix whole = attention::alibi_bias(slope, 9, 7);
    for (long i = 0; i < 9; ++i) {
      for (const long m : {1L, 4L, 7L}) {
        const attention::Matrix row = attention::alibi_bias_row(slope, i, m);
        REQUIRE(row.rows() == 1);
        REQUIRE(row.cols() == m);
        CHECK(row == whole.block(i, 0, 1, m));  // exact: the same products
      }
    }
  }
}
