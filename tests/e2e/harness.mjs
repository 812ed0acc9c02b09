// Serves dist/ on loopback and drives Debian's Chromium with playwright-core (no browser
// download). Every page records console errors, uncaught errors and requests to other hosts.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic'],
};

export async function start(pages = {}) {
  const server = await serve(pages);
  const browser = await chromium.launch(CHROMIUM);
  return {
    base: server.base,
    server,
    browser,
    async page(options = {}) {
      const context = await browser.newContext({ acceptDownloads: true, ...options });
      const page = await context.newPage();
      page.problems = [];
      page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
      page.on('pageerror', (e) => page.problems.push(`uncaught: ${e.message}`));
      context.on('request', (r) => {
        const url = new URL(r.url());
        if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return;
        if (url.hostname !== '127.0.0.1') page.problems.push(`request to ${r.url()}`);
      });
      return page;
    },
    async stop() {
      await browser.close();
      await server.close();
    },
  };
}

/** A view (heatmap, arcs) scrolled into sight and drawn: views off screen, and the steps that
 *  hold them, draw in idle time. */
export async function drawn(locator) {
  await steady(locator);
  await locator.evaluate(async (el) => {
    const step = el.closest('ap-deferred-block');
    while (step?.deferred || step?.isUpdatePending || el.deferred || el.isUpdatePending) await new Promise((r) => setTimeout(r, 10));
  });
  return locator;
}

/** `locator` scrolled into sight and standing still. Steps the page has never laid out are sized by
 *  estimate (content-visibility), so a jump to a far part of the page lays them out a frame or two
 *  later and moves what is below them: a click aimed before that lands on something else. */
export async function steady(locator) {
  const at = () => locator.page().evaluate(() => `${scrollX},${scrollY}`);
  const from = await at();
  await locator.scrollIntoViewIfNeeded();
  if ((await at()) === from) return locator;
  await locator.evaluate(async (el) => {
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    let last = '', still = 0;
    for (let i = 0; i < 120 && still < 5; i++) {
      await frame();
      const { x, y } = el.getBoundingClientRect();
      still = `${x},${y}` === last ? still + 1 : 0;
      last = `${x},${y}`;
    }
  });
  return locator;
}

const heatmap = (page, key, head, host) => drawn(page.locator(`${host} ap-heatmap[key="${key}"]`.trim()).nth(head));

/** The numbers of one heatmap (inside `host`, if given), read from its cells' data-value (full precision). */
export async function cells(page, key, head = 0, host = '') {
  return (await heatmap(page, key, head, host)).evaluate((el) => {
    const rows = [];
    for (const td of el.shadowRoot.querySelectorAll('td[data-row]')) {
      const r = Number(td.dataset.row), c = Number(td.dataset.col);
      (rows[r] ??= [])[c] = Number(td.dataset.value);
    }
    return rows;
  });
}

/** The text of one heatmap's cells, row by row, as a reader sees them. */
export async function shownText(page, key, head = 0, host = '') {
  const view = await heatmap(page, key, head, host);
  // A cell's text is written after the cell itself: wait (up to 5 s) until every cell has some.
  await view.evaluate(async (el) => {
    for (let i = 0; i < 500; i++) {
      const tds = [...el.shadowRoot.querySelectorAll('td[data-row]')];
      if (tds.length && tds.every((td) => td.innerText.trim() !== '')) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  return view.locator('td[data-row]').allInnerTexts();
}

/** Holds back every request whose URL matches `pattern` until the returned function is called. */
export async function holdBack(page, pattern) {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(pattern, async (route) => { await held; await route.continue(); });
  return release;
}

export async function ready(page) {
  await page.locator('ap-heatmap[key="weights"]').first().waitFor();
  // The views a first heatmap does not need (flow, derivation, steppers…) are defined a moment
  // later; a journey acts on the whole page, so it waits for every tag of ours to be upgraded.
  await page.waitForFunction(() => {
    const pending = (root) => [...root.querySelectorAll('*')].some((el) =>
      (/^(ap|attention)-/.test(el.localName) && !customElements.get(el.localName)) || (el.shadowRoot && pending(el.shadowRoot)));
    return !pending(document);
  });
}

/** Closes a page that saw no console error, uncaught error or request to another host. */
export async function done(page) {
  assert.deepEqual(page.problems, []);
  await page.context().close();
}
