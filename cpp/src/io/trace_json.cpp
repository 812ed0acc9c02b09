#include "attention/io/trace_json.hpp"

#include "attention/model/language_model.hpp"

#include "attention/core/attention.hpp"
#include "attention/core/decode.hpp"
#include "attention/core/derivation.hpp"
#include "attention/core/encoder_decoder.hpp"
#include "attention/io/json_read.hpp"
#include "attention/core/limits.hpp"
#include "attention/core/online_softmax.hpp"

#include <cstring>
#include <map>
#include <type_traits>
#include <variant>

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

// Where the numbers of a trace go: nested JSON arrays, or (packed) a flat buffer that the JSON
// points into with {"@": offset, "shape": [rows, cols]}. Parsing a 512-token trace as JSON
// costs a second in the browser; the packed form crosses the wasm boundary as one copy.
class Numbers {
 public:
  explicit Numbers(std::vector<double>* packed) : packed_(packed) {}

  json matrix(const Matrix& m) const {
    if (!packed_) return matrix_json(m);
    json ref = {{"@", packed_->size()}, {"shape", {m.rows(), m.cols()}}};
    packed_->insert(packed_->end(), m.data(), m.data() + m.size());  // row-major: already in order
    return ref;
  }

  json vector(const Vector& v) const {
    if (!packed_) return vector_json(v);
    json ref = {{"@", packed_->size()}, {"shape", {v.size()}}};
    packed_->insert(packed_->end(), v.data(), v.data() + v.size());
    return ref;
  }

  json stack(const std::vector<Matrix>& ms) const {
    json out = json::array();
    for (const auto& m : ms) out.push_back(matrix(m));
    return out;
  }

 private:
  std::vector<double>* packed_;
};

json head_scores_json(const std::vector<HeadScores>& scores) {
  json out = json::array();
  for (const HeadScores& h : scores) {
    json head = json::object();
    for (const HeadPattern& p : head_patterns()) head[p.name] = h.*(p.score);
    out.push_back(std::move(head));
  }
  return out;
}

#ifndef ATTENTION_FIRST_HEATMAP  // (which writes no online softmax)
// m: null where a row has seen no visible key yet.
json optional_numbers(const std::vector<std::optional<double>>& v) {
  json a = json::array();
  for (const auto& x : v) a.push_back(x ? json(*x) : json(nullptr));
  return a;
}
#endif

template <class... F>
struct Overloaded : F... { using F::operator()...; };
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// One entry's value as the trace writes it, or null where the trace has none. What is there is
// written: an optional when it holds a value, a list or matrix when it is not empty (or always,
// for the entries the trace always has). `trace` null: the parameters alone.
template <class Trace>
json value_of(const TraceEntry<Trace>& e, const Trace* trace, const Parameters& p, const Numbers& out) {
  const bool always = !*e.when;
  const bool vector = *e.shape && !std::strchr(e.shape, 'x');  // one term: a row kept as (1, k), written flat
  const auto matrix = [&](const Matrix& m) { return vector ? out.vector(m.row(0).transpose()) : out.matrix(m); };
  const auto list = [&](const auto& v) { return v.empty() && !always ? json() : json(v); };
  const auto visit = Overloaded{
      [&](std::monostate) { return json(); },
      [&](Matrix Parameters::*m) { return (p.*m).size() || always ? out.matrix(p.*m) : json(); },
      [&](std::optional<Matrix> Parameters::*m) { return (p.*m) ? matrix(*(p.*m)) : json(); },
      [&](auto Trace::*m) {
        if (!trace) return json();
        const auto& v = trace->*m;
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, Matrix>) return v.size() || always ? out.matrix(v) : json();
        else if constexpr (std::is_same_v<V, std::optional<Matrix>>) return v ? out.matrix(*v) : json();
        else if constexpr (std::is_same_v<V, std::vector<Matrix>>) return v.empty() && !always ? json() : out.stack(v);
        else if constexpr (std::is_same_v<V, Vector>) return out.vector(v);
        else if constexpr (std::is_same_v<V, std::optional<DecodeCost>>) {
          return v ? json{{"with_cache", v->with_cache}, {"without_cache", v->without_cache},
                           {"with_so_far", v->with_so_far}, {"without_so_far", v->without_so_far}}
                   : json();
        } else if constexpr (std::is_same_v<V, std::vector<KvCost>>) {
          json costs = json::array();
          for (const auto& c : v) {
            costs.push_back({{"kv_heads", c.kv_heads}, {"parameters", c.parameters}, {"cache_per_token", c.cache_per_token}});
          }
          return costs;
        } else if constexpr (std::is_same_v<V, std::vector<HeadScores>>) {
          return v.empty() ? json() : head_scores_json(v);
#ifdef ATTENTION_FIRST_HEATMAP
        } else if constexpr (std::is_same_v<V, std::vector<DecodeStep>> || std::is_same_v<V, std::vector<std::vector<OnlineBlock>>>) {
          return json();  // decode's steps and the online softmax's blocks: refused before they are computed
#else
        } else if constexpr (std::is_same_v<V, std::vector<DecodeStep>>) {
          if (v.empty()) return json();
          json steps = json::array();
          for (const auto& step : v) {
            steps.push_back({{"t", step.t}, {"k_cache", out.matrix(step.k_cache)}, {"v_cache", out.matrix(step.v_cache)},
                             {"scores", out.matrix(step.scores)}, {"weights", out.matrix(step.weights)},
                             {"output", out.vector(step.output.row(0).transpose())}});
          }
          return steps;
        } else if constexpr (std::is_same_v<V, std::vector<std::vector<OnlineBlock>>>) {
          if (v.empty()) return json();
          json heads = json::array();
          for (const auto& head : v) {
            json blocks = json::array();
            for (const auto& b : head) {
              blocks.push_back({{"keys", {b.start, b.end}}, {"m", optional_numbers(b.m)}, {"l", out.vector(b.l)},
                                {"rescale", out.vector(b.rescale)}, {"o", out.matrix(b.o)},
                                {"out", out.matrix(b.out)}});
            }
            heads.push_back(std::move(blocks));
          }
          return heads;
#endif
        } else if constexpr (std::is_same_v<V, double>) {
          return json(v);
        } else {
          return list(v);  // numbers, indices, tokens
        }
      },
  };
  return std::visit(visit, e.member);
}

