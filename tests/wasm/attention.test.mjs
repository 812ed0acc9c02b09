// The wasm build in Node, through dist/attention.js: every golden fixture agrees with the
// native build (attention-cli) and with NumPy's numbers, to tests/tolerance.mjs's bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { load, unpack } from '../../dist/attention.js';
import { maxError } from './compare.mjs';
import * as tol from '../tolerance.mjs';

const root = new URL('../../', import.meta.url);
const fixtures = JSON.parse(readFileSync(new URL('tests/fixtures/attention.json', root)));
const streams = JSON.parse(readFileSync(new URL('tests/fixtures/random.json', root)));
const cli = new URL('build/native/attention-cli', root).pathname;
const native = (args, input) => execFileSync(cli, args, { input, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['pipe', 'pipe', 'pipe'] });

const core = await load();

for (const c of fixtures.cases) {
  test(`fixture ${c.name}: wasm = native = NumPy`, () => {
    const trace = core.run(c.spec);
    assert.equal(trace.error, undefined, trace.error?.message);
    const nat = JSON.parse(native(['run', '-'], JSON.stringify(c.spec)));
    for (const key of Object.keys(nat)) {
      if (['spec', 'tokens', 'source_tokens', 'warnings', 'empty_rows', 'kv_group', 'decode_cost'].includes(key)) {
        assert.deepEqual(trace[key], nat[key], key);
        continue;
      }
      const r = maxError(trace[key], nat[key]);
      assert.ok(r.error <= tol.wasmVsNative, `${key}${r.where}: wasm differs from native by ${r.error}`);
    }
    assert.deepEqual(unpack(core.runPacked(c.spec)), trace, 'the packed trace unpacks to the same numbers');
    for (const [key, expected] of Object.entries(c.expect)) {
      const r = maxError(trace[key], expected);
      assert.ok(r.error <= tol.againstNumpy, `${key}${r.where}: wasm differs from NumPy by ${r.error}`);
    }
  });
}

test('random() gives NumPy\'s streams bit for bit', () => {
  for (const c of streams.cases) {
    const values = core.random({ seed: c.seed, dist: c.dist, rows: c.shape[0], cols: c.shape[1] });
    assert.deepEqual(values, c.values, `seed ${c.seed} ${c.dist}`);
  }
});

test('seed 004: printed embeddings with seed-42 integer weights give the printed output', () => {
  const spec = fixtures.cases.find((c) => c.name === 'seed004').spec;
  const printed = fixtures.articles.seed004_printed_output;
  const r = maxError(core.run(spec).output, printed.output);
  assert.ok(r.error <= printed.tolerance, `${r.where}: ${r.error}`);
});

test('seed 000: 927', () => {
  const t = core.run({ mode: 'encoder_decoder', score: 'dot', decoder_state: [5, 1, 20], annotations: [[3, 12, 45]] });
  assert.equal(t.scores[0], 927);
});

test('a packed trace points into its buffer, and a bad spec packs to the same error', () => {
  const { skeleton, numbers } = core.runPacked({ sentence: 'a b c', d_model: 2 });
  assert.deepEqual(skeleton.weights[0], { '@': skeleton.weights[0]['@'], shape: [3, 3] });
  assert.equal(numbers.length, Object.values(skeleton).flat().filter((v) => v?.shape)
    .reduce((sum, v) => sum + v.shape.reduce((a, b) => a * b, 1), 0));
  assert.deepEqual(unpack(core.runPacked('{"heads": 3}')), core.run('{"heads": 3}'));
});

