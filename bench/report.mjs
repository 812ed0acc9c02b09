// BENCHMARKS.md and the time-against-n plot, from the results of bench/run.mjs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const IMPLS = ['wasm-chromium', 'wasm-node', 'native-sse2', 'native-march', 'plain-js', 'tfjs-wasm'];
const COLOURS = { 'wasm-chromium': '#d1495b', 'wasm-node': '#edae49', 'native-sse2': '#00798c', 'native-march': '#30638e', 'plain-js': '#777777', 'tfjs-wasm': '#66a182' };
const f = (v, digits = 3) => (v === undefined ? '—' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(digits));
const ms = (v) => v.toFixed(0);  // whole milliseconds (or microseconds)
const ratio = (a, b) => (a && b ? (a / b).toFixed(2) : '—');

function plot(kernel) {
  const panels = [{ d: 64, heads: 1, precision: 'f32' }, { d: 512, heads: 8, precision: 'f32' }];
  const W = 420, H = 300, L = 60, B = 40, T = 30;
  const ns = [8, 64, 256, 1024];
  const svg = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W * 2 + 20}" height="${H + 60}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`];
  panels.forEach((p, k) => {
    const rows = kernel.filter((r) => r.d === p.d && r.heads === p.heads && r.precision === p.precision);
    const all = rows.flatMap((r) => Object.values(r.ms));
    const lo = Math.log10(Math.min(...all)) - 0.1, hi = Math.log10(Math.max(...all)) + 0.1;
    const x = (n) => k * (W + 20) + L + (Math.log2(n / 8) / Math.log2(1024 / 8)) * (W - L - 20);
    const y = (ms) => T + (1 - (Math.log10(ms) - lo) / (hi - lo)) * (H - T - B);
    svg.push(`<text x="${k * (W + 20) + L}" y="18" font-size="13" font-weight="bold">d_model ${p.d}, ${p.heads} head${p.heads > 1 ? 's' : ''}, ${p.precision}: ms per forward pass</text>`);
    for (let e = Math.ceil(lo); e <= Math.floor(hi); e++) {
      svg.push(`<line x1="${x(8)}" x2="${x(1024)}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#ddd"/><text x="${x(8) - 6}" y="${y(10 ** e) + 4}" text-anchor="end">${10 ** e >= 1 ? 10 ** e : (10 ** e).toPrecision(1)}</text>`);
    }
    ns.forEach((n) => svg.push(`<text x="${x(n)}" y="${H - B + 16}" text-anchor="middle">${n}</text>`));
    svg.push(`<text x="${(x(8) + x(1024)) / 2}" y="${H - B + 32}" text-anchor="middle">tokens n (log scale)</text>`);
    for (const impl of IMPLS) {
      const pts = rows.filter((r) => r.ms[impl] !== undefined).map((r) => `${x(r.n).toFixed(1)},${y(r.ms[impl]).toFixed(1)}`);
      if (pts.length) svg.push(`<polyline fill="none" stroke="${COLOURS[impl]}" stroke-width="2" points="${pts.join(' ')}"/>`);
    }
  });
  IMPLS.forEach((impl, i) => svg.push(`<rect x="${L + i * 130}" y="${H + 30}" width="12" height="12" fill="${COLOURS[impl]}"/><text x="${L + i * 130 + 16}" y="${H + 40}">${impl}</text>`));
  svg.push('</svg>');
  return svg.join('\n');
}

/** A profile's results (npm run bench:profile -- paint|train), when one has been taken. */
const profile = (root, mode) => {
  const file = new URL(`bench/results/profile-${mode}.json`, root);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
};

export function report(r, root) {
  const paint = profile(root, 'paint'), steps = profile(root, 'train');
  writeFileSync(new URL('bench/results/time-vs-n.svg', root), plot(r.kernel) + '\n');
  const m = r.machine;
  const lines = [
    '# Benchmarks',
    '',
    'Figures from `npm run bench` (bench/run.mjs), every implementation measured in one run on one',
    `machine. They are measurements, not tests; \`npm test\` only runs the harness once at the smallest size.`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB, ${m.os}; SIMD: ${m.flags}. ${m.node}, ${m.chromium}, Emscripten ${(m.emcc.match(/\d+\.\d+\.\d+/) ?? ['?'])[0]}, ${m.gxx}. Date ${m.date}.`,
    '',
    '## The kernel: one attention forward pass',
    '',
    'Projections Q = X W_q, K, V, scaled dot-product scores, a stable softmax, the weighted values, and',
    'with 8 heads the output projection W_o. Median of repeated runs (at least 5, or 3 at n = 1024 with',
    'd_model 512, and at least 0.2 s), each run a batch of the kernel lasting at least 10 ms (Chromium\'s',
    'clock counts in steps of 0.1 ms), milliseconds. native-sse2, wasm-node, wasm-chromium and tfjs-wasm',
    'are timed in turns, and the whole table three times over, so a cell\'s three rounds are minutes',
    'apart; each side gives its fastest round. This machine runs in spells about 1.4 times slower, which',
    'can cover one side\'s turn of a cell and not the other\'s; a spell only adds time, so a side\'s',
    'fastest round is the one no spell touched (`bench/results/kernel.json` keeps every round). Each',
    'round runs in a new Chromium page and a new instance of the module in Node, as native runs each',
    'turn in a new process, since a slowness can also last a page\'s life. Every',
    'product runs in one register-blocked loop',
    'written with GCC/Clang vector types (cpp/include/attention/kernel/panel_product.hpp), and so does the',
    'softmax (softmax_numerators.hpp, with its own exp), so the native and the wasm builds run the same',
    'code. The weights are drawn before the timing',
    'and kept across runs in the panels that loop reads (W_q, W_k and W_v side by side), as the weights',
    'stay the same while a learner types; each run packs one head\'s K^T and V, and each product copies',
    'the rows of A it multiplies, four at a time, interleaved. TF.js and plain JS likewise get their',
    'weight tensors and arrays once. Implementations:',
    '',
    '- **wasm-chromium**, **wasm-node**: our kernel built with Emscripten (`-O3 -msimd128 -msse4.1`: the vector types and Eigen\'s SSE code as wasm SIMD, see cpp/wasm-compat; its own module `build/wasm/attention-bench.mjs`, so the page core carries no benchmark code), in headless Chromium and in Node;',
    '- **native-sse2**: the same kernel built natively for baseline x86-64 (SSE2, the same 128-bit width as wasm SIMD); **native-march**: with `-march=native`;',
    '- **plain-js**: a tutorial-style JavaScript version with typed arrays (bench/plain.mjs);',
    '- **tfjs-wasm**: TensorFlow.js 4.22 on `@tensorflow/tfjs-backend-wasm`, in Node (float32 only).',
    '',
    '![time against n](bench/results/time-vs-n.svg)',
    '',
  ];
  const groups = [...new Set(r.kernel.map((k) => `${k.d}|${k.heads}|${k.precision}`))];
  for (const g of groups) {
    const [d, heads, precision] = g.split('|');
    lines.push(`### d_model ${d}, ${heads} head${heads === '1' ? '' : 's'}, ${precision}`, '',
      `| n | ${IMPLS.join(' | ')} | wasm ÷ native-sse2 throughput | TF.js ÷ wasm time | plain JS ÷ wasm time |`,
      `|---|${IMPLS.map(() => '---:').join('|')}|---:|---:|---:|`);
    for (const row of r.kernel.filter((k) => `${k.d}|${k.heads}|${k.precision}` === g)) {
      const w = row.ms['wasm-chromium'];
      lines.push(`| ${row.n} | ${IMPLS.map((i) => f(row.ms[i])).join(' | ')} | ${ratio(row.ms['native-sse2'], w)} | ${ratio(row.ms['tfjs-wasm'], w)} | ${ratio(row.ms['plain-js'], w)} |`);
    }
    lines.push('');
  }
  const ia = r.interactive;
  const runs = (x, digits = 1) => `${f(x.median, digits)} (${f(x.min, digits)}–${f(x.max, digits)})`;
  const big = ia.find((x) => x.longest_block_ms !== undefined);
  lines.push('## The page', '',
    `Every page figure is taken in ${big.longest_block_ms.runs.length} runs, each in a fresh page, and given as the median of the runs with their least and most in brackets; a target is met only when the worst run meets it.`, '',
    '### Input to frame (Chromium, 4 heads, d_model 64)', '',
    `An edit of the sentence every 100 ms, each just after a frame, ${ia[0].edits} edits per run (bench/page-edits.mjs). **Work**: the main thread's time from the input event to the painted frame that shows the new numbers (compute or the wait for the worker, unpacking, rendering the element and the heatmaps in view, then that frame's style, layout and paint), leaving out the idle wait for the display's next frame; when it is under 16.7 ms the numbers are on the very next frame at 60 Hz. **Wall clock**: the same with that wait, so never much under one frame. Heatmaps off screen catch up in idle time and are not counted here; the longest block below counts them.`, '',
    '| tokens | work median ms | work p95 ms | wall clock median ms | wall clock p95 ms |', '|---:|---:|---:|---:|---:|');
  for (const row of ia.filter((x) => x.p95_ms !== undefined)) {
    lines.push(`| ${row.tokens} | ${runs(row.median_ms)} | ${runs(row.p95_ms)} | ${runs(row.frame_median_ms)} | ${runs(row.frame_p95_ms)} |`);
  }
  lines.push('', `At ${big.tokens} tokens the longest main-thread block (PerformanceObserver \`longtask\`, from the input to a second after the frame, idle catch-up included) was **${runs(big.longest_block_ms, 0)} ms**, and input to frame ${runs(big.input_to_frame_ms, 0)} ms.`, '');
  const c = r.coldstart;
  const loads = (x) => `median **${f(x.median, 0)} ms** after navigation start (${x.runs.map((v) => v.toFixed(0)).join(', ')})`;
  lines.push('### Cold start (localhost, empty cache)', '',
    c.written_loads ? 'The page holds its first screen as HTML (`web/first-screen.html`, written by `scripts/first-screen.mjs` from what the page draws), so the first render needs only the files the browser waits for before it paints (its render-blocking ones); the page\'s code, fetched meanwhile, runs after that first frame and then takes over. Its CSS is written into it, so the one file the first frame waits for is linked.js (which hides the copy for a link with its own settings), first in the head; and the copy\'s text uses few font sizes, because a new renderer asks the browser process about each one in a synchronous call, which waits whenever that process is busy.' : '',
    '', '| file | bytes | gzip -9 |', '|---|---:|---:|');
  for (const file of c.files) lines.push(`| ${file.file} | ${file.raw} | ${file.gzip} |`);
  lines.push(`| **total before the first render** | ${c.raw_total} | **${c.gzip_total}** (${(c.gzip_total / 1024).toFixed(1)} KB) |`, '',
    `First heatmap on screen, ${c.first_heatmap_ms.runs.length} loads: ${loads(c.first_heatmap_ms)}: the first heatmap with its cells on screen; ${written(c)}. It was there in the first frame the browser drew in ${c.first_frame_loads} of ${c.first_heatmap_ms.runs.length} loads, and is then timed by that frame's presentation (the browser's \`first-contentful-paint\`); in a later frame, by the first timer after it, which also waits for the page's work queued before that timer.`,
    `The first heatmap drawn by the page's code: ${loads(c.live_heatmap_ms)}; the files that had arrived by then are ${(c.live_gzip_total / 1024).toFixed(1)} KB gzip.`,
    `The browser's own first paint (its \`first-paint\` entry, when the frame reached the screen): ${loads(c.first_paint_ms)}.`, '');
  if (paint) {
    const kinds = Object.keys(Object.values(paint.variants)[0].main_thread_ms);
    lines.push(`What the first frame waits for (\`npm run bench:profile -- paint\`, ${paint.date}): the renderer's main thread before the first contentful paint, ${paint.loads} fresh loads each of the page as built and of the same page without its written first screen, in turns; median ms. The loads are traced, so slower than the ones above.`, '',
      `| page | first paint | ${kinds.map((k) => (k === 'all' ? 'main thread, all' : k)).join(' | ')} |`, `|---|${kinds.map(() => '---:').join('|')}|---:|`,
      ...Object.entries(paint.variants).map(([v, x]) => `| ${v} | ${ms(x.first_paint_ms.median)} (${ms(x.first_paint_ms.min)}–${ms(x.first_paint_ms.max)}) | ${kinds.map((k) => ms(x.main_thread_ms[k])).join(' | ')} |`), '');
  }
  if (r.arrivals) lines.push(...arrivalLines(r.arrivals));
  const mem = r.memory;
  const last = Object.keys(mem).find((k) => k !== 'after_10');
  lines.push('### Memory (wasm heap, Node)', '', '| after | heap in use (bytes) | heap size | wasm memory | live embind handles |', '|---|---:|---:|---:|---:|');
  for (const k of ['after_10', last]) lines.push(`| ${k.replace('after_', '')} runs | ${mem[k].heap_in_use} | ${mem[k].heap_size} | ${mem[k].memory_bytes} | ${mem[k].handles} |`);
  lines.push('');

  const tr = r.training;
  const rate = (x) => `${f(x.median, 0)} (${f(x.min, 0)}–${f(x.max, 0)})`;
  lines.push('## Training (Watch it learn)', '',
    `Optimisation steps per second at the default sizes (d_model 16, 2 heads, learned positions, Adam, batch 32), ${tr.tasks[0].steps_per_second.native.runs.length} runs (median, least–most): natively (\`attention-cli train --time\`) and the page's wasm core in Node and in Chromium, after ${tr.warm_up} steps of warm-up (the engine optimises the wasm in the background while it runs; a fresh module starts in its quick tier). In each run each side times ${tr.steps} steps ${tr.spans} times, in turns with the other sides and each time from a fresh start and warm-up, and gives its fastest: the machine's slow spells only add time, and ${tr.steps} steps (about 0.1 s) can lie inside one. The ratio is each run's Chromium figure over that run's native one. The page trains in a Web Worker and adds a snapshot per frame.`, '',
    '| task | native | wasm-node | wasm-chromium | Chromium ÷ native |', '|---|---:|---:|---:|---:|');
  for (const row of tr.tasks) {
    const s = row.steps_per_second, q = row.chromium_vs_native;
    lines.push(`| ${row.task} | ${rate(s.native)} | ${rate(s['wasm-node'])} | ${rate(s['wasm-chromium'])} | ${q.median.toFixed(2)} (${q.min.toFixed(2)}–${q.max.toFixed(2)}) |`);
  }
  lines.push('', `In a fresh page, before that warm-up, the first ${tr.steps} steps of copy ran at ${rate(tr.cold_copy_chromium)} steps/s: what a learner sees in the first second of training.`, '');
  if (steps) {
    lines.push(`Where a step goes (\`npm run bench:profile -- train\`, ${steps.date}, ${steps.task}): microseconds per step by function, natively under perf and in Chromium under V8's sampling profiler (the training module built with its functions' names), after ${steps.warm_up} steps. A step took ${ms(steps.us_per_step.native)} µs natively and ${ms(steps.us_per_step.chromium)} in Chromium. A function that one compiler inlines and the other keeps apart is counted with its caller on both sides (\`INLINED_INTO\` in bench/profile-train.mjs), so each row compares the same code.`, '',
      '| function | native µs | Chromium µs | Chromium ÷ native |', '|---|---:|---:|---:|',
      ...steps.functions.map((x) => `| ${x.name} | ${x.native_us ? f(x.native_us, 1) : '—'} | ${x.chromium_us ? f(x.chromium_us, 1) : '—'} | ${ratio(x.chromium_us, x.native_us)} |`), '');
  }

  if (r.model) lines.push(...modelLines(r.model));
  if (r.copying) lines.push(...copyingLines(r.copying));

  // Targets, honestly.
  const trainVsNative = tr.tasks.flatMap((t) => t.chromium_vs_native.runs);
  const page = pageTargets(r);
  const p = (x) => (x ? 'met' : '**not yet**');
  lines.push('## Targets', '', 'Page and training figures: the median of the runs (least–most); met only when the worst run meets the target. The kernel\'s ratios come from the run of the tables above (each side of a cell its fastest of three rounds) and from each `npm run bench -- --only=kernel` run after it (kept in `bench/results/kernel-checks.json`, which a full run empties): a kernel target is met only when it holds in the full run and in at least two kernel-only runs.', '', '| target | measured | |', '|---|---|---|',
    ...page.map(([target, figure, met]) => `| ${target} | ${figure} | ${p(met)} |`),
    ...(r.arrivals ? arrivalTargets(r.arrivals) : []).map(([target, figure, met]) => `| ${target} | ${figure} | ${p(met)} |`),
    ...(r.model ? modelTargets(r.model) : []).map(([target, figure, met]) => `| ${target} | ${figure} | ${p(met)} |`),
    ...(r.copying ? copyingTargets(r.copying) : []).map(([target, figure, met]) => `| ${target} | ${figure} | ${p(met)} |`),
    ...kernelRows(r.kernel, r.kernelChecks ?? []),
    `| training in Chromium ≥ 0.9× native steps per second | ${range(trainVsNative)} | ${p(Math.min(...trainVsNative) >= 0.9)} |`,
    `| flat wasm heap across 10,000 recomputes | ${mem.after_10.heap_in_use} → ${mem[last].heap_in_use} bytes | ${p(mem.after_10.heap_in_use === mem[last].heap_in_use)} |`,
    ...whyNot(page, trainVsNative, paint, steps),
    '', 'Run it again: `npm run bench` (results in `bench/results/`); the page part alone, with its targets: `npm run bench -- --only=page`; the kernel\'s tables alone, added to the rows above: `npm run bench -- --only=kernel`; the arrivals or the trained model alone, kept beside the last full run: `--only=arrivals`, `--only=model`. Where the milliseconds go: `npm run bench:profile -- edits 32`, `-- cold`, `-- paint` (the first frame) or `-- train` (a training step, function by function).', '');
  writeFileSync(new URL('BENCHMARKS.md', root), lines.join('\n'));
}

