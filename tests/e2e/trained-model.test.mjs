// The trained model as a learner, a reader of a link and a blogger meet it: the preset, Repeat my
// sentence and the head that copies most (found by its scores, never by its number: the weights
// are retrained), the word pieces as chips, the heads overview, the next token's guesses, links and their refusals,
// the weights fetched only in model mode (and a failed fetch), the note on random weights, the
// layers' numbers and derivations, Share and Embed, and the element in an article's column.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { start, cells, drawn, steady, ready, done } from './harness.mjs';
import { lastBits, reordered, shownDigits } from '../tolerance.mjs';
import { secondCopy, copier } from './second-copy.mjs';

const core = await load();
const card = await core.loadModel();
assert.equal(card.error, undefined, 'the weights load in Node');

const NAMES = 'previous-token|duplicate-token|induction|first-token|current-token';
const LABEL = new RegExp(`^(${NAMES}|mixed)$`);
// a head's number on the probe, named (a mixed head's names its pattern), and on this text
const PROBE = new RegExp(`^(?:highest: (${NAMES}) )?(\\d[\\d.e−-]*) on random tokens$`), OWN = /^(\d[\d.e−-]*) here$/;
const article = (attrs) => `<!doctype html><html lang="en"><head><title>a post</title><link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1">
<script type="module" src="/attention-playground.js"></script></head>
<body style="margin: 0"><main style="max-width: 700px; margin: 0 auto; padding: 0 1rem">
<h1>Attention in a trained model</h1><p>A paragraph of the post before the element.</p>
<attention-playground id="post" ${attrs}></attention-playground>
<p>And after it.</p></main></body></html>`;
const pages = {
  '/post.html': article('model="tiny-lm" sentence="The cat sat on the mat. The cat sat on the mat."')
    .replace('<p>And after it.</p>', '<p>Every head at a glance:</p><attention-playground id="heads" model="tiny-lm" sentence="abcd abcd" view="overview" controls="none"></attention-playground>'),
};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

const host = 'attention-playground';
/** Waits until the element shows the trained model's trace of `length` tokens (any, if not given). */
const modelShown = (page, length, sel = host) => page.waitForFunction(([sel, length]) => {
  const el = document.querySelector(sel);
  return el?.model && el.modelStatus === 'ready' && (length === undefined || el.model.tokens.length === length);
}, [sel, length], { timeout: 20000 });
const modelOf = (page, sel = host) => page.locator(sel).evaluate((el) => el.trace);
const specOf = (page, sel = host) => page.locator(sel).evaluate((el) => el.spec);
/** The text a view draws in its shadow root, its white space collapsed. */
const textOf = (locator) => locator.evaluate((el) => (el.shadowRoot ?? el).textContent.replace(/\s+/g, ' ').trim());
/** `locator` brought on screen and kept there: the steps above it are laid out as it comes (their
 *  heights estimated until then), which moves it, so it is brought back until it stays. */
async function onScreen(locator) {
  for (let i = 0; i < 10; i++) {
    await steady(locator);
    const box = await locator.boundingBox();
    const height = await locator.page().evaluate(() => innerHeight);
    if (box && box.y < height && box.y + Math.min(box.height, height) > 0) return locator;
  }
  throw new Error('could not bring it on screen');
}
/** The word pieces the core reads `sentence` as. */
const tokensOf = (sentence) => core.trace({ model: 'tiny-lm', sentence }).tokens;
const argmax = (xs) => xs.indexOf(Math.max(...xs));
/** Requests the server saw for the weights file since `from`. */
const weightsRequests = (from) => env.server.requests.slice(from).filter((p) => /tiny-lm[^/]*\.bin$/.test(p));

