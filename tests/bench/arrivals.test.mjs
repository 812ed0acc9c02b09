// The arrivals benchmark (bench/arrivals.mjs) survives a load that fails: it is tried again, and
// one that fails every time is left out, said, and counted, with the other loads kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retried } from '../../bench/arrivals.mjs';

test('a load that fails once is tried again and its figure kept', async () => {
  let calls = 0;
  const told = [];
  const got = await retried(async () => {
    if (++calls === 1) throw new Error('page.goto: net::ERR_ABORTED at /\ncall log: ...');
    return { ms: 180, kb: 98 };
  }, (why, last) => told.push([why, last]));
  assert.deepEqual(got, { ms: 180, kb: 98 });
  assert.equal(calls, 2);
  assert.deepEqual(told, [['page.goto: net::ERR_ABORTED at /', false]]);
});

test('a load that fails every time is given up after three tries, and said so', async () => {
  let calls = 0;
  const told = [];
  const got = await retried(async () => { calls++; throw new Error('Timeout 60000ms exceeded'); }, (why, last) => told.push(last));
  assert.equal(got, null);
  assert.equal(calls, 3);
  assert.deepEqual(told, [false, false, true]);
});