const KNOWN = { multiply_small: "the model's matrix products", forward: 'the forward pass and its softmax, products aside',
  'Trainer::step': 'the backward pass and the optimiser, products aside', exp: 'the C library' };

/** Why a target is not met, from the profiles: what the first frame waits for, where a training
 *  step's time goes. */
function whyNot(page, trainVsNative, paint, steps) {
  const why = [];
  const first = page.find(([target]) => target.startsWith('first heatmap'));
  if (first && !first[2] && paint) {
    const [built, bare] = Object.values(paint.variants).map((v) => v.main_thread_ms);
    const more = Object.keys(built).filter((k) => k !== 'all').map((k) => [k, built[k] - bare[k]]).sort((a, b) => b[1] - a[1]).slice(0, 3);
    why.push(`- First heatmap: the first frame holds the page's written first screen, and the page's code runs after that frame, so the frame waits for the browser's own work on the HTML and CSS. Before the first paint the main thread worked ${ms(built.all)} ms on the page as built and ${ms(bare.all)} ms on the same page without the written screen (median of the traced loads under Cold start); the written screen's share is mostly ${more.map(([k, x]) => `${k} (${ms(x)} ms)`).join(', ')}.`);
  }
  if (Math.min(...trainVsNative) < 0.9 && steps) {
    const gaps = steps.functions.filter((x) => x.native_us && x.chromium_us).sort((a, b) => (b.chromium_us - b.native_us) - (a.chromium_us - a.native_us)).slice(0, 4);
    const what = (name) => (KNOWN[name] ? `${name} (${KNOWN[name]})` : name);
    why.push(`- Training: the same C++ takes ${ms(steps.us_per_step.chromium)} µs a step in Chromium and ${ms(steps.us_per_step.native)} natively (the profile under Training), compiled by GCC natively and by Emscripten's clang, then V8, in Chromium. The largest differences: ${gaps.map((x) => `${what(x.name)} ${ms(x.native_us)} → ${ms(x.chromium_us)} µs`).join(', ')}. GCC writes the products' row loops into each of their callers; the wasm does so only in the products of whole matrices, and cpp/include/attention/kernel/small_product.hpp says why.`);
  }
  return why.length ? ['', 'Not met yet, and why:', '', ...why] : [];
}

