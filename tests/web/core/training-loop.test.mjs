// The training loop's language-model run (web/src/core/training-loop.ts), on a stand-in for the
// training module: the texts are fetched first and what comes meanwhile waits for them, a newer
// start wins, play pauses at its budget or when the held-out loss is flat, a Step plays to its
// end without a pause of its own, the curves are thinned, and the weights file it hands out
// carries a card that says how it was trained here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { importTSTree } from '../../e2e/typescript.mjs';

const { trainingLoop, record, withCard, settling, LM_FLAT_WINDOW, LM_POINTS } = await importTSTree('web/src/core/training-loop.ts');
const SHIPPED = new Uint8Array(readFileSync(new URL('../../../web/src/core/wasm/tiny-lm.bin', import.meta.url)));

/** A training module whose language model's loss falls by `fall` a step (0: flat). */
function standIn({ fall = 0.001 } = {}) {
  let step = 0;
  const calls = [];
  return {
    calls,
    tasks: () => ({ tasks: [], settings: [] }),
    start: (s) => { calls.push(['start', s]); return { settings: s }; },
    step: () => ({ step: 0, loss: 1, batch_accuracy: 0, eval_loss: 1, accuracy: 0 }),
    snapshot: () => ({ step: 0, metrics: {}, history: {} }),
    stats: () => ({}),
    lmStart: (s, train, heldOut) => {
      calls.push(['lmStart', s, train.length, heldOut.length]);
      step = 0;
      if (s.batch_size > 64) return { error: { field: 'batch_size', message: 'batch_size: must be from 1 to 64' } };
      return { settings: { seed: 1, batch_size: 8, learning_rate: 0.003, repeat_share: 0.25, eval_windows: 16, ...s }, unigram_loss: 2.83 };
    },
    lmStep: (count) => {
      step += count;
      const v = 3 - fall * step, s = step / 1000;
      return { step, loss: v + 0.1, eval_loss: v, previous_token: [[s, 0.1, 0.1, 0.1], [0.1, 0.1, 0.1, 0.1]], induction: [[0.1, 0.1, 0.1, 0.1], [0.1, 0.1, s, 0.1]] };
    },
    lmModel: () => SHIPPED.slice(),
  };
}

/** The loop on `train`, its replies, and a wait for the first reply that `pred` takes. */
function loop(train) {
  const replies = [], waiting = [];
  const send = trainingLoop(train, (r) => {
    replies.push(r);
    for (const w of waiting.slice()) if (w.pred(r)) { waiting.splice(waiting.indexOf(w), 1); w.resolve(r); }
  });
  const until = (pred) => new Promise((resolve) => {
    const seen = replies.find(pred);
    if (seen) resolve(seen); else waiting.push({ pred, resolve });
  });
  return { send, replies, until };
}

test('the texts come first; what was sent meanwhile waits for them; Play pauses at its budget', async () => {
  const train = standIn();
  const { send, replies, until } = loop(train);
  send({ language: { seed: 3 }, play: true, budget: 120 });
  send({ rate: 0, settle: true });
  assert.deepEqual(replies.map((r) => Object.keys(r)[0]), ['tasks', 'loading']);
  const started = (await until((r) => r.languageStarted)).languageStarted;
  assert.equal(started.settings.seed, 3);
  assert.equal(started.unigram, 2.83, 'the core\'s token-frequency loss, as lmStart gave it');
  assert.ok(started.characters.train > 700_000 && started.characters.heldOut > 80_000);
  assert.deepEqual(started.source, { package: 'fortunes', version: '1:1.99.1-7.3', fortunes: 5880 });
  const stopped = await until((r) => r.stopped);
  assert.deepEqual(stopped.stopped, { reason: 'budget', step: 120 });
  assert.equal(stopped.playing, false);
  const h = stopped.language.history;
  assert.equal(h.step.at(-1), 120);
  assert.equal(h.previous_token.length, 2);
  assert.equal(h.induction[1][2].length, h.step.length);
  assert.equal(stopped.language.metrics.step, 120);
  // The texts are fetched once: a second run starts from them at once.
  send({ language: { seed: 4 } });
  await until((r) => r.languageStarted?.settings.seed === 4);
  assert.equal(replies.filter((r) => r.loading).length, 1);
});

test('a newer start wins over a language model still waiting for its texts', async () => {
  const train = standIn();
  const { send, replies, until } = loop(train);
  send({ language: {} });
  send({ start: { task: 'copy' } });
  await until((r) => r.started);
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(!replies.some((r) => r.languageStarted), 'the language run never started');
  assert.deepEqual(train.calls.map((c) => c[0]), ['start']);
});

test('a refused setting is an error naming it', async () => {
  const { send, until } = loop(standIn());
  send({ language: { batch_size: 100 } });
  const r = await until((m) => m.error);
  assert.equal(r.error.field, 'batch_size');
  assert.equal(r.playing, false);
});

