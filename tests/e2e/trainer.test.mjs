// Watch it learn (ui/trainer.ts): training runs in a worker, the loss falls, the same seed
// gives the same run, and bad settings get a message beside their control.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadTraining } from '../../dist/attention.js';
import { start, cells, done } from './harness.mjs';

const training = await loadTraining();
let env;
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const trainer = 'attention-trainer';
const stat = (page, name) => page.locator(`${trainer} [data-stat="${name}"]`).innerText();
const snapshotOf = (page) => page.locator(trainer).evaluate((el) => el.snapshot);

/** Runs `steps` steps with +100 and waits until the element shows them. */
async function train(page, steps) {
  for (let k = 0; k < steps / 100; k++) {
    await page.locator(`${trainer} button[data-action="step100"]`).click();
    await page.waitForFunction(([sel, want]) => document.querySelector(sel).snapshot?.step === want, [trainer, 100 * (k + 1)]);
  }
}

test('a few hundred steps in a worker: the loss falls and the accuracy rises', async () => {
  const page = await env.page();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(`${env.base}learn/#task=reverse&seed=7`);
  await page.locator(`${trainer} button[data-action="play"]:not([disabled])`).waitFor();
  const before = await snapshotOf(page);
  assert.equal(before.step, 0);
  await train(page, 400);
  const after = await snapshotOf(page);
  assert.ok(workers.some((u) => /train-worker/.test(u)), `workers: ${workers}`);
  assert.ok(after.metrics.eval_loss < 0.5 * before.metrics.eval_loss, `held-out loss ${before.metrics.eval_loss} -> ${after.metrics.eval_loss}`);
  assert.ok(after.metrics.accuracy > before.metrics.accuracy + 0.3, `accuracy ${before.metrics.accuracy} -> ${after.metrics.accuracy}`);
  assert.equal(await stat(page, 'step'), '400');
  assert.ok(after.history.step.length > 10);
  // Every head's weights for the example are on screen, have changed since step 0, rows sum to 1.
  assert.equal(await page.locator(`${trainer} ap-heatmap`).count(), after.heads);
  for (let h = 0; h < after.heads; h++) assert.deepEqual(await cells(page, 'train-weights', h, trainer), after.weights[h]);
  assert.notDeepEqual(after.weights[0], before.weights[0]);
  for (const row of after.weights[0]) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-9);
  // The curves: a loss line and an accuracy line through every point of the history.
  const curves = await page.locator(`${trainer} svg polyline`).evaluateAll((ls) => ls.map((l) => l.getAttribute('points').trim().split(/\s+/).length));
  assert.deepEqual(curves, [after.history.step.length, after.history.step.length]);
  // The task says what the heads should learn.
  assert.match(await page.locator(`${trainer} .explain`).innerText(), /L-1-i/);
  await done(page);
});

test('Step, the example buttons and the learning rate', async () => {
  const page = await env.page();
  await page.goto(`${env.base}learn/#task=sort&seed=5`);
  await page.locator(`${trainer} button[data-action="play"]:not([disabled])`).waitFor();
  await page.fill(`${trainer} #c-learning_rate`, '0.01');
  await page.waitForFunction((sel) => document.querySelector(sel).snapshot?.step === 0 && location.hash.includes('learning_rate=0.01'), trainer);
  for (let k = 1; k <= 3; k++) {
    await page.locator(`${trainer} button[data-action="step"]`).click();
    await page.waitForFunction(([sel, k]) => document.querySelector(sel).snapshot?.step === k, [trainer, k]);
  }
  assert.equal(training.start({ task: 'sort', seed: 5, learning_rate: 0.01 }).error, undefined);
  assert.deepEqual((await snapshotOf(page)).metrics, training.step(3));
  const shown = await page.locator(`${trainer} .seq tr >> nth=0`).innerText();
  await page.locator(`${trainer} button[aria-label="next example"]`).click();
  await page.waitForFunction((sel) => document.querySelector(sel).snapshot?.example === 1, trainer);
  assert.deepEqual((await snapshotOf(page)).weights, training.snapshot(1).weights);
  assert.notEqual(await page.locator(`${trainer} .seq tr >> nth=0`).innerText(), shown);
  await page.locator(`${trainer} button[aria-label="previous example"]`).click();
  await page.locator(`${trainer} button[aria-label="previous example"]`).click();
  await page.waitForFunction((sel) => document.querySelector(sel).snapshot?.example === 255, trainer);  // wraps round
  await done(page);
});

test('the same seed gives the same run, in the page and in Node', async () => {
  const page = await env.page();
  await page.goto(`${env.base}learn/#task=copy&seed=3&heads=1`);
  await page.locator(`${trainer} button[data-action="play"]:not([disabled])`).waitFor();
  await train(page, 200);
  const shown = await snapshotOf(page);
  assert.deepEqual(training.start({ task: 'copy', seed: 3, heads: 1 }).error, undefined);
  const metrics = training.step(200);
  assert.deepEqual(shown.metrics, metrics);
  assert.deepEqual(shown.weights, training.snapshot(0).weights);
  await done(page);
});

test('play runs until pause, and a link replays the settings', async () => {
  const page = await env.page();
  await page.goto(`${env.base}learn/#task=earlier&speed=fast`);
  await page.locator(`${trainer} button[data-action="play"]:not([disabled])`).click();
  await page.waitForFunction((sel) => document.querySelector(sel).snapshot?.step > 50, trainer);
  await page.locator(`${trainer} button[data-action="play"]`).click();  // pause
  await page.waitForFunction((sel) => document.querySelector(sel).playing === false, trainer);
  const paused = (await snapshotOf(page)).step;
  await page.waitForTimeout(300);
  assert.equal((await snapshotOf(page)).step, paused);
  await page.locator(`${trainer} button[data-action="share"]`).click();
  const link = await page.locator(`${trainer} textarea.share`).inputValue();
  assert.match(link, /learn\/#task=earlier&speed=fast$/);
  await done(page);
});

test('a bad setting gets a message beside its control and the run keeps its last state', async () => {
  const page = await env.page();
  await page.goto(`${env.base}learn/`);
  await page.locator(`${trainer} button[data-action="play"]:not([disabled])`).waitFor();
  await page.fill(`${trainer} #c-heads`, '9');
  assert.match(await page.locator(`${trainer} .control[data-key="heads"] .message`).innerText(), /Heads must be a whole number from 1 to 4/);
  await page.fill(`${trainer} #c-heads`, '3');  // valid for the table, refused by the core: 3 does not divide 16
  assert.match(await page.locator(`${trainer} .control[data-key="heads"] .message`).innerText(), /heads/);
  await page.fill(`${trainer} #c-heads`, '4');
  await page.waitForFunction((sel) => document.querySelector(sel).snapshot?.heads === 4, trainer);
  assert.equal(await page.locator(`${trainer} .control .message`).count(), 0);
  await done(page);
});