template <class Trace>
json walk(const std::vector<TraceEntry<Trace>>& schema, const Trace* trace, const Parameters& p, const Numbers& out) {
  json j = json::object();
  for (const auto& e : schema) {
    json v = value_of(e, trace, p, out);
    if (!v.is_null()) j[e.name] = std::move(v);
  }
  return j;
}

}  // namespace

const std::vector<TraceInfo>& model_trace_schema() {
  static const std::vector<TraceInfo> rows = {
      {"tokens", "n", "", "text", "", "the word pieces the model reads, in order", "", "", ""},
      {"vocab", "vocab", "", "text", "", "every word piece, in id order: log_probs' columns", "", "", ""},
      {"layers", "layers", "", "layers", "", "each layer's attention as a self-attention trace, X the residual stream into it", "", "", ""},
      {"log_probs", "n x vocab", "", "signed", "", "the natural log of the next-token distribution after each position", "tokens", "", ""},
      {"head_scores", "layers x heads", "", "detector", "", "what each head does on this text", "", "", ""},
      {"probe_head_scores", "layers x heads", "", "detector", "",
       "what each head does on 50 random word pieces repeated twice: what it does in general (empty where not computed)", "", "", ""},
      {"spec", "", "", "spec", "", "the model and its tokens", "", "", ""},
      {"warnings", "", "", "text", "", "what the learner should know about these numbers", "", "", ""},
  };
  return rows;
}

namespace {
// The trained model's trace: its tokens and vocabulary, every layer as a self-attention trace
// (the residual stream in as X), the next-token log-probabilities and each head's scores, on
// this input and (when given) on the probe of random tokens repeated twice; written by its
// schema, entry by entry.
Result<json> run_model_trace(const Spec& s, const Numbers& out, const RunContext& with) {
  const LanguageModel* model = with.model;
  if (!model) return error_at("model", "the trained model's weights are not loaded");
  ATTENTION_TRY(t, run_model(*model, piece_ids(model->pieces, s.tokens)));
  json layers = json::array(), scores = json::array(), probe = json::array();
  for (std::size_t l = 0; l < t.layers.size(); ++l) {
    const auto& layer = t.layers[l];
    json shown = walk(self_trace_schema(), &layer, layer.parameters, out);
    shown["spec"] = to_json(t.specs[l]);  // the layer's attention as a self-attention spec (its matrices aside)
    layers.push_back(std::move(shown));
    scores.push_back(head_scores_json(layer.head_scores));
  }
  if (with.probe) {
    for (const auto& layer : *with.probe) probe.push_back(head_scores_json(layer));
  }
  std::map<std::string, json> value = {
      {"tokens", t.tokens}, {"vocab", model->pieces.names}, {"layers", std::move(layers)}, {"log_probs", out.matrix(t.log_probs)},
      {"head_scores", std::move(scores)}, {"probe_head_scores", std::move(probe)}, {"spec", to_json(s)}, {"warnings", json::array()}};
  json j = json::object();
  for (const TraceInfo& e : model_trace_schema()) j[e.name] = std::move(value[e.name]);
  return j;
}
#ifdef ATTENTION_FIRST_HEATMAP
// The trained model's traces, in a first heatmap's module that asks for them (as spec.cpp's
// trained_specs: the other leaves the model's code out).
Result<json> (*model_traces)(const Spec&, const Numbers&, const RunContext&) = nullptr;
}  // namespace

