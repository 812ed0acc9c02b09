// The wasm face of the core: strings in, strings out. JSON crosses the boundary so that no
// embind object handle ever reaches JavaScript (nothing to delete, nothing to leak), and a
// bad spec comes back as {"error": ...}, the same message the CLI prints.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "attention/io/derive_request.hpp"
#include "attention/core/entropy.hpp"
#include "attention/io/json_read.hpp"
#include "attention/core/limits.hpp"
#include "attention/io/numpy_emit.hpp"
#include "attention/core/rng.hpp"
#include "attention/io/spec.hpp"
#include "attention/io/trace_json.hpp"
#include "attention/model/language_model.hpp"
#include "binding_common.hpp"
#include "packed_binding.hpp"

namespace {

using nlohmann::json;

std::string run(const std::string& spec) { return text(attention::run_trace_text(spec, nullptr, context())); }

std::string numpy(const std::string& spec) {
  const auto s = attention::parse_spec_text(spec);
  if (!s) return text(error_of(s.error()));
  return text(json{{"program", attention::numpy_program(s.value(), context().model)}});
}

// {seed, dist, rows, cols} -> {"values": [[...]]}, or an error naming the field.
std::string random_matrix(const std::string& request) {
  const auto parsed = attention::json_read::parse_request(request, "random: the request must be a JSON object");
  if (!parsed) return text(error_of(parsed.error()));
  const json& r = parsed.value();
  const auto whole = [&](const char* k, double lo, double hi, double& out) {
    if (!r.contains(k) || !r.at(k).is_number()) return false;
    out = r.at(k).get<double>();
    return out >= lo && out <= hi && out == static_cast<double>(static_cast<long long>(out));
  };
  double seed, rows, cols;
  if (!whole("seed", 0, 4294967295.0, seed)) return text(error_json("seed", "seed: must be a whole number from 0 to 4294967295"));
  if (!whole("rows", 1, 1 << 20, rows)) return text(error_json("rows", "rows: must be a whole number from 1 to 1048576"));
  if (!whole("cols", 1, 1 << 20, cols)) return text(error_json("cols", "cols: must be a whole number from 1 to 1048576"));
  if (rows * cols > static_cast<double>(attention::limits::max_trace_cells)) {
    return text(error_json("rows", "rows x cols: at most " + std::to_string(attention::limits::max_trace_cells) + " numbers"));
  }
  const std::string dist = r.contains("dist") && r.at("dist").is_string() ? r.at("dist").get<std::string>() : "uniform";
  attention::NumpyRandom rng(static_cast<std::uint32_t>(seed));
  const long R = static_cast<long>(rows), C = static_cast<long>(cols);
  attention::Matrix m;
  if (dist == "uniform") m = rng.rand(R, C);
  else if (dist == "normal") m = rng.randn(R, C);
  else {
    // The spec parser already knows int:N; reuse it so the message and limits are the same.
    const auto s = attention::parse_spec(json{{"weight_init", dist}});
    if (!s || dist.rfind("int:", 0) != 0) return text(error_json("dist", "dist: must be uniform, normal or int:N"));
    m = rng.randint(s.value().weight_init.high, R, C);
  }
  return text(json{{"values", attention::matrix_json(m)}});
}

// spec -> {"tokens", "X", "W_q", ...}: the drawn parameters alone, no attention run.
std::string parameters(const std::string& spec) { return text(attention::parameters_text(spec)); }

std::string derive(const std::string& request) { return text(attention::derive_text(request, context().model)); }

std::string settings() { return text(table(attention::settings())); }

std::string schema() { return text(attention::trace_schema_json()); }

// {spec, widths} -> the entropy of attention rows against d_k, dot and scaled dot.
std::string entropy(const std::string& request) {
  const auto parsed = attention::json_read::parse_request(request, "entropy: expected {spec, widths}");
  if (!parsed) return text(error_of(parsed.error()));
  const json& r = parsed.value();
  if (!r.contains("spec")) return text(error_json("spec", "entropy: expected {spec, widths}"));
  const auto spec = attention::parse_spec(r.at("spec"));
  if (!spec) return text(error_of(spec.error()));
  std::vector<long> widths;
  if (r.contains("widths") && r.at("widths").is_array()) {
    for (const auto& w : r.at("widths")) {
      std::int64_t v;
      widths.push_back(attention::json_read::integral(w, 0, 1 << 20, v) ? static_cast<long>(v) : 0);
    }
  }
  const auto curve = attention::entropy_curve(spec.value(), widths);
  return text(curve ? curve.value() : error_of(curve.error()));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
  emscripten::function("run", &run);
  bind_packed_trace();  // run_packed, packed_numbers, drop_packed, work
  emscripten::function("numpy", &numpy);
  emscripten::function("random", &random_matrix);
  emscripten::function("derive", &derive);
  emscripten::function("parameters", &parameters);
  emscripten::function("settings", &settings);
  emscripten::function("schema", &schema);
  emscripten::function("entropy", &entropy);
  emscripten::function("stats", &heap_stats);
  emscripten::function("load_model", &load_model);
}
