// A learner's first screen: where to start, what each control does, sliders to play with,
// the results first on a phone, and a word on why "dog" and "cat" give the same numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { load } from '../../dist/attention.js';
import { start, cells, ready, done, holdBack, shownText } from './harness.mjs';
import { FILE, firstScreen } from '../../scripts/first-screen.mjs';

let env;
const core = await load();
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const specOf = (page) => page.locator('attention-playground').evaluate((el) => el.spec);
// The help of the core's settings table (core.settings()), with what the page adds
// (web/src/state/settings.ts), as the controls should show it.
const HELP = {
  heads: /^Number of attention heads/,
  temperature: /^Divides the scores before the softmax; must be positive\. Low is sharp, high is flat\.$/,
  mask: /^none, causal, window:D/,
};

async function open(options = {}, hash = '') {
  const page = await env.page(options);
  await page.goto(env.base + hash);
  await ready(page);
  return page;
}

test('a control shows its help when focused from the keyboard and when hovered', async () => {
  const page = await open();
  const tip = page.locator('.control[data-key="temperature"] .help');
  assert.equal(await tip.isVisible(), false, 'no help until asked for');
  await page.focus('#c-d_model');
  await page.keyboard.press('Tab');  // to the Heads field
  await page.locator('.control[data-key="heads"] .help').waitFor({ state: 'visible', timeout: 2000 });
  assert.match(await page.locator('.control[data-key="heads"] .help').innerText(), HELP.heads);
  await page.focus('#c-temperature');
  await page.waitForFunction(() => {
    const el = document.querySelector('attention-playground').shadowRoot.querySelector('.control[data-key="temperature"] .help');
    return getComputedStyle(el).opacity === '1';
  });
  assert.ok(await tip.isVisible());
  assert.match(await tip.innerText(), HELP.temperature);
  // on screen, not cut off by the window's edge
  const box = await tip.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 800 && box.x + box.width <= 1280, JSON.stringify(box));
  // read to screen readers as the field's description
  assert.equal(await page.locator('#c-temperature').getAttribute('aria-describedby'), 'h-temperature');
  await page.locator('#c-temperature').blur();
  await page.locator('.control[data-key="mask"] label').hover();
  await page.locator('.control[data-key="mask"] .help').waitFor({ state: 'visible' });
  assert.match(await page.locator('.control[data-key="mask"] .help').innerText(), HELP.mask);
  // where to start
  assert.match(await page.locator('.control[data-key="sentence"] .hint').innerText(), /^Start here: type any sentence/);
  await done(page);
});

test('a learner typing a sentence sees the views it changes: the help that opened on focus steps aside', async () => {
  const page = await open();
  const tip = page.locator('.control[data-key="sentence"] .help');
  const field = page.locator('#c-sentence');
  await field.click();
  await tip.waitFor({ state: 'visible', timeout: 2000 });
  await page.keyboard.press('End');
  await page.keyboard.type(' and');
  await tip.waitFor({ state: 'hidden', timeout: 2000 });
  // nothing floats over the Embed card's formula while the mouse still rests on the field
  await page.waitForTimeout(600);  // longer than the hover's delay
  const formula = await page.locator('p.formula').first().boundingBox();
  const covering = await page.evaluate(({ x, y }) => {
    const host = document.querySelector('attention-playground');
    const el = host.shadowRoot.elementFromPoint(x, y);
    return el?.closest('.help') ? 'help' : el?.tagName;
  }, { x: formula.x + 4, y: formula.y + formula.height / 2 });
  assert.notEqual(covering, 'help');
  assert.match(await field.inputValue(), /the cat sat on the mat and$/);
  // back in the field later, the help is there again
  await field.blur();
  await page.focus('#c-seed');
  await field.focus();
  await tip.waitFor({ state: 'visible', timeout: 2000 });
  await done(page);
});

