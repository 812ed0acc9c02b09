// The learner: follows one token from its query to its output with the real numbers, and
// clicks a number to see, beside it (or in a sheet on a phone), how it is computed, while the
// cells it is computed from light up where they stand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { start, ready, drawn, done } from './harness.mjs';
import * as tol from '../tolerance.mjs';

const core = await load();
const pages = {};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

const page1 = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>flow</title><link rel="icon" href="data:,">
<script type="module" src="/attention-playground.js"></script></head><body><main>${body}</main></body></html>`;

/** What the flow view inside `host` shows: its token, head, weights and output row (full precision). */
const flowOf = (page, host = 'attention-playground') => page.locator(`${host} ap-flow`).evaluate(async (el) => {
  await el.updateComplete;
  const r = el.shadowRoot;
  const values = (sel) => [...r.querySelectorAll(sel)].map((e) => Number(e.dataset.value));
  return {
    token: Number(r.querySelector('button.pick[aria-pressed="true"]').dataset.index),
    head: Number(r.querySelector('button.head[aria-pressed="true"]')?.dataset.head ?? 0),
    weights: values('td.weight'),
    output: values('.out .comp'),
    query: values('.q .comp'),
  };
});
const near = (a, b) => Math.abs(a - b) < tol.reordered;
const axe = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
/** axe-core's violations inside `selector`. */
async function violations(page, selector) {
  await page.addScriptTag({ content: axe });
  return page.evaluate(async (sel) => (await window.axe.run(sel, { resultTypes: ['violations'] })).violations
    .map((v) => `${v.id}: ${v.help} ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ')}`), selector);
}

test('view="flow" follows token 2 from its query to its output, with the trace\'s own numbers', async () => {
  pages['/flow.html'] = page1('<attention-playground id="f" view="flow" focus-token="2" heads="2" d-model="8" controls="sentence"></attention-playground>');
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base + 'flow.html');
  await page.locator('#f ap-flow td.weight').first().waitFor();
  const trace = await page.locator('#f').evaluate((el) => el.trace);
  let flow = await flowOf(page, '#f');
  assert.equal(flow.token, 2);
  assert.deepEqual(flow.weights, trace.weights[0][2]);
  assert.ok(near(flow.weights.reduce((a, b) => a + b), 1), 'a softmax row adds up to 1');
  assert.deepEqual(flow.output, trace.heads[0][2]);
  assert.deepEqual(flow.query, trace.Q[2].slice(0, 4));  // head 0: Q's first d_k = 4 columns
  assert.deepEqual(trace.weights, core.run(trace.spec).weights);
  // per head
  await page.click('#f ap-flow button.head[data-head="1"]');
  flow = await flowOf(page, '#f');
  assert.deepEqual([flow.head, flow.output, flow.query], [1, trace.heads[1][2], trace.Q[2].slice(4, 8)]);
  // another token, by its chip or by a key's label
  await page.click('#f ap-flow button.pick[data-index="4"]');
  flow = await flowOf(page, '#f');
  assert.deepEqual([flow.token, flow.weights, flow.output], [4, trace.weights[1][4], trace.heads[1][4]]);
  assert.equal(await page.locator('#f').evaluate((el) => el.focusToken), 4);
  await page.click('#f ap-flow table.scores tr[data-key="0"] th button');
  assert.equal((await flowOf(page, '#f')).token, 0);
  // live: a new sentence, new numbers
  await page.locator('#f #c-sentence').fill('a much shorter one');
  await page.waitForFunction(() => document.querySelector('#f').trace.tokens.length === 4);
  const next = await page.locator('#f').evaluate((el) => el.trace);
  flow = await flowOf(page, '#f');
  assert.deepEqual(flow.weights, next.weights[1][0]);
  assert.deepEqual(flow.output, next.heads[1][0]);
  await done(page);
  for (const [width, colorScheme] of [[1280, 'dark'], [390, 'light']]) {
    const small = await env.page({ viewport: { width, height: 900 }, colorScheme });
    await small.goto(env.base + 'flow.html');
    await small.locator('#f ap-flow td.weight').first().waitFor();
    assert.deepEqual(await violations(small, '#f'), [], `${width} ${colorScheme}`);
    assert.ok(await small.evaluate((w) => document.documentElement.scrollWidth <= w, width), `${width}px scrolls sideways`);
    await done(small);
  }
});

