#include "attention/core/derivation.hpp"

#include <chrono>

#include "attention/core/attention.hpp"
#include "attention/io/trace_json.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using nlohmann::json;

namespace {
json derive(const std::string& spec, const std::string& matrix, long head, long row, long col) {
  const auto s = attention::parse_spec_text(spec);
  REQUIRE(s.ok());
  const auto d = attention::derive(s.value(), matrix, head, row, col);
  REQUIRE(d.ok());
  return d.value();
}
double sum_of(const json& terms) {
  double total = 0;
  for (const auto& t : terms) total += t["product"].get<double>();
  return total;
}
}  // namespace

TEST_CASE("a weight's derivation adds up to the trace's numbers", "[derivation]") {
  for (const char* score : {"dot", "scaled_dot", "general", "additive"}) {
    DYNAMIC_SECTION(score) {
      const std::string spec = std::string(R"({"sentence": "the cat sat", "heads": 2, "mask": "causal", "score": ")") + score + "\"}";
      const json trace = attention::run_trace_text(spec);
      const json d = derive(spec, "weights", 1, 2, 1);
      CHECK(sum_of(d["score"]["terms"]) == Approx(d["score"]["raw"].get<double>()).epsilon(tol::reordered));
      CHECK(d["score"]["value"] == trace["scores"][1][2][1]);
      CHECK(d["softmax"]["value"] == trace["weights"][1][2][1]);
      const auto& s = d["softmax"];
      CHECK(s["exps"][1].get<double>() / s["sum"].get<double>() == Approx(s["value"].get<double>()).epsilon(tol::few_roundings));
      CHECK(d["query_token"] == "sat");
      CHECK(d["key_token"] == "cat");
    }
  }
}

TEST_CASE("an output cell's derivation sums weights times values", "[derivation]") {
  const std::string one = R"({"sentence": "i miss the old kanye", "d_model": 3, "weight_init": "int:3"})";
  const json trace = attention::run_trace_text(one);
  const json d = derive(one, "output", 0, 1, 2);
  CHECK(d["via"] == "weights");
  CHECK(sum_of(d["terms"]) == Approx(trace["output"][1][2].get<double>()).epsilon(tol::reordered));
  const std::string multi = R"({"sentence": "two heads", "heads": 2})";
  const json d2 = derive(multi, "output", 0, 0, 3);
  CHECK(d2["via"] == "W_o");
  CHECK(sum_of(d2["terms"]) == Approx(attention::run_trace_text(multi)["output"][0][3].get<double>()).epsilon(tol::reordered));
}

TEST_CASE("seed 000's derivation shows 927 term by term", "[derivation][seed000]") {
  const json d = derive(R"({"mode": "encoder_decoder", "score": "dot", "decoder_state": [5,1,20], "annotations": [[3,12,45],[59,2,5]]})",
                        "weights", 0, 0, 0);
  CHECK(d["score"]["terms"][0]["product"] == 15.0);
  CHECK(d["score"]["terms"][2]["product"] == 900.0);
  CHECK(d["score"]["raw"] == 927.0);
  CHECK(d["softmax"]["max"] == 927.0);
}

TEST_CASE("derivation requests out of range are errors", "[derivation][errors]") {
  const auto s = attention::parse_spec_text(R"({"sentence": "a b"})").value();
  CHECK(attention::derive(s, "weights", 1, 0, 0).error().message == "head: 1 is out of range (0 to 0)");
  CHECK(attention::derive(s, "weights", 0, 5, 0).error().message == "row: 5 is out of range (0 to 1)");
  CHECK(attention::derive(s, "Q", 0, 0, 0).error().message == "matrix: must be scores, weights or output, got \"Q\"");
}

