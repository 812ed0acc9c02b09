// Which colour scale a matrix of a trace is drawn on, in Node: a group of the schema shares one
// range (the largest |x| of its members), the scores' range leaves out what the mask hides,
// weights are drawn over 0 to 1, and each trace's ranges are its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../../e2e/typescript.mjs';

const { scaleOf } = await importTSTree('web/src/ui/shared/ranges.ts');
const { diverging, SEQUENTIAL } = await importTSTree('web/src/ui/shared/colour.ts');

const same = (a, b) => assert.deepEqual(JSON.stringify(a), JSON.stringify(b));

test('a group shares the largest |x| of its members; the masked scores do not stretch the range', () => {
  const t = { W_q: [[1, -2]], W_k: [[-5, 0]], W_v: [[3, 1]], X: [[0.5]], scores: [[[1, 9], [2, 3]]], mask: [[1, 0], [1, 1]], weights: [[[1, 0]]] };
  same(scaleOf(t, 'W_q'), diverging(5));
  same(scaleOf(t, 'W_v'), scaleOf(t, 'W_k'));
  same(scaleOf(t, 'X'), diverging(0.5));
  same(scaleOf(t, 'scores'), diverging(3), 'the hidden 9 is left out');
  assert.equal(scaleOf(t, 'weights'), SEQUENTIAL);
});

test('a new trace holding the same matrices has the same range; a changed member changes it', () => {
  const W_q = [[1, -2]], W_k = [[4, 0]], W_v = [[0, 1]];
  const first = { W_q, W_k, W_v };
  same(scaleOf(first, 'W_q'), diverging(4));
  same(scaleOf({ W_q, W_k, W_v, X: [[1]] }, 'W_q'), diverging(4));
  same(scaleOf({ W_q, W_k: [[7, 0]], W_v }, 'W_q'), diverging(7), 'a changed member changes the group\'s range');
});