test('the sliders for temperature, scale and d_k change the spec, and their numbers stay typeable', async () => {
  const page = await open();
  const slide = async (key, value) => {
    await page.locator(`.control[data-key="${key}"] input[type="range"]`).fill(String(value));
    assert.equal(await page.inputValue(`#c-${key}`), String(value), `${key}: the number beside the slider`);
  };
  await slide('temperature', 0.5);
  assert.equal((await specOf(page)).temperature, 0.5);
  await slide('d_k', 2);
  assert.equal((await specOf(page)).d_k, 2);
  assert.equal((await cells(page, 'Q'))[0].length, 2);
  await slide('scale', 1.25);
  const spec = await specOf(page);
  assert.equal(spec.scale, 1.25);
  assert.deepEqual(await cells(page, 'weights'), core.run(spec).weights[0]);
  // typed past the slider's span: the field takes it, the slider stops at its end
  await page.fill('#c-temperature', '12');
  assert.equal((await specOf(page)).temperature, 12);
  assert.equal(await page.locator('.control[data-key="temperature"] input[type="range"]').inputValue(), '5');
  // an empty scale is "auto" again, and its slider shows the 1/√d_k in use
  await page.fill('#c-scale', '');
  assert.equal((await specOf(page)).scale, undefined);
  assert.equal(Number(await page.locator('.control[data-key="scale"] input[type="range"]').inputValue()), 0.71);
  await done(page);
});

test('on a phone the first matrix is on the first screen and the settings are folded', async () => {
  const page = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const x = page.locator('ap-heatmap[key="X"]');
  await x.waitFor();
  const top = await x.evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(top < 844 - 100, `the first heatmap starts at ${top}px`);
  const details = page.locator('details.settings');
  assert.equal(await details.evaluate((d) => d.open), false);
  assert.equal(await page.locator('#c-temperature').isVisible(), false);
  assert.ok(await page.locator('#c-sentence').isVisible(), 'the sentence stays out of the fold');
  assert.ok((await page.locator('#c-sentence').boundingBox()).y < top);
  await page.click('details.settings > summary');
  await page.fill('#c-heads', '2');
  assert.equal((await specOf(page)).heads, 2);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'nothing scrolls sideways');
  // a refused value in a folded control is still said, above the results
  await page.click('details.settings > summary');
  await page.locator('attention-playground').evaluate((el) => el.setAttribute('heads', '3'));
  await page.locator('.message').filter({ hasText: '3 heads do not divide d_model 4', visible: true }).first().waitFor();
  await done(page);
});

test('the first screen draws what is on it: a step far below waits in a place of a step\'s usual size, and shows the core\'s numbers when reached', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(() => { window.requestIdleCallback = () => 0; });  // no idle time: only being reached draws a step
  await page.goto(env.base + '#heads=2&d_model=8');
  await page.locator('ap-heatmap[key="X"] td[data-row]').first().waitFor();
  const steps = page.locator('ap-deferred-block');
  const held = await steps.evaluateAll((all) => all.map((b) => ({ drawn: b.childElementCount > 0, height: b.getBoundingClientRect().height })));
  assert.equal(await page.locator('ap-heatmap[key="output"]').count(), 0, 'the output\'s step is not drawn while far below');
  assert.ok(held.every((h) => h.height > 0), 'every step holds a place');
  // scrolled to, step by step, each draws when reached
  for (let i = held.findIndex((h) => !h.drawn); i < held.length && !(await page.locator('ap-heatmap[key="output"]').count()); i++) {
    await steps.nth(i).scrollIntoViewIfNeeded();
    await steps.nth(i).locator(':scope > *').first().waitFor();
  }
  const output = page.locator('ap-heatmap[key="output"]');
  await output.scrollIntoViewIfNeeded();
  await output.locator('td[data-row]').first().waitFor();
  const at = await steps.evaluateAll((all) => all.findIndex((b) => b.querySelector('ap-heatmap[key="output"]')));
  assert.ok(!held[at].drawn, 'the output\'s step was far below');
  const height = await steps.nth(at).evaluate((b) => b.getBoundingClientRect().height);
  assert.ok(Math.abs(height - held[at].height) < 0.5 * height, `held ${held[at].height}px for a step of ${height}px`);
  assert.deepEqual(await cells(page, 'output'), core.run(await specOf(page)).output);
  await done(page);
});

