// keepUnchanged (web/src/core/unchanged.ts): a new trace takes the previous trace's objects for
// the matrices whose numbers did not change, and only for those.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';
import { importTSTree } from '../e2e/typescript.mjs';

const { keepUnchanged } = await importTSTree('web/src/core/unchanged.ts');
const { PACKED, lazyRows } = await importTSTree('web/src/core/packed.ts');

const core = await load();

test('typing keeps the weights objects and replaces what the sentence changes', () => {
  const before = core.trace({ sentence: 'the cat sat', heads: 2, d_model: 8 });
  const after = core.trace({ sentence: 'the cat sat down', heads: 2, d_model: 8 });
  const expected = structuredClone(after);
  const shared = keepUnchanged(before, after);
  for (const k of ['W_q', 'W_k', 'W_v', 'W_o']) assert.equal(shared[k], before[k], k);
  for (const k of ['X', 'Q', 'output']) assert.notEqual(shared[k], before[k], k);
  assert.notEqual(shared.weights[0], before.weights[0]);
  assert.deepEqual(shared, expected);  // the numbers are the new trace's, wherever they come from
});

test('large matrices are compared in their packed numbers, without building their rows', () => {
  const before = core.trace({ sentence: 'one two', d_model: 256 });
  const after = core.trace({ sentence: 'one two three', d_model: 256 });
  assert.ok(after.W_q[PACKED], 'a 256 x 256 matrix is lazy');
  const shared = keepUnchanged(before, after);
  assert.equal(shared.W_q, before.W_q);
  assert.notEqual(shared.X, before.X);
  // two such matrices that count the rows they build
  const built = [];
  const lazy = (numbers) => {
    const m = lazyRows(256, (r) => { built.push(r); return Array.from(numbers.subarray(r * 256, (r + 1) * 256)); });
    return Object.defineProperty(m, PACKED, { value: { numbers, at: 0, rows: 256, cols: 256, factor: 1 } });
  };
  const numbers = Float64Array.from({ length: 256 * 256 }, (_, i) => i / 7);
  const previous = { W: lazy(numbers) };
  assert.equal(keepUnchanged(previous, { W: lazy(numbers.slice()) }).W, previous.W);
  assert.deepEqual(built, [], 'no row was built');
});

test('a changed seed, a changed number, -0 for 0 or another shape is not kept', () => {
  const a = core.trace({ sentence: 'a b', seed: 1 });
  assert.notEqual(keepUnchanged(a, core.trace({ sentence: 'a b', seed: 2 })).W_q, a.W_q);
  const m = { M: [[1, 2], [3, 4]], v: [0, 1] };
  assert.notEqual(keepUnchanged(m, { M: [[1, 2], [3, 5]], v: [0, 1] }).M, m.M);
  assert.equal(keepUnchanged(m, { M: [[1, 2], [3, 4]], v: [0, 1] }).v, m.v);
  assert.notEqual(keepUnchanged(m, { M: [[1, 2], [3, 4]], v: [-0, 1] }).v, m.v);
  assert.notEqual(keepUnchanged(m, { M: [[1, 2]], v: [0, 1] }).M, m.M);
  assert.notEqual(keepUnchanged(m, { M: [[1, 2, 0], [3, 4, 0]], v: [0, 1] }).M, m.M);
  assert.equal(keepUnchanged(m, { M: [[1, 2], [3, 4]], v: [0, 1] }).M, m.M);
  assert.deepEqual(keepUnchanged(null, { M: [[1]] }), { M: [[1]] });
  assert.deepEqual(keepUnchanged({ M: 'text' }, { M: [[1]] }), { M: [[1]] });
});

test("the trained model's trace: a copy per layer, every matrix built when read, the weights kept without building them", async () => {
  await core.loadModel();
  const spec = { model: 'tiny-lm', sentence: 'the cat sat on the mat' };
  const before = core.trace(spec);
  const buffer = (m) => m[PACKED]?.numbers;
  for (const layer of before.layers) for (const m of [layer.X, layer.W_q, layer.mask, layer.weights[0]]) assert.ok(buffer(m), 'lazy');
  assert.equal(buffer(before.layers[0].X), buffer(before.layers[0].weights[3]), 'one copy for the layer');
  assert.notEqual(buffer(before.layers[0].X), buffer(before.layers[1].X));
  const after = core.trace({ ...spec, sentence: 'the cat sat on the hat' });
  const shared = keepUnchanged(before, after);
  assert.equal(shared.layers[1].W_q, before.layers[1].W_q);
  assert.notEqual(shared.layers[1].X, before.layers[1].X);
  assert.deepEqual(JSON.parse(JSON.stringify(core.trace(spec))), core.run(spec), 'the numbers run gives');
});

test("the trained model's trace keeps its numbers when the core is called again, reusing or growing its memory", async () => {
  await core.loadModel();
  const spec = { model: 'tiny-lm', sentence: 'the cat sat on the mat' };
  const trace = core.trace(spec);
  const numbers = () => trace.layers[1].weights[2][PACKED].numbers;
  const inWasm = numbers().buffer;  // read where the core wrote them, until they are settled
  core.trace({ model: 'tiny-lm', sentence: 'another sentence of about that length' });
  core.trace({ sentence: Array.from({ length: 300 }, (_, i) => `w${i}`).join(' '), d_model: 256 });
  assert.notEqual(numbers().buffer, inWasm, 'copied out before the next call');
  assert.deepEqual(JSON.parse(JSON.stringify(trace)), core.run(spec));

  // and, with no call after it, once the task that made it is over
  const alone = core.trace(spec), memory = alone.layers[0].X[PACKED].numbers.buffer;
  await new Promise((r) => setTimeout(r, 20));
  assert.notEqual(alone.layers[0].X[PACKED].numbers.buffer, memory);
  assert.deepEqual(JSON.parse(JSON.stringify(alone)), core.run(spec));
});
