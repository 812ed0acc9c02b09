// The first heatmap's module's JSON reader and writer against nlohmann's parser and dump: what
// the reader reads, it reads to the same value, kind of number and bit, and what it cannot read
// exactly, it refuses; the writer writes what dump writes, byte for byte.
#include "attention/io/json_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "attention/io/json_read.hpp"
#include "attention/io/spec.hpp"
#include "attention/io/trace_json.hpp"
#include "json_identical.hpp"
#include "support.hpp"

using nlohmann::json;
using attention::read_json_subset;

namespace {
// nlohmann's reading, as the whole core does it.
json theirs(const std::string& text) {
  const auto j = attention::json_read::read_json(text);
  REQUIRE(j);
  return *j;
}
}  // namespace

TEST_CASE("json_text: read: the JSON a page writes is read as nlohmann reads it", "[json_text]") {
  const std::vector<std::string> texts = {
      R"({"sentence":"The animal did not cross the street because it was tired","heads":2,"d_model":8,"seed":7})",
      R"({"scale":0.5,"temperature":-1.25e-3,"x":1E5,"y":2.5e+3,"z":-0.0,"w":0,"v":-0,"u":0e7,"t":-7,"s":9999999999999999999})",
      R"({"a":[],"b":{},"c":[[1,2],[3.25,-4]],"d":[true,false,null],"e":"","f":{"g":{"h":[1]}}})",
      R"({"sentence":"é 日本 😀 \"quoted\" back\\slash \/ \b\f\n\r\t \u00e9\u65e5\ud83d\ude00 \u0000 nul"})",
      " \t\r\n{ \"k\" : [ 1 , 2 ] } \n",
      R"({"k":1,"k":2})",  // the last value, as nlohmann keeps it
      std::string(R"({"sentence": "a b"})") + '\0' + "anything",  // nlohmann stops at a NUL
      "[0.1,0.2,0.3,1e-7,123456789012345,9007199254740992,4.5e-21,1e22,0.000001]",
  };
  for (const auto& text : texts) {
    INFO(text);
    const auto mine = read_json_subset(text);
    REQUIRE(mine);
    CHECK(support::identical(*mine, theirs(text)));
  }
  // the kinds of number, as nlohmann gives them
  const auto j = *read_json_subset(R"([1,-1,1.0,-0])");
  CHECK(j[0].is_number_unsigned());
  CHECK((j[1].is_number_integer() && !j[1].is_number_unsigned()));
  CHECK(j[2].is_number_float());
  CHECK((j[3].is_number_integer() && !j[3].is_number_unsigned()));
}

TEST_CASE("json_text: read: every default of the settings table and every fixture's spec", "[json_text]") {
  for (const auto& row : attention::settings()) {
    if (!*row.fallback) continue;
    INFO(row.key);
    const auto mine = read_json_subset(row.fallback);
    REQUIRE(mine);
    CHECK(support::identical(*mine, theirs(row.fallback)));
  }
  int read = 0, cases = 0;
  const json fixtures = support::load_fixture("attention.json");  // (kept: a range-for over a temporary's member would outlive it)
  for (const auto& c : fixtures["cases"]) {
    const std::string text = c["spec"].dump();  // shortest round-trip numbers, as JSON.stringify writes them
    INFO(text);
    ++cases;
    if (const auto mine = read_json_subset(text)) {
      CHECK(support::identical(*mine, theirs(text)));
      ++read;
    }
  }
  CHECK(read >= cases - 1);  // one fixture's scale, 1/6, has 17 digits
}

