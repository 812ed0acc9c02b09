// The blogger: one tag in a 700 px article column. It is as tall as what it shows, with chrome
// only when asked for; it lays out by its own width; Share and Embed from it give back the same
// numbers; a host page themes it with custom properties and ::part; and a host script reads its
// trace and sets its spec.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { start, cells, shownText, done, holdBack } from './harness.mjs';

const core = await load();
const pages = {};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

/** A blog post: a 700 px article column on whatever screen, `body` in it. */
const post = (body, style = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>a post</title><link rel="icon" href="data:,">
<style>body { margin: 0; font: 17px/1.6 Georgia, serif; } article { max-width: 700px; margin: 0 auto; padding: 1rem; } ${style}</style>
<script type="module" src="/attention-playground.js"></script></head><body><main><article><h1>A post</h1>
<p>Words before the widget.</p>${body}<p>Words after it.</p></article></main></body></html>`;

const specOf = (page, sel) => page.locator(sel).evaluate((el) => el.spec);
const axe = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
/** axe-core's violations on the page. */
async function violations(page) {
  await page.addScriptTag({ content: axe });
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => `${v.id}: ${v.help} ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ')}`));
}
const shows = (page, sel) => page.locator(sel).first().waitFor();
const weightsOf = async (page, host) => {
  const heads = await page.locator(`${host} ap-heatmap[key="weights"]`).count();
  return Promise.all(Array.from({ length: heads }, (_, h) => cells(page, 'weights', h, host)));
};

test('an arcs-only widget is as tall as its arcs, with no title, presets or toolbar unless asked for', async () => {
  pages['/tall.html'] = post(`<attention-playground id="bare" view="arcs" controls="none"></attention-playground>
    <attention-playground id="tools" view="arcs" controls="none" toolbar></attention-playground>
    <attention-playground id="chrome" view="weights" controls="seed" toolbar presets></attention-playground>`);
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base + 'tall.html');
  await shows(page, '#bare ap-arcs');
  await shows(page, '#chrome ap-heatmap[key="weights"]');
  const box = await page.locator('#bare').boundingBox();
  const arcs = await page.locator('#bare ap-arcs').boundingBox();
  assert.ok(box.height < 500, `${box.height} px tall`);
  assert.ok(box.y + box.height - (arcs.y + arcs.height) < 120, 'no empty space under the arcs');
  for (const part of ['[part="title"]', '[part="presets"]', '[part="toolbar"]', '.hint:not(:empty)']) {
    assert.equal(await page.locator(`#bare ${part}`).count(), 0, `no ${part}`);
  }
  // asked for: the toolbar alone, or the toolbar and the worked examples (never the page's title)
  assert.ok(await page.locator('#tools button[data-action="share"]').isVisible());
  assert.equal(await page.locator('#tools .presets').count(), 0);
  // in a column narrower than the page's layout the examples are one labelled list
  assert.ok(await page.locator('#chrome [part="presets"]').isVisible());
  assert.equal(await page.locator('#chrome [part="presets"] [data-preset="seed004"], #chrome [part="presets"] option[value="seed004"]').count(), 1);
  assert.ok(await page.locator('#chrome button[data-action="embed"]').isVisible());
  assert.equal(await page.locator('#chrome [part="title"]').count(), 0);
  // the full-window page keeps all of it, and fills the window
  await page.goto(env.base);
  await shows(page, 'ap-heatmap[key="weights"]');
  for (const part of ['[part="title"]', '[part="presets"]', 'button[data-action="share"]']) assert.ok(await page.locator(part).first().isVisible(), part);
  assert.ok((await page.locator('attention-playground').boundingBox()).height >= 900 - 60);
  await done(page);
});

