// BENCHMARKS.md from the bench's results: the targets table (a kernel target with the kernel-only
// runs after the full one), and for each target not met the reason the profiles give
// (npm run bench:profile -- paint | train), written from their numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { kernelTargets, report } from '../../bench/report.mjs';

const results = new URL('../../bench/results/', import.meta.url);
const PARTS = ['machine', 'kernel', 'interactive', 'coldstart', 'memory', 'training'];
const committed = () => Object.fromEntries(PARTS.map((p) => [p, JSON.parse(readFileSync(new URL(`${p}.json`, results), 'utf8'))]));

/** BENCHMARKS.md as report() writes it into a scratch checkout holding `profiles`. */
function written(r, profiles) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
  try {
    cpSync(results.pathname, join(dir, 'bench/results'), { recursive: true, filter: (src) => !/profile-/.test(src) });
    for (const mode of profiles) cpSync(new URL(`profile-${mode}.json`, results).pathname, join(dir, `bench/results/profile-${mode}.json`));
    report(r, pathToFileURL(`${dir}/`));
    return readFileSync(join(dir, 'BENCHMARKS.md'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const row = (md, target) => md.split('\n').find((l) => l.startsWith(`| ${target}`));

test('the committed results have both profiles behind them', () => {
  for (const mode of ['paint', 'train']) assert.ok(existsSync(new URL(`profile-${mode}.json`, results)), `bench/results/profile-${mode}.json`);
});

test('a target whose worst run misses it is not met, and the profile says where the time went', () => {
  const r = committed();
  r.coldstart.first_heatmap_ms.max = 301;  // one slow load of the run
  for (const t of r.training.tasks) t.chromium_vs_native.runs = [0.95, 0.89, 0.97];
  const md = written(r, ['paint', 'train']);
  assert.match(row(md, 'first heatmap ≤ 300 ms'), /–301\).*\*\*not yet\*\*/);
  assert.match(row(md, 'training in Chromium'), /0\.89× to 0\.97×.*\*\*not yet\*\*/);
  const train = JSON.parse(readFileSync(new URL('profile-train.json', results), 'utf8'));
  const widest = train.functions.filter((f) => f.native_us && f.chromium_us).sort((a, b) => (b.chromium_us - b.native_us) - (a.chromium_us - a.native_us))[0];
  const why = md.slice(md.indexOf('Not met yet, and why:'));
  assert.match(why, /- First heatmap: .* worked \d+ ms on the page as built and \d+ ms on the same page without the written screen/);
  assert.match(why, new RegExp(`- Training: the same C\\+\\+ takes ${Math.round(train.us_per_step.chromium)} µs a step in Chromium and ${Math.round(train.us_per_step.native)} natively`));
  assert.ok(why.includes(`${widest.name} (`), `the widest gap, ${widest.name}, is named with what it is`);
  assert.match(md, /\| multiply_small \| [\d.]+ \| [\d.]+ \| [\d.]+ \|/, 'the per-function table');
});

test('met targets give no reasons, and a report without profiles still says what is not met', () => {
  const r = committed();
  r.coldstart.first_heatmap_ms.max = 300;
  for (const t of r.training.tasks) t.chromium_vs_native.runs = [0.9, 1.1, 1.0];
  assert.ok(!written(r, ['paint', 'train']).includes('Not met yet'));
  r.coldstart.first_heatmap_ms.max = 400;
  const bare = written(r, []);
  assert.match(row(bare, 'first heatmap ≤ 300 ms'), /\*\*not yet\*\*/);
  assert.ok(!bare.includes('Not met yet') && !bare.includes('Where a step goes'), 'no profile, no reasons made up');
});

test('a kernel target is met only when the full run and two kernel-only runs after it hold it', () => {
  const r = committed();
  const ratio = 'wasm ≥ 0.9× native SSE2 throughput';
  const [full] = kernelTargets(r.kernel);
  assert.ok(full[2], 'the committed full run holds the ratio target');
  const check = (figure, met) => ({ date: '2026-11-26', targets: kernelTargets(r.kernel).map((t, i) => (i === 0 ? [t[0], figure, met] : t)) });
  r.kernelChecks = [];
  assert.match(row(written(r, []), ratio), /in the full run \| met in 1 of 3 runs so far \|$/);
  r.kernelChecks = [check('0.93× to 1.28×', true)];
  assert.match(row(written(r, []), ratio), /kernel-only runs: 0\.93× to 1\.28× \| met in 2 of 3 runs so far \|$/);
  r.kernelChecks.push(check('0.94× to 1.51×', true));
  assert.match(row(written(r, []), ratio), /kernel-only runs: 0\.93× to 1\.28×; 0\.94× to 1\.51× \| met \|$/);
  r.kernelChecks.push(check('0.86× to 1.30×', false));
  assert.match(row(written(r, []), ratio), /; \*\*0\.86× to 1\.30×\*\* \| \*\*not yet\*\* \|$/, 'one kernel-only run that misses it is enough');
});