TEST_CASE("json_text: read: what it cannot read exactly, it refuses", "[json_text]") {
  const std::vector<std::string> texts = {
      "0.30000000000000004", "0.16666666666666666", "1e23", "1.5e-23", "12345678901234567890", "-9223372036854775809",
      "9007199254740993.0", R"("\ud800")", R"("\udc00")", R"("\ud800\u0041")", "\"\xC0\x80\"", "\"\xED\xA0\x80\"",
      "\"\xF5\x80\x80\x80\"", "\"\xE2\x82\"", "\"a\x01\"", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "-", "tru",
      "{} x", "", "  ", "[1] [2]", "{\"a\" 1}", "{1:2}", "\"\\x\"", "\"\\u12g4\"", "\"open",
      std::string(33, '[') + std::string(33, ']'),
  };
  for (const auto& text : texts) {
    INFO(text);
    CHECK_FALSE(read_json_subset(text));
  }
  // nesting as deep as the core allows is read
  CHECK(read_json_subset(std::string(32, '[') + std::string(32, ']')));
}

TEST_CASE("json_text: read: random numbers, in every way of writing them, are refused or read to nlohmann's bit", "[json_text]") {
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> mantissa(-10, 10);
  std::uniform_int_distribution<int> power(-30, 30), precision(1, 17);
  int read = 0;
  for (int i = 0; i < 20000; ++i) {
    const double x = mantissa(rng) * std::pow(10.0, power(rng));
    const int digits = precision(rng);
    char text[64];
    std::snprintf(text, sizeof text, i % 2 ? "%.*g" : "%.*e", digits - 1, x);
    INFO(text);
    const auto mine = read_json_subset(text);
    if (mine) {
      ++read;
      REQUIRE(support::identical(*mine, theirs(text)));
    } else if (i % 2 == 0) {  // d.ddde±N: refused only with over 15 digits or beyond 10^±22
      const int exponent = std::atoi(std::strchr(text, 'e') + 1) - (digits - 1);
      CHECK((digits > 15 || exponent < -22 || exponent > 22));
    }
  }
  CHECK(read > 5000);
  for (long long k : {0LL, 1LL, -1LL, 4294967295LL, -9223372036854775807LL, 9223372036854775807LL}) {
    const std::string text = std::to_string(k);
    const auto mine = read_json_subset(text);
    REQUIRE(mine);
    CHECK(support::identical(*mine, theirs(text)));
  }
}

TEST_CASE("json_text: write: byte for byte what dump writes", "[json_text]") {
  json j = json::parse(R"({"b":[1,-2,0.1,1e300,-0.0,5e-324,1.7976931348623157e308,12345678901234567890,true,false,null,[],{}],
      "a":"quote \" back \\ slash / \b\f\n\r\t \u0001 \u001f \u007f é 日本 😀"})");
  j["nan"] = std::nan("");
  j["infinity"] = HUGE_VAL;
  j["control \u0000 key"] = "\u0000";
  CHECK(attention::write_json(j) == j.dump());
  // every byte alone, every one of a thousand random doubles, and the core's own output
  for (int b = 0; b < 0x80; ++b) {
    const json one = std::string(1, static_cast<char>(b));
    CHECK(attention::write_json(one) == one.dump());
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    const json one = x;
    REQUIRE(attention::write_json(one) == one.dump());
  }
  const json trace = attention::run_trace_text(R"({"sentence": "The cat, \"it\" said, é 日本", "heads": 2, "positional": "rope"})");
  REQUIRE_FALSE(trace.contains("error"));
  CHECK(attention::write_json(trace) == trace.dump());
}

TEST_CASE("json_text: write: bytes that are not UTF-8 become U+FFFD, and the text is still JSON", "[json_text]") {
  const json bad = std::string("a\xFF" "b\xC3\xED\xA0\x80" "c");  // a lone byte, a cut character, a surrogate
  const std::string out = attention::write_json(bad);
  CHECK(out == "\"a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "c\"");
  CHECK(json::parse(out) == "a\uFFFDb\uFFFD\uFFFD\uFFFD\uFFFDc");
}

TEST_CASE("json_text: hex4", "[json_text]") {
  CHECK(attention::hex4(0x1f) == "001f");
  CHECK(attention::hex4(0x9b, true) == "009B");
  CHECK(attention::hex4(0) == "0000");
  CHECK(attention::hex4(0x1F600) == "1f600");
}
