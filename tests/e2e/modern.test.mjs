// The attention of current models on the page: each preset's numbers are the core's, a
// cross-attention link comes back the same after a reload, the new settings work as
// attributes of an embedded element, and a RoPE score's derivation shows the turned rows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';
import { start, cells, drawn, ready, done } from './harness.mjs';

const core = await load();
const pages = {};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

const host = 'attention-playground';
const specOf = (page, sel = host) => page.locator(sel).evaluate((el) => el.spec);
const traceOf = (page, sel = host) => page.locator(sel).evaluate((el) => el.trace);
/** Full precision as the page writes it on hover (8 significant digits, the true minus sign). */
const full = (v) => (Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(8)))).replace(/-/g, '\u2212');

async function preset(id) {
  const page = await env.page();
  await page.goto(env.base);
  await ready(page);
  await page.click(`button[data-preset="${id}"]`);
  await page.locator('p.note[role="status"]').waitFor();  // the preset's note
  return page;
}

/** The spec on screen, the element's trace of it, and the core's. */
async function settled(page) {
  await page.waitForFunction(() => {
    const el = document.querySelector('attention-playground');
    return el.trace && !el.busy && !el.error;
  });
  const spec = await specOf(page);
  return { spec, trace: await traceOf(page), expected: core.run(spec) };
}

test('Llama-style layer: RoPE and 2 key/value heads for 8 query heads, as the core computes them', async () => {
  const page = await preset('llama');
  const { spec, trace, expected } = await settled(page);
  assert.equal(spec.positional, 'rope');
  assert.equal(spec.kv_heads, 2);
  assert.equal(spec.heads, 8);
  assert.deepEqual(trace.Q_rope, expected.Q_rope);
  assert.deepEqual(trace.K_rope, expected.K_rope);
  assert.deepEqual(trace.rope_angles, expected.rope_angles);
  assert.deepEqual(trace.kv_group, [0, 0, 0, 0, 1, 1, 1, 1]);
  // on screen: the angles, and Q and K before and after the turn
  assert.deepEqual(await cells(page, 'rope_angles'), expected.rope_angles);
  // an angle depends on the position alone, and its row says so (not the token there)
  const rowNames = await (await drawn(page.locator('ap-heatmap[key="rope_angles"]').first())).evaluate((el) => [...el.shadowRoot.querySelectorAll('tbody th')].map((th) => th.textContent.trim()));
  assert.deepEqual(rowNames, expected.rope_angles.map((_, i) => `position ${i}`));
  assert.deepEqual(await cells(page, 'Q_rope'), expected.Q_rope);
  assert.deepEqual(await cells(page, 'K_rope'), expected.K_rope);
  assert.match(await page.locator('#step-rotate .why').innerText(), /i − j/);
  // the grouped-query picture: a line from each query head to the key/value head it reads
  const diagram = await drawn(page.locator('#step-project figure.gqa'));
  assert.equal(await diagram.locator('line').count(), 8);
  assert.equal(await diagram.locator('rect').count(), 2);
  // its arithmetic: d_model 16, 8 heads of d_k = d_v = 2
  const column = (kv) => page.locator(`#step-project .costs td[data-kv="${kv}"]`).evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
  const n = expected.tokens.length;
  const costs = (kv) => [16 * 16 + 2 * 16 * kv * 2 + 16 * 16, kv * 4, 2 * n * kv * 4, 2 * 4096 * kv * 4];
  assert.deepEqual(await column(8), costs(8));  // MHA
  assert.deepEqual(await column(2), costs(2));  // this GQA
  assert.deepEqual(await column(1), costs(1));  // MQA
  assert.equal(await page.locator('#step-project .costs th.now').innerText(), 'GQA\non screen');
  await done(page);
});

test('Multi-query: every query head reads key/value head 0', async () => {
  const page = await preset('mqa');
  const { spec, trace, expected } = await settled(page);
  assert.equal(spec.kv_heads, 1);
  assert.deepEqual(trace.kv_group, expected.kv_group);
  assert.deepEqual(trace.kv_group, [0, 0, 0, 0]);
  assert.equal(await page.locator('#step-project figure.gqa rect').count(), 1);
  assert.deepEqual(await cells(page, 'weights', 3), expected.weights[3]);
  await done(page);
});

