// Compare side by side (ui/pages/compare.ts): opened from a URL, each side equals run(spec) of its
// settings, the difference is right minus left, and the scaling view plots the entropy.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';
import { start, cells, done } from './harness.mjs';

const core = await load();
let env;
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const compare = 'attention-compare';
const detailOf = (page) => page.locator(compare).evaluate((el) => ({ state: el.state, traces: el.traces }));

for (const [axis, left, right] of [
  ['mask', { mask: 'none' }, { mask: 'causal' }],
  ['attention', { attention: 'soft' }, { attention: 'hard' }],
  ['scaling', { score: 'dot' }, { score: 'scaled_dot' }],
]) {
  test(`a comparison of ${axis} opens from a URL and shows both sides' numbers`, async () => {
    const page = await env.page();
    await page.goto(`${env.base}compare/#compare=${axis}&sentence=the+dog+chased+the+ball&seed=5&d_model=8`);
    await page.locator(`${compare} ap-heatmap[key="difference"]`).waitFor();
    const base = { sentence: 'the dog chased the ball', seed: 5, d_model: 8 };
    const a = core.run({ ...base, ...left }), b = core.run({ ...base, ...right });
    assert.deepEqual(await cells(page, 'weights', 0, `${compare} [data-side]:nth-child(1)`), a.weights[0]);
    assert.deepEqual(await cells(page, 'weights', 0, `${compare} [data-side]:nth-child(2)`), b.weights[0]);
    const delta = await cells(page, 'difference', 0, compare);
    delta.forEach((row, i) => row.forEach((v, j) => assert.equal(v, b.weights[0][i][j] - a.weights[0][i][j])));
    assert.match(await page.locator(`${compare} [data-summary]`).innerText(), /numbers moved/);
    await done(page);
  });
}

test('the scaling view plots entropy against d_k: unscaled falls, scaled stays', async () => {
  const page = await env.page();
  await page.goto(`${env.base}compare/#compare=scaling&seed=1`);
  await page.locator(`${compare} .chart svg polyline`).first().waitFor();
  const curve = await page.locator(compare).evaluate((el) => el.curve);
  const dot = curve.dot, scaled = curve.scaled_dot;
  assert.ok(dot[dot.length - 1] < 0.2 * curve.uniform, `unscaled at d_k ${curve.d_k.at(-1)}: ${dot.at(-1)}`);
  assert.ok(scaled[scaled.length - 1] > 0.7 * curve.uniform, `scaled: ${scaled.at(-1)}`);
  assert.deepEqual(curve, core.entropy({ spec: { sentence: 'the cat sat on the mat', seed: 1, score: 'dot' }, widths: curve.d_k }));
  assert.equal(await page.locator(`${compare} .chart polyline`).count(), 3);
  await done(page);
});

test('one head against several: the right side shows every head, and Embed gives a working element', async () => {
  const page = await env.page();
  await page.goto(`${env.base}compare/#compare=heads&d_model=8&sentence=a+b+c`);
  await page.locator(`${compare} ap-heatmap[key="difference"]`).waitFor();
  assert.equal(await page.locator(`${compare} [data-side]:nth-child(2) ap-heatmap[key="weights"]`).count(), 4);
  await page.locator(`${compare} button[data-action="embed"]`).click();
  const snippet = await page.locator(`${compare} textarea.share`).inputValue();
  assert.match(snippet, /<iframe src="[^"]*compare\/#compare=heads/);
  const iframe = snippet.match(/<iframe[^>]*><\/iframe>/)[0];
  const framed = await env.page();
  await framed.setContent(`<!doctype html><html lang="en"><head><title>post</title></head><body>${iframe}</body></html>`);
  await framed.frameLocator('iframe').locator(`${compare} [data-side]:nth-child(2) ap-heatmap[key="weights"] >> nth=3`).waitFor();
  await done(framed);
  const element = snippet.slice(snippet.indexOf('<script'));
  assert.match(element, /<attention-compare compare="heads" sentence="a b c" d-model="8"><\/attention-compare>/);
  const embedded = await env.page();
  await embedded.setContent(`<!doctype html><html lang="en"><head><title>post</title></head><body>${element.replace(/src="[^"]*"/, `src="${env.base}attention-playground.js"`)}</body></html>`);
  await embedded.locator(`${compare} ap-heatmap[key="difference"]`).waitFor();
  await done(embedded);
  await done(page);
});

test('Share gives a link that opens the same comparison', async () => {
  const page = await env.page();
  await page.goto(`${env.base}compare/`);
  await page.locator(`${compare} ap-heatmap[key="difference"]`).waitFor();
  await page.selectOption(`${compare} #c-compare`, 'attention');
  await page.fill(`${compare} #c-sentence`, 'shared with a friend');
  await page.fill(`${compare} #c-seed`, '12');
  await page.locator(`${compare} button[data-action="share"]`).click();
  const link = await page.locator(`${compare} textarea.share`).inputValue();
  assert.match(link, /compare\/#/);
  const shown = await detailOf(page);
  const again = await env.page();
  await again.goto(link);
  await again.locator(`${compare} ap-heatmap[key="difference"]`).waitFor();
  await again.waitForFunction((sel) => document.querySelector(sel).traces?.[0].tokens.length === 4, compare);
  assert.deepEqual(await detailOf(again), shown);
  assert.deepEqual(await cells(again, 'difference', 0, compare), await cells(page, 'difference', 0, compare));
  await done(again);
  await done(page);
});

test('a bad value shows a message beside its control and the comparison stays', async () => {
  const page = await env.page();
  await page.goto(`${env.base}compare/`);
  await page.locator(`${compare} ap-heatmap[key="difference"]`).waitFor();
  await page.fill(`${compare} #c-d_model`, '0');
  assert.match(await page.locator(`${compare} .control[data-key="d_model"] .message`).innerText(), /d_model must be a whole number/);
  await page.fill(`${compare} #c-sentence`, '   ');
  assert.match(await page.locator(`${compare} .control[data-key="sentence"] .message`).innerText(), /sentence: has no tokens/);
  assert.equal(await page.locator(`${compare} ap-heatmap[key="difference"]`).count(), 1);
  await done(page);
});
