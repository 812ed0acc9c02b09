#!/usr/bin/env bash
# Builds the core to WebAssembly (preset `wasm`) and puts the modules where the web code imports them.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
cmake --preset wasm >/dev/null
cmake --build --preset wasm
mkdir -p web/src/core/wasm
# (The first heatmap's modules without Emscripten's JS: the page instantiates them itself, core/first-module.ts.)
cp build/wasm/attention-core.mjs build/wasm/attention-core.wasm build/wasm/attention-train.mjs build/wasm/attention-train.wasm \
  build/wasm/attention-first.wasm build/wasm/attention-first-model.wasm web/src/core/wasm/
rm -f web/src/core/wasm/attention-first.mjs web/src/core/wasm/attention-first-model.mjs
# The trained model's weights, fetched by the page in model mode only (web/src/core/model-weights.ts), and
# the fortunes it read, fetched by /learn/'s language-model task only.
cp models/tiny-lm.bin models/tiny-lm-train.txt models/tiny-lm-held-out.txt web/src/core/wasm/
