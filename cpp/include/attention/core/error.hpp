#pragma once
// Errors are values: a bad spec is reported, never thrown or aborted on, because the wasm
// build has no exceptions and the page must keep working after any input.
#include <optional>
#include <string>
#include <utility>
#include <variant>

// Unwraps a Result into `var`, or returns its error from the enclosing function.
#define ATTENTION_TRY(var, expr)           \
  auto var##_r = (expr);                   \
  if (!var##_r) return var##_r.error();    \
  auto var = std::move(var##_r).value()

namespace attention {

struct Error {
  std::string field;    // the spec key at fault ("" when the whole input is at fault)
  std::string message;  // one line, names the field and what is wrong

  std::string line() const { return message; }
};

inline Error error_at(const std::string& field, const std::string& what) {
  return Error{field, field.empty() ? what : field + ": " + what};
}

// What the first heatmap's module (built with ATTENTION_FIRST_HEATMAP: see CMakeLists.txt)
// leaves to the whole core: refused under the field "core", which the page reads as "wait for
// the whole core", never as the learner's mistake.
inline Error needs_whole_core(const std::string& what) { return error_at("core", what + " is computed by the whole core"); }

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}      // NOLINT: implicit by design
  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T value() && { return std::get<T>(std::move(v_)); }  // by value: safe in range-for on a temporary
  const Error& error() const { return std::get<Error>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace attention