test('a large packed trace unpacks to the same numbers, its rows built when read (packed.test.mjs)', () => {
  const spec = { sentence: Array.from({ length: 200 }, (_, i) => `w${i % 37}`).join(' '), heads: 2, d_model: 8 };
  const packed = core.runPacked(spec);
  const lazy = unpack({ skeleton: structuredClone(packed.skeleton), numbers: packed.numbers });
  const weights = lazy.weights[0];  // 200 x 200: past the size whose rows are built at once
  const marked = weights[Symbol.for('attention-playground.packed')];
  assert.deepEqual([marked.rows, marked.cols, marked.factor], [200, 200, 1]);
  assert.deepEqual([...marked.numbers.subarray(marked.at + 7 * 200, marked.at + 8 * 200)], weights[7], 'the mark points at the row\'s numbers');
  assert.equal(weights[7], weights[7], 'a row read once is kept');
  assert.equal(lazy.Q[Symbol.for('attention-playground.packed')], undefined, 'a small matrix is built at once');
  assert.deepEqual(JSON.parse(JSON.stringify(lazy)), core.run(spec));
  // trace() is the same, each large matrix holding a copy of its own numbers
  const traced = core.trace(spec);
  core.run({ sentence: 'other numbers now fill the core\'s memory', heads: 2, d_model: 8 });
  assert.equal(traced.weights[0][Symbol.for('attention-playground.packed')].numbers.length, 200 * 200);
  assert.deepEqual(JSON.parse(JSON.stringify(traced)), core.run(spec));
  assert.deepEqual(core.trace('{"heads": 3}'), core.run('{"heads": 3}'), 'an error is the same error');
});

test('a bad spec returns the CLI\'s message as a value', () => {
  for (const spec of ['{"heads": 3}', '{', '{"X": [[1,2],[3]]}', '{"seed": -1}', '{"mask": "sideways"}']) {
    const r = core.run(spec);
    let message = '';
    try { native(['run', '-'], spec); } catch (e) { message = e.stderr.trim().replace(/^attention-cli: /, ''); assert.equal(e.status, 2); }
    assert.equal(r.error.message, message);
  }
  assert.equal(core.random({ seed: -1 }).error.field, 'seed');
  assert.equal(core.derive({ spec: {}, matrix: 'Q', row: 0, col: 0 }).error.field, 'matrix');
});

test('numpy() matches the CLI\'s program', () => {
  const spec = { sentence: 'a b c', heads: 2, score: 'additive' };
  assert.equal(core.numpy(spec), native(['numpy', '-'], JSON.stringify(spec)));
});

test('settings() lists every spec key, as attention-cli --help does', () => {
  const keys = core.settings().map((s) => s.key);
  const help = native(['--help'], '');
  for (const k of keys) assert.match(help, new RegExp(`\\n  ${k} `));
  assert.ok(keys.includes('sentence') && keys.includes('W_c'));
});

test('load() shares one module', async () => {
  assert.equal(await load(), core);
});

test('hostile strings come back as short errors, never an abort', () => {
  for (const spec of [{ score: 'é'.repeat(30) }, { ['é'.repeat(30)]: 1 }, { mask: 'x'.repeat(100000) }, { sentence: '\ud800' }]) {
    const r = core.run(spec);
    assert.ok(r.error.message.length < 200, r.error.message);
  }
  assert.equal(core.run({ sentence: 'still fine' }).tokens.length, 2);
});

test('every entry point answers requests of the wrong types with an error value', () => {
  const bad = [{ spec: {}, matrix: 1 }, { spec: {}, matrix: null }, { spec: [], matrix: 'weights' }, { spec: {}, row: -1 },
    { spec: {}, matrix: 'weights', head: 1e300, row: 0, col: 0 }, [1, 2], '"text"', '[[[[', '{'.repeat(100000)];
  for (const request of bad) {
    const r = core.derive(request);
    assert.equal(typeof r.error?.message, 'string', JSON.stringify(request).slice(0, 60));
  }
  assert.match(core.derive({ spec: {}, matrix: 1 }).error.message, /^matrix: /);
  assert.match(core.random({ seed: 'x' }).error.message, /^seed: /);
  assert.ok(core.entropy({ spec: {}, widths: ['a'] }).error);
  assert.ok(core.work('{'.repeat(100000)).error.message.includes('nested deeper than 32 levels'));
  assert.ok(core.run({ sentence: 'still fine' }).output, 'the core keeps working');
});

test('work(spec) counts what the size limit counts', () => {
  const small = core.work({ sentence: 'a b c' });
  const wide = core.work({ sentence: 'a b c', d_model: 512 });
  assert.ok(small.cells > 0 && wide.cells > small.cells * 50, JSON.stringify({ small, wide }));
  // 512 one-character tokens at d_model 930: about 3.9 million numbers, the work the page must not do on the spot.
  const dots = core.work({ sentence: '.'.repeat(512), d_model: 930 });
  assert.ok(dots.cells > 1_000_000, JSON.stringify(dots));
  assert.equal(core.work({ heads: 3 }).error.field, 'heads');
  // and the tokens the core reads (the rows of the trace's matrices), as its run would
  for (const spec of [{ sentence: 'a b c' }, { sentence: '.'.repeat(512), d_model: 930 }, { tokens: ['x', 'y'] }, { sentence: 'a, b; c' }]) {
    const small = { ...spec, d_model: 4 };  // (the same tokens, less to compute)
    assert.equal(core.work(spec).tokens, core.run(small).tokens.length, JSON.stringify(spec));
  }
});

