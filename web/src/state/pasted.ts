// Numbers pasted into a matrix, as a teacher copies them: lines of tab-, comma- or
// space-separated numbers (a spreadsheet, a CSV, NumPy's print), or a JSON array of arrays.
// Anything that is not a number refuses the whole paste, so a block is never half read.

export type Pasted = { rows: number[][] } | { problem: string };

export function readPasted(text: string): Pasted {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: 'The clipboard holds no numbers.' };
  if (trimmed.startsWith('[')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      const rows = Array.isArray(value) && value.every((v) => typeof v === 'number') ? [value] : value;
      if (Array.isArray(rows) && rows.length > 0 && rows.every((r) => Array.isArray(r) && r.length > 0
        && r.every((v) => typeof v === 'number' && Number.isFinite(v)))) return { rows: rows as number[][] };
    } catch {
      // NumPy prints [[0.1 0.2]\n [0.3 0.4]]: not JSON, but the same numbers once the brackets go.
    }
  }
  const lines = trimmed.replace(/[[\]]/g, ' ').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  const rows: number[][] = [];
  for (const [i, line] of lines.entries()) {
    const row: number[] = [];
    for (const word of line.split(/\s*[\t,;]\s*|\s+/)) {
      if (word === '') continue;
      const v = Number(word);
      if (!Number.isFinite(v)) return { problem: `“${word.slice(0, 20)}” (line ${i + 1}) is not a number, so nothing was pasted.` };
      row.push(v);
    }
    if (row.length) rows.push(row);
  }
  return rows.length ? { rows } : { problem: 'The clipboard holds no numbers.' };
}

/** The part of `rows` that fits a `height` x `width` matrix from (row, col), and what did not. */
export function fit(rows: number[][], height: number, width: number, row: number, col: number) {
  const kept = rows.slice(0, Math.max(0, height - row)).map((r) => r.slice(0, Math.max(0, width - col)));
  const widest = Math.max(...rows.map((r) => r.length));
  return { kept, rowsLeft: rows.length - kept.length, colsLeft: Math.max(0, widest - (width - col)) };
}
