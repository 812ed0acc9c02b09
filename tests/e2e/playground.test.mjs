// The playground in real Chromium, as a learner uses it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';
import { start, cells, shownText, drawn, ready, done } from './harness.mjs';
import { maxError } from '../wasm/compare.mjs';
import * as tol from '../tolerance.mjs';

let env;
const core = await load();
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const specOf = (page) => page.locator('attention-playground').evaluate((el) => el.spec);

/** A fresh page on the playground, its first trace drawn. */
async function open(options = {}) {
  const page = await env.page(options);
  await page.goto(env.base);
  await ready(page);
  return page;
}

test('typing a sentence shows n x n weights equal to run(spec)', async () => {
  const page = await open();
  await page.fill('#c-sentence', 'attention is all you need , really');
  await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot
    .querySelector('ap-heatmap[key="weights"]').shadowRoot.querySelectorAll('td[data-row]').length === 49);
  const spec = await specOf(page);
  const trace = core.run(spec);
  assert.equal(trace.tokens.length, 7);
  assert.deepEqual(await cells(page, 'weights'), trace.weights[0]);
  assert.deepEqual(await cells(page, 'output'), trace.output);
  await done(page);
});

test('a long sentence is computed in a Web Worker and equals run(spec)', async () => {
  const page = await open();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  const sentence = Array.from({ length: 480 }, (_, i) => `w${i % 41}`).join(' ');
  const shown = await page.locator('attention-playground').evaluate((el, sentence) => new Promise((resolve) => {
    el.addEventListener('trace', (e) => resolve(e.detail), { once: true });
    const input = el.shadowRoot.querySelector('#c-sentence');
    input.value = sentence;
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  }), sentence);
  assert.equal(workers.length, 1);
  assert.match(workers[0], /worker/);
  assert.equal(shown.trace.tokens.length, 480);
  assert.deepEqual(shown.trace, core.run(shown.spec));  // the packed trace from the worker, unpacked
  await page.locator('ap-heatmap[key="weights"] canvas').first().waitFor();
  await done(page);
});

test('the same seed gives the same numbers after a reload', async () => {
  const page = await open();
  await page.fill('#c-seed', '2024');
  await page.fill('#c-sentence', 'same seed same numbers');
  await page.waitForFunction(() => location.hash.includes('seed=2024') && location.hash.includes('numbers'));
  const before = await cells(page, 'weights');
  await page.reload();
  await ready(page);
  assert.equal(await page.inputValue('#c-seed'), '2024');
  assert.deepEqual(await cells(page, 'weights'), before);
  await done(page);
});

test('preset: seed 000 scores 927 on screen', async () => {
  const page = await open();
  await page.click('button[data-preset="seed000"]');
  await page.locator('ap-heatmap[key="context"]').waitFor();
  const scores = await cells(page, 'scores');
  assert.deepEqual(scores[0], [927, 397, 148, 929]);
  const text = await page.locator('ap-heatmap[key="scores"] table').innerText();
  assert.match(text, /927/);
  await done(page);
});

test('preset: seed 004 shows its printed attention output', async () => {
  const page = await open();
  await page.click('button[data-preset="seed004"]');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.weight_init === 'int:3');
  const printed = [[0.81676354, 1.14873475, 0.33197121], [0.71861207, 1.07919157, 0.3605795],
    [0.74203343, 1.13656778, 0.39453435], [0.75607715, 1.11278575, 0.3567086], [0.79709991, 1.15043165, 0.35333174]];
  const r = maxError(await cells(page, 'output'), printed);
  assert.ok(r.error < tol.printedDigits, `${r.where}: ${r.error}`);
  // and the digits a reader compares with the article are the ones on screen
  const shown = (await shownText(page, 'output')).map(Number);
  assert.deepEqual(shown, printed.flat().map((v) => Number(v.toPrecision(3))));
  assert.deepEqual(await cells(page, 'W_q'), [[2, 0, 2], [2, 0, 0], [2, 1, 2]]);
  await done(page);
});

test('preset: seed 001 shows "This is book" scaled by 1/√5', async () => {
  const page = await open();
  await page.click('button[data-preset="seed001"]');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.sentence === 'This is book');
  const spec = await specOf(page);
  assert.deepEqual(await cells(page, 'X'), [[0.1, -0.3, 0.5, -0.2, 0.7], [-0.6, 0.2, 0.9, -0.1, 0.3], [0.8, -0.5, -0.4, 0.6, -0.9]]);
  assert.equal((await cells(page, 'Q'))[0].length, 3);
  assert.match(await page.locator('#step-scale .fact').innerText(), /scale = 0\.4472136/);
  assert.deepEqual(await cells(page, 'weights'), core.run(spec).weights[0]);
  await done(page);
});