const range = (xs) => `${Math.min(...xs).toFixed(2)}× to ${Math.max(...xs).toFixed(2)}×`;

/** The kernel's rows of the targets: the full run's figures and, after them, each kernel-only
 *  run's; met when all of them hold and there are at least two kernel-only runs. */
function kernelRows(kernel, checks) {
  return kernelTargets(kernel).map(([target, figure, met], i) => {
    const again = checks.map((c) => c.targets[i]);
    const all = met && again.every(([, , ok]) => ok);
    const status = !all ? '**not yet**' : again.length >= 2 ? 'met' : `met in ${1 + again.length} of 3 runs so far`;
    const more = again.length ? `; kernel-only runs: ${again.map(([, x, ok]) => (ok ? x : `**${x}**`)).join('; ')}` : '';
    return `| ${target} | ${figure} in the full run${more} | ${status} |`;
  });
}

/** The kernel's ratio targets in one run of its tables: [target, the ratios measured, met]. */
export function kernelTargets(kernel) {
  const f32 = kernel.filter((k) => k.precision === 'f32');
  const wasmVsNative = kernel.filter((k) => k.n >= 64).map((k) => k.ms['native-sse2'] / k.ms['wasm-chromium']);
  const tfVsWasm = f32.map((k) => k.ms['tfjs-wasm'] / k.ms['wasm-chromium']);
  const tfVsWasm64 = f32.filter((k) => k.d === 64).map((k) => k.ms['tfjs-wasm'] / k.ms['wasm-chromium']);
  return [
    ['wasm ≥ 0.9× native SSE2 throughput at every size with n ≥ 64', range(wasmVsNative), Math.min(...wasmVsNative) >= 0.9],
    ['wasm faster than TF.js wasm at every size (float32)', range(tfVsWasm), Math.min(...tfVsWasm) > 1],
    ['wasm ≥ 5× faster than TF.js wasm at d_model 64', range(tfVsWasm64), Math.min(...tfVsWasm64) >= 5],
  ];
}

