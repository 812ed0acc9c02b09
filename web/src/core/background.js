// Large traces are computed in one Web Worker per page, so the page keeps answering while 512
// tokens are computed. One spec is in flight at a time. Each caller (an element) has one
// waiting place: its newer spec replaces its own waiting one (which resolves to null:
// superseded), never another caller's, and the waiting callers are served in the order they
// first asked, so no element on the page can starve another. Where no worker can start (a
// sandboxed iframe, a page opened from disk, a CSP without worker-src) run() rejects, and the
// caller computes on the main thread instead.
import { unpack } from './wrap.js';

let shared = null;

function start(module) {
  let worker = null;
  let failure = null;
  let inFlight = null;         // { id, resolve, reject }
  const waiting = new Map();   // caller -> { spec, resolve, reject }, oldest caller first
  let next = 0;

  const send = (job) => {
    inFlight = { id: ++next, resolve: job.resolve, reject: job.reject };
    worker.postMessage({ id: inFlight.id, spec: job.spec });
  };
  const sendNext = () => {
    const [caller, job] = waiting.entries().next().value ?? [];
    if (!job) return;
    waiting.delete(caller);
    send(job);
  };
  const fail = (why) => {
    failure = new Error(`the background worker stopped: ${why}`);
    for (const job of [inFlight, ...waiting.values()]) job?.reject(failure);
    inFlight = null;
    waiting.clear();
    worker?.terminate();
  };

  try {
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (!inFlight || data.id !== inFlight.id) return;
      if (data.failed) return fail(data.failed);
      const done = inFlight;
      inFlight = null;
      sendNext();
      done.resolve(unpack(data));
    };
    worker.onerror = (e) => { e.preventDefault?.(); fail(e.message || 'it could not start'); };
    worker.onmessageerror = () => fail('a message could not be read');
    worker.postMessage({ module });
  } catch (e) {
    failure = e;
  }

  return {
    run(spec, caller) {
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        if (!inFlight) return send({ spec, resolve, reject });
        const superseded = waiting.get(caller);
        if (superseded) {
          superseded.resolve(null);
          Object.assign(superseded, { spec, resolve, reject });  // keeps the caller's turn
        } else {
          waiting.set(caller, { spec, resolve, reject });
        }
      });
    },
  };
}

/** The page's worker, started on first use from the core's compiled module. */
export function background(core) {
  shared ??= start(core.module);
  return shared;
}
