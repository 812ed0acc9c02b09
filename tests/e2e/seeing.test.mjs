// What a learner sees, in real Chromium: colour says sign (a diverging scale, neutral at 0,
// shared by matrices read together) and weights run over a fixed 0 to 1; a row-relative view
// makes near-uniform weights readable; every step shows a matrix; one number format; and the
// picture files carry a title and a legend with no label cut off.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { start, cells, drawn, shownText, ready, done } from './harness.mjs';
import * as tol from '../tolerance.mjs';
import { importTSTree } from './typescript.mjs';

const core = await load();
const { SEQUENTIAL, colourOf, diverging, extent, full, short } = await importTSTree('web/src/ui/shared/colour.ts');
let env;
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const rgb = ([r, g, b]) => `rgb(${r}, ${g}, ${b})`;
const specOf = (page) => page.locator('attention-playground').evaluate((el) => el.spec);

async function open(hash = '', options = {}) {
  const page = await env.page(options);
  await page.goto(env.base + hash);
  await ready(page);
  return page;
}

/** Each cell of one heatmap: its value, its background, its text colour and whether it is marked as its row's top. */
async function painted(page, key, head = 0, host = '') {
  const el = await drawn(page.locator(`${host} ap-heatmap[key="${key}"]`.trim()).nth(head));
  return el.evaluate((h) => [...h.shadowRoot.querySelectorAll('td[data-row]')].map((td) => {
    const s = getComputedStyle(td);
    return { row: Number(td.dataset.row), col: Number(td.dataset.col), value: Number(td.dataset.value),
      background: s.backgroundColor, ink: s.color, top: td.classList.contains('top') };
  }));
}

const legend = async (page, key, head = 0, host = '') =>
  (await drawn(page.locator(`${host} ap-heatmap[key="${key}"]`.trim()).nth(head))).locator('.legend').innerText();

for (const scheme of ['light', 'dark']) {
  test(`colour says sign (${scheme}): 0 is neutral, + and − differ in hue, W_q/W_k/W_v and Q/K/V share one range`, async () => {
    const page = await open('#sentence=the+cat+sat+on+the+mat', { colorScheme: scheme });
    const trace = core.run(await specOf(page));
    for (const group of [['W_q', 'W_k', 'W_v'], ['Q', 'K', 'V']]) {
      const scale = diverging(extent(group.map((k) => trace[k])));
      for (const key of group) {
        // the legend names the shared range and its 0
        assert.deepEqual((await legend(page, key)).split(/\s+/), [short(-scale.m), '0', short(scale.m)], key);
        for (const c of await painted(page, key)) {
          assert.equal(c.background, rgb(colourOf(c.value, scale, scheme)), `${key}[${c.row}][${c.col}] = ${c.value}`);
          const [r, , b] = c.background.match(/\d+/g).map(Number);
          if (c.value > 0.05 * scale.m) assert.ok(r > b, `${key} ${c.value} is on the red side: ${c.background}`);
          if (c.value < -0.05 * scale.m) assert.ok(b > r, `${key} ${c.value} is on the blue side: ${c.background}`);
        }
      }
    }
    // a 0 in a matrix is the neutral colour: seed 004's integer W_q has zeros
    await page.click('button[data-preset="seed004"]');
    await page.waitForFunction(() => document.querySelector('attention-playground').spec.weight_init === 'int:3');
    const zeros = (await painted(page, 'W_q')).filter((c) => c.value === 0);
    assert.ok(zeros.length > 0);
    for (const c of zeros) assert.equal(c.background, rgb(colourOf(0, diverging(1), scheme)));
    assert.deepEqual(new Set(zeros.map((c) => c.background)).size, 1);
    await done(page);
  });
}

test('weights are drawn over a fixed 0 to 1: a weight of 1 is the top of the scale, 0 the bottom', async () => {
  const page = await open('#sentence=the+cat+sat+on+the+mat&attention=hard');
  const shown = await painted(page, 'weights');
  assert.deepEqual(new Set(shown.map((c) => c.value)), new Set([0, 1]));
  for (const c of shown) assert.equal(c.background, rgb(c.value === 1 ? [253, 231, 37] : [68, 1, 84]));
  assert.deepEqual((await legend(page, 'weights')).split(/\s+/), ['0', '1']);
  // soft weights: each cell is its weight's place on 0..1, not on the matrix's own min..max
  await page.selectOption('#c-attention', 'soft');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.attention === 'soft');
  for (const c of await painted(page, 'weights')) assert.equal(c.background, rgb(colourOf(c.value, SEQUENTIAL)));
  await done(page);
});

