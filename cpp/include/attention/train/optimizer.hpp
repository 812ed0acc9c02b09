#pragma once
// Gradient descent on a model's tensors: plain SGD, or Adam as in Kingma & Ba (and as
// torch.optim.Adam computes it, so the fixtures can check our first steps against PyTorch).
// It works on a list of tensors, so the tiny model and the language model share it.
#include <vector>

#include "attention/train/tiny_model.hpp"

namespace attention {

enum class OptimizerKind { sgd, adam };

struct OptimizerSettings {
  OptimizerKind kind = OptimizerKind::adam;
  double learning_rate = 0.01;
  double beta1 = 0.9;     // Adam: decay of the mean of the gradients
  double beta2 = 0.999;   // Adam: decay of the mean of their squares
  double epsilon = 1e-8;  // Adam: keeps the step finite where a gradient has stayed 0
};

class Optimizer {
 public:
  // `like` gives the shapes of the state (Adam's two moments, zero at first).
  Optimizer(const OptimizerSettings& settings, const std::vector<const Matrix*>& like);
  Optimizer(const OptimizerSettings& settings, const Weights& like);

  // One update of the tensors along their gradients (the same shapes, in the same order).
  void step(const std::vector<Matrix*>& tensors, const std::vector<const Matrix*>& gradients);
  void step(Weights& w, const Weights& g);
  long steps() const { return t_; }
  void set_learning_rate(double rate) { s_.learning_rate = rate; }  // from the next step on, as a scheduler sets torch's

 private:
  OptimizerSettings s_;
  std::vector<Matrix> m_, v_;  // Adam's first and second moments; unused by SGD
  long t_ = 0;
};

// The tensors of a list of (name, tensor) pairs, as the optimiser takes them.
template <class M>
std::vector<M*> tensors_of(const std::vector<std::pair<std::string, M*>>& named) {
  std::vector<M*> out;
  for (const auto& entry : named) out.push_back(entry.second);
  return out;
}

}  // namespace attention
