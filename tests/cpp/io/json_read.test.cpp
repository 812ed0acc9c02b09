// Reading settings from JSON without exceptions: the range checks at their edges, and the one
// line a refusal prints (what a user sees for every bad spec, training setting or request).
#include "attention/io/json_read.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "attention/core/limits.hpp"
#include "support.hpp"

using nlohmann::json;
namespace jr = attention::json_read;

namespace {
// integral()'s verdict, and the number it read when it accepted.
std::optional<std::int64_t> whole(const json& v, std::int64_t lo, std::int64_t hi) {
  std::int64_t out = -12345;
  if (!jr::integral(v, lo, hi, out)) return std::nullopt;
  return out;
}
}  // namespace

TEST_CASE("integral: both ends of the range are in, one past either is out", "[json_read]") {
  // The seed's range: the largest value is 2^32 - 1, as NumPy's seed takes it.
  const std::int64_t hi = 4294967295LL;
  CHECK(whole(json::parse("0"), 0, hi) == 0);
  CHECK(whole(json::parse("4294967295"), 0, hi) == hi);
  CHECK_FALSE(whole(json::parse("4294967296"), 0, hi));
  CHECK_FALSE(whole(json::parse("-1"), 0, hi));
  // The same edges written as floats.
  CHECK(whole(json::parse("4294967295.0"), 0, hi) == hi);
  CHECK_FALSE(whole(json::parse("4294967296.0"), 0, hi));
  CHECK_FALSE(whole(json::parse("-1.0"), 0, hi));
  CHECK(whole(json::parse("-0.0"), 0, hi) == 0);
  // A range that excludes 0 on each side.
  CHECK(whole(json::parse("1"), 1, 64) == 1);
  CHECK(whole(json::parse("64"), 1, 64) == 64);
  CHECK_FALSE(whole(json::parse("0"), 1, 64));
  CHECK_FALSE(whole(json::parse("65"), 1, 64));
}

TEST_CASE("integral: a negative range, where the parser reads positive numbers as unsigned", "[json_read]") {
  // nlohmann parses "3" as an unsigned integer; it must still be compared as a number, not
  // wrapped against a negative bound.
  REQUIRE(json::parse("3").is_number_unsigned());
  CHECK_FALSE(whole(json::parse("3"), -5, -1));
  CHECK(whole(json::parse("-1"), -5, -1) == -1);
  CHECK(whole(json::parse("-5"), -5, -1) == -5);
  CHECK_FALSE(whole(json::parse("-6"), -5, -1));
}

TEST_CASE("integral: values no int64 holds, fractions, and what is not a number are refused", "[json_read]") {
  const std::int64_t hi = 4294967295LL;
  CHECK_FALSE(whole(json::parse("18446744073709551615"), 0, hi));  // the largest unsigned: not wrapped to -1
  CHECK_FALSE(whole(json::parse("-9223372036854775808"), 0, hi));
  CHECK_FALSE(whole(json::parse("1e300"), 0, hi));
  CHECK_FALSE(whole(json::parse("4.5"), 0, hi));
  CHECK_FALSE(whole(json::parse("0.000001"), 0, hi));
  CHECK_FALSE(whole(json(std::numeric_limits<double>::infinity()), 0, hi));
  CHECK_FALSE(whole(json(std::nan("")), 0, hi));
  for (const char* text : {"true", "null", "\"4\"", "[4]", "{\"n\": 4}"}) {
    INFO(text);
    CHECK_FALSE(whole(json::parse(text), 0, hi));
  }
}

TEST_CASE("get_int, get_number, get_string, get_bool: the value, or one line naming the key", "[json_read]") {
  const json j = json::parse(R"({"n": 4.0, "half": 4.5, "big": 65, "x": 0.25, "text": "hi", "flag": false,
                                 "list": [1, 2], "none": [], "obj": {"a": 1}, "empty": {}})");
  REQUIRE(jr::get_int(j, "n", 1, 64).ok());
  CHECK(jr::get_int(j, "n", 1, 64).value() == 4);
  CHECK(jr::get_int(j, "half", 1, 64).error().message == "half: must be a whole number from 1 to 64, got 4.5");
  CHECK(jr::get_int(j, "big", 1, 64).error().field == "big");
  CHECK(jr::get_int(j, "big", 1, 64).error().message == "big: must be a whole number from 1 to 64, got 65");
  CHECK(jr::get_int(j, "text", 1, 64).error().message == R"(text: must be a whole number from 1 to 64, got "hi")");

  CHECK(jr::get_number(j, "x").value() == 0.25);
  CHECK(jr::get_number(j, "n").value() == 4.0);
  CHECK(jr::get_number(j, "flag").error().message == "flag: must be a number, got false");
  const json inf = {{"t", std::numeric_limits<double>::infinity()}};
  CHECK(jr::get_number(inf, "t").error().message == "t: must be finite");

  CHECK(jr::get_string(j, "text").value() == "hi");
  CHECK(jr::get_string(j, "x").error().message == "x: must be a string, got 0.25");

  CHECK(jr::get_bool(j, "flag").value() == false);
  // Containers are named by kind, never dumped (a hostile one could nest without end).
  CHECK(jr::get_bool(j, "list").error().message == "list: must be true or false, got an array");
  CHECK(jr::get_bool(j, "none").error().message == "none: must be true or false, got []");
  CHECK(jr::get_bool(j, "obj").error().message == "obj: must be true or false, got an object");
  CHECK(jr::get_bool(j, "empty").error().message == "empty: must be true or false, got {}");
}

