#pragma once
// JSON text read and written without nlohmann's parser and serializer. The first heatmap's
// module reads and writes JSON with these alone, which made its download 20 KB gzip smaller: the
// parser came with the C library's strtod and its long-double arithmetic, and the serializer,
// whose escapes it writes with snprintf, with the C library's printf. Both wasm modules write
// their answers with write_json, so that the two write the same text.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace attention {

// The JSON a page writes (JSON.stringify of a spec), read into the value nlohmann's parser gives
// for it, to the bit and to the kind of number (a whole number without a sign is unsigned, with
// one signed, any other a double); nothing for the rest: text that is not JSON, a number it
// cannot round exactly (a significand beyond 2^53, a power of ten beyond 10^±22, a whole number
// of over 19 digits), a string that is not UTF-8 or holds a lone surrogate, nesting deeper than
// limits::max_json_depth. What it refuses, nlohmann reads or refuses with its message.
std::optional<nlohmann::json> read_json_subset(const std::string& text);

// `j` as JSON text, byte for byte as nlohmann's dump() writes it (compact, UTF-8 kept, control
// characters escaped). A byte that is not UTF-8 is written as U+FFFD (dump's replacing handler
// groups such bytes otherwise; the core's own strings are UTF-8).
std::string write_json(const nlohmann::json& j);

// `code` in hexadecimal, in at least four digits, as JSON's "\u001f" and a message's "U+001F" write it.
std::string hex4(unsigned code, bool upper = false);

}  // namespace attention
