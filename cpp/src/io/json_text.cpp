#include "attention/io/json_text.hpp"

#include <cmath>
#include <cstdint>

#include "attention/core/limits.hpp"
#include "attention/io/tokenize.hpp"

namespace attention {

using nlohmann::json;

namespace {

// Every power of ten a double holds exactly: one multiplication or division by one of them
// rounds a significand of at most 2^53 as strtod does (Clinger's fast path).
constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                              1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
constexpr int kMaxPower = 22;
constexpr std::uint64_t kExact = std::uint64_t{1} << 53;

void append_utf8(std::string& s, unsigned cp) {
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// JSON's escapes of one character: escape, character.
constexpr char kEscapes[] = "\"\"\\\\//b\bf\fn\nr\rt\t";

struct Reader {
  const std::string& text;
  const char* p;
  const char* end;
  std::size_t depth = 0;

  bool at(char c) const { return p < end && *p == c; }
  bool digit() const { return p < end && *p >= '0' && *p <= '9'; }
  void space() {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
  }
  bool word(const char* w) {
    for (; *w; ++w, ++p) {
      if (!at(*w)) return false;
    }
    return true;
  }

  bool value(json& out) {
    space();
    if (at('{')) return object(out);
    if (at('[')) return array(out);
    if (at('"')) {
      std::string s;
      if (!string(s)) return false;
      out = std::move(s);
      return true;
    }
    if (at('t')) return out = true, word("true");
    if (at('f')) return out = false, word("false");
    if (at('n')) return out = nullptr, word("null");
    return number(out);
  }

  bool object(json& out) {
    if (++depth > limits::max_json_depth) return false;
    ++p;
    out = json::object();
    space();
    if (at('}')) return ++p, --depth, true;
    for (;;) {
      std::string key;
      space();
      if (!at('"') || !string(key)) return false;
      space();
      if (!at(':')) return false;
      ++p;
      if (!value(out[key])) return false;  // a key given twice: the last value, as nlohmann keeps it
      space();
      if (at('}')) return ++p, --depth, true;
      if (!at(',')) return false;
      ++p;
    }
  }

  bool array(json& out) {
    if (++depth > limits::max_json_depth) return false;
    ++p;
    out = json::array();
    space();
    if (at(']')) return ++p, --depth, true;
    for (;;) {
      json item;
      if (!value(item)) return false;
      out.push_back(std::move(item));
      space();
      if (at(']')) return ++p, --depth, true;
      if (!at(',')) return false;
      ++p;
    }
  }

  bool read_hex4(unsigned& out) {
    out = 0;
    for (int i = 0; i < 4; ++i, ++p) {
      if (p == end) return false;
      const char c = *p;
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) return false;
      out = out * 16 + static_cast<unsigned>(d);
    }
    return true;
  }

  bool string(std::string& s) {
    ++p;  // the opening quote
    for (;;) {
      if (p == end) return false;
      const auto c = static_cast<unsigned char>(*p);
      if (c == '"') return ++p, true;
      if (c < 0x20) return false;  // a control character must be escaped
      if (c == '\\') {
        if (++p == end) return false;
        const char e = *p++;
        bool found = false;
        for (const char* q = kEscapes; *q; q += 2) {
          if (e == q[0]) {
            s += q[1];
            found = true;
          }
        }
        if (found) continue;
        if (e != 'u') return false;
        unsigned cp;
        if (!read_hex4(cp) || (cp >= 0xDC00 && cp <= 0xDFFF)) return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {  // the high half of a pair: its low half must follow
          unsigned low;
          if (!word("\\u") || !read_hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(s, cp);
        continue;
      }
      char32_t cp;  // UTF-8 as RFC 3629 allows it
      const std::size_t n = decode_utf8(text, static_cast<std::size_t>(p - text.data()), cp);
      if (n == 0) return false;
      s.append(p, n);
      p += n;
    }
  }

  bool number(json& out) {
    const bool negative = at('-');
    if (negative) ++p;
    if (!digit()) return false;
    std::uint64_t w = 0;  // the significant digits
    int digits = 0, exponent = 0;
    bool whole = true;
    const auto take = [&](bool fraction) {
      const int d = *p++ - '0';
      if (fraction) --exponent;
      if (digits == 0 && d == 0) return true;  // a leading zero
      if (++digits > 19) return false;  // beyond what 64 bits hold
      w = w * 10 + static_cast<std::uint64_t>(d);
      return true;
    };
    if (at('0')) {
      ++p;
      if (digit()) return false;  // no leading zeros in JSON
    } else {
      while (digit()) {
        if (!take(false)) return false;
      }
    }
    if (at('.')) {
      whole = false;
      ++p;
      if (!digit()) return false;
      while (digit()) {
        if (!take(true)) return false;
      }
    }
    if (at('e') || at('E')) {
      whole = false;
      ++p;
      const bool down = at('-');
      if (at('-') || at('+')) ++p;
      if (!digit()) return false;
      int e = 0;
      while (digit()) {
        e = e * 10 + (*p++ - '0');
        if (e > 1000) return false;
      }
      exponent += down ? -e : e;
    }
    if (whole) {  // as nlohmann keeps it: unsigned without a sign, signed with one
      if (!negative) return out = w, true;
      if (w > static_cast<std::uint64_t>(INT64_MAX)) return false;
      return out = -static_cast<std::int64_t>(w), true;
    }
    if (w > kExact || exponent < -kMaxPower || exponent > kMaxPower) return w == 0 && (out = negative ? -0.0 : 0.0, true);
    double d = static_cast<double>(w);
    d = exponent < 0 ? d / kPowers[-exponent] : d * kPowers[exponent];
    out = negative ? -d : d;
    return true;
  }
};

void write_string(std::string& out, const std::string& s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp;
    const std::size_t n = decode_utf8(s, i, cp);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    const char* escape = nullptr;
    for (const char* q = kEscapes; *q; q += 2) {
      if (cp == static_cast<unsigned char>(q[1]) && q[0] != '/') escape = q;  // dump leaves '/' as it is
    }
    if (escape) {
      out += '\\';
      out += escape[0];
    } else if (cp <= 0x1F) {
      out += "\\u" + hex4(cp);
    } else {
      out.append(s, i, n);
    }
    i += n;
  }
  out += '"';
}

void write(std::string& out, const json& j) {
  switch (j.type()) {
    case json::value_t::object: {
      out += '{';
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (it != j.begin()) out += ',';
        write_string(out, it.key());
        out += ':';
        write(out, *it);
      }
      out += '}';
      return;
    }
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const json& item : j) {
        if (!first) out += ',';
        first = false;
        write(out, item);
      }
      out += ']';
      return;
    }
    case json::value_t::string:
      return write_string(out, j.get_ref<const std::string&>());
    case json::value_t::boolean:
      out += j.get<bool>() ? "true" : "false";
      return;
    case json::value_t::number_integer:
      out += std::to_string(j.get<std::int64_t>());
      return;
    case json::value_t::number_unsigned:
      out += std::to_string(j.get<std::uint64_t>());
      return;
    case json::value_t::number_float: {
      const double x = j.get<double>();
      if (!std::isfinite(x)) {
        out += "null";  // as dump writes NaN and the infinities
        return;
      }
      char digits[64];
      out.append(digits, nlohmann::detail::to_chars(digits, digits + sizeof digits, x));  // dump's shortest round trip
      return;
    }
    default:
      out += "null";  // null (a discarded value and binary data never reach here)
  }
}

}  // namespace

std::string write_json(const json& j) {
  std::string out;
  write(out, j);
  return out;
}

std::string hex4(unsigned code, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[code & 15]);
    code >>= 4;
  } while (code != 0 || s.size() < 4);
  return s;
}

std::optional<json> read_json_subset(const std::string& text) {
  Reader r{text, text.data(), text.data() + text.size()};
  json out;
  if (!r.value(out)) return std::nullopt;
  r.space();
  if (r.p != r.end && *r.p != '\0') return std::nullopt;  // nlohmann's lexer reads a NUL as the end of the text
  return out;
}

}  // namespace attention
