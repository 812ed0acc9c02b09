// Embedding: attributes, the URL hash, share and embed snippets, a strict CSP, a sandboxed
// iframe, the single file from disk, exports, accessibility.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { start, cells, ready, done } from './harness.mjs';

const core = await load();
const root = new URL('../../', import.meta.url);
const pages = {};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

const specOf = (page, sel = 'attention-playground') => page.locator(sel).evaluate((el) => el.spec);
/** Every head's weights shown by the element `host`. */
const weightsIn = async (page, host) => {
  const heads = await page.locator(`${host} ap-heatmap[key="weights"]`).count();
  return Promise.all(Array.from({ length: heads }, (_, h) => cells(page, 'weights', h, host)));
};

pages['/attrs.html'] = `<!doctype html><html lang="en"><head><title>attributes</title><link rel="icon" href="data:,">
<script type="module" src="/attention-playground.js"></script></head><body><main>
<attention-playground id="a" sentence="The FBI is chasing the thief" seed="7" heads="2" d-model="8" mask="causal" controls="sentence,seed" theme="dark"></attention-playground>
<attention-playground id="b" preset="seed004" view="weights" controls="none" compact></attention-playground>
<attention-playground id="c" seed="banana" score="cosine"></attention-playground>
<attention-playground id="d" compact controls="sentence" view="weights"></attention-playground>
</main></body></html>`;

test('attributes render, reflect changes, and instances share one module', async () => {
  const page = await env.page();
  await page.addInitScript(() => {
    window.instantiations = 0;
    for (const name of ['instantiate', 'instantiateStreaming']) {
      const original = WebAssembly[name];
      WebAssembly[name] = (...args) => { window.instantiations++; return original.apply(WebAssembly, args); };
    }
  });
  await page.goto(env.base + 'attrs.html');
  await page.locator('#b ap-heatmap[key="weights"]').waitFor();
  await page.locator('#a ap-heatmap[key="weights"]').first().waitFor();
  const a = await specOf(page, '#a');
  assert.equal(a.heads, 2);
  assert.equal(a.mask, 'causal');
  assert.equal(a.d_model, 8);
  assert.deepEqual(await weightsIn(page, '#a'), core.run(a).weights);
  assert.equal(await page.locator('#a .control').count(), 2);
  // the sentence is a control like the others: same ink, and shown in a compact element too
  const ink = (sel) => page.locator(sel).evaluate((el) => getComputedStyle(el).color);
  assert.equal(await ink('#a #c-sentence'), await ink('#a #c-seed'));
  assert.ok(await page.locator('#d #c-sentence').isVisible());
  assert.equal(await page.locator('#a').getAttribute('theme'), 'dark');
  // b: one view, no controls, seed 004's weights
  assert.equal(await page.locator('#b .control').count(), 0);
  assert.equal(await page.locator('#b ap-heatmap').count(), 1);
  assert.deepEqual(await weightsIn(page, '#b'), core.run(await specOf(page, '#b')).weights);
  // c: bad attributes fall back to defaults with a visible note
  assert.match(await page.locator('#c .note').first().innerText(), /seed="banana" is not valid; score="cosine" is not valid/);
  await page.locator('#c ap-heatmap[key="weights"]').waitFor();
  // changing an attribute recomputes
  await page.locator('#a').evaluate((el) => el.setAttribute('seed', '8'));
  await page.waitForFunction(() => document.querySelector('#a').spec.seed === 8);
  await page.waitForTimeout(50);
  assert.deepEqual(await weightsIn(page, '#a'), core.run(await specOf(page, '#a')).weights);
  // once for the four elements: the first heatmap's module, then the whole core
  await page.waitForFunction(() => window.instantiations >= 2);
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.instantiations), 2);
  await done(page);
});

test('the URL hash round-trips, and Share gives a link that reproduces the numbers', async () => {
  const page = await env.page();
  await page.goto(env.base);
  await ready(page);
  await page.fill('#c-sentence', 'round trip through the hash');
  await page.selectOption('#c-mask', 'window');
  await page.fill('#c-window', '2');
  await page.selectOption('#c-score', 'general');
  await page.fill('#c-temperature', '0.5');
  await page.click('button[data-action="share"]');
  const link = await page.locator('textarea.share').inputValue();
  assert.ok(link.startsWith(env.base + '#'), link);
  const before = await cells(page, 'weights');
  const spec = await specOf(page);
  const again = await env.page();
  await again.goto(link);
  await ready(again);
  assert.deepEqual(await specOf(again), spec);
  assert.deepEqual(await cells(again, 'weights'), before);
  assert.equal(await again.inputValue('#c-window'), '2');
  await done(again);
  await done(page);
});

