// Model mode's state: what the page sends, links and snips for the trained model (the model and
// the sentence alone; the settings of random weights kept for the way back), how a token is
// shown, Repeat's limit, a head's label, the likeliest next tokens, and a layer as the self
// trace the views draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';
import { lastBits, reordered } from '../../tolerance.mjs';

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

test('a word piece is shown with its leading space and a newline as marks, a byte apart', () => {
  assert.deepEqual([' the', 'ing', ' ', '\n', '<0xC3>', '\n '].map(mm.tokenMark), ['␣the', 'ing', '␣', '↵', '<0xC3>', '↵␣']);
  assert.equal(mm.tokenName(' '), 'space');
  assert.equal(mm.tokenName('\n'), 'newline');
  assert.equal(mm.tokenName('\n '), 'newline, space');
  assert.equal(mm.splitNote(['M', 'y', ' dog', ' <0xC3><0xA9>']), 'The model reads word pieces: these 8 characters are 4 tokens (␣ marks a space).');
  assert.equal(mm.textOf(['a', ' ', '<0xC3>', '<0xA9>', '\n', 'b']), 'a é\nb');
  assert.equal(mm.tokenName(' the'), '“the” after a space');
  assert.equal(mm.tokenName('ing'), '“ing”');
  assert.equal(mm.tokenName('<0xC3>'), 'the byte 0xC3 (part of a character)');
  assert.deepEqual(['<0xC3>', '<0xc3>', '<0xC3>x', ' <0x41>'].map(mm.isByte), [true, false, false, false]);
});

test('Repeat my sentence: the sentence twice, within the 128 tokens the model reads', () => {
  assert.equal(mm.repeated('the cat'), 'the cat the cat');
  assert.equal(mm.repeated('the cat '), 'the cat the cat ', 'no second space');
  assert.equal(mm.repeatRefusal('the cat', 64), '');
  assert.equal(mm.repeatRefusal('the cat', 65), 'Repeated, it would be about 130 tokens; the model reads at most 128.');
  assert.equal(mm.repeatRefusal('  ', 0), 'Type a sentence first.');
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
  guesses.forEach((g, k) => assert.ok(Math.abs(g.p - [0.4, 0.3, 0.1, 0.1, 0.05][k]) <= reordered));
  assert.equal(mm.topNext(p.map(Math.log), vocab, 2).length, 2);
});

test('a layer of the model is a self-attention trace, its tokens marked; its spec recomputes it', async () => {
  const { load } = await importTSTree('web/src/core/attention.ts');
  const core = await load();
  await core.loadModel();
  const t = core.trace({ model: 'tiny-lm', sentence: 'the cat\nthe' });
  assert.ok(mm.isModelTrace(t));
  assert.deepEqual(t.tokens, ['t', 'he', ' c', 'at', '\n', 't', 'he']);
  const layer = mm.layerTrace(t, 1);
  assert.equal(layer, mm.layerTrace(t, 1), 'the same object for the same trace');
  assert.deepEqual(layer.tokens, ['t', 'he', '␣c', 'at', '↵', 't', 'he']);
  assert.equal(layer.weights, t.layers[1].weights);
  assert.equal(layer.spec.mask, 'causal');
  assert.equal(layer.spec.d_k, 24);
  assert.equal(layer.spec.heads, 4);
  // derive() of the model's spec and a layer: the clicked weight is the trace's (to the last bit or so)
  const d = core.derive({ spec: t.spec, layer: 1, matrix: 'weights', head: 2, row: 4, col: 1 });
  assert.equal(d.error, undefined, d.error?.message);
  assert.ok(Math.abs(d.softmax.value - t.layers[1].weights[2][4][1]) <= lastBits);
  assert.equal(d.query_token, '\n');
});

