#include "attention/core/attention.hpp"

#include <algorithm>
#include <string>

#include "attention/kernel/kernel.hpp"
#include "attention/core/rng.hpp"
#include "attention/io/trace_json.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using attention::Matrix;
using nlohmann::json;

namespace {
json trace_of(const json& spec) {
  const auto s = attention::parse_spec(spec);
  REQUIRE(s.ok());
  const auto t = attention::run_trace(s.value());
  REQUIRE(t.ok());
  return t.value();
}

attention::SelfTrace<double> self_of(const std::string& spec) {
  const auto s = attention::parse_spec_text(spec);
  REQUIRE(s.ok());
  auto t = attention::run_self<double>(s.value());
  REQUIRE(t.ok());
  return t.value();
}
}  // namespace

TEST_CASE("every fixture agrees with NumPy", "[attention][fixtures]") {
  const auto fixture = support::load_fixture("attention.json");
  for (const auto& c : fixture["cases"]) {
    DYNAMIC_SECTION(c["name"].get<std::string>()) {
      const json trace = trace_of(c["spec"]);
      for (const auto& [key, expected] : c["expect"].items()) {
        INFO("key " << key);
        REQUIRE(trace.contains(key));
        CHECK_CLOSE_JSON(trace[key], expected, tol::against_numpy);
      }
    }
  }
}

TEST_CASE("multi-head, grouped-query, rotary, ALiBi and cross-attention agree with PyTorch", "[attention][fixtures][torch]") {
  const auto fixture = support::load_fixture("attention.json");
  int checked = 0;
  for (const auto& c : fixture["cases"]) {
    if (!c.contains("torch")) continue;
    DYNAMIC_SECTION(c["name"].get<std::string>()) {
      const json trace = trace_of(c["spec"]);
      for (const auto& [key, expected] : c["torch"].items()) {
        INFO("key " << key);
        CHECK_CLOSE_JSON(trace[key], expected, tol::against_torch);
      }
    }
    ++checked;
  }
  CHECK(checked >= 18);
}

TEST_CASE("seed 004: printed embeddings and seed-42 integer weights give its printed output", "[attention][seed004]") {
  const auto fixture = support::load_fixture("attention.json");
  const auto& printed = fixture["articles"]["seed004_printed_output"];
  json spec;
  for (const auto& c : fixture["cases"]) if (c["name"] == "seed004") spec = c["spec"];
  const json trace = trace_of(spec);
  CHECK_CLOSE_JSON(trace["output"], printed["output"], printed["tolerance"].get<double>());
  CHECK(trace["W_q"] == json::parse("[[2.0,0.0,2.0],[2.0,0.0,0.0],[2.0,1.0,2.0]]"));
}

TEST_CASE("seed 001: 8 heads of 64 concatenate to 512", "[attention][multihead]") {
  const auto t = self_of(R"({"sentence": "This is book", "d_model": 512, "heads": 8})");
  CHECK(t.heads.size() == 8);
  CHECK(t.heads[0].cols() == 64);
  CHECK(t.concat.rows() == 3);
  CHECK(t.concat.cols() == 512);
  CHECK(t.output.cols() == 512);
  CHECK(t.parameters.W_o->rows() == 512);
}

TEST_CASE("a repeated word has the same embedding", "[attention][embeddings]") {
  const auto t = self_of(R"({"sentence": "the cat and the hat"})");
  CHECK(t.parameters.X.row(0) == t.parameters.X.row(3));
  CHECK(t.parameters.X.row(0) != t.parameters.X.row(1));
  CHECK(t.parameters.vocabulary == std::vector<std::string>{"the", "cat", "and", "hat"});
}

TEST_CASE("an explicit matrix leaves the other draws unchanged", "[attention][embeddings]") {
  const auto a = self_of(R"({"sentence": "one two"})");
  const auto b = self_of(R"({"sentence": "one two", "W_q": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]})");
  CHECK(a.parameters.W_k == b.parameters.W_k);
  CHECK(a.parameters.X == b.parameters.X);
  CHECK(b.Q == b.parameters.X);
}

