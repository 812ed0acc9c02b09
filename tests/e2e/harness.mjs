// Serves dist/ on loopback and drives Debian's Chromium with playwright-core (no browser
// download). Every page records console errors, uncaught errors and requests to other hosts.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

const root = new URL('../../', import.meta.url).pathname;

async function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

export async function start() {
  const port = await freePort();
  const server = spawn(process.execPath, [`${root}node_modules/vite/bin/vite.js`, 'preview', '--strictPort', '--port', String(port), '--host', '127.0.0.1'],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('vite preview did not start')), 20000);
    server.stdout.on('data', (d) => { if (String(d).includes(`${port}`)) { clearTimeout(timer); resolve(); } });
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const base = `http://127.0.0.1:${port}/`;
  return {
    base,
    browser,
    async page(options = {}) {
      const page = await browser.newPage(options);
      page.problems = [];
      page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
      page.on('pageerror', (e) => page.problems.push(`uncaught: ${e.message}`));
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (!['127.0.0.1', ''].includes(url.hostname) && !['data:', 'blob:'].includes(url.protocol)) page.problems.push(`request to ${r.url()}`);
      });
      return page;
    },
    async stop() {
      await browser.close();
      server.kill();
    },
  };
}

/** The numbers of one heatmap, read from its cells' data-value (full precision). */
export async function cells(page, key, head = 0) {
  return page.locator(`ap-heatmap[key="${key}"]`).nth(head).evaluate((el) => {
    const rows = [];
    for (const td of el.shadowRoot.querySelectorAll('td[data-row]')) {
      const r = Number(td.dataset.row), c = Number(td.dataset.col);
      (rows[r] ??= [])[c] = Number(td.dataset.value);
    }
    return rows;
  });
}

export async function ready(page) {
  await page.locator('ap-heatmap[key="weights"]').first().waitFor();
}
