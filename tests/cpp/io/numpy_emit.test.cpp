// The emitted NumPy program, run by Debian's /usr/bin/python3, rebuilds every fixture's trace.
#include "attention/io/numpy_emit.hpp"

#include <regex>

#include "attention/io/python_source.hpp"

#include "attention/core/encoder_decoder.hpp"
#include "attention/io/trace_json.hpp"
#include "built_in_model.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using nlohmann::json;

namespace {
const char* kDumpTemplate = R"(
import json as _json
def _plain(v):
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list) and any(isinstance(x, (dict, list)) or x is None for x in v):
        return [_plain(x) for x in v]
    if v is None or isinstance(v, int):
        return v
    return np.asarray(v, dtype=float).tolist()
_out = {}
for _k in NAMES:
    if _k in globals():
        _out[_k] = _plain(globals()[_k])
print(_json.dumps(_out))
)";

// The numbers of a trace, as its schemas name them: every one the program computes is compared.
bool numeric(const attention::TraceInfo& e) { return std::string(e.kind) != "text" && std::string(e.kind) != "spec"; }

std::string dump_program() {
  std::string names;
  const auto add = [&](const auto& schema) {
    for (const auto& e : schema) {
      if (numeric(e)) names += std::string(names.empty() ? "" : ", ") + "\"" + e.name + "\"";
    }
  };
  add(attention::self_trace_schema());
  add(attention::encoder_decoder_trace_schema());
  return std::regex_replace(kDumpTemplate, std::regex("NAMES"), "[" + names + "]");
}

// Whether a trace key holds numbers the program must compute (not a count it does not keep).
bool computed(const std::string& key) {
  for (const auto& e : attention::self_trace_schema()) {
    // counts, indices and the head detector's scores read the trace; make_fixtures.py checks them
    if (key == e.name) return numeric(e) && std::string(e.kind) != "count" && std::string(e.kind) != "index" && std::string(e.kind) != "detector";
  }
  for (const auto& e : attention::encoder_decoder_trace_schema()) {
    if (key == e.name) return numeric(e);
  }
  return false;
}

