// The wasm face of the core: strings in, strings out. JSON crosses the boundary so that no
// embind object handle ever reaches JavaScript (nothing to delete, nothing to leak), and a
// bad spec comes back as {"error": ...}, the same message the CLI prints.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "attention/derivation.hpp"
#include "attention/entropy.hpp"
#include "attention/limits.hpp"
#include "attention/numpy_emit.hpp"
#include "attention/rng.hpp"
#include "attention/spec.hpp"
#include "attention/trace_json.hpp"
#include "binding_common.hpp"

namespace {

using nlohmann::json;

std::string run(const std::string& spec) { return attention::run_trace_text(spec).dump(); }

// The packed trace: the JSON skeleton now, its numbers from packed_numbers() just after (a
// Float64Array view into the heap that the caller copies before anything else runs), then
// drop_packed() so the heap goes back to its size between runs.
std::vector<double> packed;

std::string run_packed(const std::string& spec) {
  packed.clear();
  return attention::run_trace_text(spec, &packed).dump();
}

emscripten::val packed_numbers() { return emscripten::val(emscripten::typed_memory_view(packed.size(), packed.data())); }

void drop_packed() { std::vector<double>().swap(packed); }

std::string numpy(const std::string& spec) {
  const auto s = attention::parse_spec_text(spec);
  if (!s) return error_json(s.error().field, s.error().message).dump();
  return json{{"program", attention::numpy_program(s.value())}}.dump();
}

// {seed, dist, rows, cols} -> {"values": [[...]]}, or an error naming the field.
std::string random_matrix(const std::string& request) {
  const json r = json::parse(request, nullptr, false);
  if (r.is_discarded() || !r.is_object()) return error_json("", "random: the request must be a JSON object").dump();
  const auto whole = [&](const char* k, double lo, double hi, double& out) {
    if (!r.contains(k) || !r[k].is_number()) return false;
    out = r[k].get<double>();
    return out >= lo && out <= hi && out == static_cast<double>(static_cast<long long>(out));
  };
  double seed, rows, cols;
  if (!whole("seed", 0, 4294967295.0, seed)) return error_json("seed", "seed: must be a whole number from 0 to 4294967295").dump();
  if (!whole("rows", 1, 1 << 20, rows)) return error_json("rows", "rows: must be a whole number from 1 to 1048576").dump();
  if (!whole("cols", 1, 1 << 20, cols)) return error_json("cols", "cols: must be a whole number from 1 to 1048576").dump();
  if (rows * cols > static_cast<double>(attention::limits::max_trace_cells)) {
    return error_json("rows", "rows x cols: at most " + std::to_string(attention::limits::max_trace_cells) + " numbers").dump();
  }
  const std::string dist = r.contains("dist") && r["dist"].is_string() ? r["dist"].get<std::string>() : "uniform";
  attention::NumpyRandom rng(static_cast<std::uint32_t>(seed));
  const long R = static_cast<long>(rows), C = static_cast<long>(cols);
  attention::Matrix m;
  if (dist == "uniform") m = rng.rand(R, C);
  else if (dist == "normal") m = rng.randn(R, C);
  else {
    // The spec parser already knows int:N; reuse it so the message and limits are the same.
    const auto s = attention::parse_spec(json{{"weight_init", dist}});
    if (!s || dist.rfind("int:", 0) != 0) return error_json("dist", "dist: must be uniform, normal or int:N").dump();
    m = rng.randint(s.value().weight_init.high, R, C);
  }
  return json{{"values", attention::matrix_json(m)}}.dump();
}

std::string derive(const std::string& request) { return attention::derive_text(request).dump(); }

std::string settings() { return table(attention::settings()).dump(); }

// {spec, widths} -> the entropy of attention rows against d_k, dot and scaled dot.
std::string entropy(const std::string& request) {
  const json r = json::parse(request, nullptr, false);
  if (r.is_discarded() || !r.is_object() || !r.contains("spec")) return error_json("", "entropy: expected {spec, widths}").dump();
  const auto spec = attention::parse_spec(r["spec"]);
  if (!spec) return error_of(spec.error()).dump();
  std::vector<long> widths;
  if (r.contains("widths") && r["widths"].is_array()) {
    for (const auto& w : r["widths"]) widths.push_back(w.is_number_integer() ? w.get<long>() : 0);
  }
  const auto curve = attention::entropy_curve(spec.value(), widths);
  return (curve ? curve.value() : error_of(curve.error())).dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
  emscripten::function("run", &run);
  emscripten::function("run_packed", &run_packed);
  emscripten::function("packed_numbers", &packed_numbers);
  emscripten::function("drop_packed", &drop_packed);
  emscripten::function("numpy", &numpy);
  emscripten::function("random", &random_matrix);
  emscripten::function("derive", &derive);
  emscripten::function("settings", &settings);
  emscripten::function("entropy", &entropy);
  emscripten::function("stats", &heap_stats);
}