test('it lays out by its own width: stacked in a 700 px column of a wide screen, side by side when wide', async () => {
  pages['/column.html'] = post('<attention-playground id="narrow"></attention-playground>');
  pages['/wide.html'] = `<!doctype html><html lang="en"><head><title>wide</title><link rel="icon" href="data:,">
    <script type="module" src="/attention-playground.js"></script></head><body><main><attention-playground id="wide"></attention-playground></main></body></html>`;
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  const layout = (id) => page.locator(`#${id}`).evaluate((el) => {
    const box = (s) => el.shadowRoot.querySelector(s).getBoundingClientRect();
    const c = box('.controls'), v = box('.views');
    return { stacked: c.bottom <= v.top + 1, beside: c.right <= v.left + 1 && Math.abs(c.top - v.top) < 2, width: el.getBoundingClientRect().width };
  });
  await page.goto(env.base + 'column.html');
  await shows(page, '#narrow ap-heatmap[key="weights"]');
  const column = await layout('narrow');
  assert.ok(column.width <= 700 && column.stacked && !column.beside, JSON.stringify(column));
  assert.ok(await page.locator('#narrow details.settings').count(), 'the settings fold away, as on a phone');
  assert.deepEqual(await violations(page), []);
  await page.goto(env.base + 'wide.html');
  await shows(page, '#wide ap-heatmap[key="weights"]');
  const wide = await layout('wide');
  assert.ok(wide.width > 1000 && wide.beside && !wide.stacked, JSON.stringify(wide));
  assert.equal(await page.locator('#wide details.settings').count(), 0);
  // the same element, its column narrowed under it: it follows its own width, not the window's
  await page.locator('main').evaluate((m) => { m.style.maxWidth = '600px'; });
  await page.waitForFunction(() => document.querySelector('#wide').hasAttribute('narrow'));
  assert.ok((await layout('wide')).stacked);
  await done(page);
});

test('Share from the second of two widgets opens the post with the same numbers in that widget', async () => {
  pages['/two.html'] = post(`<attention-playground id="first" sentence="one widget here" view="weights" controls="none"></attention-playground>
    <attention-playground id="second" sentence="another widget below it" view="weights" controls="seed" toolbar></attention-playground>`);
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base + 'two.html');
  await shows(page, '#second ap-heatmap[key="weights"]');
  await page.locator('#second #c-seed').fill('77');
  await page.waitForFunction(() => document.querySelector('#second').spec.seed === 77);
  const weights = await weightsOf(page, '#second');
  const first = await weightsOf(page, '#first');
  await page.click('#second button[data-action="share"]');
  const link = await page.locator('#second textarea.share').inputValue();
  assert.ok(link.startsWith(`${env.base}two.html#second.`), link);
  const again = await env.page({ viewport: { width: 1280, height: 900 } });
  await again.goto(link);
  await shows(again, '#second ap-heatmap[key="weights"]');
  await again.waitForFunction(() => document.querySelector('#second').spec.seed === 77);
  assert.deepEqual(await weightsOf(again, '#second'), weights);
  assert.deepEqual(await weightsOf(again, '#first'), first);  // the other widget keeps its own
  // the reader lands on the widget the link is about
  const top = (await again.locator('#second').boundingBox()).y;
  assert.ok(top >= -1 && top < 900, `the widget is on screen (${top})`);
  await done(again);
  // share-url: a hosted playground page, whose own hash it fills
  await page.locator('#second').evaluate((el, url) => el.setAttribute('share-url', url), env.base);
  await page.click('#second button[data-action="share"]');
  const hosted = await page.locator('#second textarea.share').inputValue();
  assert.ok(hosted.startsWith(`${env.base}#`), hosted);
  const there = await env.page();
  await there.goto(hosted);
  await shows(there, 'ap-heatmap[key="weights"]');
  assert.deepEqual(await cells(there, 'weights'), weights[0]);
  await done(there);
  await done(page);
});

test('Embed gives a tag with every attribute, escaped, that shows the same numbers in a fresh page', async () => {
  const sentence = `He said "hi" & <left>`;
  const wv = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? 1 : (i - j) / 10)));
  const attrs = { view: 'weights', controls: 'sentence,seed', compact: '', toolbar: '', presets: '', theme: 'dark', 'focus-token': '1' };
  const escape = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  pages['/embedding.html'] = post(`<attention-playground id="src" sentence="${escape(sentence)}" heads="2" d-model="6" seed="5"
    w-v="${escape(JSON.stringify(wv))}" ${Object.entries(attrs).map(([k, v]) => `${k}="${v}"`).join(' ')}></attention-playground>`);
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base + 'embedding.html');
  await shows(page, '#src ap-heatmap[key="weights"]');
  await page.click('#src button[data-action="embed"]');
  const snippet = await page.locator('#src textarea.share').inputValue();
  // no <iframe> of the post itself: that needs a hosted playground (share-url)
  assert.doesNotMatch(snippet, /<iframe/);
  assert.match(snippet, /sentence="He said &quot;hi&quot; &amp; &lt;left&gt;"/);
  const spec = await specOf(page, '#src');
  const weights = await weightsOf(page, '#src');
  pages['/pasted.html'] = `<!doctype html><html lang="en"><head><title>pasted</title><link rel="icon" href="data:,"></head><body><main>${snippet}</main></body></html>`;
  const fresh = await env.page({ viewport: { width: 1280, height: 900 } });
  await fresh.goto(env.base + 'pasted.html');
  await shows(fresh, 'attention-playground ap-heatmap[key="weights"]');
  const copy = await fresh.locator('attention-playground').evaluate((el) => Object.fromEntries([...el.attributes].map((a) => [a.name, a.value])));
  for (const [k, v] of Object.entries(attrs)) assert.equal(copy[k], v, k);
  assert.equal(copy.sentence, sentence);
  assert.deepEqual(JSON.parse(copy['w-v']), wv);
  assert.deepEqual(await specOf(fresh, 'attention-playground'), spec);
  assert.deepEqual(await weightsOf(fresh, 'attention-playground'), weights);
  assert.deepEqual(weights, core.run(spec).weights);
  await done(fresh);
  // with share-url, an <iframe> of the hosted playground too
  await page.locator('#src').evaluate((el, url) => el.setAttribute('share-url', url), env.base);
  await page.click('#src button[data-action="embed"]');
  assert.match(await page.locator('#src textarea.share').inputValue(), new RegExp(`<iframe src="${env.base}#`));
  await done(page);
});

