// A spec a host page hands the element (el.spec = {...}), in Node: read as entries of the
// settings table, so it goes through the same checks as a link or an attribute.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';

const { specEntries } = await importTSTree('web/src/state/from-spec.ts');
const { readEntries } = await importTSTree('web/src/state/settings.ts');

test('a host page\'s spec is read as entries of the table: matrices as JSON, layer_norm with the residual', () => {
  assert.deepEqual(specEntries({ seed: 3, residual: true, layer_norm: true, W_q: [[1, 2]], scale: undefined, mask: 'window:2' }),
    [['seed', '3', 'seed'], ['residual', 'true', 'residual'], ['W_q', '[[1,2]]', 'W_q'], ['mask', 'window:2', 'mask']]);
  assert.deepEqual(specEntries(null), []);
  // and read as a link is: a value the table refuses is named and left at its default
  const r = readEntries(specEntries({ heads: 'many', seed: 5 }));
  assert.equal(r.state.seed, 5);
  assert.match(r.problems.join(' '), /heads="many" is not valid/);
});
