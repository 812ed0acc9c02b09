// The trainer's settings are declared once, in the core: the page's table (state/training.ts,
// read from its TypeScript source with the JSON it imports) takes every default, range, choice
// and help from the training module's table, and adds only labels and widgets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadTraining } from '../../dist/attention.js';
import { importTSTree } from '../e2e/typescript.mjs';

const training = await loadTraining();
const { tasks, settings: declared } = training.tasks();
const page = await importTSTree('web/src/state/training.ts');
const settings = await importTSTree('web/src/state/settings.ts');
const byKey = new Map(declared.map((row) => [row.key, row]));

// Core keys the trainer offers no control for: the page trains with the core's default.
const NOT_CONTROLS = new Set(['residual', 'batch_size', 'eval_size']);

test('the table the trainer imports is the training module\'s, as the build wrote it', () => {
  const imported = JSON.parse(readFileSync(new URL('../../web/src/state/core-training-settings.json', import.meta.url), 'utf8'));
  assert.deepEqual(imported, declared);
  assert.deepEqual(page.CORE_TRAINING_SETTINGS, declared);
});

test('every spec row of the trainer is a core setting with the core\'s default, range, choices and help', () => {
  const specRows = page.TRAINING.filter((d) => d.spec);
  assert.ok(specRows.length >= 8);
  for (const d of specRows) {
    const c = byKey.get(d.key);
    assert.ok(c, `${d.key} is not in the core's trainer table`);
    assert.deepEqual(d.fallback, c.default === '' ? '' : JSON.parse(c.default), `${d.key}: default`);
    assert.equal(d.min, c.min, `${d.key}: min`);
    assert.equal(d.max, c.max, `${d.key}: max`);
    assert.ok(d.help.startsWith(c.help), `${d.key}: help`);
    const widget = { integer: 'int', number: 'number', boolean: 'bool', enum: 'select' }[c.kind];
    assert.equal(d.kind, widget, `${d.key}: a ${c.kind} is a ${widget} control`);
    // the page's one task of its own, the language model, run by lmStart rather than start
    assert.deepEqual(d.key === 'task' ? d.options.filter((o) => o !== page.LANGUAGE_MODEL) : d.options, c.choices, `${d.key}: choices`);
  }
  for (const c of declared) assert.ok(specRows.some((d) => d.key === c.key) || NOT_CONTROLS.has(c.key), `${c.key} has no control`);
});

test('the length the page allows spans the tasks\' lengths, as task.cpp gives them', () => {
  const length = page.TRAINING.find((d) => d.key === 'length');
  assert.equal(length.min, Math.min(...tasks.map((t) => t.length.min)));
  assert.equal(length.max, Math.max(...tasks.map((t) => t.length.max)));
  assert.deepEqual(page.TRAINING.find((d) => d.key === 'task').options, [...tasks.map((t) => t.name), page.LANGUAGE_MODEL]);
});

test('a value outside its row is refused by the page and by the core, naming the key', () => {
  for (const d of page.TRAINING.filter((x) => x.spec && x.kind === 'int')) {
    for (const v of [d.min - 1, d.max + 1]) {
      assert.equal(settings.parseValue(d, String(v)), undefined, `the page takes ${d.key}=${v}`);
      const { error } = training.start({ [d.key]: v, ...(d.key === 'heads' ? {} : { heads: 1 }) });
      assert.equal(error?.field, d.key, `${d.key}=${v}: ${JSON.stringify(error)}`);
      assert.ok(error.message.startsWith(`${d.key}: must be a whole number from `), error.message);
    }
    for (const v of d.key === 'length' ? [] : [d.min, d.max]) {
      assert.equal(settings.parseValue(d, String(v)), v);
      assert.equal(training.start({ [d.key]: v, ...(d.key === 'heads' ? {} : { heads: 1 }), eval_size: 4 }).error, undefined, `${d.key}=${v}`);
    }
  }
  for (const t of tasks) {
    const { error } = training.start({ task: t.name, length: t.length.max + 1 });
    assert.equal(error.message, `length: must be a whole number from ${t.length.min} to ${t.length.max} for task ${t.name}, got ${t.length.max + 1}`);
  }
  const rate = page.TRAINING.find((d) => d.key === 'learning_rate');
  assert.equal(training.start({ learning_rate: rate.max * 2 }).error.message,
    `learning_rate: must be a number greater than ${rate.min} and at most ${rate.max}, got ${rate.max * 2}`);
});

test('what the page sends for its defaults, and every option, the core accepts', () => {
  const base = settings.defaults(page.TRAINING);
  const started = training.start(page.toTraining(base));
  assert.equal(started.error, undefined);
  assert.deepEqual(started.settings, training.start({}).settings);
  for (const d of page.TRAINING.filter((x) => x.spec && x.options)) {
    for (const o of d.options.filter((x) => x !== page.LANGUAGE_MODEL)) {
      const r = training.start({ ...page.toTraining({ ...base, [d.key]: o }), eval_size: 4 });
      assert.equal(r.error, undefined, `${d.key}=${o}: ${r.error?.message}`);
    }
  }
});
