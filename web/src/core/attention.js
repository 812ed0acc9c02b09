// The core, loaded once: load() -> { run, runPacked, random, numpy, derive, parameters, work, settings, entropy, stats, module }.
// The same file works in the browser (the wasm is fetched and compiled while it streams) and
// in Node (the wasm is read from disk), and every call is JSON in, plain objects out, so no
// embind handle ever reaches the caller.
import createAttentionCore from './wasm/attention-core.mjs';
import { wrap } from './wrap.js';
import { instantiate } from './instantiate.js';

export { unpack } from './wrap.js';

/** The training module (watch attention learn), loaded on first use: a wasm module of its own. */
export const loadTraining = () => import('./training-core.js').then((m) => m.loadTraining());

const wasmUrl = new URL('./wasm/attention-core.wasm', import.meta.url);

let shared = null;

// One module per page: every <attention-playground> on it shares this promise.
export function load() {
  if (!shared) {
    let compiled = null;
    shared = createAttentionCore({
      instantiateWasm(imports, done) {
        instantiate(wasmUrl, imports).then((r) => { compiled = r.module; done(r.instance, r.module); });
        return {};
      },
    }).then((core) => ({ ...wrap(core), module: compiled }));
    shared.catch(() => { shared = null; });  // a failed load may be retried
  }
  return shared;
}
