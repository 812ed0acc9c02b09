// The language model's texts (web/src/core/corpus.ts): read beside the wasm, encoded as the core
// encodes them, and the loss of letter frequencies alone that the page draws the loss against.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { importTSTree } from '../../e2e/typescript.mjs';

const { fortunes, encode, tokenId, unigramLoss, SOURCE, VOCABULARY, CONTEXT } = await importTSTree('web/src/core/corpus.ts');

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

test('characters as the core numbers them: <unk>, the newline, printable ASCII', () => {
  assert.equal(VOCABULARY, 97);
  assert.equal(CONTEXT, 128);
  assert.deepEqual([...encode('\n A~\t€')], [1, 2, 35, 96, 0, 0]);
  assert.equal(tokenId(' '.codePointAt(0)), 2);
  assert.equal(tokenId(0x7f), 0);
  // A character outside the BMP is one token, as the core reads its four bytes as one character.
  assert.deepEqual([...encode('a😀b')], [67, 0, 68]);
});

test('the loss of letter frequencies alone, on the characters the held-out loss predicts', async () => {
  // Add-one counts over 97 tokens: "aab" gives a 3/100, b 2/100; one window of 129 "a"s then "b"s.
  const train = encode('aab');
  const heldOut = encode('x' + 'a'.repeat(CONTEXT) + 'bbbb');
  const want = -Math.log(3 / 100);
  assert.ok(Math.abs(unigramLoss(train, heldOut, 1) - want) < 1e-12);
  assert.ok(Math.abs(unigramLoss(train, heldOut, 16) - want) < 1e-12, 'only whole windows');
  assert.ok(Number.isNaN(unigramLoss(train, encode('short'), 1)));
  // On the fortunes: near the model card's 3.207 (measured there on the whole held-out text).
  const { train: t, heldOut: h } = await fortunes();
  const loss = unigramLoss(encode(t), encode(h), 16);
  assert.ok(loss > 3.05 && loss < 3.35, `${loss}`);
});
