// The core in a Web Worker (started by background.ts). The first message brings the module
// the page already compiled, so the worker fetches nothing; then each spec gets its packed
// trace back, the numbers' buffer transferred rather than copied.
import type { PackedTrace, Spec } from './attention.js';
import createAttentionCore from './wasm/attention-core.mjs';
import { emscripten, type EmscriptenFactory } from './instantiate.js';
import { wrap, type CoreModule, type WrappedCore } from './wrap.js';

/** What the page posts: the compiled module first, then a spec at a time, and the trained
 *  model's weights file before the first spec that names the model. */
export type ToWorker = { module: WebAssembly.Module; id?: undefined; weights?: undefined }
  | { module?: undefined; id?: undefined; weights: Uint8Array }
  | { module?: undefined; id: number; spec: Spec; weights?: undefined };
/** What this worker posts back for spec `id`: its packed trace, or why it could not compute it. */
export type FromWorker = { id: number } & (PackedTrace | { failed: string });

// The worker's global scope, as much of it as is used here (the project's types are the page's,
// whose self is a window).
declare const self: {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
};

let core: Promise<WrappedCore> | null = null;

self.onmessage = async ({ data }) => {
  if (data.module) {
    core = emscripten(createAttentionCore as EmscriptenFactory<CoreModule>, data.module).then(({ exports }) => wrap(exports));
    return;
  }
  if (data.weights) {
    const weights = data.weights;
    core = core!.then(async (c) => (await c.loadModel(weights), c));  // the specs after it wait for it
    return;
  }
  try {
    const { skeleton, numbers } = (await core)!.runPacked(data.spec);  // null only before the module's message, which comes first
    self.postMessage({ id: data.id, skeleton, numbers }, [numbers.buffer]);
  } catch (e) {
    self.postMessage({ id: data.id, failed: String((e as Error | null)?.message ?? e) });  // the page computes it instead
  }
};
