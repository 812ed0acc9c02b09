#pragma once
// What the two modules that run specs share (the whole core, attention_wasm.cpp, and the first
// heatmap's, first_wasm.cpp): the packed trace and the work a spec takes. Each module gives them
// its own JS face (packed_binding.hpp through embind, web/src/core/first-module.ts by hand),
// with the same calls.
#include <optional>
#include <string>
#include <vector>

#include "attention/io/model_file.hpp"
#include "attention/io/spec.hpp"
#include "attention/io/trace_json.hpp"
#include "attention/model/language_model.hpp"
#if !defined(ATTENTION_FIRST_HEATMAP)
#include "attention/model/lm_training.hpp"
#endif
#include "binding_common.hpp"

namespace {

// The trained model `model: "tiny-lm"` names, once the page has sent its weights (load_model),
// and what each of its heads does on the probe. The first heatmap's module leaves the probe out:
// its first screens show none, and its run took most of that module's first trace (on a cold
// module, 80 of 126 ms in Node).
std::optional<attention::LanguageModel> model;
std::vector<std::vector<attention::HeadScores>> probe;

// The random weights the last spec drew: while a learner types, every trace draws the same ones.
attention::KeptDraw kept;

attention::RunContext context() {
#ifdef ATTENTION_FIRST_HEATMAP
  return {model ? &*model : nullptr, nullptr, &kept};
#else
  return {model ? &*model : nullptr, model ? &probe : nullptr, &kept};
#endif
}

// The packed trace: the JSON skeleton now, its numbers in `packed` just after (read through a
// Float64Array view into the heap that the caller copies before anything else runs), then
// drop_packed() so the heap goes back to its size between runs. Room for as many numbers as the
// last run's is taken at once: a learner's next keystroke makes a trace of about its size, and
// growing the buffer matrix by matrix copied it over and over (copies that, with -Oz's
// byte-by-byte memcpy, took nearly half of a 64-character trace of the trained model).
std::vector<double> packed;
std::size_t last_packed = 0;

std::string run_packed(const std::string& spec) {
  packed.clear();
  packed.reserve(last_packed);
  std::string skeleton = text(attention::run_trace_text(spec, &packed, context()));
  last_packed = packed.size();
  return skeleton;
}

void drop_packed() { std::vector<double>().swap(packed); }

// spec -> {"cells": N, "tokens": n}: the work a spec takes, counted as for the size limit, and
// its tokens (the rows of its matrices), so that the page decides where to compute it, and
// whether a first screen can show it as tables, from the core's count and never from its own guess.
std::string work(const std::string& spec) {
  const auto s = attention::parse_spec_text(spec);
  if (!s) return text(error_of(s.error()));
  return text(nlohmann::json{{"cells", attention::work_of(s.value()).cells()}, {"tokens", s.value().tokens.size()}});
}

#if !defined(ATTENTION_FIRST_HEATMAP) || defined(ATTENTION_FIRST_MODEL)
// The weights file's bytes -> {"card": ...}: installs the model `model: "tiny-lm"` names. The
// page fetches the file and calls this only in model mode, so no other page pays for it. (A
// first heatmap's module answers the card as null: it reads the file without it.)
std::string load_model(const std::string& bytes) {
  auto read = attention::read_model(bytes);
  if (!read) return text(error_of(read.error()));
  model = std::move(read).value();
#if !defined(ATTENTION_FIRST_HEATMAP)
  probe = attention::probe_head_scores(*model);
#endif
  return text(nlohmann::json{{"card", model->card}});
}
#endif

}  // namespace