test('a host page themes it: custom properties and ::part', async () => {
  pages['/themed.html'] = post('<attention-playground id="t" view="softmax" controls="none" toolbar></attention-playground>', `
    attention-playground { --ap-accent: rgb(0, 128, 0); --ap-card: rgb(255, 250, 235); }
    attention-playground::part(card) { border-radius: 0; border-color: rgb(200, 0, 200); }
    attention-playground::part(toolbar) { justify-content: flex-start; }
    attention-playground::part(view) { padding: 4px; }`);
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base + 'themed.html');
  await shows(page, '#t ap-heatmap[key="weights"]');
  const style = (sel, prop) => page.locator(sel).first().evaluate((el, p) => getComputedStyle(el)[p], prop);
  assert.equal(await style('#t .step', 'borderTopLeftRadius'), '0px');
  assert.equal(await style('#t .step', 'borderTopColor'), 'rgb(200, 0, 200)');
  assert.equal(await style('#t .step', 'backgroundColor'), 'rgb(255, 250, 235)');
  assert.equal(await style('#t .tools', 'justifyContent'), 'flex-start');
  assert.equal(await style('#t .views', 'paddingTop'), '4px');
  // the accent reaches the elements inside: the derivation's result, the clicked cell
  await page.locator('#t ap-heatmap[key="weights"] td[data-row="1"][data-col="0"]').click();
  await page.locator('#t ap-derivation .result').first().waitFor();
  assert.equal(await style('#t ap-derivation .result', 'color'), 'rgb(0, 128, 0)');
  assert.equal(await style('#t ap-heatmap[key="weights"] td.sel', 'outlineColor'), 'rgb(0, 128, 0)');
  await done(page);
});

test('a host script listens to trace, reads el.trace and sets el.spec', async () => {
  pages['/host.html'] = post('<div id="slot"></div>');
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base + 'host.html');
  await page.evaluate(() => {
    window.seen = [];
    const el = document.createElement('attention-playground');
    el.setAttribute('view', 'weights');
    el.setAttribute('controls', 'none');
    el.addEventListener('trace', (e) => window.seen.push({ spec: e.detail.spec, weights: e.detail.trace?.weights, error: e.detail.error }));
    el.spec = { sentence: 'set before it is on the page', seed: 9 };
    document.querySelector('#slot').append(el);
  });
  await page.waitForFunction(() => window.seen.length === 1);
  let seen = await page.evaluate(() => window.seen[0]);
  assert.equal(seen.spec.seed, 9);
  assert.deepEqual(seen.weights, core.run(seen.spec).weights);
  assert.deepEqual(await page.locator('attention-playground').evaluate((el) => el.trace.weights), seen.weights);
  // setting the spec applies it: the controls' values, the numbers, the next trace event
  const spec = { sentence: 'a spec from the host', seed: 3, heads: 2, d_model: 4, mask: 'window:1', temperature: 0.5 };
  await page.locator('attention-playground').evaluate((el, s) => { el.spec = s; }, spec);
  await page.waitForFunction(() => window.seen.length === 2);
  seen = await page.evaluate(() => window.seen[1]);
  const now = await specOf(page, 'attention-playground');
  for (const [k, v] of Object.entries(spec)) assert.deepEqual(now[k], v, k);
  assert.deepEqual(seen.spec, now);
  assert.deepEqual(seen.weights, core.run(now).weights);
  assert.deepEqual(await weightsOf(page, 'attention-playground'), seen.weights);
  // a value it refuses is named, and left at its default
  await page.locator('attention-playground').evaluate((el) => { el.spec = { sentence: 'still fine', heads: 0 }; });
  await page.waitForFunction(() => window.seen.length === 3);
  assert.match(await page.locator('attention-playground .note').first().innerText(), /heads="0" is not valid/);
  assert.equal((await specOf(page, 'attention-playground')).heads, 1);
  await done(page);
});

