#include "attention/io/derive_request.hpp"

#include "attention/core/derivation.hpp"
#include "attention/io/error_json.hpp"
#include "attention/io/json_read.hpp"
#include "attention/model/language_model.hpp"

namespace attention {

using nlohmann::json;

json derive_text(const std::string& request, const LanguageModel* model) {
  const auto parsed = json_read::parse_request(request, "derive: expected {spec, matrix, head, row, col}");
  if (!parsed) return error_json(parsed.error());
  const json& r = parsed.value();
  if (!r.contains("spec")) return error_json(error_at("spec", "derive: give the spec of the trace"));
  auto spec = parse_spec(r.at("spec"));
  if (!spec) return error_json(spec.error());
  if (spec.value().model == ModelKind::tiny_lm) {
    // A cell of the trained model: of layer `layer`, from the residual stream into it.
    if (!model) return error_json(error_at("model", "the trained model's weights are not loaded"));
    std::int64_t layer = 0;
    if (r.contains("layer") && !json_read::integral(r.at("layer"), 0, model->shape.layers - 1, layer)) {
      return error_json(error_at("layer", "must be a whole number from 0 to " + std::to_string(model->shape.layers - 1)));
    }
    const auto trace = run_model(*model, piece_ids(model->pieces, spec.value().tokens));
    if (!trace) return error_json(trace.error());
    spec = trace.value().specs[static_cast<std::size_t>(layer)];
  }
  if (r.contains("matrix") && !r.at("matrix").is_string()) return error_json(error_at("matrix", "must be scores, weights or output"));
  // An index that is missing or not a whole number is -1 (refused by derive), head defaults to 0.
  const auto index = [&](const char* k, long missing) -> long {
    std::int64_t v;
    if (!r.contains(k)) return missing;
    return json_read::integral(r.at(k), 0, 1 << 30, v) ? static_cast<long>(v) : -1;
  };
  const auto d = derive(spec.value(), r.value("matrix", std::string()), index("head", 0), index("row", -1), index("col", -1));
  return d ? d.value() : error_json(d.error());
}

}  // namespace attention
