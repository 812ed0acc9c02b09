// Model mode's state: what the page sends, links and snips for the trained model (the model and
// the sentence alone; the settings of random weights kept for the way back), how a token is
// shown, Repeat's limit, a head's label, the likeliest next characters, and a layer as the self
// trace the views draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';

const mm = await importTSTree('web/src/state/model-mode.ts');
const settings = await importTSTree('web/src/state/settings.ts');
const { splitView, viewHash, VIEW_DEFAULTS } = await importTSTree('web/src/state/view-state.ts');

test('the trained model\'s spec and link hold the model and the sentence; random settings stay in the state', () => {
  const r = settings.fromHash('#seed=7&heads=2&d_model=8&model=tiny-lm&sentence=hi');
  assert.deepEqual(r.problems, []);
  assert.equal(r.state.seed, 7);
  assert.deepEqual(r.read, ['seed', 'heads', 'd_model', 'model', 'sentence']);
  assert.deepEqual(settings.toSpec(r.state), { model: 'tiny-lm', sentence: 'hi' });
  assert.equal(settings.toHash(r.state), 'model=tiny-lm&sentence=hi');
  assert.equal(settings.toHash(r.state, { X: [[1, 2]] }), 'model=tiny-lm&sentence=hi', 'no matrix in its link');
  // the keys the link set besides the model and the sentence: for the core to name
  assert.deepEqual(mm.extrasOf(r.read), ['seed', 'heads', 'd_model']);
  // back to random: the settings are as they were, and `model` is left out (the core's default)
  const random = { ...r.state, model: 'random' };
  const spec = settings.toSpec(random);
  assert.equal(spec.model, undefined);
  assert.equal(spec.seed, 7);
  assert.equal(spec.heads, 2);
  assert.match(settings.toHash(random), /seed=7/);
  assert.doesNotMatch(settings.toHash(random), /(^|&)model=/);
});

test('a link\'s layer is read and written as the page names it, from 1', () => {
  assert.equal(VIEW_DEFAULTS.layer, 1);
  assert.equal(splitView('#model=tiny-lm&layer=2').view.layer, 2);
  assert.equal(splitView('#model=tiny-lm&layer=2').rest, 'model=tiny-lm');
  assert.equal(viewHash({ ...VIEW_DEFAULTS, layer: 2, head: 3 }), 'head=3&layer=2');
  assert.equal(viewHash(VIEW_DEFAULTS), '');
  assert.deepEqual(splitView('#layer=two').problems, ['layer="two" is not valid']);
});

test('a token is shown with the space and the newline as marks', () => {
  assert.deepEqual(['a', ' ', '\n', '<unk>', '␣'].map(mm.tokenMark), ['a', '␣', '↵', '<unk>', '␣']);
  assert.equal(mm.tokenName(' '), 'space');
  assert.equal(mm.tokenName('<unk>'), 'unknown character');
});

test('Repeat my sentence: the sentence twice, within the 128 characters the model reads', () => {
  assert.deepEqual(mm.repeated('the cat'), { text: 'the cat the cat', length: 15 });
  assert.deepEqual(mm.repeated('the cat '), { text: 'the cat the cat ', length: 16 }, 'no second space');
  assert.equal(mm.repeatRefusal('x'.repeat(63)), '');
  assert.equal(mm.repeatRefusal('x'.repeat(64)), 'Repeated, it would be 129 characters; the model reads at most 128.');
  assert.equal(mm.repeatRefusal('é'.repeat(63)), '', 'characters, not UTF-16 units');
  assert.equal(mm.repeatRefusal('  '), 'Type a sentence first.');
});

test('a head is named by its highest score from 0.3, else mixed', () => {
  assert.deepEqual(mm.headLabel({ previous_token: 0.93, duplicate_token: 0.1, induction: 0.2, first_token: 0, current_token: 0 }),
    { pattern: 'previous_token', name: 'previous-token', score: 0.93, top: 'previous_token' });
  assert.equal(mm.headLabel({ previous_token: 0.1, duplicate_token: 0.1, induction: 0.3, first_token: 0, current_token: 0 }).name, 'induction');
  assert.deepEqual(mm.headLabel({ previous_token: 0.1, duplicate_token: 0.29, induction: 0.2, first_token: 0, current_token: 0 }),
    { pattern: null, name: 'mixed', score: 0.29, top: 'duplicate_token' });
  // a head that mostly looks at itself is named so
  assert.deepEqual(mm.headLabel({ previous_token: 0.1, duplicate_token: 0.0, induction: 0.05, first_token: 0.1, current_token: 0.62 }),
    { pattern: 'current_token', name: 'current-token', score: 0.62, top: 'current_token' });
});

test('the five likeliest next tokens, likeliest first, their probabilities the exp of the log-probabilities', () => {
  const vocab = ['<unk>', '\n', ' ', 'a', 'b', 'c', 'd'];
  const p = [0.01, 0.04, 0.3, 0.05, 0.4, 0.1, 0.1];
  const guesses = mm.topNext(p.map(Math.log), vocab);
  assert.deepEqual(guesses.map((g) => g.token), ['b', ' ', 'c', 'd', 'a']);
  guesses.forEach((g, k) => assert.ok(Math.abs(g.p - [0.4, 0.3, 0.1, 0.1, 0.05][k]) < 1e-12));
  assert.equal(mm.topNext(p.map(Math.log), vocab, 2).length, 2);
});

