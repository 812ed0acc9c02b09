// The first heatmap's module (cpp/bindings/first_wasm.cpp) against the whole core: for every
// golden fixture and for refused specs, the same packed trace to the bit, the same work count
// and the same message (a fixture only the whole core computes is refused under "core"); and it
// is the smaller download.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { load, unpack } from '../../dist/attention.js';
import { importTSTree } from '../e2e/typescript.mjs';

const root = new URL('../../', import.meta.url);
const wasm = (name) => readFileSync(new URL(`web/src/core/wasm/${name}.wasm`, root));
const fixtures = JSON.parse(readFileSync(new URL('tests/fixtures/attention.json', root)));
const core = await load();
const { instantiateFirst } = await importTSTree('web/src/core/first-module.ts');
const first = await instantiateFirst(new WebAssembly.Module(wasm('attention-first')));
const packedOf = (spec) => {
  const skeleton = JSON.parse(first.run_packed(typeof spec === 'string' ? spec : JSON.stringify(spec)));
  const numbers = new Float64Array(first.packed_numbers());
  first.drop_packed();
  return { skeleton, numbers };
};

const REFUSED = [{ heads: 3 }, { sentence: 'a b', mask: 'window:x' }, { sentence: 'x', W_q: [[1, 2]] }, 'not json', { sentence: 'a'.repeat(600).split('').join(' ') }];
// Text that crosses into the module oddly: a NUL after the spec, in a string, alone; lone
// surrogates; characters of two, three and four UTF-8 bytes.
const ODD_TEXT = ['{"sentence": "a b"}\u0000', '{"sentence": "a\u0000b"}', '\u0000', '{"sentence": "\ud800"}', '{"sentence": "ok", "seed": "\udfff"}', '{"sentence": "é 日本 \u{1F600}"}'];

