#!/usr/bin/env bash
# npm run train-model: trains the playground's language model and writes models/tiny-lm.bin
# (committed), then the fixtures that check it against PyTorch and the model card in the
# README. Deterministic: the same package version and steps give the same file, bit for bit.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh model
cmake --preset native >/dev/null
cmake --build --preset native -j2 --target attention-train-model
version=$(dpkg-query -W -f='${Version}' fortunes)
build/native/attention-train-model /usr/share/games/fortunes "$version" models/tiny-lm.bin cpp/src/model/tiny_lm_merges.cpp "${STEPS:-5000}"
# The core now holds the merges just learned: build it again before anything reads the model.
cmake --build --preset native -j2
/usr/bin/python3 tests/fixtures/make_lm_fixtures.py
node scripts/model-card.mjs --write