/** How long the first heatmap takes by each way of arriving (bench/arrivals.mjs). */
function arrivalLines(a) {
  const networks = Object.keys(a), arrivals = Object.keys(a[networks[0]]);
  const { first_heatmap_ms: any, loads } = a[networks[0]][arrivals[0]];
  const out = ['### Arriving by a link or a blog post', '',
    `The first heatmap with its cells on screen, from navigation start, by each way a reader arrives: the home page (its first screen written into it), a shared link (\`#sentence=…&heads=2&d_model=8&seed=7\`, whose numbers the page writes into that screen), a blog post that loads \`attention-playground.js\` with one or three elements, and the trained model by a link (\`#model=tiny-lm&sentence=zebra naps\`) and by a post (\`<attention-playground model="tiny-lm" sentence="zebra jumps" view="weights" controls="none">\`), whose weights are part of what the reader waits for (on localhost only). ${any.runs.length} runs of ${loads[0].length} loads each, every load in a fresh browser context (an empty cache), the files served gzipped; each figure is the median of the runs' medians, with the least and most of them. The bytes are those the browser had received by then (gzip, as sent), whether or not the heatmap needed them. Fast 3G is Chromium's network emulation at 1.6 Mbit/s down and 150 ms latency. A load that fails is tried again, twice, and left out if it fails a third time${failures(a)}.`, '',
    `| arrives by | ${networks.map((n) => `${n}: first heatmap ms | ${n}: KB before it`).join(' | ')} |`, `|---|${networks.map(() => '---:|---:').join('|')}|`];
  for (const arrival of arrivals) {
    out.push(`| ${arrival} | ${networks.map((n) => {
      const x = a[n][arrival];
      if (!x) return '— | —';
      return `${f(x.first_heatmap_ms.median, 0)} (${f(x.first_heatmap_ms.min, 0)}–${f(x.first_heatmap_ms.max, 0)}) | ${f(x.gzip_kb.median, 1)}`;
    }).join(' | ')} |`);
  }
  return [...out, ''];
}

