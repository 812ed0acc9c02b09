// The weights file a page's core has installed, which the page's worker installs in turn to run
// the same model: none before model mode, the fetched file, a given file, and never refused bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/attention.js';

test('installedModel() is the weights file the core runs', async () => {
  const core = await load();
  assert.equal(core.installedModel(), null, 'nothing before model mode');
  assert.equal((await core.loadModel()).error, undefined);
  const shipped = core.installedModel();
  assert.ok(shipped instanceof Uint8Array && shipped.length > 1000);
  const refused = await core.loadModel(new Uint8Array([1, 2, 3]));
  assert.equal(refused.error?.field, 'model');
  assert.equal(core.installedModel(), shipped, 'refused bytes leave the model that was installed');
  const given = shipped.slice();
  assert.equal((await core.loadModel(given)).error, undefined);
  assert.equal(core.installedModel(), given);
  // the same bytes give the same numbers: what a worker computes from them is the page's
  const spec = { model: 'tiny-lm', sentence: 'ab ab' };
  const other = core.trace(spec);
  assert.equal((await core.loadModel(shipped)).error, undefined);
  assert.deepEqual(core.trace(spec).layers[1].weights, other.layers[1].weights);
});
