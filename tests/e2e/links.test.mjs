// What a shared link, an embedder's attributes and a reader's clicks carry: a link reopens the
// view the person was looking at; a scoped link changes only the element it names, over what
// the author wrote; an address attribute that would run script is refused, by name; a hostile
// link then a keystroke stays light; and what the page says of X, the weights and a phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, done } from './harness.mjs';

const pages = {};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

const page1 = (body, head = '') => `<!doctype html><html lang="en"><head><title>links</title><link rel="icon" href="data:,">
<script type="module" src="/attention-playground.js"></script>${head}</head><body><main style="max-width: 700px">${body}</main></body></html>`;
const specOf = (page, sel = 'attention-playground') => page.locator(sel).evaluate((el) => el.spec);
const noteOf = (page, sel = 'attention-playground') => page.locator(sel).evaluate((el) =>
  [...el.shadowRoot.querySelectorAll('.note, .message')].map((e) => e.textContent).join(' '));

test('Share carries the followed token, its head, row-relative weights and each stepper\'s step', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#sentence=${encodeURIComponent('the animal was too tired')}&heads=2&d_model=8&mask=causal&decode=true&online_block=2`);
  await ready(page);
  await page.locator('button.token[data-index="4"]').click();                         // follow "tired"
  await page.locator('ap-flow button', { hasText: 'head 1' }).click();                 // its second head
  await page.locator('ap-heatmap[key="weights"]').first().locator('button[data-action="relative"]').click();
  const stepper = page.locator('ap-decode-stepper');
  await stepper.scrollIntoViewIfNeeded();
  await stepper.locator('button', { hasText: /next/i }).first().click();
  await stepper.locator('button', { hasText: /next/i }).first().click();
  const online = page.locator('ap-online-stepper');  // its own step: the decoder's does not move it
  await online.scrollIntoViewIfNeeded();
  assert.equal(await online.evaluate((s) => s.at), 0);
  await online.locator('button[data-action="next"]').click();
  await page.click('button[data-action="share"]');
  const link = await page.locator('textarea.share').inputValue();
  const opened = await env.page();
  await opened.goto(link);
  await ready(opened);
  const el = opened.locator('attention-playground');
  assert.deepEqual(await el.evaluate((e) => [e.focusToken, e.focusHead, e.relative, e.stepAt, e.blockAt]), [4, 1, true, 2, 1]);
  assert.equal(await opened.locator('button.token[aria-pressed="true"]').innerText(), 'tired');
  assert.equal(await opened.locator('ap-flow').evaluate((f) => f.head), 1);
  assert.equal(await opened.locator('ap-heatmap[key="weights"]').first().evaluate((m) => m.relative), true);
  assert.equal(await opened.locator('ap-decode-stepper').evaluate((s) => s.at), 2);
  assert.equal(await opened.locator('ap-online-stepper').evaluate((s) => s.at), 1);
  await done(page);
  await done(opened);
});

test('an address attribute that is not http(s) or relative is refused by name and never handed out', async () => {
  pages['/urls.html'] = page1(`<attention-playground id="p" sentence="a cat" toolbar share-url="javascript:alert(document.domain)//"
    script-url="data:text/javascript,window.pwned=1"></attention-playground>`);
  const page = await env.page();
  await page.goto(env.base + 'urls.html');
  await ready(page);
  await page.click('#p button[data-action="embed"]');
  const snippet = await page.locator('#p textarea.share').inputValue();
  assert.doesNotMatch(snippet, /javascript:|data:/i);
  assert.doesNotMatch(snippet, /<iframe/);  // no hosted playground to frame
  assert.match(await noteOf(page, '#p'), /share-url="javascript:alert\(document\.domain\)\/\/" is not an http\(s\) or relative address/);
  assert.match(await noteOf(page, '#p'), /script-url="data:text\/javascript,window\.pwned=1" is not an http\(s\) or relative/);
  await page.click('#p button[data-action="share"]');
  const link = await page.locator('#p textarea.share').inputValue();
  assert.ok(link.startsWith(`${env.base}urls.html`), link);  // this page, not the refused address
  await done(page);
});

test('a scoped link changes only the element it names, over the attributes its author wrote', async () => {
  pages['/scoped.html'] = page1(`<attention-playground id="a" sentence="first one" seed="5" view="weights"></attention-playground>
    <attention-playground id="a.b" sentence="second one" view="weights"></attention-playground>
    <attention-playground id="playground-1" sentence="named like an automatic name" view="weights"></attention-playground>
    <attention-playground sentence="no id" view="weights"></attention-playground>`);
  const page = await env.page();
  await page.goto(`${env.base}scoped.html#a.b.sentence=CHANGED&a.heads=2`);
  await page.locator('#a ap-heatmap[key="weights"]').first().waitFor();
  await page.locator('[id="a.b"] ap-heatmap[key="weights"]').first().waitFor();
  assert.equal((await specOf(page, '[id="a.b"]')).sentence, 'CHANGED');
  const a = await specOf(page, '#a');
  assert.deepEqual([a.sentence, a.seed, a.heads], ['first one', 5, 2]);  // its own attributes, the link's heads on top
  assert.equal(await noteOf(page, '#a'), '');
  // the element without an id is not "playground-1" (an id takes it): its link names it apart
  const unnamed = page.locator('attention-playground:not([id])');
  const scope = await unnamed.evaluate((el) => el.scope());
  assert.notEqual(scope, 'playground-1');
  await page.goto(`${env.base}scoped.html#${scope}.seed=9`);
  await page.reload();
  await unnamed.locator('ap-heatmap[key="weights"]').first().waitFor();
  assert.equal((await specOf(page, 'attention-playground:not([id])')).seed, 9);
  assert.equal((await specOf(page, '[id="playground-1"]')).seed, 42);
  await done(page);
});

