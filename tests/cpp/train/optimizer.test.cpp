// SGD and Adam on their own, away from the model: one step against the formula worked by hand,
// three steps against torch.optim on weights and gradients chosen to reach each part of the
// update (a gradient of 0, one below epsilon, one of 1e3, a step on momentum alone).
#include "attention/train/optimizer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "support.hpp"
#include "tolerance.hpp"

using attention::Matrix;
using attention::Optimizer;
using attention::OptimizerKind;
using attention::OptimizerSettings;
using attention::Weights;

namespace {
using Rows = std::array<std::array<double, 2>, 8>;  // one row of two per tensor, in named() order

Matrix row(double a, double b) {
  Matrix m(1, 2);
  m << a, b;
  return m;
}

Weights weights_of(const Rows& r) {
  return Weights{row(r[0][0], r[0][1]), row(r[1][0], r[1][1]), row(r[2][0], r[2][1]), row(r[3][0], r[3][1]),
                 row(r[4][0], r[4][1]), row(r[5][0], r[5][1]), row(r[6][0], r[6][1]), row(r[7][0], r[7][1])};
}

Weights scaled(const Weights& w, double f) {
  Weights s = w;
  for (auto& [name, m] : attention::named(s)) *m *= f;
  return s;
}

// The weights and gradients of tests/cpp/optimizer_expected.py: tensor t starts at
// (t + 1, -(t + 1) / 4); its gradient is GRAD at step 1, -1/4 of it at step 2 and 0 at step 3.
Weights start() {
  Rows r;
  for (std::size_t t = 0; t < 8; ++t) r[t] = {t + 1.0, -(t + 1.0) / 4};
  return weights_of(r);
}
const Weights kGrad = weights_of({{{1.0, -2.0}, {0.0, 1e-9}, {1e3, -1e-3}, {0.5, 0.25}, {-3.0, 0.0}, {1e-9, -1e-9},
                                   {2.0, 2.0}, {-0.125, 7.0}}});
constexpr std::array<double, 3> kFactor = {1.0, -0.25, 0.0};

// The largest difference from `expected`, relative to max(1, |expected|), over every tensor.
double worst(const Weights& w, const Rows& expected) {
  const auto got = attention::named(w);
  REQUIRE(got.size() == 8);
  double e = 0;
  for (std::size_t t = 0; t < 8; ++t) {
    for (long c = 0; c < 2; ++c) {
      const double x = expected[t][static_cast<std::size_t>(c)];
      e = std::max(e, std::fabs((*got[t].second)(0, c) - x) / std::max(1.0, std::fabs(x)));
    }
  }
  return e;
}

Weights three_steps(const OptimizerSettings& settings) {
  Weights w = start();
  Optimizer opt(settings, w);
  for (const double f : kFactor) opt.step(w, scaled(kGrad, f));
  CHECK(opt.steps() == 3);
  return w;
}
}  // namespace

TEST_CASE("SGD: one step is w - lr g, to the bit", "[optimizer]") {
  // Powers of two: every product and difference is exact.
  Weights w = weights_of({{{1, -2}, {0.5, 4}, {1, -2}, {1, -2}, {1, -2}, {1, -2}, {1, -2}, {-8, 0}}});
  const Weights g = weights_of({{{0.5, -4}, {2, 0}, {0.5, -4}, {0.5, -4}, {0.5, -4}, {0.5, -4}, {0.5, -4}, {1, 1}}});
  Optimizer opt(OptimizerSettings{OptimizerKind::sgd, 0.25}, w);
  CHECK(opt.steps() == 0);
  opt.step(w, g);
  CHECK(opt.steps() == 1);
  CHECK(w.E == row(0.875, -1));
  CHECK(w.P == row(0, 4));
  CHECK(w.W_o == row(0.875, -1));
  CHECK(w.b == row(-8.25, -0.25));
}

