// The first heatmap's core (cpp/bindings/first_wasm.cpp): a module of its own that parses a
// spec, runs it and packs its trace, and nothing else, two fifths smaller than the whole core. A
// page opened by a shared link, or a blog post's embed, draws its first heatmap with it, then
// loads the whole core, which takes over. Whether a page wants it is said by its first script,
// which starts compiling it (early.ts, embed.ts): this module names no wasm file of its own,
// so the one-file builds, which inline every file they name, do not carry it.
import { EARLY, FIRST_HEATMAP, emscripten, type EmscriptenFactory, type WithEarly } from './instantiate.js';
import { packedCalls, type PackedCalls, type PackedModule } from './wrap.js';

/** The field under which this module refuses a spec only the whole core computes (the trained
 *  model, the encoder-decoder, decode's steps, the online softmax's blocks): the page then waits
 *  for the whole core, and says nothing. */
export const WHOLE_CORE = 'core';

let shared: Promise<PackedCalls | null> | null = null;

/** The first heatmap's core, when the page began compiling it (null if that failed); else
 *  null at once: the page loads the whole core only. */
export function loadFirst(): Promise<PackedCalls | null> | null {
  const compiling = (globalThis as unknown as WithEarly)[EARLY]?.get(FIRST_HEATMAP);
  if (!compiling) return null;
  // its JS with it, imported here: pages that do not use it do not fetch it
  shared ??= Promise.all([compiling, import('./wasm/attention-first.mjs')]).then(([module, { default: create }]) => module &&
    emscripten(create as EmscriptenFactory<PackedModule>, module).then(({ exports }) => packedCalls(exports))).catch(() => null);  // the whole core draws it instead
  return shared;
}