test("the example post's own link opens its example with the seed changed, and nothing else", async () => {
  const page = await env.page();
  await page.goto(`${env.base}examples/`);
  await page.locator('#seed004 ap-heatmap').first().waitFor();
  const written = await specOf(page, '#seed004');
  await page.goto(`${env.base}examples/#seed004.seed=3`);
  await page.reload();
  await page.locator('#seed004 ap-heatmap').first().waitFor();
  assert.deepEqual(await specOf(page, '#seed004'), { ...written, seed: 3 });  // the example the author wrote, its seed changed
  assert.equal(await noteOf(page, '#seed004'), '');
  await done(page);
});

test('a crafted link with a refused X stays light after a keystroke: the refused matrix is not kept', async () => {
  const page = await env.page();
  const words = Array.from({ length: 512 }, () => 'a').join(' ');
  await page.goto(`${env.base}#sentence=${encodeURIComponent(words)}&X=${encodeURIComponent('[[1]]')}&d_k=24&mask=causal&decode=true`);
  await page.waitForFunction(() => { const el = document.querySelector('attention-playground'); return (el.trace || el.error) && !el.busy; });
  assert.equal((await specOf(page)).X, undefined);
  assert.match(await noteOf(page), /X: has 1 rows but there are 512 tokens/);  // named, and not kept
  const box = page.locator('.control textarea, .control input[type="text"]').first();
  await box.focus();
  await page.keyboard.press('End');
  await page.keyboard.type(' b');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.sentence.endsWith(' b'));
  assert.equal((await specOf(page)).X, undefined);
  await done(page);
});

test('after X is typed by hand, the Embed step no longer says the rows are the seed’s', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#sentence=the+cat+sat`);
  await ready(page);
  const about = page.locator('#step-embed .about');
  assert.match(await about.innerText(), /random vector from the seed/);
  await page.locator('ap-heatmap[key="X"] td[data-row="0"][data-col="0"]').click();
  await page.locator('ap-heatmap[key="X"] input').fill('2');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.X?.[0][0] === 2);
  await page.waitForFunction(() => !document.querySelector('attention-playground').shadowRoot.querySelector('#step-embed .about').textContent.includes('from the seed'));
  assert.match(await about.innerText(), /X is yours/);
  await done(page);
});

test('near-uniform weights say where to look, and one click colours every head row by row', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#sentence=${encodeURIComponent('the animal did not cross the street because it was too tired')}&heads=2&d_model=8`);
  await ready(page);
  const hint = page.locator('.hint.uniform');
  assert.match(await hint.textContent(), /nearly uniform/);
  await hint.locator('button').click();
  for (const map of await page.locator('ap-heatmap[key="weights"]').all()) assert.equal(await map.evaluate((m) => m.relative), true);
  assert.equal(await hint.count(), 0);
  await done(page);
});

test('an embedded Follow-one-token view is drawn at its full height before the reader scrolls to it', async () => {
  pages['/flow.html'] = page1(`<div style="height: 3000px">above</div>
    <attention-playground id="f" sentence="the cat sat on the mat and looked at the dog" view="flow" controls="none"></attention-playground><p id="after">after</p>`);
  const page = await env.page();
  await page.goto(env.base + 'flow.html');
  await page.locator('#f ap-flow').waitFor({ state: 'attached' });
  await page.waitForFunction(() => document.querySelector('#f').trace);
  await page.waitForTimeout(300);
  const before = await page.locator('#f').evaluate((el) => el.getBoundingClientRect().height);
  await page.locator('#f').scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  const after = await page.locator('#f').evaluate((el) => el.getBoundingClientRect().height);
  assert.ok(before > 600, `drawn before it is reached: ${before}px`);
  assert.ok(Math.abs(after - before) < 2, `${before} -> ${after}`);
  await done(page);
});

test('on a phone the worked examples are one labelled list, and a wide table says it scrolls', async () => {
  let page = await env.page({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(`${env.base}#d_model=24&sentence=a+wide+matrix`);
  await ready(page);
  const picker = page.locator('select[data-action="preset"]');
  assert.ok(await picker.isVisible());
  assert.match(await page.locator('.presets.picker label').innerText(), /Worked examples/);
  await picker.selectOption('seed004');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.weight_init === 'int:3');  // seed 004's integer weights
  assert.equal(await picker.inputValue(), 'seed004', 'the list shows the example chosen');
  // the trained model is one tap from the first screen
  await page.locator('.presets.picker button[data-preset="trained"]').tap();
  await page.waitForFunction(() => document.querySelector('attention-playground').model, null, { timeout: 60_000 });
  assert.equal(await picker.inputValue(), 'trained');
  assert.equal(await page.locator('.presets.picker button[data-preset="trained"]').count(), 0, 'no button for what is on screen');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'nothing scrolls sideways');
  await done(page);
  // a fresh page on the wide matrix (not the example just loaded into this one)
  page = await env.page({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(`${env.base}#d_model=24&sentence=a+wide+matrix`);
  await ready(page);
  const x = page.locator('ap-heatmap[key="X"]');
  await x.scrollIntoViewIfNeeded();
  await x.locator('button', { hasText: 'show as table' }).click();
  await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot.querySelector('ap-heatmap[key="X"]')?.hasAttribute('overflows'));
  // and the tables of Follow one token, wider than a phone, say so too
  await page.locator('#step-flow').scrollIntoViewIfNeeded();
  await page.locator('ap-flow .wide.more').first().waitFor();
  assert.match(await page.locator('ap-flow .wide.more').first().evaluate((el) => getComputedStyle(el, '::after').content), /scroll sideways/);
  await done(page);
});
