#!/usr/bin/env bash
# npm run fuzz -- SECONDS: fuzzes the spec parser and the run for SECONDS (default 60) with
# libFuzzer + ASan + UBSan, starting from tests/fuzz/corpus/. Exits non-zero on any finding;
# the crashing input is left in build/fuzz/findings/ (make it a regression test in
# tests/cpp/io/robustness.test.cpp and a corpus file).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
work=build/fuzz/corpus findings=build/fuzz/findings
rm -rf "$work" && mkdir -p "$work" "$findings"
cp tests/fuzz/corpus/* "$work"/   # libFuzzer adds to its corpus; keep the committed one unchanged
build/fuzz/attention-fuzz "$work" -max_total_time="$seconds" -max_len=8192 -rss_limit_mb=2048 \
  -timeout=10 -artifact_prefix="$findings/" -print_final_stats=1 -dict=tests/fuzz/spec.dict 2>&1 | tail -25
