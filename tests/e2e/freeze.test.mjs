// A link or a post never freezes the page it opens in: a screen drawn before the element (a
// shared link's, a post's) runs the core on the main thread only where the element itself would,
// by the core's own count; what the element would send to its worker is left to it, and the
// other elements on the page are drawn as before. A link's view (head, layer) the trace does not
// have, and a key given twice, are said in a note as any other value not understood.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';
import { start, ready, done } from './harness.mjs';
import { post } from '../../bench/arrivals.mjs';

const core = await load();
const words = (n) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const BIG = `<attention-playground view="weights" d-model="1024" heads="1" sentence="${words(400)}"></attention-playground>`;
const SMALL = '<attention-playground id="small" view="weights" heads="2" d-model="8" sentence="the cat sat"></attention-playground>';
const pages = { '/big-1.html': post([BIG]), '/big-3.html': post([BIG, SMALL, BIG.replace('<attention-playground', '<attention-playground id="last"')]) };
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

/** A page that records every spec the first heatmap's module runs on the main thread, and every
 *  worker it starts. */
async function watched() {
  const page = await env.page();
  page.workers = [];
  page.on('worker', (w) => page.workers.push(w.url()));
  await page.addInitScript(() => {
    window.firstRuns = [];
    const instantiate = WebAssembly.instantiate;
    WebAssembly.instantiate = async (...args) => {
      const made = await instantiate.apply(WebAssembly, args);
      const instance = made.instance ?? made;
      if (!instance.exports?.first_run_packed) return made;
      const exports = { ...instance.exports };
      exports.first_run_packed = (at, length) => {
        window.firstRuns.push(JSON.parse(new TextDecoder().decode(new Uint8Array(exports.memory.buffer, at, length))));
        return instance.exports.first_run_packed(at, length);
      };
      return made.instance ? { ...made, instance: { exports } } : { exports };
    };
  });
  return page;
}

const settled = (page, selector = 'attention-playground') => page.waitForFunction((sel) => {
  const all = [...document.querySelectorAll(sel)];
  return customElements.get('attention-playground') && all.length && all.every((el) => el.trace && !el.busy);
}, selector, { timeout: 120_000 });

test('a crafted link is left to the element: no first-screen run of it, drawn through the worker with the link\'s numbers', async () => {
  for (const hash of ['#d_model=1024&heads=2', `#d_model=1024&heads=1&sentence=${encodeURIComponent(words(400))}`]) {
    const page = await watched();
    await page.goto(env.base + hash);
    await settled(page);
    const spec = await page.locator('attention-playground').evaluate((el) => el.spec);
    assert.ok(core.work(spec).cells >= 400_000, `${hash}: work the element sends to its worker`);
    const runs = await page.evaluate(() => window.firstRuns);
    assert.deepEqual(runs.filter((s) => s.d_model === 1024), [], `${hash}: the first module never ran it on the main thread`);
    assert.equal(page.workers.length, 1, `${hash}: the element's worker computed it`);
    assert.equal(await page.locator('.first-screen[data-for-link]').count(), 0, `${hash}: no first screen drawn for it`);
    const shown = await page.locator('attention-playground').evaluate((el) => ({ tokens: el.trace.tokens, width: el.trace.X[0].length }));
    assert.equal(shown.tokens.length, core.work(spec).tokens, hash);
    assert.equal(shown.width, 1024, hash);
    await done(page);
  }
});

test('a post of large weights is left to its elements, and a small one beside them still gets its first screen', async () => {
  for (const path of ['big-1.html', 'big-3.html']) {
    const page = await watched();
    await page.goto(env.base + path);
    await settled(page);
    const runs = await page.evaluate(() => window.firstRuns);
    assert.deepEqual(runs.filter((s) => s.d_model === 1024), [], `${path}: no element's first screen ran 400 words at d_model 1024`);
    assert.equal(page.workers.length, 1, path);
    const big = page.locator('attention-playground:not(#small)');
    for (const el of await big.all()) {
      assert.equal(await el.evaluate((e) => e.trace.tokens.length), 400);
      assert.equal(await el.evaluate((e) => e.trace.weights[0].length), 400);
    }
    if (path === 'big-3.html') {
      // the small one was drawn by its first screen (the element then kept it or drew the same)
      assert.ok(runs.some((s) => s.sentence === 'the cat sat' && s.d_model === 8), 'the small element\'s first screen was drawn');
      assert.deepEqual(await page.locator('#small').evaluate((e) => e.trace.weights), core.run({ sentence: 'the cat sat', heads: 2, d_model: 8 }).weights);
    }
    await done(page);
  }
});