TEST_CASE("causal rows never weight the future", "[attention][mask][property]") {
  for (int seed = 0; seed < 20; ++seed) {
    const auto t = self_of(R"({"sentence": "a b c d e f g", "mask": "causal", "heads": 2, "seed": )" + std::to_string(seed) + "}");
    for (const auto& w : t.weights)
      for (long i = 0; i < w.rows(); ++i)
        for (long j = i + 1; j < w.cols(); ++j) REQUIRE(w(i, j) == 0.0);
    // and the first token can only attend to itself
    REQUIRE(t.weights[0](0, 0) == 1.0);
  }
}

TEST_CASE("a local window keeps weights within D positions", "[attention][mask][property]") {
  const auto t = self_of(R"({"sentence": "a b c d e f g", "mask": "window:2"})");
  for (long i = 0; i < 7; ++i)
    for (long j = 0; j < 7; ++j) CHECK((std::abs(i - j) <= 2 || t.weights[0](i, j) == 0.0));
}

TEST_CASE("without positions, permuting tokens permutes the outputs", "[attention][property]") {
  const std::vector<std::string> words = {"alpha", "beta", "gamma", "delta", "eps"};
  const auto base = self_of(R"({"tokens": ["alpha", "beta", "gamma", "delta", "eps"], "heads": 2, "d_model": 6})");
  std::vector<int> perm = {3, 0, 4, 1, 2};
  // The same embeddings per word, in a new order, through the same weights.
  json spec = json::parse(R"({"heads": 2, "d_model": 6})");
  for (int p : perm) spec["tokens"].push_back(words[static_cast<std::size_t>(p)]);
  Matrix X(5, 6);
  for (int i = 0; i < 5; ++i) X.row(i) = base.parameters.X.row(perm[static_cast<std::size_t>(i)]);
  spec["X"] = attention::matrix_json(X);
  const auto moved = attention::run_self<double>(attention::parse_spec(spec).value()).value();
  for (int i = 0; i < 5; ++i) {
    CHECK((moved.output.row(i) - base.output.row(perm[static_cast<std::size_t>(i)])).cwiseAbs().maxCoeff() < tol::reordered);
  }
}

TEST_CASE("hard attention weights are one-hot", "[attention][hard][property]") {
  for (const char* score : {"dot", "scaled_dot", "general", "additive"}) {
    const auto t = self_of(std::string(R"({"sentence": "x y z w", "attention": "hard", "heads": 2, "score": ")") + score + "\"}");
    for (const auto& w : t.weights) {
      for (long i = 0; i < w.rows(); ++i) {
        CHECK(w.row(i).sum() == 1.0);
        CHECK(w.row(i).maxCoeff() == 1.0);
        CHECK((w.row(i).array() == 0.0).count() == w.cols() - 1);
      }
    }
  }
}

TEST_CASE("scores of 1e6 give the right weights", "[attention][softmax]") {
  const auto t = self_of(R"({"tokens": ["a","b"], "X": [[1000,0],[0,1]], "W_q": [[1,0],[0,1]], "W_k": [[1,0],[0,1]], "W_v": [[1,0],[0,1]], "score": "dot"})");
  CHECK(t.scores[0](0, 0) == 1e6);
  CHECK(t.weights[0](0, 0) == 1.0);
  CHECK(t.weights.front().allFinite());
}

TEST_CASE("a fully masked row is defined and reported", "[attention][mask]") {
  const json trace = trace_of(json::parse(R"({"sentence": "p q r", "mask": [[0,0,0],[1,1,0],[1,1,1]]})"));
  CHECK(trace["empty_rows"] == json::array({0}));
  CHECK(trace["weights"][0][0] == json::array({0.0, 0.0, 0.0}));
  CHECK(trace["warnings"].size() == 1);
}

TEST_CASE("the float path follows double", "[attention][float]") {
  const auto spec = attention::parse_spec_text(R"({"sentence": "float or double", "heads": 2, "d_model": 8, "mask": "causal"})").value();
  const auto d = attention::run_self<double>(spec).value();
  const auto f = attention::run_self<float>(spec).value();
  CHECK((f.output.cast<double>() - d.output).cwiseAbs().maxCoeff() < tol::float_vs_double);
}

