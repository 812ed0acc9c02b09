#pragma once
// An error as every JSON entry point returns it (the wasm functions, derive, parameters), the
// same field and message the CLI prints.
#include <nlohmann/json.hpp>

#include "attention/core/error.hpp"

namespace attention {

// {"error": {"field": ..., "message": ...}}
inline nlohmann::json error_json(const Error& e) { return nlohmann::json{{"error", {{"field", e.field}, {"message", e.message}}}}; }

}  // namespace attention
