// The first heatmap of each way people arrive: the home page, a shared link, and a blog post
// embedding the element once or three times. Each arrival is loaded in a fresh browser context
// (an empty cache), served gzipped as a real server would, on localhost and on a throttled
// connection (Chromium's "Fast 3G": 1.6 Mbit/s down, 150 ms latency), where the bytes decide.
// Timed from navigation to the first frame that shows a heatmap with its cells (written into
// the page or drawn by its code); the bytes are those the browser had received by then.
import { chromium } from 'playwright-core';
import { serve } from '../tests/e2e/serve.mjs';
import { CHROMIUM } from '../tests/e2e/harness.mjs';
import { spread } from './spread.mjs';

const SENTENCE = 'The animal did not cross the street because it was too tired';
export const post = (elements) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title>
<link rel="icon" href="data:,"><script type="module" src="/attention-playground.js"></script></head>
<body><main style="max-width: 700px; margin: auto"><h1>A post about attention</h1><p>Some words before the widget.</p>
${elements.join('\n<p>More words between the widgets.</p>\n')}</main></body></html>`;
const ELEMENT = (sentence, view) => `<attention-playground sentence="${sentence}" heads="2" d-model="8" view="${view}"></attention-playground>`;

export const ARRIVALS = {  // name -> the path loaded
  'home page': '/',
  'shared link': `/#sentence=${encodeURIComponent(SENTENCE)}&heads=2&d_model=8&seed=7`,
  'blog post, 1 element': '/post-1.html',
  'blog post, 3 elements': '/post-3.html',
  // the trained model: its weights are part of what a reader waits for
  'model link': `/#model=tiny-lm&sentence=${encodeURIComponent('zebra naps')}`,
  'model post': '/post-model.html',
};
// Measured on localhost only: their target is a ratio to the home page's time there.
const LOCAL_ONLY = new Set(['model link', 'model post']);
export const PAGES = {  // the blog posts, served beside dist/
  '/post-1.html': post([ELEMENT(SENTENCE, 'weights')]),
  '/post-3.html': post([ELEMENT(SENTENCE, 'weights'), ELEMENT('The cat sat on the mat', 'scores'), ELEMENT('Attention is all you need', 'output')]),
  '/post-model.html': post(['<attention-playground model="tiny-lm" sentence="zebra jumps" view="weights" controls="none"></attention-playground>']),
};
export const NETWORKS = {  // name -> Chromium's network conditions (null: as it is)
  localhost: null,
  'Fast 3G': { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 },
};

// Before each frame: is a heatmap with its cells on screen, in any element (laid out and painted:
// a screen hidden by visibility or opacity is not on it)? The frame is
// stamped when a timer after it runs (the heatmap reached the screen no later than that); the
// very first frame by its presentation (first-contentful-paint), as the home page's written
// screen is.
function watch() {
  window.timing = {};
  let frames = 0;
  const SEEN = { visibilityProperty: true, opacityProperty: true };
  const withCells = (root) => Array.from(root?.querySelectorAll('ap-heatmap, [data-element="ap-heatmap"]') ?? [])
    .some((h) => h.checkVisibility(SEEN) && h.shadowRoot?.querySelector('td, canvas'));
  const poll = () => {
    frames++;
    const shown = Array.from(document.querySelectorAll('attention-playground')).some((el) => withCells(el.shadowRoot)
      || Array.from(el.querySelectorAll(':scope > .first-screen, :scope > .first-screen > div')).some((d) => d.checkVisibility(SEEN) && withCells(d.shadowRoot)));
    if (shown) setTimeout(() => { window.timing.first = frames > 1 ? performance.now() : 'first frame'; }, 0);
    else requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

/** f() or, when it throws, f() again, up to `tries` times in all; null when every try threw.
 *  Each failure is told (its message's first line, and whether it was the last try): one
 *  aborted navigation in a run of hundreds then loses that load alone, not every figure. */
export async function retried(f, told, tries = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await f();
    } catch (e) {
      told(String(e?.message ?? e).split('\n')[0], attempt === tries);
      if (attempt === tries) return null;
    }
  }
}

/** Every arrival on every network, in `runs` runs of `loads` loads each: {network: {arrival:
 *  {first_heatmap_ms, gzip_kb}}}, each a spread of the runs' medians (and every load's figure). */
export async function arrivals({ runs, loads }, say) {
  const server = await serve(PAGES, { gzip: true });
  let browser = await chromium.launch(CHROMIUM);
  const loaded = {};  // network -> arrival -> [{ms, kb}] per run
  const load = async (conditions, path) => {
    if (!browser.isConnected()) browser = await chromium.launch(CHROMIUM);  // (a crash fails one load, not the rest)
    const context = await browser.newContext();  // an empty cache
    try {
      const page = await context.newPage();
      if (conditions) {
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', conditions);
      }
      await page.addInitScript(watch);
      await page.goto(server.base + path.slice(1));
      await page.waitForFunction(() => window.timing.first !== undefined && performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 60_000 });
      return await page.evaluate(() => {
        const first = window.timing.first === 'first frame' ? performance.getEntriesByName('first-contentful-paint')[0].startTime : window.timing.first;
        const nav = performance.getEntriesByType('navigation')[0];
        const came = performance.getEntriesByType('resource').filter((e) => e.responseEnd <= first);
        return { ms: first, kb: (nav.encodedBodySize + came.reduce((s, e) => s + e.encodedBodySize, 0)) / 1024 };
      });
    } finally {
      await context.close();
    }
  };
  const failed = {};  // network -> arrival -> loads left out
  const tried = (network, arrival) => retried(() => load(NETWORKS[network], ARRIVALS[arrival]), (why, last) => {
    say(`${network}, ${arrival}: a load failed (${why})${last ? ', left out' : ', trying again'}`);
    if (last) (failed[network] ??= {})[arrival] = (failed[network]?.[arrival] ?? 0) + 1;
  });
  try {
    // runs outermost: a run's loads are minutes apart from the next run's, as the page's runs are
    for (let run = 0; run < runs; run++) {
      for (const network of Object.keys(NETWORKS)) {
        for (const arrival of Object.keys(ARRIVALS)) {
          if (NETWORKS[network] && LOCAL_ONLY.has(arrival)) continue;
          const got = [];
          for (let i = 0; i < loads; i++) got.push(await tried(network, arrival));
          ((loaded[network] ??= {})[arrival] ??= []).push(got.filter(Boolean));
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const median = (xs) => spread(xs).median;
  const out = {};
  for (const [network, byArrival] of Object.entries(loaded)) {
    out[network] = {};
    for (const [arrival, all] of Object.entries(byArrival)) {
      const perRun = all.filter((got) => got.length);  // (a run whose every load failed has no figure)
      const ms = spread(perRun.map((got) => median(got.map((g) => g.ms))));
      const kb = spread(perRun.map((got) => median(got.map((g) => g.kb))));
      out[network][arrival] = { first_heatmap_ms: ms, gzip_kb: kb, loads: perRun.map((got) => got.map((g) => Math.round(g.ms))),
        failed: failed[network]?.[arrival] ?? 0 };
      say(`${network}, ${arrival}: first heatmap ${ms.median.toFixed(0)} ms (runs' medians ${ms.runs.map((x) => x.toFixed(0)).join(', ')}; ${runs} runs of ${loads} loads),` +
        ` ${kb.median.toFixed(1)} KB gzip before it`);
    }
  }
  return out;
}