test('a layer of the model is a self-attention trace, its tokens marked; its spec recomputes it', async () => {
  const { load } = await importTSTree('web/src/core/attention.ts');
  const core = await load();
  await core.loadModel();
  const t = core.trace({ model: 'tiny-lm', sentence: 'ab a\nb' });
  assert.ok(mm.isModelTrace(t));
  const layer = mm.layerTrace(t, 1);
  assert.equal(layer, mm.layerTrace(t, 1), 'the same object for the same trace');
  assert.deepEqual(layer.tokens, ['a', 'b', '␣', 'a', '↵', 'b']);
  assert.equal(layer.weights, t.layers[1].weights);
  assert.equal(layer.spec.mask, 'causal');
  assert.equal(layer.spec.d_k, 16);
  assert.equal(layer.spec.heads, 4);
  // derive() of the model's spec and a layer: the clicked weight is the trace's (to the last bit or so)
  const d = core.derive({ spec: t.spec, layer: 1, matrix: 'weights', head: 2, row: 4, col: 1 });
  assert.equal(d.error, undefined, d.error?.message);
  assert.ok(Math.abs(d.softmax.value - t.layers[1].weights[2][4][1]) < 1e-15);
  assert.equal(d.query_token, '\n');
});

test('what the page says the model learned follows its heads\' scores', () => {
  const head = (previous_token, induction) => ({ previous_token, duplicate_token: 0, induction, first_token: 0, current_token: 0 });
  const copying = [[head(0.9, 0.1)], [head(0.1, 0.7)]], notCopying = [[head(0.55, 0.04)], [head(0.2, 0.05)]];
  assert.match(mm.modelNote(copying), /to look at the previous character and to copy repeated text \(induction\)\./);
  assert.match(mm.modelNote(notCopying), /to look at the previous character; this one has not learned to copy repeated text \(its best induction score is 0\.05\)/);
  assert.match(mm.modelNote([[head(0.1, 0.1)]]), /^A model this small learns which character follows which;/);
  for (const probe of [copying, notCopying]) assert.match(mm.modelNote(probe), /does not resolve what “it” refers to/);
  assert.match(mm.repeatHint(copying), /writes your sentence twice: below, what the induction head then does/);
  assert.match(mm.repeatHint(notCopying), /the best induction score is 0\.05/);
});

test('a text said twice is found, and a head\'s copying on its second copy is counted from its weights', () => {
  const chars = (text) => [...text];
  assert.equal(mm.repeatLag(chars('ab ab')), 3);      // S + ' ' + S
  assert.equal(mm.repeatLag(chars('abab')), 2);       // S + S
  assert.equal(mm.repeatLag(chars('the cat. the cat.')), 9);
  assert.equal(mm.repeatLag(chars('abc')), null);
  assert.equal(mm.repeatLag(chars('ab ac')), null);
  assert.equal(mm.repeatLag([]), null);
  // "ab ab": rows 3 ("a") and 4 ("b") of the second copy; their targets are 1 ("b") and 2 (" ")
  const tokens = chars('ab ab');
  const row = (i, heaviest) => Array.from({ length: 5 }, (_, j) => (j > i ? 0 : j === heaviest ? 0.7 : 0.3 / i));
  const copyingHead = [row(0, 0), row(1, 1), row(2, 2), row(3, 1), row(4, 2)];
  const c = mm.copying(copyingHead, tokens, 3);
  assert.deepEqual({ rows: c.rows, hits: c.hits, instead: c.instead }, { rows: 2, hits: 2, instead: null });
  assert.ok(Math.abs(c.mean - 0.7) < 1e-12);
  assert.match(mm.copyCaption(c, 2, 1), /^On this text, head 1 of layer 2 \(the best induction head on random characters\) puts its largest weight on the character after the earlier twin in 2 of 2 rows of the second copy \(a mean weight of 0\.70 there\): it copies\.$/);
  const spaceHead = [row(0, 0), row(1, 1), row(2, 2), row(3, 2), row(4, 2)];  // row 3 looks at the space
  const d = mm.copying(spaceHead, tokens, 3);
  assert.deepEqual({ hits: d.hits, instead: d.instead }, { hits: 1, instead: { token: ' ', rows: 1 } });
  const e = mm.copying([row(0, 0), row(1, 1), row(2, 2), row(3, 2), row(4, 0)], tokens, 3);
  assert.equal(e.hits, 0);
  assert.match(mm.copyCaption(e, 2, 1), /in only 0 of 2 rows .*; the others look most at .*: it does not copy here\.$/);
  assert.deepEqual(mm.bestInduction([[{ induction: 0.1 }, { induction: 0.2 }], [{ induction: 0.9 }, { induction: 0.3 }]]), { layer: 1, head: 0 });
});