test('a post with three widgets fetches each wasm once, as a file, and nothing it does not show', async () => {
  pages['/three.html'] = post(['weights', 'scores', 'output'].map((view, i) =>
    `<attention-playground id="w${i}" sentence="The cat sat on the mat ${i}" heads="2" d-model="8" view="${view}"></attention-playground>`).join('<p>Between.</p>'));
  const page = await env.page();
  const fetched = [];
  page.on('response', (r) => fetched.push({ path: new URL(r.url()).pathname, type: r.headers()['content-type'] ?? '' }));
  const whole = page.waitForResponse((r) => /attention-core-[\w-]+\.wasm$/.test(r.url()));
  await page.goto(env.base + 'three.html');
  for (const [i, key] of ['weights', 'scores', 'output'].entries()) await shows(page, `#w${i} ap-heatmap[key="${key}"] td[data-row]`);
  const spec = await specOf(page, '#w1');
  assert.deepEqual(await cells(page, 'scores', 0, '#w1'), core.run(spec).scores[0]);
  // wasm files streamed as application/wasm rather than decoded from text in a script, each
  // once: the first heatmap's module, then the whole core once the first heatmaps are drawn
  await whole;
  const wasm = fetched.filter((f) => f.path.endsWith('.wasm'));
  assert.deepEqual(wasm.map((f) => [f.path.replace(/-[\w-]{8}\.wasm$/, '.wasm'), f.type]),
    [['/assets/attention-first.wasm', 'application/wasm'], ['/assets/attention-core.wasm', 'application/wasm']]);
  // neither training's module, nor the trained model, nor its texts: those load when used
  assert.deepEqual(fetched.filter((f) => /attention-train|tiny-lm|corpus|train-worker/.test(f.path)).map((f) => f.path), []);
  await done(page);
});

test('a post\'s first heatmap waits for none of the code it does not show (the later views held back)', async () => {
  pages['/held-views.html'] = post(`<attention-playground id="w" sentence="The cat sat on the mat" heads="2" d-model="8" view="weights"></attention-playground>`);
  const page = await env.page();
  const release = await holdBack(page, /\/chunks\/views-[\w-]+\.js$/);
  await page.goto(env.base + 'held-views.html');
  await shows(page, '#w ap-heatmap[key="weights"] td[data-row]');
  assert.equal(await page.evaluate(() => customElements.get('ap-derivation')), undefined, 'the later views are still held back');
  release();
  await page.locator('#w ap-heatmap[key="weights"] td[data-row="1"][data-col="0"]').first().click();
  await page.locator('#w ap-derivation h3').waitFor();
  await done(page);
});

