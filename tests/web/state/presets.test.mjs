// The worked examples, in Node against the whole core: each loads with no problem, its link reads
// back as the same example, the core computes it, and the seed articles' figures are on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';
import { load } from '../../../dist/attention.js';

const { PRESETS } = await importTSTree('web/src/state/presets.ts');
const { readEntries, startFrom, toSpec, toHash, fromHash } = await importTSTree('web/src/state/settings.ts');
const core = await load();

test('every worked example is read without a problem, reopens from its link and runs', async () => {
  assert.equal((await core.loadModel()).error, undefined);
  assert.equal(new Set(PRESETS.map((p) => p.id)).size, PRESETS.length, 'ids are unique');
  for (const p of PRESETS) {
    const start = readEntries([], startFrom(p));  // as the element reads a preset
    assert.deepEqual(start.problems, [], p.id);
    const hash = toHash(start.state, start.overrides);
    const back = fromHash(hash);
    assert.deepEqual(back.problems, [], p.id);
    assert.equal(toHash(back.state, back.overrides), hash, `${p.id}: its link reopens it`);
    const trace = core.trace(toSpec(start.state, start.overrides));
    assert.equal(trace.error, undefined, `${p.id}: ${trace.error?.message}`);
    assert.ok(p.note.length > 20 && p.label.length > 0, p.id);
  }
});

test('the seed articles\' examples give their figures', () => {
  const run = (id) => {
    const p = readEntries([], startFrom(PRESETS.find((x) => x.id === id)));
    return core.trace(toSpec(p.state, p.overrides));
  };
  assert.equal(run('seed000').scores[0], 927, 'the decoder state [5, 1, 20] scores 927 against [3, 12, 45]');
});