test('row-relative weights: each row over 0 to its own largest, the largest marked in the top colour', async () => {
  const page = await open('#sentence=the+cat+sat+on+the+mat&mask=causal');
  const weights = page.locator('ap-heatmap[key="weights"]').first();
  const toggle = weights.locator('button[data-action="relative"]');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  const trace = core.run(await specOf(page));
  const shown = await painted(page, 'weights');
  trace.weights[0].forEach((row, i) => {
    const visible = row.filter((_, j) => trace.mask[i][j] !== 0);
    const top = row.findIndex((v, j) => trace.mask[i][j] !== 0 && v === Math.max(...visible));
    const mine = shown.filter((c) => c.row === i);
    assert.deepEqual(mine.filter((c) => c.top).map((c) => c.col), [top], `row ${i}: the top key is marked`);
    assert.equal(mine[top].background, rgb([253, 231, 37]), `row ${i}: the top key has the scale's top colour`);
    for (const c of mine) if (trace.mask[i][c.col] !== 0) assert.equal(c.background, rgb(colourOf(c.value, SEQUENTIAL, 'light', row[top])));
  });
  assert.match(await legend(page, 'weights'), /0\s+row max\s+each row scaled to its own largest weight/);
  // and back
  await toggle.click();
  assert.equal((await painted(page, 'weights')).filter((c) => c.top).length, 0);
  await done(page);
});

test('the picture of a large matrix is coloured like its table, and follows a change of theme', async () => {
  const sentence = Array.from({ length: 30 }, (_, i) => `w${i}`).join('+');
  const page = await open(`#sentence=${sentence}`, { colorScheme: 'light' });
  const trace = core.run(await specOf(page));
  const scale = diverging(extent(trace.scores));
  const map = await drawn(page.locator('ap-heatmap[key="scores"]').first());
  const at = [[0, 0], [3, 7], [29, 29], [12, 5]];
  const shownPixels = () => map.evaluate((el, at) => {
    const canvas = [...el.shadowRoot.querySelectorAll('canvas')].find((c) => getComputedStyle(c).display !== 'none');
    return { scheme: canvas.dataset.scheme, at: at.map(([i, j]) => [...canvas.getContext('2d').getImageData(j, i, 1, 1).data.slice(0, 3)]) };
  }, at);
  const expected = (scheme) => ({ scheme, at: at.map(([i, j]) => colourOf(trace.scores[0][i][j], scale, scheme)) });
  assert.deepEqual(await shownPixels(), expected('light'));
  // the reader's system turns dark: the picture turns with it, no recomputation
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot.querySelector('ap-heatmap[key="scores"]')
    .shadowRoot.querySelector('canvas.dark').getContext('2d').getImageData(0, 0, 1, 1).data[3] === 255);
  assert.deepEqual(await shownPixels(), expected('dark'));
  await done(page);
});

test('a picture follows every edit: a small one in the next frame, a 300 x 300 one in a task of its own', async () => {
  const words = (k) => Array.from({ length: 300 }, (_, i) => `w${(i * 7 + k) % 41}`).join('+');
  const page = await open(`#heads=1&d_model=8&sentence=${words(0)}`, { colorScheme: 'light' });
  const at = [[0, 0], [5, 17], [150, 149], [299, 3]];
  const shows = async (key) => {
    const trace = core.run(await specOf(page));
    const scale = key === 'weights' ? SEQUENTIAL : diverging(extent(trace.X));
    const cells = at.filter(([, j]) => j < (key === 'X' ? 8 : 300));
    const expected = cells.map(([i, j]) => colourOf(key === 'weights' ? trace.weights[0][i][j] : trace.X[i][j], scale, 'light'));
    await page.locator(`ap-heatmap[key="${key}"]`).first().scrollIntoViewIfNeeded();  // a picture off screen is painted when it comes on
    await page.waitForFunction(({ key, cells, expected }) => {
      const map = document.querySelector('attention-playground').shadowRoot.querySelector(`ap-heatmap[key="${key}"]`);
      const canvas = map?.shadowRoot.querySelector('canvas[data-scheme="light"]');
      if (!canvas || canvas.width === 0) return false;
      const px = cells.map(([i, j]) => [...canvas.getContext('2d').getImageData(j, i, 1, 1).data.slice(0, 3)]);
      return JSON.stringify(px) === JSON.stringify(expected);
    }, { key, cells, expected }, { timeout: 15000 });
  };
  await drawn(page.locator('ap-heatmap[key="weights"]').first());
  await shows('weights');  // 90,000 cells: painted in a task of its own
  await shows('X');        // 300 x 8: painted in the frame
  // each side about 256 px: the 8 columns of X are 8 px wide each, not 1 px (300 rows)
  const box = await page.locator('ap-heatmap[key="X"] canvas[data-scheme="light"]').boundingBox();
  assert.deepEqual([box.width, box.height], [64, 300]);
  await page.locator('#c-seed').fill('7');  // the same words, new numbers
  await shows('weights');
  await shows('X');
  await done(page);
});

