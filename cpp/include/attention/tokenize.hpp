#pragma once
// Splitting a typed sentence into tokens: words, numbers and punctuation marks. UTF-8 safe:
// a multi-byte character (accent, CJK ideograph, emoji with its modifiers) is never cut.
#include <string>
#include <vector>

#include "attention/error.hpp"

namespace attention {

// Words are runs of letters, digits, combining marks and inner apostrophes or hyphens
// ("don't", "well-known"); every punctuation mark, symbol, CJK ideograph or emoji cluster is
// a token of its own; white space separates. Invalid UTF-8 and too many tokens are errors
// naming `field`.
Result<std::vector<std::string>> tokenize(const std::string& sentence,
                                          const std::string& field = "sentence");

}  // namespace attention
