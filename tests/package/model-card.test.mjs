// The README's model card is the one the committed weights file carries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { modelCard, BEGIN, END } from '../../scripts/model-card.mjs';

test('the README shows the card of models/tiny-lm.bin', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const shown = readme.slice(readme.indexOf(BEGIN), readme.indexOf(END) + END.length);
  assert.equal(shown, modelCard(), 'run node scripts/model-card.mjs --write');
});
