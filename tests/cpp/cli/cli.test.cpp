// attention-cli as a user runs it: every subcommand answers; bad input is one line, exit 2.
#include "support.hpp"

using nlohmann::json;
using support::cli;

TEST_CASE("random prints NumPy's stream", "[cli]") {
  const auto r = cli("random --seed 42 --dist int:3 --shape 3,3");
  CHECK(r.status == 0);
  CHECK(json::parse(r.out) == json::parse("[[2,0,2],[2,0,0],[2,1,2]]"));
  const auto fixture = support::load_fixture("random.json");
  for (const auto& c : fixture["cases"]) {
    const std::string args = "random --seed " + std::to_string(c["seed"].get<long long>()) + " --dist " +
                             c["dist"].get<std::string>() + " --shape " + std::to_string(c["shape"][0].get<int>()) +
                             "," + std::to_string(c["shape"][1].get<int>());
    const auto out = cli(args);
    REQUIRE(out.status == 0);
    CHECK(json::parse(out.out) == c["values"]);  // 17 significant digits round-trip exactly
  }
}

TEST_CASE("run reads a spec from stdin or a file and prints the trace", "[cli]") {
  const auto r = cli("run -", R"({"sentence": "i miss the old kanye", "d_model": 3, "weight_init": "int:3"})");
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  const json trace = json::parse(r.out);
  CHECK(trace["tokens"].size() == 5);
  CHECK(trace["weights"][0].size() == 5);
  CHECK(trace["spec"]["weight_init"] == "int:3");

  const std::string path = "/tmp/attention-cli-spec-" + std::to_string(::getpid()) + ".json";
  { std::ofstream(path) << R"({"mode":"encoder_decoder","score":"dot","decoder_state":[5,1,20],"annotations":[[3,12,45]]})"; }
  const auto f = cli("run " + path);
  std::remove(path.c_str());
  CHECK(f.status == 0);
  CHECK(json::parse(f.out)["scores"][0] == 927.0);
}

TEST_CASE("numpy prints a Python program", "[cli]") {
  const auto r = cli("numpy -", R"({"sentence": "a b", "heads": 2})");
  CHECK(r.status == 0);
  CHECK(r.out.find("import numpy as np") != std::string::npos);
  CHECK(r.out.find("np.random.seed(42)") != std::string::npos);
  CHECK(r.out.find("W_o = np.random.randn(4, 4)") != std::string::npos);
}

TEST_CASE("the trained model: run prints its trace, numpy its program", "[cli][model]") {
  const auto r = cli("run -", R"({"model": "tiny-lm", "sentence": "the cat, the cat"})");
  REQUIRE(r.status == 0);
  const json trace = json::parse(r.out);
  CHECK(trace["tokens"].size() == 8);
  CHECK(trace["vocab"].size() == 384);
  CHECK(trace["layers"].size() == 2);
  CHECK(trace["layers"][1]["weights"].size() == 4);
  CHECK(trace["log_probs"].size() == 8);
  CHECK(trace["head_scores"][0].size() == 4);
  // word pieces: " the" is one, "the" at the start is not (a leading space is part of its word)
  CHECK(trace["spec"] == json::parse(R"({"model": "tiny-lm", "tokens": ["t","he"," c","at",","," the"," c","at"]})"));
  const auto p = cli("numpy -", R"({"model": "tiny-lm", "tokens": [" the", "<0xC3>", "\n"]})");
  CHECK(p.status == 0);
  CHECK(p.out.find("base64.b64decode(") != std::string::npos);

  const std::string long_sentence(129, 'a');
  const auto l = cli("run -", R"({"model": "tiny-lm", "sentence": ")" + long_sentence + R"("})");
  CHECK(l.status == 2);
  CHECK(l.err == "attention-cli: sentence: has 129 tokens; the trained model reads at most 128\n");
}

TEST_CASE("train prints the metrics as it learns", "[cli][train]") {
  const auto r = cli("train - --steps 300 --every 100", R"({"task": "reverse", "seed": 7})");
  REQUIRE(r.status == 0);
  std::istringstream lines(r.out);
  std::vector<json> m;
  for (std::string line; std::getline(lines, line);) m.push_back(json::parse(line));
  REQUIRE(m.size() == 4);  // step 0, 100, 200, 300
  CHECK(m[0]["step"] == 0);
  CHECK(m[3]["step"] == 300);
  CHECK(m[3]["eval_loss"].get<double>() < 0.5 * m[0]["eval_loss"].get<double>());
  CHECK(cli("train - --steps 300 --every 100", R"({"task": "reverse", "seed": 7})").out == r.out);  // same seed, same run
}

