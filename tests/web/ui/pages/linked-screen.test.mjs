// A shared link's first screen reads the link as the element will: the same spec, the same hash
// (which the element compares to keep the screen), and nothing drawn for a link the element
// would read otherwise, complain of, or that sets what the written screen cannot show.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { importTSTree } from '../../../e2e/typescript.mjs';

const { linkSpec } = await importTSTree('web/src/ui/pages/linked-screen.ts');
const { fromHash, toHash, toSpec } = await importTSTree('web/src/state/settings.ts');

// What the page's written screen says of itself (scripts/first-screen.mjs), as the page holds it.
const html = readFileSync(new URL('../../../../web/first-screen.html', import.meta.url), 'utf8');
const WRITTEN = JSON.parse(html.match(/ data-link="([^"]*)"/)[1]
  .replace(/&quot;/g, '"').replace(/&#39;/g, '\'').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));

const HASHES = [
  '#sentence=The+animal+did+not+cross+the+street&heads=2&d_model=8&seed=7', '#seed=42', '#heads=1&d_model=4',
  '#sentence=%3Cimg+src%3Dx%3E+%26amp%3B', '#sentence=', '#sentence=a%20b&seed=0', '#d_model=08', '#seed=4294967295',
  '#seed=4294967296', '#heads=0', '#heads=65', '#d_model=1025', '#seed=+7', '#seed=7.0', '#seed=-1', '#seed=1e3',
  '#seed=1&seed=2', '#mask=causal', '#d-model=8', '#a.sentence=x', '#sentence', '#=3', '#%E0%A4%A', '#sentence=%E0%A4%A',
  '#x=[[1,2]]', '#X=[[1,2],[3,4]]', '#model=tiny-lm', '#heads=2&kv_heads=1',
];

test('a link the screen shows gives the spec and the hash the element reads from it', () => {
  let shown = 0;
  for (const hash of HASHES) {
    const link = linkSpec(WRITTEN, hash);
    if (!link) continue;
    shown++;
    const r = fromHash(hash);
    assert.deepEqual(r.problems, [], `${hash}: the element reads it without a complaint`);
    assert.deepEqual(link.spec, toSpec(r.state, r.overrides), `${hash}: the element's spec`);
    assert.equal(link.hash, toHash(r.state, r.overrides), `${hash}: the hash the element writes, which keeps the screen`);
  }
  assert.ok(shown >= 8, `most of these links are shown (${shown})`);
});

test('a link that sets another setting, gives one twice or in another spelling, or one the element refuses, is left to the element', () => {
  for (const hash of ['#seed=1&seed=2', '#mask=causal', '#d-model=8', '#a.sentence=x', '#heads=0', '#heads=65', '#seed=+7', '#seed=7.0',
    '#seed=-1', '#seed=1e3', '#seed=4294967296', '#X=[[1,2],[3,4]]', '#model=tiny-lm', '#heads=2&kv_heads=1', '#=3']) {
    assert.equal(linkSpec(WRITTEN, hash), null, hash);
  }
});
