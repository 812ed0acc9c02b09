// A teacher reproducing a textbook example: typing and pasting the book's X, then extending
// a worked example's sentence without losing its numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';
import { start, cells, drawn, ready, done } from './harness.mjs';

let env;
const core = await load();
before(async () => { env = await start(); });
after(async () => { await env?.stop(); });

const specOf = (page) => page.locator('attention-playground').evaluate((el) => el.spec);
const xCell = (page, r, c) => page.locator(`ap-heatmap[key="X"] td[data-row="${r}"][data-col="${c}"]`);

async function open(options = {}) {
  const page = await env.page(options);
  await page.goto(env.base);
  await ready(page);
  return page;
}

/** The sentence typed as a learner types it: the trace follows every keystroke. */
async function typeSentence(page, sentence) {
  await page.fill('#c-sentence', '');
  await page.locator('#c-sentence').pressSequentially(sentence);
}

/** What the focused element is, seen through the shadow roots: "X:r,c", "X:input" or a tag. */
const focused = (page) => page.evaluate(() => {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  const map = el?.getRootNode()?.host;
  if (el?.tagName === 'TD') return `${map?.getAttribute('key')}:${el.dataset.row},${el.dataset.col}`;
  if (el?.tagName === 'INPUT' && map?.tagName === 'AP-HEATMAP') return `${map.getAttribute('key')}:input`;
  return el?.tagName;
});

test('a textbook X typed with Tab and Enter is kept exactly, a pasted block replaces it, an overflowing paste says what it left out', async () => {
  const page = await open({ permissions: ['clipboard-read', 'clipboard-write'] });
  await page.fill('#c-sentence', 'the cat sat');
  await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot
    .querySelector('ap-heatmap[key="X"]').shadowRoot.querySelectorAll('td[data-row]').length === 12);
  const widths = () => page.locator('ap-heatmap[key="X"] tbody tr').first().evaluate((tr) => [...tr.children].map((c) => c.getBoundingClientRect().width));
  const before = await widths();

  // The book's X, typed row by row: Tab between numbers, Enter at the end of a row.
  const book = [[1.5, -2, 0.25, 3], [-0.5, 4, -1.75, 0.1], [2, -3.5, 0, 7.125]];
  await (await drawn(page.locator('ap-heatmap[key="X"]'))).scrollIntoViewIfNeeded();
  await xCell(page, 0, 0).click();
  for (const [i, row] of book.entries()) {
    for (const [j, v] of row.entries()) {
      await page.keyboard.type(String(v));
      if (i === 0 && j === 1) assert.deepEqual(await widths(), before, 'no column moves while a number is typed');
      await page.keyboard.press(j < row.length - 1 ? 'Tab' : 'Enter');
    }
  }
  assert.deepEqual((await specOf(page)).X, book);
  assert.deepEqual(await cells(page, 'X'), book);
  assert.equal(await focused(page), 'X:2,0', 'Enter on the last row keeps the cell selected');

  // Escape cancels and keeps the cell selected; the arrows move the selection.
  await page.keyboard.type('99');
  await page.keyboard.press('Escape');
  assert.equal(await focused(page), 'X:2,0');
  assert.deepEqual((await specOf(page)).X, book);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(page), 'X:0,0');

  // A block copied from a spreadsheet (tab-separated) pasted into the top-left cell.
  const sheet = [[0.1, 0.2, 0.3, 0.4], [-1, -2, -3, -4], [5, 6.5, 7, 8]];
  await page.evaluate((t) => navigator.clipboard.writeText(t), sheet.map((r) => r.join('\t')).join('\n') + '\n');
  await page.keyboard.press('Control+V');
  await page.waitForFunction((want) => JSON.stringify(document.querySelector('attention-playground').spec.X) === want, JSON.stringify(sheet));
  assert.deepEqual(await cells(page, 'X'), sheet);
  assert.equal(await focused(page), 'X:0,0');

  // A 4 x 6 block from row 1, column 1 (numbered from 0, as the headers are): the 2 x 3 that fits is applied, the rest is named.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const big = [[11, 12, 13, 14, 15, 16], [21, 22, 23, 24, 25, 26], [31, 32, 33, 34, 35, 36], [41, 42, 43, 44, 45, 46]];
  await page.evaluate((t) => navigator.clipboard.writeText(t), JSON.stringify(big));
  await page.keyboard.press('Control+V');
  const note = page.locator('ap-heatmap[key="X"] .paste-note');
  await note.waitFor();
  assert.match(await note.innerText(), /4 × 6 block from row 1, column 1: 2 rows and 3 columns fell outside X \(3 × 4\)/);
  const expected = sheet.map((r) => [...r]);
  for (let i = 1; i < 3; i++) for (let j = 1; j < 4; j++) expected[i][j] = big[i - 1][j - 1];
  assert.deepEqual((await specOf(page)).X, expected);

  // Clicking another cell while editing commits the edit and selects the clicked cell.
  await xCell(page, 0, 0).dblclick();
  await page.keyboard.type('-9.5');
  await xCell(page, 0, 3).click();
  assert.equal(await focused(page), 'X:0,3');
  assert.equal((await specOf(page)).X[0][0], -9.5);
  await page.keyboard.type('2');
  await page.keyboard.press('Tab');
  assert.equal((await specOf(page)).X[0][3], 2);
  assert.equal(await focused(page), 'X:1,0', 'Tab at the end of a row wraps to the next');
  await done(page);
});

