// The label cutter, in Node: a label is cut between graphemes, or between code points where
// there is no Intl.Segmenter (read as the module loads: a new instance without it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSFresh } from '../../../e2e/typescript.mjs';

test('labels are cut between graphemes, or between code points without Intl.Segmenter', async () => {
  const family = '👩‍👩‍👧‍👦';
  const { clip } = await importTSFresh('web/src/ui/shared/clip.ts');
  assert.equal(clip(`${family}${family}${family}`, 2), `${family}${family}`);
  assert.equal(clip('abc', 10), 'abc');
  assert.equal(clip('🙂'.repeat(12), 10), '🙂'.repeat(10));
  const segmenter = Intl.Segmenter;
  delete Intl.Segmenter;
  try {
    const { clip: byCodePoint } = await importTSFresh('web/src/ui/shared/clip.ts');
    assert.equal(byCodePoint('🙂'.repeat(12), 10), '🙂'.repeat(10));
    assert.equal(byCodePoint('a🙂🙂', 2), 'a🙂');  // .slice(0, 2) would leave half an emoji
  } finally {
    Intl.Segmenter = segmenter;
  }
});