TEST_CASE("overflowing scores are an error, not NaN", "[attention][errors]") {
  const auto spec = attention::parse_spec_text(R"({"X": [[1e200, 1e200]], "W_q": [[1e200,0],[0,1]], "W_k": [[1e200,0],[0,1]], "W_v": [[1,0],[0,1]]})").value();
  const auto r = attention::run_self<double>(spec);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("overflow") != std::string::npos);
}

TEST_CASE("the same spec twice gives byte-identical traces", "[attention][determinism]") {
  const json spec = json::parse(R"({"sentence": "same in same out", "heads": 2, "score": "additive", "positional": "sinusoidal"})");
  CHECK(trace_of(spec).dump() == trace_of(spec).dump());
}

TEST_CASE("the benchmark kernel computes what the trace shows", "[attention][kernel]") {
  // The third has 300 tokens: its scores are taken in blocks of rows (54 in double, 109 in
  // float), the last one short.
  std::string long_sentence;
  for (int i = 0; i < 300; ++i) long_sentence += "w" + std::to_string(i % 37) + " ";
  for (const std::string& spec_text : {std::string(R"({"sentence": "one head only here", "d_model": 8})"),
                                       std::string(R"({"sentence": "eight heads of the kernel", "d_model": 16, "heads": 8})"),
                                       R"({"d_model": 16, "heads": 2, "sentence": ")" + long_sentence + "\"}"}) {
    const auto spec = attention::parse_spec_text(spec_text).value();
    const auto t = attention::run_self<double>(spec).value();
    const auto& p = t.parameters;
    attention::Workspace<double> ws;
    Matrix out;
    const attention::KernelWeights<double> wd(*p.W_q, *p.W_k, *p.W_v, p.W_o ? &*p.W_o : nullptr, spec.heads);
    attention::attention_forward<double>(p.X, wd, ws, out);
    CHECK((out - t.output).cwiseAbs().maxCoeff() < tol::reordered);
    attention::Workspace<float> wf;
    attention::MatrixT<float> of;
    const attention::MatrixT<float> Wo = p.W_o ? p.W_o->cast<float>() : attention::MatrixT<float>();
    const attention::KernelWeights<float> w32(p.W_q->cast<float>(), p.W_k->cast<float>(), p.W_v->cast<float>(),
                                              p.W_o ? &Wo : nullptr, spec.heads);
    attention::attention_forward<float>(p.X.cast<float>(), w32, wf, of);
    CHECK((of.cast<double>() - t.output).cwiseAbs().maxCoeff() < tol::float_long_sums);
  }
}

TEST_CASE("the benchmark kernel agrees where weights underflow", "[attention][kernel]") {
  // Scores thousands apart: most weights are far below the kernel's cutoff (1e-154 in double,
  // 1e-19 in float), which sets them to 0 where the trace computes them.
  attention::NumpyRandom rng(7);
  json spec;
  for (const char* name : {"X", "W_q", "W_k", "W_v"}) {
    const bool x = name[0] == 'X';
    const Matrix m = rng.randn(x ? 6 : 4, 4) * (x ? 30.0 : 1.0);  // X (6, 4), weights (4, 4)
    for (long i = 0; i < m.rows(); ++i) spec[name].push_back(std::vector<double>(m.row(i).begin(), m.row(i).end()));
  }
  const auto t = attention::run_self<double>(attention::parse_spec_text(spec.dump()).value()).value();
  REQUIRE(t.weights[0].minCoeff() < 1e-200);
  const auto& p = t.parameters;
  const double size = t.output.cwiseAbs().maxCoeff();
  attention::Workspace<double> wd;
  Matrix out;
  attention::attention_forward<double>(p.X, attention::KernelWeights<double>(*p.W_q, *p.W_k, *p.W_v, nullptr, 1), wd, out);
  CHECK((out - t.output).cwiseAbs().maxCoeff() < tol::reordered * size);
  attention::Workspace<float> wf;
  attention::MatrixT<float> of;
  attention::attention_forward<float>(p.X.cast<float>(),
                                      attention::KernelWeights<float>(p.W_q->cast<float>(), p.W_k->cast<float>(), p.W_v->cast<float>(), nullptr, 1),
                                      wf, of);
  CHECK((of.cast<double>() - t.output).cwiseAbs().maxCoeff() < tol::float_long_sums * size);
}