test('the matrices in sight are drawn with the page around them, not a frame later', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(() => {
    // Note, for every frame that began with the page's trace, whether X had its cells when the
    // frame was laid out (views in sight are placed and drawn in the frame's callbacks, before its
    // layout and paint): a ResizeObserver's first report comes after that layout, in the frame.
    window.frames = [];
    const look = () => {
      if (!document.querySelector('attention-playground')?.trace) return requestAnimationFrame(look);
      new ResizeObserver((_, observer) => {
        observer.disconnect();
        const x = document.querySelector('attention-playground').shadowRoot?.querySelector('ap-heatmap[key="X"]');
        window.frames.push({ cells: x?.shadowRoot?.querySelectorAll('td[data-row]').length ?? 0 });
        if (window.frames.length < 3) requestAnimationFrame(look);
      }).observe(document.documentElement);
    };
    requestAnimationFrame(look);
  });
  await page.goto(env.base);
  await page.waitForFunction(() => window.frames.length >= 3);
  const frames = await page.evaluate(() => window.frames);
  assert.ok(frames[0].cells > 0, `X had no cells in the first frame with numbers: ${JSON.stringify(frames)}`);
  assert.deepEqual(await cells(page, 'X'), core.run(await specOf(page)).X);
  await done(page);
});

test('the Embed step says the words make no difference to the numbers', async () => {
  const page = await open();
  const note = page.locator('#step-embed .embed-note');
  assert.match(await note.innerText(), /“the dog sat” gets exactly the numbers of “the cat sat”/);
  await page.fill('#c-sentence', 'the dog sat');
  const dog = await cells(page, 'X');
  await page.fill('#c-sentence', 'the cat sat');
  assert.deepEqual(await cells(page, 'X'), dog);
  await done(page);
});

test('per word: "the" keeps its row in any sentence, "dog" and "cat" differ', async () => {
  const page = await open();
  assert.match(await page.locator('#step-embed .embed-note').innerText(), /Embeddings: per word gives every word a vector of its own/);
  await page.selectOption('#c-embedding_init', 'per_word');
  assert.match(await page.locator('#step-embed .embed-note').innerText(), /depends only on the seed and the word/);
  await page.fill('#c-sentence', 'the dog sat');
  const dog = await cells(page, 'X');
  await page.fill('#c-sentence', 'the cat sat');
  const cat = await cells(page, 'X');
  assert.deepEqual(cat[0], dog[0], '“the”');
  assert.deepEqual(cat[2], dog[2], '“sat”');
  assert.notDeepEqual(cat[1], dog[1], '“cat” and “dog”');
  await page.fill('#c-sentence', 'a cat');
  assert.deepEqual((await cells(page, 'X'))[1], cat[1], '“cat” in another sentence');
  assert.deepEqual(cat, core.run({ ...(await specOf(page)), sentence: 'the cat sat' }).X);
  await done(page);
});

// The page's first screen is written into its HTML, so that it shows before any script arrives.
const SCRIPTS = /\/assets\/.*\.(js|wasm)$/;  // the page's code and the core; not linked.js, read before the body

/** Pixels of two screenshots that differ by more than a rounded corner's anti-aliasing may
 *  (a layer's raster can move a channel by one or two). */
const differentPixels = (page, a, b) => page.evaluate(async ([a, b]) => {
  const pixels = async (png) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    canvas.getContext('2d').drawImage(bitmap, 0, 0);
    return canvas.getContext('2d').getImageData(0, 0, bitmap.width, bitmap.height).data;
  };
  const [p, q] = [await pixels(a), await pixels(b)];
  if (p.length !== q.length) return Infinity;
  let n = 0;
  for (let i = 0; i < p.length; i += 4) if (Math.max(Math.abs(p[i] - q[i]), Math.abs(p[i + 1] - q[i + 1]), Math.abs(p[i + 2] - q[i + 2])) > 8) n++;
  return n;
}, [a.toString('base64'), b.toString('base64')]);

test('before any script arrives, the first screen shows the numbers the page then draws, pixel for pixel', async () => {
  for (const [width, height, colorScheme] of [[1280, 800, 'light'], [390, 844, 'dark']]) {
    const early = await env.page({ viewport: { width, height }, colorScheme });
    await early.route(SCRIPTS, (r) => r.abort());
    await early.goto(env.base);
    const written = await early.locator('.first-screen > div:visible').evaluate((copy) =>
      Array.from(copy.shadowRoot.querySelector('[data-element="ap-heatmap"][key="X"]').shadowRoot.querySelectorAll('tbody tr'),
        (tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent.trim())));
    const before = await early.screenshot();
    const live = await env.page({ viewport: { width, height }, colorScheme });
    await live.goto(env.base);
    await ready(live);
    await live.waitForFunction(() => !document.querySelector('.first-screen'));
    const shown = await live.locator('ap-heatmap[key="X"]').evaluate((x) =>
      Array.from(x.shadowRoot.querySelectorAll('tbody tr'), (tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent.trim())));
    assert.deepEqual(written, shown, `${width} px: X as written into the page is X as the core computes it`);
    assert.equal(written.length, core.run(await specOf(live)).X.length);
    const moved = await differentPixels(live, before, await live.screenshot());
    assert.equal(moved, 0, `${width} px, ${colorScheme}: the page drawn by its code looks as its first screen`);
    await done(live);
    await early.close();
  }
});

