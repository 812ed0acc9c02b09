#include "attention/io/spec.hpp"

#include <set>

#include "support.hpp"

using attention::parse_spec_text;

namespace {
std::string error_of(const std::string& spec) {
  const auto r = parse_spec_text(spec);
  return r.ok() ? "(accepted)" : r.error().message;
}
}  // namespace

TEST_CASE("defaults are those of the README's spec keys", "[spec]") {
  const auto s = parse_spec_text("{}").value();
  CHECK(s.seed == 42);
  CHECK(s.heads == 1);
  CHECK(s.d_model == 4);
  CHECK(s.d_k == 4);
  CHECK(s.d_v == 4);
  CHECK(s.embedding_init.kind == attention::Init::uniform);
  CHECK(s.weight_init.kind == attention::Init::normal);
  CHECK(s.score == attention::ScoreKind::scaled_dot);
  CHECK(s.mask == attention::MaskKind::none);
  CHECK(s.positional == attention::Positional::none);
  CHECK(s.kv_heads == 1);
  CHECK(!s.hard);
  CHECK(s.temperature == 1);
  CHECK(!s.residual);
  CHECK(!s.layer_norm);
  CHECK(s.mode == attention::Mode::self);
  CHECK(s.tokens == std::vector<std::string>{"the", "cat", "sat", "on", "the", "mat"});
}

TEST_CASE("sizes follow explicit matrices", "[spec]") {
  const auto s = parse_spec_text(R"({"X": [[1,2,3,4,5],[6,7,8,9,10]], "W_q": [[1,0,0],[0,1,0],[0,0,1],[0,0,0],[0,0,0]]})").value();
  CHECK(s.d_model == 5);
  CHECK(s.d_k == 3);
  CHECK(s.tokens == std::vector<std::string>{"t1", "t2"});
  const auto h = parse_spec_text(R"({"d_model": 8, "heads": 2})").value();
  CHECK(h.d_k == 4);
  CHECK(h.d_v == 4);
}