test('compare: the difference map draws "no change" in the neutral colour, + and − apart', async () => {
  const page = await env.page();
  await page.goto(`${env.base}compare/#compare=mask&sentence=the+dog+chased+the+ball&seed=5&d_model=8`);
  await page.locator('attention-compare ap-heatmap[key="difference"]').waitFor();
  const shown = await painted(page, 'difference', 0, 'attention-compare');
  const m = Math.max(...shown.map((c) => Math.abs(c.value)));
  const zeros = shown.filter((c) => c.value === 0);
  assert.ok(zeros.length >= 5, 'the last row sees every token either way: no change');
  for (const c of shown) assert.equal(c.background, rgb(colourOf(c.value, diverging(m))));
  assert.deepEqual((await legend(page, 'difference', 0, 'attention-compare')).split(/\s+/), [short(-m), '0', short(m)]);
  // both sides' outputs share one range
  const outputs = await Promise.all([1, 2].map((k) => legend(page, 'output', 0, `attention-compare [data-side]:nth-child(${k})`)));
  assert.equal(outputs[0], outputs[1]);
  await done(page);
});

test('the trainer colours its weights over 0 to 1 and offers the row-relative view', async () => {
  const page = await env.page();
  await page.goto(`${env.base}learn/#task=sort&seed=3`);
  await page.locator('attention-trainer ap-heatmap[key="train-weights"] td[data-row]').first().waitFor();
  for (const c of await painted(page, 'train-weights', 0, 'attention-trainer')) assert.equal(c.background, rgb(colourOf(c.value, SEQUENTIAL)));
  const map = page.locator('attention-trainer ap-heatmap[key="train-weights"]').first();
  await map.locator('button[data-action="relative"]').click();
  const shown = await painted(page, 'train-weights', 0, 'attention-trainer');
  assert.equal(shown.filter((c) => c.top).length, new Set(shown.map((c) => c.row)).size);
  await done(page);
});

test('every step shows a matrix: the scores before scaling, and the mask even when there is none', async () => {
  const page = await open('#sentence=the+cat+sat+on+the+mat');
  const spec = await specOf(page);
  const trace = core.run(spec);
  const raw = await cells(page, 'raw_scores');
  raw.forEach((row, i) => row.forEach((v, j) => {
    const exact = core.derive({ spec, matrix: 'scores', row: i, col: j }).score.raw;
    assert.ok(Math.abs(v - exact) <= tol.reordered * Math.max(1, Math.abs(exact)), `q·k[${i}][${j}]: ${v} against ${exact}`);
  }));
  assert.equal(await page.locator('#step-score ap-heatmap[key="raw_scores"]').count(), 1);
  assert.match(await page.locator('#step-score ap-heatmap[key="raw_scores"] .title').innerText(), new RegExp(`q·kᵀ\\s+before scaling: scores ÷ ${short(trace.scale)}`));
  // no mask: every token sees every token, and the step says so with the matrix of ones
  const ones = await cells(page, 'mask');
  assert.deepEqual(ones, trace.tokens.map(() => trace.tokens.map(() => 1)));
  assert.match(await page.locator('#step-mask ap-heatmap[key="mask"] .title').innerText(), /mask: none/);
  // a causal mask: the mask itself
  await page.selectOption('#c-mask', 'causal');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.mask === 'causal');
  assert.deepEqual(await cells(page, 'mask'), core.run(await specOf(page)).mask);
  await done(page);
});