test('the flow view follows the rotated query of RoPE and a key/value head shared by several query heads', async () => {
  pages['/llama.html'] = page1('<attention-playground id="l" preset="llama" view="flow" focus-token="3" controls="none"></attention-playground>');
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base + 'llama.html');
  await page.locator('#l ap-flow td.weight').first().waitFor();
  const trace = await page.locator('#l').evaluate((el) => el.trace);
  assert.ok(trace.Q_rope && trace.spec.kv_heads < trace.weights.length, 'the preset rotates and shares');
  const dk = trace.spec.d_k, h = 3;
  await page.click(`#l ap-flow button.head[data-head="${h}"]`);
  const flow = await flowOf(page, '#l');
  assert.deepEqual(flow.query, trace.Q_rope[3].slice(h * dk, (h + 1) * dk));
  assert.deepEqual([flow.weights, flow.output], [trace.weights[h][3], trace.heads[h][3]]);
  assert.match(await page.locator('#l ap-flow .say').nth(1).innerText(), new RegExp(`K_rope, key/value head ${trace.kv_group[h]}’s columns`));
  await done(page);
});

test('on the page, the flow view draws only when reached; a token chip or a row label picks the token', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  await page.goto(env.base + '#sentence=the+cat+sat+on+the+mat');
  await ready(page);
  const drawnYet = () => page.locator('ap-flow').evaluate((el) => el.shadowRoot.querySelectorAll('td.weight').length);
  assert.equal(await drawnYet(), 0, 'far below the first screen: not drawn');
  // the chip at the top: the view comes into sight, following that token
  await page.click('.tokens button[data-index="3"]');
  await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot.querySelector('ap-flow').shadowRoot.querySelectorAll('td.weight').length === 6);
  const trace = await page.locator('attention-playground').evaluate((el) => el.trace);
  let flow = await flowOf(page);
  assert.deepEqual([flow.token, flow.weights, flow.output], [3, trace.weights[0][3], trace.heads[0][3]]);
  // motion is off when the reader asks for less of it
  assert.equal(await page.locator('ap-flow').evaluate((el) => getComputedStyle(el.shadowRoot.querySelector('.wbar i')).transitionDuration), '0s');
  // the label of a row of the weights
  const label = page.locator('ap-heatmap[key="weights"] tbody tr').nth(1).locator('th');
  await drawn(page.locator('ap-heatmap[key="weights"]'));
  await label.click();
  assert.equal(await page.locator('.tokens button[aria-pressed="true"]').getAttribute('data-index'), '1');
  await page.locator('#step-flow').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot.querySelector('ap-flow')
    .shadowRoot.querySelector('button.pick[aria-pressed="true"]').dataset.index === '1');
  flow = await flowOf(page);
  assert.deepEqual([flow.token, flow.weights], [1, trace.weights[0][1]]);
  await done(page);
});