TEST_CASE("every bad spec gets one line naming the field", "[spec][errors]") {
  CHECK(error_of("{") == "the spec is not valid JSON: syntax error at byte 1 (end of input)");
  CHECK(error_of("[1]") == "the spec must be a JSON object, got an array");
  CHECK(error_of(R"({"tokens": ["a\nb"]})") == "tokens: entry 0 holds the control character U+000A; tokens are printable text");
  CHECK(error_of(R"({"tokens": ["ok", "\u001b[2J"]})") == "tokens: entry 1 holds the control character U+001B; tokens are printable text");
  CHECK(error_of(R"({"tokens": ["\u007f"]})") == "tokens: entry 0 holds the control character U+007F; tokens are printable text");
  CHECK(error_of(R"({"tokens": ["x\u009b"]})") == "tokens: entry 0 holds the control character U+009B; tokens are printable text");
  CHECK(error_of(R"({"colour": "red"})") == "colour: is not a spec key (see `attention-cli --help` for the keys)");
  CHECK(error_of(R"({"score": "cosine"})") == "score: must be dot, scaled_dot, general or additive, got \"cosine\"");
  CHECK(error_of(R"({"mask": "future"})") == "mask: must be none, causal, window:D, causal_window:D or an n x n matrix of 0/1, got \"future\"");
  CHECK(error_of(R"({"mask": "window:x"})") == "mask: window:D needs a whole number D from 0 to 9999, got \"window:x\"");
  CHECK(error_of(R"({"heads": 3})") == "heads: 3 heads do not divide d_model 4; choose a divisor or set d_k");
  CHECK(error_of(R"({"heads": 0})") == "heads: must be a whole number from 1 to 64, got 0");
  CHECK(error_of(R"({"seed": -1})") == "seed: must be a whole number from 0 to 4294967295, got -1");
  CHECK(error_of(R"({"seed": 4294967296})") == "seed: must be a whole number from 0 to 4294967295, got 4294967296");
  CHECK(error_of(R"({"seed": 1.5})") == "seed: must be a whole number from 0 to 4294967295, got 1.5");
  CHECK(error_of(R"({"seed": "42"})") == "seed: must be a whole number from 0 to 4294967295, got \"42\"");
  CHECK(error_of(R"({"d_model": 2000})") == "d_model: must be a whole number from 1 to 1024, got 2000");
  CHECK(error_of(R"({"X": [[1,2],[3]]})") == "X: is ragged: row 1 has 1 numbers, row 0 has 2");
  CHECK(error_of(R"({"X": [[1,"a"]]})") == "X: entry [0][1] is not a number");
  CHECK(error_of(R"({"X": [[1e999, 1]]})") == "the spec is not valid JSON: number overflow at byte 12 near '1e999'");
  CHECK(error_of("{\"seed\": 1,}") == "the spec is not valid JSON: syntax error at byte 11 near '}'");
  CHECK(error_of(R"({"X": []})") == "X: must be a non-empty array of rows");
  CHECK(error_of(R"({"sentence": "a b", "X": [[1,2]]})") == "X: has 1 rows but there are 2 tokens");
  CHECK(error_of(R"({"X": [[1,2]], "d_model": 3})") == "X: has 2 columns but d_model is 3");
  CHECK(error_of(R"({"W_q": [[1,2],[3,4]]})") == "W_q: is 2 x 2, expected 4 x 2 (d_model x heads*d_k)");
  CHECK(error_of(R"({"d_model": 2, "W_k": [[1,2,3]]})") == "W_k: is 1 x 3, expected 2 x 2 (d_model x heads*d_k)");
  CHECK(error_of(R"({"temperature": 0})") == "temperature: must be greater than 0, got 0");
  CHECK(error_of(R"({"embedding_init": "int:0"})") == "embedding_init: int:N needs N from 1 to 2147483648, got \"int:0\"");
  CHECK(error_of(R"({"weight_init": "gaussian"})") == "weight_init: must be uniform, normal or int:N, got \"gaussian\"");
  CHECK(error_of(R"({"sentence": "   "})") == "sentence: has no tokens; type at least one word");
  CHECK(error_of(R"({"sentence": 5})") == "sentence: must be a string, got 5");
  CHECK(error_of(R"({"sentence": "a", "tokens": ["a"]})") == "tokens: give either sentence or tokens, not both");
  CHECK(error_of(R"({"tokens": ["a", ""]})") == "tokens: entry 1 must be a non-empty string");
  CHECK(error_of(R"({"residual": "yes"})") == "residual: must be true or false, got \"yes\"");
  CHECK(error_of(R"({"d_model": 4, "d_v": 2, "residual": true})") == "residual: needs the attention output width (2) to equal d_model (4)");
  CHECK(error_of(R"({"W_a": [[1]]})") == "W_a: is used by score general only");
  CHECK(error_of(R"({"mode": "encoder_decoder", "mask": "causal"})") == "mask: applies to self and cross modes");
  CHECK(error_of(R"({"mode": "encoder_decoder", "heads": 2})") == "heads: encoder_decoder mode has one head");
  CHECK(error_of(R"({"decoder_state": [1,2]})") == "decoder_state: belongs to mode encoder_decoder (mode is self)");
  CHECK(error_of(R"({"mode": "encoder_decoder", "annotations": [[1,2]], "decoder_state": [1,2,3]})") ==
        "decoder_state: is 1 x 3, expected 1 x 2 (one number per annotation column)");
  CHECK(error_of(R"({"mask": [[1,0],[1,1]], "sentence": "a b c"})") == "mask: is 2 x 2, expected 3 x 3 (one row and column per token)");
  CHECK(error_of(R"({"mask": [[1,2],[1,1]], "sentence": "a b"})") == "mask: entries must be 0 (hidden) or 1 (visible)");
  CHECK(error_of(R"({"mode": "diagonal"})") == "mode: must be self, encoder_decoder or cross, got \"diagonal\"");
  // Found by the fuzzer: a control character in a key or value broke the one-line rule.
  CHECK(error_of(R"({"sent\nce": "a"})") == "sent\\u000ace: is not a spec key (see `attention-cli --help` for the keys)");
  CHECK(error_of(R"({"mode": "a\tb"})") == "mode: must be self, encoder_decoder or cross, got \"a\\tb\"");
}

TEST_CASE("the head width comes from d_k or W_q, and every given matrix is checked against it", "[spec][shapes]") {
  // W_k of a grouped-query spec is d_model x kv_heads*d_k: 8 x 4 here (d_k = 8 / 4 heads). An
  // 8 x 8 W_k must not pass by lending its width to d_k.
  const std::string eye8 = "[[1,0,0,0,0,0,0,0],[0,1,0,0,0,0,0,0],[0,0,1,0,0,0,0,0],[0,0,0,1,0,0,0,0],"
                           "[0,0,0,0,1,0,0,0],[0,0,0,0,0,1,0,0],[0,0,0,0,0,0,1,0],[0,0,0,0,0,0,0,1]]";
  CHECK(error_of(R"({"heads": 4, "d_model": 8, "kv_heads": 2, "W_k": )" + eye8 + "}") ==
        "W_k: is 8 x 8, expected 8 x 4 (d_model x kv_heads*d_k)");
  CHECK(parse_spec_text(R"({"heads": 4, "d_model": 8, "kv_heads": 2, "d_k": 4, "W_k": )" + eye8 + "}").ok());
  // An explicit W_q still sets the width, and the other matrices are held to it.
  const auto wq = parse_spec_text(R"({"d_model": 2, "W_q": [[1,2,3],[4,5,6]]})");
  REQUIRE(wq.ok());
  CHECK(wq.value().d_k == 3);
  CHECK(error_of(R"({"d_model": 2, "W_q": [[1,2,3],[4,5,6]], "W_k": [[1,2],[3,4]]})") == "W_k: is 2 x 2, expected 2 x 3 (d_model x heads*d_k)");
  // W_v still sets d_v when d_v is not given; W_o follows it.
  const auto wv = parse_spec_text(R"({"heads": 2, "d_model": 2, "W_v": [[1,2,3,4],[5,6,7,8]]})");
  REQUIRE(wv.ok());
  CHECK(wv.value().d_v == 2);
  CHECK(error_of(R"({"heads": 2, "d_model": 2, "W_v": [[1,2,3,4],[5,6,7,8]], "W_o": [[1,2],[3,4]]})") ==
        "W_o: is 2 x 2, expected 4 x 2 (heads*d_v x d_model)");
  CHECK(error_of(R"({"d_model": 2, "score": "general", "W_a": [[1]]})") == "W_a: is 1 x 1, expected 2 x 2 (d_k x d_k)");
  CHECK(error_of(R"({"d_model": 2, "score": "additive", "W_1": [[1]]})") == "W_1: is 1 x 1, expected 2 x 2 (d_k x d_a)");
  CHECK(error_of(R"({"d_model": 2, "score": "additive", "W_2": [[1,2],[3,4],[5,6]]})") == "W_2: is 3 x 2, expected 2 x 2 (d_k x d_a)");
  CHECK(error_of(R"({"d_model": 2, "score": "additive", "d_a": 3, "v_a": [1, 2]})") == "v_a: is 1 x 2, expected 1 x 3 (d_a numbers)");
  CHECK(error_of(R"({"mode": "encoder_decoder", "annotations": [[1,2]], "W_c": [[1,2]]})") ==
        "W_c: is 1 x 2, expected 4 x 2 (2d x d: [context, state] to d)");
}

TEST_CASE("the trace size is bounded before any work", "[spec][limits]") {
  std::string words;
  for (int i = 0; i < 512; ++i) words += "w ";
  const auto r = parse_spec_text(R"({"heads": 64, "d_model": 1024, "sentence": ")" + words + "\"}");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("numbers; the limit is 8000000") != std::string::npos);
  CHECK(r.error().field == "sentence");  // the page shows it beside the sentence
  CHECK(parse_spec_text(R"({"heads": 8, "d_model": 512, "sentence": ")" + words.substr(0, 512) + "\"}").ok());
}

