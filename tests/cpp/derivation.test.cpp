#include "attention/derivation.hpp"

#include "attention/trace_json.hpp"
#include "support.hpp"

using nlohmann::json;

namespace {
json derive(const std::string& spec, const std::string& matrix, long head, long row, long col) {
  const auto s = attention::parse_spec_text(spec);
  REQUIRE(s.ok());
  const auto d = attention::derive(s.value(), matrix, head, row, col);
  REQUIRE(d.ok());
  return d.value();
}
double sum_of(const json& terms) {
  double total = 0;
  for (const auto& t : terms) total += t["product"].get<double>();
  return total;
}
}  // namespace

TEST_CASE("a weight's derivation adds up to the trace's numbers", "[derivation]") {
  for (const char* score : {"dot", "scaled_dot", "general", "additive"}) {
    DYNAMIC_SECTION(score) {
      const std::string spec = std::string(R"({"sentence": "the cat sat", "heads": 2, "mask": "causal", "score": ")") + score + "\"}";
      const json trace = attention::run_trace_text(spec);
      const json d = derive(spec, "weights", 1, 2, 1);
      CHECK(sum_of(d["score"]["terms"]) == Approx(d["score"]["raw"].get<double>()).epsilon(1e-12));
      CHECK(d["score"]["value"] == trace["scores"][1][2][1]);
      CHECK(d["softmax"]["value"] == trace["weights"][1][2][1]);
      const auto& s = d["softmax"];
      CHECK(s["exps"][1].get<double>() / s["sum"].get<double>() == Approx(s["value"].get<double>()).epsilon(1e-14));
      CHECK(d["query_token"] == "sat");
      CHECK(d["key_token"] == "cat");
    }
  }
}

TEST_CASE("an output cell's derivation sums weights times values", "[derivation]") {
  const std::string one = R"({"sentence": "i miss the old kanye", "d_model": 3, "weight_init": "int:3"})";
  const json trace = attention::run_trace_text(one);
  const json d = derive(one, "output", 0, 1, 2);
  CHECK(d["via"] == "weights");
  CHECK(sum_of(d["terms"]) == Approx(trace["output"][1][2].get<double>()).epsilon(1e-12));
  const std::string multi = R"({"sentence": "two heads", "heads": 2})";
  const json d2 = derive(multi, "output", 0, 0, 3);
  CHECK(d2["via"] == "W_o");
  CHECK(sum_of(d2["terms"]) == Approx(attention::run_trace_text(multi)["output"][0][3].get<double>()).epsilon(1e-12));
}

TEST_CASE("seed 000's derivation shows 927 term by term", "[derivation][seed000]") {
  const json d = derive(R"({"mode": "encoder_decoder", "score": "dot", "decoder_state": [5,1,20], "annotations": [[3,12,45],[59,2,5]]})",
                        "weights", 0, 0, 0);
  CHECK(d["score"]["terms"][0]["product"] == 15.0);
  CHECK(d["score"]["terms"][2]["product"] == 900.0);
  CHECK(d["score"]["raw"] == 927.0);
  CHECK(d["softmax"]["max"] == 927.0);
}

TEST_CASE("derivation requests out of range are errors", "[derivation][errors]") {
  const auto s = attention::parse_spec_text(R"({"sentence": "a b"})").value();
  CHECK(attention::derive(s, "weights", 1, 0, 0).error().message == "head: 1 is out of range (0 to 0)");
  CHECK(attention::derive(s, "weights", 0, 5, 0).error().message == "row: 5 is out of range (0 to 1)");
  CHECK(attention::derive(s, "Q", 0, 0, 0).error().message == "matrix: must be scores, weights or output, got \"Q\"");
  CHECK(attention::derive_text("nope")["error"]["message"] == "derive: expected {spec, matrix, head, row, col}: it does not begin with '{'");
  CHECK(attention::derive_text("[1]")["error"]["message"] == "derive: expected {spec, matrix, head, row, col}");
}

TEST_CASE("derivation requests of the wrong types are errors, never exceptions", "[derivation][errors]") {
  // In wasm an exception aborts the module (and leaked until every later call failed).
  CHECK(attention::derive_text(R"({"spec": {}, "matrix": 1})")["error"]["message"] == "matrix: must be scores, weights or output");
  for (const char* request : {R"({"spec": {}, "matrix": null})", R"({"spec": 1, "matrix": "weights"})", R"({"matrix": "weights"})",
                              R"({"spec": {}, "matrix": "weights", "head": 1e300, "row": 0, "col": 0})",
                              R"({"spec": {}, "matrix": "weights", "head": 18446744073709551615, "row": "0", "col": [0]})"}) {
    INFO(request);
    json d;
    REQUIRE_NOTHROW(d = attention::derive_text(request));
    CHECK(d.contains("error"));
  }
}

TEST_CASE("derivations of current models' scores: rotated rows, the key/value group, the bias and the cap", "[derivation][modern]") {
  const auto s = attention::parse_spec_text(R"({"sentence": "a b c d", "positional": "rope", "heads": 4, "kv_heads": 2, "d_model": 8})").value();
  const json d = attention::derive(s, "weights", 3, 2, 1).value();
  const json t = attention::run_trace(s).value();
  CHECK(d["kv_head"] == 1);
  CHECK(d["score"]["terms"][0]["q"] == t["Q_rope"][2][3 * 2]);      // query head 3's block, rotated
  CHECK(d["score"]["terms"][0]["k"] == t["K_rope"][1][1 * 2]);      // key/value head 1's block, rotated
  CHECK(d["rope"]["q"][0] == t["Q"][2][3 * 2]);                     // and before the rotation
  CHECK(d["softmax"]["value"] == t["weights"][3][2][1]);

  const auto a = attention::parse_spec_text(R"({"sentence": "a b c", "positional": "alibi", "heads": 2, "softcap": 0.7})").value();
  const json da = attention::derive(a, "scores", 1, 2, 0).value();
  const double before = da["score"]["raw"].get<double>() * da["score"]["scale"].get<double>() + da["score"]["bias"].get<double>();
  CHECK(da["score"]["bias"] == -2 * std::pow(2.0, -8.0));
  CHECK(da["score"]["before_cap"].get<double>() == Approx(before));
  CHECK(da["score"]["value"].get<double>() == Approx(0.7 * std::tanh(before / 0.7)).epsilon(1e-14));

  const auto c = attention::parse_spec_text(R"({"mode": "cross", "sentence": "le chat", "source": "the black cat"})").value();
  const json dc = attention::derive(c, "weights", 0, 1, 2).value();
  CHECK(dc["key_token"] == "cat");
  CHECK(dc["softmax"]["row_scores"].size() == 3);
  CHECK(attention::derive(c, "weights", 0, 1, 3).error().message == "col: 3 is out of range (0 to 2)");
}
