#!/usr/bin/env bash
# Builds the core to WebAssembly (preset `wasm`) and puts the modules where the web code imports them.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
cmake --preset wasm >/dev/null
cmake --build --preset wasm
mkdir -p web/src/core/wasm
cp build/wasm/attention-core.mjs build/wasm/attention-core.wasm build/wasm/attention-train.mjs build/wasm/attention-train.wasm web/src/core/wasm/