test('a flat held-out loss pauses the run; a Step plays to its end without a pause of its own', async () => {
  const { send, until, replies } = loop(standIn({ fall: 0 }));
  send({ language: {} });
  send({ step: 7 });
  const stepped = await until((r) => r.language?.step === 7 && !r.playing);
  assert.equal(stepped.stopped, undefined);
  send({ play: true, settle: true, budget: 5000 });
  const flat = await until((r) => r.stopped);
  assert.equal(flat.stopped.reason, 'flat');
  assert.ok(flat.stopped.step - flat.stopped.since >= LM_FLAT_WINDOW && flat.stopped.step < 5000, JSON.stringify(flat.stopped));
  assert.ok(replies.every((r) => !r.snapshot), 'no snapshot of a synthetic task');
});

test('the weights so far, with a card that says how they were trained here', async () => {
  const { send, until } = loop(standIn());
  send({ language: { batch_size: 4 } });
  send({ step: 30 });
  await until((r) => r.language?.step === 30 && !r.playing);
  send({ model: true });
  const { model, step } = await until((r) => r.model);
  assert.equal(step, 30);
  const end = model.indexOf(10), header = JSON.parse(new TextDecoder().decode(model.subarray(0, end)));
  const shipped = JSON.parse(new TextDecoder().decode(SHIPPED.subarray(0, SHIPPED.indexOf(10))));
  assert.deepEqual({ ...header, card: null }, { ...shipped, card: null }, 'the header but its card is as it was');
  assert.deepEqual(model.subarray(end + 1), SHIPPED.subarray(SHIPPED.indexOf(10) + 1), 'the weights are as they were');
  const card = header.card;
  assert.equal(card.name, 'trained in this tab, step 30');
  assert.equal(card.architecture, shipped.card.architecture, 'the core\'s words for the shape, as the weights file gave them');
  assert.match(card.architecture, /^attention-only decoder: 2 layers of 4 causal heads with RoPE, d_model 96, .*word pieces$/);
  assert.equal(card.training.steps, 30);
  assert.equal(card.training.batch, 4);
  assert.equal(card.corpus.fortunes, 5880);
  assert.ok(card.held_out_loss < 3 && card.unigram_loss === 2.83);
  assert.ok(card.training.seconds >= 0);
});

test('the curves are thinned to at most LM_POINTS points, the last one kept', () => {
  let h = { step: [], loss: [], eval_loss: [], in_context: [], previous_token: [], induction: [] };
  const m = (step) => ({ step, loss: step, eval_loss: step, in_context: step / 2, previous_token: [[step]], induction: [[-step]] });
  for (let s = 1; s <= LM_POINTS + 1; s++) h = record(h, m(s));
  assert.equal(h.step.length, LM_POINTS / 2 + 1);
  assert.equal(h.step.at(-1), LM_POINTS + 1);
  assert.deepEqual(h.step.slice(0, 3), [1, 3, 5]);
  assert.deepEqual(h.induction[0][0].slice(0, 2), [-1, -3]);
  assert.deepEqual(h.in_context.slice(0, 2), [0.5, 1.5]);
  for (let s = LM_POINTS + 2; s <= 3 * LM_POINTS; s++) h = record(h, m(s));
  assert.ok(h.step.length <= LM_POINTS && h.step.at(-1) === 3 * LM_POINTS);
});

test('the settle rule reads metrics without an accuracy', () => {
  const watch = settling({ window: 100, drop: 0.02 });
  assert.equal(watch.see({ step: 1, eval_loss: 3 }), null);
  assert.equal(watch.see({ step: 50, eval_loss: 2 }), null);
  assert.deepEqual(watch.see({ step: 150, eval_loss: 1.99 }), { reason: 'flat', step: 150, since: 50 });
  assert.deepEqual(settling().see({ step: 3, eval_loss: NaN }), { reason: 'diverged', step: 3 });
});

test('the flat rule counts from the step it is given: a loss flat before it does not pause', () => {
  const watch = settling({ window: 100, drop: 0.02, from: 1000 });
  for (let step = 0; step < 1000; step += 50) assert.equal(watch.see({ step, eval_loss: 2.9 }), null);
  assert.equal(watch.see({ step: 1000, eval_loss: 2.9 }), null);
  assert.deepEqual(watch.see({ step: 1100, eval_loss: 2.89 }), { reason: 'flat', step: 1100, since: 1000 });
  assert.deepEqual(watch.see({ step: 1101, eval_loss: NaN }), { reason: 'diverged', step: 1101 });
});

test('withCard leaves a file without a header line as it is', () => {
  const bytes = new Uint8Array([1, 2, 3]);
  assert.equal(withCard(bytes, {}), bytes);
});