TEST_CASE("get_choice lists the choices as a sentence", "[json_read]") {
  const json j = json::parse(R"({"mode": "cross", "bad": "Cross", "num": 3})");
  CHECK(jr::get_choice(j, "mode", {"self", "cross", "encoder_decoder"}).value() == "cross");
  CHECK(jr::get_choice(j, "bad", {"self", "cross", "encoder_decoder"}).error().message ==
        R"(bad: must be self, cross or encoder_decoder, got "Cross")");  // case matters
  CHECK(jr::get_choice(j, "num", {"adam", "sgd"}).error().message == "num: must be adam or sgd, got 3");
  CHECK(jr::get_choice(j, "num", {"only"}).error().message == "num: must be only, got 3");
}

TEST_CASE("show and clip: a quoted value is one line of at most 40 bytes of valid UTF-8", "[json_read]") {
  CHECK(jr::show(json(1.5)) == "1.5");
  CHECK(jr::show(json("a\"b")) == R"("a\"b")");
  // C0 controls as JSON escapes them; C1 controls (U+009B is a terminal's CSI) escaped too.
  CHECK(jr::show(json("a\n\x01")) == R"("a\n\u0001")");
  CHECK(jr::show(json("a\xc2\x9b")) == R"("a\u009b")");
  CHECK(jr::show(json("\x7f")) == R"("\u007f")");
  // A byte that is not UTF-8 is quoted as U+FFFD, not passed through.
  CHECK(jr::show(json("\xff")) == "\"\xef\xbf\xbd\"");
  // 50 x's quoted are 52 bytes: cut to 37 and "...".
  CHECK(jr::show(json(std::string(50, 'x'))) == "\"" + std::string(36, 'x') + "...");

  CHECK(jr::clip("short", 40) == "short");
  CHECK(jr::clip(std::string(40, 'y'), 40) == std::string(40, 'y'));
  CHECK(jr::clip(std::string(41, 'y'), 40) == std::string(37, 'y') + "...");
  // Six two-byte characters in 10 bytes: the cut at byte 7 would split the fourth, so three stay.
  const std::string e = "\xc3\xa9";
  CHECK(jr::clip(e + e + e + e + e + e, 10) == e + e + e + "...");
  // Escaping comes before the cut: four newlines are 24 bytes once escaped, and two stay.
  CHECK(jr::clip("\n\n\n\n", 15) == "\\u000a\\u000a...");
}

TEST_CASE("unknown_key names the first key not in the table, quoted safely", "[json_read]") {
  const std::vector<attention::Setting> table = {{"seed", "integer", "42", "The seed."},
                                                 {"task", "enum", "\"copy\"", "The task."}};
  CHECK_FALSE(jr::unknown_key(json::object(), table, "training"));
  CHECK_FALSE(jr::unknown_key(json::parse(R"({"seed": 1, "task": "sort"})"), table, "training"));

  const auto e = jr::unknown_key(json::parse(R"({"seed": 1, "sede": 2})"), table, "training", " (did you mean seed?)");
  REQUIRE(e);
  CHECK(e->field == "sede");
  CHECK(e->message == "sede: is not a training key (did you mean seed?)");

  // Keys come in order (nlohmann keeps an object's keys sorted): "alpha" before "zeta".
  CHECK(jr::unknown_key(json::parse(R"({"zeta": 1, "alpha": 2})"), table, "spec")->field == "alpha");

  // A hostile key: one line, at most 40 bytes, in the field as in the message.
  const std::string hostile = "\x1b[2J" + std::string(60, 'k');
  const auto h = jr::unknown_key(json{{hostile, 1}}, table, "spec");
  REQUIRE(h);
  CHECK(h->field == "\\u001b[2J" + std::string(28, 'k') + "...");
  CHECK(h->field.size() == 40);
  CHECK(h->message == h->field + ": is not a spec key");
}

