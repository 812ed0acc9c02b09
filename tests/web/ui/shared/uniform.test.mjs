// Whether a head's weights look alike on a 0-to-1 scale (the page then offers to colour each row by
// its own largest), in Node: random weights' near-uniform rows are, a peaked head is not, and the
// rows that see one or two keys (their weight is 1 or a half by construction) are passed over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../../e2e/typescript.mjs';

const { nearUniform } = await importTSTree('web/src/ui/shared/uniform.ts');

const uniform = (n) => Array.from({ length: n }, () => Array(n).fill(1 / n));
const peaked = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j === i ? 0.9 : 0.1 / (n - 1))));
const causal = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j <= i ? 1 : 0)));

test('near-uniform rows are, a head that peaks is not', () => {
  assert.equal(nearUniform([uniform(6)]), true);
  assert.equal(nearUniform([peaked(6)]), false);
  // under a quarter of the rows peaked still reads as near-uniform; half does not
  const mixed = (every) => uniform(8).map((r, i) => (i % every === 0 ? peaked(8)[i] : r));
  assert.equal(nearUniform([mixed(8)]), true);
  assert.equal(nearUniform([mixed(2)]), false);
});

test('under a causal mask the first rows, which see one or two keys, are passed over', () => {
  // causal weights: row i spreads over its i + 1 keys, so rows 0 and 1 put 1 and 0.5 on one key
  const w = causal(6).map((r, i) => r.map((v) => v / (i + 1)));
  assert.equal(nearUniform([w], causal(6)), true);
  // two tokens only: every row is passed over, and nothing is said
  const two = causal(2).map((r, i) => r.map((v) => v / (i + 1)));
  assert.equal(nearUniform([two], causal(2)), false);
});
