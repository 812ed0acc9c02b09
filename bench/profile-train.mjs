// npm run bench:profile -- train [task]: where a training step's time goes, function by function,
// natively and in Chromium. The same C++ runs in both: natively under perf (attention-cli train),
// and in Chromium as the training module built with its functions' names (CMake option
// ATTENTION_WASM_NAMES, in build/wasm-profile), sampled by V8's profiler after the warm-up that
// the bench gives it. Each function's share of the samples times the time of a step gives its
// microseconds per step. Writes bench/results/profile-train.json, which BENCHMARKS.md shows.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { serve } from '../tests/e2e/serve.mjs';
import { CHROMIUM } from '../tests/e2e/harness.mjs';

const root = new URL('../', import.meta.url);
const path = (p) => new URL(p, root).pathname;
const WARM = 1500, STEPS = 6000;  // WARM as in bench/run.mjs: the engine's optimised tier by then

/** One name for a function in both builds: no return type, template arguments, parameters or
 *  namespaces, and no C library variant suffix (glibc's exp is __ieee754_exp_fma on a CPU with
 *  FMA, behind the exp@@GLIBC_2.29 wrapper). */
export function functionName(raw) {
  let name = raw.replace(/\((anonymous namespace)\)::|\{anonymous\}::/g, '').replace(/@.*$/, '');
  for (let before = ''; before !== name;) {
    before = name;
    name = name.replace(/<[^<>]*>/g, '').replace(/\([^()]*\)/g, '');
  }
  name = (name.trim().replace(/\s+(const|noexcept|&&?)$/g, '').split(/\s+/).at(-1) ?? '').replace(/::operator$/, '')
    .replace(/^(std::__2|std|Eigen::internal|Eigen|attention)::/, '').replace(/^__ieee754_(\w+?)(_fma4?|_avx2?|_sse2)?$/, '$1');
  return name || raw;
}

// Functions that one compiler inlines into their caller and the other keeps apart, counted with
// that caller on both sides, so that each row compares the same code: a product's row loops
// are written into it or called (shared_rows), differently by each compiler, and so are the
// softmax's numerators; in Chromium the binding's train_step holds the backward pass and the
// optimiser.
const INLINED_INTO = { 'small_product_detail::rows': 'multiply_small', 'small_product_detail::shared_rows': 'multiply_small', softmax_numerators: 'forward', softmax_rows_in_place: 'forward',
  train_step: 'Trainer::step', backward: 'Trainer::step', 'Optimizer::step': 'Trainer::step' };

/** The row of the profile a function's time is counted in. */
export const rowOf = (raw) => { const name = functionName(raw); return INLINED_INTO[name] ?? name; };

