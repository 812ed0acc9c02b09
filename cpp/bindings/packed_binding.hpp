#pragma once
// The packed trace's calls through embind, for the whole core (attention_wasm.cpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "packed_trace.hpp"

namespace {

emscripten::val packed_numbers() { return emscripten::val(emscripten::typed_memory_view(packed.size(), packed.data())); }

// Called in the module's EMSCRIPTEN_BINDINGS block.
inline void bind_packed_trace() {
  emscripten::function("run_packed", &run_packed);
  emscripten::function("packed_numbers", &packed_numbers);
  emscripten::function("drop_packed", &drop_packed);
  emscripten::function("work", &work);
}

}  // namespace
