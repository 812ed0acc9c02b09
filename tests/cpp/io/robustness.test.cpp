// Extreme but valid numbers give finite traces; impossible ones give one clear line. Never NaN.
#include <cmath>

#include "attention/core/rng.hpp"
#include "attention/io/trace_json.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using nlohmann::json;

namespace {
bool all_finite(const json& j) {
  if (j.is_number()) return std::isfinite(j.get<double>());
  if (j.is_null()) return false;  // NaN and infinity print as null
  if (j.is_structured()) {
    for (const auto& v : j) if (!all_finite(v)) return false;
  }
  return true;
}
json traced(const std::string& spec) { return attention::run_trace_text(spec); }
bool finite_or_clear_error(const json& t) {
  if (t.contains("error")) {
    const std::string m = t["error"]["message"];
    return !m.empty() && m.find('\n') == std::string::npos;
  }
  return all_finite(t);
}
}  // namespace

TEST_CASE("values near overflow (1e150) stay finite", "[robustness]") {
  const json t = traced(R"({"X": [[1e150, -1e150, 1e150], [1e150, 1e150, -1e150]], "W_q": [[1,0,0],[0,1,0],[0,0,1]],
                            "W_k": [[1,0,0],[0,1,0],[0,0,1]], "W_v": [[1,0,0],[0,1,0],[0,0,1]]})");
  REQUIRE_FALSE(t.contains("error"));
  CHECK(all_finite(t));
  CHECK(t["weights"][0][0][0].get<double>() == 1.0);
}

TEST_CASE("values past overflow are a clear error naming the key to change", "[robustness][errors]") {
  const json t = traced(R"({"X": [[1e300, 1e300]], "W_q": [[1e300, 0], [0, 1]]})");
  REQUIRE(t.contains("error"));
  CHECK(t["error"]["message"] == "X: the projections Q, K, V overflow; use smaller values in X or the weights");
  CHECK(t["error"]["field"] == "X");
  const json s = traced(R"({"X": [[1e160, 1e160]], "W_q": [[1,0],[0,1]], "W_k": [[1,0],[0,1]], "score": "dot"})");
  CHECK(s["error"]["message"] == "X: the scores of head 0 overflow; use smaller values, a smaller scale or a higher temperature");
  const json r = traced(R"({"X": [[1.5e308, 1.5e308]], "W_q": [[0,0],[0,0]], "W_k": [[0,0],[0,0]], "W_v": [[1,0],[0,1]], "residual": true})");
  CHECK(r["error"]["message"] == "residual: the residual sum overflows; use smaller values");
  CHECK(traced(R"({"sentence": "a b c d", "temperature": 1e-320})")["error"]["field"] == "temperature");
  CHECK(traced(R"({"sentence": "a b c d", "scale": 1e308, "X": [[9,9],[9,9],[9,9],[9,9]]})")["error"]["field"] == "scale");
  // a small scale (seed 001's 1/sqrt(5)) is not to blame when q.k itself overflows
  CHECK(traced(R"({"X": [[1e160, 1e160]], "W_q": [[1,0],[0,1]], "W_k": [[1,0],[0,1]], "scale": 0.4472})")["error"]["field"] == "X");
  const json e = traced(R"({"mode": "encoder_decoder", "score": "dot", "decoder_state": [1e200], "annotations": [[1e200]]})");
  CHECK(e["error"]["message"] == "annotations: the scores overflow; use smaller values, a smaller scale or a higher temperature");
}

TEST_CASE("subnormal inputs give finite, uniform weights", "[robustness]") {
  const json t = traced(R"({"X": [[5e-324, 1e-310], [2e-320, 0]], "score": "dot"})");
  REQUIRE(all_finite(t));
  CHECK(t["weights"][0][0][0].get<double>() == 0.5);
}

TEST_CASE("all-equal scores give exactly uniform weights", "[robustness]") {
  const json t = traced(R"({"sentence": "same same same same same", "heads": 2})");
  for (const auto& head : t["weights"])
    for (const auto& row : head)
      for (const auto& w : row) CHECK(w.get<double>() == 0.2);
}

TEST_CASE("temperature 1e-6 and huge scales: finite or a clear error", "[robustness]") {
  const json cold = traced(R"({"sentence": "a b c d", "temperature": 1e-6})");
  REQUIRE(all_finite(cold));
  for (const auto& row : cold["weights"][0]) {
    double top = 0;
    for (const auto& w : row) top = std::max(top, w.get<double>());
    CHECK(top > 0.999);  // nearly hard attention
  }
  CHECK(all_finite(traced(R"({"sentence": "a b c d", "temperature": 1e-300})")));  // scores of order 1e300: still finite
  CHECK(all_finite(traced(R"({"sentence": "a b c d", "scale": 1e300})")));
  CHECK(all_finite(traced(R"({"sentence": "a b c d", "scale": -1e300, "score": "additive"})")));
  const json flat = traced(R"({"sentence": "a b c d", "scale": 0})");
  REQUIRE(all_finite(flat));
  CHECK(flat["weights"][0][2][3].get<double>() == 0.25);  // every score 0: uniform
}

