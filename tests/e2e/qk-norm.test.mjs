// QK-norm as a learner and a blogger meet it: a labelled control with its help, the normalised
// rows under Project with the core's numbers, a link that reopens them, a score's derivation
// that multiplies the normalised (and turned) rows, the NumPy program, and the attribute.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';
import { start, cells, ready, done, drawn } from './harness.mjs';
import { rmsNormEps, shownDigits } from '../tolerance.mjs';

const core = await load();
const pages = {
  '/qk-norm.html': `<!doctype html><html lang="en"><head><title>a post</title><link rel="icon" href="data:,">
<script type="module" src="/attention-playground.js"></script></head>
<body><main style="max-width: 700px">
<attention-playground id="post" sentence="keys and queries normalised" heads="2" d-model="8" qk-norm positional="rope" view="weights"></attention-playground>
</main></body></html>`,
};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

const specOf = (page, sel = 'attention-playground') => page.locator(sel).evaluate((el) => el.spec);
const settled = (page) => page.waitForFunction(() => {
  const el = document.querySelector('attention-playground');
  return el.trace && !el.busy && !el.error;
});

test('a learner ticks QK-norm: its help, the normalised rows with the core\'s numbers, and a link that reopens them', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#heads=2&d_model=8`);
  await ready(page);
  const control = page.locator('.control[data-key="qk_norm"]');
  assert.equal(await control.locator('label').innerText(), 'QK-norm');
  assert.match(await control.locator('.help').textContent(), /root mean square/);
  await page.check('#c-qk_norm');
  await settled(page);
  const spec = await specOf(page);
  assert.equal(spec.qk_norm, true);
  const expected = core.run(spec);
  assert.equal(expected.error, undefined);
  await drawn(page.locator('#step-project ap-heatmap[key="Q_norm"]'));
  assert.deepEqual(await cells(page, 'Q_norm'), expected.Q_norm);
  assert.deepEqual(await cells(page, 'K_norm'), expected.K_norm);
  // every head's block of a row has a root mean square of 1 (eps aside)
  for (const row of expected.Q_norm) {
    for (const block of [row.slice(0, 4), row.slice(4)]) {
      assert.ok(Math.abs(Math.sqrt(block.reduce((a, v) => a + v * v, 0) / 4) - 1) <= rmsNormEps);
    }
  }
  assert.match(page.url(), /qk_norm=true/);
  // the link reopens the same numbers
  const again = await env.page();
  await again.goto(page.url());
  await ready(again);
  await settled(again);
  assert.equal(await again.locator('#c-qk_norm').isChecked(), true);
  assert.deepEqual(await cells(again, 'Q_norm'), expected.Q_norm);
  await done(again);
  await done(page);
});

test('a score\'s derivation multiplies the normalised, turned rows, each stage named and equal to the trace', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#qk_norm=true&positional=rope&heads=2&d_model=8`);
  await ready(page);
  await settled(page);
  const expected = core.run(await specOf(page));
  const head = 1, row = 3, col = 2, dk = expected.spec.d_k;
  const scores = await drawn(page.locator('ap-heatmap[key="scores"]').nth(head));
  await scores.locator(`td[data-row="${row}"][data-col="${col}"]`).click();
  const panel = page.locator('ap-derivation');
  await panel.locator('table.stages').waitFor();
  const rows = await panel.evaluate((el) => [...el.shadowRoot.querySelectorAll('table.stages tr')].map((tr) => tr.querySelector('th').textContent));
  assert.deepEqual(rows, ['q from Q', 'q from Q_norm', 'q from Q_rope', 'k from K', 'k from K_norm', 'k from K_rope']);
  const titles = (cls) => panel.evaluate((el, cls) => [...el.shadowRoot.querySelectorAll(`tr.${cls} td [title]`)].map((s) => Number(s.title.replace('\u2212', '-'))), cls);
  const near = (a, b) => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) <= shownDigits * Math.max(1, Math.abs(b[i])));
  assert.ok(near(await titles('used.q'), expected.Q_rope[row].slice(head * dk, (head + 1) * dk)));
  const text = await panel.evaluate((el) => el.shadowRoot.textContent.replace(/\s+/g, ' '));
  assert.match(text, /q′ · k′ =/);
  await done(page);
});

test('the NumPy program computes the normalised rows, and a blogger\'s qk-norm attribute turns it on', async () => {
  const page = await env.page();
  await page.goto(env.base + 'qk-norm.html');
  const el = page.locator('#post');
  await el.locator('ap-heatmap[key="weights"]').first().waitFor();
  const spec = await specOf(page, '#post');
  assert.equal(spec.qk_norm, true);
  assert.deepEqual(await el.evaluate((e) => e.trace.Q_norm), core.run(spec).Q_norm);
  const program = core.numpy(spec);
  assert.match(program, /Q_norm = rms_heads\(Q\)/);
  assert.match(program, /Q_rope = rope\(Q_norm, /);
  // the widget fits the 700 px column
  const box = await el.boundingBox();
  assert.ok(box.width <= 700, `${box.width}`);
  await done(page);
});
