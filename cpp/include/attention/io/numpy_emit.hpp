#pragma once
// `attention-cli numpy`: a NumPy-only Python program that rebuilds a spec's trace, so a
// teacher's notebook shows the very numbers the playground shows. Its variables are named
// like the trace keys (X, W_q, Q, scores, weights, output ...).
#include <string>

#include "attention/io/spec.hpp"

namespace attention {

// `model`: the trained model a spec may name (model: "tiny-lm"), none until its weights are read.
struct LanguageModel;
std::string numpy_program(const Spec& spec, const LanguageModel* model = nullptr);
// The parts both programs share: `head_pass`, one head's attention in the core's stages (with
// the scale, temperature and softcap it reads), and `rope`, RoPE's turn of each head's pairs.
std::string numpy_head_pass(const Spec& spec);
std::string numpy_rope(const Spec& spec);
// The trained model's program (model: "tiny-lm"), its weights written into it.
std::string numpy_model_program(const Spec& spec, const LanguageModel& model);

}  // namespace attention
