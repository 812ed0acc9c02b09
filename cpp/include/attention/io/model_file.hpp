#pragma once
// The trained model's weights file, written by `npm run train-model` and the /learn/ page's
// trainer, read by the CLI (built in), the page and the first heatmap's module.
#include <string>

#include "attention/core/error.hpp"
#include "attention/model/language_model.hpp"

namespace attention {

// The weights file: one line of JSON (format, shape, merges, vocab, tensors and their shapes, card),
// then every tensor in the order of named(), as its rows' float32 scales and its numbers in int8
// (io/int8_rows.hpp). The model computes in double from exactly the numbers those give.
std::string write_model(const LanguageModel& model);
Result<LanguageModel> read_model(const std::string& bytes);

}  // namespace attention
