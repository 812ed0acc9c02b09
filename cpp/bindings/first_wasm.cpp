// The first heatmap's module: a spec in, its packed trace out, and nothing else of the core
// (no NumPy program, derivation, entropy, training or trained model), built from the core's
// sources compiled without what only the whole core computes (ATTENTION_FIRST_HEATMAP, which it
// refuses under the field "core"), so that a shared link or an embed downloads and compiles
// two fifths less before its first heatmap. The whole core
// (attention_wasm.cpp) is loaded after it and takes over; both run the same code, so their
// numbers are the same to the bit.
#include <emscripten/bind.h>

#include "packed_binding.hpp"

EMSCRIPTEN_BINDINGS(attention_first) { bind_packed_trace(); }
