#pragma once
// Splitting a typed sentence into tokens: words, numbers and punctuation marks. UTF-8 safe:
// a multi-byte character (accent, CJK ideograph, emoji with its modifiers) is never cut.
#include <optional>
#include <string>
#include <vector>

#include "attention/core/error.hpp"

namespace attention {

// Words are runs of letters, digits, combining marks and inner apostrophes or hyphens
// ("don't", "well-known"); every punctuation mark, symbol, CJK ideograph or emoji cluster is
// a token of its own; white space separates. Invalid UTF-8 and too many tokens are errors
// naming `field`.
Result<std::vector<std::string>> tokenize(const std::string& sentence,
                                          const std::string& field = "sentence");

// The refusal of a sentence past limits::max_sentence_bytes (either model's tokens are counted
// only within it: reading a megabyte into word pieces took a third of a second), naming `field`.
std::optional<Error> too_long(const std::string& sentence, const std::string& field);

// Decodes the code point at text[i] into `cp`; returns its byte length, or 0 when the bytes
// there are not well-formed UTF-8 (overlong forms, surrogates and values past U+10FFFF too).
std::size_t decode_utf8(const std::string& text, std::size_t i, char32_t& cp);

// The first control character (C0, DEL or C1) of valid UTF-8 `text`, if it has one.
std::optional<char32_t> control_character(const std::string& text);

}  // namespace attention
