// The keys of current models' attention: what combines, and one clear line for what does not.
#include "attention/io/spec.hpp"

#include "attention/io/trace_json.hpp"
#include "support.hpp"

using nlohmann::json;

namespace {
std::string message_of(const char* spec) {
  const json t = attention::run_trace_text(spec);
  return t.contains("error") ? t["error"]["message"].get<std::string>() : "(no error)";
}
}  // namespace

TEST_CASE("what does not make sense is one line naming the field", "[spec][errors][modern]") {
  CHECK(message_of(R"({"positional": "rope", "d_model": 6, "heads": 2})") == "d_k: rope turns pairs of columns, so d_k must be even, got 3");
  CHECK(message_of(R"({"heads": 4, "kv_heads": 3, "d_model": 8})") == "kv_heads: 3 key/value heads do not divide 4 query heads; choose a divisor of heads");
  CHECK(message_of(R"({"heads": 2, "kv_heads": 4, "d_model": 8})") == "kv_heads: 4 key/value heads do not divide 2 query heads; choose a divisor of heads");
  CHECK(message_of(R"({"mode": "cross", "sentence": "a b"})") == "source: cross mode needs a source: give source, source_tokens or X_source");
  CHECK(message_of(R"({"mode": "cross", "source": "x", "mask": "causal"})") == "mask: cross-attention takes none or an n x m matrix of 0/1 (the source has no future)");
  CHECK(message_of(R"({"mode": "cross", "source": "x", "mask": "window:1"})").rfind("mask: ", 0) == 0);
  CHECK(message_of(R"({"mode": "cross", "source": "x", "positional": "rope"})") == "positional: rope relates positions within one sequence; cross-attention takes none or sinusoidal");
  CHECK(message_of(R"({"mode": "cross", "source": "x", "positional": "alibi"})").rfind("positional: alibi", 0) == 0);
  CHECK(message_of(R"({"softcap": 0})") == "softcap: must be greater than 0, got 0");
  CHECK(message_of(R"({"softcap": -1})") == "softcap: must be greater than 0, got -1");
  CHECK(message_of(R"({"rope_base": 0})") == "rope_base: must be greater than 0, got 0");
  CHECK(message_of(R"({"rope_style": "spiral"})") == "rope_style: must be interleaved or halves, got \"spiral\"");
  CHECK(message_of(R"({"positional": "learned"})") == "positional: must be none, sinusoidal, rope or alibi, got \"learned\"");
  CHECK(message_of(R"({"mode": "encoder_decoder", "positional": "rope"})") == "positional: applies to self and cross modes");
  CHECK(message_of(R"({"mode": "encoder_decoder", "positional": "alibi"})") == "positional: applies to self and cross modes");
  CHECK(message_of(R"({"heads": 2, "kv_heads": 1, "d_k": 2, "W_k": [[1,0,0,0],[0,1,0,0],[1,1,0,0],[0,0,0,0]]})") == "W_k: is 4 x 4, expected 4 x 2 (d_model x kv_heads*d_k)");
  CHECK(message_of(R"({"heads": 2, "kv_heads": 1, "d_model": 4, "d_v": 2, "W_v": [[1,0,0,0],[0,1,0,0],[1,1,0,0],[0,0,0,0]]})") == "W_v: is 4 x 4, expected 4 x 2 (d_model x kv_heads*d_v)");
  CHECK(message_of(R"({"mode": "cross", "source": "x y", "X_source": [[1,2,3,4]]})") == "X_source: has 1 rows but the source has 2 tokens");
  CHECK(message_of(R"({"mode": "cross", "source": "x", "d_model": 4, "X_source": [[1,2]]})") == "X_source: has 2 columns but d_model is 4");
  CHECK(message_of(R"({"source": "x"})") == "source: belongs to mode cross (mode is self)");
  CHECK(message_of(R"({"mask": "causal_window:x"})") == "mask: causal_window:D needs a whole number D from 0 to 9999, got \"causal_window:x\"");
}

TEST_CASE("a Llama-shaped layer: rope, grouped-query heads, a sliding causal window, decoding, online blocks", "[spec][modern]") {
  const json t = attention::run_trace_text(R"({"sentence": "a b c d e f g", "positional": "rope", "heads": 8, "kv_heads": 2,
      "d_model": 16, "mask": "causal_window:3", "decode": true, "online_block": 2, "softcap": 30})");
  REQUIRE_FALSE(t.contains("error"));
  CHECK(t["kv_group"] == json({0, 0, 0, 0, 1, 1, 1, 1}));
  CHECK(t["W_k"][0].size() == 2 * 2);  // kv_heads x d_k
  CHECK(t["mask"][5][1] == 0.0);       // 4 back: outside the window
  CHECK(t["mask"][5][2] == 1.0);
  CHECK(t["decode"].size() == 7);
  CHECK(t["spec"]["kv_heads"] == 2);
}

TEST_CASE("kv_heads = heads is multi-head attention as before; 1 shares one key and value head", "[spec][modern][property]") {
  const json mha = attention::run_trace_text(R"({"sentence": "the cat sat on the mat", "heads": 4, "d_model": 8, "seed": 3})");
  const json same = attention::run_trace_text(R"({"sentence": "the cat sat on the mat", "heads": 4, "kv_heads": 4, "d_model": 8, "seed": 3})");
  for (const char* key : {"W_q", "W_k", "W_v", "W_o", "scores", "weights", "output"}) CHECK(mha[key] == same[key]);
  const json mqa = attention::run_trace_text(R"({"sentence": "the cat sat on the mat", "heads": 4, "kv_heads": 1, "d_model": 8, "seed": 3})");
  CHECK(mqa["K"][0].size() == 2);
  CHECK(mqa["kv_group"] == json({0, 0, 0, 0}));
  CHECK(mqa["W_q"] == mha["W_q"]);  // drawn first, with the same shape
}

TEST_CASE("cross-attention: n x m weights from one vocabulary over both sentences", "[spec][modern]") {
  const json t = attention::run_trace_text(R"({"mode": "cross", "sentence": "le chat", "source": "the cat sat", "seed": 4})");
  REQUIRE_FALSE(t.contains("error"));
  CHECK(t["source_tokens"] == json({"the", "cat", "sat"}));
  CHECK(t["weights"][0].size() == 2);
  CHECK(t["weights"][0][0].size() == 3);
  CHECK(t["K"].size() == 3);
  // A word in both sentences shares its vector.
  const json shared = attention::run_trace_text(R"({"mode": "cross", "sentence": "chat noir", "source": "black chat"})");
  CHECK(shared["X"][0] == shared["X_source"][1]);
}