TEST_CASE("raw_scores: the score function alone, kept only where the scores are not a multiple of it", "[attention][modern]") {
  // Not kept for the common case: traces do not grow.
  for (const char* plain : {R"({"sentence": "a b c"})", R"({"sentence": "a b c", "heads": 2, "positional": "rope"})",
                            R"({"sentence": "a b c", "score": "additive", "temperature": 2})"}) {
    INFO(plain);
    CHECK_FALSE(trace_of(json::parse(plain)).contains("raw_scores"));
  }
  for (const char* score : {"dot", "scaled_dot", "general", "additive"}) {
    for (const char* extra : {R"("positional": "alibi")", R"("softcap": 0.8)", R"("positional": "alibi", "softcap": 1.5)"}) {
      const std::string text = std::string(R"({"sentence": "one two three four five", "heads": 4, "kv_heads": 2, "d_model": 8,)") +
                               R"( "mask": "causal", "temperature": 0.7, "score": ")" + score + "\", " + extra + "}";
      DYNAMIC_SECTION(text) {
        const json t = trace_of(json::parse(text));
        REQUIRE(t.contains("raw_scores"));
        const json& raw = t["raw_scores"];
        const double scale = t["scale"], temperature = 0.7;
        const bool alibi = t.contains("bias");
        const std::optional<double> cap = t["spec"].contains("softcap") ? std::optional<double>(t["spec"]["softcap"]) : std::nullopt;
        const std::string kind = score;
        REQUIRE(raw.size() == 4);
        for (std::size_t h = 0; h < 4; ++h) {
          const std::size_t g = t["kv_group"][h];
          REQUIRE(raw[h].size() == 5);
          for (std::size_t i = 0; i < 5; ++i) {
            REQUIRE(raw[h][i].size() == 5);
            for (std::size_t j = 0; j < 5; ++j) {  // masked entries too: the trace's scores are before the mask
              // The score function, from the trace's own Q, K and score weights.
              double expected = 0;
              if (kind == "additive") {
                const std::size_t da = t["v_a"].size();
                for (std::size_t a = 0; a < da; ++a) {
                  double x = 0;
                  for (std::size_t c = 0; c < 2; ++c) {
                    x += t["Q"][i][h * 2 + c].get<double>() * t["W_1"][c][a].get<double>() +
                         t["K"][j][g * 2 + c].get<double>() * t["W_2"][c][a].get<double>();
                  }
                  expected += t["v_a"][a].get<double>() * std::tanh(x);
                }
              } else {
                for (std::size_t c = 0; c < 2; ++c) {
                  double wk = t["K"][j][g * 2 + c];  // general: (W_a k)_c
                  if (kind == "general") {
                    wk = 0;
                    for (std::size_t e = 0; e < 2; ++e) wk += t["W_a"][c][e].get<double>() * t["K"][j][g * 2 + e].get<double>();
                  }
                  expected += t["Q"][i][h * 2 + c].get<double>() * wk;
                }
              }
              const double r = raw[h][i][j];
              CHECK(r == Approx(expected).epsilon(tol::reordered).margin(tol::reordered));
              // And the scores follow from it as the trace says: softcap(raw * scale + bias) / temperature.
              double x = r * scale + (alibi ? t["bias"][h][i][j].get<double>() : 0.0);
              if (cap) x = *cap * std::tanh(x / *cap);
              CHECK(t["scores"][h][i][j].get<double>() == Approx(x / temperature).epsilon(tol::few_roundings).margin(tol::last_bits));
            }
          }
        }
        // The packed trace holds them too, in the buffer.
        std::vector<double> packed;
        const json skeleton = attention::run_trace(attention::parse_spec_text(text).value(), &packed).value();
        REQUIRE(skeleton["raw_scores"].size() == 4);
        const std::size_t at = skeleton["raw_scores"][3]["@"];
        CHECK(skeleton["raw_scores"][3]["shape"] == json({5, 5}));
        CHECK(packed[at + 2 * 5 + 1] == raw[3][2][1].get<double>());
      }
    }
  }
}
