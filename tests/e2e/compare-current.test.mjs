// The comparisons of current models' attention (ui/pages/compare-current.ts): sinusoidal against RoPE,
// MHA against GQA against MQA, the standard softmax against the online one. Every side equals
// run(spec) of its settings, and each opens from the link Share gives.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { start, cells, done } from './harness.mjs';
import * as tol from '../tolerance.mjs';

const core = await load();
let env;
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const compare = 'attention-compare';
const side = (k) => `${compare} [data-side]:nth-child(${k})`;
const BASE = { sentence: 'the dog chased the ball', seed: 5, d_model: 8 };
const HASH = 'sentence=the+dog+chased+the+ball&seed=5&d_model=8';

async function open(axis, extra = '') {
  const page = await env.page();
  await page.goto(`${env.base}compare/#compare=${axis}&${HASH}${extra}`);
  await page.locator(`${compare} ap-heatmap[key="difference"]`).first().waitFor();
  return page;
}

const near = (a, b, bound, what) => a.forEach((row, i) => row.forEach((v, j) =>
  assert.ok(Math.abs(v - b[i][j]) <= bound, `${what} [${i}][${j}]: ${v} against ${b[i][j]}`)));

/** Share, then the link in a new page: the same settings and the same differences. */
async function roundTrip(page, axis) {
  await page.locator(`${compare} button[data-action="share"]`).click();
  const link = await page.locator(`${compare} textarea.share`).inputValue();
  assert.match(link, new RegExp(`compare/#.*compare=${axis}`));
  const again = await env.page();
  await again.goto(link);
  await again.locator(`${compare} ap-heatmap[key="difference"]`).first().waitFor();
  const read = (p) => p.locator(compare).evaluate((el) => ({ state: el.state, traces: el.traces }));
  assert.deepEqual(await read(again), await read(page));
  assert.deepEqual(await cells(again, 'difference', 0, compare), await cells(page, 'difference', 0, compare));
  await done(again);
}

test('sinusoidal against RoPE: both sides are the core\'s, the difference is right minus left, and Share round-trips', async () => {
  const page = await open('positional');
  const a = core.run({ ...BASE, positional: 'sinusoidal' }), b = core.run({ ...BASE, positional: 'rope' });
  assert.ok(b.Q_rope, 'the right side is rotary');
  assert.deepEqual(await cells(page, 'weights', 0, side(1)), a.weights[0]);
  assert.deepEqual(await cells(page, 'weights', 0, side(2)), b.weights[0]);
  const delta = await cells(page, 'difference', 0, compare);
  delta.forEach((row, i) => row.forEach((v, j) => assert.equal(v, b.weights[0][i][j] - a.weights[0][i][j])));
  // The sides set the encoding themselves: no control for it, but RoPE's own settings.
  assert.equal(await page.locator(`${compare} #c-positional`).count(), 0);
  assert.equal(await page.locator(`${compare} #c-rope_base`).count(), 1);
  await roundTrip(page, 'positional');
  await done(page);
});

test('MHA against GQA against MQA: three sides from the same X and weights; the first head of each group is unchanged', async () => {
  const page = await open('kv_heads');
  assert.equal(await page.locator(`${compare} [data-side]`).count(), 3);
  const mha = core.run({ ...BASE, heads: 4, kv_heads: 4 });
  assert.equal(mha.spec.d_k, 2);
  // Key/value head g of the sharing model: the columns of query head g·(4 / kv) under MHA.
  const keep = (w, kv) => w.map((row) => Array.from({ length: kv }, (_, g) => row.slice(g * (4 / kv) * 2, (g * (4 / kv) + 1) * 2)).flat());
  const shared = (kv) => core.run({ ...BASE, heads: 4, kv_heads: kv, X: mha.X, W_q: mha.W_q, W_o: mha.W_o, W_k: keep(mha.W_k, kv), W_v: keep(mha.W_v, kv) });
  const [gqa, mqa] = [shared(2), shared(1)];
  assert.deepEqual(gqa.kv_group, [0, 0, 1, 1]);
  for (const [k, trace] of [[1, mha], [2, gqa], [3, mqa]]) {
    for (let h = 0; h < 4; h++) assert.deepEqual(await cells(page, 'weights', h, side(k)), trace.weights[h], `side ${k}, head ${h + 1}`);
  }
  // GQA's heads 0 and 2 keep their key/value heads (to rounding); heads 1 and 3 do not.
  const differences = `${compare} .card.diff:first-child`;
  for (const [h, kept] of [[0, true], [1, false], [2, true], [3, false]]) {
    const delta = await cells(page, 'difference', h, differences);
    near(delta, gqa.weights[h].map((row, i) => row.map((v, j) => v - mha.weights[h][i][j])), tol.lastBits, `Δ head ${h + 1}`);
    assert.equal(Math.max(...delta.flat().map(Math.abs)) <= tol.reordered, kept, `head ${h + 1} ${kept ? 'kept' : 'changed'}`);
  }
  assert.match(await page.locator(`${compare} [data-summary] >> nth=0`).innerText(), /Heads 1, 3 kept their key\/value head/);
  await roundTrip(page, 'kv_heads');
  await done(page);
});

