// npm run bench:profile -- [cold|embed|edits|model|long|paint|train] [tokens|loads|task]: where the
// page's main-thread milliseconds go. Records Chromium's trace (through Playwright) while the page
// starts (cold), or a blog post with one element (embed, bench/arrivals.mjs's), or while a typist edits a sentence of `tokens` words every 100 ms (edits), then prints the
// renderer main thread's self time by trace event, for the whole window and, for edits, for the
// slowest 5% of edits (the tail the p95 target is about); model does the same in model mode, the
// trained model reading `tokens` characters; long types `tokens` words at once (512:
// the longest-block target) and lists every task over 10 ms. paint loads the page fresh `loads`
// times, in turns with the same page without its written first screen, and sums the main thread's
// work before the first frame by kind (writes bench/results/profile-paint.json); train compares a
// training step natively and in Chromium, function by function (bench/profile-train.mjs).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { serve } from '../tests/e2e/serve.mjs';
import { CHROMIUM } from '../tests/e2e/harness.mjs';
import { editSentence, openSettled } from './page-edits.mjs';
import { profileTraining } from './profile-train.mjs';
import { quantile, spread } from './spread.mjs';
import { PAGES } from './arrivals.mjs';

const [mode = 'edits', arg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const MODES = ['cold', 'embed', 'edits', 'model', 'long', 'paint', 'train'];
if (!MODES.includes(mode)) {
  console.error(`bench:profile: no mode ${mode}; the modes are ${MODES.join(', ')}`);
  process.exit(2);
}
if (mode === 'train') {
  await profileTraining(arg);
  process.exit(0);
}
const tokens = Number(arg ?? (mode === 'paint' ? 15 : 32));  // or, for paint, loads
if (!Number.isInteger(tokens) || tokens < 1) {
  console.error(`bench:profile: ${mode} takes a whole number of ${mode === 'paint' ? 'loads' : 'tokens'}, got "${arg}"`);
  process.exit(2);
}
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'blink.user_timing', 'toplevel', 'disabled-by-default-v8.gc'];

/** Self time (ms) per event name on one thread, for complete events inside [from, to] (µs). */
function selfTimes(events, from = -Infinity, to = Infinity) {
  const xs = events.filter((e) => e.ph === 'X' && e.dur !== undefined && e.ts >= from && e.ts + e.dur <= to)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map();
  const stack = [];
  const close = (until) => {
    while (stack.length && stack.at(-1).end <= until) stack.pop();
  };
  for (const e of xs) {
    close(e.ts);
    const name = e.name === 'FunctionCall' || e.name === 'v8.callFunction' ? 'script (FunctionCall)' : e.name;
    self.set(name, (self.get(name) ?? 0) + e.dur / 1000);
    if (stack.length) {
      const parent = stack.at(-1);
      self.set(parent.name, self.get(parent.name) - e.dur / 1000);
    }
    stack.push({ name, end: e.ts + e.dur });
  }
  return [...self].filter(([, ms]) => ms > 0.05).sort((a, b) => b[1] - a[1]);
}

/** Self time by JS function (V8's sampling profiler) while act() runs. */
async function sampled(page, act) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await act();
  const { profile } = await cdp.send('Profiler.stop');
  const byFunction = new Map();
  const dt = (profile.endTime - profile.startTime) / 1000 / profile.samples.length;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n.id])));
  const name = (id) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    return `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
  };
  const callers = new Map();  // function -> the chain of its three nearest callers -> ms
  for (const id of profile.samples) {
    const key = name(id);
    byFunction.set(key, (byFunction.get(key) ?? 0) + dt);
    const chain = [];
    for (let p = parent.get(id); p !== undefined && chain.length < 7; p = parent.get(p)) chain.push(name(p).split(' ')[0]);
    const mine = callers.get(key) ?? new Map();
    callers.set(key, mine.set(chain.join(' < '), (mine.get(chain.join(' < ')) ?? 0) + dt));
  }
  return [...byFunction].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1])
    .map(([k, ms], i) => [i < 8 ? `${k}  <- ${[...callers.get(k)].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([c, t]) => `${c} (${t.toFixed(0)})`).join('; ')}` : k, ms]);
}

/** The tasks longer than `over` ms: start (ms from `start`) + duration, and the most self time inside. */
function tasks(mainEvents, start, over) {
  console.log(`\ntasks over ${over} ms: start ms + duration ms, the most self time inside`);
  for (const e of mainEvents.filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.dur > over * 1000)) {
    const inside = selfTimes(mainEvents, e.ts, e.ts + e.dur).slice(0, 5).map(([n, ms]) => `${n} ${ms.toFixed(0)}`).join(', ');
    console.log(`  ${((e.ts - start) / 1000).toFixed(0)} + ${(e.dur / 1000).toFixed(0)}: ${inside}`);
  }
}

const print = (title, rows, top = 18) => {
  const total = rows.reduce((s, [, ms]) => s + ms, 0);
  console.log(`\n${title}: ${total.toFixed(1)} ms of main-thread self time`);
  for (const [name, ms] of rows.slice(0, top)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${name}`);
};