test('Embed gives an iframe and an element snippet that reproduce the numbers', async () => {
  const page = await env.page();
  await page.goto(env.base + '#sentence=embed+me+please&heads=2&d_model=6&seed=3');
  await ready(page);
  await page.click('button[data-action="embed"]');
  const text = await page.locator('textarea.share').inputValue();
  const iframe = text.match(/<iframe[^>]*><\/iframe>/)[0];
  const element = text.slice(text.indexOf('<script'));
  assert.match(element, /<attention-playground [^>]*heads="2"/);
  const weights = await cells(page, 'weights');
  pages['/embedded.html'] = `<!doctype html><html lang="en"><head><title>embed</title><link rel="icon" href="data:,"></head><body>${element}</body></html>`;
  pages['/framed.html'] = `<!doctype html><html lang="en"><head><title>frame</title><link rel="icon" href="data:,"></head><body>${iframe}</body></html>`;
  const other = await env.page();
  await other.goto(env.base + 'embedded.html');
  await ready(other);
  assert.deepEqual(await cells(other, 'weights'), weights);
  await other.goto(env.base + 'framed.html');
  const frame = other.frameLocator('iframe');
  await frame.locator('ap-heatmap[key="weights"]').first().waitFor();
  assert.equal(await frame.locator('ap-heatmap[key="weights"]').count(), 2);
  await done(other);
  await done(page);
});

test('random and malformed hashes never blank the page', async () => {
  const page = await env.page();
  const rnd = (() => { let x = 12345; return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648; })();
  const junk = () => Array.from({ length: Math.floor(rnd() * 40) }, () => String.fromCharCode(32 + Math.floor(rnd() * 95))).join('');
  const keys = ['sentence', 'seed', 'heads', 'd_model', 'mask', 'score', 'X', 'W_q', 'window', 'mode', 'temperature', 'nonsense'];
  const hashes = ['%', '%E0%A4%A', '&&&==', 'seed=-1', 'heads=0', 'X=[[1,2],[3]]', 'X=not-json', 'W_q=[[1e400]]',
    'mode=encoder_decoder&annotations=[[1]]&decoder_state=[1,2]', 'temperature=0', 'd_model=100000', 'sentence=' + 'w%20'.repeat(600)];
  for (let i = 0; i < 24; i++) hashes.push(Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => `${keys[Math.floor(rnd() * keys.length)]}=${encodeURIComponent(junk())}`).join('&'));
  for (const hash of hashes) {
    await page.goto(`${env.base}#${hash}`);
    // The element's own views: until its first trace, the page's written first screen (hidden
    // for a link with settings) holds a copy of them too.
    await page.waitForFunction(() => document.querySelector('attention-playground')?.shadowRoot?.querySelector('.views'));
    await page.waitForFunction(() => {
      const r = document.querySelector('attention-playground').shadowRoot;
      return r.querySelector('ap-heatmap') || r.querySelector('.message') || r.querySelector('.note');
    });
    const shown = await page.locator('attention-playground').evaluate((el) => ({
      heatmaps: el.shadowRoot.querySelectorAll('ap-heatmap').length,
      said: [...el.shadowRoot.querySelectorAll('.message, .note')].map((e) => e.textContent).join(' '),
    }));
    assert.ok(shown.heatmaps > 0 || shown.said.length > 0, `blank page for #${hash}`);
  }
  // A key it cannot read is named in a note, and left at its default: the rest of the link holds.
  await page.goto(`${env.base}#sentence=a+link+with+one+bad+key&d_model=6`);
  await ready(page);
  const good = await specOf(page);
  for (const [hash, key] of [['seed=-1', 'seed'], ['heads=0', 'heads'], ['X=not-json', 'X'], ['score=cosine', 'score']]) {
    await page.goto(`${env.base}#sentence=a+link+with+one+bad+key&d_model=6&${hash}`);
    await ready(page);
    // Only the hash changed, so the page is the same document: wait for it to read the new hash.
    await page.locator('.note', { hasText: new RegExp(`not understood.*${key}`) }).first().waitFor({ timeout: 5000 }).catch(() => {});
    assert.match(await page.locator('.note').first().innerText(), new RegExp(`not understood.*${key}`), hash);
    assert.deepEqual(await specOf(page), good, hash);
    assert.deepEqual(await cells(page, 'weights'), core.run(good).weights[0]);
  }
  await done(page);
});