void run_trained_traces() {
  read_trained_specs();
  model_traces = &run_model_trace;
}
#else
}  // namespace
#endif

Result<json> run_trace(const Spec& s, std::vector<double>* packed, const RunContext& with) {
  const Numbers out(packed);
  json j;
#ifdef ATTENTION_FIRST_HEATMAP
  if (s.model == ModelKind::tiny_lm && model_traces) return model_traces(s, out, with);
#else
  if (s.model == ModelKind::tiny_lm) return run_model_trace(s, out, with);
#endif
  if (s.mode != Mode::encoder_decoder) {
    auto t = run_self<double>(s, with.kept);
    if (!t) return t.error();
    j = walk(self_trace_schema(), &t.value(), t.value().parameters, out);
    if (s.mode == Mode::cross) j["source_tokens"] = s.source_tokens;
    if (!t.value().empty_rows.empty()) {
      j["warnings"].push_back(std::to_string(t.value().empty_rows.size()) +
                              " row(s) have every position masked; their weights are all 0");
    }
  } else {
#ifndef ATTENTION_FIRST_HEATMAP
    auto t = run_encoder_decoder<double>(s, with.kept);
    if (!t) return t.error();
    j = walk(encoder_decoder_trace_schema(), &t.value(), t.value().parameters, out);
#endif
  }
  j["spec"] = to_json(s);
  if (!j.contains("warnings")) j["warnings"] = json::array();
  return j;
}

json parameters_json(const Spec& s) {
  if (s.model == ModelKind::tiny_lm) return {{"tokens", s.tokens}};  // learned weights: nothing to draw
  const Parameters p = draw_parameters(s);
  const Numbers out(nullptr);
  json j = s.mode == Mode::encoder_decoder ? walk<EncoderDecoderTrace<double>>(encoder_decoder_trace_schema(), nullptr, p, out)
                                           : walk<SelfTrace<double>>(self_trace_schema(), nullptr, p, out);
  j["tokens"] = s.tokens;
  if (s.mode == Mode::cross) j["source_tokens"] = s.source_tokens;
  return j;
}

json trace_schema_json() {
  const auto rows = [](const auto& schema) {
    json out = json::array();
    for (const TraceInfo& e : schema) {
      out.push_back({{"name", e.name}, {"shape", e.shape}, {"when", e.when}, {"kind", e.kind}, {"step", e.step},
                     {"label", e.label}, {"rows", e.rows}, {"group", e.group}, {"role", e.role}});
    }
    return out;
  };
  json patterns = json::array();
  for (const HeadPattern& p : head_patterns()) patterns.push_back(p.name);
  const auto fields = [](const std::vector<DerivedField>& of) {
    json out = json::array();
    for (const DerivedField& f : of) out.push_back({{"key", f.key}, {"type", f.type}, {"optional", f.optional}});
    return out;
  };
  json derivation = json::array();
  for (const DerivedRecord& r : derivation_schema()) {
    json one_of = json::array();
    for (const auto& set : r.one_of) one_of.push_back(fields(set));
    derivation.push_back({{"name", r.name}, {"about", r.about}, {"extends", r.extends}, {"fields", fields(r.fields)}, {"one_of", one_of}, {"alias", r.alias}});
  }
  return {{"self", rows(self_trace_schema())}, {"encoder_decoder", rows(encoder_decoder_trace_schema())}, {"model", rows(model_trace_schema())},
          {"head_patterns", patterns}, {"derivation", derivation}};
}

json parameters_text(const std::string& text) {
  const auto parsed = json_read::parse_text(text, "the spec is not valid JSON");
  if (!parsed) return error_json(parsed.error());
  const auto spec = parse_spec_unbounded(parsed.value());
  if (!spec) return error_json(spec.error());
  const std::size_t drawn = drawn_numbers(spec.value());
  if (drawn > limits::max_trace_cells) {
    return error_json(error_at("d_model", "this spec would draw about " + std::to_string(drawn) + " numbers; the limit is " +
                                        std::to_string(limits::max_trace_cells) + " (a smaller d_model, d_k, d_v or fewer heads)"));
  }
  return parameters_json(spec.value());
}

json run_trace_text(const std::string& text, std::vector<double>* packed, const RunContext& with) {
  auto spec = parse_spec_text(text);
  Result<json> trace = spec ? run_trace(spec.value(), packed, with) : Result<json>(spec.error());
  if (!trace) return error_json(trace.error());
  return std::move(trace).value();
}

}  // namespace attention
