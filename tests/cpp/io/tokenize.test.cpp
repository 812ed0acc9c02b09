#include "attention/io/tokenize.hpp"

#include "attention/core/limits.hpp"
#include "support.hpp"

using attention::tokenize;
using Tokens = std::vector<std::string>;

TEST_CASE("words and punctuation", "[tokenize]") {
  CHECK(tokenize("i miss the old kanye").value() == Tokens{"i", "miss", "the", "old", "kanye"});
  CHECK(tokenize("Hello, world!").value() == Tokens{"Hello", ",", "world", "!"});
  CHECK(tokenize("  spaced\tout\n").value() == Tokens{"spaced", "out"});
  CHECK(tokenize("don't stop... well-known").value() == Tokens{"don't", "stop", ".", ".", ".", "well-known"});
  CHECK(tokenize("rock 'n' roll").value() == Tokens{"rock", "'", "n", "'", "roll"});
  CHECK(tokenize("3.14 + 2").value() == Tokens{"3", ".", "14", "+", "2"});
  CHECK(tokenize("a - b").value() == Tokens{"a", "-", "b"});
  CHECK(tokenize("").value().empty());
}

TEST_CASE("UTF-8 stays whole: accents, CJK, emoji", "[tokenize]") {
  CHECK(tokenize("café naïve") .value() == Tokens{"café", "naïve"});
  CHECK(tokenize("cafe\xCC\x81 ok").value() == Tokens{"cafe\xCC\x81", "ok"});  // combining acute accent
  CHECK(tokenize("我爱你").value() == Tokens{"我", "爱", "你"});
  CHECK(tokenize("東京に行く。").value() == Tokens{"東", "京", "に", "行", "く", "。"});
  CHECK(tokenize("I ❤️ cats 🐱").value() == Tokens{"I", "❤️", "cats", "🐱"});
  CHECK(tokenize("👩‍💻 codes").value() == Tokens{"👩‍💻", "codes"});       // ZWJ sequence
  CHECK(tokenize("👍🏽👍").value() == Tokens{"👍🏽", "👍"});                   // skin tone modifier
  CHECK(tokenize("🇫🇷🇩🇪").value() == Tokens{"🇫🇷", "🇩🇪"});                   // two flags
  CHECK(tokenize("Привет мир").value() == Tokens{"Привет", "мир"});
  CHECK(tokenize("नमस्ते दुनिया").value() == Tokens{"नमस्ते", "दुनिया"});
  CHECK(tokenize("«quoted» — dash").value() == Tokens{"«", "quoted", "»", "—", "dash"});
}

TEST_CASE("invalid UTF-8 is an error naming the byte", "[tokenize][errors]") {
  const auto r = tokenize("ok \xC3(");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().field == "sentence");
  CHECK(r.error().message == "sentence: is not valid UTF-8 (byte 3)");
  CHECK_FALSE(tokenize("\xED\xA0\x80").ok());  // a surrogate
  CHECK_FALSE(tokenize("\xC0\xAF").ok());      // overlong '/'
  CHECK_FALSE(tokenize("\xF4\x90\x80\x80").ok());  // past U+10FFFF
  CHECK_FALSE(tokenize("\xE6\x88").ok());      // cut short
}

TEST_CASE("the token limit gives a clear error", "[tokenize][limits]") {
  std::string at_limit, over;
  for (std::size_t i = 0; i < attention::limits::max_tokens; ++i) at_limit += "w ";
  over = at_limit + "one-more";
  CHECK(tokenize(at_limit).value().size() == attention::limits::max_tokens);
  const auto r = tokenize(over);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message == "sentence: has 513 tokens; the limit is 512");
  const auto huge = tokenize(std::string(attention::limits::max_sentence_bytes + 1, 'a'));
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().message.find("bytes long; the limit is") != std::string::npos);
}

TEST_CASE("tokens concatenate back to the sentence minus white space", "[tokenize][property]") {
  const std::string s = "Ünïcödé, 漢字 & emoji 🎉 — fine!? (yes) [no] {maybe}";
  std::string joined, squeezed;
  for (const auto& t : tokenize(s).value()) joined += t;
  for (char c : s) if (c != ' ') squeezed += c;
  CHECK(joined == squeezed);
}