test('a post shows its weights, with the core\'s numbers, before the elements\' code is in; the element then takes their place where they stood', async () => {
  pages['/first.html'] = post(`<attention-playground id="w" sentence="The cat sat on the mat" heads="2" d-model="8" view="weights"></attention-playground>`);
  for (const [width, colorScheme] of [[390, 'dark'], [1280, 'light']]) {
    const page = await env.page({ viewport: { width, height: 900 }, colorScheme });
    const asked = [];
    const chunk = /\/chunks\/(elements|attention|first-screen)-[\w-]{8}\.js$/;  // (a bundler's hash: not the whole core's attention-core-*)
    page.on('request', (r) => { if (chunk.test(r.url())) asked.push(`/chunks/${r.url().match(chunk)[1]}`); });
    const release = await holdBack(page, /\/chunks\/elements-[\w-]+\.js$/);  // the elements' code, held back
    await page.goto(env.base + 'first.html');
    // the first screen's code and the core's are asked for as the script starts (hints in the
    // host page's head, and nothing else of it changes)
    assert.deepEqual(await page.evaluate(() => Array.from(document.head.querySelectorAll('link[rel="modulepreload"]'), (l) => new URL(l.href).pathname.replace(/-[\w-]{8}\.js$/, '')).sort()),
      ['/chunks/attention', '/chunks/first-screen']);
    assert.equal(await page.locator('article > p').count(), 2);
    // the reader sees the sentence and each head's weights: the core's numbers, as the element shows them
    const painted = page.locator('#w > .first-screen');
    await painted.locator('[data-element="ap-heatmap"] td').first().waitFor();
    assert.equal(await page.evaluate(() => customElements.get('attention-playground')), undefined, 'the elements\' code is still held back');
    const trace = core.run({ sentence: 'The cat sat on the mat', heads: 2, d_model: 8 }), texts = [];
    assert.equal(await painted.locator('input').inputValue(), 'The cat sat on the mat');
    for (const h of [0, 1]) {
      const map = painted.locator('[data-element="ap-heatmap"]').nth(h);
      assert.equal(await map.locator('.title').textContent(), `weights · head ${h}6 × 6row-relative`);
      assert.deepEqual(await map.locator('tbody th').allTextContents(), trace.tokens);
      assert.deepEqual(await map.locator('tbody td').evaluateAll((tds) => tds.map((td) => Number(td.title))),
        trace.weights[h].flat().map((v) => Number(v.toPrecision(8))));
      texts.push(await map.locator('tbody td').allInnerTexts());
    }
    assert.equal(await painted.getAttribute('aria-hidden'), 'true', 'a picture of the element to come: screen readers wait for the element');
    const before = await page.locator('#w').boundingBox();
    // the element, once in, draws its own in the same place, the same size, and the painted one goes
    release();
    await shows(page, '#w ap-heatmap[key="weights"] td[data-row]');
    assert.equal(await page.locator('#w > .first-screen').count(), 0);
    assert.deepEqual(await page.locator('#w').boundingBox(), before);
    assert.deepEqual(await cells(page, 'weights', 1, '#w'), trace.weights[1]);
    for (const h of [0, 1]) assert.deepEqual(await shownText(page, 'weights', h, '#w'), texts[h], 'the numbers as the element writes them');
    assert.equal(asked.filter((c) => c === '/chunks/elements').length, 1, `each fetched once: ${asked}`);
    await done(page);
  }
});

test('a post\'s first screen is drawn only where the element would draw the same, and holds a hostile sentence as text', async () => {
  pages['/first-some.html'] = post(`<attention-playground id="bad" sentence="<img src=x onerror=alert(1)> &amp;" heads="2" view="weights"></attention-playground>
    <attention-playground id="scores" sentence="The cat sat" view="scores"></attention-playground>
    <attention-playground id="wrong" sentence="The cat sat" heads="three" view="weights"></attention-playground>
    <attention-playground id="preset" preset="seed004" view="weights"></attention-playground>
    <attention-playground id="mine" sentence="a b" x="[[1,2],[3,4]]" view="weights"></attention-playground>
    <attention-playground id="long" sentence="one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen" view="weights"></attention-playground>
    <div style="width: 900px"><attention-playground id="wide" sentence="The cat sat" view="weights"></attention-playground></div>`);
  const page = await env.page();
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  const release = await holdBack(page, /\/chunks\/elements-[\w-]+\.js$/);
  await page.goto(env.base + 'first-some.html');
  const painted = page.locator('#bad > .first-screen');
  await painted.locator('[data-element="ap-heatmap"] td').first().waitFor();
  assert.equal(await painted.locator('input').inputValue(), '<img src=x onerror=alert(1)> &');
  assert.deepEqual(await painted.locator('[data-element="ap-heatmap"]').first().locator('tbody th').allTextContents(),
    core.run({ sentence: '<img src=x onerror=alert(1)> &', heads: 2 }).tokens);
  assert.equal(await page.locator('#bad img').count(), 0);
  // scores, a setting the element would complain of, a preset, the learner's own matrix, more
  // columns than fit numbers, a wide element (its settings a column beside its views): the
  // element draws those with its own code
  for (const id of ['scores', 'wrong', 'preset', 'mine', 'long', 'wide']) assert.equal(await page.locator(`#${id} > .first-screen`).count(), 0, id);
  release();
  await shows(page, '#wrong .note');
  assert.match(await page.locator('#wrong .note').textContent(), /heads="three" is not valid/);
  await shows(page, '#bad ap-heatmap[key="weights"] td[data-row]');
  assert.deepEqual(dialogs, [], 'the sentence ran nothing');
  await done(page);
});

