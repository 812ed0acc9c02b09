// Numbers pasted into a matrix, in Node: a spreadsheet's block, a CSV, NumPy's print and JSON all
// read as the same rows; one word that is not a number refuses the whole paste, naming it; and
// the part of a block that fits the matrix from the cell it was pasted at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';

const { readPasted, fit } = await importTSTree('web/src/state/pasted.ts');

test('a block reads the same from a spreadsheet, a CSV, NumPy\'s print and JSON', () => {
  const rows = [[0.1, -2], [3e-3, 4]];
  for (const text of ['0.1\t-2\n0.003\t4\n', '0.1, -2\r\n0.003, 4', '[[ 0.1   -2.   ]\n [ 0.003  4.   ]]', '[[0.1, -2], [0.003, 4]]', '  0.1 ; -2 \n\n 3e-3 ; 4 ']) {
    assert.deepEqual(readPasted(text), { rows }, JSON.stringify(text));
  }
  assert.deepEqual(readPasted('[5, 1, 20]'), { rows: [[5, 1, 20]] }, 'a vector is one row');
});

test('anything that is not a number refuses the whole paste, and says what', () => {
  const r = readPasted('1\t2\n3\t=HYPERLINK("x")');
  assert.match(r.problem, /“=HYPERLINK\("x"\)” \(line 2\) is not a number, so nothing was pasted/);
  assert.equal(r.rows, undefined);
  for (const text of ['', '  \n ', '[]']) assert.match(readPasted(text).problem, /no numbers/, JSON.stringify(text));
  assert.match(readPasted('1 Infinity').problem, /Infinity/);
  assert.ok(readPasted('x'.repeat(500)).problem.length < 120, 'the word is cut in the message');
});

test('what fits the matrix from the pasted cell is kept, and what did not is counted', () => {
  const block = [[1, 2, 3], [4, 5, 6], [7, 8, 9]];
  assert.deepEqual(fit(block, 4, 4, 2, 2), { kept: [[1, 2], [4, 5]], rowsLeft: 1, colsLeft: 1 });
  assert.deepEqual(fit(block, 3, 3, 0, 0), { kept: block, rowsLeft: 0, colsLeft: 0 });
});
