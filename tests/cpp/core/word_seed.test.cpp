// embedding_init "per_word": a word's vector depends on the seed and the word alone.
#include "attention/core/word_seed.hpp"

#include "attention/io/trace_json.hpp"
#include "support.hpp"

using nlohmann::json;

TEST_CASE("crc32 is zlib's", "[per_word]") {
  CHECK(attention::crc32("") == 0u);
  CHECK(attention::crc32("hello") == 0x3610a686u);          // zlib.crc32(b'hello')
  CHECK(attention::crc32("caf\u00e9") == 0x98ad42b5u);        // of the UTF-8 bytes
  CHECK(attention::word_seed(5, "hello") == (5u ^ 0x3610a686u));
}

TEST_CASE("per_word: the same word has the same vector in any sentence", "[per_word][property]") {
  const auto run = [](const char* sentence) {
    return attention::run_trace_text(json{{"sentence", sentence}, {"embedding_init", "per_word"}, {"seed", 5}}.dump());
  };
  const json dog = run("the dog sat"), cat = run("the cat sat"), later = run("sat the cat");
  REQUIRE(dog.contains("X"));
  CHECK(dog["X"][0] == cat["X"][0]);    // "the"
  CHECK(dog["X"][2] == cat["X"][2]);    // "sat"
  CHECK(dog["X"][1] != cat["X"][1]);    // "dog" and "cat" differ
  CHECK(later["X"][0] == cat["X"][2]);  // position does not matter either
  CHECK(dog["W_q"] == cat["W_q"]);      // the weights come from the seed's stream as before
  const json other_seed = attention::run_trace_text(json{{"sentence", "the dog sat"}, {"embedding_init", "per_word"}, {"seed", 6}}.dump());
  CHECK(other_seed["X"][0] != dog["X"][0]);
  // And the default still hands vectors out by order of first appearance.
  const json a = attention::run_trace_text(R"({"sentence": "the dog sat"})");
  const json b = attention::run_trace_text(R"({"sentence": "the cat sat"})");
  CHECK(a["X"] == b["X"]);
}

TEST_CASE("per_word is for embeddings in self mode", "[per_word][errors]") {
  CHECK(attention::run_trace_text(R"({"weight_init": "per_word"})")["error"]["message"] ==
        "weight_init: per_word applies to embedding_init only, got \"per_word\"");
  CHECK(attention::run_trace_text(R"({"mode": "encoder_decoder", "embedding_init": "per_word"})")["error"]["message"] ==
        "embedding_init: per_word applies to self and cross modes");
}
