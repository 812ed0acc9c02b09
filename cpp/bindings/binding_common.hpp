#pragma once
// What both wasm modules (the core, attention_wasm.cpp, and training, train_wasm.cpp) share:
// errors as the same JSON the CLI's messages come from, a settings table as JSON, and the
// heap as the allocator sees it, for the leak tests.
#include <emscripten/emmalloc.h>
#include <emscripten/heap.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attention/io/error_json.hpp"
#include "attention/io/json_text.hpp"

#include "attention/core/error.hpp"
#include "attention/io/spec.hpp"

namespace {

// JSON text for JavaScript, as nlohmann's dump writes it, without its serializer (json_text.hpp);
// bytes that are not UTF-8 are replaced (strict dumping would throw, which without exceptions
// aborts the module; the core's own strings are UTF-8 anyway).
inline std::string text(const nlohmann::json& j) { return attention::write_json(j); }

inline nlohmann::json error_json(const std::string& field, const std::string& message) {
  return nlohmann::json{{"error", {{"field", field}, {"message", message}}}};
}

inline nlohmann::json error_of(const attention::Error& e) { return attention::error_json(e); }

inline nlohmann::json table(const std::vector<attention::Setting>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : rows) {
    nlohmann::json row = {{"key", s.key}, {"kind", s.kind}, {"default", s.fallback}, {"help", s.help}};
    if (!s.choices.empty()) row["choices"] = s.choices;
    if (s.min != 0 || s.max != 0) row["min"] = s.min, row["max"] = s.max;
    if (*s.modes) row["modes"] = s.modes;
    if (*s.label) row["label"] = s.label;
    out.push_back(std::move(row));
  }
  return out;
}

// Bytes in use should be the same after 10 and after 10,000 runs (nothing leaks), whatever
// size the memory has grown to.
inline std::string heap_stats() {
  const std::size_t heap = emmalloc_dynamic_heap_size();
  return nlohmann::json{{"heap_in_use", heap - emmalloc_free_dynamic_memory()}, {"heap_size", heap},
                        {"memory_bytes", emscripten_get_heap_size()}}.dump();
}

}  // namespace