test('ALiBi: the slopes and each head\'s bias, and the bias in a score\'s derivation', async () => {
  const page = await preset('alibi');
  const { spec, trace, expected } = await settled(page);
  assert.equal(spec.positional, 'alibi');
  assert.deepEqual(trace.bias, expected.bias);
  assert.deepEqual(await cells(page, 'alibi_slopes'), [expected.alibi_slopes]);
  const signless = (m) => JSON.parse(JSON.stringify(m));  // a cell writes −0 as 0
  for (let h = 0; h < spec.heads; h++) assert.deepEqual(await cells(page, 'bias', h), signless(expected.bias[h]));
  const cell = page.locator('ap-heatmap[key="scores"]').nth(1).locator('td[data-row="4"][data-col="1"]');
  await (await drawn(page.locator('ap-heatmap[key="scores"]').nth(1))).scrollIntoViewIfNeeded();
  await cell.click();
  const panel = page.locator('ap-derivation');
  await panel.locator('h3').waitFor();
  const text = await panel.evaluate((el) => el.shadowRoot.textContent.replace(/\s+/g, ' '));
  assert.match(text, /\(bias\)/);
  const bias = expected.bias[1][4][1];
  assert.ok(await panel.evaluate((el, v) => [...el.shadowRoot.querySelectorAll('[title]')].some((s) => s.title === v), full(bias)), `the bias ${bias} is shown`);
  // the Score step shows each head's q·k, the core's own numbers, before the scale and the bias
  assert.ok(expected.raw_scores, 'the core gives q·k with ALiBi');
  for (let h = 0; h < spec.heads; h++) {
    const shown = await cells(page, 'raw_scores', h);
    shown.forEach((row, i) => row.forEach((v, j) => { if (expected.mask?.[i][j] !== 0) assert.equal(v, expected.raw_scores[h][i][j]); }));
  }
  await done(page);
});

test('Translation: n x m weights, the sentence as rows and the source as columns', async () => {
  const page = await preset('cross');
  const { spec, trace, expected } = await settled(page);
  assert.equal(spec.mode, 'cross');
  assert.equal(spec.source, 'the black cat is asleep');
  assert.deepEqual(trace.source_tokens, ['the', 'black', 'cat', 'is', 'asleep']);
  const weights = await cells(page, 'weights');
  assert.equal(weights.length, 4);
  assert.equal(weights[0].length, 5);
  assert.deepEqual(weights, expected.weights[0]);
  const heads = await drawn(page.locator('ap-heatmap[key="weights"]').first());
  assert.deepEqual(await heads.locator('th.col').evaluateAll((ths) => ths.map((th) => th.textContent)), expected.source_tokens);
  assert.deepEqual(await cells(page, 'X_source'), expected.X_source);
  // the two sentences, with a line from each target token to the source tokens it weighs
  const arcs = await drawn(page.locator('ap-cross-arcs'));
  assert.deepEqual(await arcs.locator('text[aria-label^="source"]').evaluateAll((ts) => ts.map((t) => t.textContent)), expected.source_tokens);
  assert.ok(await arcs.locator('line').count() >= 4);
  assert.ok(await page.locator('#c-source').isVisible());
  await done(page);
});

test('Generate with a KV cache and FlashAttention blocks: the traces are the core\'s', async () => {
  let page = await preset('kv-cache');
  let r = await settled(page);
  assert.equal(r.spec.decode, true);
  assert.deepEqual(r.trace.decode, r.expected.decode);
  assert.deepEqual(r.trace.decode_cost, r.expected.decode_cost);
  await done(page);
  page = await preset('flash');
  r = await settled(page);
  assert.equal(r.spec.online_block, 2);
  assert.deepEqual(r.trace.online, r.expected.online);
  await done(page);
});

test('a cross-attention link comes back with the same weights after a reload', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#mode=cross&sentence=${encodeURIComponent('wo ist die katze')}&source=${encodeURIComponent('where is the cat ?')}&heads=2&d_model=8`);
  await ready(page);
  const spec = await specOf(page);
  assert.equal(spec.source, 'where is the cat ?');
  const before = [await cells(page, 'weights', 0), await cells(page, 'weights', 1)];
  assert.deepEqual(before, core.run(spec).weights);
  assert.equal(before[0][0].length, 5);
  await page.fill('#c-source', 'where is the black cat ?');
  await page.waitForFunction(() => location.hash.includes('black'));
  const changed = await cells(page, 'weights');
  assert.equal(changed[0].length, 6);
  await page.reload();
  await ready(page);
  assert.equal(await page.inputValue('#c-source'), 'where is the black cat ?');
  assert.deepEqual(await cells(page, 'weights'), changed);
  await done(page);
});