test('a pasted long text: its first chips stay in a box of five lines, the first matrix stays on the first screen, any token is followed by its position', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 800 } });
  const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
  await page.goto(env.base + `#sentence=${words.join('+')}`);
  await ready(page);
  const strip = page.locator('.tokens[part="tokens"]');
  const box = await strip.boundingBox();
  assert.ok(box.height < 170, `the chips take ${box.height}px`);
  assert.equal(await page.locator('.tokens button.token').count(), 96);
  const x = await page.locator('ap-heatmap[key="X"]').boundingBox();
  assert.ok(x.y < 800 - 100, `X starts at ${x.y}px`);
  const trace = await page.locator('attention-playground').evaluate((el) => el.trace);
  const followed = async (i) => {
    await page.waitForFunction((i) => document.querySelector('attention-playground').shadowRoot.querySelector('ap-flow')
      .shadowRoot.querySelector('button.pick[aria-pressed="true"]')?.dataset.index === String(i), i);
    const flow = await flowOf(page);
    assert.deepEqual([flow.token, flow.output], [i, trace.heads[0][i]]);
  };
  // the last chip, scrolled to in its box
  await page.click('.tokens button[data-index="95"]');
  await followed(95);
  // a token past the chips, by its position; a position that is none is said beside the field
  const position = page.locator('p.more input');
  assert.match(await page.locator('p.more').innerText(), /^and 204 more: follow the token at position/);
  await position.fill('300');
  await position.press('Enter');
  assert.match(await page.locator('p.more .message').innerText(), /^300 is not a position here: 0 to 299$/);
  assert.equal(await position.getAttribute('aria-invalid'), 'true');
  await position.fill('250');
  await position.press('Enter');
  assert.equal(await page.locator('p.more .message').count(), 0);
  await followed(250);
  await done(page);
});

test('typing at d_model 256: the weights, which do not change, are not drawn again; what the sentence changes is', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 800 } });
  await page.goto(env.base + '#d_model=256&sentence=the+cat');
  await ready(page);
  for (const key of ['X', 'W_q', 'W_k', 'W_v']) await drawn(page.locator(`ap-heatmap[key="${key}"]`));
  await page.locator('attention-playground').evaluate((el) => {
    window.draws = {};
    for (const v of el.shadowRoot.querySelectorAll('ap-heatmap')) {
      const key = v.getAttribute('key'), updated = v.updated.bind(v);
      v.updated = (changed) => { window.draws[key] = (window.draws[key] ?? 0) + 1; updated(changed); };
    }
  });
  const before = await page.locator('ap-heatmap[key="W_q"]').evaluate((el) => el.shadowRoot.querySelector('canvas'));
  assert.ok(before, 'W_q (256 x 256) is a picture');
  await page.locator('#c-sentence').press('End');
  await page.locator('#c-sentence').pressSequentially(' sat');
  await page.waitForFunction(() => document.querySelector('attention-playground').trace.tokens.length === 3);
  await drawn(page.locator('ap-heatmap[key="X"]'));
  await page.waitForTimeout(300);  // time for any late redraw to show up in the count
  const draws = await page.evaluate(() => window.draws);
  for (const key of ['W_q', 'W_k', 'W_v']) assert.equal(draws[key], undefined, `${key} drawn again: ${JSON.stringify(draws)}`);
  assert.ok(draws.X >= 1, `X not drawn again: ${JSON.stringify(draws)}`);
  const shown = await page.locator('attention-playground').evaluate((el) => ({ X: el.trace.X, W_q: el.trace.W_q }));
  const expected = core.trace({ d_model: 256, sentence: 'the cat sat' });
  assert.deepEqual(shown, { X: expected.X, W_q: expected.W_q });
  await done(page);
});

