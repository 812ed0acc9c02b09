// libFuzzer target: arbitrary bytes as a spec, through everything a spec can reach (parse,
// run, derive, the NumPy emitter). Any crash, sanitizer report, NaN in a trace or runaway
// allocation is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "attention/derivation.hpp"
#include "attention/numpy_emit.hpp"
#include "attention/trace_json.hpp"

namespace {
// Every number in a trace is finite (nlohmann would print NaN and infinity as null).
void require_finite(const nlohmann::json& j) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) std::abort();
  if (j.is_structured()) for (const auto& v : j) require_finite(v);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json trace = attention::run_trace_text(text);
  (void)trace.dump();  // what the wasm binding does: throws (a finding) on invalid UTF-8
  if (trace.contains("error")) {
    const std::string message = trace["error"]["message"];
    if (message.empty() || message.find('\n') != std::string::npos) std::abort();  // one line, always
    return 0;
  }
  require_finite(trace);
  const auto spec = attention::parse_spec_text(text);
  if (!spec.ok()) std::abort();  // run accepted it, so parse must
  (void)attention::numpy_program(spec.value());
  const long n = static_cast<long>(spec.value().tokens.size());
  for (const char* m : {"scores", "weights", "output"}) {
    const auto d = attention::derive(spec.value(), m, 0, n - 1, 0);
    if (d.ok()) require_finite(d.value());
  }
  return 0;
}