/** µs per step of each function, natively: perf's self-time shares over a run of attention-cli. */
function native(task) {
  if (spawnSync('perf', ['--version']).error) {
    console.error('bench:profile train: needs perf (Debian: apt install linux-perf)');
    process.exit(2);
  }
  const data = path('build/native/train.perf');
  const settings = JSON.stringify({ task, seed: 1 });
  const run = spawnSync('perf', ['record', '-q', '-F', '4000', '-o', data, path('build/native/attention-cli'), 'train', '-',
    '--steps', String(WARM + STEPS), '--every', String(WARM), '--time'], { input: settings, encoding: 'utf8' });
  if (run.status !== 0) {  // the CLI's one line, a bad task say
    console.error(`bench:profile train: ${run.stderr.trim().split('\n').at(-1)}`);
    process.exit(2);
  }
  const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
  const at = (step) => lines.find((l) => l.step === step).seconds;
  const usPerStep = (1e6 * (at(WARM + STEPS) - at(WARM))) / STEPS;  // as the bench times it
  const report = execFileSync('perf', ['report', '-i', data, '--no-children', '-F', 'overhead,sym', '--stdio'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const shares = new Map();
  for (const m of report.matchAll(/^\s+([\d.]+)%\s+\[[.k]\]\s+(.+?)\s*$/gm)) {
    const name = rowOf(m[2]);
    shares.set(name, (shares.get(name) ?? 0) + Number(m[1]) / 100);
  }
  return { usPerStep, perFunction: new Map([...shares].map(([k, s]) => [k, s * usPerStep])) };
}

/** µs per step of each function in Chromium: V8's sampling profiler over STEPS steps after WARM. */
async function inChromium(task) {
  const build = path('build/wasm-profile');
  // where Debian's Emscripten finds acorn, as scripts/build-wasm.sh sets it
  const env = { ...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') };
  execFileSync('cmake', ['--preset', 'wasm', '-B', build, '-DATTENTION_WASM_NAMES=ON'], { stdio: 'ignore', env });
  execFileSync('cmake', ['--build', build, '--target', 'attention-train-wasm', '-j2'], { stdio: 'inherit', env });
  const server = await serve({
    '/profile/train.html': '<!doctype html><link rel="icon" href="data:,"><script type="module">import create from "./attention-train.js"; window.train = await create(); window.ready = true;</script>',
    '/profile/attention-train.js': { type: 'text/javascript', body: readFileSync(`${build}/attention-train.mjs`) },
    '/profile/attention-train.wasm': { type: 'application/wasm', body: readFileSync(`${build}/attention-train.wasm`) },
  });
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage();
    await page.goto(`${server.base}profile/train.html`);
    await page.waitForFunction(() => window.ready === true);
    const steps = (count) => page.evaluate((count) => {
      const t0 = performance.now();
      for (let left = count; left > 0; left -= 100) train.step(Math.min(100, left));
      return performance.now() - t0;
    }, count);
    await page.evaluate((task) => train.start(JSON.stringify({ task, seed: 1 })), task);
    await steps(WARM);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    const ms = await steps(STEPS);
    const { profile } = await cdp.send('Profiler.stop');
    const usPerStep = (1000 * ms) / STEPS;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName || '(anonymous)']));
    const counted = profile.samples.filter((id) => nodes.get(id) !== '(idle)' && nodes.get(id) !== '(program)');
    const perFunction = new Map();
    for (const id of counted) {
      const name = rowOf(nodes.get(id));
      perFunction.set(name, (perFunction.get(name) ?? 0) + usPerStep / counted.length);
    }
    return { usPerStep, perFunction };
  } finally {
    await browser.close();
    await server.close();
  }
}

export async function profileTraining(task = 'copy') {
  const mine = native(task), theirs = await inChromium(task);
  const names = [...new Set([...mine.perFunction.keys(), ...theirs.perFunction.keys()])]
    .map((name) => ({ name, native_us: mine.perFunction.get(name) ?? 0, chromium_us: theirs.perFunction.get(name) ?? 0 }))
    .sort((a, b) => Math.max(b.native_us, b.chromium_us) - Math.max(a.native_us, a.chromium_us));
  const result = { date: new Date().toISOString().slice(0, 10), task, warm_up: WARM, steps: STEPS,
    us_per_step: { native: mine.usPerStep, chromium: theirs.usPerStep }, functions: names.slice(0, 14) };
  const us = (x) => (x ? x.toFixed(1) : '—').padStart(8);
  console.log(`training ${task}, µs per step: native ${mine.usPerStep.toFixed(0)}, Chromium ${theirs.usPerStep.toFixed(0)} (${(mine.usPerStep / theirs.usPerStep).toFixed(2)}× native's speed)`);
  console.log(`  ${'native'.padStart(8)} ${'Chromium'.padStart(8)}  function`);
  for (const f of result.functions) console.log(`  ${us(f.native_us)} ${us(f.chromium_us)}  ${f.name}`);
  mkdirSync(path('bench/results/'), { recursive: true });
  writeFileSync(path('bench/results/profile-train.json'), JSON.stringify(result, null, 1) + '\n');
  console.log('wrote bench/results/profile-train.json');
}
