// A screen drawn before the element (a shared link's, a post's) runs the core on the page's main
// thread only where the element would: the core counts the work first, and a spec the element
// would send to its worker, or one whose tokens could not be tables, is never run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../e2e/typescript.mjs';

const { traceFor } = await importTSTree('web/src/core/first-core.ts');
const { BACKGROUND_CELLS } = await importTSTree('web/src/core/background.ts');

/** The first module's calls, answering `work` as given and recording every run. */
const calls = (work) => {
  const ran = [];
  return { ran, work: () => work, trace: (spec) => { ran.push(spec); return { tokens: ['a'] }; }, runPacked: () => { throw new Error('not used'); } };
};

test('a spec is run only under the element\'s bound for the main thread, and only when its tokens can be shown', () => {
  const spec = { sentence: 'a b c' };
  const all = () => true;
  for (const [work, shows, runs] of [
    [{ cells: 100, tokens: 3 }, all, true],
    [{ cells: BACKGROUND_CELLS - 1, tokens: 3 }, all, true],
    [{ cells: BACKGROUND_CELLS, tokens: 3 }, all, false],        // the element computes it in its worker
    [{ cells: 40_000_000, tokens: 400 }, all, false],
    [{ cells: 100, tokens: 17 }, (n) => n <= 16, false],         // too many tokens for tables: given up before any run
    [{ error: { field: 'heads', message: 'heads: must divide d_model' } }, all, false],  // refused: the element says why
  ]) {
    const c = calls(work);
    const t = traceFor(c, spec, shows);
    assert.equal(c.ran.length, runs ? 1 : 0, JSON.stringify(work));
    assert.equal(t === null, !runs, JSON.stringify(work));
  }
});

test('what shows() is asked is the core\'s count of tokens', () => {
  const asked = [];
  traceFor(calls({ cells: 10, tokens: 7 }), {}, (n) => { asked.push(n); return false; });
  assert.deepEqual(asked, [7]);
});
