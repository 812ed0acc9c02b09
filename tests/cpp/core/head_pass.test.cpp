// One head's pass, the stages every path that attends goes through.
#include "attention/core/head_pass.hpp"

#include "attention/core/derivation.hpp"
#include "attention/core/derivation.hpp"
#include "attention/io/trace_json.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using attention::Matrix;
using nlohmann::json;

namespace {
attention::Spec spec_of(const char* text) {
  auto s = attention::parse_spec(json::parse(text));
  REQUIRE(s.ok());
  return s.value();
}
}  // namespace

TEST_CASE("a head's pass: weights over the keys each row sees, the values weighed by them, a row that sees none reported", "[head_pass]") {
  const attention::Spec s = spec_of(R"({"sentence": "a b c", "d_model": 2})");  // scaled dot, d_k 2
  Matrix q(3, 2), k(3, 2), v(3, 2), visible(3, 3);
  q << 1, 0, 0, 1, 2, 2;
  k << 1, 0, 0, 1, -1, 1;
  v << 1, 2, 3, 4, 5, 6;
  visible << 0, 0, 0, 1, 1, 0, 1, 1, 1;  // row 0 sees nothing
  std::vector<long> empty;
  const auto pass = attention::head_pass<double>(s, attention::Parameters(), q, k, v, Matrix(), visible, 0, &empty);
  REQUIRE(pass.ok());
  const auto& r = pass.value();
  CHECK(r.raw.isApprox(q * k.transpose()));
  CHECK(r.logits.isApprox(r.raw / std::sqrt(2.0)));
  CHECK(empty == std::vector<long>{0});
  CHECK(r.weights.row(0).isZero());
  CHECK(r.weights(1, 2) == 0.0);  // hidden
  CHECK(r.weights.row(1).sum() == Approx(1).epsilon(tol::last_bits));
  CHECK(r.weights(1, 1) / r.weights(1, 0) == Approx(std::exp((1 - 0) / std::sqrt(2.0))).epsilon(tol::last_bits));
  CHECK(r.out.isApprox(r.weights * v));
  CHECK(r.out.row(0).isZero());
}

TEST_CASE("a head's logits that overflow are refused, naming the head and what to change", "[head_pass][errors]") {
  const attention::Spec s = spec_of(R"({"sentence": "a b", "d_model": 1, "temperature": 1e-300})");
  Matrix q(2, 1), k(2, 1), v(2, 1);
  q << 1e10, 1;
  k << 1e10, 1;
  v << 1, 2;
  const auto pass = attention::head_pass<double>(s, attention::Parameters(), q, k, v, Matrix(), Matrix(), 3);
  REQUIRE_FALSE(pass.ok());
  CHECK(pass.error().field == "temperature");
  CHECK(pass.error().message == "temperature: the scores of head 3 overflow; use smaller values, a smaller scale or a higher temperature");
}

TEST_CASE("every path's numbers are the pass's: the run, decode's steps and a clicked cell agree to the bit", "[head_pass][property]") {
  const char* spec = R"({"sentence": "one pass for every path", "heads": 4, "kv_heads": 2, "d_model": 8, "positional": "alibi",
                         "mask": "causal", "softcap": 2, "decode": true})";
  const json t = attention::run_trace_text(spec);
  REQUIRE(t.contains("decode"));
  const attention::Spec parsed = spec_of(spec);
  const std::size_t n = t["tokens"].size();
  for (std::size_t step = 0; step < n; ++step) {
    for (std::size_t h = 0; h < 4; ++h) {
      for (std::size_t j = 0; j <= step; ++j) {
        CHECK(t["decode"][step]["scores"][h][j] == t["scores"][h][step][j]);
        CHECK(t["decode"][step]["weights"][h][j] == t["weights"][h][step][j]);
      }
      const json cell = attention::derive(parsed, "weights", static_cast<long>(h), static_cast<long>(step), 0).value();
      CHECK(cell["softmax"]["value"] == t["weights"][h][step][0]);
      CHECK(cell["score"]["value"] == t["scores"][h][step][0]);
    }
  }
}