test('clicking a weight shows its derivation with the real numbers', async () => {
  const page = await open();
  const cell = page.locator('ap-heatmap[key="weights"] td[data-row="2"][data-col="1"]');
  const value = Number(await cell.getAttribute('data-value'));
  await cell.click();
  const panel = page.locator('ap-derivation');
  await panel.locator('h3').waitFor();
  const text = await panel.evaluate((el) => el.shadowRoot.textContent.replace(/\s+/g, ' '));
  assert.match(text, /“sat” → “cat”/);
  assert.match(text, /q · k =/);
  assert.match(text, /exp\(score − max\)/);
  // its numbers are written as the cells write them, each with its full precision on hover
  assert.ok(await panel.evaluate((el, v) => [...el.shadowRoot.querySelectorAll('.result [title]')].some((s) => s.title === v),
    String(Number(value.toPrecision(8)))), `the panel shows ${value}`);
  // keyboard: the same works with arrows and Enter
  await cell.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot.querySelector('ap-derivation')
    .shadowRoot.textContent.includes('“sat” → “sat”'));
  await done(page);
});

test('hovering a token keeps its arcs, hovering a step highlights the matrices it reads', async () => {
  const page = await open();
  const trace = core.run(await specOf(page));
  const arcs = page.locator('ap-arcs');
  const strong = (i) => trace.weights[0][i].filter((w) => w >= 0.01).length;
  const lines = async () => (await drawn(arcs)).evaluate((el) => [...el.shadowRoot.querySelectorAll('line')].map((l) => Number(l.getAttribute('y1'))));
  assert.equal((await lines()).length, trace.tokens.map((_, i) => strong(i)).reduce((a, b) => a + b));
  await arcs.locator('text[aria-label^="query"] >> nth=2').hover();
  await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot.querySelector('ap-arcs').active === 2);
  const kept = await lines();
  assert.equal(kept.length, strong(2));
  assert.equal(new Set(kept).size, 1);  // every line leaves token 2
  await page.locator('#step-project').hover();
  await page.locator('ap-heatmap[key="X"][highlight]').waitFor();
  assert.equal(await page.locator('ap-heatmap[highlight]').count(), 1);  // project reads X only
  await page.locator('#step-weigh').hover();
  await page.locator('ap-heatmap[key="V"][highlight]').waitFor();
  assert.equal(await page.locator('ap-heatmap[key="weights"][highlight]').count(), 1);
  await done(page);
});

test('a bad value shows a message beside its control and the page keeps working', async () => {
  const page = await open();
  await page.fill('#c-seed', 'forty-two');
  assert.match(await page.locator('.control[data-key="seed"] .message').innerText(), /Seed must be a whole number/);
  await page.fill('#c-heads', '3');
  assert.match(await page.locator('.control[data-key="heads"] .message').innerText(), /3 heads do not divide d_model 4/);
  await page.fill('#c-heads', '2');
  await page.fill('#c-seed', '7');
  await page.waitForFunction(() => document.querySelectorAll('attention-playground').length === 1 &&
    document.querySelector('attention-playground').shadowRoot.querySelectorAll('ap-heatmap[key="weights"]').length === 2);
  assert.equal(await page.locator('.control .message').count(), 0);
  await page.fill('#c-sentence', '<img src=x onerror="window.pwned=1"></script>');
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.ok((await page.locator('.token').allInnerTexts()).includes('<'));
  await done(page);
});

test('editing a cell of X recomputes, and reset returns to the seed', async () => {
  const page = await open();
  const before = await cells(page, 'Q');
  await page.locator('ap-heatmap[key="X"] td[data-row="0"][data-col="0"]').click();
  await page.locator('ap-heatmap[key="X"] input').fill('not a number');
  await page.keyboard.press('Enter');
  assert.match(await page.locator('ap-heatmap[key="X"] .error').innerText(), /is not a number/);
  await page.locator('ap-heatmap[key="X"] input').fill('10');
  await page.keyboard.press('Enter');
  await page.locator('text=reset X to the seed').waitFor();
  const spec = await specOf(page);
  assert.equal(spec.X[0][0], 10);
  assert.deepEqual(await cells(page, 'Q'), core.run(spec).Q);
  await page.click('text=reset X to the seed');
  await page.waitForFunction(() => !('X' in document.querySelector('attention-playground').spec));
  assert.deepEqual(await cells(page, 'Q'), before);
  await done(page);
});

test('every control recomputes live and nothing leaves the page', async () => {
  const page = await open({ viewport: { width: 390, height: 844 } });
  await page.click('details.settings > summary');  // on a phone the settings are folded under the sentence
  await page.check('#c-residual');
  await page.locator('ap-heatmap[key="normalized"]').waitFor();
  assert.deepEqual(await cells(page, 'normalized'), core.run(await specOf(page)).normalized);
  const changes = [['#c-score', 'additive'], ['#c-mask', 'window'], ['#c-positional', 'sinusoidal'],
    ['#c-attention', 'hard'], ['#c-embedding_init', 'normal'], ['#c-weight_init', 'int:3'], ['#c-mode', 'encoder_decoder']];
  for (const [sel, value] of changes) {
    await page.selectOption(sel, value);
    const spec = await specOf(page);
    const trace = core.run(spec);
    assert.equal(trace.error, undefined, `${sel}=${value}: ${trace.error?.message}`);
    const shown = await cells(page, 'weights');
    assert.deepEqual(spec.mode === 'encoder_decoder' ? shown[0] : shown, spec.mode === 'encoder_decoder' ? trace.weights : trace.weights[0], `${sel}=${value}`);
  }
  await done(page);
});
