#pragma once
// How one number of a trace came to be, with the real numbers: the dot product term by term,
// the scaling, the exponentials and their sum. The page shows this when a learner clicks a
// cell; computing it here keeps the page free of math of its own.
#include <string>

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

}  // namespace attention
