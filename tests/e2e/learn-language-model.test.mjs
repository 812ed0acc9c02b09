// Watch it learn, the "Language model" task (ui/pages/trainer.ts, trainer-lm.ts, core/corpus.ts):
// the playground's model (2 layers of 4 heads) learning from the fortunes in the tab. A learner
// picks the task (only then are the fortunes fetched), plays, sees the loss fall and the heads'
// curves draw, the run pauses by itself and says why, and "Open in the playground" shows the
// model as trained so far, the same weights as the same run in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load, loadTraining } from '../../dist/attention.js';
import { start, done } from './harness.mjs';
import { reordered } from '../tolerance.mjs';

const trainer = 'attention-trainer';
const TEXTS = /tiny-lm-(train|held-out)/;
// Steps of the test's run: enough for the loss to fall well below letter frequencies and the
// best previous-token score to rise (the induction heads take thousands: their own journey).
const STEPS = 150;
// The steps in which the defaults' induction head passes 0.3 (at 2,150; about a minute here).
const FORMING = 2500;

let env;
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const lmOf = (page) => page.locator(trainer).evaluate((el) => el.lm && { step: el.lm.step, metrics: el.lm.metrics, history: el.lm.history });
const best = (scores, i) => Math.max(...scores.flat().map((c) => c[i < 0 ? c.length + i : i]));