test('standard against online softmax: the same head outputs, a difference of 0 to rounding, and a note why', async () => {
  const page = await open('online', '&heads=2&online_block=2');
  const a = core.run({ ...BASE, heads: 2 }), b = core.run({ ...BASE, heads: 2, online_block: 2 });
  for (const h of [0, 1]) {
    assert.deepEqual(await cells(page, 'heads', h, side(1)), a.heads[h]);
    const last = b.online[h].at(-1);
    const shown = await cells(page, 'heads', h, side(2));
    assert.deepEqual(shown, last.o.map((row, i) => row.map((v) => v / last.l[i])));  // o / l of the last block
    near(shown, a.heads[h], tol.reordered, `o / l of head ${h + 1}`);
    near(await cells(page, 'difference', h, compare), a.heads[h].map((r) => r.map(() => 0)), tol.reordered, `Δ head ${h + 1}`);
  }
  assert.match(await page.locator(`${compare} [data-summary]`).innerText(), /^0 of 40 numbers moved by more than 0.005.*another order/s);
  assert.match(await page.locator(`${compare} .why`).innerText(), /without ever holding the n × n weights/);
  await roundTrip(page, 'online');
  await done(page);
});

test('axe-core finds nothing in the three comparisons, light and dark, wide and phone, and nothing scrolls sideways', async () => {
  const axe = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
  for (const [axis, width, colorScheme] of [['positional', 390, 'dark'], ['kv_heads', 1280, 'dark'], ['online', 390, 'light'], ['online', 1280, 'light']]) {
    const page = await env.page({ viewport: { width, height: 900 }, colorScheme });
    await page.goto(`${env.base}compare/#compare=${axis}&${HASH}`);
    await page.locator(`${compare} ap-heatmap[key="difference"]`).first().waitFor();
    await page.addScriptTag({ content: axe });
    const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
      .map((v) => `${v.id} (${v.nodes.length}) ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ')}`));
    assert.deepEqual(found, [], `${axis} ${width}px ${colorScheme}`);
    assert.ok(await page.evaluate((w) => document.documentElement.scrollWidth <= w, width), `${axis} ${width}px scrolls sideways`);
    await done(page);
  }
});

test('a large comparison is computed in the worker: the page keeps answering, and every side is the core\'s', async () => {
  const page = await env.page();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  const sentence = Array.from({ length: 512 }, (_, i) => `w${i % 97}`).join(' ');
  await page.goto(`${env.base}compare/#compare=kv_heads&sentence=${encodeURIComponent(sentence)}&d_model=8`);
  // while the sides are computed the page answers: a frame comes within a frame's time
  const frame = await page.evaluate(() => new Promise((r) => { const t0 = performance.now(); requestAnimationFrame(() => r(performance.now() - t0)); }));
  assert.ok(frame < 1000, `a frame took ${frame} ms`);
  await page.locator(`${compare} ap-heatmap[key="difference"]`).first().waitFor({ timeout: 60_000 });
  assert.equal(workers.length, 1, 'the sides came from the page\'s worker');
  const shown = await page.locator(compare).evaluate((el) => el.sides().map((s, i) => ({
    spec: el.specOf(s, i ? el.traces[0] : undefined), last: el.traces[i].weights.map((head) => head[511]) })));
  assert.equal(shown.length, 3);
  for (const { spec, last } of shown) {
    assert.ok(core.work(spec).cells >= 400_000, 'large enough for the worker');
    assert.deepEqual(last, core.run(spec).weights.map((head) => head[511]));
  }
  await done(page);
});
