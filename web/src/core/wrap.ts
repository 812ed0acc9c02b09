// The JS face of one instantiated core (shared by the page's module and its Web Worker):
// every call is JSON in, plain objects out, so no embind handle ever reaches the caller.
import type { AttentionCore, Matrix, ModelCard, PackedTrace, SpecError, Trace } from './attention.js';
import { PACKED, lazyRows, type Packed } from './packed.js';

/** The core's embind functions (cpp/bindings/attention_wasm.cpp): JSON text in and out. */
export interface CoreModule {
  run(spec: string): string;
  run_packed(spec: string): string;
  /** The last run_packed()'s numbers: a view into the wasm memory, valid until drop_packed(). */
  packed_numbers(): Float64Array;
  drop_packed(): void;
  numpy(spec: string): string;
  random(request: string): string;
  derive(request: string): string;
  parameters(spec: string): string;
  work(spec: string): string;
  settings(): string;
  schema(): string;
  entropy(request: string): string;
  stats(): string;
  count_emval_handles(): number;
  /** The weights file's bytes -> {"card"} or the error: installs the model `model: "tiny-lm"` names. */
  load_model(bytes: Uint8Array): string;
}

// The module's functions that wrap() calls through settle() (a record, so that the compiler
// says when one is missing).
const FUNCTIONS: Record<Exclude<keyof CoreModule, 'run_packed' | 'packed_numbers' | 'drop_packed' | 'work'>, true> = {
  run: true, numpy: true, random: true, derive: true, parameters: true, settings: true, schema: true, entropy: true,
  stats: true, count_emval_handles: true, load_model: true,
};

/** The core as wrap() gives it: the contract's AttentionCore but for the compiled module,
 *  which the page's loader adds. */
export type WrappedCore = Omit<AttentionCore, 'module'>;

// A matrix or vector in the skeleton: its numbers start at numbers[@].
interface Ref { '@': number; shape: [number] | [number, number] }

// A packed trace back to the plain one: every {"@": offset, "shape": [rows, cols]} (or [n])
// in the skeleton becomes nested arrays of the numbers it points to. The rows of a matrix of
// more than LAZY_CELLS numbers are built when first read (a getter that puts the row in its
// place): at 512 tokens a trace holds millions of numbers, and building them all at once held
// the page for a tenth of a second, though a heatmap off screen reads none of its rows until
// it is drawn; such a matrix is marked PACKED, and a picture or a colour range reads the buffer.
// With `own`, numbers is a view into the wasm memory that dies with the next call: each large
// matrix keeps a copy of its own numbers. One copy of the whole buffer per keystroke cost more
// than the run at 128 tokens (Chromium maps a fresh buffer over 1 MB and faults in every page);
// a matrix's own is smaller, and the small ones are built into rows at once.
// A layer of the trained model's trace is one copy (0.7 MB at 64 characters, 1.9 MB at the 128
// it reads), every matrix of it lazy: the page shows one layer's matrices, and pictures read the
// buffer. Building both layers' rows cost more: model mode's keystroke p95 went from 21.2-24.6 to
// 20.1-20.6 ms at 64 characters, and from 32.9-35.8 to 29.7-32.4 at 128 (A/B, rounds of 100
// edits). A copy per small matrix costs more than building its rows. With `later`, a layer's
// numbers are read in the wasm memory at first, and copied when the caller settles them: after
// the frame that shows them (see packedCalls).
const LAZY_CELLS = 16384, LAZY_LIST = 16;

// Where a part of the trace reads its numbers: the packed offset `base` is src[0]; `lazy`: every
// matrix is built when read, from src as it is then (src is the part's own, or becomes it).
interface Source { src: Float64Array; base: number; lazy: boolean }

interface Unpacking { own?: boolean; later?: Source[] }