test('under a strict Content-Security-Policy (no unsafe-eval, no inline script)', async () => {
  const page = await env.page();
  const violations = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()); });
  const response = await page.goto(env.base + 'csp/#seed=11');
  assert.match(response.headers()['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval'/);
  await ready(page);
  assert.deepEqual(await cells(page, 'weights'), core.run(await specOf(page)).weights[0]);
  // the other pages too: training in its worker, the comparison with its entropy plot
  await page.goto(env.base + 'csp/learn/#task=copy&seed=2');
  await page.locator('attention-trainer button[data-action="step100"]:not([disabled])').click();
  await page.waitForFunction(() => document.querySelector('attention-trainer').snapshot?.step === 100);
  await page.goto(env.base + 'csp/compare/#compare=scaling');
  await page.locator('attention-compare .chart svg polyline').first().waitFor();
  assert.deepEqual(violations, []);
  await done(page);
});

test('inside a sandboxed iframe (allow-scripts only)', async () => {
  pages['/sandbox.html'] = `<!doctype html><html lang="en"><head><title>sandbox</title><link rel="icon" href="data:,"></head><body>
    <iframe sandbox="allow-scripts" src="/#sentence=sandboxed+but+fine" width="1000" height="700" title="playground"></iframe></body></html>`;
  const page = await env.page();
  await page.goto(env.base + 'sandbox.html');
  const frame = page.frameLocator('iframe');
  await frame.locator('ap-heatmap[key="weights"]').waitFor();
  assert.equal((await cells(frame, 'weights')).flat().length, 9);
  await frame.locator('button[data-action="share"]').click();  // no clipboard here: the link is shown instead
  assert.match(await frame.locator('textarea.share').inputValue(), /sentence=sandboxed/);
  // No worker can start in an opaque origin: a long sentence is computed on the page instead.
  await frame.locator('#c-sentence').fill(Array.from({ length: 480 }, (_, i) => `w${i}`).join(' '));
  await frame.locator('ap-heatmap[key="weights"] .title small', { hasText: '480 × 480' }).first().waitFor();
  await done(page);
});