test('a clicked weight lights up its row of Q and row of K in place, and the panel stands beside it', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base + '#sentence=the+cat+sat+on+the+mat&heads=2&d_model=8');
  await ready(page);
  const cell = page.locator('ap-heatmap[key="weights"]').nth(1).locator('td[data-row="2"][data-col="4"]');  // head 1
  await drawn(page.locator('ap-heatmap[key="weights"]').nth(1));
  await cell.click();
  await page.locator('.derivation ap-derivation h3').waitFor();
  // beside the matrices, not over them
  const panel = await page.locator('.derivation').boundingBox();
  const map = await page.locator('ap-heatmap[key="weights"]').nth(1).boundingBox();
  const c = await cell.boundingBox();
  assert.ok(panel.x >= map.x + map.width, `panel at x=${panel.x}, weights end at ${map.x + map.width}`);
  assert.ok(c.y >= 0 && c.y + c.height <= 900, 'the clicked cell is on screen');
  const lit = async (key, head = 0) => (await drawn(page.locator(`ap-heatmap[key="${key}"]`).nth(head))).evaluate(async (el) => {
    await el.updateComplete;
    return [...el.shadowRoot.querySelectorAll('td.lit')].map((td) => [Number(td.dataset.row), Number(td.dataset.col)]);
  });
  const block = (row, cols) => cols.map((c) => [row, c]);
  assert.deepEqual(await lit('Q'), block(2, [4, 5, 6, 7]));      // head 1: columns 4 to 7
  assert.deepEqual(await lit('K'), block(4, [4, 5, 6, 7]));
  assert.deepEqual(await lit('scores', 1), block(2, [0, 1, 2, 3, 4, 5]));  // the softmax reads the whole row
  assert.deepEqual(await lit('scores', 0), []);
  assert.deepEqual(await lit('V'), []);
  assert.match(await page.locator('ap-derivation h3').innerText(), /“sat” → “the” \(row 2, column 4\), head 1/);
  // an output cell is named by the header above it, counted from 0 as the headers are
  const out = page.locator('ap-heatmap[key="output"] td[data-row="3"][data-col="2"]');
  await drawn(page.locator('ap-heatmap[key="output"]'));
  const header = await page.locator('ap-heatmap[key="output"] thead th').nth(2).innerText();
  await out.click();
  await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot.querySelector('ap-derivation').shadowRoot.textContent.includes('output ·'));
  assert.match(await page.locator('ap-derivation h3').innerText(), new RegExp(`output · row 3 “on”, column ${header}\\b`));
  assert.match(await page.locator('ap-derivation').evaluate((el) => el.shadowRoot.textContent), new RegExp(`W_o column ${header}\\b`));
  assert.deepEqual(await lit('W_o'), Array.from({ length: 8 }, (_, r) => [r, 2]));
  assert.deepEqual(await lit('Q'), []);
  await page.click('.derivation button.close');
  assert.equal(await page.locator('.derivation').count(), 0);
  await done(page);
});

test('on a phone the derivation is a closable sheet that leaves the clicked cell in sight', async () => {
  const page = await env.page({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(env.base + '#sentence=the+cat+sat+on+the+mat');
  await ready(page);
  // first a cell at the bottom of the screen, where the sheet comes up; then one at the top
  for (const [row, col, at] of [[5, 5, 'end'], [0, 1, 'start']]) {
    const cell = page.locator(`ap-heatmap[key="weights"] td[data-row="${row}"][data-col="${col}"]`);
    await drawn(cell);
    await cell.evaluate((td, block) => td.scrollIntoView({ block }), at);
    await cell.tap();
    await page.locator('.derivation ap-derivation h3').waitFor();
    await page.waitForTimeout(100);
    const sheet = await page.locator('.derivation').boundingBox();
    const c = await cell.boundingBox();
    assert.equal(await page.locator('.derivation').evaluate((el) => getComputedStyle(el).position), 'fixed');
    assert.ok(sheet.y + sheet.height >= 844 - 1 && sheet.height <= 844 * 0.5, JSON.stringify(sheet));
    assert.ok(c.y >= -1 && c.y + c.height <= sheet.y, `cell ${JSON.stringify(c)} under the sheet at ${sheet.y}`);
    assert.deepEqual(await page.locator('ap-heatmap[key="Q"]').evaluate((el) => [...el.shadowRoot.querySelectorAll('td.lit')].map((td) => td.dataset.row)),
      ['0', '1', '2', '3'].map(() => String(row)));
  }
  await page.locator('.derivation button.close').tap();
  assert.equal(await page.locator('.derivation').count(), 0);
  await done(page);
});