test('one number format: cells, legends and derivations say 0.281 and −0.0480, the full number on hover', async () => {
  const page = await open('#sentence=the+cat+sat+on+the+mat');
  const trace = core.run(await specOf(page));
  const text = await shownText(page, 'Q');
  assert.deepEqual(text, trace.Q.flat().map(short));
  assert.ok(text.some((t) => t.startsWith('−')) && text.every((t) => !t.includes('-') && !/^−?\./.test(t)), text.join(' '));
  const titles = await (await drawn(page.locator('ap-heatmap[key="Q"]'))).locator('td[data-row]').evaluateAll((tds) => tds.map((td) => td.title));
  titles.forEach((t, k) => assert.ok(t.endsWith(`: ${full(trace.Q.flat()[k])}`), t));
  // the derivation of a weight writes its numbers the same way, the full ones on hover
  const cell = page.locator('ap-heatmap[key="weights"] td[data-row="1"][data-col="2"]');
  const value = Number(await cell.getAttribute('data-value'));
  await cell.click();
  const result = page.locator('ap-derivation .result').last();
  await result.waitFor();
  assert.equal(await result.innerText(), short(value));
  assert.equal(await result.locator('[title]').getAttribute('title'), full(value));
  await done(page);
});

/** Every text of an SVG file, drawn in the page: its content and whether its box lies inside the picture. */
const textsOf = (page, svg) => page.evaluate((text) => {
  const host = document.createElement('div');
  host.innerHTML = text;
  document.body.append(host);
  const root = host.querySelector('svg'), box = root.getBoundingClientRect();
  const inside = (r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  const texts = [...root.querySelectorAll('text')].map((t) => ({ text: t.textContent, inside: inside(t.getBoundingClientRect()) }));
  host.remove();
  return texts;
}, svg);

test('export: the weights of "The FBI is chasing the thief" as SVG have a title, a legend and every label inside the picture', async () => {
  const page = await open('#sentence=The+FBI+is+chasing+the+thief&heads=2&d_model=8');
  const weights = page.locator('.matrix').filter({ has: page.locator('ap-heatmap[key="weights"]') }).nth(1);  // head 1
  await weights.locator('summary').click();
  const save = async (format) => {
    const [d] = await Promise.all([page.waitForEvent('download'), weights.locator(`button[data-format="${format}"]`).click()]);
    return readFileSync(await d.path());
  };
  const svg = (await save('svg')).toString();
  assert.match(svg, /<g class="legend"/);
  const drawnSVG = await textsOf(page, svg);
  assert.equal(drawnSVG[0].text, 'weights · head 1');
  const thief = drawnSVG.filter((t) => t.text === 'thief');
  assert.equal(thief.length, 2);  // its column and its row
  assert.deepEqual(drawnSVG.filter((t) => !t.inside), [], 'every text is inside the picture');
  assert.deepEqual(drawnSVG.slice(-2).map((t) => t.text), ['0', '1']);  // the legend's ends
  // row-relative on screen: the file too, said in its legend
  await page.locator('ap-heatmap[key="weights"] >> nth=1').locator('button[data-action="relative"]').click();
  const relative = (await save('svg')).toString();
  assert.match(relative, /row max/);
  assert.equal((relative.match(/<rect class="top"/g) ?? []).length, 6);
  // the arcs name their heads, in the file as on screen
  const arcs = page.locator('.matrix').filter({ has: page.locator('ap-arcs') });
  await arcs.locator('summary').click();
  const [d] = await Promise.all([page.waitForEvent('download'), arcs.locator('button[data-format="svg"]').click()]);
  const arcsSVG = readFileSync(await d.path(), 'utf8');
  const arcsTexts = await textsOf(page, arcsSVG);
  assert.deepEqual(arcsTexts.slice(0, 4).map((t) => t.text), ['attention arcs, heads 0 to 1', 'line width and strength: weight ÷ the largest of its row', 'head 0', 'head 1']);
  assert.deepEqual(arcsTexts.filter((t) => !t.inside), [], 'every text is inside the picture');
  await done(page);
});
