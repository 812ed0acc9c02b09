// Types of background.js: large traces computed in a Web Worker.
import type { AttentionCore, Spec, SpecError, Trace } from './attention.js';

export interface Background {
  /** The trace; null when a newer spec of the same `caller` superseded this one while it
   *  waited; rejected when no worker can run. */
  run(spec: Spec, caller: object): Promise<Trace | SpecError | null>;
}

/** The page's one worker, started on first use. */
export function background(core: AttentionCore): Background;

/** Traces the core counts past this many numbers are computed in the worker. */
export const BACKGROUND_CELLS: number;

/** Whether the core counts the spec's trace as large (computed in the worker). */
export function large(core: AttentionCore, spec: Spec): boolean;

/** The trace, computed on the spot or in the worker by its size; null when superseded. */
export function traceOf(core: AttentionCore, spec: Spec, caller: object): Promise<Trace | SpecError | null>;
