// The first heatmap's core (cpp/bindings/first_wasm.cpp): a module of its own that parses a
// spec, runs it and packs its trace, and nothing else, two fifths smaller than the whole core. A
// page opened by a shared link, or a blog post's embed, draws its first heatmap with it, then
// loads the whole core, which takes over. Whether a page wants it is said by its first script,
// which starts compiling it (early.ts, embed.ts): this module names no wasm file of its own,
// so the one-file builds, which inline every file they name, do not carry it.
import { EARLY, FIRST_HEATMAP, type WithEarly } from './instantiate.js';
import { instantiateFirst } from './first-module.js';
import { packedCalls, type PackedCalls } from './wrap.js';

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
  shared ??= compiling.then((module) => module && instantiateFirst(module).then((calls) => guarded(packedCalls(calls))))
    .catch(() => null);  // the whole core draws it instead
  return shared;
}

/** The module's calls, where one that throws answers as a refusal under WHOLE_CORE: the page
 *  then draws with the whole core when it is in, instead of stopping at a page without numbers.
 *  (A module built wrong threw on its first call, and the post it was in stayed without a heatmap.) */
function guarded(calls: PackedCalls): PackedCalls {
  const refused = (e: unknown) => ({ error: { field: WHOLE_CORE, message: `the first heatmap's module failed: ${e instanceof Error ? e.message : e}` } });
  const guard = <A extends unknown[], R>(f: (...a: A) => R) => (...a: A): R | ReturnType<typeof refused> => {
    try {
      return f(...a);
    } catch (e) {
      return refused(e);
    }
  };
  return { runPacked: guard(calls.runPacked), trace: guard(calls.trace), work: guard(calls.work) } as PackedCalls;
}