TEST_CASE("bad input: one line on stderr, exit 2", "[cli][errors]") {
  struct Bad { const char* args; const char* input; const char* message; };
  const Bad cases[] = {
      {"run -", "{not json", "attention-cli: the spec is not valid JSON: syntax error at byte 2 near 'ot json'\n"},
      {"run -", R"({"score": "cosine"})", "attention-cli: score: must be dot, scaled_dot, general or additive, got \"cosine\"\n"},
      {"run -", R"({"X": [[1,2],[3]]})", "attention-cli: X: is ragged: row 1 has 1 numbers, row 0 has 2\n"},
      {"run -", R"({"heads": 3})", "attention-cli: heads: 3 heads do not divide d_model 4; choose a divisor or set d_k\n"},
      // A grouped-query W_k of the wrong width: 8 x 4 is d_model x kv_heads*d_k (d_k = 8 / 4 heads).
      {"run -", R"({"heads": 4, "d_model": 8, "kv_heads": 2, "W_k": [[1,0,0,0,0,0,0,0],[0,1,0,0,0,0,0,0],[0,0,1,0,0,0,0,0],
          [0,0,0,1,0,0,0,0],[0,0,0,0,1,0,0,0],[0,0,0,0,0,1,0,0],[0,0,0,0,0,0,1,0],[0,0,0,0,0,0,0,1]]})",
       "attention-cli: W_k: is 8 x 8, expected 8 x 4 (d_model x kv_heads*d_k)\n"},
      {"run -", R"({"seed": 5000000000})", "attention-cli: seed: must be a whole number from 0 to 4294967295, got 5000000000\n"},
      {"numpy -", R"({"mask": "sideways"})", "attention-cli: mask: must be none, causal, window:D, causal_window:D or an n x n matrix of 0/1, got \"sideways\"\n"},
      {"run /nonexistent/spec.json", "", "attention-cli: cannot open /nonexistent/spec.json: No such file or directory\n"},
      {"run", "", "attention-cli: run: give one spec file, or - for standard input\n"},
      {"fly", "", "attention-cli: unknown command \"fly\" (run, numpy, random, train, --help)\n"},
      {"train -", R"({"task": "fly"})", "attention-cli: task: must be copy, earlier, sort or reverse, got \"fly\"\n"},
      {"train - --steps -1", "{}", "attention-cli: train: --steps must be a whole number from 0 to 1000000\n"},
      {"train", "", "attention-cli: train: give one settings file, or - for standard input\n"},
      {"random --seed x --dist normal --shape 2,2", "", "attention-cli: random: --seed must be a whole number from 0 to 4294967295\n"},
      {"random --seed 1 --dist cauchy --shape 2,2", "", "attention-cli: random: --dist must be uniform, normal or int:HIGH (HIGH from 1 to 2147483648)\n"},
      {"random --seed 1 --dist normal --shape 2", "", "attention-cli: random: --shape must be R,C with R*C from 1 to 8000000\n"},
      {"random --seed 1 --dist normal --shape 100000,100000", "", "attention-cli: random: --shape must be R,C with R*C from 1 to 8000000\n"},
      {"random --seed", "", "attention-cli: random: --seed needs a value\n"},
      {"run /tmp", "", "attention-cli: cannot read /tmp: it is a directory\n"},
      // A file that cannot be read is said so (it was reported as the end of the input).
      {"run /proc/self/mem", "", "attention-cli: cannot read /proc/self/mem: Input/output error\n"},
      // A file that is not JSON at all is not quoted back (it may be a key file given by mistake).
      {"run -", "PASSWORD=hunter2\n", "attention-cli: the spec is not valid JSON: it does not begin with '{'\n"},
      // C1 controls reach a terminal as escape sequences (U+009B is CSI): escaped like C0.
      {"run -", "{\"score\": \"\u009b31mred\u009d\"}", "attention-cli: score: must be dot, scaled_dot, general or additive, got \"\\u009b31mred\\u009d\"\n"},
      {"run -", "{\"tokens\": [\"a\", \"b\\nc\"]}", "attention-cli: tokens: entry 1 holds the control character U+000A; tokens are printable text\n"},
      // The trained model: nothing that shapes random weights, its own vocabulary, its context.
      {"run -", R"({"model": "tiny-lm", "sentence": "hi", "seed": 3})",
       "attention-cli: seed: does not apply to the trained model (model is tiny-lm): its sizes and weights are learned, not set\n"},
      {"numpy -", R"({"model": "tiny-lm", "W_q": [[1]]})",
       "attention-cli: W_q: does not apply to the trained model (model is tiny-lm): its sizes and weights are learned, not set\n"},
      {"run -", R"({"model": "tiny-lm", "tokens": ["h", "é"]})",
       "attention-cli: tokens: entry 1, \"\u00e9\", is not in the model's vocabulary (its word pieces: \" the\", \"ing\", one byte as \"a\" or <0xE2>)\n"},
      {"run -", R"({"model": "tiny-lm", "tokens": [" the", "<unk>"]})",
       "attention-cli: tokens: entry 1, \"<unk>\", is not in the model's vocabulary (its word pieces: \" the\", \"ing\", one byte as \"a\" or <0xE2>)\n"},
      {"run -", R"({"model": "gpt-2"})", "attention-cli: model: must be random or tiny-lm, got \"gpt-2\"\n"},
      {"'fly\nhigh'", "", "attention-cli: unknown command \"fly\\u000ahigh\" (run, numpy, random, train, --help)\n"},
      {"random --seed 1 '--\nshape' 2,2", "", "attention-cli: random: unknown option --\\u000ashape\n"},
  };
  for (const auto& b : cases) {
    DYNAMIC_SECTION(b.args << " <<< " << b.input) {
      const auto r = cli(b.args, b.input);
      CHECK(r.status == 2);
      CHECK(r.out.empty());
      CHECK(r.err == b.message);
    }
  }
}