test('a learner opens "A trained model", types a sentence, repeats it, and follows the second copy through its induction head', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base);
  await ready(page);
  await page.click('button[data-preset="trained"]');
  await modelShown(page);
  assert.equal(await page.locator('#c-model').inputValue(), 'tiny-lm');
  assert.match(await page.locator('.note').first().innerText(), /trained on Debian’s fortunes/);
  // the plain word on what such a model can and cannot do
  assert.match(await page.locator('.model-about').innerText(), /does not resolve what “it” refers to/);
  // it opens on the head that copies most on the preset's text, of those the probe names induction
  // heads (found from the numbers, never by its number: the weights get retrained)
  const opened = await modelOf(page);
  const best = copier(opened, tokensOf('The cat sat on the mat.').length);
  assert.deepEqual(await page.locator(host).evaluate((el) => ({ layer: el.layer, head: el.focusHead })), { layer: best.layer, head: best.head });

  const sentence = 'Quick brown fox jumps.';
  await page.fill('#c-sentence', sentence);
  await modelShown(page, tokensOf(sentence).length);
  // the chips are the word pieces the model reads, a leading space marked
  assert.deepEqual(await page.locator('.tokens.model button.token').allInnerTexts(), tokensOf(sentence).map((t) => t.replace(/^ /, '␣')));
  await page.click('button[data-action="repeat"]');
  const n = tokensOf(`${sentence} ${sentence}`).length;
  await modelShown(page, n);
  assert.equal(await page.locator('#c-sentence').inputValue(), `${sentence} ${sentence}`);
  const trace = await modelOf(page);
  assert.deepEqual(trace, core.trace({ model: 'tiny-lm', sentence: `${sentence} ${sentence}` }), 'the page shows the core\'s numbers');

  // the head that copies most on this text, an induction head on the probe, its label and score shown
  const overview = page.locator('ap-heads-overview');
  await drawn(overview);
  const { layer, head } = copier(trace, tokensOf(sentence).length);
  const thumb = overview.locator(`button.thumb[data-layer="${layer}"][data-head="${head}"]`);
  const [label] = LABEL.exec(await thumb.locator('.label').innerText()).slice(1);
  const [, score] = PROBE.exec(await thumb.locator('.probe').innerText()).slice(1);
  const probe = trace.probe_head_scores[layer - 1][head];
  const top = Object.entries(probe).reduce((a, b) => (b[1] > a[1] ? b : a));
  assert.equal(label, top[1] >= 0.3 ? top[0].replace('_', '-') : 'mixed', 'the label is the probe\'s highest score, when it names a head');
  assert.equal(label, 'induction', 'the shipped model has an induction head');
  assert.equal(Number(score), Number(top[1].toPrecision(3)), 'its score, to 3 significant digits');

  // picked: the layer and the head below are its own
  await thumb.click();
  assert.equal(await thumb.getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator(`.layers button[data-layer="${layer}"]`).getAttribute('aria-pressed'), 'true');
  assert.match(await page.locator('#step-softmax .arcs-title').textContent(), new RegExp(`head ${head}, layer ${layer}`));

  // following tokens of the second copy with that head: the flow shows the trace's weights, and
  // the weight on the token after the earlier copy is what the page says it is
  const flow = page.locator('ap-flow');
  await onScreen(page.locator('#step-flow'));
  await drawn(flow);
  assert.equal(await flow.locator(`button.head[data-head="${head}"]`).getAttribute('aria-pressed'), 'true');
  const { L, rows: copy } = secondCopy(trace.tokens, tokensOf(sentence).length);
  assert.ok(copy.length >= n - L - 2, `${copy.length} rows of ${n - L}`);
  for (const i of [copy[0], copy[6], copy[12]]) {
    await flow.locator(`button.chip.pick[data-index="${i}"]`).click();
    await page.waitForFunction((i) => document.querySelector('attention-playground').shadowRoot.querySelector('ap-flow').token === i, i);
    await drawn(flow);
    const row = await flow.evaluate((el) => Object.fromEntries([...el.shadowRoot.querySelectorAll('table.scores tr[data-key]')]
      .map((tr) => [tr.dataset.key, Number(tr.querySelector('td.weight').dataset.value)])));
    const expected = trace.layers[layer - 1].weights[head][i];
    for (const [j, w] of Object.entries(row)) assert.equal(w, expected[j], 'the flow shows the trace\'s weights');
  }
  // what the learner came to see: over the second copy the head looks at the token after the
  // earlier twin, and the model predicts the copy far better than it read the first time
  const weights = trace.layers[layer - 1].weights[head];
  const onTwin = copy.filter((i) => argmax(weights[i]) === i - L + 1).length;
  const meanOnTwin = copy.reduce((sum, i) => sum + weights[i][i - L + 1], 0) / copy.length;
  assert.ok(onTwin >= 0.75 * copy.length && meanOnTwin >= 0.5, `the induction head's heaviest key is the twin's successor at ${onTwin} of ${copy.length} rows (mean weight ${meanOnTwin.toFixed(2)})`);
  const right = (rows) => rows.filter((i) => i + 1 < n && argmax(trace.log_probs[i]) === trace.vocab.indexOf(trace.tokens[i + 1])).length;
  const second = right(copy), first = right(copy.map((i) => i - L));
  // (how often, on sentences of this kind, is the copying benchmark's to say: bench/copying.mjs)
  assert.ok(second >= first + 3, `the copy's next tokens guessed ${second} of ${copy.length - 1} times (the first time ${first})`);
  // the caption says so, of this head, with the count of these rows
  assert.match(await page.locator('#repeat-why').innerText(),
    new RegExp(`^On this text, head ${head} of layer ${layer} \\(induction ${probe.induction.toFixed(2)} on random tokens\\) puts its largest weight on the token after the earlier twin in ${onTwin} of ${copy.length} rows of the second copy`));
  await done(page);
});