const noteOf = (page) => page.locator('attention-playground').evaluate((el) => [...el.shadowRoot.querySelectorAll('.note')].map((e) => e.textContent).join(' '));

test('a head or layer the link asks for and the trace does not have gets a note, as head=-1 does, and no label names it', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#heads=2&head=5&sentence=a+b+c`);
  await ready(page);
  await page.waitForFunction(() => document.querySelector('attention-playground').trace);
  const note = await noteOf(page);
  assert.match(note, /Some of the link was not understood and was left at its default: head="5" is not valid: the heads are 0 to 1\./);
  assert.equal(await page.locator('attention-playground').evaluate((el) => el.focusHead), 0);
  await page.waitForFunction(() => !location.hash.includes('head='));  // the link now says what is drawn

  await page.goto(`${env.base}#head=-1`);
  await page.reload();
  await ready(page);
  assert.match(await noteOf(page), /Some of the link was not understood and was left at its default: head="-1" is not valid/);

  const sentence = 'ab ab';
  await page.goto(`${env.base}#model=tiny-lm&sentence=${sentence.replace(' ', '+')}&head=99&layer=99`);
  await page.reload();
  await page.locator('ap-heads-overview').waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector('attention-playground').model);
  const model = await noteOf(page);
  assert.match(model, /layer="99" is not valid: the layers are 1 to 2/);
  assert.match(model, /head="99" is not valid: the heads are 0 to 3/);
  const labels = await page.locator('attention-playground').evaluate((el) => el.shadowRoot.textContent);
  assert.doesNotMatch(labels, /head 99|layer 99/);
  assert.match(labels, /Layer 1 of 2, head 0 followed/);
  await done(page);
});

test('a key given twice gets a note naming it and the value read, in the element as in the linked screen', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#sentence=a&sentence=b+c&seed=1&seed=2&heads=2&head=5`);
  await ready(page);
  await page.waitForFunction(() => document.querySelector('attention-playground').trace);
  const note = await noteOf(page);
  assert.match(note, /"sentence" is given 2 times: the last \("b c"\) was read/);
  assert.match(note, /"seed" is given 2 times: the last \("2"\) was read/);
  // the link's settings and its view, in one sentence under one heading
  assert.equal(note.split('Some of the link was not understood').length - 1, 1, note);
  assert.match(note, /was read; head="5" is not valid: the heads are 0 to 1\.$/);
  const spec = await page.locator('attention-playground').evaluate((el) => el.spec);
  assert.equal(spec.sentence, 'b c');
  assert.equal(spec.seed, 2);
  assert.equal(await page.locator('.first-screen[data-for-link]').count(), 0);  // the linked screen left it to the element
  await done(page);
});

test('a sentence holding a lone surrogate is refused beside the sentence, naming it, and the page keeps working', async () => {
  const page = await env.page();
  await page.goto(env.base);
  await ready(page);
  const el = page.locator('attention-playground');
  await el.evaluate((e) => { e.spec = { ...e.spec, sentence: 'a\ud800b' }; });
  const beside = el.locator('[data-key="sentence"]');
  await page.waitForFunction(() => document.querySelector('attention-playground').error?.field === 'sentence');
  assert.match(await beside.innerText(), /sentence: is not text: it holds a lone surrogate/);
  await el.evaluate((e) => { e.spec = { ...e.spec, sentence: 'fine again' }; });
  await page.waitForFunction(() => document.querySelector('attention-playground').trace?.tokens.join(' ') === 'fine again');
  await done(page);
});
