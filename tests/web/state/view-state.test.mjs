// A link's view (the token and head followed, the layer, the steppers' steps) and its settings:
// a key given twice is named in a note, with the value read, and the last is read everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';

const { splitView } = await importTSTree('web/src/state/view-state.ts');
const { fromHash } = await importTSTree('web/src/state/settings.ts');

test('a setting given twice is named, and the last is read', () => {
  const r = fromHash('#sentence=a&seed=3&sentence=b');
  assert.equal(r.state.sentence, 'b');
  assert.equal(r.state.seed, 3);
  assert.deepEqual(r.problems, ['"sentence" is given 2 times: the last ("b") was read']);
  assert.deepEqual(fromHash('#seed=1&seed=2&seed=5').problems, ['"seed" is given 3 times: the last ("5") was read']);
  assert.deepEqual(fromHash('#seed=1&heads=2').problems, []);
  // a hostile value is quoted as text, cut short
  const long = fromHash(`#sentence=x&sentence=${encodeURIComponent('<b>"'.repeat(40))}`).problems[0];
  assert.ok(long.length < 120 && long.includes('\\"'), long);
});

test('a view key given twice is named, and the last is read, as the settings read theirs', () => {
  const { rest, view, problems } = splitView('#head=1&sentence=a&head=2&layer=2&relative=1&relative=0');
  assert.equal(view.head, 2);
  assert.equal(view.layer, 2);
  assert.equal(view.relative, false);
  assert.equal(rest, 'sentence=a');
  assert.deepEqual(problems, ['"head" is given 2 times: the last ("2") was read', '"relative" is given 2 times: the last ("0") was read']);
  assert.deepEqual(splitView('#head=-1').problems, ['head="-1" is not valid']);
  assert.deepEqual(splitView('#head=3&layer=2').problems, []);
});