TEST_CASE("layer norm of a constant row is zero, not NaN", "[robustness]") {
  const json t = traced(R"({"X": [[1, 1], [1, 1]], "W_q": [[0,0],[0,0]], "W_k": [[0,0],[0,0]], "W_v": [[0,0],[0,0]], "layer_norm": true})");
  REQUIRE(all_finite(t));
  CHECK(t["normalized"][0][0].get<double>() == 0.0);
}

TEST_CASE("layer norm of values near overflow is finite and right", "[robustness]") {
  // Regression: the row's sum and squares overflowed, giving NaN (1e308) or zeros (1e200).
  const std::string zero = R"("W_q": [[0,0],[0,0]], "W_k": [[0,0],[0,0]], "W_v": [[1,0],[0,1]], "layer_norm": true)";
  const json big = traced(R"({"X": [[1e308, 1e308]], )" + zero + "}");
  REQUIRE(all_finite(big));
  CHECK(big["normalized"] == json::parse("[[0.0, 0.0]]"));
  for (const auto& [x, first] : {std::pair{"[[1e200, -1e200]]", 1.0}, std::pair{"[[-3e307, 1e307]]", -1.0}}) {
    const json t = traced(R"({"X": )" + std::string(x) + ", " + zero + "}");
    REQUIRE(all_finite(t));
    CHECK(t["normalized"][0][0].get<double>() == Approx(first).epsilon(tol::reordered));
    CHECK(t["normalized"][0][1].get<double>() == Approx(-first).epsilon(tol::reordered));
  }
}

TEST_CASE("a random sweep of specs: every trace finite or one clear line", "[robustness][property]") {
  attention::NumpyRandom rng(2024);
  const char* scores[] = {"dot", "scaled_dot", "general", "additive"};
  const char* masks[] = {"none", "causal", "window:0", "window:2"};
  const char* inits[] = {"uniform", "normal", "int:3", "int:1"};
  for (int i = 0; i < 300; ++i) {
    json spec;
    spec["seed"] = rng.randint(1u << 31);
    spec["d_model"] = 1 + rng.randint(12);
    spec["heads"] = 1 + rng.randint(4);
    spec["score"] = scores[rng.randint(4)];
    spec["mask"] = masks[rng.randint(4)];
    spec["weight_init"] = inits[rng.randint(4)];
    spec["embedding_init"] = inits[rng.randint(4)];
    spec["temperature"] = std::pow(10.0, rng.uniform() * 12 - 6);
    spec["positional"] = rng.randint(2) ? "sinusoidal" : "none";
    spec["attention"] = rng.randint(2) ? "hard" : "soft";
    spec["residual"] = rng.randint(2) == 1;
    spec["layer_norm"] = rng.randint(2) == 1;
    std::string sentence;
    for (std::uint64_t w = 0, n = 1 + rng.randint(9); w < n; ++w) sentence += std::string(1, static_cast<char>('a' + rng.randint(5))) + " ";
    spec["sentence"] = sentence;
    if (rng.randint(3) == 0) spec["mode"] = "encoder_decoder", spec.erase("heads"), spec.erase("mask"), spec.erase("positional"),
                                          spec.erase("residual"), spec.erase("layer_norm");
    INFO(spec.dump());
    REQUIRE(finite_or_clear_error(traced(spec.dump())));
  }
}

TEST_CASE("hostile JSON: deep nesting and huge numbers are one-line errors", "[robustness][errors]") {
  const std::string deep = "{\"seed\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  CHECK(traced(deep)["error"]["message"] == "the spec is not valid JSON: nested deeper than 32 levels at byte 40");
  // The depth is bounded before parsing: brackets inside strings do not count, 32 levels do.
  CHECK(traced(R"({"sentence": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["})").contains("trace") == false);
  CHECK_FALSE(traced(R"({"sentence": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["})").contains("error"));
  CHECK(traced("{\"seed\": " + std::string(31, '[') + std::string(31, ']') + "}")["error"]["message"] ==
        "seed: must be a whole number from 0 to 4294967295, got an array");
  CHECK(traced(R"({"seed": 1e400})")["error"]["message"].get<std::string>().find("number overflow") != std::string::npos);
  CHECK(traced(std::string(200000, '['))["error"]["message"].get<std::string>().find("not valid JSON") != std::string::npos);
}

TEST_CASE("messages quoting long or multi-byte values are short, valid UTF-8", "[robustness][errors]") {
  // Regression: a value cut inside a multi-byte character made the error JSON unprintable,
  // which aborts the wasm build (no exceptions there).
  std::string accents;
  for (int i = 0; i < 30; ++i) accents += "é";
  for (const std::string& spec : {R"({"score": ")" + accents + "\"}", R"({")" + accents + R"(": 1})",
                                  R"({"mask": ")" + std::string(100000, 'x') + "\"}", std::string("{\"sentence\": \"\xff\"}")}) {
    const json t = traced(spec);
    REQUIRE(t.contains("error"));
    CHECK_NOTHROW(t.dump());
    CHECK(t["error"]["message"].get<std::string>().size() < 200);
  }
}