test('text pasted into X that is not numbers changes nothing and says why', async () => {
  const page = await open({ permissions: ['clipboard-read', 'clipboard-write'] });
  await (await drawn(page.locator('ap-heatmap[key="X"]'))).scrollIntoViewIfNeeded();
  await xCell(page, 0, 0).click();
  await page.keyboard.press('Escape');
  await page.evaluate(() => navigator.clipboard.writeText('1, 2, 3\n4, five, 6'));
  await page.keyboard.press('Control+V');
  await page.locator('ap-heatmap[key="X"] .paste-note').waitFor();
  assert.match(await page.locator('ap-heatmap[key="X"] .paste-note').innerText(), /“five” \(line 2\) is not a number, so nothing was pasted/);
  assert.equal((await specOf(page)).X, undefined);
  await done(page);
});

test('adding words to a worked example keeps its rows of X and gives each new word the seed\'s row', async () => {
  const page = await open();
  await page.click('button[data-preset="seed001"]');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.sentence === 'This is book');
  const book = (await specOf(page)).X;
  await page.locator('#c-sentence').press('End');
  await page.locator('#c-sentence').pressSequentially(' red now');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.sentence === 'This is book red now');
  const spec = await specOf(page);
  assert.equal(spec.X.length, 5);
  assert.deepEqual(spec.X.slice(0, 3), book, 'the preset\'s rows stay');
  const { X: _, ...unset } = spec;
  const seed = core.run({ ...unset, d_model: 5 }).X;
  assert.deepEqual(spec.X.slice(3), seed.slice(3), 'a new word takes the row the seed gives it');
  const x = await cells(page, 'X');
  assert.equal(x.length, 5);
  assert.deepEqual(x, spec.X);
  assert.equal(await page.locator('[role="alert"]').count(), 0, 'no error on screen');
  assert.equal(await page.locator('.stale').count(), 0, 'no step is dimmed');
  assert.match(await page.locator('.note').first().innerText(), /Added rows of X for “red”, “now” from the seed; kept your 3 rows/);
  assert.deepEqual(await cells(page, 'Q'), core.run(spec).Q);

  // Retyped from scratch with a word in the middle: each word keeps its row wherever it goes.
  await typeSentence(page, 'This is a red book');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.sentence === 'This is a red book');
  const again = (await specOf(page)).X;
  assert.deepEqual([again[0], again[1], again[4]], book);
  assert.equal(await page.locator('[role="alert"]').count(), 0);
  // A word taken out loses its row, which comes back with the word.
  await typeSentence(page, 'This is');
  assert.deepEqual((await specOf(page)).X, book.slice(0, 2));
  assert.match(await page.locator('.note').first().innerText(), /left out your row for “book”/);
  await typeSentence(page, 'This is book');
  assert.deepEqual((await specOf(page)).X, book);
  await done(page);
});

test('in encoder-decoder mode the annotations follow the sentence the same way', async () => {
  const page = await open();
  await page.click('button[data-preset="seed000"]');
  await page.locator('ap-heatmap[key="context"]').waitFor();
  const given = (await specOf(page)).annotations;
  await page.locator('#c-sentence').press('End');
  await page.locator('#c-sentence').pressSequentially(' a5');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.sentence === 'a1 a2 a3 a4 a5');
  const spec = await specOf(page);
  assert.equal(spec.annotations.length, 5);
  assert.deepEqual(spec.annotations.slice(0, 4), given);
  assert.equal(spec.annotations[4].length, 3, 'as wide as the decoder state');
  assert.deepEqual((await cells(page, 'scores'))[0].slice(0, 4), [927, 397, 148, 929]);
  assert.equal(await page.locator('[role="alert"]').count(), 0);
  await done(page);
});

test('a teacher types the bilinear W_a of general scoring, and the shared link reopens it', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#sentence=the%20cat%20sat&score=general&d_model=4&d_k=2&heads=1`);
  await ready(page);
  const map = page.locator('ap-heatmap[key="W_a"]');
  await (await drawn(map)).scrollIntoViewIfNeeded();
  // The identity: general scoring with W_a = I is the plain dot product.
  const identity = [[1, 0], [0, 1]];
  await map.locator('td[data-row="0"][data-col="0"]').click();
  for (const [i, row] of identity.entries()) {
    for (const [j, v] of row.entries()) {
      await page.keyboard.type(String(v));
      await page.keyboard.press(j < row.length - 1 ? 'Tab' : 'Enter');
    }
    if (i === 0) await map.locator('td[data-row="1"][data-col="0"]').click();
  }
  await page.waitForFunction(() => JSON.stringify(document.querySelector('attention-playground').spec.W_a) === '[[1,0],[0,1]]');
  const spec = await specOf(page);
  const plain = core.run({ ...spec, W_a: undefined, score: 'dot' });
  const typed = core.run(spec);
  assert.deepEqual(await cells(page, 'W_a'), identity);
  for (const [i, row] of typed.scores[0].entries()) row.forEach((x, j) => assert.equal(x, plain.scores[0][i][j]));

  await page.click('button[data-action="share"]');
  const link = await page.locator('attention-playground').evaluate((el) => el.shadowRoot.querySelector('textarea.share').value);
  const again = await env.page();
  await again.goto(link);
  await ready(again);
  assert.deepEqual((await specOf(again)).W_a, identity);
  assert.deepEqual(await cells(again, 'W_a'), identity);
});