/** The targets for a shared link and a blog post: met only when the worst run meets them. */
export function arrivalTargets(a) {
  const local = a.localhost, slow = a['Fast 3G'];
  const ms = (x) => `${f(x.median, 0)} ms (${f(x.min, 0)}–${f(x.max, 0)})`;
  const rows = [];
  for (const arrival of ['shared link', 'blog post, 1 element', 'blog post, 3 elements']) {
    const x = local[arrival];
    rows.push([`${arrival}: first heatmap ≤ 200 ms on localhost`, ms(x.first_heatmap_ms), x.first_heatmap_ms.max <= 200],
      [`${arrival}: ≤ 100 KB gzip before the first heatmap`, `${f(x.gzip_kb.median, 1)} KB (${f(x.gzip_kb.min, 1)}–${f(x.gzip_kb.max, 1)})`, x.gzip_kb.max <= 100]);
  }
  for (const arrival of ['blog post, 1 element', 'blog post, 3 elements']) {
    const x = slow[arrival];
    rows.push([`${arrival}: first heatmap ≤ 1.5 s on Fast 3G`, ms(x.first_heatmap_ms), x.first_heatmap_ms.max <= 1500]);
  }
  // the trained model against the home page of the same run (each run's medians)
  const home = local['home page'].first_heatmap_ms.runs;
  for (const arrival of ['model link', 'model post'].filter((name) => local[name])) {
    const x = local[arrival], ratios = x.first_heatmap_ms.runs.map((v, run) => v / home[run]);
    rows.push([`${arrival}: first heatmap ≤ 1.5 × the home page's on localhost`,
      `${ratios.map((r) => `${f(r, 2)}×`).join(', ')} (${ms(x.first_heatmap_ms)})`, Math.max(...ratios) <= 1.5],
    [`${arrival}: ≤ 300 KB gzip before the first heatmap, the weights included`, `${f(x.gzip_kb.median, 1)} KB (${f(x.gzip_kb.min, 1)}–${f(x.gzip_kb.max, 1)})`, x.gzip_kb.max <= 300]);
  }
  return rows;
}

