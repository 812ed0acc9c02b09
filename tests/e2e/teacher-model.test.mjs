// A teacher preparing a class on the trained model: the layer, the head and the token they
// picked travel in every handout (the link, both Embed snippets, an element written by hand, a
// scoped link, the NumPy program), the address bar follows each pick, the views of one layer
// say which, and "What comes next" is for the token followed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, done } from './harness.mjs';

const SENTENCE = 'The cat sat on the mat. The cat sat on the mat.';
const post = (element) => `<!doctype html><html lang="en"><head><title>a class</title><link rel="icon" href="data:,">
<script type="module" src="/attention-playground.js"></script></head>
<body><main style="max-width: 700px; margin: 0 auto">${element}</main></body></html>`;
const pages = {
  '/by-hand.html': post(`<attention-playground model="tiny-lm" sentence="${SENTENCE}" layer="2" head="2" view="weights" controls="none"></attention-playground>`),
  '/scoped.html': post(`<attention-playground id="f" model="tiny-lm" sentence="${SENTENCE}" focus-token="5"></attention-playground>`),
  '/views.html': post(`<attention-playground id="h" model="tiny-lm" sentence="${SENTENCE}" view="heads" controls="none"></attention-playground>
    <attention-playground id="n" model="tiny-lm" sentence="${SENTENCE}" view="next" focus-token="4" controls="none"></attention-playground>`),
  '/junk.html': post(`<attention-playground model="tiny-lm" sentence="ab ab" layer="two" head="9"></attention-playground>`),
};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

/** The element's view once the trained model is on screen: what it follows, and its text. */
const viewOf = (page, selector = 'attention-playground') => page.locator(selector).evaluate(async (el) => {
  while (!el.model) await new Promise((r) => setTimeout(r, 20));
  await el.updateComplete;
  return { layer: el.layer, head: el.focusHead, focus: el.focusToken, text: el.shadowRoot.textContent.replace(/\s+/g, ' ') };
});
const nextText = (page, host = '') => page.locator(`${host} ap-next-token`.trim()).evaluate((el) => el.shadowRoot.textContent.replace(/\s+/g, ' '));
const modelShown = (page) => page.waitForFunction(() => document.querySelector('attention-playground')?.model, null, { timeout: 60_000 });
const hashAfter = (page, pattern) => page.waitForFunction((p) => new RegExp(p).test(location.hash), pattern.source);

