// The core, loaded once: load() -> { run, runPacked, random, numpy, derive, parameters, work, settings, entropy, stats, module }.
// The same file works in the browser (the wasm is fetched and compiled while it streams) and
// in Node (the wasm is read from disk), and every call is JSON in, plain objects out, so no
// embind handle ever reaches the caller.
//
// This module is the package's dist/attention.js, and attention.d.ts is its public contract:
// the types are declared there once. They are imported by the package's own name, since
// './attention.js' names this file, and re-exported, so the page imports them from here; the
// exports below are checked against the functions the contract declares.
import type * as Contract from 'attention-playground';
import type { AttentionCore, Training } from 'attention-playground';
import { unpack, wrap, type CoreModule } from './wrap.js';
import { emscripten, type EmscriptenFactory } from './instantiate.js';

export type * from 'attention-playground';
export { unpack };

/** The training module (watch attention learn), loaded on first use: a wasm module of its own. */
export const loadTraining = (): Promise<Training> => import('./training-core.js').then((m) => m.loadTraining());

const wasmUrl = new URL('./wasm/attention-core.wasm', import.meta.url);

let shared: Promise<AttentionCore> | null = null;

// One module per page: every <attention-playground> on it shares this promise. Its JS is
// imported here, when the core is first wanted: a post's first heatmap is drawn by the first
// heatmap's module (first-core.ts), and its 7 KB gzip need not come before it.
export function load(): Promise<AttentionCore> {
  if (!shared) {
    shared = import('./wasm/attention-core.mjs')
      .then(({ default: create }) => emscripten(create as EmscriptenFactory<CoreModule>, wasmUrl))
      .then(({ exports, compiled }) => ({ ...wrap(exports), module: compiled }));
    shared.catch(() => { shared = null; });  // a failed load may be retried
  }
  return shared;
}

// A difference between these exports and the contract's declarations fails to compile here.
type Declared<T extends Pick<typeof Contract, 'load' | 'loadTraining' | 'unpack'>> = T;
type Checked = Declared<{ load: typeof load; loadTraining: typeof loadTraining; unpack: typeof unpack }>;
