// Text from a spec written into Python source, run by Debian's /usr/bin/python3: each hostile
// string comes back from its literal as the same string, and no comment lets a line of its
// text run as code.
#include "attention/io/python_source.hpp"

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "support.hpp"

using nlohmann::json;
using attention::python_comment;
using attention::python_string;

namespace {
// Runs `program` with Debian's Python; its exit status and what it printed (stdout and stderr).
std::pair<int, std::string> python(const std::string& program) {
  static int counter = 0;
  const std::string path = "/tmp/attention-python-source-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".py";
  { std::ofstream(path, std::ios::binary) << program; }
  FILE* p = ::popen(("/usr/bin/python3 " + path + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, got);
  const int status = ::pclose(p);
  std::remove(path.c_str());
  return {status, out};
}

// Every byte a space or printable ASCII: nothing can end the line, and the file's encoding
// cannot matter.
bool printable_ascii(const std::string& s) {
  for (const char c : s) {
    if (c < 0x20 || c > 0x7E) return false;
  }
  return true;
}

const std::string kReplacement = "\xef\xbf\xbd";  // U+FFFD in UTF-8

// Valid UTF-8 that would break out of a literal, or change what it means, if written as is.
const std::vector<std::string> kHostile = {
    "",
    "'",
    "\\",
    "ends in a backslash\\",
    "\\'",
    "'''",
    "\"\"\"",
    "'; import os; os._exit(7); '",
    "\\N{BULLET} \\x41 \\u0041 \\n",  // Python's own escapes, as text: must stay backslashes
    "{0} %s {__import__('os')}",
    "\n",
    "\r\n",
    "\r",
    std::string("a\0b", 3),
    "\t\x0b\x0c\x1b[31m\x7f",
    "\xc2\x85",          // U+0085, next line
    "\xe2\x80\xa8\xe2\x80\xa9",  // U+2028, U+2029
    "\xef\xbb\xbf",      // U+FEFF, a byte-order mark
    "\xe2\x80\xae" "abc",  // U+202E turns the text right to left
    "caf\xc3\xa9 \xe4\xb8\xad",
    "\xf0\x9f\x98\x80",  // U+1F600, beyond 16 bits
    "\xf4\x8f\xbf\xbf",  // U+10FFFF, the last code point
};
}  // namespace

TEST_CASE("python_string: every literal is one printable ASCII line in single quotes", "[python_source]") {
  for (const std::string& s : kHostile) {
    const std::string lit = python_string(s);
    INFO(lit);
    CHECK(printable_ascii(lit));
    REQUIRE(lit.size() >= 2);
    CHECK(lit.front() == '\'');
    CHECK(lit.back() == '\'');
  }
}

TEST_CASE("python_string: Python reads each hostile string back unchanged", "[python_source][python]") {
  std::string program = "import json, sys\nvalues = [\n";
  for (const std::string& s : kHostile) program += "    " + python_string(s) + ",\n";
  program += "]\nsys.stdout.write(json.dumps([[type(v).__name__, v] for v in values]))\n";
  const auto [status, out] = python(program);
  INFO(program << "\n--- python said ---\n" << out);
  REQUIRE(status == 0);
  const json back = json::parse(out);
  REQUIRE(back.size() == kHostile.size());
  for (std::size_t i = 0; i < kHostile.size(); ++i) {
    INFO("string " << i << ": " << python_string(kHostile[i]));
    CHECK(back[i][0] == "str");
    CHECK(back[i][1].get<std::string>() == kHostile[i]);
  }
}

TEST_CASE("python_string: each byte that is not UTF-8 becomes one U+FFFD", "[python_source][python]") {
  const std::string r = kReplacement;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\xff", r},
      {"a\xc0\xaf" "b", "a" + r + r + "b"},  // an overlong '/'
      {"\xed\xa0\x80", r + r + r},             // a UTF-16 surrogate
      {"\xf4\x90\x80\x80", r + r + r + r},     // past U+10FFFF
      {"ok\xe2\x82", "ok" + r + r},            // cut short at the end
      {"\x80\xc3\xa9", r + "\xc3\xa9"},        // a stray continuation byte before a good character
  };
  std::string program = "import json, sys\nvalues = [\n";
  for (const auto& [bytes, text] : cases) program += "    " + python_string(bytes) + ",\n";
  program += "]\nsys.stdout.write(json.dumps(values))\n";
  const auto [status, out] = python(program);
  INFO(program << "\n--- python said ---\n" << out);
  REQUIRE(status == 0);
  const json back = json::parse(out);
  REQUIRE(back.size() == cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i << ": " << python_string(cases[i].first));
    CHECK(printable_ascii(python_string(cases[i].first)));
    CHECK(back[i].get<std::string>() == cases[i].second);
  }
}

TEST_CASE("python_comment: the comment ends where its line does", "[python_source][python]") {
  // If any of these reached Python unescaped, the line after the break would exit with 3 (or
  // the file would not compile: Python refuses a null byte in source).
  const std::string run = "import sys; sys.exit(3)";
  std::vector<std::string> texts = {"\n" + run, "\r" + run, "\r\n" + run, "\xe2\x80\xa8" + run, "\xc2\x85" + run,
                                    "\x0c" + run, std::string("\0", 1) + run, "\\\n" + run, "\xff\n" + run};
  for (const std::string& s : kHostile) texts.push_back(s);
  std::string program = "x = 1\n";
  for (const std::string& t : texts) {
    const std::string c = python_comment(t);
    INFO(c);
    CHECK(c.rfind("# ", 0) == 0);
    CHECK(printable_ascii(c));
    program += c + "\n";
  }
  program += "print(x)\n";
  const auto [status, out] = python(program);
  INFO(program << "\n--- python said ---\n" << out);
  CHECK(status == 0);
  CHECK(out == "1\n");
  // Printable ASCII stays as it is, so the comment still reads as the text.
  CHECK(python_comment("Spec: {\"sentence\": \"a b\"}") == "# Spec: {\"sentence\": \"a b\"}");
  CHECK(python_comment("line\nbreak") == "# line\\u000abreak");
}
