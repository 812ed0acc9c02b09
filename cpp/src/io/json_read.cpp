#include "attention/io/json_read.hpp"

#include <algorithm>
#include <cmath>

#include "attention/core/limits.hpp"
#include "attention/io/json_text.hpp"

namespace attention::json_read {

// User text quoted in a message: control characters escaped as JSON writes them (a message is
// one line), at most `max` bytes, cut on a character boundary so it stays valid UTF-8.
std::string clip(const std::string& raw, std::size_t max) {
  std::string s;
  const auto escape = [&](unsigned code) { s += "\\u" + hex4(code); };
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const auto b = static_cast<unsigned char>(raw[i]);
    const auto next = i + 1 < raw.size() ? static_cast<unsigned char>(raw[i + 1]) : 0;
    if (b < 0x20 || b == 0x7F) {
      escape(b);
    } else if (b == 0xC2 && next >= 0x80 && next <= 0x9F) {  // C1 controls: a terminal reads U+009B as CSI
      escape(next);
      ++i;
    } else {
      s += raw[i];
    }
  }
  if (s.size() <= max) return s;
  std::size_t end = max - 3;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end) + "...";
}

std::string show(const json& v) {
  if (v.is_array()) return v.empty() ? "[]" : "an array";
  if (v.is_object()) return v.empty() ? "{}" : "an object";
  return clip(write_json(v), 40);
}

bool integral(const json& v, std::int64_t lo, std::int64_t hi, std::int64_t& out) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned()) {
      const auto u = v.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(hi)) return false;
      out = static_cast<std::int64_t>(u);
    } else {
      out = v.get<std::int64_t>();
    }
    return out >= lo && out <= hi;
  }
  if (v.is_number_float()) {  // 4.0 is accepted as 4; 4.5 is not
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) ||
        d > static_cast<double>(hi))
      return false;
    out = static_cast<std::int64_t>(d);
    return true;
  }
  return false;
}

Result<long> get_int(const json& j, const char* key, long lo, long hi) {
  std::int64_t v;
  if (!integral(j.at(key), lo, hi, v)) {
    return error_at(key, "must be a whole number from " + std::to_string(lo) + " to " +
                             std::to_string(hi) + ", got " + show(j.at(key)));
  }
  return static_cast<long>(v);
}

Result<double> get_number(const json& j, const char* key) {
  const json& v = j.at(key);
  if (!v.is_number()) return error_at(key, "must be a number, got " + show(v));
  const double d = v.get<double>();
  if (!std::isfinite(d)) return error_at(key, "must be finite");
  return d;
}

Result<std::string> get_string(const json& j, const char* key) {
  const json& v = j.at(key);
  if (!v.is_string()) return error_at(key, "must be a string, got " + show(v));
  return v.get<std::string>();
}

Result<bool> get_bool(const json& j, const char* key) {
  const json& v = j.at(key);
  if (!v.is_boolean()) return error_at(key, "must be true or false, got " + show(v));
  return v.get<bool>();
}

Result<std::string> get_choice(const json& j, const char* key, const std::vector<std::string>& choices) {
  std::string list;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  }
  const json& v = j.at(key);
  if (v.is_string()) {
    for (const auto& c : choices) {
      if (v.get<std::string>() == c) return c;
    }
  }
  return error_at(key, "must be " + list + ", got " + show(v));
}

std::optional<Error> unknown_key(const json& j, const std::vector<Setting>& table, const std::string& what,
                                 const std::string& hint) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const bool known = std::any_of(table.begin(), table.end(), [&](const Setting& s) { return it.key() == s.key; });
    if (!known) return error_at(clip(it.key(), 40), "is not a " + what + " key" + hint);
  }
  return std::nullopt;
}

#ifndef ATTENTION_FIRST_HEATMAP
namespace {

// Only consulted after a failed parse, to say where the JSON went wrong (the wasm build has
// no exceptions, so the parser's own exception cannot carry the position).
struct WhereItFailed : nlohmann::json_sax<json> {
  explicit WhereItFailed(const std::string& text) : text(text) {}
  const std::string& text;
  std::string message;
  std::string field;  // the top-level key whose value held the error, where the error is that value's own
  // The top-level key whose value is being read ("" between values), so that text that is no
  // text (a lone surrogate) names the setting it was given for, as any other bad value does.
  std::size_t depth = 0;
  std::string reading;
  bool value() {
    if (depth == 1) reading.clear();
    return true;
  }
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return ++depth, true; }
  bool key(string_t& k) override {
    if (depth == 1) reading = k;
    return true;
  }
  bool end_object() override { return --depth, value(); }
  bool start_array(std::size_t) override { return ++depth, true; }
  bool end_array() override { return --depth, value(); }
  bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& ex) override {
    const bool overflow = std::string(ex.what()).find("number overflow") != std::string::npos;
    const std::size_t at = std::min(position > 0 ? position - 1 : 0, text.size());  // 0-based
    if (std::string(ex.what()).find("surrogate") != std::string::npos && !reading.empty()) {
      field = clip(reading, 40);
      message = "is not text: it holds a lone surrogate (\\ud800 to \\udfff: half of a UTF-16 pair) near byte " + std::to_string(at);
      return false;
    }
    std::string near = overflow ? last_token : text.substr(at, 12);
    for (char& c : near) if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x80) c = '?';  // bytes of unknown validity
    message = std::string(overflow ? "number overflow" : "syntax error") + " at byte " + std::to_string(at) +
              (near.empty() ? " (end of input)" : " near '" + near + "'");
    return false;
  }
};

}  // namespace
#endif

std::optional<std::string> too_deep(const std::string& text) {
  std::size_t depth = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '\\') ++i;
      else if (c == '"') quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limits::max_json_depth) {
        return "nested deeper than " + std::to_string(limits::max_json_depth) + " levels at byte " + std::to_string(i);
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

Result<json> parse_text(const std::string& text, const std::string& refusal) {
  // Bounded before parsing: a file of nothing but '[' would otherwise build one node per byte.
  if (const auto deep = too_deep(text)) return error_at("", refusal + ": " + *deep);
  // Text that is not JSON at all (a key file given by mistake) is not quoted back.
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] != '{' && text[first] != '[') {
    return error_at("", refusal + ": it does not begin with '{'");
  }
  if (auto j = read_json(text)) return std::move(*j);
#ifdef ATTENTION_FIRST_HEATMAP
  return needs_whole_core("the reading of this JSON");  // whose message nlohmann's parser gives
#else
  WhereItFailed where(text);
  json::sax_parse(text, &where, nlohmann::detail::input_format_t::json, /*strict=*/true);
  if (!where.field.empty()) return error_at(where.field, where.message);
  return error_at("", refusal + (where.message.empty() ? "" : ": " + where.message));
#endif
}

std::optional<json> read_json(const std::string& text) {
#ifdef ATTENTION_FIRST_HEATMAP
  return read_json_subset(text);
#else
  json j;
  nlohmann::detail::json_sax_dom_parser<json> dom(j, /*allow_exceptions=*/false);
  if (!json::sax_parse(text, &dom, nlohmann::detail::input_format_t::json, /*strict=*/true)) return std::nullopt;
  return j;
#endif
}

Result<json> parse_request(const std::string& text, const std::string& usage) {
  const auto j = parse_text(text, usage);
  if (!j) return j;
  if (!j.value().is_object()) return error_at("", usage);
  return j;
}

}  // namespace attention::json_read
