// What the host tests share: the repository's paths, commands that fail loudly, Debian's
// Chromium with the network cut off, a static server for a built site, and the numbers an
// element shows.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../e2e/harness.mjs';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const PYTHON = '/usr/bin/python3';  // Debian's, with nbformat, ipykernel and numpy

// Built by `npm run build`: the tests check what a course author would copy, not a fresh build.
for (const f of ['dist/attention.js', 'dist/attention-playground.js', 'dist/slides/index.html',
  'python/attention_playground/assets/elements.js', 'python/attention_playground/assets/elements.json']) {
  assert.ok(existsSync(join(ROOT, f)), `${f} is missing: run \`npm run build\` before \`npm run test:hosts\``);
}
const { load } = await import(join(ROOT, 'dist/attention.js'));
export const core = await load();

/** Runs a program; its stdout, or an error carrying its stderr. */
export function run(cmd, args, options = {}) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, ...options });
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${e.status ?? e.signal}):\n${e.stderr || ''}${e.stdout || ''}`);
  }
}

/** Chromium, and pages that record uncaught errors and every request that left the machine
 *  (anything but file:, data:, blob: and loopback), which is refused. */
export async function launch() {
  const browser = await chromium.launch(CHROMIUM);
  return {
    browser,
    async page({ loopback = false, viewport = { width: 1280, height: 900 } } = {}) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      page.errors = [];
      page.refused = [];
      page.on('pageerror', (e) => page.errors.push(e.message));
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        const local = ['file:', 'data:', 'blob:'].includes(url.protocol) || (loopback && url.hostname === '127.0.0.1');
        if (local) return route.continue();
        page.refused.push(url.href);
        return route.abort('internetdisconnected');
      });
      return page;
    },
    close: () => browser.close(),
  };
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2' };

/** Serves a folder (a built site) on 127.0.0.1: module scripts do not run from file:. */
export function serveDir(dir) {
  const server = createServer((req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    if (path.endsWith('/')) path += 'index.html';
    try {
      const body = readFileSync(join(dir, path));
      res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  server.unref();  // a journey that fails before closing it must not keep its file's process (and CI) waiting
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    base: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)),
  })));
}

/** Every head's weights shown by a playground (a locator), from its cells' data-value. */
export async function weightsShown(host) {
  await host.locator('ap-heatmap[key="weights"]').first().waitFor();
  const maps = host.locator('ap-heatmap[key="weights"]');
  const out = [];
  for (let h = 0; h < await maps.count(); h++) {
    const map = maps.nth(h);
    await map.scrollIntoViewIfNeeded();
    // Past 24 x 24 a heatmap is drawn as a picture; its button shows the cells, as a reader would.
    const picture = map.locator('button.as', { hasText: 'show as table' });
    if (await picture.count()) await picture.click();
    out.push(await map.evaluate(async (el) => {
      while (el.deferred || el.isUpdatePending) await new Promise((r) => setTimeout(r, 10));
      const rows = [];
      for (const td of el.shadowRoot.querySelectorAll('td[data-row]')) (rows[+td.dataset.row] ??= [])[+td.dataset.col] = +td.dataset.value;
      return rows;
    }));
  }
  return out;
}

/** The weights the core computes for the spec a playground shows. */
export async function weightsOfSpec(host) {
  // (the element is defined once its code has arrived, which can be after the page's load event)
  const spec = await host.evaluate(async (el) => (await customElements.whenDefined(el.localName), el.spec));
  const trace = core.run(spec);
  assert.equal(trace.error, undefined, JSON.stringify(trace.error));
  return { spec, weights: trace.weights };
}