TEST_CASE("a spec of nothing but brackets is refused before it is parsed", "[cli][errors][limits]") {
  // 60 MB of '[' took 28 s and 4.4 GB while parsed; the depth is now bounded first.
  const auto r = cli("run -", std::string(60'000'000, '['));
  CHECK(r.status == 2);
  CHECK(r.err == "attention-cli: the spec is not valid JSON: nested deeper than 32 levels at byte 32\n");
}

TEST_CASE("--help lists every spec key", "[cli]") {
  const auto r = cli("--help");
  CHECK(r.status == 0);
  for (const char* key : {"sentence", "seed", "d_model", "heads", "score", "mask", "positional", "W_c", "temperature"}) {
    CHECK(r.out.find(std::string("  ") + key + " ") != std::string::npos);
  }
}

TEST_CASE("extreme but valid specs exit 0 with a finite trace", "[cli][robustness]") {
  std::string many;
  for (int i = 0; i < 512; ++i) many += "w" + std::to_string(i % 97) + " ";
  const std::string specs[] = {
      R"({"sentence": ")" + many + R"(", "heads": 8, "d_model": 64, "mask": "causal"})",
      R"({"seed": 4294967295, "weight_init": "int:2147483648", "embedding_init": "int:2147483648", "d_model": 2})",
      R"({"seed": 0, "temperature": 1e-6, "score": "additive", "d_model": 1024, "sentence": "wide"})",
      R"({"heads": 64, "d_model": 64, "sentence": "sixty four heads"})",
      R"({"mask": "window:9999", "positional": "sinusoidal", "residual": true, "layer_norm": true})",
      R"({"mode": "encoder_decoder", "score": "additive", "decoder_state": [1e-300, 1e300], "annotations": [[1e-300, -1e300]], "scale": 1e-300})",
  };
  for (const auto& spec : specs) {
    DYNAMIC_SECTION(spec.substr(0, 80)) {
      const auto r = cli("run -", spec);
      REQUIRE(r.status == 0);
      CHECK(r.err.empty());
      CHECK(r.out.find("null") == std::string::npos);  // NaN and infinity would print as null
      CHECK(json::parse(r.out).contains("output"));
    }
  }
}

TEST_CASE("a reader that goes away is one line and exit 2, not a signal", "[cli][errors]") {
  // `attention-cli random ... | head -c 10`: the writes after head exits fail with EPIPE.
  const std::string base = "/tmp/attention-cli-pipe-" + std::to_string(::getpid());
  const std::string cmd = "(" + std::string(ATTENTION_CLI) + " random --seed 1 --dist normal --shape 2000,100 2> " + base +
                          ".err; echo $? > " + base + ".status) | head -c 10 > /dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const auto slurp = [](const std::string& p) { std::ifstream f(p); std::stringstream s; s << f.rdbuf(); return s.str(); };
  CHECK(slurp(base + ".status") == "2\n");
  CHECK(slurp(base + ".err") == "attention-cli: cannot write the output: Broken pipe\n");
  std::remove((base + ".status").c_str());
  std::remove((base + ".err").c_str());
}
