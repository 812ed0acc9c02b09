#pragma once
// The spec as JSON: the same JSON goes into the CLI, the wasm run(), the URL hash and the
// element's attributes; `settings()` is the one table of its keys, from which parsing, defaults
// and the documentation are derived (the Spec itself: core/spec.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "attention/core/error.hpp"
#include "attention/core/prose.hpp"
#include "attention/core/scalar.hpp"
#include "attention/core/spec.hpp"

namespace attention {


struct Setting;

// How a plain setting's value lives in a Spec: the parser's loop reads it in (the given value, or
// the row's default), to_json writes it back (null: not written). Settings whose value decides
// others (the tokens, the sizes, the matrices) have none and are read by named checks.
// (Plain functions, each an instance of a template over the Spec member it reads: as
// std::function, with its type-erased copies, the table's code was 3 KB gzip more.)
struct SpecField {
  std::optional<Error> (*read)(const nlohmann::json& value, const Setting& row, Spec& spec) = nullptr;
  nlohmann::json (*write)(const Spec& spec) = nullptr;
};

// One row of a settings table (the spec's here, the trainer's in trainer.hpp): the parser's
// ranges and choices, `--help`, the binding's settings() and the page's controls all read it.
struct Setting {
  Setting(const char* key, const char* kind, const char* fallback, const char* help, std::vector<std::string> choices = {},
          std::int64_t min = 0, std::int64_t max = 0, const char* modes = "", const char* label = "", SpecField field = {})
      : key(key), kind(kind), fallback(fallback), help(prose(help)), choices(std::move(choices)), min(min), max(max), modes(modes),
        label(prose(label)), field(std::move(field)) {}
  const char* key;
  const char* kind;        // "string", "integer", "number", "share" (0 to 1), "boolean", "enum", "init", "mask", "matrix", ...
  const char* fallback;    // the default, as JSON text ("" when derived)
  const char* help;        // one sentence for the CLI usage and the page's tooltip
  std::vector<std::string> choices;  // enum: every value
  // integer: from min to max; number (a rate, a size): greater than min, at most max. min == max == 0: no range.
  std::int64_t min, max;
  const char* modes;  // the modes it applies to, comma-separated ("" for every mode)
  const char* label;  // the page's control for it ("": the page shows none)
  SpecField field;    // where the spec keeps it, for the rows the parser reads in a loop
};
const std::vector<Setting>& settings();
const Setting& setting(const std::string& key);  // a row of settings(); the key must be in it

Result<Spec> parse_spec(const nlohmann::json& j);

#ifdef ATTENTION_FIRST_HEATMAP
// Makes a first heatmap's module read the trained model's specs (it refuses them otherwise,
// under "core"): called by the one built for posts on the trained model (first_wasm.cpp).
void read_trained_specs();
#endif

// parse_spec without the work limit below: for what only draws the spec's parameters and runs
// no attention (the page reads X for a sentence of any length); it bounds the drawing itself.
Result<Spec> parse_spec_unbounded(const nlohmann::json& j);

// The numbers a parsed spec works through, counted before any arithmetic: what the size limit
// is checked against and what the page weighs to compute on the spot or in a worker.
struct Work {
  std::size_t pairs;    // grows with tokens x tokens: scores, weights, the mask, decode and online steps
  std::size_t by_size;  // grows with tokens x d_model: the matrices with a row per token, the weights
  std::size_t cells() const { return pairs + by_size; }
};
Work work_of(const Spec& spec);
Result<Spec> parse_spec_text(const std::string& text);

// The spec with every default filled in, as JSON: what the trace echoes back.
nlohmann::json to_json(const Spec& spec);

}  // namespace attention
