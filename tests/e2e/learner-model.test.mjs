// What learners tripped on with the trained model, on a laptop and a phone: the first screen
// says the weights are random; "Open the trained model" lands at its introduction; a hovered
// cell of a picture gives its number, and a tapped one on a phone opens its row zoomed; the derivation's q/k table says it scrolls; Follow one
// token gives each key its position; the token chips have names a screen reader says.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';
import { start, drawn, ready, done } from './harness.mjs';
import { copier } from './second-copy.mjs';
import { shownDigits } from '../tolerance.mjs';

const core = await load();
await core.loadModel();
let env;
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const modelShown = (page) => page.waitForFunction(() => document.querySelector('attention-playground')?.model, null, { timeout: 60_000 });
const LONG = 'the cat sat on the mat and the dog sat on the log and the bird sat on the word';
const tokensOf = (sentence) => core.trace({ model: 'tiny-lm', sentence }).tokens;
const N = tokensOf(LONG).length;  // 33 word pieces

test('the first screen says the weights are random, where the first weights appear', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const page = await env.page({ viewport });
    await page.goto(env.base);
    await ready(page);
    const said = page.locator('.random-weights');
    assert.match(await said.innerText(), /drawn at random from seed 42, not learned/);
    const box = await said.boundingBox();
    assert.ok(box && box.y + box.height <= viewport.height * 1.5, `said at ${box?.y}px, within the first screen and a half`);
    await done(page);
  }
});

test('"Open the trained model" lands the learner at the model\'s introduction', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 800 } });
  await page.goto(env.base);
  await ready(page);
  const open = page.locator('button[data-action="open-model"]').first();
  await open.scrollIntoViewIfNeeded();
  await open.click();
  await modelShown(page);
  await page.waitForFunction(() => {
    const intro = document.querySelector('attention-playground').shadowRoot.querySelector('#model-intro');
    return intro && Math.abs(intro.getBoundingClientRect().top) < 4;
  });
  assert.match(await page.locator('#model-intro .model-about').innerText(), /model/);
  await done(page);
});

test('"Open the trained model" keeps as much of a long sentence as the model reads', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 800 } });
  // Typed in the random page: 120 words, 436 characters, 198 of the model's word pieces (it reads 128).
  const typed = Array.from({ length: 120 }, (_, i) => ['the', 'cat', 'sat', 'on', 'a', 'mat'][i % 6] + (i % 7 === 6 ? '.' : '')).join(' ');
  await page.goto(`${env.base}#sentence=${encodeURIComponent(typed)}`);
  await ready(page);
  const open = page.locator('button[data-action="open-model"]').first();
  await open.scrollIntoViewIfNeeded();
  await open.click();
  await modelShown(page);
  const kept = await page.locator('#c-sentence').inputValue();
  const read = (text) => core.work({ model: 'tiny-lm', sentence: text });
  assert.ok(typed.startsWith(kept) && kept.length < typed.length, `kept ${kept.length} of ${typed.length} characters`);
  assert.ok(kept.length > 128, `more than 128 characters kept (${kept.length}): the context is in word pieces, not characters`);
  assert.equal(await page.evaluate(() => document.querySelector('attention-playground').model.tokens.length), read(kept).tokens);
  assert.ok(read(kept).tokens <= 128);
  assert.ok(read(typed.slice(0, kept.length + 1)).error, 'a character more and the model could not read it');
  await done(page);
});

test('a hovered cell of a model-mode picture gives its full number', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${env.base}#model=tiny-lm&sentence=${encodeURIComponent(LONG)}`);
  await modelShown(page);
  const map = await drawn(page.locator('ap-heatmap[key="weights"]').first());
  const canvas = map.locator('canvas').first();
  const box = await canvas.boundingBox();
  const n = N;
  // the centre of cell (row 20, column 12)
  await canvas.hover({ position: { x: (12.5 / n) * box.width, y: (20.5 / n) * box.height } });
  const title = await canvas.getAttribute('title');
  const expected = core.trace({ model: 'tiny-lm', sentence: LONG }).layers[0].weights[0][20][12];
  const [, shown] = title.match(/: (\S+)$/) ?? [];
  assert.ok(shown && Math.abs(Number(shown.replace('\u2212', '-')) - expected) <= shownDigits * Math.abs(expected), `${title} for ${expected}`);
  assert.match(title, /^\S+ → \S+: /, 'names the row and the column');
  await done(page);
});

