#include "attention/train/tiny_model.hpp"

#include <cmath>

#include "attention/train/optimizer.hpp"
#include "attention/core/rng.hpp"
#include "attention/io/trace_json.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using attention::Example;
using attention::Matrix;
using attention::ModelShape;
using attention::Positional;
using attention::Weights;
using nlohmann::json;

namespace {

Positional positional_of(const std::string& s) {
  return s == "learned" ? Positional::learned : s == "sinusoidal" ? Positional::sinusoidal : Positional::none;
}

ModelShape shape_of(const json& j) {
  ModelShape s;
  s.vocabulary = j["vocabulary"];
  s.classes = j["classes"];
  s.length = j["length"];
  s.d_model = j["d_model"];
  s.heads = j["heads"];
  s.positional = positional_of(j["positional"]);
  s.residual = j["residual"];
  return s;
}

std::vector<Example> batch_of(const json& j) {
  std::vector<Example> batch;
  for (const auto& e : j) batch.push_back({e["tokens"].get<std::vector<int>>(), e["targets"].get<std::vector<int>>()});
  return batch;
}

json stack_json(const std::vector<Matrix>& ms) {
  json out = json::array();
  for (const auto& m : ms) out.push_back(attention::matrix_json(m));
  return out;
}

// Random tokens and targets (about a third of the positions not scored, at least one scored).
std::vector<Example> random_batch(const ModelShape& s, long size, std::uint32_t seed) {
  attention::NumpyRandom rng(seed);
  std::vector<Example> batch(static_cast<std::size_t>(size));
  for (auto& e : batch) {
    for (long i = 0; i < s.length; ++i) {
      e.tokens.push_back(static_cast<int>(rng.randint(static_cast<std::uint64_t>(s.vocabulary))));
      const bool scored = rng.uniform() < 0.67 || i == 0;
      e.targets.push_back(scored ? static_cast<int>(rng.randint(static_cast<std::uint64_t>(s.classes))) : -1);
    }
  }
  return batch;
}

}  // namespace

TEST_CASE("gradients agree with central finite differences", "[tiny_model][gradients]") {
  for (const long heads : {1L, 2L, 4L}) {
    for (const Positional positional : {Positional::none, Positional::sinusoidal, Positional::learned}) {
      for (const bool residual : {false, true}) {
        DYNAMIC_SECTION(heads << " heads, positional " << static_cast<int>(positional) << ", residual " << residual) {
          ModelShape s{7, 5, 5, 8, heads, positional, residual};
          const auto batch = random_batch(s, 3, static_cast<std::uint32_t>(heads * 10 + static_cast<long>(positional)));
          Weights w = attention::init_weights(s, 99);
          const Weights g = attention::backward(s, w, batch, attention::forward(s, w, batch));
          const auto grads = attention::named(g);
          auto params = attention::named(w);
          REQUIRE(params.size() == grads.size());
          CHECK(params.size() == (positional == Positional::learned ? 8u : 7u));
          for (std::size_t t = 0; t < params.size(); ++t) {
            Matrix& m = *params[t].second;
            const Matrix& analytic = *grads[t].second;
            REQUIRE(analytic.rows() == m.rows());
            REQUIRE(analytic.cols() == m.cols());
            Matrix numeric(m.rows(), m.cols());
            const double h = 1e-5;
            for (long i = 0; i < m.size(); ++i) {
              const double keep = m.data()[i];
              m.data()[i] = keep + h;
              const double up = attention::forward(s, w, batch).loss;
              m.data()[i] = keep - h;
              const double down = attention::forward(s, w, batch).loss;
              m.data()[i] = keep;
              numeric.data()[i] = (up - down) / (2 * h);
            }
            const double relative = (numeric - analytic).norm() / std::max(analytic.norm(), 1e-12);
            INFO(params[t].first << ": |analytic| " << analytic.norm() << ", relative error " << relative);
            CHECK(analytic.norm() > 1e-8);  // every tensor takes part
            CHECK(relative < tol::finite_difference);
          }
        }
      }
    }
  }
}