TEST_CASE("too_deep: 32 levels pass, the 33rd is refused with its byte; strings do not count", "[json_read]") {
  REQUIRE(attention::limits::max_json_depth == 32);
  CHECK_FALSE(jr::too_deep(std::string(32, '[') + std::string(32, ']')));
  CHECK(jr::too_deep(std::string(33, '[')) == "nested deeper than 32 levels at byte 32");
  CHECK(jr::too_deep("{\"a\": " + std::string(33, '{')) == "nested deeper than 32 levels at byte 37");
  // Brackets inside strings, after an escaped quote too, are text.
  CHECK_FALSE(jr::too_deep("[\"" + std::string(40, '[') + "\"]"));
  CHECK_FALSE(jr::too_deep("[\"\\\"" + std::string(40, '[') + "\"]"));
  // Closing more than was opened (not JSON) does not let the next 33 through unnoticed.
  CHECK(jr::too_deep("]]]]" + std::string(33, '[')) == "nested deeper than 32 levels at byte 36");
}

TEST_CASE("parse_text: the value, or the refusal with where the JSON went wrong", "[json_read]") {
  CHECK(jr::parse_text(R"({"a": [1, 2]})", "bad spec").value() == json::parse(R"({"a": [1, 2]})"));
  CHECK(jr::parse_text("\n\t [1]", "bad spec").value() == json::array({1}));

  const auto err = [](const std::string& text) {
    const auto r = jr::parse_text(text, "bad spec");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().field.empty());  // the whole input is at fault, not a key
    return r.error().message;
  };
  CHECK(err(R"({"a": 1,})") == "bad spec: syntax error at byte 8 near '}'");
  CHECK(err(R"({"a": 1} extra)") == "bad spec: syntax error at byte 9 near 'extra'");
  CHECK(err(R"({"a": )") == "bad spec: syntax error at byte 6 (end of input)");
  CHECK(err("") == "bad spec: syntax error at byte 0 (end of input)");
  // The quote shows bytes below 0x20 and above 0x7F as '?': one line, and no half characters.
  CHECK(err("{\"a\": \"x\ty\"}") == "bad spec: syntax error at byte 8 near '?y\"}'");
  CHECK(err("{\"a\": x\"\xc3\xa9\"}") == "bad spec: syntax error at byte 6 near 'x\"??\"}'");
  // A number too large for a double is named as such, with the number.
  const std::string overflow = err(R"({"a": -1e999})");
  CHECK(overflow.rfind("bad spec: number overflow at byte ", 0) == 0);
  CHECK(overflow.find("near '-1e999'") != std::string::npos);
  // Not JSON at all (a key file given by mistake): not quoted back.
  CHECK(err("-----BEGIN PRIVATE KEY-----\nsecret") == "bad spec: it does not begin with '{'");
  CHECK(err("  key=value") == "bad spec: it does not begin with '{'");
  // Too deep: refused before the parser builds anything.
  CHECK(err(std::string(100000, '[')) == "bad spec: nested deeper than 32 levels at byte 32");
}

TEST_CASE("parse_text: a lone surrogate names the top-level key whose value holds it", "[json_read]") {
  const auto refused = [](const std::string& text) {
    const auto r = jr::parse_text(text, "bad spec");
    REQUIRE_FALSE(r.ok());
    return r.error();
  };
  // A high half with no low half after it, a low half alone, one inside a list or deeper.
  for (const char* text : {R"({"seed": 3, "sentence": "a\ud800b"})", R"({"sentence": "\udc00"})",
                           R"({"sentence": "\ud800\u0041"})"}) {
    INFO(text);
    const attention::Error e = refused(text);
    CHECK(e.field == "sentence");
    CHECK(e.message.rfind("sentence: is not text: it holds a lone surrogate", 0) == 0);
  }
  CHECK(refused(R"({"tokens": ["a", "\ud800"]})").field == "tokens");
  CHECK(refused(R"({"spec": {"sentence": "\ud800"}})").field == "spec");
  // In a key, or between the values, no key holds it: the whole input is at fault.
  CHECK(refused(R"({"sentence": "a", "\ud800": 1})").field.empty());
  CHECK(refused(R"(["\ud800"])").field.empty());
  // A pair is text.
  CHECK(jr::parse_text(R"({"sentence": "\ud83d\ude00"})", "bad spec").ok());
}

TEST_CASE("parse_request: an object, or the usage line", "[json_read]") {
  CHECK(jr::parse_request(R"({"spec": {}})", "usage: {\"spec\": ...}").value() == json::parse(R"({"spec": {}})"));
  for (const char* text : {"[1]", "[]", "  [{}]"}) {
    INFO(text);
    const auto r = jr::parse_request(text, "usage: {\"spec\": ...}");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "usage: {\"spec\": ...}");
    CHECK(r.error().field.empty());
  }
  // A syntax error keeps its position after the usage line.
  CHECK(jr::parse_request("{", "usage").error().message == "usage: syntax error at byte 1 (end of input)");
}