// A number the first module's JSON reader cannot round exactly (cpp/include/attention/io/json_text.hpp):
// a significand beyond 2^53, or a power of ten beyond 10^±22.
// (A whole number is read up to 19 digits: no spec here has a longer one.)
const inexact = (text) => Array.from(text.matchAll(/(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/g)).some(([number, whole, fraction = '', exponent = '0']) =>
  /[.eE]/.test(number) && (BigInt(whole + fraction) > 2n ** 53n || Math.abs(+exponent - fraction.length) > 22));
// What the first module leaves to the whole core, refusing it under the field "core".
const wholeCoreOnly = (spec) => spec.model === 'tiny-lm' || spec.mode === 'encoder_decoder' || Boolean(spec.decode) || spec.online_block > 0
  || inexact(JSON.stringify(spec));

test('every fixture: the same packed trace as the whole core, to the bit, and the same work, or, what only the whole core computes, refused under "core"', () => {
  const left = fixtures.cases.filter((c) => wholeCoreOnly(c.spec));
  assert.ok(left.length >= 3 && left.length < fixtures.cases.length / 2, `${left.length} fixtures left to the whole core`);
  for (const c of fixtures.cases) {
    if (wholeCoreOnly(c.spec)) {
      assert.equal(packedOf(c.spec).skeleton.error?.field, 'core', c.name);
      continue;
    }
    const mine = packedOf(c.spec), whole = core.runPacked(c.spec);
    assert.deepEqual(mine.skeleton, whole.skeleton, c.name);
    assert.deepEqual(mine.numbers, whole.numbers, c.name);
    assert.deepEqual(JSON.parse(first.work(JSON.stringify(c.spec))), core.work(c.spec), c.name);
  }
});

test('a refused spec: the same message, naming the same field', () => {
  for (const spec of REFUSED) {
    const mine = packedOf(spec).skeleton;
    assert.ok(mine.error, JSON.stringify(spec));
    assert.deepEqual(mine, core.runPacked(spec).skeleton);
  }
});

test('odd text: the same answer as the whole core, refused or run, or, text the whole core refuses as JSON, left to it', () => {
  for (const spec of ODD_TEXT) {
    const mine = packedOf(spec), whole = core.runPacked(spec);
    if (mine.skeleton.error?.field === 'core') {
      assert.match(whole.skeleton.error?.message ?? '', /^the spec is not valid JSON/, JSON.stringify(spec));
      continue;
    }
    assert.deepEqual(mine.skeleton, whole.skeleton, JSON.stringify(spec));
    assert.deepEqual(Array.from(mine.numbers), Array.from(whole.numbers ?? []), JSON.stringify(spec));
  }
});

test('a trace larger than its memory: the memory grows, and the numbers are still the whole core\'s', () => {
  const before = first.packed_numbers().buffer.byteLength;
  const spec = { sentence: Array.from({ length: 400 }, (_, i) => `w${i}`).join(' '), heads: 8, d_model: 64 };
  const mine = packedOf(spec), whole = core.runPacked(spec);
  assert.ok(first.packed_numbers().buffer.byteLength > before, `${before} bytes, then ${first.packed_numbers().buffer.byteLength}`);
  assert.ok(mine.numbers.length > 2e6, `${mine.numbers.length} numbers`);
  assert.deepEqual(mine.skeleton, whole.skeleton);
  assert.ok(mine.numbers.every((x, i) => Object.is(x, whole.numbers[i])) && mine.numbers.length === whole.numbers.length);
});

test('it is a third smaller than the whole core, gzipped', () => {
  const size = (name) => gzipSync(wasm(name), { level: 9 }).length;
  assert.ok(size('attention-first') < size('attention-core') * 0.7, `${size('attention-first')} against ${size('attention-core')} bytes`);
});

test('it carries no prose: no setting\'s help, no trace entry\'s label, which the whole core has', () => {
  const settings = JSON.parse(readFileSync(new URL('web/src/state/core-settings.json', root)));
  const schema = JSON.parse(readFileSync(new URL('web/src/core/trace-schema.json', root)));
  const prose = [...settings.map((s) => s.help), ...schema.self.map((e) => e.label)].filter((t) => t.length > 12);
  assert.ok(prose.length > 60, `${prose.length} sentences`);
  const whole = wasm('attention-core'), mine = wasm('attention-first');
  for (const t of prose) {  // as C strings: a label may begin a message ("the attention output overflows")
    assert.ok(whole.includes(`${t}\0`), `the whole core has "${t}"`);
    assert.ok(!mine.includes(`${t}\0`), `the first module has "${t}"`);
  }
});

// The module built for posts on the trained model (attention-first-model.wasm): the same code,
// which also installs the weights file and runs the model, without the probe's scores.
const withModel = await instantiateFirst(new WebAssembly.Module(wasm('attention-first-model')));
const weights = readFileSync(new URL('models/tiny-lm.bin', root));
const unpackTrace = (packed) => unpack(packed);
// (as JSON writes them: every finite double to the bit; lazily unpacked rows as plain lists)
const plain = (x) => JSON.parse(JSON.stringify(x));

test('the first module refuses the trained model under "core", and cannot install it', () => {
  assert.equal(packedOf({ model: 'tiny-lm', sentence: 'zebra jumps' }).skeleton.error?.field, 'core');
  assert.throws(() => first.load_model(weights), /does not run the trained model/);
});

test('the model\'s first module: every layer and the next token\'s log-probabilities as the whole core computes them, to the bit; no probe scores', async () => {
  await core.loadModel();
  const run = (spec) => {
    const skeleton = JSON.parse(withModel.run_packed(JSON.stringify(spec)));
    const numbers = new Float64Array(withModel.packed_numbers());
    withModel.drop_packed();
    return { skeleton, numbers };
  };
  // before its weights are in, it says so (the page then leaves the screen to the element)
  assert.match(run({ model: 'tiny-lm', sentence: 'a' }).skeleton.error?.message ?? '', /weights are not loaded/);
  const broken = weights.slice(0, weights.length - 9);
  assert.match(JSON.parse(withModel.load_model(broken)).error?.message ?? '', /ends before/);
  assert.deepEqual(JSON.parse(withModel.load_model(weights)), { card: null });
  for (const sentence of ['zebra jumps', 'The cat sat on the mat. The cat sat on the mat.', 'é 日本 \u{1F600} <b>"x"</b>']) {
    const spec = { model: 'tiny-lm', sentence };
    const mine = unpackTrace(run(spec)), whole = core.trace(spec);
    assert.deepEqual(mine.probe_head_scores, [], sentence);
    for (const key of ['tokens', 'layers', 'head_scores', 'log_probs', 'spec']) assert.deepEqual(plain(mine[key]), plain(whole[key]), `${sentence}: ${key}`);
    assert.deepEqual(JSON.parse(withModel.work(JSON.stringify(spec))), core.work(spec), sentence);
  }
  // a spec the model refuses, as the whole core refuses it
  for (const spec of [{ model: 'tiny-lm', tokens: ['zzz-not-a-piece'] }, { model: 'tiny-lm', sentence: 'x', heads: 2 }, { model: 'tiny-lm', sentence: 'ab'.repeat(200) }]) {
    assert.deepEqual(run(spec).skeleton, core.runPacked(spec).skeleton, JSON.stringify(spec));
  }
  // random weights still, to the bit
  const c = fixtures.cases.find((x) => !wholeCoreOnly(x.spec));
  assert.deepEqual(Array.from(run(c.spec).numbers), Array.from(core.runPacked(c.spec).numbers), c.name);
});

test('the model\'s first module is downloaded only where a post shows the model: the other stays as small', () => {
  const size = (name) => gzipSync(wasm(name), { level: 9 }).length;
  assert.ok(size('attention-first-model') > size('attention-first') + 5000, `${size('attention-first-model')} against ${size('attention-first')} bytes`);
});
