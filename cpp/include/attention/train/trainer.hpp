#pragma once
// Watching attention learn: a task, a tiny model and an optimiser, driven a few
// steps at a time by the page's Web Worker. Settings are JSON, validated like a spec
// (one-line messages naming the key); everything is drawn from the seed, so the same
// settings give the same run, bit for bit, however the steps are split between calls.
//
// Streams (NumpyRandom, each its own): the initial weights from `seed` (tiny_model.hpp);
// the held-out examples from seed + 0x9E3779B9; the training batches from
// seed + 2 * 0x9E3779B9 (mod 2^32), so the held-out set does not depend on the model or the
// batch size, and a new batch is an example the model has never seen.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attention/core/error.hpp"
#include "attention/train/optimizer.hpp"
#include "attention/core/rng.hpp"
#include "attention/io/spec.hpp"
#include "attention/train/task.hpp"
#include "attention/train/tiny_model.hpp"

namespace attention {

struct TrainingSettings {
  std::string task = "copy";
  std::uint32_t seed = 42;
  long length = 0;  // items per example; 0 until resolved to the task's default
  long d_model = 16;
  long heads = 2;
  Positional positional = Positional::learned;
  bool residual = true;
  OptimizerKind optimizer = OptimizerKind::adam;
  double learning_rate = 0;  // 0 until resolved: 0.003 for adam, 0.1 for sgd
  long batch_size = 32;
  long eval_size = 256;
};

// The table of training keys (the same Setting rows as the spec's table).
const std::vector<Setting>& training_settings();

// Why the value of `row` in `j` does not fit the row, or nothing: the one place a training
// table's choices and ranges are read. With a task, a length must also fit the task's range.
std::optional<Error> refused(const nlohmann::json& j, const Setting& row, const TaskInfo* task = nullptr);

Result<TrainingSettings> parse_training(const nlohmann::json& j);
Result<TrainingSettings> parse_training_text(const std::string& text);

// The settings with every default filled in.
nlohmann::json training_json(const TrainingSettings& s);

struct Metrics {
  long step = 0;
  double loss = 0;            // mean loss of the last training batch (held-out loss at step 0)
  double batch_accuracy = 0;  // of the last training batch, before its update (held-out at step 0)
  double eval_loss = 0;       // on the held-out set
  double accuracy = 0;        // on the held-out set: scored positions answered right
};
nlohmann::json metrics_json(const Metrics& m);  // {step, loss, batch_accuracy, eval_loss, accuracy}

class Trainer {
 public:
  // `count` optimisation steps (1 to limits::max_train_steps_per_call), each on a fresh batch.
  // A step whose loss or gradient is not finite is not applied, and this and every later
  // call report it (the learning rate was too high).
  Result<Metrics> step(long count);

  Metrics metrics() const;

  // For display, held-out example `example`:
  //   {task, step, example, heads, tokens: [n strings], targets: [n strings|null],
  //    predictions: [n strings|null], confidence: [n numbers|null] (probability of the prediction),
  //    weights: heads x n x n, metrics: {...},
  //    history: {stride, step: [...], loss: [...], accuracy: [...]}}
  // Targets and predictions are null where the position is not scored. The history has one
  // point per `stride` steps (mean batch loss and batch accuracy); when it would exceed
  // limits::max_train_history points, neighbours are merged and the stride doubles.
  Result<nlohmann::json> snapshot(long example) const;

  const TrainingSettings& settings() const { return settings_; }
  const Task& task() const { return task_; }
  const ModelShape& shape() const { return shape_; }
  const Weights& weights() const { return weights_; }
  const std::vector<Example>& evaluation_set() const { return eval_; }

 private:
  friend Result<Trainer> make_trainer(const TrainingSettings& settings);
  Trainer(const TrainingSettings& settings, Task task);

  struct History {
    long stride = 1;
    std::vector<long> step;
    std::vector<double> loss, accuracy;
    long pending = 0;  // steps summed below, not yet a point
    double pending_loss = 0, pending_accuracy = 0;
    void add(long step, double loss, double accuracy);
  };

  TrainingSettings settings_;
  Task task_;
  ModelShape shape_;
  Weights weights_;
  Optimizer optimizer_;
  NumpyRandom batches_;
  std::vector<Example> eval_;
  long step_ = 0;
  double last_loss_ = 0, last_accuracy_ = 0;
  History history_;
  std::optional<Error> failed_;  // set once a step diverged

  // The held-out metrics of the current weights, computed once per step count.
  mutable long evaluated_at_ = -1;
  mutable double eval_loss_ = 0, eval_accuracy_ = 0;
};

Result<Trainer> make_trainer(const TrainingSettings& settings);
Result<Trainer> make_trainer(const nlohmann::json& settings);

}  // namespace attention