test('a post whose first heatmap\'s module is slow to come gets its playground\'s controls meanwhile, then its numbers', async () => {
  pages['/slow-first.html'] = post(`<attention-playground id="w" sentence="The cat sat on the mat" heads="2" d-model="8" view="weights"></attention-playground>`);
  const page = await env.page();
  const release = await holdBack(page, /attention-first-[\w-]+\.wasm$/);
  const start = Date.now();
  await page.goto(env.base + 'slow-first.html');
  await page.locator('#w input#c-sentence').waitFor({ timeout: 10_000 });
  assert.ok(Date.now() - start < 8000, 'the controls did not wait for the wasm');
  assert.equal(await page.locator('#w ap-heatmap td[data-row]').count(), 0, 'the wasm is still held back');
  release();
  await shows(page, '#w ap-heatmap[key="weights"] td[data-row]');
  assert.deepEqual(await cells(page, 'weights', 1, '#w'), core.run(await specOf(page, '#w')).weights[1]);
  await done(page);
});

test('a post that styles its playground sees the first screen as the element will be; one that styles its parts waits for the element', async () => {
  const body = '<attention-playground id="w" sentence="The cat sat" view="weights"></attention-playground>';
  // the element's colours and font from the post, a variable set around it (which the element does
  // not take), and an old theme's rule for every <div> of the article
  pages['/first-themed.html'] = post(body, `attention-playground { --ap-bg: rgb(255, 250, 235); --ap-fg: rgb(60, 30, 0); font-family: Georgia, serif; line-height: 2; }
    article { --ap-line: rgb(255, 0, 0); } article div { margin: 0 0 1.5em; padding: 8px; border: 1px dashed #999; }`);
  pages['/first-parts.html'] = post(body, 'attention-playground::part(view) { padding: 4px; }');
  for (const colorScheme of ['light', 'dark']) {
    const page = await env.page({ colorScheme });
    const release = await holdBack(page, /\/chunks\/elements-[\w-]+\.js$/);
    const look = () => page.locator('#w').evaluate((e) => {
      const s = getComputedStyle(e), input = getComputedStyle((e.shadowRoot ?? e.querySelector('.first-screen').shadowRoot).querySelector('input'));
      return { box: e.getBoundingClientRect().toJSON(), background: s.backgroundColor, colour: s.color, font: s.fontFamily, line: s.lineHeight,
        rule: s.getPropertyValue('--ap-line'), input: [input.fontFamily, input.fontSize, input.backgroundColor] };
    });
    await page.goto(env.base + 'first-themed.html');
    await page.locator('#w > .first-screen [data-element="ap-heatmap"] td').first().waitFor();
    const painted = await look();
    assert.deepEqual([painted.background, painted.colour, painted.font], ['rgb(255, 250, 235)', 'rgb(60, 30, 0)', 'Georgia, serif'], 'the colours and font the post gives its playground');
    release();
    await shows(page, '#w ap-heatmap[key="weights"] td[data-row]');
    assert.deepEqual(await look(), painted, 'the element as its first screen was: box, colours, font, line height, variables, its input');
    await done(page);
  }

  const parts = await env.page();
  let asked, go;
  const elements = new Promise((r) => { asked = r; }), later = new Promise((r) => { go = r; });
  await parts.route(/\/chunks\/elements-[\w-]+\.js$/, async (route) => { asked(); await later; await route.continue(); });
  await parts.goto(env.base + 'first-parts.html');
  await elements;  // asked for once the first screens are done: none drawn
  assert.equal(await parts.locator('#w > .first-screen').count(), 0);
  go();
  await shows(parts, '#w ap-heatmap[key="weights"] td[data-row]');
  await done(parts);
});

test('a post whose spec has a number the first heatmap\'s module does not read exactly is drawn by the whole core, with its numbers', async () => {
  // 1/6 as JavaScript writes it: 17 digits, which the module's JSON reader leaves to the whole core
  pages['/sixth.html'] = post(`<attention-playground id="w" sentence="The FBI is chasing" d-model="6" scale="0.16666666666666666" mask="causal" seed="2" view="weights"></attention-playground>`);
  const page = await env.page();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const release = await holdBack(page, /attention-core-[\w-]+\.wasm$/);  // the whole core, held back: until it is in, nothing is drawn, rather than other numbers
  await page.goto(env.base + 'sixth.html');
  await page.waitForTimeout(1000);
  assert.equal(await page.locator('#w ap-heatmap[key="weights"] td[data-row]').count(), 0);
  release();
  await shows(page, '#w ap-heatmap[key="weights"] td[data-row]');
  const spec = await specOf(page, '#w');
  assert.equal(spec.scale, 1 / 6);
  assert.deepEqual(await cells(page, 'weights', 0, '#w'), core.run(spec).weights[0]);
  assert.deepEqual(errors, []);
  await done(page);
});

