#include "attention/train/optimizer.hpp"

#include <cmath>

namespace attention {

Optimizer::Optimizer(const OptimizerSettings& settings, const Weights& like)
    : s_(settings), m_(zeros_like(like)), v_(zeros_like(like)) {}

void Optimizer::step(Weights& w, const Weights& g) {
  ++t_;
  auto params = named(w);
  const auto grads = named(g);
  if (s_.kind == OptimizerKind::sgd) {
    for (std::size_t i = 0; i < params.size(); ++i) *params[i].second -= s_.learning_rate * *grads[i].second;
    return;
  }
  auto first = named(m_);
  auto second = named(v_);
  const double t = static_cast<double>(t_);
  // torch.optim.Adam's arrangement of the bias corrections (the same values, computed in
  // the same order, so the fixture can compare to ~1e-15 rather than ~1e-8).
  const double correction1 = 1.0 - std::pow(s_.beta1, t);
  const double correction2 = 1.0 - std::pow(s_.beta2, t);
  const double step_size = s_.learning_rate / correction1;
  const double root2 = std::sqrt(correction2);
  for (std::size_t i = 0; i < params.size(); ++i) {
    Matrix& m = *first[i].second;
    Matrix& v = *second[i].second;
    const Matrix& grad = *grads[i].second;
    m = s_.beta1 * m + (1.0 - s_.beta1) * grad;
    v = s_.beta2 * v + (1.0 - s_.beta2) * grad.cwiseProduct(grad);
    const Matrix denominator = ((v.array().sqrt() / root2) + s_.epsilon).matrix();
    *params[i].second -= step_size * m.cwiseQuotient(denominator);
  }
}

}  // namespace attention
