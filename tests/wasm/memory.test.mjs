// 10,000 recomputes (good and bad requests) leave the wasm heap and the live embind handles where 10 left them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';
import * as tol from '../tolerance.mjs';

test('the heap and the embind handles stay flat over 10,000 runs', async () => {
  const core = await load();
  const specs = [
    { sentence: 'a small one' },
    { sentence: 'two heads and a mask', heads: 2, mask: 'causal', score: 'additive', positional: 'sinusoidal' },
    { mode: 'encoder_decoder', decoder_state: [5, 1, 20], annotations: [[3, 12, 45], [59, 2, 5]] },
    '{"heads": 3}', '{ not json', { X: [[1e300, 1]], W_q: [[1e300, 0], [0, 1]] },
  ];
  const round = (i) => {
    const spec = specs[i % specs.length];
    core.run(spec);
    core.runPacked(spec);  // the page's path: its buffer must be dropped after each run
    if (i % 500 === 0) core.entropy({ spec: {}, widths: [2, 64] });
    if (i % 50 === 0) { core.numpy(spec); core.derive({ spec: typeof spec === 'string' ? {} : spec, matrix: 'weights', row: 0, col: 0 }); }
    // Requests of the wrong types are errors, not aborts (an abort leaked and, after some
    // thousands, broke every later call).
    if (i % 5 === 0) {
      core.derive({ spec: {}, matrix: 1 });
      core.derive({ spec: {}, matrix: 'weights', row: 'x', col: [] });
      core.random({ seed: 'x' });
      core.entropy({ spec: {}, widths: [1e300, -1, 'a'] });
      core.work({ sentence: 'a b', heads: 'two' });
    }
  };
  // The core keeps the last run's weights for the next run (parameters.cpp): the same spec
  // last leaves the same kept draw behind.
  const settle = () => { core.run(specs[0]); return core.stats(); };
  for (let i = 0; i < 10; i++) round(i);
  const after10 = settle();
  for (let i = 10; i < 10000; i++) round(i);
  const after10k = settle();
  assert.ok(Math.abs(after10k.heap_in_use - after10.heap_in_use) <= tol.heapPlacement, JSON.stringify({ after10, after10k }));
  // Weights of 4 million numbers (d_model 1024, 4 heads) are past what the core keeps.
  core.runPacked({ sentence: 'big', d_model: 1024, heads: 4 });
  const afterBig = core.stats();
  assert.ok(afterBig.heap_in_use < 1e6, `heap in use after a large draw: ${afterBig.heap_in_use}`);
  assert.equal(after10k.handles, after10.handles);
  assert.ok(after10k.handles <= 5, `live handles: ${after10k.handles}`);
});