/** The events of the page's renderer main thread (the renderer that parsed it or took its input). */
function mainThread(events) {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' &&
    events.some((x) => x.pid === e.pid && (x.name === 'ParseHTML' || x.name === 'EventDispatch')));
  return main ? events.filter((e) => e.pid === main.pid && e.tid === main.tid) : [];
}

const KINDS = [['layout and text', /layout|Layout|Shap/], ['style', /[Ss]tyle|CSS/], ['HTML parsing', /Pars|Token/],
  ['paint and commit', /[Pp]aint|Raster|Composit|Commit/], ['script', /Script|Function|Compile|v8/]];

/** One fresh load (empty cache, new renderer): its first contentful paint, and the renderer main
 *  thread's self time before it by kind; null when the trace missed that paint. */
async function traced(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await browser.startTracing(page, { categories: CATEGORIES });
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime);
  await page.waitForTimeout(300);  // the trace's own paint event comes a little later
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  await context.close();
  const mine = mainThread(events);
  const painted = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === mine[0]?.pid);
  if (!painted) return null;
  const kinds = Object.fromEntries([...KINDS.map(([k]) => [k, 0]), ['other', 0]]);
  for (const [name, ms] of selfTimes(mine, -Infinity, painted.ts)) {
    kinds[KINDS.find(([, re]) => re.test(name))?.[0] ?? 'other'] += ms;
  }
  return { fcp, all: Object.values(kinds).reduce((a, b) => a + b, 0), ...kinds };
}

/** The renderer main thread's self time before the first contentful paint, by kind, and that
 *  paint's time, over `loads` fresh loads (empty cache, new renderer) of the page as built and of
 *  the same page without its written first screen, in turns: what the first frame waits for. */