test('the element snippet a teacher pastes opens on the layer, head and token of the page', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#model=tiny-lm&sentence=${encodeURIComponent(SENTENCE)}&focus=17&head=2&layer=2`);
  await modelShown(page);
  const intro = await page.locator('.model-about').innerText();
  await page.click('button[data-action="embed"]');
  // what Embed did is said beside it, and the model's introduction stays
  assert.match(await page.locator('.tools .tool-note').innerText(), /copied|Copy/);
  assert.equal(await page.locator('.model-about').innerText(), intro);
  const text = await page.locator('textarea.share').inputValue();
  const element = text.slice(text.indexOf('<script'));
  for (const attr of ['layer="2"', 'head="2"', 'focus-token="17"']) assert.ok(element.includes(attr), `the element snippet has ${attr}: ${element}`);
  assert.match(text.match(/<iframe[^>]*>/)[0], /focus=17&amp;head=2&amp;layer=2|focus=17&head=2&layer=2/);

  const other = await env.page();
  await other.route('**/pasted.html', (route) => route.fulfill({ contentType: 'text/html', body: post(element.replace(/src="[^"]*"/, 'src="/attention-playground.js"')) }));
  await other.goto(`${env.base}pasted.html`);
  const view = await viewOf(other);
  assert.deepEqual([view.layer, view.head, view.focus], [2, 2, 17]);
  await other.locator('#model-intro').evaluate((el) => el.scrollIntoView({ block: 'end' }));  // (a part of the page draws when in sight)
  await other.locator('.layers .hint', { hasText: 'Layer 2 of 2, head 2 followed' }).waitFor();
  // "What comes next" is for the token followed, not the last one
  assert.match(await nextText(other), /position 17/);
  await done(other);
  await done(page);
});

test('layer and head written by hand on the element are kept, and a single view says which layer it shows', async () => {
  const page = await env.page();
  await page.goto(`${env.base}by-hand.html`);
  const view = await viewOf(page);
  assert.deepEqual([view.layer, view.head], [2, 2]);
  assert.match(view.text, /Layer 2 of 2/);
  await done(page);
});

test('attributes the element cannot follow are said beside it, and it opens on its defaults', async () => {
  const page = await env.page();
  await page.goto(`${env.base}junk.html`);
  const view = await viewOf(page);
  assert.deepEqual([view.layer, view.head], [1, 0]);
  assert.match(view.text, /layer="two" is not valid/);
  assert.match(view.text, /head="9" is not valid: the heads are 0 to 3/);
  await done(page);
});

test('a scoped link that picks the layer and head keeps the element\'s own token', async () => {
  const page = await env.page();
  await page.goto(`${env.base}scoped.html#f.layer=2&f.head=2`);
  const view = await viewOf(page);
  assert.deepEqual([view.layer, view.head, view.focus], [2, 2, 5]);
  await done(page);
});

test('the address bar follows every pick of token, head and layer, and a reload keeps them', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#model=tiny-lm&sentence=${encodeURIComponent(SENTENCE)}`);
  await modelShown(page);
  await page.locator('.tokens.model button.token[data-index="15"]').click();
  await hashAfter(page, /focus=15/);
  await page.locator('ap-heads-overview').evaluate((el) => el.shadowRoot.querySelectorAll('button.thumb')[6].click());  // layer 2, head 2
  await hashAfter(page, /head=2&layer=2|layer=2.*head=2/);
  await page.reload();
  const view = await viewOf(page);
  assert.deepEqual([view.layer, view.head, view.focus], [2, 2, 15]);
  await done(page);
});

test('a token followed past a shortened text follows its last, and Repeat does not bring the old one back', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#model=tiny-lm&sentence=${encodeURIComponent(SENTENCE)}&focus=19`);
  await modelShown(page);
  await page.fill('#c-sentence', 'a short one');
  await page.waitForFunction(() => document.querySelector('attention-playground').model?.tokens.length === 7);  // a, ␣s, h, or, t, ␣on, e
  assert.equal((await viewOf(page)).focus, 6);
  await page.click('button[data-action="repeat"]');
  await page.waitForFunction(() => document.querySelector('attention-playground').model?.tokens.length === 14);
  assert.ok((await viewOf(page)).focus < 14);
  await hashAfter(page, /focus=(?!19)\d+/);
  await done(page);
});

test('the heads overview and the next-token guesses are views of their own, for a slide', async () => {
  const page = await env.page();
  await page.goto(`${env.base}views.html`);
  await page.locator('#h ap-heads-overview').waitFor({ timeout: 60_000 });
  await page.locator('#n ap-next-token').waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('#h .step').count(), 0, 'the heads view shows only the heads');
  assert.match(await nextText(page, '#n'), /position 4/);
  await done(page);
});

test('the NumPy program says where the layer and head on screen are in what it leaves', async () => {
  const page = await env.page({ permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto(`${env.base}#model=tiny-lm&sentence=ab+ab&head=3&layer=2`);
  await modelShown(page);
  await page.click('button[data-action="numpy"]');
  const program = await page.locator('textarea.numpy').inputValue();
  assert.match(program.split('\n')[0], /coding/, 'the coding line stays first');
  assert.match(program.split('\n')[1], /^# On the page: layer 2 of 2, head 3, which is layers\[1\]\["weights"\]\[3\] below\.$/);
  await done(page);
});
