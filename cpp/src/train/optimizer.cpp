#include "attention/train/optimizer.hpp"

#include <cmath>

namespace attention {

Optimizer::Optimizer(const OptimizerSettings& settings, const std::vector<const Matrix*>& like) : s_(settings) {
  for (const Matrix* m : like) {
    m_.push_back(Matrix::Zero(m->rows(), m->cols()));
    v_.push_back(Matrix::Zero(m->rows(), m->cols()));
  }
}

Optimizer::Optimizer(const OptimizerSettings& settings, const Weights& like) : Optimizer(settings, tensors_of(named(like))) {}

void Optimizer::step(Weights& w, const Weights& g) { step(tensors_of(named(w)), tensors_of(named(g))); }

void Optimizer::step(const std::vector<Matrix*>& params, const std::vector<const Matrix*>& grads) {
  ++t_;
  if (s_.kind == OptimizerKind::sgd) {
    for (std::size_t i = 0; i < params.size(); ++i) *params[i] -= s_.learning_rate * *grads[i];
    return;
  }
  const double t = static_cast<double>(t_);
  // torch.optim.Adam's arrangement of the bias corrections (the same values, computed in
  // the same order, so the fixture can compare to ~1e-15 rather than ~1e-8).
  const double correction1 = 1.0 - std::pow(s_.beta1, t);
  const double correction2 = 1.0 - std::pow(s_.beta2, t);
  const double step_size = s_.learning_rate / correction1;
  const double root2 = std::sqrt(correction2);
  for (std::size_t i = 0; i < params.size(); ++i) {
    Matrix& m = m_[i];
    Matrix& v = v_[i];
    const Matrix& grad = *grads[i];
    m = s_.beta1 * m + (1.0 - s_.beta1) * grad;
    v = s_.beta2 * v + (1.0 - s_.beta2) * grad.cwiseProduct(grad);
    const Matrix denominator = ((v.array().sqrt() / root2) + s_.epsilon).matrix();
    *params[i] -= step_size * m.cwiseQuotient(denominator);
  }
}

}  // namespace attention