/** The loads left out after three failed tries, said where there were any. */
function failures(a) {
  const out = Object.entries(a).flatMap(([network, byArrival]) => Object.entries(byArrival)
    .filter(([, x]) => x.failed).map(([arrival, x]) => `${network}, ${arrival}: ${x.failed}`));
  return out.length ? ` (left out: ${out.join('; ')})` : '';
}

/** Crafted links and posts: none blocks its page more than 200 ms longer than the plain link in
 *  the same run (the worst run decides), and the model's link no longer than the plain link. */
export function hostileTargets(rows, baseline, modelLink) {
  const ms = (x) => `${Math.round(x.median)} ms (${Math.round(x.min)} to ${Math.round(x.max)})`;
  return rows.filter((r) => r.over_baseline_ms && r.arrival !== baseline).flatMap((r) => [
    [`opening ${r.arrival}: longest task ≤ 200 ms over ${baseline}'s`, ms(r.over_baseline_ms), r.over_baseline_ms.max <= 200],
    ...(r.arrival === modelLink ? [[`opening ${r.arrival}: longest task no longer than ${baseline}'s`, ms(r.over_baseline_ms), r.over_baseline_ms.max <= 0]] : []),
  ]);
}

/** The trained model: what its heads do, how well it predicts, its keystroke and its training. */
function modelLines(m) {
  const run = (x, digits = 1) => `${f(x.median, digits)} (${f(x.min, digits)}–${f(x.max, digits)})`;
  const h = m.heads, s = m.steps_per_second;
  return ['## The trained model', '',
    `The shipped weights (\`models/tiny-lm.bin\`), read through the core: each head's scores on the probe, ${PROBE}, the best head of each pattern beside the same model before training; the held-out loss against the unigram baseline (the tokens' frequencies alone), in nats per character, from the model's card. Model mode's input to frame at ${m.tokens} tokens, ${m.edits} edits per run, measured as the page's typing above. Training: a step of /learn/'s language-model task (batch 16, windows of 128 tokens) natively (\`attention-train-model\`) and in a fresh Chromium page (after ${m.training.warm_up} steps of warm-up), ${m.training.steps} steps ${m.training.spans} times a side, in turns, each side's fastest kept; and the seconds /learn/'s task, with its defaults, takes in the tab (its steps alone, in steps of 50) until the best induction score reaches 0.3, and until the copy score below (on learner sentences said twice, read from the tab's weights every 100 steps) passes 0.5. ${m.p95_ms.runs.length} runs, median (least–most).`, '',
    '| figure | measured |', '|---|---:|',
    `| best previous-token head on the probe | ${f(h.previous_token)} (untrained ${f(h.untrained.previous_token)}) |`,
    `| best induction head on the probe | ${f(h.induction)} (untrained ${f(h.untrained.induction)}) |`,
    `| held-out loss, nats per character | ${f(m.held_out_loss)} (unigram baseline ${f(m.unigram_loss)}) |`,
    `| model mode, input to frame p95 (work), ms | ${run(m.p95_ms)} |`,
    `| model mode, input to frame p95 (wall clock), ms | ${run(m.frame_p95_ms)} |`,
    `| training steps per second, native | ${run(s.native)} |`,
    `| training steps per second, Chromium | ${run(s['wasm-chromium'])} |`,
    ...(m.induction_0_3_seconds ? [`| seconds until an induction score of 0.3 in the tab | ${run(m.induction_0_3_seconds, 0)} (steps ${m.induction_0_3_step.join(', ')}) |`] : []),
    ...(m.copy_0_5_seconds ? [`| seconds until the copy score on learner sentences said twice passes 0.5 in the tab | ${run(m.copy_0_5_seconds, 0)} (steps ${m.copy_0_5_step.join(', ')}) |`] : []),
    ''];
}
const PROBE = '50 random word pieces repeated twice';

