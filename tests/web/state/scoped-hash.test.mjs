// Links to one element among several on a page: each element reads only its own part of the
// hash, and a Share link keeps the rest of the page's hash (another element's settings, a slide
// deck's route) where it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';

const { scopedHash, unscopedHash, withScope, routeOf } = await importTSTree('web/src/state/scoped-hash.ts');

test('a dotted element name owns its keys; the shorter name does not take them', () => {
  const hash = '#a.b.sentence=CHANGED&a.seed=3';
  assert.equal(unscopedHash('a.b', hash), 'sentence=CHANGED');
  assert.equal(unscopedHash('a', hash), 'seed=3');
  assert.equal(unscopedHash('b', hash), '');
  assert.equal(unscopedHash('a', '#a.=1&a..x=2&a=3'), '');
});

test('a Share link replaces its own part and keeps the rest of the hash in place', () => {
  assert.equal(withScope('', 'p', 'seed=3'), 'p.seed=3');
  assert.equal(withScope('#q.seed=1&p.seed=2&p.heads=4', 'p', 'seed=3'), 'q.seed=1&p.seed=3');
  assert.equal(withScope('#p.seed=2', 'p', ''), '');
  assert.equal(withScope('#a.b.seed=9&a.seed=1', 'a', 'seed=2'), 'a.b.seed=9&a.seed=2');
  assert.equal(scopedHash('p', 'sentence=a b&X=%5B%5B1%5D%5D'), 'p.sentence=a+b&p.X=%5B%5B1%5D%5D');
});

test("a slide deck's route stays first, and is what the deck reads", () => {
  for (const route of ['#/3', '#/3/1', '#/intro']) {
    const hash = withScope(route, 'deck-1', 'sentence=a+cat');
    assert.equal(hash, `${route.slice(1)}&deck-1.sentence=a+cat`);
    assert.equal(routeOf(`#${hash}`), route);
    assert.equal(unscopedHash('deck-1', hash), 'sentence=a+cat');
  }
  assert.equal(routeOf('#/3'), '#/3');
});