test('the new settings are hash keys that come back after a reload', async () => {
  const page = await env.page();
  const hash = 'heads=4&d_model=16&positional=rope&rope_style=halves&rope_base=500&kv_heads=2&softcap=4&mask=causal_window&window=2&online_block=3&decode=true';
  await page.goto(`${env.base}#${hash}`);
  await ready(page);
  const spec = await specOf(page);
  assert.deepEqual(
    { rope_style: spec.rope_style, rope_base: spec.rope_base, kv_heads: spec.kv_heads, softcap: spec.softcap, mask: spec.mask, online_block: spec.online_block, decode: spec.decode },
    { rope_style: 'halves', rope_base: 500, kv_heads: 2, softcap: 4, mask: 'causal_window:2', online_block: 3, decode: true });
  assert.deepEqual(await cells(page, 'weights', 3), core.run(spec).weights[3]);
  await page.reload();
  await ready(page);
  assert.deepEqual(await specOf(page), spec);
  // the spec's own spelling of the mask reads the same
  await page.goto(`${env.base}#heads=4&d_model=16&mask=causal_window:2`);
  await ready(page);
  assert.equal((await specOf(page)).mask, 'causal_window:2');
  assert.equal(await page.inputValue('#c-window'), '2');
  await done(page);
});

const X_SOURCE = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]];
pages['/modern.html'] = `<!doctype html><html lang="en"><head><title>current models</title><link rel="icon" href="data:,">
<script type="module" src="/attention-playground.js"></script></head><body><main>
<attention-playground id="rope" sentence="one two three four" heads="2" kv-heads="1" d-model="8" positional="rope" rope-style="halves" rope-base="100"
  mask="causal_window" window="1" softcap="3" online-block="2" decode></attention-playground>
<attention-playground id="cross" mode="cross" sentence="un deux" source="one two three" x-source='${JSON.stringify(X_SOURCE)}' view="weights"></attention-playground>
<attention-playground id="alibi" sentence="a b c" positional="alibi" heads="2" d-model="4" view="bias"></attention-playground>
</main></body></html>`;

test('the new attributes work on an embedded element and change its numbers', async () => {
  const page = await env.page();
  await page.goto(env.base + 'modern.html');
  await page.locator('#rope ap-heatmap[key="weights"]').first().waitFor();
  const rope = await specOf(page, '#rope');
  assert.deepEqual(
    [rope.kv_heads, rope.positional, rope.rope_style, rope.rope_base, rope.mask, rope.softcap, rope.online_block, rope.decode],
    [1, 'rope', 'halves', 100, 'causal_window:1', 3, 2, true]);
  const expected = core.run(rope);
  assert.equal(expected.error, undefined);
  assert.deepEqual(await traceOf(page, '#rope'), expected);
  // cross, with the source's embeddings given as an attribute
  await page.locator('#cross ap-heatmap[key="weights"]').waitFor();
  const cross = await specOf(page, '#cross');
  assert.deepEqual(cross.X_source, X_SOURCE);
  assert.equal(cross.source, 'one two three');
  assert.deepEqual(await cells(page, 'weights', 0, '#cross'), core.run(cross).weights[0]);
  // view="bias" shows ALiBi's bias alone
  await page.locator('#alibi ap-heatmap[key="bias"]').first().waitFor();
  assert.equal(await page.locator('#alibi ap-heatmap').count(), 2);
  // an attribute changed afterwards recomputes
  await page.locator('#rope').evaluate((el) => el.setAttribute('rope-style', 'interleaved'));
  await page.waitForFunction(() => document.querySelector('#rope').trace?.spec.rope_style === 'interleaved');
  assert.deepEqual(await traceOf(page, '#rope'), core.run(await specOf(page, '#rope')));
  await done(page);
});

test('the derivation of a RoPE score shows the turned q and k, the numbers of Q_rope and K_rope', async () => {
  const page = await preset('llama');
  const { spec, expected } = await settled(page);
  const head = 5, row = 4, col = 2, dk = expected.spec.d_k, group = expected.kv_group[head];
  const scores = await drawn(page.locator('ap-heatmap[key="scores"]').nth(head));
  await scores.locator(`td[data-row="${row}"][data-col="${col}"]`).click();
  const panel = page.locator('ap-derivation');
  await panel.locator('table.stages').waitFor();
  const titles = (cls) => panel.evaluate((el, cls) => [...el.shadowRoot.querySelectorAll(`tr.${cls} td [title]`)].map((s) => s.title), cls);
  assert.deepEqual(await titles('used.q'), expected.Q_rope[row].slice(head * dk, (head + 1) * dk).map(full));
  assert.deepEqual(await titles('used.k'), expected.K_rope[col].slice(group * dk, (group + 1) * dk).map(full));
  assert.deepEqual(await titles('q:not(.stage)'), expected.Q[row].slice(head * dk, (head + 1) * dk).map(full));
  const text = await panel.evaluate((el) => el.shadowRoot.textContent.replace(/\s+/g, ' '));
  assert.match(text, /q′ · k′ =/);
  assert.match(text, /key\/value head 1/);
  const d = core.derive({ spec, matrix: 'scores', head, row, col });
  assert.ok(await panel.evaluate((el, v) => [...el.shadowRoot.querySelectorAll('.result[title], .result [title]')].some((s) => s.title === v), full(d.score.value)));
  await done(page);
});
