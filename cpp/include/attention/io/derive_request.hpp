#pragma once
// A derivation asked for in JSON, as the page and the CLI ask: the spec read as any spec is, and
// for the trained model the layer's own spec, made from the installed model's run.
#include <string>

#include <nlohmann/json.hpp>

namespace attention {

// {"spec": {...}, "matrix": ..., "head": h, "row": i, "col": j, "layer": l} -> derivation or {"error": ...}
nlohmann::json derive_text(const std::string& request);

}  // namespace attention