test('a learner picks the language model, plays, watches it learn, and opens it in the playground', async () => {
  const page = await env.page();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(`${env.base}learn/`);
  await page.locator(`${trainer} button[data-action="play"]:not([disabled])`).waitFor();
  await page.waitForTimeout(300);
  assert.deepEqual(env.server.requests.filter((p) => TEXTS.test(p)), [], 'the fortunes are not fetched before the task is chosen');

  // The run's budget is set small for the test (a press of Play runs 4000 steps on the page).
  await page.locator(trainer).evaluate((el, n) => { el.budget = n; }, STEPS);
  await page.selectOption(`${trainer} #c-task`, 'language_model');
  assert.match(await page.locator(`${trainer} .explain`).innerText(), /induction heads[\s\S]*Olsson/);
  // Its own settings, and none of the synthetic tasks'.
  const keys = await page.locator(`${trainer} .control`).evaluateAll((cs) => cs.map((c) => c.dataset.key));
  assert.deepEqual(keys, ['task', 'lm_seed', 'lm_learning_rate', 'lm_batch_size', 'lm_repeat_share', 'lm_text_repeats', 'lm_sentence_share', 'lm_sentences_from', 'lm_steps', 'lm_decay_steps', 'lm_short_steps']);
  assert.match(await page.locator(`${trainer} .control[data-key="lm_repeat_share"] .help`).textContent(), /induction head/);
  await page.locator(`${trainer} button[data-action="play"]:not([disabled])`).waitFor({ timeout: 30_000 });
  assert.equal(env.server.requests.filter((p) => TEXTS.test(p)).length, 2, 'both texts fetched once the task is chosen');
  assert.match(page.url(), /#task=language_model$/);

  await page.locator(`${trainer} button[data-action="play"]`).click();
  // While it plays the curves draw: a held-out loss line, and a line for each of the 8 heads in each score chart.
  await page.waitForFunction((sel) => document.querySelector(sel).lm?.history.step.length >= 3, trainer, { timeout: 60_000 });
  const drawing = await page.locator(`${trainer} svg[data-chart] polyline`).evaluateAll((ls) => ls.map((l) => ({
    chart: l.closest('svg').dataset.chart, line: l.dataset.line, points: l.getAttribute('points').trim().split(/\s+/).length })));
  assert.ok(await page.locator(trainer).evaluate((el) => el.playing), 'still playing while the curves draw');
  for (const chart of ['previous_token', 'induction']) {
    const heads = drawing.filter((d) => d.chart === chart);
    assert.deepEqual(heads.map((d) => d.line).sort(), ['1.0', '1.1', '1.2', '1.3', '2.0', '2.1', '2.2', '2.3']);
    assert.ok(heads.every((d) => d.points >= 3), JSON.stringify(heads));
  }
  assert.ok(drawing.some((d) => d.chart === 'loss' && d.line === 'eval_loss' && d.points >= 3));

  // It pauses by itself at its budget and says why.
  await page.waitForFunction((sel) => document.querySelector(sel).playing === false, trainer, { timeout: 120_000 });
  const note = await page.locator(`${trainer} .paused[role="status"]`);
  assert.equal(await note.getAttribute('data-stopped'), 'budget');
  assert.match(await note.innerText(), new RegExp(`Paused after ${STEPS} steps`));
  const lm = await lmOf(page);
  assert.equal(lm.step, STEPS);
  assert.equal(await page.locator(`${trainer} [data-stat="step"]`).innerText(), String(STEPS));
  const h = lm.history;
  // The loss fell, below what letter frequencies alone give; the best previous-token score rose
  // (the induction heads come after the short windows, past step 2,000: the bench times them).
  assert.ok(h.eval_loss.at(-1) < h.eval_loss[0] - 0.8, `held-out loss ${h.eval_loss[0]} -> ${h.eval_loss.at(-1)}`);
  const unigram = await page.locator(trainer).evaluate((el) => el.lmStarted.unigram);
  // the core's token-frequency loss, per character, as the shipped model's card has it
  const shippedCard = JSON.parse(readFileSync(new URL('../../models/tiny-lm.bin', import.meta.url)).toString('utf8').split('\n')[0]).card;
  assert.ok(Math.abs(unigram - shippedCard.unigram_loss) <= reordered && h.eval_loss.at(-1) < unigram, `unigram ${unigram}, held-out ${h.eval_loss.at(-1)}`);
  assert.ok(best(h.previous_token, -1) > best(h.previous_token, 0), `best previous-token ${best(h.previous_token, 0)} -> ${best(h.previous_token, -1)}`);
  // The loss chart zooms to the fall that matters: its top is below the first steps' loss, said at the top.
  const lossTicks = await page.locator(`${trainer} svg[data-chart="loss"] text[text-anchor="end"]`).allTextContents();
  assert.ok(Math.max(...lossTicks.map(Number).filter(Number.isFinite)) < h.eval_loss[0], `loss ticks ${lossTicks}`);
  assert.match(await page.locator(`${trainer} .lm-key .clipped`).textContent(), /starts above the top, at \d+\.\d+ \(step \d+\)/);

  // Open in the playground: the model mode, on the weights trained here, saying so.
  await page.locator(`${trainer} button[data-action="open-playground"]`).click();
  const playground = page.locator(`${trainer} attention-playground`);
  await page.waitForFunction((sel) => document.querySelector(sel).shadowRoot.querySelector('attention-playground')?.trace?.layers?.length === 2,
    trainer, { timeout: 30_000 });
  assert.match(await page.locator(`${trainer} .inspect [data-opened-step]`).innerText(), new RegExp(`as trained in this tab, at step ${STEPS}`));
  const shown = await playground.evaluate((el) => ({ W_q: el.trace.layers[1].W_q[0].slice(0, 4), tokens: el.trace.tokens.join('') }));
  // The same run in Node gives the same weights; the shipped model's are others.
  const training = await loadTraining();
  const text = (f) => readFileSync(new URL(`../../web/src/core/wasm/${f}`, import.meta.url), 'utf8');
  assert.equal(training.lmStart({ seed: 1, learning_rate: 0.003, batch_size: 8, repeat_share: 0.75, text_repeats: 0.9, short_steps: 2000 }, text('tiny-lm-train.txt'), text('tiny-lm-held-out.txt')).error, undefined);
  assert.equal(training.lmStep(STEPS).step, STEPS);
  const core = await load();
  const spec = { model: 'tiny-lm', sentence: shown.tokens };
  assert.equal((await core.loadModel()).error, undefined);
  const shipped = core.run(spec).layers[1].W_q[0].slice(0, 4);
  assert.ok(!(await core.loadModel(training.lmModel())).error);
  const here = core.run(spec).layers[1].W_q[0].slice(0, 4);
  assert.deepEqual(shown.W_q, here, 'the same weights, to the bit');
  assert.notDeepEqual(shown.W_q, shipped);
  // The playground's card says how it was trained: here, for these steps, with the architecture the shipped card
  // names (RoPE included); its Model select names the model trained here, not the shipped one.
  const card = await playground.evaluate((el) => el.shadowRoot.querySelector('details.model-card')?.textContent.replace(/\s+/g, ' ') ?? '');
  assert.match(card, new RegExp(`2 layers of 4 causal heads with RoPE.*Trained in this tab on .*, ${STEPS} steps of 8 texts`));
  const chosen = await playground.evaluate((el) => { const s = el.shadowRoot.querySelector('#c-model'); return s.selectedOptions[0].textContent; });
  assert.equal(chosen.trim(), `trained in this tab, step ${STEPS}`);
  // It opens on the head whose induction score is highest, as the charts above show them.
  const top = await page.locator(trainer).evaluate((el) => {
    let t = [1, 0, -Infinity];
    el.lm.history.induction.forEach((heads, l) => heads.forEach((c, h) => { if (c[c.length - 1] > t[2]) t = [l + 1, h, c[c.length - 1]]; }));
    return t.slice(0, 2);
  });
  assert.deepEqual(await playground.evaluate((el) => [el.layer, el.focusHead]), top);
  assert.ok(workers.some((u) => /train-worker/.test(u)), `workers: ${workers}`);
  await done(page);
});

test('a bad setting gets a message beside its control; a link opens the task', async () => {
  const page = await env.page();
  await page.goto(`${env.base}learn/#task=language_model&lm_batch_size=16`);
  await page.locator(`${trainer} button[data-action="play"]:not([disabled])`).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator(trainer).evaluate((el) => el.lmStarted.settings.batch_size), 16);
  await page.fill(`${trainer} #c-lm_learning_rate`, '5');
  assert.match(await page.locator(`${trainer} .control[data-key="lm_learning_rate"] .message`).innerText(), /Learning rate must be from 0 to 1/);
  await page.fill(`${trainer} #c-lm_batch_size`, '100');
  assert.match(await page.locator(`${trainer} .control[data-key="lm_batch_size"] .message`).innerText(), /Batch size must be a whole number from 1 to 64/);
  await page.fill(`${trainer} #c-lm_repeat_share`, '-0.5');
  assert.match(await page.locator(`${trainer} .control[data-key="lm_repeat_share"] .message`).innerText(), /Repeat share must be from 0 to 1/);
  await page.fill(`${trainer} #c-lm_learning_rate`, '0.02');
  await page.fill(`${trainer} #c-lm_batch_size`, '4');
  await page.fill(`${trainer} #c-lm_repeat_share`, '0.5');
  await page.waitForFunction((sel) => {
    const s = document.querySelector(sel).lmStarted?.settings;
    return s?.batch_size === 4 && s.learning_rate === 0.02 && s.repeat_share === 0.5;
  }, trainer, { timeout: 30_000 });
  assert.equal(await page.locator(`${trainer} .control .message`).count(), 0);
  assert.match(page.url(), /lm_learning_rate=0.02/);
  await done(page);
});

