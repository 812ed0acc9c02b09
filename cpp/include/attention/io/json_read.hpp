#pragma once
// Reading settings from JSON (the spec, the training settings) without exceptions: every value
// is type-checked before nlohmann's get<> (which would throw, and the wasm build has none), and
// every refusal is one line naming the key, quoting the bad value briefly.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attention/core/error.hpp"
#include "attention/io/spec.hpp"

namespace attention::json_read {

using nlohmann::json;

// User text quoted in a message: control characters escaped as JSON writes them (a message is
// one line), at most `max` bytes, cut on a character boundary so it stays valid UTF-8.
std::string clip(const std::string& text, std::size_t max);

// A bad value, quoted: scalars as JSON, containers by kind only (dumping a hostile, deeply
// nested value would recurse without bound).
std::string show(const json& v);

// A whole number in [lo, hi]; 4.0 counts as 4, 4.5 does not.
bool integral(const json& v, std::int64_t lo, std::int64_t hi, std::int64_t& out);

Result<long> get_int(const json& j, const char* key, long lo, long hi);
Result<double> get_number(const json& j, const char* key);  // finite
Result<std::string> get_string(const json& j, const char* key);
Result<bool> get_bool(const json& j, const char* key);
Result<std::string> get_choice(const json& j, const char* key, const std::vector<std::string>& choices);

// The first key of `j` that is not in `table`: "<key>: is not a <what> key<hint>".
std::optional<Error> unknown_key(const json& j, const std::vector<Setting>& table, const std::string& what,
                                 const std::string& hint = "");

// Where `text` nests arrays and objects deeper than limits::max_json_depth ("nested deeper
// than 32 levels at byte N"), or nothing; strings are skipped, and the text need not be JSON.
std::optional<std::string> too_deep(const std::string& text);

// Parses `text`; on failure "<refusal>: syntax error at byte N near '...'". Too deep a text is
// refused before parsing, and one that does not begin like JSON is not quoted back.
Result<json> parse_text(const std::string& text, const std::string& refusal);

// `text` as JSON, or nothing where it is not JSON: json::parse without its callback parser, which
// nothing here gives and which json::parse carries all the same (with the messages of the
// exceptions it may throw, 3 KB gzip of the first heatmap's module). The first heatmap's module
// reads JSON without nlohmann's parser (json_text.hpp), and leaves what that refuses to the
// whole core (parse_text refuses it under "core").
std::optional<json> read_json(const std::string& text);

// A request to one of the core's entry points: a JSON object, or the error `usage`.
Result<json> parse_request(const std::string& text, const std::string& usage);

}  // namespace attention::json_read
