// What learners tripped on with the trained model, on a laptop and a phone: the first screen
// says the weights are random; "Open the trained model" lands at its introduction; a hovered
// cell of a picture gives its number, and a tapped one on a phone opens its row zoomed; the derivation's q/k table says it scrolls; Follow one
// token gives each key its position; the token chips have names a screen reader says.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';
import { start, drawn, ready, done } from './harness.mjs';

const core = await load();
await core.loadModel();
let env;
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const modelShown = (page) => page.waitForFunction(() => document.querySelector('attention-playground')?.model, null, { timeout: 60_000 });
const LONG = 'the cat sat on the mat and the dog sat on the log and the bird sat on the word';

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

test('a hovered cell of a model-mode picture gives its full number', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${env.base}#model=tiny-lm&sentence=${encodeURIComponent(LONG)}`);
  await modelShown(page);
  const map = await drawn(page.locator('ap-heatmap[key="weights"]').first());
  const canvas = map.locator('canvas').first();
  const box = await canvas.boundingBox();
  const n = LONG.length;
  // the centre of cell (row 40, column 12)
  await canvas.hover({ position: { x: (12.5 / n) * box.width, y: (40.5 / n) * box.height } });
  const title = await canvas.getAttribute('title');
  const expected = core.trace({ model: 'tiny-lm', sentence: LONG }).layers[0].weights[0][40][12];
  const [, shown] = title.match(/: (\S+)$/) ?? [];
  assert.ok(shown && Math.abs(Number(shown.replace('\u2212', '-')) - expected) < 1e-9, `${title} for ${expected}`);
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
  const n = LONG.length;
  assert.ok(box.width / n < 6, `cells of ${box.width / n} px: a finger cannot tell them apart`);
  await canvas.tap({ position: { x: (12.5 / n) * box.width, y: (40.5 / n) * box.height } });
  const zoom = map.locator('.zoom');
  await zoom.waitFor();
  const playground = page.locator('attention-playground');
  assert.equal(await playground.evaluate((el) => el.selected ?? null), null, 'the tap chose no cell yet');
  assert.match(await zoom.getAttribute('aria-label'), new RegExp(`^Row 40 \\(n\\) of rows 0 to ${n - 1}`));
  // one row down, then the column: every cell of the row is a button a finger can hit
  await zoom.locator('[data-action="row-down"]').tap();
  assert.match(await zoom.getAttribute('aria-label'), new RegExp(`^Row 41 \\(\\S\\) of rows 0 to ${n - 1}`));
  const sizes = await zoom.locator('.zcell').evaluateAll((bs) => bs.map((b) => [b.offsetWidth, b.offsetHeight]));
  assert.equal(sizes.length, n);
  assert.ok(sizes.every(([w, h]) => w >= 24 && h >= 24), JSON.stringify(sizes.slice(0, 3)));
  const cell = zoom.locator('.zcell[data-col="12"]');
  await cell.tap();
  await page.waitForFunction(() => document.querySelector('attention-playground').selected?.row === 41);
  assert.deepEqual(await playground.evaluate((el) => el.selected), { key: 'weights', head: 0, row: 41, col: 12 });
  const expected = core.trace({ model: 'tiny-lm', sentence: LONG }).layers[0].weights[0][41][12];
  const [, said] = (await cell.getAttribute('aria-label')).match(/: (\S+)$/) ?? [];
  assert.ok(said && Math.abs(Number(said.replace('\u2212', '-')) - expected) < 1e-9, `${said} for ${expected}`);
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
    assert.equal(await wide.getAttribute('data-columns'), '16');
    const said = await wide.evaluate((el) => ({ more: el.classList.contains('more'), after: getComputedStyle(el, '::after').content }));
    assert.ok(said.more, `${viewport.width}: the 16 columns do not fit, so it says so`);
    assert.match(said.after, /all.*16.*columns: scroll sideways/);
    await page.locator('.derivation button.close').click();

    const flow = await drawn(page.locator('ap-flow'));
    const keys = await flow.locator('table.scores th .chip .pos').allInnerTexts();
    assert.deepEqual(keys, ['0', '1', '2', '3', '4'], 'every key named with its position');
    await done(page);
  }
});

test('the token chips have names with their positions', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#model=tiny-lm&sentence=a+b`);
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
  // the twin rows, found here: the text is S + ' ' + S
  const n = trace.tokens.length, lag = (n + 1) / 2;
  assert.equal(trace.tokens.slice(lag).join(''), trace.tokens.slice(0, n - lag).join(''));
  let best = [0, 0, -1];
  trace.probe.forEach((heads, l) => heads.forEach((s, h) => { if (s.induction > best[2]) best = [l, h, s.induction]; }));
  const w = trace.weights[best[0]][best[1]];
  const rows = Array.from({ length: n - lag }, (_, k) => lag + k);
  const hits = rows.filter((i) => w[i].indexOf(Math.max(...w[i].slice(0, i + 1))) === i - lag + 1).length;
  const caption = await page.locator('#repeat-why').innerText();
  assert.match(caption, new RegExp(`head ${best[1]} of layer ${best[0] + 1} .* in (only )?${hits} of ${rows.length} rows of the second copy`));
  assert.match(caption, hits * 2 >= rows.length ? /: it copies\.$/ : /: it does not copy here\.$/);
  // a new sentence, not said twice: no word of a second copy is left
  await page.fill('#c-sentence', 'a new sentence');
  await page.waitForFunction(() => document.querySelector('attention-playground').model?.tokens.length === 14);
  assert.doesNotMatch(await page.locator('#repeat-why').innerText(), /second copy|earlier twin/);
  assert.doesNotMatch(await page.locator('attention-playground').evaluate((el) => el.shadowRoot.textContent), /said twice|earlier twin/);
  // Repeat my sentence: counted again on the new text
  await page.click('button[data-action="repeat"]');
  await page.waitForFunction(() => document.querySelector('attention-playground').model?.tokens.length === 29);
  assert.match(await page.locator('#repeat-why').innerText(), /of 14 rows of the second copy/);
  await done(page);
});
