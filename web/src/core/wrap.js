// The JS face of one instantiated core (shared by the page's module and its Web Worker):
// every call is JSON in, plain objects out, so no embind handle ever reaches the caller.
import { PACKED, lazyRows } from './packed.js';

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
const LAZY_CELLS = 16384, LAZY_LIST = 16;

export function unpack({ skeleton, numbers }, { own = false } = {}) {
  const row = (src, at, n) => {
    const out = new Array(n);  // filled by a loop: several times faster than Array.from here
    for (let i = 0; i < n; i++) out[i] = src[at + i];
    return out;
  };
  const rowsOf = (at, rows, cols) => {
    if (rows * cols <= LAZY_CELLS) return Array.from({ length: rows }, (_, r) => row(numbers, at + r * cols, cols));
    const mine = own ? numbers.slice(at, at + rows * cols) : numbers, base = own ? 0 : at;
    const out = lazyRows(rows, (r) => row(mine, base + r * cols, cols));
    Object.defineProperty(out, PACKED, { value: { numbers: mine, at: base, rows, cols, factor: 1 } });
    return out;
  };
  const walk = (v) => {
    // A long list of entries (decode's steps, the online softmax's blocks: at 512 tokens
    // thousands, each with its matrices) is built an entry at a time, as a stepper reads it.
    if (Array.isArray(v)) return v.length > LAZY_LIST && typeof v[0] === 'object' && v[0] !== null && !('@' in v[0])
      ? lazyRows(v.length, (i) => walk(v[i])) : v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    if ('@' in v) {
      const [rows, cols] = v.shape;
      return cols === undefined ? row(numbers, v['@'], rows) : rowsOf(v['@'], rows, cols);
    }
    for (const k of Object.keys(v)) v[k] = walk(v[k]);
    return v;
  };
  return walk(skeleton);
}

export function wrap(core) {
  const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));
  const call = (fn, value) => JSON.parse(fn(text(value)));
  // The packed trace: its skeleton, and its numbers as a view into the heap that dies at
  // drop_packed(), so use() reads or copies them first.
  const packed = (spec, use) => {
    const skeleton = JSON.parse(core.run_packed(text(spec ?? {})));
    try {
      return use(skeleton, core.packed_numbers());
    } finally {
      core.drop_packed();
    }
  };
  return {
    run: (spec) => call(core.run, spec ?? {}),
    runPacked: (spec) => packed(spec, (skeleton, view) => ({ skeleton, numbers: new Float64Array(view) })),
    trace: (spec) => packed(spec, (skeleton, view) => unpack({ skeleton, numbers: view }, { own: true })),
    random: ({ seed = 42, dist = 'uniform', rows = 1, cols = 1 } = {}) => {
      const r = call(core.random, { seed, dist, rows, cols });
      return r.error ? r : r.values;
    },
    numpy: (spec) => {
      const r = call(core.numpy, spec ?? {});
      return r.error ? r : r.program;
    },
    derive: (request) => call(core.derive, request),
    parameters: (spec) => call(core.parameters, spec ?? {}),
    work: (spec) => call(core.work, spec ?? {}),
    settings: () => JSON.parse(core.settings()),
    schema: () => JSON.parse(core.schema()),
    entropy: (request) => call(core.entropy, request),
    // Leak checks: bytes the allocator holds, and live embind handles (none should stay).
    stats: () => ({ ...JSON.parse(core.stats()), handles: core.count_emval_handles() }),
  };
}