TEST_CASE("every limit of limits.hpp is enforced with a message that cites it", "[spec][limits][errors]") {
  const auto many = [](int k, const std::string& item) {
    std::string out;
    for (int i = 0; i < k; ++i) out += (i ? "," : "") + item;
    return out;
  };
  CHECK(error_of(R"({"tokens": [)" + many(513, R"("w")") + "]}") == "tokens: has 513 tokens; the limit is 512");
  CHECK(error_of(R"({"X": [)" + many(513, "[1]") + "]}") == "X: has 513 rows; the limit is 512 tokens");
  CHECK(error_of(R"({"sentence": ")" + std::string(257, 'a') + "\"}")== "sentence: has a token of 257 bytes; the limit is 256");
  CHECK(error_of(R"({"X": [[)" + many(3000, "0") + "]," + many(2699, "[0]") + "]}") ==
        "X: is 2700 x 3000; the limit is 8000000 numbers");
  CHECK(error_of(R"({"mode": "encoder_decoder", "annotations": [[1]], "decoder_state": [)" + many(2049, "1") + "]}") ==
        "decoder_state: has 2049 entries; the limit is 2048");
  CHECK(error_of(R"({"d_k": 1025})") == "d_k: must be a whole number from 1 to 1024, got 1025");
  CHECK(error_of(R"({"d_v": 1025})") == "d_v: must be a whole number from 1 to 1024, got 1025");
  CHECK(error_of(R"({"score": "additive", "d_a": 1025})") == "d_a: must be a whole number from 1 to 1024, got 1025");
  CHECK(error_of(R"({"heads": 65, "d_k": 1})") == "heads: must be a whole number from 1 to 64, got 65");
  CHECK(error_of(R"({"weight_init": "int:2147483649"})") == "weight_init: int:N needs N from 1 to 2147483648, got \"int:2147483649\"");
  CHECK(error_of(R"({"mask": "window:10000"})") == "mask: window:D needs a whole number D from 0 to 9999, got \"window:10000\"");
  CHECK(parse_spec_text(R"({"mask": "window:9999"})").ok());
}

TEST_CASE("the settings table lists every key once", "[spec]") {
  std::set<std::string> keys;
  for (const auto& s : attention::settings()) {
    CHECK(keys.insert(s.key).second);
    CHECK(std::string(s.help).size() > 10);
  }
  CHECK(keys.count("sentence"));
  CHECK(keys.count("W_c"));
}
