// The example post (web/examples/): its three playgrounds show their articles' numbers, and the
// element works on a blog that hosts only the files the post tells its readers to copy.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { start, cells, shownText, done } from './harness.mjs';

const core = await load();
const dist = new URL('../../dist/', import.meta.url);
const pages = {};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

const specOf = (page, id) => page.locator(id).evaluate((el) => el.spec);

test('the post: 927, "This is book" scaled by 1/√5, and seed 004\'s printed output', async () => {
  const page = await env.page();
  await page.goto(env.base + 'examples/');
  assert.equal(await page.locator('article attention-playground').count(), 3);
  // 1. seed 000: the scores on screen, digits and all
  await page.locator('#seed000 ap-heatmap[key="scores"] td[data-row]').first().waitFor();
  assert.deepEqual(await shownText(page, 'scores', 0, '#seed000'), ['927', '397', '148', '929']);
  assert.deepEqual((await cells(page, 'context', 0, '#seed000'))[0], core.run(await specOf(page, '#seed000')).context);
  // 2. seed 001: its embeddings, the softmax step of 1/√5-scaled scores
  const second = await specOf(page, '#seed001');
  assert.equal(second.scale, 1 / Math.sqrt(5));
  assert.deepEqual(second.X[0], [0.1, -0.3, 0.5, -0.2, 0.7]);
  assert.deepEqual(await cells(page, 'weights', 0, '#seed001'), core.run(second).weights[0]);
  // 3. seed 004: the concatenated output, as the article printed it (3 digits on screen)
  const printed = [0.81676354, 1.14873475, 0.33197121, 0.71861207, 1.07919157, 0.3605795,
    0.74203343, 1.13656778, 0.39453435, 0.75607715, 1.11278575, 0.3567086, 0.79709991, 1.15043165, 0.35333174];
  await page.locator('#seed004 ap-heatmap[key="concat"] td[data-row]').first().waitFor();
  const shown = (await shownText(page, 'concat', 0, '#seed004')).map(Number);
  assert.deepEqual(shown, printed.map((v) => Number(v.toPrecision(3))));
  await done(page);
});

// What the post says to copy: attention-playground.js with the chunks/ and assets/ folders
// beside it, here under /blog/static/, with nothing else of dist/ on the server.
const copied = { '/blog/static/attention-playground.js': { type: 'text/javascript', body: readFileSync(new URL('attention-playground.js', dist)) } };
for (const folder of ['chunks', 'assets']) {
  for (const f of readdirSync(new URL(folder, dist)).filter((f) => /\.(js|wasm|bin|txt)$/.test(f))) {
    const type = { js: 'text/javascript', wasm: 'application/wasm' }[f.split('.').pop()] ?? 'application/octet-stream';
    copied[`/blog/static/${folder}/${f}`] = { type, body: readFileSync(new URL(`${folder}/${f}`, dist)) };
  }
}

test('on a blog hosting only the copied files, with a long sentence in a Web Worker', async () => {
  Object.assign(pages, copied, {
    '/blog/2026/post.html': `<!doctype html><html lang="en"><head><title>my post</title><link rel="icon" href="data:,">
      <script type="module" src="/blog/static/attention-playground.js"></script></head><body><main>
      <attention-playground sentence="The FBI is chasing the thief" mask="causal" heads="2" d-model="8"></attention-playground>
      </main></body></html>`,
  });
  const page = await env.page();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(env.base + 'blog/2026/post.html');
  await page.locator('ap-heatmap[key="weights"] td[data-row]').first().waitFor();
  const spec = await page.locator('attention-playground').evaluate((el) => el.spec);
  assert.deepEqual(await cells(page, 'weights', 1), core.run(spec).weights[1]);
  await page.locator('#c-sentence').fill(Array.from({ length: 480 }, (_, i) => `w${i % 50}`).join(' '));
  await page.locator('ap-heatmap[key="weights"] .title small', { hasText: '480 × 480' }).first().waitFor();
  assert.equal(workers.length, 1);
  assert.match(workers[0], /\/blog\/static\/assets\/worker-/);
  await done(page);  // no console error: every file it asked for was there
});