test('a first heatmap module that fails at its first call leaves the post to the whole core, with the same numbers', async () => {
  pages['/broken-first.html'] = post(`<attention-playground id="w" sentence="The cat sat on the mat" heads="2" d-model="8" view="weights"></attention-playground>`);
  const page = await env.page();
  // the module compiles, but its first_run_packed is missing (its export renamed): its first call throws
  await page.route(/attention-first-[\w-]+\.wasm$/, async (route) => {
    const body = await (await route.fetch()).body();
    const name = Buffer.from('first_run_packed');
    assert.equal(body.indexOf(name), body.lastIndexOf(name), 'exported once');
    body[body.indexOf(name) + name.length - 1] = 'X'.charCodeAt(0);
    await route.fulfill({ body, headers: { 'content-type': 'application/wasm' } });
  });
  await page.goto(env.base + 'broken-first.html');
  await shows(page, '#w ap-heatmap[key="weights"] td[data-row]');
  assert.deepEqual(await cells(page, 'weights', 1, '#w'), core.run(await specOf(page, '#w')).weights[1]);
  await done(page);
});

test('a post\'s trainer and comparison code comes after its first heatmap; a post that shows a trainer gets it at once', async () => {
  pages['/no-trainer.html'] = post(`<attention-playground id="w" sentence="The cat sat on the mat" heads="2" d-model="8" view="weights"></attention-playground>`);
  pages['/with-trainer.html'] = post(`<attention-playground id="w" sentence="The cat sat on the mat" view="weights"></attention-playground>
    <attention-trainer></attention-trainer>`);
  const page = await env.page();
  const asked = [];
  page.on('request', (r) => { if (/\/chunks\/(trainer|compare)-[\w-]+\.js$/.test(r.url())) asked.push(new URL(r.url()).pathname); });
  const held = [];  // the first heatmap's module, held back: one release per request
  await page.route(/attention-first-[\w-]+\.wasm$/, async (route) => { await new Promise((r) => held.push(r)); await route.continue(); });
  const release = async () => { while (!held.length) await page.waitForTimeout(50); held.shift()(); };
  await page.goto(env.base + 'no-trainer.html');
  while (!held.length) await page.waitForTimeout(50);
  await page.waitForTimeout(500);
  assert.deepEqual(asked, [], 'nothing of theirs while the first heatmap is on its way');
  await release();
  await shows(page, '#w ap-heatmap[key="weights"] td[data-row]');
  await page.waitForFunction(() => customElements.get('attention-trainer') && customElements.get('attention-compare'));
  // a trainer a host script adds afterwards is drawn
  await page.evaluate(() => document.querySelector('article').append(document.createElement('attention-trainer')));
  await page.locator('attention-trainer button[data-action="play"]').waitFor();

  // with a trainer in the post: its code at once, the first heatmap still on its way
  await page.goto(env.base + 'with-trainer.html');
  await page.waitForFunction(() => customElements.get('attention-trainer'));
  assert.equal(await page.locator('#w ap-heatmap td[data-row]').count(), 0, 'before the first heatmap');
  await release();
  await shows(page, '#w ap-heatmap[key="weights"] td[data-row]');
  await done(page);
});

