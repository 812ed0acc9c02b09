#pragma once
// The trained model's weights as built into the native programs (models/tiny-lm.bin).
#include "attention/model/language_model.hpp"

namespace attention {

// The built-in weights, read (the tests check that they always read).
LanguageModel built_in_model();

}  // namespace attention