/** The trained model's targets: met only when the worst run meets them. */
export function modelTargets(m) {
  const ms = (x) => `${f(x.median, 1)} ms (${f(x.min, 1)}–${f(x.max, 1)})`;
  const q = m.chromium_vs_native;
  return [
    [`a head with induction score ≥ 0.5 on ${PROBE}`, `${f(m.heads.induction)} (untrained ${f(m.heads.untrained.induction)})`, m.heads.induction >= 0.5],
    [`a head with previous-token score ≥ 0.8 on ${PROBE}`, `${f(m.heads.previous_token)} (untrained ${f(m.heads.untrained.previous_token)})`, m.heads.previous_token >= 0.8],
    ['held-out loss below the unigram baseline', `${f(m.held_out_loss)} against ${f(m.unigram_loss)} nats per character`, m.held_out_loss < m.unigram_loss],
    [`model mode: input to frame p95 ≤ 16 ms at ${m.tokens} tokens (work)`, ms(m.p95_ms), m.p95_ms.max <= 16],
    ['language-model training in Chromium ≥ 0.9× native steps per second', `${q.median.toFixed(2)}× (${q.min.toFixed(2)}–${q.max.toFixed(2)})`, q.min >= 0.9],
  ];
}

/** The trained model on sentences a learner types, each said twice (bench/copying.mjs). */
function copyingLines(c) {
  return ['## The trained model on what learners type', '',
    `${c.sentences} sentences of two to ten words written for the benchmark (\`bench/learner-sentences.txt\`, none of them in the corpus), each said twice with a space between, read by the shipped model through the core. For each, the rows of the second copy whose token repeats the one the copy's length back, counted as the page's caption counts them: on how many the last layer's best copying head (head ${c.head} of layer ${c.layer}, from 0: the one with the most such rows on average) puts its largest weight on the token after the earlier twin, and its mean weight there; and on how many of those rows that have a next token the model's guess (the argmax of \`log_probs\`) is it. Beside them, what the tokens allow: the share of the rows whose token occurs once before them, its twin alone (a head that finds the twin by its token alone splits its weight between the places after every earlier occurrence). The model is deterministic: one run.`, '',
    '| sentence | rows on the target | mean weight there | next token right | rows whose token occurs once before |', '|---|---:|---:|---:|---:|',
    ...c.per_sentence.map((x) => `| ${x.sentence} | ${x.hits} of ${x.rows} | ${f(x.weight, 2)} | ${x.guessed} of ${x.of} | ${x.one_twin === undefined ? '' : f(x.one_twin, 2)} |`),
    ...(c.one_twin === undefined ? [] : ['', `Rows whose token occurs once before them: ${f(c.one_twin, 2)} on average, ${f(c.worst_one_twin, 2)} for the sentence with fewest.`]), ''];
}