// Runs `program` with Debian's Python in the directory `dir`; its exit status and output.
std::pair<int, std::string> python(const std::string& program, const std::string& dir) {
  const std::string path = dir + "/program.py";
  { std::ofstream(path) << program; }
  FILE* p = ::popen(("cd " + dir + " && /usr/bin/python3 program.py 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[65536];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, got);
  const int status = ::pclose(p);
  std::remove(path.c_str());
  return {status, out};
}

std::string fresh_dir() {
  static int counter = 0;
  const std::string dir = "/tmp/attention-numpy-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  REQUIRE(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()) == 0);
  return dir;
}

// The last line a program printed (the JSON of dump_program(); the program prints its matrices first).
json last_line(const std::string& out) {
  const auto end = out.find_last_not_of('\n');
  const auto newline = out.rfind('\n', end);
  const std::size_t start = newline == std::string::npos ? 0 : newline + 1;
  return json::parse(out.substr(start, end + 1 - start));
}

}  // namespace

TEST_CASE("the NumPy program rebuilds every fixture's trace", "[numpy]") {
  const auto fixture = support::load_fixture("attention.json");
  for (const auto& c : fixture["cases"]) {
    const std::string name = c["name"];
    if (name == "seed001_shape_8x64") continue;  // 512 x 512 literals: covered by the smaller multi-head cases
    DYNAMIC_SECTION(name) {
      const auto spec = attention::parse_spec(c["spec"]);
      REQUIRE(spec.ok());
      const json trace = attention::run_trace(spec.value()).value();
      const std::string program = attention::numpy_program(spec.value()) + dump_program();
      const std::string dir = fresh_dir();
      const auto [status, out] = python(program, dir);
      std::system(("rm -rf " + dir).c_str());
      INFO(program << "\n--- python said ---\n" << out.substr(0, 2000));
      REQUIRE(status == 0);
      const json py = last_line(out);
      int compared = 0;
      for (const auto& [key, value] : py.items()) {
        INFO("key " << key);
        REQUIRE(trace.contains(key));
        CHECK_CLOSE_JSON(trace[key], value, tol::against_numpy);
        ++compared;
      }
      CHECK(compared >= 8);
      for (const auto& [key, value] : trace.items()) {
        INFO("the program does not compute " << key);
        if (computed(key)) CHECK(py.contains(key));
      }
    }
  }
}

TEST_CASE("Python string literals escape everything but printable ASCII", "[numpy][escaping]") {
  using attention::python_string;
  CHECK(python_string("cat") == R"('cat')");
  CHECK(python_string("it's") == R"('it\'s')");
  CHECK(python_string(R"(a\b)") == R"('a\\b')");
  CHECK(python_string("\"]+[\"x\"]\nopen(") == R"('"]+["x"]\x0aopen(')");
  CHECK(python_string(std::string("\0\r\x7f", 3)) == R"('\x00\x0d\x7f')");
  CHECK(python_string("caf\u00e9 \u2028 \U0001F600") == R"('caf\xe9 \u2028 \U0001f600')");
  CHECK(python_string("\xff") == R"('\ufffd')");  // not UTF-8
  CHECK(attention::python_comment("a\nb \u00e9") == R"(# a\u000ab \u00e9)");
}

TEST_CASE("hostile tokens cannot change, break or take over the NumPy program", "[numpy][escaping]") {
  // Python reads a coding declaration on line 1 or 2; with unicode_escape, JSON's escapes on
  // the tokens line would decode into code that writes a file.
  const std::vector<std::string> hostile = {
      "coding:unicode_escape", R"("]+["x"]\nopen("PWNED","w").write("ran")\n#)",
      "# -*- coding: latin-1 -*-", "vim: fileencoding=utf-16", "'''", R"(\)", "\u2028x",
      "\U0001F600\u200D\U0001F525", "');open('PWNED','w')#", R"(\N{BULLET})", "{0}", "%s",
  };
  const json spec = {{"tokens", hostile}, {"heads", 2}};
  const auto s = attention::parse_spec(spec);
  REQUIRE(s.ok());
  const std::string program = attention::numpy_program(s.value());
  for (const char c : program) REQUIRE(static_cast<unsigned char>(c) < 0x80);  // nothing for an encoding to change
  REQUIRE(program.rfind("# -*- coding: utf-8 -*-\n", 0) == 0);
  const std::size_t first = program.find('\n');
  const std::string second = program.substr(first + 1, program.find('\n', first + 1) - first - 1);
  CHECK_FALSE(std::regex_search(second, std::regex("coding[:=]")));

  const std::string dir = fresh_dir();
  const auto [status, out] = python(program + dump_program() + "print(_json.dumps(tokens))\n", dir);
  INFO(out.substr(0, 2000));
  REQUIRE(status == 0);
  CHECK(last_line(out) == json(hostile));  // the tokens are the spec's, byte for byte
  CHECK_FALSE(std::ifstream(dir + "/PWNED").good());
  std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("the NumPy program prints the main matrices and draws only what is not given", "[numpy]") {
  // A teacher's matrices: nothing is drawn at all.
  const auto given = attention::parse_spec_text(
      R"({"sentence": "i miss you", "X": [[1,0],[0,1],[1,1]], "W_q": [[1,0],[0,1]], "W_k": [[1,0],[0,1]], "W_v": [[2,0],[0,2]]})");
  REQUIRE(given.ok());
  const std::string program = attention::numpy_program(given.value());
  CHECK(program.find("np.random") == std::string::npos);
  const std::string dir = fresh_dir();
  const auto [status, out] = python(program, dir);
  std::system(("rm -rf " + dir).c_str());
  INFO(program << "\n---\n" << out);
  REQUIRE(status == 0);
  for (const char* shown : {"X (3, 2) =", "Q (3, 2) =", "scores (1, 3, 3) =", "weights (1, 3, 3) =", "output (3, 2) ="}) {
    CHECK(out.find(shown) != std::string::npos);
  }
  // X given, weights drawn: the embeddings come last in the stream, so they are not drawn.
  const auto x_only = attention::parse_spec_text(R"({"sentence": "a b", "X": [[1,0,0,0],[0,1,0,0]]})");
  const std::string p2 = attention::numpy_program(x_only.value());
  CHECK(p2.find("W_k = np.random.randn(4, 4)") != std::string::npos);
  CHECK(p2.find("np.random.rand(") == std::string::npos);
  // W_q given but W_k drawn after it: its numbers are taken from the stream, and it says so.
  const auto wq = attention::parse_spec_text(R"({"sentence": "a b", "W_q": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]})");
  const std::string p3 = attention::numpy_program(wq.value());
  CHECK(p3.find("np.random.randn(4, 4)  # the numbers W_q would take, skipped as the trace does") != std::string::npos);
}

TEST_CASE("the trained model's NumPy program rebuilds its trace, weights included", "[numpy][model]") {
  const attention::LanguageModel model = attention::built_in_model();
  const auto spec = attention::parse_spec(json{{"model", "tiny-lm"}, {"sentence", "It's \"it\"!\nThe cat; the cat."}});
  REQUIRE(spec.ok());
  const json trace = attention::run_trace(spec.value(), nullptr, {&model, nullptr}).value();
  const std::string program = attention::numpy_program(spec.value(), &model) + R"(
import json as _json
print(_json.dumps({'log_probs': log_probs.tolist(), 'tokens': tokens,
                   'layers': [{k: v.tolist() for k, v in layer.items()} for layer in layers]}))
)";
  const std::string dir = fresh_dir();
  const auto [status, out] = python(program, dir);
  std::system(("rm -rf " + dir).c_str());
  INFO(out.substr(0, 2000));
  REQUIRE(status == 0);
  CHECK(out.find("the model expects:") != std::string::npos);
  const json py = last_line(out);
  CHECK(py["tokens"] == trace["tokens"]);
  CHECK_CLOSE_JSON(trace["log_probs"], py["log_probs"], tol::against_numpy);
  REQUIRE(py["layers"].size() == trace["layers"].size());
  for (std::size_t l = 0; l < py["layers"].size(); ++l) {
    for (const char* key : {"X", "Q", "K", "V", "Q_rope", "K_rope", "scores", "weights", "heads", "output"}) {
      INFO("layer " << l << " " << key);
      CHECK_CLOSE_JSON(trace["layers"][l][key], py["layers"][l][key], tol::against_numpy);
    }
  }
}
