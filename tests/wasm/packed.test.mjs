// web/src/core/packed.ts: a matrix whose rows are built when first read is, to every reader,
// the array of those rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../e2e/typescript.mjs';

const { PACKED, lazyRows } = await importTSTree('web/src/core/packed.ts');

test('a lazy matrix builds a row when it is first read, once', () => {
  const built = [];
  const m = lazyRows(4, (r) => { built.push(r); return [r, -r]; });
  assert.ok(Array.isArray(m));
  assert.equal(m.length, 4);
  assert.deepEqual(built, [], 'nothing is built before a row is read');
  assert.deepEqual(m[2], [2, -2]);
  assert.equal(m[2], m[2], 'the row read is kept');
  assert.deepEqual(built, [2]);
  for (const key of [4, -1, '02', '2.0', 'x']) assert.equal(m[key], undefined, `m[${JSON.stringify(key)}] is no row`);
  assert.deepEqual(built, [2]);
});

test('a lazy matrix is read as an array: its methods, `in`, keys, JSON and a mark on it', () => {
  const m = lazyRows(3, (r) => [r, r * 10]);
  Object.defineProperty(m, PACKED, { value: 'mark' });
  assert.equal(m[PACKED], 'mark');
  assert.ok(1 in m && !(3 in m));
  assert.deepEqual(m.map((row) => row[1]), [0, 10, 20], 'map sees the rows not yet built');
  assert.deepEqual(lazyRows(3, (r) => [r]).slice(1), [[1], [2]]);
  assert.deepEqual(lazyRows(2, (r) => [r]).flat(), [0, 1]);
  assert.deepEqual(Object.keys(lazyRows(2, (r) => [r])), ['0', '1']);
  assert.deepEqual([...lazyRows(2, (r) => [r])], [[0], [1]]);
  assert.equal(JSON.stringify(lazyRows(2, (r) => [r, -r])), '[[0,0],[1,-1]]');
  assert.deepEqual(lazyRows(2, (r) => [r]), [[0], [1]]);
});
