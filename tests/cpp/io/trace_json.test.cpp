// The trace contract's parameters entry: the drawn matrices of a spec, named as in its trace,
// with nothing run; and the trace written by walking its schema: every entry is there exactly
// when its `when` says, in the shape its `shape` says, and nothing the schema does not name;
// every `when` (QK-norm's included) is met by one case and not by another; the trained model's
// trace is its own schema's entries.
#include "attention/io/trace_json.hpp"

#include <map>
#include <set>
#include <sstream>

#include "attention/core/attention.hpp"
#include "attention/core/encoder_decoder.hpp"
#include "attention/model/language_model.hpp"
#include "attention/model/lm_training.hpp"

#include "built_in_model.hpp"

#include "support.hpp"

using nlohmann::json;

TEST_CASE("parameters are the trace's drawn matrices, without the trace", "[trace][parameters]") {
  const char* specs[] = {
      R"({"sentence": "the cat sat on the mat", "heads": 2, "mask": "causal", "decode": true, "positional": "sinusoidal"})",
      R"({"mode": "cross", "sentence": "le chat", "source": "the black cat", "score": "additive"})",
      R"({"mode": "encoder_decoder", "sentence": "a b c", "score": "general"})",
      R"({"sentence": "given rows", "X": [[1, 2], [3, 4]], "embedding_init": "per_word"})",
  };
  for (const char* text : specs) {
    DYNAMIC_SECTION(text) {
      const json p = attention::parameters_text(text);
      const json t = attention::run_trace_text(text);
      REQUIRE_FALSE(p.contains("error"));
      REQUIRE_FALSE(t.contains("error"));
      for (const auto& [key, value] : p.items()) {
        INFO(key);
        REQUIRE(t.contains(key));
        CHECK(value == t[key]);
      }
      for (const char* key : {"tokens", "X", "annotations", "decoder_state", "source_tokens", "X_source",
                              "W_q", "W_k", "W_v", "W_o", "W_a", "W_1", "W_2", "v_a", "W_c"}) {
        INFO(key);
        CHECK(p.contains(key) == t.contains(key));  // every drawn matrix, nothing else of the trace
      }
    }
  }
}

TEST_CASE("parameters are bounded by what drawing takes, not by the trace's work", "[trace][parameters][limits]") {
  std::string words;
  for (int i = 0; i < 512; ++i) words += "w" + std::to_string(i) + " ";
  // Too much attention for a trace, little to draw: answered.
  const std::string heavy = R"({"sentence": ")" + words + R"(", "heads": 64, "d_model": 512, "mask": "causal", "decode": true, "online_block": 1})";
  REQUIRE(attention::run_trace_text(heavy).contains("error"));
  const json p = attention::parameters_text(heavy);
  REQUIRE_FALSE(p.contains("error"));
  CHECK(p["X"].size() == 512);
  CHECK(p["X"][0].size() == 512);
  // Too much to draw: refused, naming the field.
  const json huge = attention::parameters_text(R"({"d_model": 1024, "heads": 64, "d_k": 1024})");
  REQUIRE(huge.contains("error"));
  CHECK(huge["error"]["field"] == "d_model");
  CHECK(huge["error"]["message"].get<std::string>().find("the limit is 8000000") != std::string::npos);
  // A bad spec is the same error as run's.
  for (const char* bad : {R"({"heads": 3})", "{not json", R"({"colour": "red"})"}) {
    CHECK(attention::parameters_text(bad) == attention::run_trace_text(bad));
  }
}

namespace {

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, by);) {
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

// A `when` read against a spec (the trace's echo, over what was given): "key" is set and not
// off, "key=value" equals, "key>1" exceeds; "|" any of, " " all of.
bool holds(const std::string& when, const json& spec) {
  for (const auto& term : split(when, ' ')) {
    bool any = false;
    for (const auto& alt : split(term, '|')) {
      const auto eq = alt.find('='), gt = alt.find('>');
      const std::string key = alt.substr(0, std::min(eq, gt));
      const json v = spec.value(key, json());
      if (eq != std::string::npos) any = any || (v.is_string() && v.get<std::string>() == alt.substr(eq + 1));
      else if (gt != std::string::npos) any = any || (v.is_number() && v.get<double>() > std::stod(alt.substr(gt + 1)));
      else any = any || !(v.is_null() || v == false || v == 0 || v == "none");
    }
    if (!any) return false;
  }
  return true;
}

// The sizes a shape names, from the trace's spec: "n x heads*d_k" -> {n, heads * d_k}.
std::vector<long> dims(const std::string& shape, const json& spec, const json& trace) {
  std::map<std::string, long> size = {{"n", static_cast<long>(trace["tokens"].size())}};
  size["m"] = trace.contains("source_tokens") ? static_cast<long>(trace["source_tokens"].size()) : size["n"];
  for (const char* k : {"d_model", "heads", "kv_heads", "d_k", "d_v", "d_a"}) size[k] = spec.value(k, 0L);
  std::vector<long> out;
  for (const auto& term : split(shape, ' ')) {
    if (term == "x") continue;
    long v = 1;
    for (const auto& factor : split(term, '*')) v *= std::isdigit(factor[0]) ? std::stol(factor) : size.at(factor);
    out.push_back(v);
  }
  return out;
}

// The sizes of nested JSON arrays of numbers, outermost first.
std::vector<long> shape_of(const json& v) {
  std::vector<long> out;
  for (const json* x = &v; x->is_array(); x = &(*x)[0]) {
    out.push_back(static_cast<long>(x->size()));
    if (x->empty()) break;
  }
  return out;
}

// Every `when` the cases below met, holding or not: each must be seen both ways.
std::map<std::string, std::set<bool>> seen;

template <class Schema>
void check(const Schema& schema, const json& given) {
  const auto spec = attention::parse_spec(given);
  REQUIRE(spec.ok());
  const json trace = attention::run_trace(spec.value()).value();
  json known = trace["spec"];
  known.update(given);  // given matrices (W_o) decide entries too
  std::set<std::string> named;
  for (const attention::TraceInfo& e : schema) {
    named.insert(e.name);
    INFO(given.dump() << "\nentry " << e.name << " when \"" << e.when << "\"");
    if (std::string(e.kind) == "text" || std::string(e.kind) == "spec") continue;  // written by run_trace itself
    CHECK(trace.contains(e.name) == holds(e.when, known));
    seen[e.when].insert(holds(e.when, known));
    const std::string shape = e.shape;
    const bool numbers = std::string(e.kind) == "signed" || std::string(e.kind) == "weights" || std::string(e.kind) == "mask";
    if (trace.contains(e.name) && numbers && shape.find("max(") == std::string::npos && !shape.empty()) {
      CHECK(shape_of(trace[e.name]) == dims(shape, trace["spec"], trace));
    }
  }
  for (const auto& [key, value] : trace.items()) {
    INFO("trace key " << key);
    CHECK(named.count(key) == 1);
  }
}

}  // namespace