async function firstFrame(loads) {
  const built = readFileSync(new URL('../dist/index.html', import.meta.url), 'utf8');
  const bare = built.replace(/<div class="first-screen"[\s\S]*?(?=<i id="first-screen-end")/, '');
  if (bare === built) throw new Error('bench:profile paint: dist/index.html holds no written first screen; run npm run build');
  const pages = { 'as built': built, 'without its first screen': bare };
  const server = await serve(Object.fromEntries(Object.entries(pages).map(([v, html], i) => [`/profile-${i}.html`, html])));
  const browser = await chromium.launch(CHROMIUM);
  const runs = Object.fromEntries(Object.keys(pages).map((v) => [v, []]));
  try {
    for (let i = 0; i < loads; i++) {
      for (const [k, variant] of Object.keys(pages).entries()) {
        let load = null;  // a trace that missed its paint event is taken again
        for (let attempt = 0; !load && attempt < 3; attempt++) load = await traced(browser, `${server.base}profile-${k}.html`);
        if (!load) throw new Error('bench:profile paint: three traces in a row without their first-contentful-paint event');
        runs[variant].push(load);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const result = { date: new Date().toISOString().slice(0, 10), loads, variants: Object.fromEntries(Object.entries(runs).map(([v, rs]) =>
    [v, { first_paint_ms: spread(rs.map((r) => r.fcp)), main_thread_ms: Object.fromEntries(Object.keys(rs[0]).filter((k) => k !== 'fcp').map((k) => [k, quantile(rs.map((r) => r[k]), 0.5)])) }])) };
  console.log(`first contentful paint and the main thread's self time before it, ${loads} fresh loads each (median ms)`);
  for (const [v, r] of Object.entries(result.variants)) {
    console.log(`  ${v}: paint ${r.first_paint_ms.median.toFixed(0)} (${r.first_paint_ms.min.toFixed(0)}–${r.first_paint_ms.max.toFixed(0)}); ` +
      Object.entries(r.main_thread_ms).map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(', '));
  }
  mkdirSync(new URL('results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('results/profile-paint.json', import.meta.url), JSON.stringify(result, null, 1) + '\n');
  console.log('wrote bench/results/profile-paint.json');
}

// Types n words into the page's sentence at once (run inside the page).
function typeAtOnce(n) {
  const el = document.querySelector('attention-playground');
  const input = el.shadowRoot.querySelector('#c-sentence');
  performance.mark('long-start');
  input.value = Array.from({ length: n }, (_, i) => `w${i % 97}`).join(' ');
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

if (mode === 'paint') {
  await firstFrame(tokens);
  process.exit(0);
}
const server = await serve(PAGES, { gzip: true });
const browser = await chromium.launch(CHROMIUM);
const opened = (hash) => openSettled(browser, server.base, hash);
const startHash = mode === 'edits'
  ? `heads=4&d_model=64&sentence=${encodeURIComponent(Array.from({ length: tokens }, (_, i) => `w${(i * 7) % 50}`).join(' '))}`
  : mode === 'model' ? `model=tiny-lm&sentence=${encodeURIComponent('the cat sat on a mat '.repeat(Math.ceil(tokens / 21)).slice(0, tokens))}`
    : 'heads=4&d_model=64';
const characters = mode === 'model';
try {
  const cold = mode === 'cold' || mode === 'embed', address = server.base + (mode === 'embed' ? 'post-1.html' : '');
  const page = cold ? await browser.newPage({ viewport: { width: 1400, height: 900 } }) : await opened(startHash);
  await browser.startTracing(page, { categories: CATEGORIES });
  let edits = [];
  if (cold) {
    await page.goto(address);
    await page.locator('ap-heatmap').first().waitFor();
    await page.waitForTimeout(500);
  } else if (mode === 'long') {
    await page.evaluate(typeAtOnce, tokens);
    await page.waitForTimeout(2500);
  } else {
    edits = await page.evaluate(editSentence, { edits: 100, tokens, marks: true, characters });
  }
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const mainEvents = mainThread(events);
  const first = mainEvents.reduce((m, e) => (e.ts > 0 && e.ts < m ? e.ts : m), Infinity);
  if (cold) {
    print(`${mode === 'embed' ? 'a blog post' : 'cold start'}, navigation to 500 ms after the first heatmap`, selfTimes(mainEvents));
    tasks(mainEvents, first, 5);
    const fresh = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    print('script self time by function, navigation to the first heatmap (sampled)', await sampled(fresh, async () => {
      await fresh.goto(address);
      await fresh.locator('ap-heatmap').first().waitFor();
    }), 30);
  } else if (mode === 'long') {
    const start = mainEvents.find((e) => e.name === 'long-start')?.ts ?? first;
    print(`${tokens} tokens typed at once, the next 2.5 s`, selfTimes(mainEvents, start));
    tasks(mainEvents, start, 10);
    const fresh = await opened(startHash);
    print(`script self time by function, ${tokens} tokens typed at once (sampled)`, await sampled(fresh, async () => {
      await fresh.evaluate(typeAtOnce, tokens);
      await fresh.waitForTimeout(2500);
    }), 25);
  } else {
    // the edits' own marks, in the trace's clock
    const marks = mainEvents.filter((e) => e.name.startsWith('edit-') && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b'));
    const at = Object.fromEntries(marks.map((e) => [e.name, e.ts]));
    const windows = edits.map((t, k) => ({ k, work: t.work, from: at[`edit-${k + 1}-start`], to: at[`edit-${k + 1}-painted`] })).filter((w) => w.from && w.to);
    const sum = new Map();
    for (const w of windows) for (const [n, ms] of selfTimes(mainEvents, w.from, w.to)) sum.set(n, (sum.get(n) ?? 0) + ms);
    print(`all ${windows.length} edits at ${tokens} tokens`, [...sum].sort((a, b) => b[1] - a[1]));
    print('script self time by function over 100 more edits (sampled)', await sampled(page, () => page.evaluate(editSentence, { edits: 100, tokens, characters })), 30);
    const slow = [...windows].sort((a, b) => b.work - a.work).slice(0, Math.max(1, Math.ceil(windows.length / 20)));
    for (const w of slow) print(`edit ${w.k + 1} (work ${w.work.toFixed(1)} ms)`, selfTimes(mainEvents, w.from, w.to), 10);
  }
} finally {
  await browser.close();
  await server.close();
}