test('the single file works opened from disk with no network', async () => {
  const page = await env.page({ offline: true });
  const requests = [];
  page.context().on('request', (r) => requests.push(r.url()));
  await page.goto(new URL('dist/attention-playground.html', root).href + '#sentence=offline+and+from+disk&seed=9');
  await ready(page);
  const spec = await specOf(page);
  assert.equal(spec.seed, 9);
  assert.deepEqual(await cells(page, 'weights'), core.run(spec).weights[0]);
  assert.deepEqual(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:')), []);
  await done(page);
});

test('exports hold the numbers on screen', async () => {
  const page = await env.page();
  await page.goto(env.base + '#sentence=export+these+numbers&heads=2&d_model=4');
  await ready(page);
  const spec = await specOf(page);
  const trace = core.run(spec);
  const weights = page.locator('.matrix').filter({ has: page.locator('ap-heatmap[key="weights"]') }).nth(1);  // head 1
  await weights.locator('summary').click();
  const save = async (format) => {
    const [d] = await Promise.all([page.waitForEvent('download'), weights.locator(`button[data-format="${format}"]`).click()]);
    return { name: d.suggestedFilename(), body: readFileSync(await d.path()) };
  };
  const csv = await save('csv');
  assert.equal(csv.name, 'weights_head_1.csv');
  const lines = csv.body.toString().trim().split('\n');
  assert.equal(lines[0], '"","export","these","numbers"');  // labels are quoted text
  assert.deepEqual(lines.slice(1).map((l) => l.split(',').slice(1).map(Number)), trace.weights[1]);
  const json = JSON.parse((await save('json')).body);
  assert.deepEqual(json.values, trace.weights[1]);
  const svg = (await save('svg')).body.toString();
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((svg.match(/<rect x=/g) ?? []).length, 9);
  for (const v of trace.weights[1].flat()) assert.ok(svg.includes(`<title>${v}</title>`));
  const png = (await save('png')).body;
  assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  // wide enough for a full-HD slide (the SVG is a few hundred pixels across), at least twice the
  // screen's pixels, the SVG's proportions kept, each cell in the colour the SVG gives it
  const [width, height] = [Number(svg.match(/width="(\d+)"/)[1]), Number(svg.match(/height="(\d+)"/)[1])];
  const k = png.readUInt32BE(16) / width;
  assert.ok(k >= 2 && png.readUInt32BE(16) >= Math.min(1900, 8 * width), `${png.readUInt32BE(16)} x ${png.readUInt32BE(20)} for ${width} x ${height}`);
  assert.ok(Math.abs(png.readUInt32BE(20) - k * height) <= 1);
  const rects = [...svg.matchAll(/<rect x="(\d+)" y="(\d+)"[^>]*fill="rgb\((\d+) (\d+) (\d+)\)"/g)].map((m) => m.slice(1).map(Number));
  const pixels = await page.evaluate(async ({ data, at, k }) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const g = Object.assign(document.createElement('canvas'), { width: img.width, height: img.height }).getContext('2d');
    g.drawImage(img, 0, 0);
    return at.map(([x, y]) => [...g.getImageData(Math.round(k * (x + 2)), Math.round(k * (y + 2)), 1, 1).data.slice(0, 3)]);
  }, { data: png.toString('base64'), at: rects.map(([x, y]) => [x, y]), k });
  assert.deepEqual(pixels, rects.map((r) => r.slice(2)));
  await weights.locator('button[data-format="numpy"]').click();
  assert.equal(await page.locator('textarea.numpy').inputValue(), core.numpy(spec));
  const arcs = page.locator('.matrix').filter({ has: page.locator('ap-arcs') });
  await arcs.locator('summary').click();
  const [d] = await Promise.all([page.waitForEvent('download'), arcs.locator('button[data-format="svg"]').click()]);
  // a line per weight of at least 0.01, in every head, its opacity 0.15 + 0.75 (weight ÷ its row's largest)²
  // (0.8 of that with two heads)
  const opacities = [...readFileSync(await d.path(), 'utf8').matchAll(/<line [^>]*stroke-opacity="([\d.e-]+)"/g)].map((m) => Number(m[1]));
  const expected = trace.weights.flatMap((head) => head.flatMap((row) => row.filter((w) => w >= 0.01)
    .map((w) => (0.15 + 0.75 * Math.min(1, w / Math.max(...row)) ** 2) * 0.8)));
  assert.deepEqual(opacities.sort(), expected.sort());
  await done(page);
});

test('axe-core finds no accessibility violations, light and dark, wide and phone', async () => {
  const axe = readFileSync(new URL('node_modules/axe-core/axe.min.js', root), 'utf8');
  for (const [width, scheme, url] of [[1280, 'light', ''], [390, 'dark', ''], [1280, 'light', 'examples/'], [390, 'light', 'examples/'],
    [1280, 'dark', '#mode=encoder_decoder&score=additive'], [1280, 'light', '#heads=2&d_model=8&mask=causal&residual=true'],
    [1280, 'light', 'learn/'], [390, 'dark', 'learn/#task=sort'], [1280, 'dark', 'compare/'], [390, 'light', 'compare/#compare=heads']]) {
    const page = await env.page({ viewport: { width, height: 900 }, colorScheme: scheme });
    await page.goto(env.base + url);
    await page.locator('ap-heatmap').first().waitFor();
    await page.addScriptTag({ content: axe });
    const result = await page.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ')}`);
    });
    assert.deepEqual(result, [], `${width}px ${scheme} ${url}`);
    // nothing wider than the screen: the page scrolls down, never sideways
    assert.ok(await page.evaluate((w) => document.documentElement.scrollWidth <= w, width), `${width}px ${url} scrolls sideways`);
    await done(page);
  }
});