test('on a phone, a tap on a picture of small cells opens its row zoomed, where a finger picks one cell', async () => {
  const page = await env.page({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(`${env.base}#model=tiny-lm&sentence=${encodeURIComponent(LONG)}`);
  await modelShown(page);
  const map = await drawn(page.locator('ap-heatmap[key="weights"]').first());
  const canvas = map.locator('canvas').first();
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const n = N;
  assert.ok(box.width / n < 12, `cells of ${box.width / n} px: a finger cannot tell them apart`);
  await canvas.tap({ position: { x: (12.5 / n) * box.width, y: (20.5 / n) * box.height } });
  const zoom = map.locator('.zoom');
  await zoom.waitFor();
  const playground = page.locator('attention-playground');
  assert.equal(await playground.evaluate((el) => el.selected ?? null), null, 'the tap chose no cell yet');
  assert.match(await zoom.getAttribute('aria-label'), new RegExp(`^Row 20 \\(g\\) of rows 0 to ${n - 1}`));
  // one row down, then the column: every cell of the row is a button a finger can hit
  await zoom.locator('[data-action="row-down"]').tap();
  assert.match(await zoom.getAttribute('aria-label'), new RegExp(`^Row 21 \\(␣and\\) of rows 0 to ${n - 1}`));
  const sizes = await zoom.locator('.zcell').evaluateAll((bs) => bs.map((b) => [b.offsetWidth, b.offsetHeight]));
  assert.equal(sizes.length, n);
  assert.ok(sizes.every(([w, h]) => w >= 24 && h >= 24), JSON.stringify(sizes.slice(0, 3)));
  const cell = zoom.locator('.zcell[data-col="12"]');
  await cell.tap();
  await page.waitForFunction(() => document.querySelector('attention-playground').selected?.row === 21);
  assert.deepEqual(await playground.evaluate((el) => el.selected), { key: 'weights', head: 0, row: 21, col: 12 });
  const expected = core.trace({ model: 'tiny-lm', sentence: LONG }).layers[0].weights[0][21][12];
  const [, said] = (await cell.getAttribute('aria-label')).match(/: (\S+)$/) ?? [];
  assert.ok(said && Math.abs(Number(said.replace('\u2212', '-')) - expected) <= shownDigits * Math.abs(expected), `${said} for ${expected}`);
  await page.locator('ap-derivation').first().waitFor();
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'the zoomed row scrolls inside its column, not the page');
  await done(page);
});

test('the derivation\'s q and k table says it scrolls, and Follow one token gives each key its position', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const page = await env.page({ viewport });
    await page.goto(`${env.base}#model=tiny-lm&sentence=ab+ab`);
    await modelShown(page);
    const weights = await drawn(page.locator('ap-heatmap[key="weights"]').first());
    await weights.locator('td[data-row="3"][data-col="1"]').click();
    const wide = page.locator('ap-derivation .wide');
    await wide.waitFor();
    assert.equal(await wide.getAttribute('data-columns'), '24');
    const said = await wide.evaluate((el) => ({ more: el.classList.contains('more'), after: getComputedStyle(el, '::after').content }));
    assert.ok(said.more, `${viewport.width}: the 24 columns do not fit, so it says so`);
    assert.match(said.after, /all.*24.*columns: scroll sideways/);
    await page.locator('.derivation button.close').click();

    const flow = await drawn(page.locator('ap-flow'));
    const keys = await flow.locator('table.scores th .chip .pos').allInnerTexts();
    assert.deepEqual(keys, ['0', '1', '2', '3'], 'every key named with its position (a, b, ␣a, b)');
    await done(page);
  }
});

test('the token chips have names with their positions', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#model=tiny-lm&sentence=a+b+c`);
  await modelShown(page);
  const names = await page.locator('.tokens.model button.token').evaluateAll((chips) => chips.map((c) => c.getAttribute('aria-label')));
  assert.equal(names.length, 3);
  assert.match(names[1], /^position 1: /);
  assert.ok(new Set(names).size === 3);
  await done(page);
});

test('the preset\'s caption says what its weights do on the second copy, counted as the journey counts them, and goes with its sentence', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base);
  await ready(page);
  await page.click('button.preset[data-preset="trained"]');
  await modelShown(page);
  const trace = await page.locator('attention-playground').evaluate((el) => ({ tokens: el.model.tokens, probe: el.model.probe_head_scores,
    weights: el.model.layers.map((l) => l.weights.map((h) => h.map((r) => [...r]))) }));
  // the twin rows and the head that copies them, found here: the text is S + ' ' + S
  const best = copier({ tokens: trace.tokens, probe_head_scores: trace.probe, layers: trace.weights.map((weights) => ({ weights })) },
    tokensOf('The cat sat on the mat.').length);
  const caption = await page.locator('#repeat-why').innerText();
  assert.match(caption, new RegExp(`head ${best.head} of layer ${best.layer} .* in (only )?${best.hits} of ${best.rows} rows of the second copy`));
  assert.match(caption, best.hits * 2 >= best.rows ? /: it copies\.$/ : /: it does not copy here\.$/);
  // a new sentence, not said twice: no word of a second copy is left
  await page.fill('#c-sentence', 'a new sentence');
  await page.waitForFunction((n) => document.querySelector('attention-playground').model?.tokens.length === n, tokensOf('a new sentence').length);
  assert.doesNotMatch(await page.locator('#repeat-why').innerText(), /second copy|earlier twin/);
  assert.doesNotMatch(await page.locator('attention-playground').evaluate((el) => el.shadowRoot.textContent), /said twice|earlier twin/);
  // Repeat my sentence: counted again on the new text
  await page.click('button[data-action="repeat"]');
  const twice = tokensOf('a new sentence a new sentence');
  await page.waitForFunction((n) => document.querySelector('attention-playground').model?.tokens.length === n, twice.length);
  const rows = twice.slice(tokensOf('a new sentence').length).filter((t, k) => t === twice[k]).length;
  assert.match(await page.locator('#repeat-why').innerText(), new RegExp(`of ${rows} rows of the second copy`));
  await done(page);
});
