// The reader of matrices from a link or an attribute, in Node, fed hostile text: numbers in rows,
// or refused with a reason naming the attribute or key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';

const { readMatrix } = await importTSTree('web/src/state/matrix.ts');

test('a matrix from a link is numbers in rows, or refused with a reason naming it', () => {
  assert.deepEqual(readMatrix('X', '[[1, -0.5], [3, 4e2]]', false), { value: [[1, -0.5], [3, 400]] });
  assert.deepEqual(readMatrix('decoder-state', '[5, 1, 20]', true), { value: [5, 1, 20] });
  const refused = {
    strings: `[["'><script>alert(1)</script>"]]`, object: '{"__proto__": 1}', ragged: '[[1, 2], [3]]', empty: '[]',
    'empty row': '[[]]', huge: '[[1e999]]', 'not JSON': '[[1,', 'flat for a matrix': '[1, 2]', null: 'null',
    deep: '['.repeat(5000) + ']'.repeat(5000), 'deep object': '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
  };
  for (const [what, text] of Object.entries(refused)) {
    const r = readMatrix('w-q', text, false);
    assert.ok('problem' in r, what);
    assert.match(r.problem, /^w-q\b/, what);
  }
  assert.ok('problem' in readMatrix('decoder_state', '[[1, 2]]', true));
  assert.ok('problem' in readMatrix('decoder_state', '[1, "2"]', true));
  // brackets inside a string do not count as nesting
  assert.match(readMatrix('X', '[["[[[[["]]', false).problem, /must be rows of numbers/);
});