test('the first frame the browser draws holds the first matrix with its numbers, even when the page arrives slowly', async () => {
  // The page's HTML in two parts, the second (the middle of the written screen on) after 400 ms:
  // a browser free to paint what it has read would draw a screen without its matrices.
  const html = readFileSync(new URL('../../dist/index.html', import.meta.url), 'utf8');
  const cut = html.indexOf('data-element="ap-heatmap"');
  const slow = createServer(async (req, res) => {
    if (req.url !== '/') {
      const r = await fetch(env.base + req.url.slice(1));
      res.writeHead(r.status, { 'Content-Type': r.headers.get('content-type') ?? 'text/plain' });
      res.end(Buffer.from(await r.arrayBuffer()));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.write(html.slice(0, cut));
    setTimeout(() => res.end(html.slice(cut)), 400);
  });
  await new Promise((r) => slow.listen(0, '127.0.0.1', r));
  try {
    for (const width of [1280, 390]) {
      const page = await env.page({ viewport: { width, height: 800 } });
      await page.addInitScript(() => {
        // X's numbers as the first frame is drawn (its animation frame callbacks run just before),
        // and whose X it was: the copy written into the page, or the page's code's own
        window.cellsOf = (x) => Array.from(x?.shadowRoot?.querySelectorAll('tbody tr') ?? [],
          (tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent.trim()));
        requestAnimationFrame(() => {
          const copy = Array.from(document.querySelectorAll('.first-screen > div')).find((d) => d.checkVisibility());
          const written = copy?.shadowRoot?.querySelector('[data-element="ap-heatmap"][key="X"]');
          const x = written ?? document.querySelector('attention-playground')?.shadowRoot?.querySelector('ap-heatmap[key="X"]');
          window.firstFrame = { written: Boolean(written), X: window.cellsOf(x) };
        });
      });
      await page.goto(`http://127.0.0.1:${slow.address().port}/`);
      await page.waitForFunction(() => window.firstFrame !== undefined);
      const shown = await page.evaluate(() => window.firstFrame);
      await ready(page);
      const live = await page.locator('ap-heatmap[key="X"]').evaluate((x) => window.cellsOf(x));
      assert.ok(shown.written, `${width} px: the first frame is the screen written into the page, not one the page's code drew`);
      assert.deepEqual(shown.X, live, `${width} px: X with all its numbers in the first frame`);
      assert.equal(live.length, core.run(await specOf(page)).X.length);
      await done(page);
    }
  } finally {
    await new Promise((r) => slow.close(r));
  }
});

test('a link with its own settings never shows the first screen\'s numbers, and the page keeps working without it', async () => {
  const early = await env.page();
  await early.route(SCRIPTS, (r) => r.abort());
  await early.goto(`${env.base}#d_model=8`);
  assert.equal(await early.locator('.first-screen > div:visible').count(), 0, 'the written screen is hidden');
  await early.close();
  const page = await env.page();
  await page.goto(`${env.base}#d_model=8`);
  await ready(page);
  assert.equal(await page.locator('.first-screen').count(), 0, 'the element let go of the written screen');
  assert.equal((await cells(page, 'X'))[0].length, 8, 'X has the link\'s 8 columns');
  await page.locator('#c-sentence').fill('a dog');
  await page.waitForFunction(() => document.querySelector('attention-playground').trace.tokens.join(' ') === 'a dog');
  await done(page);
});

// A shared link: the written screen with the link's numbers, before the playground's code is in.
const LINK = '#sentence=The+animal+did+not+cross+the+street+because+it+was+too+tired&heads=2&d_model=8&seed=7';
const PLAYGROUND = /\/assets\/playground-[\w-]+\.js$/;  // the playground's code, which the page asks for once the link's numbers are on screen

/** The modules the page asked for ahead of their import (rel=modulepreload), by name. */
const preloaded = (page) => page.evaluate(() => Array.from(document.querySelectorAll('link[rel="modulepreload"]'), (l) => new URL(l.href).pathname.replace(/-[\w-]{8}\.js$/, '')));

/** The page at `hash`, the playground's code held back until the link's first screen is done
 *  (drawn or given up): { page, release }. */
async function linked(hash, options = {}) {
  const page = await env.page(options);
  const release = await holdBack(page, PLAYGROUND);
  const asked = page.waitForRequest(PLAYGROUND);
  await page.goto(env.base + hash);
  await asked;
  return { page, release };
}

test('a shared link shows its own numbers on the page\'s first screen before the playground\'s code is in, and the element then draws that same screen', async () => {
  for (const [width, height, colorScheme, hash] of [[1280, 800, 'light', LINK], [390, 844, 'dark', LINK], [1280, 800, 'dark', '#d_model=6&seed=3&sentence=a+b+c+b']]) {
    const { page, release } = await linked(hash, { viewport: { width, height }, colorScheme });
    const what = `${width} px, ${hash}`;
    assert.equal(await page.evaluate(() => customElements.get('attention-playground')), undefined, 'the playground\'s code is still held back');
    const copy = page.locator('.first-screen[data-for-link] > div');
    assert.equal(await copy.count(), 1, `${what}: one copy, the one drawn at this width`);
    assert.equal(await copy.getAttribute('class'), width < 760 ? 'narrow' : 'wide');
    assert.ok(await copy.isVisible(), `${what}: the link's screen is on screen`);
    const X = copy.locator('[data-element="ap-heatmap"][key="X"]');
    const written = {
      sentence: await copy.locator('[data-key="sentence"] input').getAttribute('value'),
      chips: await copy.locator('.tokens .token').allTextContents(),
      rows: await X.locator('tbody th').allTextContents(),
      cells: await X.locator('tbody td').allInnerTexts(),
      size: await X.locator('.title small').textContent(),
    };
    const before = await page.screenshot();
    release();
    await page.waitForFunction(() => !document.querySelector('.first-screen'));
    await ready(page);
    assert.equal(await differentPixels(page, before, await page.screenshot()), 0, `${what}: the element draws the screen the link showed`);
    const spec = await specOf(page), trace = core.run(spec);
    assert.equal(written.sentence, spec.sentence);
    assert.deepEqual(written.chips, trace.tokens, `${what}: a chip per token`);
    assert.deepEqual(written.rows, trace.tokens);
    assert.equal(written.size, `${trace.X.length} × ${trace.X[0].length}`);
    assert.deepEqual(written.cells, (await shownText(page, 'X')), `${what}: X's numbers as the element writes them`);
    assert.deepEqual(await cells(page, 'X'), trace.X, `${what}: the core's X`);
    await done(page);
  }
});

test('a shared link\'s numbers go into the first screen only when the element would draw the same, and a hostile sentence stays text', async () => {
  const many = Array.from({ length: 65 }, (_, i) => `w${i}`).join('+');
  for (const hash of ['#mask=causal', '#heads=0', '#seed=1&seed=2', '#heads=3&d_model=8', '#d_model=20', '#seed=+7', '#d-model=8', `#sentence=${many}`, '#model=tiny-lm&sentence=hi']) {
    const { page } = await linked(hash);
    assert.equal(await page.locator('.first-screen > div:visible').count(), 0, `${hash}: the first screen stays hidden, for the element to draw`);
    await page.context().close();
  }
  const sentence = '<img src=x onerror="window.ran=1"></template><script>window.ran=2</script> &amp; "q\'';
  const { page, release } = await linked(`#sentence=${encodeURIComponent(sentence)}&seed=5`);
  page.on('dialog', (d) => { void d.dismiss(); });
  const copy = page.locator('.first-screen[data-for-link] > div');
  assert.equal(await copy.locator('[data-key="sentence"] input').getAttribute('value'), sentence);
  assert.deepEqual(await copy.locator('.tokens .token').allTextContents(), core.run({ sentence, seed: 5 }).tokens);
  assert.equal(await copy.evaluate((c) => c.shadowRoot.querySelectorAll('img, script').length), 0, 'nothing of the sentence became markup');
  release();
  await ready(page);
  assert.equal(await page.evaluate(() => window.ran), undefined);
  await done(page);
});

test('the first screen written into the page is what the page draws now', async () => {
  assert.ok(await firstScreen(env.browser, env.base) === readFileSync(FILE, 'utf8'),
    'web/first-screen.html is not what the page draws now: run `npm run first-screen`');
});

test('a hostile sentence is written into the first screen as text: nothing in it runs or becomes markup', async () => {
  const sentence = '</template></style><script>window.ran=1</script><img src=x onerror="window.ran=2"> &amp; "q\' \u2028';
  const written = await firstScreen(env.browser, env.base, `#sentence=${encodeURIComponent(sentence)}`);
  const page = await env.page();
  await page.goto(`${env.base}#d_model=2`);
  await ready(page);
  const found = await page.evaluate((markup) => {
    const host = document.createElement('div');
    host.setHTMLUnsafe(markup);  // parsed as the page's HTML is, declarative shadow roots and all
    document.body.append(host);
    const all = (root) => [root, ...Array.from(root.querySelectorAll('*'), (e) => e.shadowRoot).filter(Boolean).flatMap(all)];
    const roots = all(host);
    const tags = new Set(roots.flatMap((r) => Array.from(r.querySelectorAll('*'), (e) => e.localName)));
    const handlers = roots.flatMap((r) => Array.from(r.querySelectorAll('*'))).filter((e) => e.getAttributeNames().some((a) => a.startsWith('on')));
    const input = roots.map((r) => r.querySelector('input[type="text"]')).find(Boolean);
    return { script: tags.has('script'), img: tags.has('img'), handlers: handlers.length, value: input?.getAttribute('value') };
  }, written);
  await page.waitForTimeout(100);
  assert.deepEqual(found, { script: false, img: false, handlers: 0, value: sentence });
  assert.equal(await page.evaluate(() => window.ran), undefined);
  await done(page);
});

test('a page that draws attention asks for the core\'s wasm once, from its first lines', async () => {
  for (const path of ['', 'compare/', 'examples/']) {
    const page = await env.page();
    const before = env.server.requests.length;
    await page.goto(env.base + path);
    await ready(page);
    const preload = await page.evaluate(() => document.querySelector('link[rel="preload"][as="fetch"]')?.href);
    assert.match(preload ?? '', /\/assets\/attention-core-[\w-]+\.wasm$/, `${path || 'the page'} preloads the core`);
    const fetched = env.server.requests.slice(before).filter((r) => /attention-core-[\w-]+\.wasm$/.test(r));
    assert.deepEqual(fetched, [new URL(preload).pathname], `${path || 'the page'}: the core's own fetch takes up the preload`);
    await done(page);
  }
});

test('a shared link\'s first heatmap waits for none of the code it does not show (the later views held back)', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  const release = await holdBack(page, /\/assets\/views-[\w-]+\.js$/);
  await page.goto(env.base + '#sentence=the+cat+sat+on+the+mat&heads=2&d_model=8&seed=7');
  await page.locator('ap-heatmap[key="weights"] td[data-row]').first().waitFor({ timeout: 15000 });
  assert.equal(await page.evaluate(() => customElements.get('ap-flow')), undefined, 'the later views are still held back');
  release();
  await ready(page);
  assert.deepEqual(await cells(page, 'weights', 1), core.run(await specOf(page)).weights[1]);
  await done(page);
});

