// Whether weights look alike on a 0-to-1 scale: the playground then offers to colour each row by
// its own largest weight (its first screen says the same before its code has arrived).
import { rowView } from '../../core/packed.js';

/** Whether a head's rows (a few, spread over the matrix: at 512 tokens each read row is built)
 *  mostly put less than half their weight on any one key; rows that see one or two keys are
 *  passed over, their weight is 1 or a half by construction. */
export function nearUniform(heads: number[][][], mask?: number[][]): boolean {
  const w = heads[0], n = w.length, picks = Math.min(n, 32);
  let counted = 0, peaked = 0;
  for (let k = 0; k < picks; k++) {
    // read where the numbers lie: a row of a lazy matrix read here would be built for this alone
    const i = Math.floor((k * n) / picks), [row, factor] = rowView(w, i), seen = mask ? nonZero(rowView(mask, i)[0]) : row.length;
    if (seen <= 2) continue;
    counted++;
    let top = -Infinity;
    for (let j = 0; j < row.length; j++) top = Math.max(top, row[j] / factor);
    if (top >= 0.5) peaked++;
  }
  return counted > 0 && peaked * 4 < counted;
}

function nonZero(row: ArrayLike<number>): number {
  let count = 0;
  for (let j = 0; j < row.length; j++) if (row[j] !== 0) count++;
  return count;
}
