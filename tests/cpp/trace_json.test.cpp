// The trace contract's parameters entry: the drawn matrices of a spec, named as in its trace,
// with nothing run.
#include "attention/trace_json.hpp"

#include "support.hpp"

using nlohmann::json;

TEST_CASE("parameters are the trace's drawn matrices, without the trace", "[trace][parameters]") {
  const char* specs[] = {
      R"({"sentence": "the cat sat on the mat", "heads": 2, "mask": "causal", "decode": true, "positional": "sinusoidal"})",
      R"({"mode": "cross", "sentence": "le chat", "source": "the black cat", "score": "additive"})",
      R"({"mode": "encoder_decoder", "sentence": "a b c", "score": "general"})",
      R"({"sentence": "given rows", "X": [[1, 2], [3, 4]], "embedding_init": "per_word"})",
  };
  for (const char* text : specs) {
    DYNAMIC_SECTION(text) {
      const json p = attention::parameters_text(text);
      const json t = attention::run_trace_text(text);
      REQUIRE_FALSE(p.contains("error"));
      REQUIRE_FALSE(t.contains("error"));
      for (const auto& [key, value] : p.items()) {
        INFO(key);
        REQUIRE(t.contains(key));
        CHECK(value == t[key]);
      }
      for (const char* key : {"tokens", "X", "annotations", "decoder_state", "source_tokens", "X_source",
                              "W_q", "W_k", "W_v", "W_o", "W_a", "W_1", "W_2", "v_a", "W_c"}) {
        INFO(key);
        CHECK(p.contains(key) == t.contains(key));  // every drawn matrix, nothing else of the trace
      }
    }
  }
}

TEST_CASE("parameters are bounded by what drawing takes, not by the trace's work", "[trace][parameters][limits]") {
  std::string words;
  for (int i = 0; i < 512; ++i) words += "w" + std::to_string(i) + " ";
  // Too much attention for a trace, little to draw: answered.
  const std::string heavy = R"({"sentence": ")" + words + R"(", "heads": 64, "d_model": 512, "mask": "causal", "decode": true, "online_block": 1})";
  REQUIRE(attention::run_trace_text(heavy).contains("error"));
  const json p = attention::parameters_text(heavy);
  REQUIRE_FALSE(p.contains("error"));
  CHECK(p["X"].size() == 512);
  CHECK(p["X"][0].size() == 512);
  // Too much to draw: refused, naming the field.
  const json huge = attention::parameters_text(R"({"d_model": 1024, "heads": 64, "d_k": 1024})");
  REQUIRE(huge.contains("error"));
  CHECK(huge["error"]["field"] == "d_model");
  CHECK(huge["error"]["message"].get<std::string>().find("the limit is 8000000") != std::string::npos);
  // A bad spec is the same error as run's.
  for (const char* bad : {R"({"heads": 3})", "{not json", R"({"colour": "red"})"}) {
    CHECK(attention::parameters_text(bad) == attention::run_trace_text(bad));
  }
}
