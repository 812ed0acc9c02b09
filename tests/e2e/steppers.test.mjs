// The decoding stepper and the online-softmax stepper (ui/views/decode-stepper.ts, online-stepper.ts):
// they step, play and pause, and every number they show is the trace's own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { start, cells, drawn, steady, done } from './harness.mjs';
import * as tol from '../tolerance.mjs';

const core = await load();
let env;
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const DECODE = '#decode=true&mask=causal&heads=2&sentence=the+cat+sat+on+the+mat';
const ONLINE = '#online_block=2&mask=causal&heads=2&d_model=8&sentence=the+cat+sat+on+the+mat+today';
const decoder = 'attention-playground ap-decode-stepper';
const online = 'attention-playground ap-online-stepper';

/** The playground at `hash` with the stepper `sel` on screen and drawn. */
async function open(hash, sel, options = {}) {
  const page = await env.page(options);
  await page.goto(`${env.base}${hash}`);
  await drawn(page.locator(sel));
  await steady(page.locator(`${sel} .stepper`));  // the buttons the test clicks
  return page;
}

const at = (page, sel) => page.locator(sel).evaluate((el) => el.at);
const traceOf = (page, sel) => page.locator(sel).evaluate((el) => el.trace);
const specOf = (page) => page.locator('attention-playground').evaluate((el) => el.spec);
const rowsOf = async (page, key, host) => (await cells(page, key, 0, host)).length;
const near = (a, b, bound, what) => a.forEach((row, i) => row.forEach((v, j) =>
  assert.ok(Math.abs(v - b[i][j]) <= bound, `${what} [${i}][${j}]: ${v} against ${b[i][j]}`)));

test('the decoding stepper: next adds one cache row, the weights row is the step\'s, the last output is the output\'s last row', async () => {
  const page = await open(DECODE, decoder);
  const trace = await traceOf(page, decoder);
  assert.deepEqual(trace, core.run(await specOf(page)));  // the element draws the core's trace
  const n = trace.tokens.length;
  assert.equal(trace.decode.length, n);
  assert.equal(await at(page, decoder), 0);
  assert.equal(await rowsOf(page, 'k_cache', decoder), 1);

  for (let t = 1; t < n; t++) {
    await page.locator(`${decoder} button[data-action="next"]`).click();
    assert.equal(await at(page, decoder), t);
    const k = await cells(page, 'k_cache', 0, decoder);
    assert.equal(k.length, t + 1, `K cache rows after step ${t}`);
    assert.deepEqual(k, trace.decode[t].k_cache);
    assert.equal(await rowsOf(page, 'v_cache', decoder), t + 1, `V cache rows after step ${t}`);
    assert.deepEqual(await cells(page, 'decode_weights', 0, decoder), trace.decode[t].weights);
    // The newest row is the outlined one.
    const marked = await page.locator(`${decoder} ap-heatmap[key="k_cache"]`).evaluate((el) =>
      [...el.shadowRoot.querySelectorAll('tbody tr')].findIndex((tr) => tr.classList.contains('new')));
    assert.equal(marked, t);
  }
  assert.equal(await page.locator(`${decoder} button[data-action="next"]`).isDisabled(), true);
  const [last] = await cells(page, 'decode_output', 0, decoder);
  near([last], [trace.output[n - 1]], tol.reordered, 'the last step\'s output');
  // At the last step the running sums are the core's totals.
  assert.equal(await page.locator(`${decoder} [data-so-far="with"]`).innerText(), trace.decode_cost.with_cache.toLocaleString('en'));
  assert.equal(await page.locator(`${decoder} [data-so-far="without"]`).innerText(), trace.decode_cost.without_cache.toLocaleString('en'));

  await page.locator(`${decoder} button[data-action="back"]`).click();
  assert.equal(await at(page, decoder), n - 2);
  assert.equal(await rowsOf(page, 'k_cache', decoder), n - 1);
  await done(page);
});

test('play steps on its own, pause stops it, and under reduced motion play still steps without transitions', async () => {
  for (const reducedMotion of ['no-preference', 'reduce']) {
    const page = await open(DECODE, decoder, { reducedMotion });
    const play = page.locator(`${decoder} button[data-action="play"]`);
    await play.click();
    // The button re-renders after the click: wait for it rather than read it at once.
    await page.locator(`${decoder} button[data-action="play"][aria-pressed="true"]`).waitFor();
    await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot.querySelector('ap-decode-stepper').at >= 2);
    const animation = await page.locator(`${decoder} ap-heatmap[key="k_cache"]`).evaluate((el) =>
      getComputedStyle(el.shadowRoot.querySelector('tr.new td')).animationName);
    assert.equal(animation === 'none', reducedMotion === 'reduce', `animation ${animation} under ${reducedMotion}`);
    await play.click();  // pause
    await page.locator(`${decoder} button[data-action="play"][aria-pressed="false"]`).waitFor();
    assert.equal(await play.innerText(), '▶ Play');
    const paused = await at(page, decoder);
    await page.waitForTimeout(3000);  // two paces
    assert.equal(await at(page, decoder), paused);
    await done(page);
  }
});

