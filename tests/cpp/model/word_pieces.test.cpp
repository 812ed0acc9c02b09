// Word pieces against a pure-Python byte-pair encoder and learner written apart from the core
// (tests/fixtures/make_word_piece_fixtures.py writes word_pieces.json).
#include "attention/model/word_pieces.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "support.hpp"

using attention::WordPieces;
using nlohmann::json;

namespace {

const json& fixture() {
  static const json f = support::load_fixture("word_pieces.json");
  return f;
}

std::string corpus() {
  std::ifstream in(std::string(ATTENTION_FIXTURES) + "/../../" + fixture()["corpus"].get<std::string>(), std::ios::binary);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string joined(const WordPieces& pieces, const std::vector<int>& ids) {
  std::string text;
  for (const int id : ids) text += pieces.bytes.at(static_cast<std::size_t>(id));
  return text;
}

}  // namespace

TEST_CASE("the merges learned from the corpus are Python's", "[model][fixtures][word-pieces]") {
  const WordPieces learned = attention::learn_word_pieces(corpus(), fixture()["vocabulary"].get<long>());
  const auto expected = fixture()["merges"].get<std::vector<std::array<int, 2>>>();
  REQUIRE(learned.merges.size() == expected.size());
  for (std::size_t r = 0; r < expected.size(); ++r) {
    INFO("merge " << r << ": " << learned.names[256 + r]);
    CHECK(learned.merges[r] == expected[r]);
  }
  CHECK(learned.bytes.size() == 256 + expected.size());
  // Whole common words have become one token each, their leading space included.
  for (const char* word : {" the", " you", " and"}) {
    CHECK(attention::encode_pieces(learned, word).size() == 1);
  }
}

TEST_CASE("held-out and hostile text encode to Python's ids and join back to the text", "[model][fixtures][word-pieces]") {
  const WordPieces pieces = attention::word_pieces(fixture()["merges"].get<std::vector<std::array<int, 2>>>());
  for (const json& c : fixture()["cases"]) {
    const auto text = c["text"].get<std::string>();
    INFO(c["what"].get<std::string>());
    CHECK(attention::split_words(text).size() == c["words"].get<std::size_t>());
    const std::vector<int> ids = attention::encode_pieces(pieces, text);
    CHECK(ids == c["ids"].get<std::vector<int>>());
    CHECK(joined(pieces, ids) == text);
  }
}

TEST_CASE("any bytes encode, and every token's name is valid UTF-8 naming its bytes", "[model][word-pieces]") {
  const WordPieces pieces = attention::word_pieces(fixture()["merges"].get<std::vector<std::array<int, 2>>>());
  std::string every;
  for (int b = 255; b >= 0; --b) every += static_cast<char>(b);  // stray continuation bytes, a lone lead byte, NUL
  const std::vector<int> ids = attention::encode_pieces(pieces, every);
  CHECK(joined(pieces, ids) == every);
  CHECK(pieces.names[0] == "<0x00>");
  CHECK(pieces.names[0xE9] == "<0xE9>");
  CHECK(pieces.names['\n'] == "\n");
  CHECK(pieces.names['a'] == "a");
  std::set<std::string> distinct(pieces.names.begin(), pieces.names.end());
  CHECK(distinct.size() == pieces.names.size());
  for (const std::string& name : pieces.names) CHECK_NOTHROW(json(name).dump());  // throws on invalid UTF-8
}

TEST_CASE("words are cut as the documented pattern cuts them", "[model][word-pieces]") {
  using V = std::vector<std::string>;
  CHECK(attention::split_words("Hello world") == V{"Hello", " world"});
  CHECK(attention::split_words("a   b") == V{"a", "  ", " b"});
  CHECK(attention::split_words("a \nb") == V{"a", " ", "\n", "b"});
  CHECK(attention::split_words("it's 42!? ") == V{"it", "'", "s", " 42", "!?", " "});
  CHECK(attention::split_words("") == V{});
}