TEST_CASE("derivations of current models' scores: rotated rows, the key/value group, the bias and the cap", "[derivation][modern]") {
  const auto s = attention::parse_spec_text(R"({"sentence": "a b c d", "positional": "rope", "heads": 4, "kv_heads": 2, "d_model": 8})").value();
  const json d = attention::derive(s, "weights", 3, 2, 1).value();
  const json t = attention::run_trace(s).value();
  CHECK(d["kv_head"] == 1);
  CHECK(d["score"]["terms"][0]["q"] == t["Q_rope"][2][3 * 2]);      // query head 3's block, rotated
  CHECK(d["score"]["terms"][0]["k"] == t["K_rope"][1][1 * 2]);      // key/value head 1's block, rotated
  CHECK(d["rope"]["q"][0] == t["Q"][2][3 * 2]);                     // and before the rotation
  CHECK(d["softmax"]["value"] == t["weights"][3][2][1]);

  const auto a = attention::parse_spec_text(R"({"sentence": "a b c", "positional": "alibi", "heads": 2, "softcap": 0.7})").value();
  const json da = attention::derive(a, "scores", 1, 2, 0).value();
  const double before = da["score"]["raw"].get<double>() * da["score"]["scale"].get<double>() + da["score"]["bias"].get<double>();
  CHECK(da["score"]["bias"] == -2 * std::pow(2.0, -8.0));
  CHECK(da["score"]["before_cap"].get<double>() == Approx(before));
  CHECK(da["score"]["value"].get<double>() == Approx(0.7 * std::tanh(before / 0.7)).epsilon(tol::few_roundings));

  const auto c = attention::parse_spec_text(R"({"mode": "cross", "sentence": "le chat", "source": "the black cat"})").value();
  const json dc = attention::derive(c, "weights", 0, 1, 2).value();
  CHECK(dc["key_token"] == "cat");
  CHECK(dc["softmax"]["row_scores"].size() == 3);
  CHECK(attention::derive(c, "weights", 0, 1, 3).error().message == "col: 3 is out of range (0 to 2)");
}

TEST_CASE("with QK-norm a score is the product of the normalised rows, every stage named as in the trace", "[derivation][modern]") {
  const auto s = attention::parse_spec_text(R"({"sentence": "a b c d", "qk_norm": true, "positional": "rope", "heads": 2, "d_model": 8})").value();
  const json d = attention::derive(s, "scores", 1, 3, 2).value();
  const json t = attention::run_trace(s).value();
  REQUIRE(d["stages"].size() == 3);
  const char* names[][2] = {{"Q", "K"}, {"Q_norm", "K_norm"}, {"Q_rope", "K_rope"}};
  for (std::size_t i = 0; i < 3; ++i) {
    INFO(names[i][0]);
    CHECK(d["stages"][i]["q_name"] == names[i][0]);
    CHECK(d["stages"][i]["k_name"] == names[i][1]);
    CHECK(d["stages"][i]["q"][0] == t[names[i][0]][3][1 * 4]);  // head 1's block of row 3
    CHECK(d["stages"][i]["k"][0] == t[names[i][1]][2][1 * 4]);
  }
  CHECK(d["rope"]["q"] == d["stages"][1]["q"]);  // RoPE turns the normalised rows
  CHECK(d["score"]["terms"][0]["q"] == t["Q_rope"][3][4]);
  CHECK(d["score"]["value"] == t["scores"][1][3][2]);
}

TEST_CASE("a derivation gives the trace's own numbers for every kind of cell", "[derivation][property]") {
  // The cell is worked out alone (its query row, its head's keys and values); every number it
  // shows must still be the trace's, bit for bit while Eigen multiplies coefficient by
  // coefficient (rows + columns + depth under 20, as in all of these).
  const char* specs[] = {
      R"({"sentence": "one two three four five six", "heads": 2, "mask": "causal"})",
      R"({"sentence": "a b c d e f g", "positional": "rope", "rope_style": "halves", "heads": 2, "kv_heads": 1, "d_model": 4, "mask": "causal_window:2"})",
      R"({"sentence": "a b c d e", "positional": "alibi", "heads": 3, "d_model": 6, "softcap": 0.9, "temperature": 1.7, "score": "general"})",
      R"({"sentence": "a b c d", "positional": "sinusoidal", "score": "additive", "mask": [[1,0,1,0],[0,0,0,0],[1,1,1,1],[0,1,0,0]]})",
      R"({"mode": "cross", "sentence": "le chat noir", "source": "the black cat sat", "positional": "sinusoidal", "heads": 2})",
      R"({"sentence": "hard attention picks one", "attention": "hard", "heads": 2, "d_model": 6, "d_v": 2})",
      R"({"sentence": "one head given W_o", "d_model": 2, "W_o": [[1, 2], [3, 4]]})",
      R"({"sentence": "normalised then turned", "qk_norm": true, "positional": "rope", "heads": 2, "kv_heads": 1, "d_model": 8, "mask": "causal"})",
  };
  for (const char* text : specs) {
    DYNAMIC_SECTION(text) {
      const auto s = attention::parse_spec_text(text).value();
      const json t = attention::run_trace(s).value();
      const long n = static_cast<long>(t["tokens"].size()), m = static_cast<long>(t["scores"][0][0].size());
      const long width = static_cast<long>(t["output"][0].size());
      for (long h = 0; h < s.heads; ++h) {
        for (long i = 0; i < n; ++i) {
          for (long j = 0; j < m; ++j) {
            const json d = attention::derive(s, "weights", h, i, j).value();
            CHECK(d["score"]["value"] == t["scores"][h][i][j]);
            CHECK(d["softmax"]["value"] == t["weights"][h][i][j]);
            CHECK(d["softmax"]["row_scores"] == t["scores"][h][i]);
          }
        }
      }
      for (long i = 0; i < n; ++i) {
        for (long c = 0; c < width; ++c) {
          const json d = attention::derive(s, "output", 0, i, c).value();
          CHECK(d["value"] == t["output"][i][c]);
          CHECK(sum_of(d["terms"]) == Approx(t["output"][i][c].get<double>()).epsilon(tol::reordered).margin(tol::reordered));
        }
      }
      CHECK(attention::derive(s, "output", 0, 0, width).error().message ==
            "col: " + std::to_string(width) + " is out of range (0 to " + std::to_string(width - 1) + ")");
    }
  }
}

