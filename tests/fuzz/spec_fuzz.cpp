// libFuzzer target: arbitrary bytes as a spec, through everything a spec can reach (parse,
// run, derive, the NumPy emitter, the entropy curve), as a derivation request, as training
// settings (parse, one step, a snapshot), and as JSON for the first heatmap's module's reader.
// Any crash, sanitizer report, NaN in a trace, NumPy program that is not plain ASCII, JSON read
// or written otherwise than nlohmann does, or runaway allocation is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "attention/core/derivation.hpp"
#include "attention/core/entropy.hpp"
#include "attention/io/derive_request.hpp"
#include "attention/io/json_read.hpp"
#include "attention/io/json_text.hpp"
#include "attention/io/numpy_emit.hpp"
#include "attention/io/trace_json.hpp"
#include "attention/train/trainer.hpp"
#include "json_identical.hpp"

namespace {
// Every number in a trace is finite (nlohmann would print NaN and infinity as null).
void require_finite(const nlohmann::json& j) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) std::abort();
  if (j.is_structured()) for (const auto& v : j) require_finite(v);
}
}  // namespace

// The same bytes as training settings: a valid run takes one step and shows example 0.
void train(const std::string& text) {
  const auto settings = attention::parse_training_text(text);
  if (!settings) {
    if (settings.error().message.find('\n') != std::string::npos) std::abort();
    return;
  }
  auto trainer = attention::make_trainer(settings.value());
  if (!trainer) std::abort();  // parse accepted it, so the trainer must start
  const auto m = trainer.value().step(1);
  if (m) require_finite(attention::metrics_json(m.value()));
  const auto snap = trainer.value().snapshot(0);
  if (!snap) std::abort();
  (void)snap.value().dump();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // The first heatmap's module's JSON reader: what it reads, nlohmann reads to the same bit.
  if (const auto mine = attention::read_json_subset(text)) {
    const auto theirs = attention::json_read::read_json(text);
    if (!theirs || !support::identical(*mine, *theirs)) std::abort();
  }
  train(text);
  (void)attention::derive_text(text).dump();  // the same bytes as a derivation request: an error value at worst
  const nlohmann::json trace = attention::run_trace_text(text);
  // throws (a finding) on invalid UTF-8; the wasm modules write it as dump does, byte for byte
  if (attention::write_json(trace) != trace.dump()) std::abort();
  if (trace.contains("error")) {
    const std::string message = trace["error"]["message"];
    if (message.empty() || message.find('\n') != std::string::npos) std::abort();  // one line, always
    return 0;
  }
  require_finite(trace);
  const auto spec = attention::parse_spec_text(text);
  if (!spec.ok()) std::abort();  // run accepted it, so parse must
  // The program anyone may run: plain ASCII under a fixed encoding line, whatever the tokens.
  const std::string program = attention::numpy_program(spec.value());
  if (program.rfind("# -*- coding: utf-8 -*-\n", 0) != 0) std::abort();
  for (const char c : program) if (static_cast<unsigned char>(c) >= 0x80) std::abort();
  const long n = static_cast<long>(spec.value().tokens.size());
  if (spec.value().mode == attention::Mode::self) {
    const auto curve = attention::entropy_curve(spec.value(), {1, 64});
    if (curve) require_finite(curve.value());
  }
  for (const char* m : {"scores", "weights", "output"}) {
    const auto d = attention::derive(spec.value(), m, 0, n - 1, 0);
    if (d.ok()) require_finite(d.value());
  }
  return 0;
}
