#include "attention/train/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "attention/io/json_read.hpp"
#include "attention/core/limits.hpp"
#include "attention/io/trace_json.hpp"

namespace attention {

using nlohmann::json;

// The task's choices and the bounds of every task's length come from the task menu, so that a
// task added there needs no edit here.
const std::vector<Setting>& training_settings() {
  static_assert(limits::max_learning_rate == static_cast<std::int64_t>(limits::max_learning_rate),
                "a row's range is whole numbers");
  static const std::vector<Setting> table = [] {
    std::vector<std::string> tasks;
    std::int64_t shortest = task_catalog().front().min_length, longest = task_catalog().front().max_length;
    for (const auto& t : task_catalog()) {
      tasks.emplace_back(t.name);
      shortest = std::min<std::int64_t>(shortest, t.min_length);
      longest = std::max<std::int64_t>(longest, t.max_length);
    }
    return std::vector<Setting>{
        {"task", "enum", "\"copy\"", "What the model learns.", tasks},
        {"seed", "integer", "42", "Seed of the initial weights, the held-out examples and the batches: the same seed gives the same run.",
         {}, 0, 4294967295LL},
        {"length", "integer", "", "Digits or letters per example; its default and range depend on the task.", {}, shortest, longest},
        {"d_model", "integer", "16", "Width of the embeddings and of the attention layer.", {}, 1, limits::max_train_d_model},
        {"heads", "integer", "2", "Attention heads; they must divide d_model.", {}, 1, limits::max_train_heads},
        {"positional", "enum", "\"learned\"",
         "How the model knows where a token is: none, sinusoidal (sin/cos waves added to the embeddings) or learned (a vector per position, trained with the rest).",
         {"none", "sinusoidal", "learned"}},
        {"residual", "boolean", "true", "Add the embeddings to the attention output before the read-out."},
        {"optimizer", "enum", "\"adam\"", "sgd takes the plain gradient step; adam adapts the step of each weight.", {"sgd", "adam"}},
        {"learning_rate", "number", "", "Step size; default 0.003 for adam, 0.1 for sgd.", {},
         0, static_cast<std::int64_t>(limits::max_learning_rate)},
        {"batch_size", "integer", "32", "Fresh examples per step.", {}, 1, limits::max_train_batch},
        {"eval_size", "integer", "256", "Held-out examples the accuracy is measured on.", {}, 1, limits::max_train_eval},
    };
  }();
  return table;
}

namespace {

using json_read::integral;
using json_read::show;

constexpr std::uint32_t kGolden = 0x9E3779B9u;  // spreads the derived seeds apart

std::string number_text(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

}  // namespace

std::optional<Error> refused(const json& j, const Setting& row, const TaskInfo* task) {
  const json& v = j.at(row.key);
  const std::string kind = row.kind;
  if (kind == "enum") {
    const auto choice = json_read::get_choice(j, row.key, row.choices);
    if (!choice) return choice.error();
  } else if (kind == "boolean") {
    if (!v.is_boolean()) return error_at(row.key, "must be true or false, got " + show(v));
  } else if (kind == "share") {  // a fraction: from 0 to 1, both included
    const double d = v.is_number() ? v.get<double>() : NAN;
    if (!(d >= 0 && d <= 1)) return error_at(row.key, "must be a number from 0 to 1, got " + show(v));
  } else if (kind == "number") {  // a rate or a size: above min, never at it
    const double d = v.is_number() ? v.get<double>() : NAN;
    if (!(d > static_cast<double>(row.min) && d <= static_cast<double>(row.max))) {
      return error_at(row.key, "must be a number greater than " + std::to_string(row.min) + " and at most " +
                                   std::to_string(row.max) + ", got " + show(v));
    }
  } else {  // integer
    const bool per_task = task && std::string(row.key) == "length";
    const std::int64_t lo = per_task ? task->min_length : row.min, hi = per_task ? task->max_length : row.max;
    std::int64_t whole;  // not json_read::get_int: long is 32 bits in wasm, too few for the seed
    if (!integral(v, lo, hi, whole)) {
      return error_at(row.key, "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                                   (per_task ? std::string(" for task ") + task->name : "") + ", got " + show(v));
    }
  }
  return std::nullopt;
}

Result<TrainingSettings> parse_training(const json& j) {
  if (!j.is_object()) return error_at("", "the training settings must be a JSON object, got " + show(j));
  if (auto bad = json_read::unknown_key(j, training_settings(), "training")) return *bad;
  const auto has = [&](const char* k) { return j.contains(k) && !j.at(k).is_null(); };
  TrainingSettings s;

  // Every value against its row first. The table lists task before length, so a task that is
  // none of the menu's is refused before length would be read against it.
  const std::string named = has("task") && j.at("task").is_string() ? j.at("task").get<std::string>() : s.task;
  const TaskInfo& task = task_catalog()[static_cast<std::size_t>(std::max(find_task(named), 0))];
  for (const Setting& row : training_settings()) {
    if (!has(row.key)) continue;
    if (auto bad = refused(j, row, &task)) return *bad;
  }

  // Then read: each value present is known to be valid.
  const auto whole = [&](const char* k) { return j.at(k).get<std::int64_t>(); };
  const auto text = [&](const char* k) { return j.at(k).get<std::string>(); };
  if (has("task")) s.task = text("task");
  if (has("seed")) s.seed = static_cast<std::uint32_t>(whole("seed"));
  s.length = has("length") ? static_cast<long>(whole("length")) : task.default_length;
  if (has("d_model")) s.d_model = static_cast<long>(whole("d_model"));
  if (has("heads")) s.heads = static_cast<long>(whole("heads"));
  if (s.d_model % s.heads != 0) {
    return error_at("heads", std::to_string(s.heads) + " heads do not divide d_model " + std::to_string(s.d_model) +
                                 "; choose a divisor");
  }
  if (has("positional")) {
    const std::string p = text("positional");
    s.positional = p == "none" ? Positional::none : p == "sinusoidal" ? Positional::sinusoidal : Positional::learned;
  }
  if (has("residual")) s.residual = j.at("residual").get<bool>();
  if (has("optimizer")) s.optimizer = text("optimizer") == "sgd" ? OptimizerKind::sgd : OptimizerKind::adam;
  s.learning_rate = has("learning_rate")                 ? j.at("learning_rate").get<double>()
                    : s.optimizer == OptimizerKind::adam ? 0.003
                                                         : 0.1;
  if (has("batch_size")) s.batch_size = static_cast<long>(whole("batch_size"));
  if (has("eval_size")) s.eval_size = static_cast<long>(whole("eval_size"));
  return s;
}

Result<TrainingSettings> parse_training_text(const std::string& text) {
  ATTENTION_TRY(j, json_read::parse_text(text, "the training settings are not valid JSON"));
  return parse_training(j);
}

json training_json(const TrainingSettings& s) {
  json j = {{"task", s.task},
            {"seed", s.seed},
            {"d_model", s.d_model},
            {"heads", s.heads},
            {"positional", positional_name(s.positional)},
            {"residual", s.residual},
            {"optimizer", s.optimizer == OptimizerKind::adam ? "adam" : "sgd"},
            {"batch_size", s.batch_size},
            {"eval_size", s.eval_size}};
  // Unresolved (0) values are left out, so that parsing this JSON fills in their defaults.
  if (s.length != 0) j["length"] = s.length;
  if (s.learning_rate != 0) j["learning_rate"] = s.learning_rate;
  return j;
}

json metrics_json(const Metrics& m) {
  return {{"step", m.step}, {"loss", m.loss}, {"batch_accuracy", m.batch_accuracy},
          {"eval_loss", m.eval_loss}, {"accuracy", m.accuracy}};
}

void Trainer::History::add(long at, double l, double a) {
  pending_loss += l;
  pending_accuracy += a;
  if (++pending < stride) return;
  step.push_back(at);
  loss.push_back(pending_loss / static_cast<double>(stride));
  accuracy.push_back(pending_accuracy / static_cast<double>(stride));
  pending = 0;
  pending_loss = pending_accuracy = 0;
  if (step.size() < limits::max_train_history) return;
  // Full: merge neighbours (each pair covers the same number of steps, so the mean of the
  // means is the mean over both) and collect twice as many steps per point from now on.
  const std::size_t half = step.size() / 2;
  for (std::size_t i = 0; i < half; ++i) {
    step[i] = step[2 * i + 1];
    loss[i] = (loss[2 * i] + loss[2 * i + 1]) / 2;
    accuracy[i] = (accuracy[2 * i] + accuracy[2 * i + 1]) / 2;
  }
  step.resize(half);
  loss.resize(half);
  accuracy.resize(half);
  stride *= 2;
}

Trainer::Trainer(const TrainingSettings& settings, Task task)
    : settings_(settings),
      task_(std::move(task)),
      shape_{static_cast<long>(task_.vocabulary.size()), static_cast<long>(task_.classes.size()),
             task_.sequence_length, settings.d_model, settings.heads, settings.positional, settings.residual},
      weights_(init_weights(shape_, settings.seed)),
      optimizer_(OptimizerSettings{settings.optimizer, settings.learning_rate}, weights_),
      batches_(settings.seed + 2u * kGolden) {
  NumpyRandom held_out(settings.seed + kGolden);
  eval_.reserve(static_cast<std::size_t>(settings.eval_size));
  for (long i = 0; i < settings.eval_size; ++i) eval_.push_back(task_.generate(held_out));
}

Result<Trainer> make_trainer(const TrainingSettings& settings) {
  // One validation path: the struct goes through the same checks as JSON.
  ATTENTION_TRY(s, parse_training(training_json(settings)));
  ATTENTION_TRY(task, make_task(s.task, s.length));
  return Trainer(s, std::move(task));
}

Result<Trainer> make_trainer(const json& settings) {
  ATTENTION_TRY(s, parse_training(settings));
  return make_trainer(s);
}

Result<Metrics> Trainer::step(long count) {
  if (count < 1 || count > limits::max_train_steps_per_call) {
    return error_at("steps", "must be a whole number from 1 to " + std::to_string(limits::max_train_steps_per_call) +
                                 ", got " + std::to_string(count));
  }
  if (failed_) return *failed_;
  std::vector<Example> batch(static_cast<std::size_t>(settings_.batch_size));
  for (long k = 0; k < count; ++k) {
    for (auto& e : batch) e = task_.generate(batches_);
    const ForwardPass f = forward(shape_, weights_, batch);
    const Weights g = backward(shape_, weights_, batch, f);
    bool finite = std::isfinite(f.loss);
    for (const auto& [name, m] : named(g)) finite = finite && m->allFinite();
    if (!finite) {
      failed_ = error_at("learning_rate", "training diverged at step " + std::to_string(step_ + 1) +
                                              " (the loss is no longer finite); start again with a learning rate below " +
                                              number_text(settings_.learning_rate));
      return *failed_;
    }
    optimizer_.step(weights_, g);
    ++step_;
    last_loss_ = f.loss;
    last_accuracy_ = f.scored > 0 ? static_cast<double>(f.correct) / static_cast<double>(f.scored) : 0.0;
    history_.add(step_, last_loss_, last_accuracy_);
  }
  return metrics();
}

Metrics Trainer::metrics() const {
  if (evaluated_at_ != step_) {
    const ForwardPass f = forward(shape_, weights_, eval_);
    eval_loss_ = f.loss;
    eval_accuracy_ = f.scored > 0 ? static_cast<double>(f.correct) / static_cast<double>(f.scored) : 0.0;
    evaluated_at_ = step_;
  }
  Metrics m;
  m.step = step_;
  m.eval_loss = eval_loss_;
  m.accuracy = eval_accuracy_;
  m.loss = step_ > 0 ? last_loss_ : eval_loss_;
  m.batch_accuracy = step_ > 0 ? last_accuracy_ : eval_accuracy_;
  return m;
}

Result<json> Trainer::snapshot(long example) const {
  const long last = static_cast<long>(eval_.size()) - 1;
  if (example < 0 || example > last) {
    return error_at("example", "must be a whole number from 0 to " + std::to_string(last) + ", got " +
                                   std::to_string(example));
  }
  const Example& e = eval_[static_cast<std::size_t>(example)];
  const ForwardPass f = forward(shape_, weights_, {e});
  json tokens = json::array(), targets = json::array(), predictions = json::array(), confidence = json::array();
  for (std::size_t i = 0; i < e.tokens.size(); ++i) {
    tokens.push_back(task_.vocabulary[static_cast<std::size_t>(e.tokens[i])]);
    if (e.targets[i] < 0) {
      targets.push_back(nullptr);
      predictions.push_back(nullptr);
      confidence.push_back(nullptr);
      continue;
    }
    const int p = f.predictions[i];
    targets.push_back(task_.classes[static_cast<std::size_t>(e.targets[i])]);
    predictions.push_back(task_.classes[static_cast<std::size_t>(p)]);
    confidence.push_back(f.probabilities(static_cast<long>(i), p));
  }
  json weights = json::array();
  for (const Matrix& a : f.attention) weights.push_back(matrix_json(a));

  json history = {{"stride", history_.stride}, {"step", history_.step}, {"loss", history_.loss},
                  {"accuracy", history_.accuracy}};
  if (history_.pending > 0) {  // the steps since the last full point, so the curve ends now
    history["step"].push_back(step_);
    history["loss"].push_back(history_.pending_loss / static_cast<double>(history_.pending));
    history["accuracy"].push_back(history_.pending_accuracy / static_cast<double>(history_.pending));
  }
  return json{{"task", task_.name},       {"step", step_},         {"example", example},
              {"heads", shape_.heads},    {"tokens", tokens},      {"targets", targets},
              {"predictions", predictions}, {"confidence", confidence}, {"weights", weights},
              {"metrics", metrics_json(metrics())}, {"history", history}};
}

}  // namespace attention