TEST_CASE("every trace entry is there when its schema says, in the shape it says", "[trace][schema]") {
  for (const char* text : {
           R"({})",
           R"({"heads": 2, "d_model": 8, "mask": "causal", "residual": true, "layer_norm": true})",
           R"({"positional": "rope", "heads": 4, "kv_heads": 2, "d_model": 8, "decode": true, "mask": "causal"})",
           R"({"positional": "alibi", "heads": 2, "d_model": 4, "online_block": 2})",
           R"({"positional": "sinusoidal", "softcap": 2, "score": "general"})",
           R"({"score": "additive", "d_a": 3, "W_o": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]})",
           R"({"mode": "cross", "source": "le chat", "positional": "sinusoidal", "mask": [[1,0],[1,1],[0,1],[1,1],[1,1],[1,1]]})",
           R"({"qk_norm": true, "heads": 2, "d_model": 8, "positional": "rope", "mask": "causal"})",
       }) {
    check(attention::self_trace_schema(), json::parse(text));
  }
  for (const char* text : {R"({"mode": "encoder_decoder"})", R"({"mode": "encoder_decoder", "score": "additive"})"}) {
    check(attention::encoder_decoder_trace_schema(), json::parse(text));
  }
  // Each condition was put to the test: met by some case and not by another (an entry always there has none).
  for (const auto& [when, outcomes] : seen) {
    INFO("when \"" << when << "\"");
    CHECK(outcomes.size() == (when.empty() ? 1u : 2u));
  }
}

TEST_CASE("the schema as JSON names every entry once, with a step the page knows or none", "[trace][schema]") {
  const json schema = attention::trace_schema_json();
  for (const char* mode : {"self", "encoder_decoder"}) {
    std::set<std::string> names;
    for (const auto& row : schema[mode]) {
      CHECK(names.insert(row["name"].get<std::string>()).second);
      for (const char* k : {"shape", "when", "kind", "step", "label", "rows", "group", "role"}) CHECK(row.contains(k));
    }
  }
}

TEST_CASE("the trained model's trace is its schema's entries, in the shapes they say", "[trace][schema][model]") {
  const attention::LanguageModel model = attention::built_in_model();
  const auto probe = attention::probe_head_scores(model);
  const auto spec = attention::parse_spec(json{{"model", "tiny-lm"}, {"sentence", "The cat sat. The cat sat."}});
  REQUIRE(spec.ok());
  for (const bool probed : {true, false}) {
    const json trace = attention::run_trace(spec.value(), nullptr, {&model, probed ? &probe : nullptr}).value();
    std::set<std::string> named;
    for (const attention::TraceInfo& e : attention::model_trace_schema()) {
      INFO("entry " << e.name);
      named.insert(e.name);
      CHECK(trace.contains(e.name));
    }
    for (const auto& [key, value] : trace.items()) {
      INFO("trace key " << key);
      CHECK(named.count(key) == 1);
    }
    const long n = static_cast<long>(trace["tokens"].size()), layers = model.shape.layers, heads = model.shape.heads;
    CHECK(shape_of(trace["log_probs"]) == std::vector<long>{n, static_cast<long>(trace["vocab"].size())});
    CHECK(static_cast<long>(trace["layers"].size()) == layers);
    CHECK(shape_of(trace["head_scores"]) == std::vector<long>{layers, heads});
    // the probe's scores where the caller computed them; none where not (a first screen's module)
    CHECK(shape_of(trace["probe_head_scores"]) == (probed ? std::vector<long>{layers, heads} : std::vector<long>{0}));
  }
  const json schema = attention::trace_schema_json();
  REQUIRE(schema.contains("model"));
  CHECK(schema["model"].size() == attention::model_trace_schema().size());
}
