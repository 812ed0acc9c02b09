// Large traces are computed in one Web Worker per page, so the page keeps answering while 512
// tokens are computed. One spec is in flight at a time. Each caller (an element) has one
// waiting place: its newer spec replaces its own waiting one (which resolves to null:
// superseded), never another caller's, and the waiting callers are served in the order they
// first asked, so no element on the page can starve another. Where no worker can start (a
// sandboxed iframe, a page opened from disk, a CSP without worker-src) run() rejects, and the
// caller computes on the main thread instead.
import type { AttentionCore, PackedTrace, Spec, SpecError, Trace } from './attention.js';
import type { FromWorker, ToWorker } from './worker.js';
import { unpack } from './wrap.js';

export interface Background {
  /** The trace; null when a newer spec of the same `caller` superseded this one while it
   *  waited; rejected when no worker can run. */
  run(spec: Spec, caller: object): Promise<Trace | SpecError | null>;
  /** Installs a trained model's weights file in the worker, for the specs sent after it
   *  (once per file). */
  install(weights: Uint8Array): void;
}

// A spec waiting for the worker, and what its promise is settled with.
interface Job { spec: Spec; resolve(trace: Trace | SpecError | null): void; reject(why: unknown): void }

let shared: Background | null = null;

function start(module: WebAssembly.Module): Background {
  let worker: Worker | null = null;
  let failure: unknown = null;
  let inFlight: { id: number } & Omit<Job, 'spec'> | null = null;
  const waiting = new Map<object, Job>();   // caller -> its job, oldest caller first
  let next = 0;
  let weights: Uint8Array | null = null;  // the file the worker has installed

  const send = (job: Job) => {
    inFlight = { id: ++next, resolve: job.resolve, reject: job.reject };
    // send() runs only while nothing has failed: the worker started
    worker!.postMessage({ id: inFlight.id, spec: job.spec } satisfies ToWorker);
  };
  const sendNext = () => {
    const first = waiting.entries().next();
    if (first.done) return;
    const [caller, job] = first.value;
    waiting.delete(caller);
    send(job);
  };
  const fail = (why: string) => {
    failure = new Error(`the background worker stopped: ${why}`);
    for (const job of [inFlight, ...waiting.values()]) job?.reject(failure);
    inFlight = null;
    waiting.clear();
    worker?.terminate();
  };

  try {
    worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }: MessageEvent<FromWorker>) => {
      if (!inFlight || data.id !== inFlight.id) return;
      if ('failed' in data && data.failed) return fail(data.failed);
      const done = inFlight;
      inFlight = null;
      sendNext();
      done.resolve(unpack(data as PackedTrace));
    };
    worker.onerror = (e) => { e.preventDefault?.(); fail(e.message || 'it could not start'); };
    worker.onmessageerror = () => fail('a message could not be read');
    worker.postMessage({ module } satisfies ToWorker);
  } catch (e) {
    failure = e;
  }

  return {
    install(file) {
      if (failure || file === weights) return;
      weights = file;
      worker!.postMessage({ weights: file } satisfies ToWorker);  // before any spec sent after it
    },
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
export function background(core: AttentionCore): Background {
  shared ??= start(core.module);
  return shared;
}

// Traces past this many numbers (as the core counts them: its tokens, widths and heads, not a
// guess from the spaces in the sentence) are computed in the worker, so the page stays
// responsive; smaller ones on the spot, where the worker's round trip (copying the trace back)
// would cost more than the run itself (bench/run.mjs measures both sides of this line).
export const BACKGROUND_CELLS = 400_000;

/** Whether the core counts `spec` as large: computed in the worker. A refused spec is small
 *  (refused at once). */
export const large = (core: Pick<AttentionCore, 'work'>, spec: Spec): boolean => {
  const work = core.work(spec);
  return 'cells' in work && work.cells >= BACKGROUND_CELLS;
};

/** The trace of `spec`, computed where its size says: on the spot, or in the worker in
 *  `caller`'s place (on the spot where no worker can run); null when a newer spec of the same
 *  caller superseded it. */
export function traceOf(core: AttentionCore, spec: Spec, caller: object): Promise<Trace | SpecError | null> {
  if (!large(core, spec)) return Promise.resolve(core.trace(spec));
  return background(core).run(spec, caller).catch(() => core.trace(spec));
}
