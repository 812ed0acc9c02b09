#include "attention/trace_json.hpp"

#include "attention/attention.hpp"
#include "attention/encoder_decoder.hpp"

namespace attention {

using nlohmann::json;

json matrix_json(const Matrix& m) {
  json rows = json::array();
  for (long r = 0; r < m.rows(); ++r) {
    json row = json::array();
    for (long c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

json vector_json(const Vector& v) {
  json out = json::array();
  for (long i = 0; i < v.size(); ++i) out.push_back(v(i));
  return out;
}

namespace {

json stack_json(const std::vector<Matrix>& ms) {
  json out = json::array();
  for (const auto& m : ms) out.push_back(matrix_json(m));
  return out;
}

void put_parameters(json& j, const Parameters& p) {
  const std::pair<const char*, const std::optional<Matrix>*> named[] = {
      {"W_q", &p.W_q}, {"W_k", &p.W_k}, {"W_v", &p.W_v}, {"W_o", &p.W_o},
      {"W_a", &p.W_a}, {"W_1", &p.W_1}, {"W_2", &p.W_2}, {"W_c", &p.W_c},
  };
  for (const auto& [key, m] : named) {
    if (m->has_value()) j[key] = matrix_json(**m);
  }
  if (p.v_a) j["v_a"] = vector_json(p.v_a->row(0).transpose());
}

json self_json(const Spec& s, const SelfTrace<double>& t) {
  json j;
  j["X"] = matrix_json(t.parameters.X);
  if (t.positional) {
    j["positional"] = matrix_json(*t.positional);
    j["X_in"] = matrix_json(t.X_in);
  }
  put_parameters(j, t.parameters);
  j["Q"] = matrix_json(t.Q);
  j["K"] = matrix_json(t.K);
  j["V"] = matrix_json(t.V);
  j["scale"] = t.scale;
  if (s.mask != MaskKind::none) j["mask"] = matrix_json(t.mask);
  j["scores"] = stack_json(t.scores);
  j["weights"] = stack_json(t.weights);
  j["heads"] = stack_json(t.heads);
  j["concat"] = matrix_json(t.concat);
  j["output"] = matrix_json(t.output);
  if (t.residual_sum) j["residual_sum"] = matrix_json(*t.residual_sum);
  if (t.normalized) j["normalized"] = matrix_json(*t.normalized);
  j["empty_rows"] = t.empty_rows;
  if (!t.empty_rows.empty()) {
    j["warnings"].push_back(std::to_string(t.empty_rows.size()) +
                            " row(s) have every position masked; their weights are all 0");
  }
  return j;
}

json encoder_decoder_json(const EncoderDecoderTrace<double>& t) {
  json j;
  j["annotations"] = matrix_json(t.parameters.X);
  j["decoder_state"] = vector_json(t.parameters.decoder_state->row(0).transpose());
  put_parameters(j, t.parameters);
  j["scale"] = t.scale;
  j["scores"] = vector_json(t.scores);
  j["weights"] = vector_json(t.weights);
  j["weighted"] = matrix_json(t.weighted);
  j["context"] = vector_json(t.context);
  j["output"] = vector_json(t.output);
  return j;
}

}  // namespace

Result<json> run_trace(const Spec& s) {
  json j;
  if (s.mode == Mode::self) {
    auto t = run_self<double>(s);
    if (!t) return t.error();
    j = self_json(s, t.value());
  } else {
    auto t = run_encoder_decoder<double>(s);
    if (!t) return t.error();
    j = encoder_decoder_json(t.value());
  }
  j["spec"] = to_json(s);
  j["tokens"] = s.tokens;
  if (!j.contains("warnings")) j["warnings"] = json::array();
  return j;
}

json run_trace_text(const std::string& text) {
  auto spec = parse_spec_text(text);
  Result<json> trace = spec ? run_trace(spec.value()) : Result<json>(spec.error());
  if (!trace) return json{{"error", {{"field", trace.error().field}, {"message", trace.error().message}}}};
  return std::move(trace).value();
}

}  // namespace attention
