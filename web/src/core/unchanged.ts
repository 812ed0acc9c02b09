// Structural sharing between two traces: each matrix or vector of `next` whose numbers equal
// the same place in `previous` is replaced by the previous object. Views take their matrix by
// identity (Lit compares properties with ===), so one whose numbers did not change is not
// drawn again: while a learner types, the weights stay as they were, and at d_model 512 a
// weight matrix is a quarter of a million numbers to picture on every keystroke.
import { LAZY, PACKED, type Packed } from './packed.js';

// A list of the trace, as this pass reads it: the marks of lazyRows() and unpack() when it has them.
type List = unknown[] & { [PACKED]?: Packed; [LAZY]?: true };

// A matrix (rows of numbers, built or lazy) or a vector; an empty array counts too. The test
// reads PACKED first: reading row 0 of a lazy matrix would build it.
const numeric = (v: List) => v[PACKED] !== undefined || v.length === 0 || typeof v[0] === 'number' ||
  (Array.isArray(v[0]) && (v[0].length === 0 || typeof v[0][0] === 'number'));

// Object.is, so that -0 and 0 (shown differently) differ and NaN equals NaN.
function sameRun(a: ArrayLike<unknown>, at: number, b: ArrayLike<unknown>, bt: number, n: number) {
  for (let i = 0; i < n; i++) if (!Object.is(a[at + i], b[bt + i])) return false;
  return true;
}

function sameNumbers(a: List, b: List) {
  const pa = a[PACKED], pb = b[PACKED];
  if (pa || pb) {
    return !!pa && !!pb && pa.rows === pb.rows && pa.cols === pb.cols && pa.factor === pb.factor &&
      sameRun(pa.numbers, pa.at, pb.numbers, pb.at, pa.rows * pa.cols);
  }
  if (a.length !== b.length) return false;
  for (let r = 0; r < a.length; r++) {
    const x = a[r], y = b[r];
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (!Array.isArray(x)) { if (!Object.is(x, y)) return false; continue; }
    const ys = y as unknown[];  // an array as x is (checked above)
    if (x.length !== ys.length || !sameRun(x, 0, ys, 0, x.length)) return false;
  }
  return true;
}

/** next, with its unchanged matrices and vectors taken from previous (next is changed in place). */
export function keepUnchanged<T>(previous: unknown, next: T): T {
  if (previous === next || !previous || !next || typeof previous !== 'object' || typeof next !== 'object') return next;
  if (Array.isArray(next)) {
    if (!Array.isArray(previous)) return next;
    const list: List = next;
    if (numeric(list)) return numeric(previous) && sameNumbers(previous, list) ? previous as T : next;
    if (list[LAZY]) return next;  // decode's steps, the online blocks: a stepper draws one at a time
    for (let i = 0; i < list.length && i < previous.length; i++) list[i] = keepUnchanged(previous[i], list[i]);
    return next;
  }
  if (Array.isArray(previous)) return next;
  const into = next as Record<string, unknown>, from = previous as Record<string, unknown>;
  for (const k of Object.keys(into)) if (Object.hasOwn(from, k)) into[k] = keepUnchanged(from[k], into[k]);
  return next;
}
