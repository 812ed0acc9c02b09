// FlashAttention's online softmax ends where the standard softmax does, for every block size.
#include "attention/core/online_softmax.hpp"

#include "attention/io/trace_json.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using nlohmann::json;

TEST_CASE("the online output o / l equals the standard one for every block size", "[online][property]") {
  for (const char* base : {R"({"sentence": "one two three four five six seven", "heads": 2, "d_model": 8)",
                           R"({"sentence": "causal rows see fewer keys here", "mask": "causal", "heads": 4, "kv_heads": 2, "d_model": 8)",
                           R"({"mode": "cross", "sentence": "x y z", "source": "p q r s t u", "mask": [[1,0,0,1,1,0],[0,0,0,0,0,0],[1,1,1,1,1,1]])"}) {
    for (int block = 1; block <= 8; ++block) {
      const std::string spec = std::string(base) + ", \"online_block\": " + std::to_string(block) + "}";
      DYNAMIC_SECTION(spec) {
        const json t = attention::run_trace_text(spec);
        REQUIRE(t.contains("online"));
        for (std::size_t h = 0; h < t["online"].size(); ++h) {
          const json& last = t["online"][h].back();
          const std::size_t n = t["heads"][h].size(), dv = t["heads"][h][0].size();
          for (std::size_t r = 0; r < n; ++r) {
            const double l = last["l"][r];
            for (std::size_t c = 0; c < dv; ++c) {
              const double online = l > 0 ? last["o"][r][c].get<double>() / l : 0.0;  // a row with no visible key: 0
              CHECK(std::abs(online - t["heads"][h][r][c].get<double>()) <= tol::reordered);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("online blocks: keys in order, m null until a row sees a key, rescale exp(m_before - m_after)", "[online]") {
  const json t = attention::run_trace_text(R"({"sentence": "a b c d e", "mask": "causal", "online_block": 2})");
  const json& blocks = t["online"][0];
  REQUIRE(blocks.size() == 3);
  CHECK(blocks[0]["keys"] == json({0, 2}));
  CHECK(blocks[2]["keys"] == json({4, 5}));
  CHECK(blocks[0]["m"][4].is_number());
  const json& second = blocks[1];  // row 0 saw key 0 in block 0 only: nothing changes
  CHECK(second["rescale"][0] == 1.0);
  for (std::size_t r = 2; r < 5; ++r) {
    const double before = blocks[0]["m"][r], after = second["m"][r];
    CHECK(second["rescale"][r].get<double>() == Approx(std::exp(before - after)).epsilon(tol::few_roundings));
  }
  // A row whose keys are all masked so far keeps m null and l zero.
  const json masked = attention::run_trace_text(R"({"sentence": "a b c", "mask": [[0,0,1],[1,1,1],[1,0,0]], "online_block": 1})");
  CHECK(masked["online"][0][0]["m"][0].is_null());
  CHECK(masked["online"][0][0]["l"][0] == 0.0);
  CHECK(masked["online"][0][2]["m"][0].is_number());
}

TEST_CASE("online_block is a whole number from 1, for soft attention", "[online][errors]") {
  CHECK(attention::run_trace_text(R"({"online_block": 0})")["error"]["field"] == "online_block");
  CHECK(attention::run_trace_text(R"({"online_block": 1.5})")["error"]["field"] == "online_block");
  CHECK(attention::run_trace_text(R"({"online_block": 2, "attention": "hard"})")["error"]["message"] ==
        "online_block: the online softmax is for soft attention (attention is hard)");
}

TEST_CASE("the work of the online softmax counts its blocks and its exponentials", "[online][limits]") {
  for (const char* text : {R"({"sentence": "one two three four five six seven", "heads": 2, "d_model": 8, "online_block": 1})",
                           R"({"sentence": "one two three four five six seven", "heads": 4, "kv_heads": 1, "d_model": 8, "online_block": 3})",
                           R"({"mode": "cross", "sentence": "x y z", "source": "p q r s t u", "online_block": 2})"}) {
    DYNAMIC_SECTION(text) {
      const attention::Spec spec = attention::parse_spec_text(text).value();
      attention::Spec plain = spec;
      plain.online_block = 0;
      const auto counted = attention::work_of(spec).cells() - attention::work_of(plain).cells();
      const json t = attention::run_trace(spec).value();
      std::size_t kept = 0;  // m, l, rescale and o of every block of every head
      for (const auto& head : t["online"]) {
        for (const auto& b : head) kept += b["m"].size() + b["l"].size() + b["rescale"].size() + b["o"].size() * b["o"][0].size();
      }
      const std::size_t exps = static_cast<std::size_t>(spec.heads) * t["scores"][0].size() * t["scores"][0][0].size();
      CHECK(counted >= kept + exps);
    }
  }
}