test('the induction head forms in the tab: its score passes 0.3 after the short windows, marked on the chart, and the in-context score jumps with it', async () => {
  const page = await env.page();
  await page.goto(`${env.base}learn/#task=language_model`);
  await page.locator(`${trainer} button[data-action="play"]:not([disabled])`).waitFor({ timeout: 30_000 });
  await page.locator(trainer).evaluate((el, n) => { el.budget = n; }, FORMING);
  await page.locator(`${trainer} button[data-action="play"]`).click();
  await page.waitForFunction((sel) => document.querySelector(sel).lm?.history.step.length >= 2, trainer, { timeout: 60_000 });
  assert.match(await page.locator(`${trainer} .formed-note`).innerText(), /No head’s induction score has reached 0.3 yet/);
  await page.waitForFunction((sel) => document.querySelector(sel).playing === false, trainer, { timeout: 300_000 });
  const { history: h, step } = await lmOf(page);
  assert.equal(step, FORMING, 'it ran to its budget: the loss did not pause it while the windows were short');
  assert.ok(best(h.induction, -1) >= 0.3 && best(h.induction, 0) < 0.1, `best induction ${best(h.induction, 0)} -> ${best(h.induction, -1)}`);
  assert.ok(best(h.previous_token, -1) >= 0.5, `best previous-token ${best(h.previous_token, -1)}`);
  // The step it formed at is after the short windows (2,000), marked on the chart and said.
  const formed = Number(await page.locator(`${trainer} .formed-note`).getAttribute('data-formed'));
  assert.ok(formed > 2000 && formed <= FORMING, `formed at ${formed}`);
  assert.match(await page.locator(`${trainer} .formed-note`).innerText(), new RegExp(`step ${formed}, where a head’s induction score first reached 0.3`));
  assert.equal(await page.locator(`${trainer} svg[data-chart="induction"] line.formed`).count(), 1);
  // Olsson et al.'s phase change, shown rather than said: as the heads form, a held-out span read
  // right after itself becomes much cheaper than read after another, charted on the same axis
  // with the same mark.
  const before = h.in_context[h.step.findLastIndex((s) => s <= 2000)], after = h.in_context.at(-1);
  // (in Node, on 16 spans: 0.28 at step 2,000, 0.51 at 2,250, 0.77 at 2,500)
  assert.ok(before < 0.5 && after > 0.6 && after - before > 0.4, `in-context score ${before} at step 2000 -> ${after}`);
  assert.equal(await page.locator(`${trainer} svg[data-chart="in_context"] line.formed`).count(), 1);
  assert.match(await page.locator(`${trainer} svg[data-chart="in_context"]`).getAttribute('aria-label'), /costs \S+ nats per token less read right after itself than after another span/);
  assert.doesNotMatch(await page.locator(`${trainer} .explain`).innerText(), /loss drops again/);
  await done(page);
});

test('where no worker can start, it trains on the page', async () => {
  const page = await env.page();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.addInitScript(() => { delete window.Worker; });
  await page.goto(`${env.base}learn/#task=language_model`);
  await page.locator(trainer).evaluate((el) => { el.budget = 5; });
  await page.locator(`${trainer} button[data-action="step"]:not([disabled])`).click({ timeout: 30_000 });
  await page.waitForFunction((sel) => document.querySelector(sel).lm?.step === 1 && !document.querySelector(sel).playing, trainer, { timeout: 30_000 });
  await page.locator(`${trainer} button[data-action="play"]`).click();
  await page.waitForFunction((sel) => document.querySelector(sel).stopped?.reason === 'budget' && !document.querySelector(sel).playing, trainer, { timeout: 60_000 });
  assert.equal((await lmOf(page)).step, 6);
  assert.deepEqual(workers, []);
  await done(page);
});
