// The settings are declared once, in the core: the page's table (state/settings.ts, read from
// its TypeScript source with the JSON it imports) takes every default, range, choice, mode and
// help from the core's settings(), and adds only labels and widgets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { importTSTree } from '../e2e/typescript.mjs';

const core = await load();
await core.loadModel();  // model: "tiny-lm" is one of the options below
const declared = core.settings();
const page = await importTSTree('web/src/state/settings.ts');
const byKey = new Map(declared.map((row) => [row.key, row]));

// Core keys the playground offers no control for, and why.
const NOT_CONTROLS = new Map([
  ['tokens', 'the sentence box gives the tokens'],
  ['source_tokens', 'the source box gives the source tokens'],
  ['d_v', 'd_k sets both'],
  ['d_a', 'additive scoring takes the default hidden width'],
  ['layer_norm', 'the residual control turns it on with the residual'],
]);

test('the table the page imports is the core\'s settings(), as the build wrote it', () => {
  const imported = JSON.parse(readFileSync(new URL('../../web/src/state/core-settings.json', import.meta.url), 'utf8'));
  assert.deepEqual(imported, declared);
  assert.deepEqual(page.CORE_SETTINGS, declared);
});

test('every spec row of the page is a core setting with the core\'s default, range, choices, modes and help', () => {
  const specRows = page.SETTINGS.filter((d) => d.spec);
  assert.ok(specRows.length >= 20);
  for (const d of specRows) {
    const c = byKey.get(d.key);
    assert.ok(c, `${d.key} is not in the core's table`);
    assert.deepEqual(d.fallback, c.default === '' ? '' : JSON.parse(c.default), `${d.key}: default`);
    assert.equal(d.min, c.min, `${d.key}: min`);
    assert.equal(d.max, c.max, `${d.key}: max`);
    assert.ok(d.help.startsWith(c.help), `${d.key}: help`);
    // A page may show a control in fewer modes than the core allows (where it would only be
    // refused), never in more.
    const coreModes = c.modes ? c.modes.split(',') : ['self', 'encoder_decoder', 'cross'];
    for (const m of d.modes ?? coreModes) assert.ok(coreModes.includes(m), `${d.key}: mode ${m}`);
    const widget = { string: 'text', integer: 'int', number: 'number', boolean: 'bool', enum: 'select', init: 'select', mask: 'select' }[c.kind];
    assert.equal(d.kind, widget, `${d.key}: a ${c.kind} is a ${widget} control`);
    if (!c.choices) { assert.equal(d.options, undefined, `${d.key}: choices`); continue; }
    // Each option is a choice, or an instance of a parameterised one (int:3 of int:N, window of window:D) ...
    const choiceOf = (o) => c.choices.find((ch) => ch === o || ch.split(':')[0] === o
      || (ch.includes(':') && o.startsWith(`${ch.split(':')[0]}:`)));
    for (const o of d.options) assert.ok(choiceOf(o), `${d.key}: option ${o} is none of ${c.choices}`);
    // ... and every choice is offered.
    assert.deepEqual(new Set(d.options.map(choiceOf)), new Set(c.choices), `${d.key}: every choice offered`);
  }
});

test('every core setting is a control, a matrix, or named as left out', () => {
  const controls = new Set(page.SETTINGS.map((d) => d.key));
  const matrices = new Set(page.MATRIX_KEYS);
  for (const c of declared) {
    if (c.kind === 'matrix' || c.kind === 'vector') continue;  // typed into the heatmaps, or not shown
    assert.ok(controls.has(c.key) || NOT_CONTROLS.has(c.key), `${c.key} has no control`);
  }
  for (const key of matrices) assert.ok(byKey.has(key), `matrix ${key} is not a core setting`);
});

test('what the page sends for its defaults, the core reads as its own defaults', () => {
  const spec = page.toSpec(page.defaults());
  const trace = core.run(spec);
  assert.equal(trace.error, undefined);
  const bare = core.run({});
  assert.deepEqual(trace.weights, bare.weights);
});

test('every option of every control is a value the core accepts', () => {
  const base = page.defaults();
  for (const d of page.SETTINGS.filter((x) => x.spec && x.options)) {
    for (const o of d.options) {
      const state = { ...base, [d.key]: o };
      if (d.key === 'mode' && o === 'cross') state.source = 'a b';
      const trace = core.run(page.toSpec(state));
      assert.equal(trace.error, undefined, `${d.key}=${o}: ${trace.error?.message}`);
    }
  }
});

test('a mask spelled as the spec spells it reads as the mask control and the window', () => {
  const r = page.fromHash('#mask=causal_window:3&positional=rope&rope_base=500');
  assert.deepEqual(r.problems, []);
  assert.equal(r.state.mask, 'causal_window');
  assert.equal(r.state.window, 3);
  const spec = page.toSpec(r.state);
  assert.equal(spec.mask, 'causal_window:3');
  assert.equal(spec.rope_base, 500);
  // rope's settings are sent only with rope
  assert.equal(page.toSpec({ ...r.state, positional: 'alibi' }).rope_base, undefined);
});
