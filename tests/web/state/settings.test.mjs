// The playground's settings table: every labelled row of the core's table is a control, a hash
// key and an attribute; a value is read or refused as the table says; a state goes to a link and
// back unchanged; the spec holds what the core reads (the window spelled in the mask, layer norm
// with the residual, no d_model beside a given X); a bad entry is named, never thrown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';

const s = await importTSTree('web/src/state/settings.ts');
const def = (key) => s.SETTINGS.find((d) => d.key === key);

test('every labelled row of the core\'s table is a control, a hash key and an attribute', () => {
  const labelled = s.CORE_SETTINGS.filter((c) => c.label).map((c) => c.key);
  assert.ok(labelled.length > 20);
  for (const key of labelled) {
    assert.ok(def(key), `${key} has a control`);
    assert.equal(s.KEY_OF_ATTRIBUTE.get(s.attributeOf(key)), key, `${key} has an attribute`);
  }
  for (const key of s.MATRIX_KEYS) assert.equal(s.KEY_OF_ATTRIBUTE.get(s.attributeOf(key)), key);
  assert.equal(s.attributeOf('W_q'), 'w-q');
  assert.equal(s.attributeOf('d_model'), 'd-model');
});

test('the matrices a link or an attribute may give are the core table\'s matrix and vector rows', () => {
  const rows = s.CORE_SETTINGS.filter((c) => c.kind === 'matrix' || c.kind === 'vector').map((c) => c.key);
  assert.deepEqual([...s.MATRIX_KEYS], rows);
  for (const key of ['X', 'W_q', 'W_a', 'v_a', 'decoder_state', 'X_source']) assert.ok(s.MATRIX_KEYS.includes(key), key);
  // A vector row is read flat, a matrix row by rows.
  const read = s.readEntries([['W_a', '[[1,2],[3,4]]', 'W_a'], ['v_a', '[5,6]', 'v_a'], ['W_1', '[1,2]', 'W_1']]);
  assert.deepEqual(read.overrides.W_a, [[1, 2], [3, 4]]);
  assert.deepEqual(read.overrides.v_a, [5, 6]);
  assert.equal(read.overrides.W_1, undefined);
  assert.match(read.problems.join('\n'), /W_1/);
});

test('a value is read as its kind says, and refused otherwise', () => {
  const heads = def('heads');
  assert.equal(s.parseValue(heads, '4'), 4);
  for (const bad of ['-1', '2.5', 'four', '', `${heads.max + 1}`]) assert.equal(s.parseValue(heads, bad), undefined, bad);
  const residual = def('residual');
  assert.deepEqual(['', 'true', '1', 'false', '0', 'yes'].map((t) => s.parseValue(residual, t)), [true, true, true, false, false, undefined]);
  const score = def('score');
  assert.equal(s.parseValue(score, 'additive'), 'additive');
  assert.equal(s.parseValue(score, 'cosine'), undefined);
  assert.equal(s.parseValue(def('temperature'), 'Infinity'), undefined);
  assert.equal(s.parseValue(def('sentence'), '<b>hi</b>'), '<b>hi</b>', 'text is kept as text');
});

test('a state goes to a link and comes back the same, matrices included', () => {
  const state = { ...s.defaults(), seed: 7, heads: 2, d_model: 8, mask: 'causal_window', window: 3, residual: true, sentence: 'a b & c' };
  const overrides = { W_q: [[1, 2], [3, 4]] };
  const hash = s.toHash(state, overrides);
  assert.doesNotMatch(hash, /d_k/, 'only what differs from the defaults');
  const back = s.fromHash(`#${hash}`);
  assert.deepEqual(back.problems, []);
  assert.deepEqual(back.state, state);
  assert.deepEqual(back.overrides, overrides);
  assert.equal(s.toHash(s.defaults()), '', 'the defaults make an empty link');
});

test('the spec is what the core reads', () => {
  const state = { ...s.defaults(), mask: 'causal_window', window: 3, residual: true };
  const spec = s.toSpec(state);
  assert.equal(spec.mask, 'causal_window:3');
  assert.equal(spec.layer_norm, true, 'layer norm comes with the residual');
  assert.equal(spec.model, undefined, 'random weights: the core\'s default, left out');
  assert.equal(spec.d_k, undefined, 'an empty field is the core\'s default');
  const X = [[1, 2, 3], [4, 5, 6]];
  const given = s.toSpec({ ...s.defaults(), d_model: 8 }, { X });
  assert.equal(given.d_model, undefined, 'a given X fixes the width: no d_model beside it');
  assert.deepEqual(given.X, X);
  assert.equal(s.givenWidth({ X }), 3);
  // a mask spelled as a spec spells it is read as the mask and its window
  const read = s.fromHash('#mask=window:4');
  assert.equal(read.state.mask, 'window');
  assert.equal(read.state.window, 4);
  // a given X shows its width in the (locked) control
  assert.equal(s.fromHash(`#X=${encodeURIComponent(JSON.stringify(X))}`).state.d_model, 3);
});

test('a bad entry is named under what the reader wrote, and the rest is read', () => {
  const r = s.readEntries([['heads', 'many', 'heads'], ['colour', 'red', 'colour'], ['seed', '9', 'seed'], ['X', '[[1,2],[3]]', 'x']]);
  assert.equal(r.state.seed, 9);
  assert.equal(r.state.heads, s.defaults().heads);
  assert.equal(r.problems.length, 3);
  assert.match(r.problems[0], /^heads="many" is not valid/);
  assert.match(r.problems[1], /"colour" is not a setting/);
  assert.match(r.problems[2], /\bx\b/);
  assert.deepEqual(r.read, ['seed']);
  assert.equal(r.overrides.X, undefined);
  // a key given twice: the last is read, and the link says so
  const twice = s.fromHash('#seed=1&seed=2');
  assert.equal(twice.state.seed, 2);
  assert.match(twice.problems.join(' '), /"seed" is given 2 times: the last \("2"\) was read/);
});