test('a shared link draws its first heatmap with the small first module, then the whole core takes over', async () => {
  const hash = '#sentence=the+cat+sat+on+the+mat&heads=2&d_model=8&seed=7';
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  const wasm = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname.replace(/-[\w-]{8}\.wasm$/, '')); });
  await page.goto(env.base + hash);
  await ready(page);
  // a cell clicked at once: its derivation comes with the whole core
  const cell = page.locator('ap-heatmap[key="weights"]').nth(1).locator('td[data-row="2"][data-col="1"]');
  await cell.click();
  await page.locator('.derivation ap-derivation h3').waitFor();
  assert.deepEqual(wasm, ['/assets/attention-first', '/assets/attention-core'], 'the first module, then the whole core, once each');
  const spec = await specOf(page);
  assert.deepEqual(await cells(page, 'weights', 1), core.run(spec).weights[1]);
  // the whole core answers what the first module cannot: the NumPy program, a refused spec's message
  await page.locator('#c-sentence').fill('a dog barks');
  await page.waitForFunction(() => document.querySelector('attention-playground').trace?.tokens.join(' ') === 'a dog barks');
  assert.deepEqual(await cells(page, 'weights', 0), core.run(await specOf(page)).weights[0]);
  await done(page);
  // the trained model, chosen while the whole core is still on its way, opens when it is in
  const slow = await env.page({ viewport: { width: 1280, height: 900 } });
  await slow.route(/attention-core-[\w-]+\.wasm$/, async (r) => { await new Promise((t) => setTimeout(t, 1500)); await r.continue(); });
  await slow.goto(env.base + hash);
  await ready(slow);
  // Copy as NumPy, pressed before the whole core is in, gives the program once it is
  assert.equal(await slow.evaluate(() => document.querySelector('attention-playground').core), null, 'the whole core is still on its way');
  await slow.click('button[data-action="numpy"]');
  assert.equal(await slow.locator('textarea.numpy').inputValue({ timeout: 20000 }), core.numpy(await specOf(slow)));
  await slow.selectOption('#c-model', 'tiny-lm');
  await slow.waitForFunction(() => document.querySelector('attention-playground').model?.tokens.join('') === 'the cat sat on the mat', null, { timeout: 20000 });
  await done(slow);
  // ... and chosen before anything else asked for it: the first module's screen of random weights
  // is not taken for the model's
  const slower = await env.page({ viewport: { width: 1280, height: 900 } });
  await slower.route(/attention-core-[\w-]+\.wasm$/, async (r) => { await new Promise((t) => setTimeout(t, 1500)); await r.continue(); });
  await slower.goto(env.base + hash);
  await ready(slower);
  assert.equal(await slower.evaluate(() => document.querySelector('attention-playground').core), null, 'the whole core is still on its way');
  await slower.selectOption('#c-model', 'tiny-lm');
  await slower.waitForFunction(() => document.querySelector('attention-playground').model?.tokens.join('') === 'the cat sat on the mat', null, { timeout: 20000 });
  await done(slower);
  // a link to what only the whole core computes (decode's steps): the first module leaves it to
  // the whole core, and the reader sees no message about it, only the numbers once it is in
  const decoding = await env.page({ viewport: { width: 1280, height: 900 } });
  await decoding.addInitScript(() => {
    window.errors = [];
    addEventListener('trace', (e) => { if (e.detail.error) window.errors.push(e.detail.error.field); }, true);
  });
  const decodingWasm = [];
  decoding.on('request', (r) => { if (r.url().endsWith('.wasm')) decodingWasm.push(new URL(r.url()).pathname.replace(/-[\w-]{8}\.wasm$/, '')); });
  await decoding.goto(`${env.base}#sentence=the+cat+sat&heads=2&d_model=8&mask=causal&decode=true`);
  await ready(decoding);
  await decoding.waitForFunction(() => document.querySelector('attention-playground').trace?.decode?.length === 3);
  assert.deepEqual(await decoding.evaluate(() => window.errors), [], 'no message, the first module\'s refusal included');
  assert.deepEqual(decodingWasm, ['/assets/attention-first', '/assets/attention-core']);
  assert.deepEqual(await cells(decoding, 'weights', 1), core.run(await specOf(decoding)).weights[1]);
  await done(decoding);
  // the page opened without a link compiles the whole core alone
  const home = await env.page();
  const homeWasm = [];
  home.on('request', (r) => { if (r.url().endsWith('.wasm')) homeWasm.push(new URL(r.url()).pathname.replace(/-[\w-]{8}\.wasm$/, '')); });
  await home.goto(env.base);
  assert.ok((await preloaded(home)).includes('/assets/playground'), 'the page opened without a link asks for the playground\'s code as it starts');
  await ready(home);
  await home.locator('#c-sentence').fill('a cat');
  await home.waitForFunction(() => document.querySelector('attention-playground').trace?.tokens.join(' ') === 'a cat');
  assert.deepEqual(homeWasm, ['/assets/attention-core']);
  await done(home);
});
