#include "attention/io/tokenize.hpp"

#include <cstdint>

#include "attention/core/limits.hpp"

namespace attention {

namespace {

enum class Kind { space, word, joiner, mark, alone, extend };

}  // namespace

std::size_t decode_utf8(const std::string& s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t len;
  char32_t min;
  if (c < 0x80) { cp = c; return 1; }
  if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
  else return 0;
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

namespace {

bool in(char32_t cp, char32_t lo, char32_t hi) { return cp >= lo && cp <= hi; }

bool is_control(char32_t cp) { return cp < 0x20 || in(cp, 0x7F, 0x9F); }

Kind classify(char32_t cp) {
  if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\f' || cp == '\v' ||
      cp == 0x85 || cp == 0xA0 || cp == 0x1680 || in(cp, 0x2000, 0x200A) || cp == 0x2028 ||
      cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF)
    return Kind::space;
  if (is_control(cp)) return Kind::space;  // control characters separate, like space
  if (cp < 0x80) {
    if ((cp >= '0' && cp <= '9') || (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z') ||
        cp == '_')
      return Kind::word;
    if (cp == '\'' || cp == '-') return Kind::joiner;
    return Kind::alone;
  }
  if (cp == 0x2019) return Kind::joiner;  // typographic apostrophe: "don’t"
  // Combining marks, variation selectors, zero-width joiner and emoji skin tones extend
  // the character before them rather than starting a token.
  if (in(cp, 0x0300, 0x036F) || in(cp, 0x1AB0, 0x1AFF) || in(cp, 0x1DC0, 0x1DFF) ||
      in(cp, 0x20D0, 0x20FF) || in(cp, 0xFE00, 0xFE0F) || in(cp, 0xFE20, 0xFE2F) ||
      cp == 0x200D || in(cp, 0x1F3FB, 0x1F3FF) || in(cp, 0xE0020, 0xE007F) ||
      in(cp, 0xE0100, 0xE01EF))
    return Kind::extend;
  // Marks of Indic and other abugida scripts behave like combining marks within a word.
  if (in(cp, 0x0900, 0x0DFF) && !in(cp, 0x0964, 0x0965)) return Kind::word;
  // Punctuation and symbol blocks: each is a token of its own.
  if (in(cp, 0x80, 0xBF) || cp == 0xD7 || cp == 0xF7 || in(cp, 0x2010, 0x2027) ||
      in(cp, 0x2030, 0x205E) || in(cp, 0x20A0, 0x20CF) || in(cp, 0x2100, 0x2BFF) ||
      in(cp, 0x3001, 0x303F) || in(cp, 0xFF01, 0xFF0F) || in(cp, 0xFF1A, 0xFF20) ||
      in(cp, 0xFF3B, 0xFF40) || in(cp, 0xFF5B, 0xFF65) || in(cp, 0x1F000, 0x1FAFF) ||
      in(cp, 0x1F1E6, 0x1F1FF))
    return Kind::mark;
  // Scripts written without spaces: one token per character, so a Chinese or Japanese
  // sentence gives one token per ideograph or kana.
  if (in(cp, 0x3040, 0x30FF) || in(cp, 0x3400, 0x4DBF) || in(cp, 0x4E00, 0x9FFF) ||
      in(cp, 0xF900, 0xFAFF) || in(cp, 0x20000, 0x3134F) || in(cp, 0x0E00, 0x0E7F))
    return Kind::alone;
  return Kind::word;  // other letters: Latin with accents, Greek, Cyrillic, Arabic, Hangul ...
}

bool regional_indicator(char32_t cp) { return in(cp, 0x1F1E6, 0x1F1FF); }

}  // namespace

std::optional<Error> too_long(const std::string& sentence, const std::string& field) {
  if (sentence.size() <= limits::max_sentence_bytes) return std::nullopt;
  return error_at(field, "is " + std::to_string(sentence.size()) + " bytes long; the limit is " +
                             std::to_string(limits::max_sentence_bytes) + " bytes");
}

Result<std::vector<std::string>> tokenize(const std::string& sentence, const std::string& field) {
  if (auto bad = too_long(sentence, field)) return *bad;
  std::vector<std::string> tokens;
  std::string current;
  Kind current_kind = Kind::space;  // kind of the token being built
  char32_t last_cp = 0;
  bool pending_joiner = false;  // an apostrophe or hyphen after a word, kept only if a word follows
  std::string joiner_bytes;

  const auto flush = [&] {
    if (!current.empty()) tokens.push_back(current);
    current.clear();
    current_kind = Kind::space;
  };
  const auto flush_joiner = [&] {
    if (pending_joiner) {
      flush();
      tokens.push_back(joiner_bytes);
      pending_joiner = false;
      joiner_bytes.clear();
    }
  };

  for (std::size_t i = 0; i < sentence.size();) {
    char32_t cp;
    const std::size_t len = decode_utf8(sentence, i, cp);
    if (len == 0) {
      return error_at(field, "is not valid UTF-8 (byte " + std::to_string(i) + ")");
    }
    const std::string bytes = sentence.substr(i, len);
    i += len;
    Kind kind = classify(cp);

    if (kind == Kind::extend) {
      if (pending_joiner) flush_joiner();
      if (current.empty()) {  // a stray mark: a token of its own
        current = bytes;
        current_kind = Kind::mark;
      } else {
        current += bytes;
      }
      last_cp = cp;
      continue;
    }
    // A ZWJ glues the next pictograph into the same emoji cluster (family, profession ...).
    if (last_cp == 0x200D && current_kind == Kind::mark && kind == Kind::mark) {
      current += bytes;
      last_cp = cp;
      continue;
    }
    // Two regional indicators form one flag.
    if (regional_indicator(cp) && regional_indicator(last_cp) && current_kind == Kind::mark &&
        current.size() == 4) {
      current += bytes;
      last_cp = 0;  // a third indicator starts a new flag
      continue;
    }
    last_cp = cp;

    if (kind == Kind::joiner) {
      if (current_kind == Kind::word && !pending_joiner) {
        pending_joiner = true;
        joiner_bytes = bytes;
        continue;
      }
      flush_joiner();
      flush();
      tokens.push_back(bytes);
      continue;
    }
    if (kind == Kind::word) {
      if (pending_joiner) {  // "don" + "'" + "t": the joiner stays inside the word
        current += joiner_bytes;
        pending_joiner = false;
        joiner_bytes.clear();
      } else if (current_kind != Kind::word) {
        flush();
      }
      current += bytes;
      current_kind = Kind::word;
      continue;
    }
    flush_joiner();
    flush();
    if (kind == Kind::space) continue;
    current = bytes;
    current_kind = Kind::mark;  // alone and mark both start a single-character token
  }
  flush_joiner();
  flush();

  for (const auto& t : tokens) {
    if (t.size() > limits::max_token_bytes) {
      return error_at(field, "has a token of " + std::to_string(t.size()) +
                                 " bytes; the limit is " + std::to_string(limits::max_token_bytes));
    }
  }
  if (tokens.size() > limits::max_tokens) {
    return error_at(field, "has " + std::to_string(tokens.size()) + " tokens; the limit is " +
                               std::to_string(limits::max_tokens));
  }
  return tokens;
}

std::optional<char32_t> control_character(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t len = decode_utf8(text, i, cp);
    if (len == 0) return std::nullopt;  // not UTF-8: tokenize() refuses it first
    if (is_control(cp)) return cp;
    i += len;
  }
  return std::nullopt;
}

}  // namespace attention
