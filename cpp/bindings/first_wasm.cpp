// The first heatmap's module: a spec in, its packed trace out, and nothing else of the core
// (no NumPy program, derivation, entropy, training or trained model), built from the core's
// sources compiled without what only the whole core computes (ATTENTION_FIRST_HEATMAP, which it
// refuses under the field "core"), so that a shared link or an embed downloads and compiles
// two fifths less before its first heatmap. The whole core (attention_wasm.cpp) is loaded after
// it and takes over; both run the same code, so their numbers are the same to the bit.
// Built twice: attention-first.wasm, and attention-first-model.wasm (ATTENTION_FIRST_MODEL),
// which also installs the trained model and runs it (without the probe's scores), for a post's
// first screen of the model (web/src/ui/pages/first-screen.ts): the model's code is 12 KB gzip
// that no other post or link downloads.
// Its calls are plain C, which the page instantiates and calls itself (web/src/core/first-module.ts),
// without embind's runtime or Emscripten's: its JS went from 7.1 KB gzip to 2.9 with the first,
// and to a part of the page's code with the second, all of it before a post's first heatmap.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <string>

#include "packed_trace.hpp"

namespace {
std::string answer;  // the last call's JSON, read by the page before its next call
#ifdef ATTENTION_FIRST_MODEL
const bool runs_model = (attention::run_trained_traces(), true);
#endif
}  // namespace

extern "C" {

// (a spec's length is given: a NUL inside it is the parser's to refuse, as in the whole core)
EMSCRIPTEN_KEEPALIVE const char* first_run_packed(const char* spec, std::size_t length) {
  answer = run_packed(std::string(spec, length));
  return answer.c_str();
}

EMSCRIPTEN_KEEPALIVE const double* first_packed_data() { return packed.data(); }
EMSCRIPTEN_KEEPALIVE std::size_t first_packed_size() { return packed.size(); }
EMSCRIPTEN_KEEPALIVE void first_drop_packed() { drop_packed(); }

#ifdef ATTENTION_FIRST_MODEL
// The weights file's bytes -> {"card": null} (or an error): installs the trained model.
EMSCRIPTEN_KEEPALIVE const char* first_load_model(const char* bytes, std::size_t length) {
  answer = load_model(std::string(bytes, length));
  return answer.c_str();
}
#endif

EMSCRIPTEN_KEEPALIVE const char* first_work(const char* spec, std::size_t length) {
  answer = work(std::string(spec, length));
  return answer.c_str();
}

}  // extern "C"