export function unpack({ skeleton, numbers }: PackedTrace, { own = false, later }: Unpacking = {}): Trace | SpecError {
  const row = (src: Float64Array, at: number, n: number) => {
    const out = new Array<number>(n);  // filled by a loop: several times faster than Array.from here
    for (let i = 0; i < n; i++) out[i] = src[at + i];
    return out;
  };
  const rowsOf = (at: number, rows: number, cols: number, from: Source): Matrix => {
    if (!from.lazy && rows * cols <= LAZY_CELLS) return Array.from({ length: rows }, (_, r) => row(from.src, at - from.base + r * cols, cols));
    const copy = own && !from.lazy;
    const mine: Source = copy ? { src: numbers.slice(at, at + rows * cols), base: at, lazy: true } : from, start = at - mine.base;
    const out = lazyRows(rows, (r) => row(mine.src, start + r * cols, cols));
    // the numbers where they lie now: a part copied later is read from its copy then
    const packed = { get numbers() { return mine.src; }, at: start, rows, cols, factor: 1 } satisfies Packed;
    Object.defineProperty(out, PACKED, { value: packed });
    return out;
  };
  const whole: Source = { src: numbers, base: 0, lazy: false };
  /** A part of the trace whose numbers become one copy of its own (all of them, with `own`). */
  const apart = (v: unknown): Source => {
    if (!own) return { ...whole, lazy: true };
    let lo = Infinity, hi = -Infinity;
    const span = (x: unknown): void => {
      if (Array.isArray(x)) return x.forEach(span);
      if (x === null || typeof x !== 'object') return;
      if ('@' in x) {
        const { '@': at, shape } = x as Ref;
        lo = Math.min(lo, at);
        hi = Math.max(hi, at + shape.reduce((a, b) => a * b, 1));
        return;
      }
      Object.values(x).forEach(span);
    };
    span(v);
    if (lo >= hi) return whole;
    if (!later) return { src: numbers.slice(lo, hi), base: lo, lazy: true };
    const part = { src: numbers.subarray(lo, hi), base: lo, lazy: true };
    later.push(part);
    return part;
  };
  const walk = (v: unknown, from: Source): unknown => {
    // A long list of entries (decode's steps, the online softmax's blocks: at 512 tokens
    // thousands, each with its matrices) is built an entry at a time, as a stepper reads it.
    if (Array.isArray(v)) return v.length > LAZY_LIST && typeof v[0] === 'object' && v[0] !== null && !('@' in v[0])
      ? lazyRows(v.length, (i) => walk(v[i], from)) : v.map((x) => walk(x, from));
    if (v === null || typeof v !== 'object') return v;
    if ('@' in v) {
      const ref = v as Ref;
      const [rows, cols] = ref.shape;
      return cols === undefined ? row(from.src, ref['@'] - from.base, rows) : rowsOf(ref['@'], rows, cols, from);
    }
    const fields = v as Record<string, unknown>;
    for (const k of Object.keys(fields)) {
      const layers = k === 'layers' && Array.isArray(fields[k]);  // the trained model's
      fields[k] = layers ? (fields[k] as unknown[]).map((layer) => walk(layer, apart(layer))) : walk(fields[k], from);
    }
    return v;
  };
  return walk(skeleton, whole) as Trace | SpecError;
}

// A reply of the core that is an error, as every call may give: by its `error`, as the caller
// reads it.
const failed = (reply: object): reply is SpecError => !!(reply as Partial<SpecError>).error;

/** What a module that runs specs answers (the whole core's, and the first heatmap's: first-core.ts). */
export type PackedModule = Pick<CoreModule, 'run_packed' | 'packed_numbers' | 'drop_packed' | 'work' | 'load_model'>;
/** The calls such a module's JS face has: install(bytes) installs the trained model from its
 *  weights file (the first heatmap's module answers its card as null: it does not read it). */
export type PackedCalls = Pick<WrappedCore, 'runPacked' | 'trace' | 'work'> & { install(bytes: Uint8Array): { card: ModelCard | null } | SpecError };

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
// The core's JSON answer, typed as the contract says it is.
const call = <R>(fn: (json: string) => string, value: unknown): R => JSON.parse(fn(text(value)));

// In a browser, after the frame (in idle time, or after 100 ms on a page never idle: the numbers
// must leave the wasm memory soon, as the next call may come from a timer); in a worker or Node,
// after the current task.
const afterFrame: (f: () => void) => void = typeof requestIdleCallback === 'function'
  ? (f) => requestIdleCallback(f, { timeout: 100 }) : (f) => setTimeout(f, 0);

