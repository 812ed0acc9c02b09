// The benchmark of the trained model on learner sentences said twice: it counts what the page's
// caption counts, refuses sentences the model trained on, and judges every sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { copyOnSentences, SENTENCES } from '../../bench/copying.mjs';
import { copyingTargets } from '../../bench/report.mjs';
import { importTSTree } from '../e2e/typescript.mjs';
import { reordered } from '../tolerance.mjs';

const { repeatLag, copying } = await importTSTree('web/src/state/model-mode.ts');
const corpus = readFileSync(new URL('../../models/tiny-lm-train.txt', import.meta.url), 'utf8');
const core = await load();
await core.loadModel();

test('each sentence is counted as the caption counts it, with the best head of the last layer', () => {
  const c = copyOnSentences(core, corpus);
  assert.ok(SENTENCES.length >= 20 && c.per_sentence.length === SENTENCES.length);
  const cat = c.per_sentence.find((x) => x.sentence === 'The cat sat on the mat.');
  const trace = core.trace({ model: 'tiny-lm', sentence: 'The cat sat on the mat. The cat sat on the mat.' });
  const own = copying(trace.layers.at(-1).weights[c.head], trace.tokens, repeatLag(trace.tokens));
  assert.deepEqual([cat.hits, cat.rows], [own.hits, own.rows]);
  assert.equal(c.layer, trace.layers.length - 1);
  const shares = c.per_sentence.map((x) => x.hits / x.rows);
  assert.equal(c.worst_hits, Math.min(...shares));
  assert.ok(Math.abs(c.hits - shares.reduce((a, b) => a + b) / shares.length) <= reordered);
  assert.equal(c.guess, c.per_sentence.reduce((a, x) => a + x.guessed, 0) / c.per_sentence.reduce((a, x) => a + x.of, 0));
});

test('a sentence from the corpus is refused, and one sentence under 0.6 fails its target', () => {
  assert.throws(() => copyOnSentences(core, `${corpus}\nThe cat sat on the mat.\n`), /in the corpus: The cat sat on the mat\./);
  const met = copyingTargets({ hits: 0.9, worst_hits: 0.59, worst_sentence: 'Rain again', weight: 0.7, guess: 0.9 });
  assert.deepEqual(met.map(([, , ok]) => ok), [true, false, true, true]);
});
