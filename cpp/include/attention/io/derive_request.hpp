#pragma once
// A derivation asked for in JSON, as the page and the CLI ask: the spec read as any spec is, and
// for the trained model the layer's own spec, made from the installed model's run.
#include <string>

#include <nlohmann/json.hpp>

namespace attention {

struct LanguageModel;

// {"spec": {...}, "matrix": ..., "head": h, "row": i, "col": j, "layer": l} -> derivation or
// {"error": ...}; `model`: the trained model a spec may name, none until its weights are read.
nlohmann::json derive_text(const std::string& request, const LanguageModel* model = nullptr);

}  // namespace attention