test('what the page says the model learned follows its heads\' scores', () => {
  const head = (previous_token, induction) => ({ previous_token, duplicate_token: 0, induction, first_token: 0, current_token: 0 });
  const copying = [[head(0.9, 0.1)], [head(0.1, 0.7)]], notCopying = [[head(0.55, 0.04)], [head(0.2, 0.05)]];
  assert.match(mm.modelNote(copying), /to look at the previous token and to copy repeated text \(induction\)\./);
  assert.match(mm.modelNote(notCopying), /to look at the previous token; this one has not learned to copy repeated text \(its best induction score is 0\.05\)/);
  assert.match(mm.modelNote([[head(0.1, 0.1)]]), /^A model this small learns which word piece follows which;/);
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
  // word pieces: after the space the first word may split otherwise ("My" then " M", "y"); the
  // rows are the tokens that repeat the one L back, and the copy's first may not
  const pieces = ['M', 'y', ' dog', ' sat', ' M', 'y', ' dog', ' sat'];
  assert.equal(mm.repeatLag(pieces), 4);
  assert.equal(mm.repeatLag(['The', ' cat', '.', ' ', 'The', ' cat', '.']), 4);
  assert.equal(mm.repeatLag(['Mary', ' had', ' M', 'ary', ' had']), null, 'one row alone is no copy to show');
  const even = Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => (j <= i ? 1 / (i + 1) : 0)));
  assert.equal(mm.copying(even, pieces, 4).rows, 3, 'rows 5 to 7; row 4 (" M") repeats nothing');
  // "ab ab": rows 3 ("a") and 4 ("b") of the second copy; their targets are 1 ("b") and 2 (" ")
  const tokens = chars('ab ab');
  const row = (i, heaviest) => Array.from({ length: 5 }, (_, j) => (j > i ? 0 : j === heaviest ? 0.7 : 0.3 / i));
  const copyingHead = [row(0, 0), row(1, 1), row(2, 2), row(3, 1), row(4, 2)];
  const c = mm.copying(copyingHead, tokens, 3);
  assert.deepEqual({ rows: c.rows, hits: c.hits, instead: c.instead }, { rows: 2, hits: 2, instead: null });
  assert.ok(Math.abs(c.mean - 0.7) <= reordered);
  assert.match(mm.copyCaption(c, 2, 1, 0.876), /^On this text, head 1 of layer 2 \(induction 0\.88 on random tokens\) puts its largest weight on the token after the earlier twin in 2 of 2 rows of the second copy \(a mean weight of 0\.70 there\): it copies\.$/);
  const spaceHead = [row(0, 0), row(1, 1), row(2, 2), row(3, 2), row(4, 2)];  // row 3 looks at the space
  const d = mm.copying(spaceHead, tokens, 3);
  assert.deepEqual({ hits: d.hits, instead: d.instead }, { hits: 1, instead: { token: ' ', rows: 1 } });
  const e = mm.copying([row(0, 0), row(1, 1), row(2, 2), row(3, 2), row(4, 0)], tokens, 3);
  assert.equal(e.hits, 0);
  assert.match(mm.copyCaption(e, 2, 1, 0.5), /in only 0 of 2 rows .*; the others look most at .*: it does not copy here\.$/);
  assert.deepEqual(mm.bestInduction([[{ induction: 0.1 }, { induction: 0.2 }], [{ induction: 0.9 }, { induction: 0.3 }]]), { layer: 1, head: 0 });
  // the caption's head: of the probe's induction heads, the one that copies most here, even when
  // the probe ranks another first; a head the probe does not name is not taken however it copies
  const t = { tokens, probe_head_scores: [[{ induction: 0.1 }], [{ induction: 0.9 }, { induction: 0.3 }]],
    layers: [{ weights: [copyingHead] }, { weights: [spaceHead, copyingHead] }] };
  const chosen = mm.copyingHead(t, 3);
  assert.deepEqual({ layer: chosen.layer, head: chosen.head, hits: chosen.copying.hits }, { layer: 1, head: 1, hits: 2 });
  assert.equal(mm.copyingHead({ ...t, probe_head_scores: [[{ induction: 0.1 }], [{ induction: 0.2 }, { induction: 0.29 }]] }, 3), null);
});

test('the size said while the weights load is the weights file\'s', async () => {
  const { statSync } = await import('node:fs');
  const bytes = statSync(new URL('../../../models/tiny-lm.bin', import.meta.url)).size;
  assert.equal(mm.WEIGHTS_SIZE, `${Math.round(bytes / 1024)} KB`);
});

test('opening the trained model keeps the longest start of the sentence it reads, in whole characters', () => {
  const { readableStart, CONTEXT } = mm;
  const words = (text) => text.split(/(?<= )/).filter(Boolean).length;  // a counter: a token a word
  const short = 'the cat sat on the mat';
  assert.equal(readableStart(short, words), short, 'a sentence it reads is kept whole');
  const long = Array.from({ length: 300 }, (_, i) => `w${i} `).join('');
  const kept = readableStart(long, words);
  assert.ok(long.startsWith(kept));
  assert.equal(words(kept), CONTEXT, 'as many words as the context holds');
  assert.ok(words(long.slice(0, kept.length + 1)) > CONTEXT, 'and not a character more');
  assert.ok([...kept].length > CONTEXT, 'more characters than the context has tokens');
  // Counted by no one (the whole core not in yet): the first CONTEXT bytes, in whole characters.
  const emoji = '\u{1F600}'.repeat(100);
  assert.equal(readableStart(emoji, () => null), '\u{1F600}'.repeat(CONTEXT / 4));
  assert.equal(readableStart('é'.repeat(200), () => null), 'é'.repeat(CONTEXT / 2));
});

test('a head\'s patterns are the core\'s, in its order, each with a name and a sentence', async () => {
  const { readFileSync } = await import('node:fs');
  const schema = JSON.parse(readFileSync(new URL('../../../web/src/core/trace-schema.json', import.meta.url)));
  assert.deepEqual(mm.PATTERNS, schema.head_patterns);
  for (const p of mm.PATTERNS) assert.ok(mm.PATTERN_NAMES[p] && mm.PATTERN_HELP[p], p);
});
