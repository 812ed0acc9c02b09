// The cells a derivation reads, so that they light up where they stand: a score is the row of
// Q times the row of K (the head's block of columns; the key's block is its key/value group's),
// a weight is that and the whole row of scores, an output cell is its row of weights times the
// column of V (or its row of concat times the column of W_o, with several heads).
import { isSelf, stagesOf, type Untyped } from '../../state/trace-schema.js';
import type { Trace } from '../../core/attention.js';

/** Rows [r0, r1) by columns [c0, c1) of one matrix. */
export type Block = [number, number, number, number];

export interface Picked { key: string; head: number; row: number; col: number }

const QUERIES = stagesOf('query'), KEYS = stagesOf('key');  // Q, K and every stage the score reads

/** What the derivation of `sel` reads, as `key` or `key@head` (per-head stacks) -> its block. */
export function litCells(given: Trace | Untyped | null, sel: Picked | null): Map<string, Block> {
  const lit = new Map<string, Block>();
  const trace = given as Trace | null;
  if (!trace || !sel || !isSelf(trace)) return lit;
  const n = trace.tokens.length;
  const m = trace.K?.length ?? n;  // keys: the source's tokens in cross mode
  const dk = Number(trace.spec?.d_k) || 0;
  const { head, row, col } = sel;
  if (sel.key === 'scores' || sel.key === 'weights') {
    const group = trace.kv_group?.[head] ?? head;
    for (const key of QUERIES) if (trace[key]) lit.set(key, [row, row + 1, head * dk, (head + 1) * dk]);
    for (const key of KEYS) if (trace[key]) lit.set(key, [col, col + 1, group * dk, (group + 1) * dk]);
    if (sel.key === 'weights') lit.set(`scores@${head}`, [row, row + 1, 0, m]);
  } else if (sel.key === 'output') {
    if (trace.W_o) {
      const width = trace.concat[0]?.length ?? 0;
      lit.set('concat', [row, row + 1, 0, width]);
      lit.set('W_o', [0, trace.W_o.length, col, col + 1]);
    } else {
      lit.set('weights@0', [row, row + 1, 0, m]);
      lit.set('V', [0, m, col, col + 1]);
    }
  }
  return lit;
}