test('the online stepper: m, l and o per block, and at the last block o / l is the head\'s output', async () => {
  const page = await open(ONLINE, online);
  const trace = await traceOf(page, online);
  assert.deepEqual(trace, core.run(await specOf(page)));
  const blocks = trace.online[0].length;
  assert.equal(blocks, 4);  // 7 keys in blocks of 2
  assert.equal(await at(page, online), 0);
  const worst = async () => Number((await page.locator(`${online} [data-worst]`).innerText()).match(/: ([^ —]+)/)[1].replaceAll('\u2212', '-'));
  assert.ok(await worst() > 1e-3, 'the first block is far from the output');

  for (let b = 1; b < blocks; b++) {
    await page.locator(`${online} button[data-action="next"]`).click();
    assert.equal(await at(page, online), b);
    assert.deepEqual(await cells(page, 'online_o', 0, online), trace.online[0][b].o);
  }
  for (const h of [0, 1]) {
    await page.locator(`${online} select[data-action="head"]`).selectOption({ value: String(h) });
    await page.waitForFunction((h) => document.querySelector('attention-playground').shadowRoot.querySelector('ap-online-stepper').head === h, h);
    // From the element's trace: o / l of the last block against the head's output.
    const last = trace.online[h].at(-1);
    near(last.o.map((row, i) => row.map((v) => v / last.l[i])), trace.heads[h], tol.reordered, `o / l of head ${h + 1}`);
    // And what the stepper shows as o / l and as the head's output.
    assert.equal(await at(page, online), blocks - 1, 'the block stays when the head changes');
    near(await cells(page, 'online_ratio', 0, online), trace.heads[h], tol.reordered, `o / l shown for head ${h + 1}`);
    assert.deepEqual(await cells(page, 'online_head', 0, online), trace.heads[h]);
    near(await cells(page, 'online_delta', 0, online), trace.heads[h].map((r) => r.map(() => 0)), tol.reordered, `difference of head ${h + 1}`);
  }
  assert.match(await page.locator(`${online} [data-worst]`).innerText(), /o \/ l is the head’s output/);
  // A rescale happened somewhere (a later block raised a row's maximum) and is marked.
  const rescaled = trace.online[0].some((b, k) => k > 0 && b.rescale.some((r, i) => b.m[i] !== null && trace.online[0][k - 1].m[i] !== null && r !== 1));
  assert.ok(rescaled, 'this sentence rescales');
  await done(page);
});

test('view="decode" and view="online" show one stepper alone', async () => {
  const page = await env.page();
  await page.setContent(`<!doctype html><html lang="en"><head><title>post</title><script type="module" src="${env.base}attention-playground.js"></script></head><body>
    <attention-playground id="d" view="decode" decode mask="causal" controls="none" compact></attention-playground>
    <attention-playground id="o" view="online" online-block="3" controls="none" compact></attention-playground></body></html>`);
  await drawn(page.locator('#d ap-decode-stepper ap-heatmap[key="k_cache"]'));
  await drawn(page.locator('#o ap-online-stepper ap-heatmap[key="online_o"]'));
  for (const id of ['d', 'o']) {
    assert.equal(await page.locator(`#${id}`).evaluate((el) => el.shadowRoot.querySelectorAll('section.step').length), 1);
    assert.equal(await page.locator(`#${id} ap-heatmap[key="weights"]`).count(), 0, 'no other view');
  }
  assert.equal(await page.locator('#o ap-online-stepper').evaluate((el) => el.trace.online[0].length), 2);  // 6 keys in blocks of 3
  await done(page);
});

test('axe-core finds nothing in either stepper, light and dark, wide and phone, and neither is wider than the screen', async () => {
  const axe = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
  for (const [width, colorScheme] of [[1280, 'light'], [390, 'dark']]) {
    // without motion: a new row fades in, and axe would measure it part way
    const page = await open(`${DECODE}&online_block=2`, decoder, { viewport: { width, height: 900 }, colorScheme, reducedMotion: 'reduce' });
    await page.locator(`${decoder} button[data-action="next"]`).click();  // a newest row below older ones
    await drawn(page.locator(online));
    await page.locator(`${online} button[data-action="next"]`).click();  // a block that rescales some rows
    assert.ok(await page.locator(`${online} tr.rescaled`).count() > 0, 'a rescaled row is marked');
    await page.addScriptTag({ content: axe });
    // The steppers only (through the playground's shadow root): the other views have tests of their own.
    const found = await page.evaluate(async () => (await window.axe.run(
      { include: [{ fromShadowDom: ['attention-playground', 'ap-decode-stepper'] }, { fromShadowDom: ['attention-playground', 'ap-online-stepper'] }] },
      { resultTypes: ['violations'] })).violations
      .map((v) => `${v.id} (${v.nodes.length}) ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ')}`));
    assert.deepEqual(found, [], `${width}px ${colorScheme}`);
    for (const sel of [decoder, online]) {
      const right = await page.locator(sel).evaluate((el) => el.getBoundingClientRect().right);
      assert.ok(right <= width, `${sel} reaches ${right}px on a ${width}px screen`);
    }
    await done(page);
  }
});