test('the heads overview shows every layer and head, each with its label and score', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${env.base}#model=tiny-lm&sentence=${encodeURIComponent('the dog saw the dog')}`);
  await modelShown(page);
  const trace = await modelOf(page);
  const overview = await drawn(page.locator('ap-heads-overview'));
  const thumbs = overview.locator('button.thumb');
  assert.equal(await thumbs.count(), 2 * 4);
  assert.equal(trace.layers.length * trace.layers[0].weights.length, 8);
  for (let k = 0; k < 8; k++) {
    const thumb = thumbs.nth(k);
    const l = Number(await thumb.getAttribute('data-layer')) - 1, h = Number(await thumb.getAttribute('data-head'));
    assert.deepEqual([l, h], [Math.floor(k / 4), k % 4]);
    const m = LABEL.exec(await thumb.locator('.label').innerText());
    assert.ok(m, await thumb.locator('.label').innerText());
    const probeSaid = PROBE.exec(await thumb.locator('.probe').innerText()), ownSaid = OWN.exec(await thumb.locator('.own').innerText());
    assert.ok(probeSaid && ownSaid, `${await thumb.locator('.scores').innerText()}`);
    // the label is the probe's highest score when it reaches 0.3, else "mixed"
    const probe = trace.probe_head_scores[l][h];
    const [best, value] = Object.entries(probe).reduce((a, b) => (b[1] > a[1] ? b : a));
    assert.equal(m[1], value >= 0.3 ? best.replace('_', '-') : 'mixed');
    // each number named: a mixed head's probe number says which pattern it is; both to 3 digits
    assert.equal(probeSaid[1], value >= 0.3 ? undefined : best.replace('_', '-'));
    assert.equal(Number(probeSaid[2]), Number(value.toPrecision(3)));
    assert.equal(Number(ownSaid[1].replace('−', '-')), Number(trace.head_scores[l][h][best].toPrecision(3)));
    assert.equal(Number(await thumb.getAttribute('data-score')), value);
    assert.equal(Number(await thumb.getAttribute('data-own')), trace.head_scores[l][h][best]);
    // its thumbnail is drawn at a readable size
    const box = await thumb.locator('canvas').boundingBox();
    assert.ok(box.width >= 60 && box.width === box.height, JSON.stringify(box));
  }
  // clicking one picks its layer and head for the views below
  await thumbs.nth(6).click();
  await page.waitForFunction(() => document.querySelector('attention-playground').layer === 2);
  assert.equal(await page.locator('attention-playground').evaluate((el) => el.focusHead), 2);
  assert.deepEqual(await page.locator('attention-playground').evaluate((el) => el.shownTrace.weights), trace.layers[1].weights);
  await done(page);
});