test('a post on the trained model shows a layer\'s weights, with the core\'s numbers and its controls or none, before the elements\' code is in, the weights fetched once', async () => {
  pages['/first-model.html'] = post(`<attention-playground id="m" model="tiny-lm" sentence="zebra jumps" view="weights" controls="none" layer="2"></attention-playground>
    <attention-playground id="typed" model="tiny-lm" sentence="hi there" view="weights"></attention-playground>`);
  await core.loadModel();
  const trace = core.trace({ model: 'tiny-lm', sentence: 'zebra jumps' });
  for (const [width, colorScheme] of [[390, 'dark'], [1280, 'light']]) {
    const page = await env.page({ viewport: { width, height: 900 }, colorScheme });
    const fetched = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname.replace(/-[\w-]{8}\.(\w+)$/, '.$1')));
    const release = await holdBack(page, /\/chunks\/elements-[\w-]+\.js$/);
    await page.goto(env.base + 'first-model.html');
    const painted = page.locator('#m > .first-screen');
    await painted.locator('[data-element="ap-heatmap"] td').first().waitFor();
    assert.equal(await page.evaluate(() => customElements.get('attention-playground')), undefined, 'the elements\' code is still held back');
    // the layer the post asked for, each head's weights as the whole core computes them, the tokens marked as the page marks them
    assert.equal(await painted.locator('.layer-of').textContent(), 'Layer 2 of 2');
    const maps = painted.locator('[data-element="ap-heatmap"]'), texts = [];
    assert.equal(await maps.count(), 4);
    for (let h = 0; h < 4; h++) {
      const map = maps.nth(h);
      assert.equal(await map.locator('.title').textContent(), `weights · head ${h}${trace.tokens.length} × ${trace.tokens.length}row-relative`);
      assert.deepEqual(await map.locator('tbody th').allTextContents(), trace.tokens.map((t) => t.replace(/ /g, '␣')));
      assert.deepEqual(await map.locator('tbody td').evaluateAll((tds) => tds.map((td) => Number(td.title.replace('\u2212', '-')))),
        trace.layers[1].weights[h].flat().map((v) => Number(v.toPrecision(8))));
      texts.push(await map.locator('tbody td').allInnerTexts());
    }
    // one with its controls: the model chosen, the sentence, how many tokens it is, layer 1's heads
    const typed = page.locator('#typed > .first-screen'), hi = core.trace({ model: 'tiny-lm', sentence: 'hi there' });
    assert.equal(await typed.locator('select').inputValue(), 'tiny-lm');
    assert.equal(await typed.locator('input').inputValue(), 'hi there');
    assert.equal(await typed.locator('[data-key="sentence"] .hint').textContent(), `It reads word pieces: at most 128 tokens (${hi.tokens.length} now).`);
    assert.equal(await typed.locator('.layer-of').textContent(), 'Layer 1 of 2');
    assert.deepEqual(await typed.locator('[data-element="ap-heatmap"]').nth(3).locator('tbody td').evaluateAll((tds) => tds.map((td) => Number(td.title.replace('\u2212', '-')))),
      hi.layers[0].weights[3].flat().map((v) => Number(v.toPrecision(8))));
    await page.screenshot({ path: `/tmp/first-model-${width}-${colorScheme}.png`, fullPage: true });
    const place = (id) => page.locator(id).evaluate((el) => { const r = el.getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height]; });
    const box = await place('#m'), typedBox = await place('#typed');
    const typedText = await typed.locator('.controls').innerText();
    release();
    await shows(page, '#m ap-heatmap[key="weights"] td[data-row]');
    assert.equal(await page.locator('#m > .first-screen').count(), 0);
    assert.equal(await page.locator('#m .layer-of').textContent(), 'Layer 2 of 2');
    for (let h = 0; h < 4; h++) assert.deepEqual(await shownText(page, 'weights', h, '#m'), texts[h], 'the numbers as the element writes them');
    assert.deepEqual(await place('#m'), box, 'the element stands where its first screen stood');
    await shows(page, '#typed ap-heatmap[key="weights"] td[data-row]');
    assert.equal(await page.locator('#typed > .first-screen').count(), 0);
    assert.equal(await page.locator('#typed').locator('.controls').innerText(), typedText, 'the controls say what they said');
    assert.deepEqual(await place('#typed'), typedBox, 'the element with controls stands where its first screen stood');
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: `/tmp/first-model-${width}-${colorScheme}-element.png`, fullPage: true });
    // the model module, and no other first module; the weights once, for the screen and both elements
    assert.deepEqual(fetched.filter((f) => /attention-first|tiny-lm/.test(f)), ['/assets/tiny-lm.bin', '/assets/attention-first-model.wasm'].sort((a, b) => fetched.indexOf(a) - fetched.indexOf(b)));
    await done(page);
  }
});

test('a post on the trained model too wide for a first screen asks for the whole core at once, then shows the model', async () => {
  pages['/wide-model.html'] = post(`<div style="width: 900px"><attention-playground id="w" model="tiny-lm" sentence="hi there" view="weights" controls="none"></attention-playground></div>`);
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  const release = await holdBack(page, /\/chunks\/elements-[\w-]+\.js$/);
  const whole = page.waitForRequest((r) => /attention-core-[\w-]+\.wasm$/.test(r.url()));
  await page.goto(env.base + 'wide-model.html');
  await whole;  // while the elements' code is still held back
  assert.equal(await page.evaluate(() => customElements.get('attention-playground')), undefined);
  assert.equal(await page.locator('#w > .first-screen').count(), 0);
  release();
  await shows(page, '#w ap-heatmap[key="weights"] td[data-row]');
  await core.loadModel();
  assert.deepEqual(await cells(page, 'weights', 2, '#w'), core.trace({ model: 'tiny-lm', sentence: 'hi there' }).layers[0].weights[2]);
  await done(page);
});
