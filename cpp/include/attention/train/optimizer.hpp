#pragma once
// Gradient descent on the tiny model's weights: plain SGD, or Adam as in Kingma & Ba (and as
// torch.optim.Adam computes it, so the fixtures can check our first steps against PyTorch).
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
  Optimizer(const OptimizerSettings& settings, const Weights& like);

  // One update of w along the gradient g (same shapes as w).
  void step(Weights& w, const Weights& g);
  long steps() const { return t_; }

 private:
  OptimizerSettings s_;
  Weights m_, v_;  // Adam's first and second moments; unused by SGD
  long t_ = 0;
};

}  // namespace attention
