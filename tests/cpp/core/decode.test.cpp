// Generation with a KV cache reproduces the full causal computation row by row.
#include "attention/core/decode.hpp"

#include "attention/io/trace_json.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using nlohmann::json;

TEST_CASE("decode step t reproduces row t of the full causal computation", "[decode][property]") {
  const char* specs[] = {
      R"({"sentence": "one two three four five six", "mask": "causal", "decode": true, "heads": 2})",
      R"({"sentence": "a llama shaped layer of eight heads", "positional": "rope", "heads": 8, "kv_heads": 2,
          "d_model": 16, "mask": "causal_window:2", "decode": true})",
      R"({"sentence": "with alibi and a cap", "positional": "alibi", "heads": 4, "d_model": 8, "mask": "causal",
          "softcap": 1.5, "decode": true, "score": "additive"})",
      R"({"sentence": "sinusoidal and hard", "positional": "sinusoidal", "mask": "causal", "decode": true, "attention": "hard"})",
  };
  for (const char* spec : specs) {
    DYNAMIC_SECTION(spec) {
      const json t = attention::run_trace_text(spec);
      REQUIRE(t.contains("decode"));
      const std::size_t n = t["tokens"].size(), heads = t["scores"].size();
      REQUIRE(t["decode"].size() == n);
      for (std::size_t step = 0; step < n; ++step) {
        const json& d = t["decode"][step];
        CHECK(d["t"] == step);
        CHECK(d["k_cache"].size() == step + 1);
        CHECK_CLOSE_JSON(d["output"], t["output"][step], tol::reordered);
        for (std::size_t h = 0; h < heads; ++h) {
          for (std::size_t j = 0; j <= step; ++j) {
            CHECK(std::abs(d["weights"][h][j].get<double>() - t["weights"][h][step][j].get<double>()) <= tol::reordered);
          }
        }
        // The cache holds the keys the full computation used, rotated where rope is on.
        const json& keys = t.contains("K_rope") ? t["K_rope"] : t["K"];
        CHECK_CLOSE_JSON(d["k_cache"][step], keys[step], tol::reordered);
      }
      const auto with = t["decode_cost"]["with_cache"].get<std::uint64_t>(), without = t["decode_cost"]["without_cache"].get<std::uint64_t>();
      CHECK(with < without);
      // the running counts, step by step, end at the totals
      const json& cost = t["decode_cost"];
      REQUIRE(cost["with_so_far"].size() == n);
      CHECK(cost["with_so_far"].back() == with);
      CHECK(cost["without_so_far"].back() == without);
      for (std::size_t i = 1; i < n; ++i) CHECK(cost["with_so_far"][i].get<std::uint64_t>() > cost["with_so_far"][i - 1].get<std::uint64_t>());
    }
  }
}

TEST_CASE("decode needs a causal mask", "[decode][errors]") {
  CHECK(attention::run_trace_text(R"({"decode": true})")["error"]["message"] ==
        "decode: generation sees only the past: it needs mask causal or causal_window:D");
  CHECK(attention::run_trace_text(R"({"decode": true, "mask": "window:2"})")["error"]["field"] == "decode");
}

namespace {
// How many numbers a JSON tree of numbers holds.
std::size_t numbers_in(const json& v) {
  if (v.is_number()) return 1;
  std::size_t total = 0;
  if (v.is_array() || v.is_object()) {
    for (const auto& x : v) total += numbers_in(x);
  }
  return total;
}
}  // namespace

TEST_CASE("the work of a decode counts every number its steps keep, ALiBi's bias rows and additive's hidden layer", "[decode][limits]") {
  const char* specs[] = {
      R"({"sentence": "one two three four five six seven eight", "mask": "causal", "decode": true, "heads": 2})",
      R"({"sentence": "a b c d e f g h i j", "positional": "alibi", "heads": 4, "kv_heads": 2, "d_model": 8,
          "mask": "causal", "decode": true})",
      R"({"sentence": "a b c d e f", "positional": "alibi", "heads": 2, "d_model": 4, "mask": "causal_window:2",
          "softcap": 3, "decode": true, "score": "additive", "d_a": 5})",
  };
  for (const char* text : specs) {
    DYNAMIC_SECTION(text) {
      const attention::Spec spec = attention::parse_spec_text(text).value();
      attention::Spec plain = spec;
      plain.decode = false;
      const auto counted = attention::work_of(spec).cells() - attention::work_of(plain).cells();
      const json t = attention::run_trace(spec).value();
      const std::size_t n = spec.tokens.size(), h = static_cast<std::size_t>(spec.heads), keys = n * (n + 1) / 2;
      // Kept: the caches, scores, weights and output row of every step.
      std::size_t needed = numbers_in(t["decode"]);
      // Worked through and dropped: each head's bias row per step, additive's hidden layer.
      if (spec.positional == attention::Positional::alibi) needed += h * keys;
      if (spec.score == attention::ScoreKind::additive) needed += h * keys * static_cast<std::size_t>(spec.d_a);
      CHECK(counted >= needed);
    }
  }
}