TEST_CASE("Adam: the first step moves each weight by lr g / (|g| + eps)", "[optimizer]") {
  // After one step m = (1 - b1) g and v = (1 - b2) g^2; the bias corrections divide them by
  // (1 - b1) and (1 - b2), leaving g / (|g| + eps): about lr in the direction of -g whatever
  // the size of g, a tenth of that for |g| = 1e-9 (eps = 1e-8 dominates), and 0 for g = 0.
  Weights w = start();
  Optimizer opt(OptimizerSettings{}, w);  // Adam, lr 0.01, betas 0.9 and 0.999, eps 1e-8
  opt.step(w, kGrad);
  const Weights initial = start();
  const auto got = attention::named(w);
  const auto before = attention::named(initial);
  const auto grads = attention::named(kGrad);
  for (std::size_t t = 0; t < 8; ++t) {
    for (long c = 0; c < 2; ++c) {
      const double g = (*grads[t].second)(0, c);
      const double moved = (*before[t].second)(0, c) - (*got[t].second)(0, c);
      INFO(got[t].first << "[" << c << "], g " << g);
      CHECK(moved == Approx(0.01 * g / (std::fabs(g) + 1e-8)).epsilon(tol::few_roundings).margin(tol::last_bits));
    }
  }
  // Read off the formula: a gradient of 1e-9 moves its weight by lr / 11, one of 0 not at all.
  CHECK(w.P(0, 1) == Approx(-0.5 - 0.01 / 11).epsilon(tol::few_roundings));
  CHECK(w.P(0, 0) == 2.0);
}

TEST_CASE("Adam with the default settings takes torch.optim.Adam's three steps", "[optimizer][torch]") {
  // tests/cpp/optimizer_expected.py, "adam (defaults)".
  const Rows expected = {{{0.9816763159432657, -0.2316763158305492},
                          {2.0, -0.5014317073966732},
                          {2.981676315718058, -0.7316765411478117},
                          {3.981676316168698, -1.0183236833804357},
                          {5.018323684207023, -1.25},
                          {5.998568292603326, -1.4985682926033268},
                          {6.9816763158305495, -1.7683236841694507},
                          {8.018323682478705, -2.0183236842499626}}};
  const Weights w = three_steps(OptimizerSettings{});
  CHECK(worst(w, expected) <= tol::last_bits);
  // A gradient that was always 0 leaves its weight exactly where it was.
  CHECK(w.P(0, 0) == 2.0);
  CHECK(w.W_v(0, 1) == -1.25);
}

TEST_CASE("Adam reads its learning rate, both betas and epsilon from the settings", "[optimizer][torch]") {
  // tests/cpp/optimizer_expected.py, "adam (lr 0.2, betas 0.5 0.75, eps 0.1)".
  const Rows expected = {{{0.7522306942932826, 0.011410963922998379},
                          {2.0, -0.5000000024761905},
                          {2.723283450890355, -0.7475465970077919},
                          {3.775487437419638, -1.1893230594448232},
                          {5.2663190893617555, -1.25},
                          {5.999999997523809, -1.4999999975238096},
                          {6.738589036077001, -2.0114109639229985},
                          {8.144490002378847, -2.272174170511644}}};
  const OptimizerSettings s{OptimizerKind::adam, 0.2, 0.5, 0.75, 0.1};
  CHECK(worst(three_steps(s), expected) <= tol::last_bits);
  // Any one of them left at its default, and the steps are no longer torch's.
  using Field = double OptimizerSettings::*;
  for (const auto& [name, field] : {std::pair<const char*, Field>{"learning_rate", &OptimizerSettings::learning_rate},
                                    {"beta1", &OptimizerSettings::beta1},
                                    {"beta2", &OptimizerSettings::beta2},
                                    {"epsilon", &OptimizerSettings::epsilon}}) {
    OptimizerSettings other = s;
    other.*field = OptimizerSettings{}.*field;
    INFO(name << " at its default " << other.*field);
    CHECK(worst(three_steps(other), expected) > tol::last_bits);
  }
}

TEST_CASE("Adam keeps moving on momentum alone when the gradient falls to 0", "[optimizer]") {
  Weights w = start();
  Optimizer opt(OptimizerSettings{}, w);
  opt.step(w, kGrad);
  opt.step(w, scaled(kGrad, -0.25));
  const Weights before = w;
  opt.step(w, scaled(kGrad, 0.0));
  CHECK(w.E(0, 0) != before.E(0, 0));
  CHECK(w.W_q(0, 0) != before.W_q(0, 0));
  CHECK(w.P(0, 0) == before.P(0, 0));  // no gradient ever: no momentum
}

TEST_CASE("SGD takes torch.optim.SGD's three steps", "[optimizer][torch]") {
  // tests/cpp/optimizer_expected.py, "sgd (lr 0.3)".
  const Rows expected = {{{0.7749999999999999, 0.19999999999999998},
                          {2.0, -0.500000000225},
                          {-222.0, -0.7497750000000001},
                          {3.8875, -1.05625},
                          {5.675000000000001, -1.25},
                          {5.9999999997749995, -1.499999999775},
                          {6.550000000000001, -2.2},
                          {8.028125, -3.5749999999999997}}};
  CHECK(worst(three_steps(OptimizerSettings{OptimizerKind::sgd, 0.3}), expected) <= tol::last_bits);
}
