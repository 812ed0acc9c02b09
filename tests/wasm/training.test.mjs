// The training module and the entropy curve through the wasm builds: the same numbers as the
// native CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { load, loadTraining } from '../../dist/attention.js';
import * as tol from '../tolerance.mjs';

const cli = new URL('../../build/native/attention-cli', import.meta.url).pathname;
const core = await load();
const training = await loadTraining();

for (const task of ['copy', 'earlier', 'sort', 'reverse']) {
  test(`training ${task} in wasm matches the native trainer step for step`, () => {
    const settings = { task, seed: 11, heads: 2 };
    const native = execFileSync(cli, ['train', '-', '--steps', '150', '--every', '50'], { input: JSON.stringify(settings), encoding: 'utf8' })
      .trim().split('\n').map((l) => JSON.parse(l));
    const started = training.start(settings);
    assert.equal(started.error, undefined);
    assert.equal(started.settings.task, task);
    const wasm = [training.snapshot(0).metrics, ...[1, 2, 3].map(() => training.step(50))];
    for (const [i, m] of wasm.entries()) {
      for (const key of Object.keys(native[i])) assert.ok(Math.abs(m[key] - native[i][key]) <= tol.wasmVsNative * (1 + Math.abs(native[i][key])), `${key} at ${m.step}: ${m[key]} vs ${native[i][key]}`);
    }
  });
}

test('training errors are values naming the setting', () => {
  assert.equal(training.start({ heads: 3 }).error.field, 'heads');
  assert.equal(training.start('{ nope').error.field, '');
  assert.equal(training.start({ task: 'copy' }).error, undefined);
  assert.equal(training.step(0).error.field, 'steps');
  assert.equal(training.snapshot(100000).error.field, 'example');
  const { tasks } = training.tasks();
  assert.deepEqual(tasks.map((t) => t.name), ['copy', 'earlier', 'sort', 'reverse']);
  assert.ok(tasks.every((t) => t.explanation.length > 100));
});

test('the entropy curve: unscaled rows saturate, scaled ones do not', () => {
  const c = core.entropy({ spec: { sentence: 'one two three four five six seven eight' }, widths: [1, 16, 256] });
  assert.deepEqual(c.d_k, [1, 16, 256]);
  assert.equal(c.uniform, Math.log(8));
  assert.ok(c.dot[2] < 0.2 * c.uniform && c.scaled_dot[2] > 0.7 * c.uniform);
  assert.equal(core.entropy({ spec: { heads: 3 }, widths: [4] }).error.field, 'heads');
  assert.equal(core.entropy({ spec: {}, widths: [0] }).error.field, 'widths');
});

test('the training module keeps a flat heap over many runs and no embind handles', () => {
  const round = (i) => { training.start({ task: ['copy', 'sort'][i % 2], seed: 1 }); training.step(3); training.snapshot(i % 7); };
  // Past the first rounds, whose frees settle where the allocator puts small blocks (a few bytes
  // either way, with no leak), every run leaves the heap as the one before it did.
  for (let i = 0; i < 100; i++) round(i);
  const before = training.stats();
  for (let i = 100; i < 400; i++) round(i);
  const after = training.stats();
  assert.equal(after.heap_in_use, before.heap_in_use);
  assert.equal(after.handles, 0);
});

test('the language model trains natively and in wasm to the same weights, step for step', () => {
  // One short-window step and two long ones: both window lengths, RoPE and its gradient, the
  // sentences said twice from step 1, the learning rate falling over the run's 3 steps.
  const out = '/tmp/attention-wasm-vs-native-lm.bin', merges = '/tmp/attention-wasm-vs-native-merges.cpp';
  execFileSync(new URL('../../build/native/attention-train-model', import.meta.url).pathname,
    ['/usr/share/games/fortunes', 'test', out, merges, '3', JSON.stringify({ short_steps: 1, sentences_from: 1 })], { stdio: 'ignore' });
  // the word pieces learned from the corpus are those built into the core (which the wasm reads with)
  assert.equal(readFileSync(merges, 'utf8'), readFileSync(new URL('../../cpp/src/model/tiny_lm_merges.cpp', import.meta.url), 'utf8'));
  const text = (f) => readFileSync(new URL(`../../models/${f}`, import.meta.url), 'utf8');
  assert.equal(training.lmStart({ short_steps: 1, sentences_from: 1, steps: 3, eval_windows: 64 }, text('tiny-lm-train.txt'), text('tiny-lm-held-out.txt')).error, undefined);
  training.lmStep(3);
  const body = (bytes) => Buffer.from(bytes).subarray(bytes.indexOf(10) + 1);  // the weights' numbers after the header line
  const wasm = body(training.lmModel()), native = body(readFileSync(out));
  assert.equal(wasm.length, native.length);
  assert.ok(wasm.equals(native), 'bit for bit');
});
