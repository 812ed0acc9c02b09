#pragma once
// The trained model's weights as built into the native programs (models/tiny-lm.bin).
#include "attention/model/language_model.hpp"

namespace attention {

// Reads the built-in weights and installs them as the model `model: "tiny-lm"` names.
void install_built_in_model();

}  // namespace attention