// The page's guesses are the core's: the same tokens, the same probabilities but for the last
// bit of exp() (Chromium's V8 and this Node's may round it differently).
function sameGuesses(shown, expected) {
  assert.deepEqual(shown.map((g) => g.token), expected.map((g) => g.token));
  shown.forEach((g, i) => assert.ok(Math.abs(g.p - expected[i].p) <= lastBits * expected[i].p, `${g.p} against ${expected[i].p}`));
}

test('the next token: five guesses, sorted, their probabilities the core\'s, on hover too', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${env.base}#model=tiny-lm`);
  await modelShown(page);
  const text = 'The cat sat on the m';
  await page.fill('#c-sentence', text);
  assert.deepEqual(tokensOf(text), ['The', ' c', 'at', ' s', 'at', ' on', ' the', ' m']);
  await modelShown(page, 8);
  const next = page.locator('ap-next-token');
  const read = () => next.evaluate((el) => [...el.shadowRoot.querySelectorAll('li')].map((li) => ({ token: li.dataset.token, p: Number(li.dataset.value) })));
  let guesses = await read();
  assert.equal(guesses.length, 5);
  const ps = guesses.map((g) => g.p);
  assert.deepEqual(ps, [...ps].sort((a, b) => b - a), 'likeliest first');
  assert.ok(ps.every((p) => p > 0 && p <= 1) && ps.reduce((a, b) => a + b) <= 1 + reordered, String(ps));
  const trace = core.trace({ model: 'tiny-lm', sentence: text });
  const expected = trace.log_probs[7].map((lp, id) => ({ token: trace.vocab[id], p: Math.exp(lp) }))
    .sort((a, b) => b.p - a.p).slice(0, 5);
  sameGuesses(guesses, expected);
  assert.match(await textOf(next), /After ␣m \(position 7, the last\)/);
  // hovering a token shows what comes after it; the text goes on with the token outlined when guessed
  await page.locator('.tokens.model button.token[data-index="1"]').hover();
  await page.waitForFunction(() => document.querySelector('attention-playground').predictAt === 1);
  assert.equal(await page.locator('.tokens.model button.token[data-index="1"]').getAttribute('title'), 'position 1: “c” after a space');
  guesses = await read();
  const after1 = trace.log_probs[1].map((lp, id) => ({ token: trace.vocab[id], p: Math.exp(lp) })).sort((a, b) => b.p - a.p).slice(0, 5);
  sameGuesses(guesses, after1);
  assert.match(await textOf(next), /After ␣c \(position 1\)/);
  assert.match(await textOf(next), /The text goes on with at/);
  // a leading space and a newline are marks, a character no merge joins is its bytes, set apart
  // (a newline comes by a link: the sentence box is one line)
  await page.goto(`${env.base}#model=tiny-lm&sentence=a%20%C3%A9%0Ab`);
  await modelShown(page, 6);
  assert.deepEqual(await page.locator('.tokens.model button.token').allInnerTexts(), ['a', '␣', '<0xC3>', '<0xA9>', '↵', 'b']);
  assert.equal(await page.locator('.tokens.model button.token.byte').count(), 2);
  assert.equal(await page.locator('.tokens.model button.token[data-index="2"]').getAttribute('aria-label'), 'position 2: the byte 0xC3 (part of a character)');
  await done(page);
});

