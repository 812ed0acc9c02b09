#pragma once
// The tiny model that learns a task: token embeddings (+ positions), ONE multi-head
// self-attention layer, an optional residual, a linear read-out, softmax cross-entropy.
// Forward keeps every intermediate the backward pass needs; backward is analytic (no tape),
// so every gradient is a formula a learner can check against finite differences.
//
//   X = E[tokens] + positions          (n, d)   positions: none | sinusoidal | learned P[0:n]
//   Q, K, V = X W_q, X W_k, X W_v      (n, d)   head i takes column block i of width d/h
//   A_i = softmax(Q_i K_i^T / sqrt(d/h))  (n, n)
//   O = [A_1 V_1, ..., A_h V_h] W_o    (n, d)
//   H = X + O (residual) or O          (n, d)
//   logits = H W_r + b                 (n, C)
//   loss = mean over the scored positions of the batch of -log softmax(logits)[target]
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "attention/core/scalar.hpp"
#include "attention/io/spec.hpp"
#include "attention/train/task.hpp"

namespace attention {

// The trainer sets every field; the defaults are those of TrainingSettings (trainer.hpp).
struct ModelShape {
  long vocabulary = 0;  // V: input tokens
  long classes = 0;     // C: answers
  long length = 0;      // n: positions of every sequence
  long d_model = 16;
  long heads = 2;       // divides d_model
  Positional positional = Positional::learned;  // none, sinusoidal or learned
  bool residual = true;
};

// The trainable tensors; gradients and optimiser state use the same struct.
struct Weights {
  Matrix E;                   // (V, d) token embeddings
  Matrix P;                   // (n, d) learned positions; (0, 0) unless positional is learned
  Matrix W_q, W_k, W_v, W_o;  // (d, d)
  Matrix W_r;                 // (d, C) read-out
  Matrix b;                   // (1, C) read-out bias
};

// Every tensor of w with its name, in the draw order below; an empty P is left out.
std::vector<std::pair<std::string, Matrix*>> named(Weights& w);
std::vector<std::pair<std::string, const Matrix*>> named(const Weights& w);
Weights zeros_like(const Weights& w);

// Initial weights from the seed: np.random.seed(seed), then randn in this order, each scaled:
//   E (V, d) x 1, [P (n, d) x 1 if learned], W_q, W_k, W_v, W_o (d, d) x 1/sqrt(d),
//   W_r (d, C) x 1/sqrt(d); b is zeros (not drawn).
// Unit-variance embeddings with 1/sqrt(fan-in) weights keep the initial scores near unit
// variance, so attention starts spread out rather than saturated.
Weights init_weights(const ModelShape& shape, std::uint32_t seed);

struct ForwardPass {
  double loss = 0;          // mean cross-entropy over the scored positions (0 if none)
  long scored = 0;          // positions with a target
  long correct = 0;         // scored positions whose arg-max is the target
  Matrix X;                 // (B*n, d) embeddings + positions, example after example
  Matrix Q, K, V;           // (B*n, d)
  std::vector<Matrix> attention;  // B*h of (n, n): attention[example * h + head]
  Matrix concat;            // (B*n, d) head outputs side by side
  Matrix H;                 // (B*n, d) read-out input
  Matrix logits;            // (B*n, C)
  Matrix probabilities;     // (B*n, C) softmax of the logits
  std::vector<int> predictions;  // (B*n) arg-max class, the first on ties
};

// Every example must have shape.length tokens below shape.vocabulary and targets below
// shape.classes (or -1); the tasks and the trainer guarantee this.
ForwardPass forward(const ModelShape& shape, const Weights& w, const std::vector<Example>& batch);

// d loss / d every tensor, from the intermediates of forward() on the same batch.
Weights backward(const ModelShape& shape, const Weights& w, const std::vector<Example>& batch,
                 const ForwardPass& f);

}  // namespace attention