TEST_CASE("initial weights, loss, attention and gradients agree with PyTorch autograd",
          "[tiny_model][fixtures][torch]") {
  const auto fixture = support::load_fixture("training.json");
  REQUIRE(fixture["cases"].size() >= 6);
  for (const auto& c : fixture["cases"]) {
    DYNAMIC_SECTION(c["name"].get<std::string>()) {
      const ModelShape s = shape_of(c["shape"]);
      const auto batch = batch_of(c["batch"]);
      const Weights w = attention::init_weights(s, c["seed"].get<std::uint32_t>());
      for (const auto& [name, m] : attention::named(w)) {
        INFO("initial " << name);
        REQUIRE(c["weights"].contains(name));
        CHECK_CLOSE_JSON(attention::matrix_json(*m), c["weights"][name], tol::exact);  // the draw order, bit for bit
      }
      CHECK(attention::named(w).size() == c["weights"].size());

      const auto f = attention::forward(s, w, batch);
      CHECK(std::fabs(f.loss - c["loss"].get<double>()) < tol::against_torch);
      CHECK_CLOSE_JSON(attention::matrix_json(f.logits), c["logits"], tol::against_torch);
      CHECK_CLOSE_JSON(stack_json(f.attention), c["attention"], tol::against_torch);

      const Weights g = attention::backward(s, w, batch, f);
      for (const auto& [name, m] : attention::named(g)) {
        INFO("gradient " << name);
        CHECK_CLOSE_JSON(attention::matrix_json(*m), c["gradients"][name], tol::against_torch_gradients);
      }
    }
  }
}

TEST_CASE("Adam and SGD take the steps torch.optim takes", "[tiny_model][optimizer][fixtures][torch]") {
  const auto fixture = support::load_fixture("training.json");
  for (const auto& c : fixture["cases"]) {
    for (const char* kind : {"adam", "sgd"}) {
      DYNAMIC_SECTION(c["name"].get<std::string>() << " " << kind) {
        const ModelShape s = shape_of(c["shape"]);
        const auto batch = batch_of(c["batch"]);
        const json& expect = c[kind];
        Weights w = attention::init_weights(s, c["seed"].get<std::uint32_t>());
        attention::OptimizerSettings settings;
        settings.kind = std::string(kind) == "adam" ? attention::OptimizerKind::adam : attention::OptimizerKind::sgd;
        settings.learning_rate = expect["learning_rate"];
        attention::Optimizer opt(settings, w);
        for (int k = 0; k < expect["steps"].get<int>(); ++k) {
          opt.step(w, attention::backward(s, w, batch, attention::forward(s, w, batch)));
        }
        CHECK(opt.steps() == 3);
        for (const auto& [name, m] : attention::named(w)) {
          INFO(kind << " " << name);
          CHECK_CLOSE_JSON(attention::matrix_json(*m), expect["weights"][name], tol::against_torch_gradients);
        }
      }
    }
  }
}

TEST_CASE("attention rows are distributions and unscored positions cost nothing", "[tiny_model]") {
  ModelShape s{6, 4, 5, 8, 2, Positional::sinusoidal, true};
  auto batch = random_batch(s, 4, 3);
  const Weights w = attention::init_weights(s, 1);
  const auto f = attention::forward(s, w, batch);
  REQUIRE(f.attention.size() == 8u);
  for (const Matrix& a : f.attention) {
    CHECK(a.rows() == 5);
    CHECK((a.rowwise().sum().array() - 1).abs().maxCoeff() < tol::reordered);
    CHECK(a.minCoeff() >= 0);
  }
  long scored = 0;
  for (const auto& e : batch) for (int t : e.targets) scored += t >= 0;
  CHECK(f.scored == scored);

  // Changing the target of an unscored position (still unscored) or the logits it would
  // have had cannot change the loss; marking it scored does.
  for (auto& e : batch) {
    for (auto& t : e.targets) {
      if (t >= 0) continue;
      t = 0;
      const double with = attention::forward(s, w, batch).loss;
      t = -1;
      CHECK(with != f.loss);
      CHECK(attention::forward(s, w, batch).loss == f.loss);
      return;
    }
  }
  FAIL("the batch had no unscored position");
}

TEST_CASE("without positions, a permutation of the tokens permutes the outputs", "[tiny_model]") {
  // What makes `reverse` unlearnable without a positional encoding.
  ModelShape s{6, 4, 4, 8, 2, Positional::none, true};
  const Weights w = attention::init_weights(s, 4);
  const std::vector<Example> a = {{{0, 1, 2, 3}, {0, 0, 0, 0}}};
  const std::vector<Example> b = {{{3, 2, 1, 0}, {0, 0, 0, 0}}};
  const auto fa = attention::forward(s, w, a), fb = attention::forward(s, w, b);
  for (long i = 0; i < 4; ++i) CHECK((fa.logits.row(i) - fb.logits.row(3 - i)).cwiseAbs().maxCoeff() < tol::reordered);
}
