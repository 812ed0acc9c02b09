// The language model's texts (web/src/core/corpus.ts): read beside the wasm, and where they come from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { importTSTree } from '../../e2e/typescript.mjs';

const { fortunes, SOURCE } = await importTSTree('web/src/core/corpus.ts');

test('the fortunes: both texts, decoded as UTF-8, the same promise for every caller', async () => {
  const a = fortunes(), b = fortunes();
  assert.equal(a, b);
  const { train, heldOut } = await a;
  assert.ok(train.length > 700_000 && heldOut.length > 80_000, `${train.length} and ${heldOut.length} characters`);
  assert.ok(train.startsWith('A day for firm decisions'));
});

test('where the texts come from is what the shipped model card says', () => {
  const bytes = readFileSync(new URL('../../../models/tiny-lm.bin', import.meta.url));
  const card = JSON.parse(bytes.subarray(0, bytes.indexOf(10)).toString('utf8')).card;
  assert.deepEqual({ package: card.corpus.package, version: card.corpus.version, fortunes: card.corpus.fortunes }, SOURCE);
});
