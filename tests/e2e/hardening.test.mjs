// Hostile input on the page: fuzzed attributes, a 1 MB paste. The page never blanks, never
// throws, and stays responsive.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, cells, ready, done } from './harness.mjs';

const pages = {
  '/fuzz.html': `<!doctype html><html lang="en"><head><title>fuzz</title><link rel="icon" href="data:,">
<script type="module" src="/attention-playground.js"></script></head><body><main><attention-playground id="p"></attention-playground></main></body></html>`,
};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

test('fuzzed attributes never blank the element or throw', async () => {
  const page = await env.page();
  await page.goto(env.base + 'fuzz.html');
  await page.locator('#p ap-heatmap').first().waitFor();
  const names = ['sentence', 'seed', 'heads', 'd-model', 'd-k', 'score', 'mask', 'window', 'positional', 'attention',
    'residual', 'mode', 'temperature', 'scale', 'embedding-init', 'weight-init', 'x', 'w-q', 'w-o', 'annotations',
    'decoder-state', 'preset', 'view', 'controls', 'theme', 'compact'];
  const values = ['', '0', '-1', '1e999', 'NaN', 'causal', 'window', 'encoder_decoder', '[[1,2],[3]]', '[[1e308,1e308]]',
    '<img src=x onerror="window.pwned=1">', '</script>', '"\'><svg onload=window.pwned=2>', 'seed000', 'weights', 'arcs',
    'none', 'true', '4294967296', '64', '1000000', '🙂'.repeat(300), '{"__proto__": 1}', 'int:0', 'int:3'];
  let x = 7;
  const pick = (list) => list[(x = (x * 1103515245 + 12345) % 2147483648) % list.length];
  for (let i = 0; i < 150; i++) {
    const name = pick(names), value = pick(values);
    await page.locator('#p').evaluate((el, [n, v]) => (v === '' && n.length % 2 ? el.removeAttribute(n) : el.setAttribute(n, v)), [name, value]);
    if (i % 10 === 9) {
      await page.waitForTimeout(20);
      const shown = await page.locator('#p').evaluate((el) => ({
        views: el.shadowRoot.querySelectorAll('ap-heatmap, ap-arcs').length,
        said: [...el.shadowRoot.querySelectorAll('.message, .note, .hint')].map((e) => e.textContent).join(' '),
      }));
      assert.ok(shown.views > 0 || shown.said.length > 0, `blank after ${name}="${value}"`);
    }
  }
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  await done(page);
});

test('a pasted 1 MB text gets a clear message and the tab stays responsive', async () => {
  const page = await env.page();
  await page.goto(env.base);
  await ready(page);
  const big = 'attention '.repeat(104858);  // 1 MB
  await page.fill('#c-sentence', big);
  const message = await page.locator('.control[data-key="sentence"] .message').innerText();
  assert.match(message, /sentence: is 1048580 bytes long; the limit is 65536 bytes/);
  // the page still answers: a task queued now runs (how soon is the benchmarks' to say)
  assert.equal(await page.evaluate(() => new Promise((resolve) => setTimeout(() => resolve('answered'), 0))), 'answered');
  // back to a normal sentence, everything works again
  await page.fill('#c-sentence', 'back to normal');
  await page.waitForFunction(() => document.querySelector('attention-playground').shadowRoot.querySelector('.control[data-key="sentence"] .message') === null);
  assert.equal((await cells(page, 'weights')).flat().length, 9);
  await done(page);
});
