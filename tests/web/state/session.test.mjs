// What the element asks the core for, with no page: a matrix the core refuses is replaced by the
// seed's and the rest kept; a link's extra settings beside the trained model are sent, and the
// one the core refuses is left out with its message kept; the learner's rows of X follow the
// sentence's words. Run against the whole core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';
import { load } from '../../../dist/attention.js';

const { followRows, traceKeeping, traceWithExtras, without } = await importTSTree('web/src/state/session.ts');
const { defaults, toSpec } = await importTSTree('web/src/state/settings.ts');

const core = await load();
const now = (spec, then) => then(core.trace(spec));
const outcome = (run, state, overrides) => {
  const seen = [];
  traceKeeping(run, state, overrides, (o) => seen.push(o));
  return seen;
};

test('a matrix of the wrong shape is replaced by the seed\'s; the learner\'s other matrices are kept', () => {
  const state = { ...defaults(), sentence: 'the cat sat', d_model: 4 };
  const X = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]];
  const [o, ...more] = outcome(now, state, { X, W_q: [[1, 2]] });
  assert.equal(more.length, 0, 'one answer');
  assert.equal(o.result.error, undefined);
  assert.equal(o.refusal.field, 'W_q');
  assert.match(o.refusal.message, /W_q/);
  assert.deepEqual(o.refused, ['W_q']);
  assert.deepEqual(o.spec, toSpec(state, { X }), 'run without the refused matrix');
  assert.deepEqual(o.result.X, X, 'the learner\'s X is kept');
  assert.deepEqual(o.result.W_q, core.trace(toSpec(state)).W_q, 'the seed\'s W_q in its place');
});

test('two refused matrices are both left out; the first refusal is the one said', () => {
  const state = { ...defaults(), sentence: 'a b', d_model: 4 };
  const [o] = outcome(now, state, { W_q: [[1]], W_k: [[1, 2, 3]] });
  assert.equal(o.result.error, undefined);
  assert.equal(o.refused.length, 2);
  assert.deepEqual([...o.refused].sort(), ['W_k', 'W_q']);
  assert.equal(o.refusal.field, o.refused[0]);
  assert.deepEqual(without({ W_q: 1, W_k: 2, X: 3 }, o.refused), { X: 3 });
});

test('an error that is not about a matrix stops the spec, with nothing refused', () => {
  const state = { ...defaults(), sentence: 'a b', d_model: 4, heads: 3 };
  const X = [[1, 0, 0, 0], [0, 1, 0, 0]];
  const [o] = outcome(now, state, { X });
  assert.ok(o.result.error, 'three heads do not divide four columns');
  assert.notEqual(o.result.error.field, 'X');
  assert.deepEqual(o.refused, []);
  assert.equal(o.refusal, null);
});

test('an answer the run drops (a newer spec replaced it) is never given, nor retried', () => {
  const asked = [];
  const dropped = (spec, then) => { asked.push(spec); then(null); };
  assert.deepEqual(outcome(dropped, defaults(), { W_q: [[1]] }), []);
  assert.equal(asked.length, 1);
  // answered later, as the page's worker does: the refusal is retried once the answer comes
  const later = [];
  const seen = [];
  traceKeeping((spec, then) => later.push(() => then(core.trace(spec))), { ...defaults(), d_model: 4 }, { W_q: [[1]] }, (o) => seen.push(o));
  assert.equal(seen.length, 0);
  later.shift()();
  assert.equal(seen.length, 0, 'the refusal is run again first');
  later.shift()();
  assert.equal(seen.length, 1);
  assert.deepEqual(seen[0].refused, ['W_q']);
});

test('the trained model runs without what a link set beside it that the core refuses, and says why', async () => {
  assert.equal((await core.loadModel()).error, undefined);
  const wanted = { model: 'tiny-lm', sentence: 'the cat' };
  const plain = core.trace(wanted);
  const trace = (spec) => core.trace(spec);
  const { result, refusal, refusals } = traceWithExtras(trace, wanted, { heads: 2, seed: 7 }, ['heads', 'seed', 'absent']);
  assert.equal(result.error, undefined);
  assert.deepEqual(result.layers[1].weights, plain.layers[1].weights, 'the model\'s own numbers');
  assert.ok(refusal, 'a random-weights setting is refused beside the model');
  assert.ok(Object.keys(refusals).length >= 1);
  assert.ok(Object.keys(refusals).every((k) => ['heads', 'seed'].includes(k)), 'a key the link did not set is never sent');
  assert.equal(refusals[refusal.field], refusal.message);
  // nothing extra: the model as it is, nothing refused
  const none = traceWithExtras(trace, wanted, {}, []);
  assert.deepEqual(none.refusals, {});
  assert.equal(none.refusal, null);
});

test('the learner\'s rows of X follow their words as the sentence changes; a new word takes the seed\'s row', () => {
  const parameters = (spec) => core.parameters(spec);
  const X = [[1, 1, 1, 1], [2, 2, 2, 2]];
  const before = { ...defaults(), sentence: 'the cat', d_model: 4 };
  const after = { ...before, sentence: 'the big cat' };
  const r = followRows(parameters, after, { X }, null, 'the cat');
  assert.equal(r.matrix.length, 3);
  assert.deepEqual(r.matrix[0], X[0], '"the" keeps its row');
  assert.deepEqual(r.matrix[2], X[1], '"cat" keeps its row, one place on');
  const seed = core.parameters({ ...toSpec(after), d_model: 4 }).X;
  assert.deepEqual(r.matrix[1], seed[1], '"big" takes the seed\'s row for it');
  assert.match(r.note, /big/);
  assert.equal(r.own.key, 'X');
  // taken out again, the words have their own rows back (fitted from the learner's, not the last matrix)
  const back = followRows(parameters, before, { X: r.matrix }, r.own, 'the big cat');
  assert.deepEqual(back.matrix, X);
  // no matrix of the learner's: nothing to follow
  assert.deepEqual(followRows(parameters, after, {}, null, 'the cat'), { own: null });
});