TEST_CASE("a derivation of a large trace gives its numbers to the last bits", "[derivation][property]") {
  // Where Eigen blocks a product (the trace's n rows at once, the derivation's one), the sums
  // may be added in another order: the same numbers within a few units in the last place.
  std::string words;
  for (int i = 0; i < 96; ++i) words += "w" + std::to_string(i % 23) + " ";
  for (const std::string extra : {R"("positional": "rope", "mask": "causal")", R"("positional": "alibi", "softcap": 2, "score": "general")",
                                  R"("positional": "sinusoidal", "score": "additive", "mask": "window:9")"}) {
    const std::string text = R"({"sentence": ")" + words + R"(", "heads": 4, "kv_heads": 2, "d_model": 48, )" + extra + "}";
    DYNAMIC_SECTION(extra) {
      const auto s = attention::parse_spec_text(text).value();
      const json t = attention::run_trace(s).value();
      for (const long h : {0L, 3L}) {
        for (const long i : {0L, 5L, 57L, 95L}) {
          for (const long j : {0L, 50L, 95L}) {
            const json d = attention::derive(s, "weights", h, i, j).value();
            CHECK_CLOSE_JSON(d["score"]["value"], t["scores"][h][i][j], 1e-13);
            CHECK_CLOSE_JSON(d["softmax"]["value"], t["weights"][h][i][j], 1e-13);
            CHECK_CLOSE_JSON(d["softmax"]["row_scores"], t["scores"][h][i], 1e-13);
          }
          const json o = attention::derive(s, "output", 0, i, 17).value();
          CHECK_CLOSE_JSON(o["value"], t["output"][i][17], 1e-13);
        }
      }
    }
  }
}

TEST_CASE("a derivation at 512 tokens works out the one cell, not the decode steps or the online blocks", "[derivation][limits]") {
  std::string words;
  for (int i = 0; i < 512; ++i) words += "w" + std::to_string(i % 37) + " ";
  const std::string text = R"({"sentence": ")" + words + R"(", "mask": "causal", "decode": true, "online_block": 1})";
  const auto s = attention::parse_spec_text(text);
  REQUIRE(s.ok());
  REQUIRE(s.value().tokens.size() == 512);
  const auto start = std::chrono::steady_clock::now();
  const json d = attention::derive(s.value(), "weights", 0, 511, 3).value();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  WARN("derive at 512 tokens with decode and online_block 1: " << ms << " ms");  // a timing for the log, not a test
  CHECK(d["softmax"]["row_scores"].size() == 512);
  const auto t = attention::run_self<double>(s.value()).value();
  CHECK(d["softmax"]["value"].get<double>() == Approx(t.weights[0](511, 3)).epsilon(tol::reordered));
  CHECK(d["score"]["value"].get<double>() == Approx(t.scores[0](511, 3)).epsilon(tol::short_product));
}

