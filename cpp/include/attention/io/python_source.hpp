#pragma once
// Writing Python source: the one place where text from a spec (tokens, and the spec itself)
// becomes part of a program that someone will run. Everything it writes is plain ASCII, so no
// text can end a literal, start a new line, or change how Python decodes the file.
#include <string>

namespace attention {

// A single-quoted Python str literal equal to `utf8`: quotes, backslashes, control characters
// and every non-ASCII character escaped (\xNN, \uNNNN, \UNNNNNNNN); a byte that is not UTF-8
// becomes U+FFFD.
std::string python_string(const std::string& utf8);

// A one-line comment ("# " + text) in which every character outside printable ASCII is
// written as \uNNNN, so the comment ends where the line does.
std::string python_comment(const std::string& text);

// A float literal that reads back as exactly `v` (%.17g); v must be finite.
std::string python_number(double v);

}  // namespace attention