test('a link reopens the same numbers; a random setting in it is named beside its control; the limit is said', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${env.base}#model=tiny-lm&sentence=hello%20world`);
  await modelShown(page, 6);
  const expected = core.trace({ model: 'tiny-lm', sentence: 'hello world' });
  assert.deepEqual(expected.tokens, ['he', 'll', 'o', ' w', 'or', 'ld']);
  assert.deepEqual(await specOf(page), { model: 'tiny-lm', sentence: 'hello world' });
  for (let h = 0; h < 4; h++) assert.deepEqual(await cells(page, 'weights', h), expected.layers[0].weights[h]);
  await page.click('.layers button[data-layer="2"]');
  await page.waitForFunction(() => document.querySelector('attention-playground').layer === 2);
  assert.deepEqual(await cells(page, 'weights', 3), expected.layers[1].weights[3]);
  assert.match(page.url(), /model=tiny-lm/);
  // a clicked weight's derivation has the layer's real numbers
  const weights = await drawn(page.locator('ap-heatmap[key="weights"]').nth(1));
  await weights.locator('td[data-row="4"][data-col="1"]').click();
  const panel = page.locator('ap-derivation');
  await panel.locator('table').first().waitFor();
  const result = await panel.evaluate((el) => Number([...el.shadowRoot.querySelectorAll('.result')].pop().querySelector('[title]').title.replace('\u2212', '-')));
  assert.ok(Math.abs(result - expected.layers[1].weights[1][4][1]) <= shownDigits * Math.abs(expected.layers[1].weights[1][4][1]), `${result}`);
  assert.match(await textOf(panel), /“or” → “ll” \(row 4, column 1\), head 1/);
  // the link of this view reopens it: layer 2, the same numbers
  await page.waitForFunction(() => /layer=2/.test(location.hash));
  const again = await env.page({ viewport: { width: 1280, height: 900 } });
  await again.goto(page.url());
  await modelShown(again, 6);
  assert.equal(await again.locator('attention-playground').evaluate((el) => el.layer), 2);
  assert.deepEqual(await cells(again, 'weights', 3), expected.layers[1].weights[3]);
  await done(again);
  await done(page);

  // model and seed (and a mask): the core's message beside each control, and the model runs all the same
  const seeded = await env.page({ viewport: { width: 1280, height: 900 } });
  await seeded.goto(`${env.base}#model=tiny-lm&seed=3&mask=causal`);
  await modelShown(seeded);
  for (const key of ['seed', 'mask']) {
    const message = seeded.locator(`.control[data-key="${key}"] .message`);
    await message.waitFor();
    assert.match(await message.innerText(), new RegExp(`^${key}: does not apply to the trained model`));
    assert.equal(await seeded.locator(`#c-${key}`).isDisabled(), true);
  }
  assert.deepEqual(await specOf(seeded), { model: 'tiny-lm', sentence: 'the cat sat on the mat' });
  assert.deepEqual(await modelOf(seeded), core.trace({ model: 'tiny-lm', sentence: 'the cat sat on the mat' }));
  await seeded.fill('#c-sentence', 'still works');
  await modelShown(seeded, 6);
  assert.equal(await seeded.locator('.control[data-key="seed"], .control[data-key="mask"]').count(), 0, 'put away once the link is read');

  // past 128 tokens: the core's limit beside the sentence, the last trace kept; Repeat says why not
  await seeded.fill('#c-sentence', 'x'.repeat(200));
  const limit = seeded.locator('.control[data-key="sentence"] .message');
  await limit.waitFor();
  assert.match(await limit.innerText(), /^sentence: has 200 tokens; the trained model reads at most 128/);
  assert.equal((await modelOf(seeded)).tokens.length, 6);
  await seeded.fill('#c-sentence', 'y'.repeat(65));
  await modelShown(seeded, 65);
  assert.equal(await seeded.locator('button[data-action="repeat"]').isDisabled(), true);
  assert.match(await seeded.locator('#repeat-why').innerText(), /about 130 tokens; the model reads at most 128/);
  await done(seeded);
});