/** A module's packed calls, and settle(): every other call of the module must settle first. */
export function packedCalls(core: PackedModule): PackedCalls & { settle(): void } {
  // The trained model's trace leaves its layers' numbers in the wasm memory, where its matrices
  // read them, until they are copied out in idle time after the frame that shows them, or before
  // the module's next call (which may reuse or grow that memory): copying 1.5 MB at 64
  // characters was a tenth of model mode's keystroke.
  let unsettled: Source[] = [];
  const settle = () => {
    if (!unsettled.length) return;
    for (const part of unsettled) part.src = part.src.slice();
    unsettled = [];
    core.drop_packed();
  };
  // The packed trace: its skeleton, and its numbers as a view into the heap that dies at
  // drop_packed(), so use() reads or copies them first, or leaves them to settle().
  const packed = <R>(spec: unknown, use: (skeleton: PackedTrace['skeleton'], view: Float64Array, later: Source[]) => R): R => {
    settle();
    const skeleton = JSON.parse(core.run_packed(text(spec ?? {})));
    const later: Source[] = [];
    try {
      return use(skeleton, core.packed_numbers(), later);
    } finally {
      if (later.length) {
        unsettled = later;
        afterFrame(settle);  // (one scheduled for an earlier trace may copy this one's: sooner, the same)
      } else {
        core.drop_packed();
      }
    }
  };
  return {
    settle,
    runPacked: (spec) => packed(spec, (skeleton, view) => ({ skeleton, numbers: new Float64Array(view) })),
    trace: (spec) => packed(spec, (skeleton, view, later) => unpack({ skeleton, numbers: view }, { own: true, later })),
    work: (spec) => { settle(); return call(core.work, spec ?? {}); },
    install: (bytes) => { settle(); return JSON.parse(core.load_model(bytes)); },
  };
}

export function wrap(module: CoreModule): WrappedCore {
  const { settle, install: installFile, ...calls } = packedCalls(module);
  // every other call settles the last trace's numbers first
  const core = Object.fromEntries(Object.keys(FUNCTIONS).map((key) => [key, (...args: unknown[]) => {
    settle();
    return (module[key as keyof CoreModule] as (...a: unknown[]) => unknown)(...args);
  }])) as unknown as Pick<CoreModule, keyof typeof FUNCTIONS>;
  // The trained model, fetched and installed once, on the first call (model mode only); or
  // the weights file given (a model trained on /learn/), which later calls then resolve to.
  type Installed = ReturnType<WrappedCore['loadModel']>;
  let model: Installed | null = null, installed: Uint8Array | null = null;
  const install = (bytes: Uint8Array) => {
    const r = installFile(bytes) as Awaited<Installed>;
    if (!failed(r)) installed = bytes;
    return r;
  };
  const loadModel: WrappedCore['loadModel'] = (bytes) => {
    if (bytes) {
      const r = install(bytes);
      if (!failed(r)) model = Promise.resolve(r);
      return Promise.resolve(r);
    }
    if (!model) {
      // Weights given while the file is on its way are not replaced by it.
      const fetching: Installed = import('./model-weights.js').then(async ({ weightsBytes }) => {
        const file = await weightsBytes();
        return model && model !== fetching ? model : install(file);
      });
      model = fetching;
      fetching.catch(() => { if (model === fetching) model = null; });  // a failed fetch may be retried
    }
    return model;
  };
  return {
    loadModel,
    installedModel: () => installed,
    ...calls,
    run: (spec) => call(core.run, spec ?? {}),
    random: ({ seed = 42, dist = 'uniform', rows = 1, cols = 1 } = {}) => {
      const r = call<{ values: Matrix } | SpecError>(core.random, { seed, dist, rows, cols });
      return failed(r) ? r : r.values;
    },
    numpy: (spec) => {
      const r = call<{ program: string } | SpecError>(core.numpy, spec ?? {});
      return failed(r) ? r : r.program;
    },
    derive: (request) => call(core.derive, request),
    parameters: (spec) => call(core.parameters, spec ?? {}),
    settings: () => JSON.parse(core.settings()),
    schema: () => JSON.parse(core.schema()),
    entropy: (request) => call(core.entropy, request),
    // Leak checks: bytes the allocator holds, and live embind handles (none should stay).
    stats: () => ({ ...JSON.parse(core.stats()), handles: core.count_emval_handles() }),
  };
}
