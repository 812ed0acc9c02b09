// The first heatmap's core (cpp/bindings/first_wasm.cpp): a module of its own that parses a
// spec, runs it and packs its trace, and nothing else, two fifths smaller than the whole core. A
// page opened by a shared link, or a blog post's embed, draws its first heatmap with it, then
// loads the whole core, which takes over. Whether a page wants it is said by its first script,
// which starts compiling it (early.ts, embed.ts): this module names no wasm file of its own,
// so the one-file builds, which inline every file they name, do not carry it.
import type { Spec, SpecError, Trace } from './attention.js';
import { BACKGROUND_CELLS } from './background.js';
import { EARLY, FIRST_HEATMAP, type WithEarly } from './instantiate.js';
import { instantiateFirst } from './first-module.js';
import { packedCalls, type PackedCalls } from './wrap.js';

/** The field under which this module refuses a spec only the whole core computes (the
 *  encoder-decoder, decode's steps, the online softmax's blocks): the page then waits for the
 *  whole core, and says nothing. (It runs the trained model, for a post's first screen, without
 *  the probe's scores: the element runs the model with the whole core only.) */
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
  return { runPacked: guard(calls.runPacked), trace: guard(calls.trace), work: guard(calls.work), install: guard(calls.install) } as PackedCalls;
}

/** The trace of `spec` for a screen drawn before the element (a shared link's, a post's), or
 *  null where the element is to draw it. The core counts the work first, and the spec runs here,
 *  on the page's main thread, only when the element itself would run it there (under
 *  BACKGROUND_CELLS) and when `shows(tokens)` says a screen of that many tokens can be drawn:
 *  a crafted link or post then blocks its page no longer than the element would, and a screen
 *  that could not be tables is given up before anything is computed. */
export function traceFor(calls: PackedCalls, spec: Spec, shows: (tokens: number) => boolean): Trace | SpecError | null {
  const work = calls.work(spec);
  if ('error' in work || work.cells >= BACKGROUND_CELLS || !shows(work.tokens)) return null;
  return calls.trace(spec);
}