test('the weights are fetched only in model mode, once; while they come the page says so; a failed fetch is said and random still works', async () => {
  const from = env.server.requests.length;
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base);
  await ready(page);
  await page.waitForTimeout(300);
  assert.deepEqual(weightsRequests(from), [], 'random mode fetches no weights');
  // a slow network: the loading line, then the model
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/tiny-lm[^/]*\.bin$/, async (route) => { await held; await route.continue(); });
  await page.selectOption('#c-model', 'tiny-lm');
  const loading = page.locator('.loading-model');
  await loading.waitFor();
  const size = Math.round(statSync(new URL('../../models/tiny-lm.bin', import.meta.url)).size / 1024);
  assert.equal(await loading.innerText(), `Loading the trained model, ${size} KB…`, 'the size said is the file\'s');
  assert.ok(await page.locator('ap-heatmap[key="weights"]').first().isVisible(), 'the page is not blank meanwhile');
  release();
  await modelShown(page);
  assert.equal(await loading.count(), 0);
  await page.selectOption('#c-model', 'random');
  await page.waitForFunction(() => !document.querySelector('attention-playground').model);
  await page.selectOption('#c-model', 'tiny-lm');
  await modelShown(page);
  assert.equal(weightsRequests(from).length, 1, 'fetched once');
  await done(page);

  // a failed fetch: said beside the Model control; random still works; trying again loads it
  const failing = await env.page({ viewport: { width: 1280, height: 900 } });
  let refuse = true;
  await failing.route(/tiny-lm[^/]*\.bin$/, (route) => (refuse ? route.fulfill({ status: 503, body: 'down' }) : route.continue()));
  await failing.goto(`${env.base}#model=tiny-lm&sentence=hello`);
  const message = failing.locator('.control[data-key="model"] .message');
  await message.waitFor();
  assert.match(await message.innerText(), /The trained model could not be loaded: .*503/);
  await failing.selectOption('#c-model', 'random');
  await ready(failing);
  await failing.waitForFunction(() => { const el = document.querySelector('attention-playground'); return el.trace?.tokens?.length === 1 && !el.error; });
  assert.deepEqual(await cells(failing, 'weights'), core.run({ sentence: 'hello' }).weights[0]);
  refuse = false;
  await failing.selectOption('#c-model', 'tiny-lm');
  await modelShown(failing, 3);
  assert.equal(await message.count(), 0);
  // the browser logs the failed request itself: nothing else went wrong
  assert.deepEqual(failing.problems.filter((p) => !/503/.test(p)), []);
  await failing.context().close();
});

test('on random weights the flow, the arcs and the weights say the pattern means nothing, and open the trained model', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(env.base);
  await ready(page);
  for (const where of ['#step-flow', '#step-softmax']) {
    const note = page.locator(`${where} .random-note`).first();
    await steady(note);
    assert.match(await note.innerText(), /^These weights are random: the pattern means nothing\. Open the trained model$/);
  }
  assert.equal(await page.locator('#step-softmax .random-note').count(), 2, 'above the weights and over the arcs');
  await page.locator('#step-flow .random-note button').click();
  await modelShown(page);
  assert.equal(await page.locator('#c-model').inputValue(), 'tiny-lm');
  assert.deepEqual(await specOf(page), { model: 'tiny-lm', sentence: 'the cat sat on the mat' });
  // the page is at the model's introduction; the steps out of sight drop their notes when next
  // drawn (in idle time, or on coming into sight)
  await page.waitForFunction(() => !document.querySelector('attention-playground').shadowRoot.querySelector('.random-note'));
  const intro = await page.locator('#model-intro').boundingBox();
  assert.ok(Math.abs(intro.y) < 4, `the introduction at the top, at ${intro.y}`);
  await done(page);
});

