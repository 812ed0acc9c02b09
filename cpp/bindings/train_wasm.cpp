// The training module (watch attention learn): a wasm module of its own, so the playground's
// core carries none of it. One trainer per module; the page runs it in its own Web Worker.
// Strings in, strings out, as in attention_wasm.cpp.
#include <emscripten/bind.h>

#include <optional>
#include <string>

#include "attention/io/model_file.hpp"
#include "attention/model/lm_training.hpp"
#include "attention/train/trainer.hpp"
#include "attention/core/limits.hpp"
#include "attention/io/json_read.hpp"
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
  return text(json{{"tasks", attention::tasks_json()}, {"settings", table(attention::training_settings())},
                    {"language_model_settings", table(attention::lm_training_settings())}});
}

// The language model's task: the trained model's architecture learning from the fortunes the
// page hands over (the training and the held-out text), a few steps per call.
std::optional<attention::LmTrainer> language;
// Characters per token of the held-out windows and of the training text: the losses shown are
// per character, which compares with the shipped model's card whatever the tokens.
double held_out_characters_per_token = 1, train_characters_per_token = 1;

// The settings (lm_training_settings()'s keys) and the two texts -> {settings, unigram_loss (the
// held-out loss of token frequencies alone, nats per character)} or the error naming the setting.
// The texts are read as the playground's model reads them, in its word pieces.
std::string lm_start(const std::string& settings, const std::string& train, const std::string& held_out) {
  language.reset();
  const auto parsed = attention::json_read::parse_request(settings, "the settings must be a JSON object");
  if (!parsed) return text(error_of(parsed.error()));
  json j = parsed.value();
  if (j.is_object() && !j.contains("eval_windows")) j["eval_windows"] = 16;  // a held-out loss per call in a fraction of a step's time
  const auto read = attention::parse_lm_training(j);
  if (!read) return text(error_of(read.error()));
  const attention::LmTrainingSettings& s = read.value();
  const attention::WordPieces& pieces = attention::tiny_lm_pieces();
  const auto train_ids = attention::encode_pieces(pieces, train), held_out_ids = attention::encode_pieces(pieces, held_out);
  const std::size_t window = static_cast<std::size_t>(s.shape.context + 1);
  if (train_ids.size() <= window || held_out_ids.size() < window) {
    return text(error_json("corpus", "corpus: the texts must hold more than " + std::to_string(window) + " tokens"));
  }
  held_out_characters_per_token = attention::characters_per_token(pieces, held_out_ids, s.shape.context, s.eval_windows);
  train_characters_per_token = static_cast<double>(attention::characters(train)) / static_cast<double>(train_ids.size());
  const double unigram = attention::unigram_loss_per_character(train_ids, held_out_ids, held_out, s.shape.vocabulary);
  language.emplace(s, train_ids, held_out_ids, pieces);
  return text(json{{"settings", {{"seed", s.seed}, {"learning_rate", s.learning_rate}, {"batch_size", s.batch_size},
                                 {"repeat_share", s.repeat_share}, {"text_repeats", s.text_repeats}, {"sentence_share", s.sentence_share}, {"sentences_from", s.sentences_from}, {"steps", s.steps}, {"decay_steps", s.decay_steps},
                                 {"short_steps", s.short_steps}, {"eval_windows", s.eval_windows}}},
                   {"unigram_loss", unigram}});
}

// `count` steps -> {step, loss (the mean of their batches, per character of the training text on
// average), eval_loss (nats per character of the held-out windows), in_context
// (in_context_score on the held-out text), previous_token and induction: layers x heads on the
// probe of random word pieces repeated twice}.
std::string lm_step(int count) {
  if (!language) return text(error_json("", "train: start a run first"));
  if (count < 1 || count > attention::limits::max_train_steps_per_call) return text(error_json("count", "count: must be from 1 to 1000"));
  double loss = 0;
  for (int i = 0; i < count; ++i) loss += language->step();
  const attention::LanguageModel model{language->settings().shape, attention::tiny_lm_pieces(), language->weights(), {}};
  json previous = json::array(), induction = json::array();
  for (const auto& layer : attention::probe_head_scores(model)) {
    json p = json::array(), in = json::array();
    for (const auto& h : layer) {
      p.push_back(h.previous_token);
      in.push_back(h.induction);
    }
    previous.push_back(p);
    induction.push_back(in);
  }
  return text(json{{"step", language->steps()}, {"loss", loss / count / train_characters_per_token},
                   {"eval_loss", language->held_out_loss() / held_out_characters_per_token},
                   {"in_context", language->in_context()}, {"previous_token", previous}, {"induction", induction}});
}

// The weights so far as a weights file (what the playground's loadModel takes): "open in the
// playground" inspects the model as it is at this step.
emscripten::val lm_model_bytes() {
  static std::string bytes;
  if (!language) return emscripten::val::null();
  // The page completes the card with what it knows of the run (the corpus, the seconds).
  const attention::LmShape& shape = language->settings().shape;
  bytes = attention::write_model({shape, attention::tiny_lm_pieces(), language->weights(),
                                  json{{"architecture", attention::architecture(shape)}, {"training", {{"steps", language->steps()}}}}});
  return emscripten::val(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<const unsigned char*>(bytes.data())));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_train) {
  emscripten::function("lm_start", &lm_start);
  emscripten::function("lm_step", &lm_step);
  emscripten::function("lm_model", &lm_model_bytes);
  emscripten::function("start", &train_start);
  emscripten::function("step", &train_step);
  emscripten::function("snapshot", &train_snapshot);
  emscripten::function("tasks", &train_tasks);
  emscripten::function("stats", &heap_stats);
}