test('a lone surrogate is refused naming the key that holds it', async () => {
  for (const spec of [{ sentence: 'a\ud800b' }, { model: 'tiny-lm', sentence: 'a\ud800b' }, { tokens: ['a', '\udc00'] }]) {
    const key = Object.keys(spec).at(-1);
    for (const call of ['run', 'work', 'numpy']) {
      const r = core[call](spec);
      assert.equal(r.error?.field, key, `${call} ${JSON.stringify(spec)}: ${JSON.stringify(r)}`);
      assert.match(r.error.message, new RegExp(`^${key}: is not text: it holds a lone surrogate`));
    }
  }
});

test('settings() carries each key\'s type, default, range or choices, modes and help', () => {
  const rows = Object.fromEntries(core.settings().map((s) => [s.key, s]));
  assert.deepEqual(rows.positional.choices, ['none', 'sinusoidal', 'rope', 'alibi']);
  assert.deepEqual([rows.heads.min, rows.heads.max], [1, 64]);
  assert.deepEqual([rows.seed.min, rows.seed.max], [0, 4294967295]);
  assert.equal(rows.kv_heads.modes, 'self,cross');
  assert.equal(rows.mode.default, '"self"');
  // The ranges are the parser's: one past the end is refused with the same numbers.
  assert.equal(core.run({ heads: rows.heads.max + 1 }).error.message, `heads: must be a whole number from 1 to ${rows.heads.max}, got ${rows.heads.max + 1}`);
  assert.match(core.run({ positional: 'x' }).error.message, new RegExp(rows.positional.choices.slice(0, -1).join(', ')));
});

test('parameters(spec) gives the trace\'s drawn matrices without running it', () => {
  const specs = [
    { sentence: 'the cat sat on the mat', heads: 2, mask: 'causal', decode: true, online_block: 2 },
    { mode: 'cross', sentence: 'le chat noir', source: 'the black cat sat', score: 'general' },
    { mode: 'encoder_decoder', sentence: 'a b c d', score: 'additive' },
  ];
  for (const spec of specs) {
    const p = core.parameters(spec), trace = core.run(spec);
    const inputs = spec.mode === 'encoder_decoder' ? 'annotations' : 'X';
    assert.deepEqual(p[inputs], trace[inputs], `${inputs} of ${JSON.stringify(spec)}`);
    assert.deepEqual(p.tokens, trace.tokens);
    for (const key of Object.keys(p)) assert.deepEqual(p[key], trace[key], key);
    assert.equal(p.scores, undefined, 'nothing of the attention itself');
  }
  assert.deepEqual(core.parameters(specs[1]).X_source, core.run(specs[1]).X_source);
  assert.deepEqual(core.parameters(specs[2]).decoder_state, core.run(specs[2]).decoder_state);
  // A bad spec is run's error.
  assert.deepEqual(core.parameters({ heads: 3 }), core.run({ heads: 3 }));
  assert.equal(core.parameters('{not json').error.field, '');
});

test('parameters(spec) at 512 tokens with decode and online blocks answers at once, past the trace\'s limit', () => {
  const sentence = Array.from({ length: 512 }, (_, i) => `w${i % 41}`).join(' ');
  const spec = { sentence, mask: 'causal', decode: true, online_block: 1 };
  const start = performance.now();
  const p = core.parameters(spec);
  const ms = performance.now() - start;
  console.log(`parameters() at 512 tokens with decode and online_block 1: ${ms.toFixed(1)} ms`);
  assert.equal(p.X.length, 512);
  assert.deepEqual(p.X[511], core.trace(spec).X[511]);
  // Far more attention than a trace may take, little to draw: still answered.
  const heavy = { ...spec, heads: 64, d_model: 512 };
  assert.ok(core.run(heavy).error, 'the trace is refused');
  assert.equal(core.parameters(heavy).X.length, 512);
});
