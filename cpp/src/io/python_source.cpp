#include "attention/io/python_source.hpp"

#include <cstdio>

#include "attention/io/json_text.hpp"
#include "attention/io/tokenize.hpp"

namespace attention {

namespace {

// Each code point of `utf8` (U+FFFD for a byte that is not UTF-8), to `out` as ASCII.
template <class Write>
void each_code_point(const std::string& utf8, Write write) {
  for (std::size_t i = 0; i < utf8.size();) {
    char32_t cp = 0;
    const std::size_t len = decode_utf8(utf8, i, cp);
    write(len ? cp : char32_t{0xFFFD});
    i += len ? len : 1;
  }
}

std::string escaped(char32_t cp) {
  char buf[16];
  if (cp < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
  else if (cp < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  else std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(cp));
  return buf;
}

bool printable_ascii(char32_t cp) { return cp >= 0x20 && cp < 0x7F; }

}  // namespace

std::string python_string(const std::string& utf8) {
  std::string out = "'";
  each_code_point(utf8, [&](char32_t cp) {
    if (cp == '\'' || cp == '\\') out += '\\', out += static_cast<char>(cp);
    else if (printable_ascii(cp)) out += static_cast<char>(cp);
    else out += escaped(cp);
  });
  return out + "'";
}

std::string python_comment(const std::string& text) {
  std::string out = "# ";
  each_code_point(text, [&](char32_t cp) {
    if (printable_ascii(cp)) {
      out += static_cast<char>(cp);
    } else {
      out += "\\u" + hex4(static_cast<unsigned>(cp));  // shown, never read as an escape
    }
  });
  return out;
}

std::string python_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace attention
