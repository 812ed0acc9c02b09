#pragma once
// The trace contract: spec JSON in, trace JSON out. This is the one entry point the CLI and
// the wasm binding share, so both print the same trace and the same error messages.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attention/core/attention.hpp"
#include "attention/core/error.hpp"
#include "attention/core/head_detector.hpp"
#include "attention/io/error_json.hpp"
#include "attention/core/scalar.hpp"
#include "attention/io/spec.hpp"

namespace attention {

struct LanguageModel;

// What a caller that runs spec after spec (the page's core) holds between runs and lends to
// each: the trained model a spec may name (`model: "tiny-lm"`), none until its weights are read;
// `probe`, what each of its heads does on the probe of random tokens repeated twice
// (probe_head_scores, the model's, whatever the text), shown beside this text's, left out when
// none; `kept`, the random weights its last spec drew (parameters.hpp).
struct RunContext {
  const LanguageModel* model = nullptr;
  const std::vector<std::vector<HeadScores>>* probe = nullptr;
  KeptDraw* kept = nullptr;
};

// With `packed`, every matrix and vector of the trace is appended to it (row-major) and the
// JSON holds {"@": offset, "shape": [rows, cols]} (or [n]) in its place.
Result<nlohmann::json> run_trace(const Spec& spec, std::vector<double>* packed = nullptr, const RunContext& with = {});

#ifdef ATTENTION_FIRST_HEATMAP
// Makes a first heatmap's module read and run the trained model (first_wasm.cpp built for posts
// on it); without the probe's scores, which its first screens do not show.
void run_trained_traces();
#endif

// Parses, validates and runs; the error JSON is {"error": {"field": ..., "message": ...}}.
nlohmann::json run_trace_text(const std::string& spec_text, std::vector<double>* packed = nullptr, const RunContext& with = {});

// The spec's parameters as the trace names them, drawn and nothing run: {"tokens", "X" (or
// "annotations" and "decoder_state"), ["source_tokens", "X_source"], "W_q", ...}.
nlohmann::json parameters_json(const Spec& spec);

// Parses (without the work limit: nothing is run) and draws; the same error JSON as run_trace_text.
// The drawing is bounded: a spec drawing more than limits::max_trace_cells numbers is refused.
nlohmann::json parameters_text(const std::string& spec_text);

// The trained model's trace (`model: "tiny-lm"`), an entry per row: what run_trace writes for it,
// in its order, and what the page's ModelTrace type is written from. Shapes name the model's
// sizes: n tokens, layers, heads, vocab word pieces.
const std::vector<TraceInfo>& model_trace_schema();

// The trace's schemas, {"self": [...], "encoder_decoder": [...], "model": [...]}, a row {name,
// shape, when, kind, step, label, rows, group, role} per entry, and the head detector's
// patterns: what the page's Trace types and views are written from at build time.
nlohmann::json trace_schema_json();

nlohmann::json matrix_json(const Matrix& m);   // [[...], ...]
nlohmann::json vector_json(const Vector& v);   // [...]

}  // namespace attention