test('Share and Embed carry the model alone; switching back to random restores the settings', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto(`${env.base}#seed=7&heads=2&d_model=8`);
  await ready(page);
  await page.selectOption('#c-model', 'tiny-lm');
  await modelShown(page);
  for (const key of ['seed', 'heads', 'd_model', 'mask', 'positional']) assert.equal(await page.locator(`.control[data-key="${key}"]`).count(), 0, key);
  assert.match(await page.locator('.control[data-key="model"] .hint').innerText(), /put away until you switch back: the trained model’s are learned/);
  const sentence = 'A "quoted" <b>bold</b> & more';
  await page.fill('#c-sentence', sentence);
  await modelShown(page, tokensOf(sentence).length);
  await page.click('button[data-action="share"]');
  const link = await page.locator('textarea.share').inputValue();
  const params = new URLSearchParams(new URL(link).hash.slice(1));
  assert.deepEqual([...params.keys()], ['model', 'sentence']);
  assert.equal(params.get('sentence'), sentence);
  await page.click('button[data-action="embed"]');
  const snippet = await page.locator('textarea.share').inputValue();
  assert.match(snippet, /<attention-playground model="tiny-lm" sentence="A &quot;quoted&quot; &lt;b&gt;bold&lt;\/b&gt; &amp; more"><\/attention-playground>/);
  assert.doesNotMatch(snippet, /seed=|heads=|d-model=/);
  // the NumPy program rebuilds the trained model's numbers (its weights written into it)
  await page.click('button[data-action="numpy"]');
  const program = await page.locator('textarea.numpy').inputValue();
  // (and, after its coding line, which layer and head the page shows)
  const lines = program.split('\n');
  assert.match(lines[1], /^# On the page: layer 1 of 2, head 0, which is layers\[0\]\["weights"\]\[0\] below\.$/);
  assert.equal([lines[0], ...lines.slice(2)].join('\n'), core.numpy({ model: 'tiny-lm', sentence }));
  assert.match(program, /trained model \(tiny-lm\)/);
  // back to random: the seed, the heads and the width are as they were
  await page.selectOption('#c-model', 'random');
  await page.waitForFunction(() => !document.querySelector('attention-playground').model);
  const spec = await specOf(page);
  assert.equal(spec.seed, 7);
  assert.equal(spec.heads, 2);
  assert.equal(spec.d_model, 8);
  assert.equal(spec.model, undefined);
  await done(page);
});

test('a blogger\'s model="tiny-lm" works in a 700 px column', async () => {
  const page = await env.page({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${env.base}post.html`);
  await modelShown(page, 21, '#post');
  const el = page.locator('#post');
  assert.deepEqual(await specOf(page, '#post'), { model: 'tiny-lm', sentence: 'The cat sat on the mat. The cat sat on the mat.' });
  const box = await el.boundingBox();
  assert.ok(box.width <= 700, `${box.width}`);
  // nothing sticks out of the column: the thumbnails, the guesses, the steps
  const overview = await drawn(el.locator('ap-heads-overview'));
  assert.equal(await overview.locator('button.thumb').count(), 8);
  for (const sel of ['ap-heads-overview', 'ap-next-token', '.tokens.model', '#step-softmax']) {
    const b = await el.locator(sel).boundingBox();
    assert.ok(b.x >= box.x - 0.5 && b.x + b.width <= box.x + box.width + 0.5, `${sel}: ${JSON.stringify(b)} in ${JSON.stringify(box)}`);
  }
  for (const thumb of await overview.locator('button.thumb').all()) {
    const b = await thumb.boundingBox();
    assert.ok(b.x + b.width <= box.x + box.width + 0.5, JSON.stringify(b));
  }
  assert.equal(await el.locator('ap-next-token li').count(), 5);
  assert.deepEqual(await el.evaluate((e) => e.trace.layers[0].weights), core.trace({ model: 'tiny-lm', sentence: 'The cat sat on the mat. The cat sat on the mat.' }).layers[0].weights);
  // view="overview": the heads alone, no steps and no controls
  await modelShown(page, 8, '#heads');
  const alone = page.locator('#heads');
  assert.equal(await (await drawn(alone.locator('ap-heads-overview'))).locator('button.thumb').count(), 8);
  assert.equal(await alone.locator('.step').count(), 0);
  assert.equal(await alone.locator('.control').count(), 0);
  await done(page);
});
