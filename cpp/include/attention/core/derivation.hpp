#pragma once
// How one number of a trace came to be, with the real numbers: the dot product term by term,
// the scaling, the exponentials and their sum. The page shows this when a learner clicks a
// cell; computing it here keeps the page free of math of its own.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "attention/core/error.hpp"
#include "attention/core/spec.hpp"

namespace attention {

// matrix: "scores", "weights" or "output" (self mode); "scores" or "weights" (encoder_decoder,
// where row is 0). head/row/col index the trace's arrays. Only the cell's query row is worked
// out (for output, that row in every head), over its heads' keys and values: never the whole
// trace. Its numbers are the trace's: bit for bit where Eigen multiplies coefficient by
// coefficient, within a few units in the last place where it blocks the trace's n rows at once.
Result<nlohmann::json> derive(const Spec& spec, const std::string& matrix, long head, long row, long col);

// What derive() writes, record by record: the page's types are written from these
// (scripts/core-types.mjs) and a test holds every derivation to them. A field's type is
// "number", "integer", "string", "boolean", "true", a quoted literal ("\"W_o\""), another
// record's name, any of them followed by "[]" (a list of them), or several joined by " | ".
struct DerivedField {
  const char* key;
  const char* type;
  bool optional = false;
};
struct DerivedRecord {
  DerivedRecord(const char* name, const char* about, std::vector<const char*> extends, std::vector<DerivedField> fields,
                std::vector<std::vector<DerivedField>> one_of = {}, const char* alias = "")
      : name(name), about(about), extends(std::move(extends)), fields(std::move(fields)), one_of(std::move(one_of)), alias(alias) {}
  const char* name;
  const char* about;
  std::vector<const char*> extends;              // records whose fields it has too
  std::vector<DerivedField> fields;
  std::vector<std::vector<DerivedField>> one_of;  // and one of these sets of fields besides
  const char* alias;                              // instead of fields: a type ("A | B"), or ""
};
// Each record after those it names; the last is a whole derivation.
const std::vector<DerivedRecord>& derivation_schema();

}  // namespace attention
