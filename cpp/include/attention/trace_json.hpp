#pragma once
// The trace contract: spec JSON in, trace JSON out. This is the one entry point the CLI and
// the wasm binding share, so both print the same trace and the same error messages.
#include <string>

#include <nlohmann/json.hpp>

#include "attention/error.hpp"
#include "attention/scalar.hpp"
#include "attention/spec.hpp"

namespace attention {

Result<nlohmann::json> run_trace(const Spec& spec);

// Parses, validates and runs; the error JSON is {"error": {"field": ..., "message": ...}}.
nlohmann::json run_trace_text(const std::string& spec_text);

nlohmann::json matrix_json(const Matrix& m);   // [[...], ...]
nlohmann::json vector_json(const Vector& v);   // [...]

}  // namespace attention