/** The trained model copies English: the targets on learner sentences said twice. */
export function copyingTargets(c) {
  return [
    ['learner sentences said twice: rows whose largest weight is on the token after the twin ≥ 0.85 on average', f(c.hits, 2), c.hits >= 0.85],
    ['learner sentences said twice: ≥ 0.6 of the rows for every sentence', `${f(c.worst_hits, 2)} ("${c.worst_sentence}")`, c.worst_hits >= 0.6],
    ['learner sentences said twice: mean weight on the target ≥ 0.6', f(c.weight, 2), c.weight >= 0.6],
    ['learner sentences said twice: next-token guess right on ≥ 0.85 of the second copy\'s rows', f(c.guess, 2), c.guess >= 0.85],
  ];
}

/** Which heatmap came first on screen: the one written into the page, or the code's. */
const written = (c) => {
  const loads = c.first_heatmap_ms.runs.length;
  return c.written_loads === loads ? `the one written into the page in all ${loads} loads` : `the one written into the page in ${c.written_loads} of ${loads} loads, the code's in the others`;
};

/** The page's targets: [target, the figure measured, met], each met only when its worst run meets it. */
export function pageTargets(r) {
  const ia = r.interactive, c = r.coldstart;
  const runs = (x, digits = 1) => `${f(x.median, digits)} ms (${f(x.min, digits)}–${f(x.max, digits)})`;
  const at = (t) => ia.find((x) => x.tokens === t && x.p95_ms !== undefined);
  const big = ia.find((x) => x.longest_block_ms !== undefined);
  return [
    ...[[32, 16], [128, 33]].filter(([t]) => at(t)).map(([t, ms]) => [`input to frame p95 ≤ ${ms} ms at ${t} tokens (work)`, runs(at(t).p95_ms), at(t).p95_ms.max <= ms]),
    [`no main-thread block > 50 ms at ${big.tokens} tokens`, runs(big.longest_block_ms, 0), big.longest_block_ms.max <= 50],
    ['first heatmap ≤ 300 ms on localhost', `${runs(c.first_heatmap_ms, 0)}; ${written(c)}`, c.first_heatmap_ms.max <= 300],
    ['≤ 120 KB gzip before the first render', `${(c.gzip_total / 1024).toFixed(1)} KB`, c.gzip_total <= 120 * 1024],
  ];
}