namespace {

// Whether `v` is of a type as derivation_schema() writes one ("number", "Stage[]", "A | B", ...),
// and, when not, why (the path to the first value that is not).
std::string mismatch(const json& v, const std::string& type, const std::string& at);

const attention::DerivedRecord* record(const std::string& name) {
  for (const auto& r : attention::derivation_schema()) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

// The sets of fields a record may have: its own and its parents', with one of each one_of.
using Fields = std::vector<attention::DerivedField>;
std::vector<Fields> shapes_of(const attention::DerivedRecord& r) {
  std::vector<Fields> out = {r.fields};
  const auto times = [&](const std::vector<Fields>& choices) {
    std::vector<Fields> next;
    for (const Fields& a : out) {
      for (const Fields& b : choices) {
        Fields both = a;
        both.insert(both.end(), b.begin(), b.end());
        next.push_back(both);
      }
    }
    out = next;
  };
  for (const char* parent : r.extends) times(shapes_of(*record(parent)));
  if (!r.one_of.empty()) times(r.one_of);
  return out;
}

std::string object_mismatch(const json& v, const attention::DerivedRecord& r, const std::string& at) {
  if (*r.alias) return mismatch(v, r.alias, at);
  if (!v.is_object()) return at + ": not an object";
  std::string why = at + ": none of " + r.name + "'s shapes";
  for (const Fields& shape : shapes_of(r)) {
    std::string wrong;
    for (const auto& f : shape) {
      if (!v.contains(f.key)) {
        if (!f.optional) wrong = at + "." + f.key + ": missing";
      } else if (std::string m = mismatch(v.at(f.key), f.type, at + "." + f.key); !m.empty()) {
        wrong = m;
      }
      if (!wrong.empty()) break;
    }
    for (const auto& [key, _] : v.items()) {
      if (wrong.empty() && std::none_of(shape.begin(), shape.end(), [&](const auto& f) { return key == f.key; })) wrong = at + "." + key + ": not in " + r.name;
    }
    if (wrong.empty()) return "";
    why = wrong;
  }
  return why;
}

std::string mismatch(const json& v, const std::string& type, const std::string& at) {
  if (const auto bar = type.find(" | "); bar != std::string::npos) {
    const std::string first = mismatch(v, type.substr(0, bar), at);
    return first.empty() || mismatch(v, type.substr(bar + 3), at).empty() ? "" : first;
  }
  if (type.size() > 2 && type.compare(type.size() - 2, 2, "[]") == 0) {
    if (!v.is_array()) return at + ": not a list";
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (std::string m = mismatch(v[i], type.substr(0, type.size() - 2), at + "[" + std::to_string(i) + "]"); !m.empty()) return m;
    }
    return "";
  }
  bool ok = false;
  if (type == "number") ok = v.is_number();
  else if (type == "integer") ok = v.is_number_integer();
  else if (type == "string") ok = v.is_string();
  else if (type == "boolean") ok = v.is_boolean();
  else if (type == "true") ok = v == true;
  else if (type.front() == '"') ok = v == type.substr(1, type.size() - 2);
  else if (const auto* r = record(type)) return object_mismatch(v, *r, at);
  else return at + ": the schema names no type " + type;
  return ok ? "" : at + ": not " + type + " but " + v.dump();
}

}  // namespace

TEST_CASE("every derivation is one of the records the core declares for it, the page's types", "[derivation][schema]") {
  const auto& records = attention::derivation_schema();
  REQUIRE(std::string(records.back().name) == "CellDerivation");
  for (const auto& r : records) {  // every record a field names is declared before it
    for (const char* parent : r.extends) CHECK(record(parent));
  }
  const std::vector<std::string> specs = {
      R"({"sentence": "a b c"})",
      R"({"sentence": "a b c", "heads": 2, "score": "general", "d_model": 4})",
      R"({"sentence": "a b c", "score": "additive", "mask": "causal"})",
      R"({"sentence": "a b c d", "positional": "rope", "heads": 4, "kv_heads": 2, "d_model": 8, "qk_norm": true})",
      R"({"sentence": "a b c", "positional": "alibi", "heads": 2, "softcap": 0.7, "temperature": 2})",
      R"({"sentence": "a b c", "positional": "alibi", "heads": 2})",
      R"({"sentence": "a b c", "attention": "hard"})",
      R"({"sentence": "a b c", "mask": [[0,0,0],[1,1,0],[1,1,1]]})",
      R"({"mode": "cross", "sentence": "le chat", "source": "the black cat"})",
      R"({"mode": "encoder_decoder", "decoder_state": [5,1,20], "annotations": [[3,12,45],[59,2,5]]})",
  };
  long derived = 0;
  for (const std::string& text : specs) {
    const auto s = attention::parse_spec_text(text).value();
    const long n = static_cast<long>(s.tokens.size());
    for (const char* matrix : {"scores", "weights", "output"}) {
      for (long row = 0; row < (s.mode == attention::Mode::encoder_decoder ? 1 : n); ++row) {
        const auto d = attention::derive(s, matrix, s.heads - 1, row, 0);
        if (!d) continue;  // encoder_decoder has no output cell
        INFO(text << " " << matrix << " row " << row);
        CHECK(mismatch(d.value(), "CellDerivation", "derivation") == "");
        ++derived;
      }
    }
  }
  CHECK(derived > 60);
  // A value the records do not allow is caught.
  json bad = attention::derive(attention::parse_spec_text(specs[0]).value(), "weights", 0, 1, 0).value();
  bad["softmax"]["extra"] = 1;
  CHECK(mismatch(bad, "CellDerivation", "derivation") != "");
  bad = attention::derive(attention::parse_spec_text(specs[0]).value(), "scores", 0, 1, 0).value();
  bad["score"].erase("raw");
  CHECK(mismatch(bad, "CellDerivation", "derivation") != "");
}
