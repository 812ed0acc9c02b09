// The learner's rows of X as the sentence is edited, in Node: each word keeps the row the
// learner gave it (matched in order, so an inserted word shifts nothing), a new word takes the
// seed's row and is named, a word taken out is named and comes back with its row, and a row
// still the seed's follows the seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';

const { fitRows, ownRows } = await importTSTree('web/src/state/rows.ts');

const seedOf = (tokens) => tokens.map((_, j) => [100 + j, 100 + j]);  // a seed row per position, told apart

test('an inserted word takes the seed\'s row; the others keep the learner\'s, in order', () => {
  const own = ownRows(['the', 'cat'], [[1, 1], [2, 2]]);
  const tokens = ['the', 'big', 'cat'];
  const f = fitRows(own, tokens, seedOf(tokens), 'X');
  assert.deepEqual(f.matrix, [[1, 1], [101, 101], [2, 2]]);
  assert.deepEqual(f.fromSeed, [false, true, false]);
  assert.equal(f.note, 'Added a row of X for “big” from the seed; kept your 2 rows.');
});

test('a word taken out is named, and comes back with its row; a repeated word shares it', () => {
  const own = ownRows(['a', 'b', 'c'], [[1, 0], [2, 0], [3, 0]]);
  const out = fitRows(own, ['a', 'c'], seedOf(['a', 'c']), 'X');
  assert.deepEqual(out.matrix, [[1, 0], [3, 0]]);
  assert.match(out.note, /left out your row for “b” \(back if the word is\)/);
  const back = fitRows(own, ['a', 'b', 'c', 'b'], seedOf(['a', 'b', 'c', 'b']), 'X');
  assert.deepEqual(back.matrix, [[1, 0], [2, 0], [3, 0], [2, 0]]);
  assert.equal(back.note, '', 'nothing added or left out: nothing to say');
});

test('a row still the seed\'s follows the seed; one the learner changed is theirs', () => {
  const tokens = ['x', 'y'];
  const fitted = { matrix: [[5, 5], [101, 101]], fromSeed: [false, true] };
  const rows = ownRows(tokens, [[5, 5], [101, 101]], fitted);
  assert.deepEqual(rows.rows, [[5, 5], null]);
  const edited = ownRows(tokens, [[5, 5], [7, 7]], fitted);
  assert.deepEqual(edited.rows, [[5, 5], [7, 7]]);
});
