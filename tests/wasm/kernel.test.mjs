// The benchmark kernel in wasm (bench/wasm_bench.cpp): its float path, whose exp goes through
// cpp/wasm-compat's one-instruction conversions, computes the attention its double path does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tol from '../tolerance.mjs';

const { default: createAttentionBench } = await import(new URL('../../build/wasm/attention-bench.mjs', import.meta.url).href);
const kernel = await createAttentionBench();

test('the float kernel agrees with the double kernel, one head and eight', () => {
  for (const [n, d, heads] of [[8, 64, 1], [64, 64, 8], [256, 64, 1], [33, 24, 8]]) {
    const err = kernel.float_agreement(n, d, heads);
    assert.ok(err < tol.floatLongSums, `n=${n} d=${d} heads=${heads}: relative error ${err}`);
  }
});
