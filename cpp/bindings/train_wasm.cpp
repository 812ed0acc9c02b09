// The training module (watch attention learn): a wasm module of its own, so the playground's
// core carries none of it. One trainer per module; the page runs it in its own Web Worker.
// Strings in, strings out, as in attention_wasm.cpp.
#include <emscripten/bind.h>

#include <optional>
#include <string>

#include "attention/train/trainer.hpp"
#include "binding_common.hpp"

namespace {

using nlohmann::json;

std::optional<attention::Trainer> trainer;

std::string train_start(const std::string& settings) {
  trainer.reset();  // the old run goes first, so every start leaves the heap as the last one did
  const auto s = attention::parse_training_text(settings);
  if (!s) return text(error_of(s.error()));
  auto t = attention::make_trainer(s.value());
  if (!t) return text(error_of(t.error()));
  trainer.emplace(std::move(t).value());
  return text(json{{"settings", attention::training_json(trainer->settings())}});
}

std::string train_step(int count) {
  if (!trainer) return text(error_json("", "train: start a run first"));
  const auto m = trainer->step(count);
  return text(m ? attention::metrics_json(m.value()) : error_of(m.error()));
}

std::string train_snapshot(int example) {
  if (!trainer) return text(error_json("", "train: start a run first"));
  const auto snap = trainer->snapshot(example);
  return text(snap ? snap.value() : error_of(snap.error()));
}

std::string train_tasks() {
  return text(json{{"tasks", attention::tasks_json()}, {"settings", table(attention::training_settings())}});
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_train) {
  emscripten::function("start", &train_start);
  emscripten::function("step", &train_step);
  emscripten::function("snapshot", &train_snapshot);
  emscripten::function("tasks", &train_tasks);
  emscripten::function("stats", &heap_stats);
}
