// A matrix whose rows are the sentence's tokens (X; the annotations in encoder-decoder mode)
// follows the sentence as it is edited: a learner adding a word to a worked example means to
// extend it, not to lose its numbers. Each token keeps the row the learner gave it (matched by
// word, in order, so inserting a word shifts nothing), a new word takes the seed's row for it,
// and the row of a word taken out is left out, ready to come back if the word does: the rows
// are always fitted from the learner's own, never from the last fitted matrix.

/** The learner's rows and the tokens they belong to; null where the row was the seed's. */
export interface OwnRows { tokens: string[]; rows: Array<number[] | null> }

export interface Fitted { matrix: number[][]; fromSeed: boolean[]; note: string }

const quoted = (words: string[]) => [...new Set(words)].map((w) => `“${w}”`).join(', ');

/** Pairs of (own index, new index) in a longest common subsequence of the two token lists. */
function alignment(a: string[], b: string[]): Array<[number, number]> {
  const n = a.length, m = b.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const pairs: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (table[i + 1][j] >= table[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

/** The matrix for `tokens`: the learner's rows where a token has one, else `seed`'s row. */
export function fitRows(own: OwnRows, tokens: string[], seed: number[][], label: string): Fitted {
  const source: Array<number | null> = tokens.map(() => null);  // the own row each token takes
  const used = new Set<number>();
  const mine = (i: number) => own.rows[i] !== null && own.rows[i] !== undefined;
  for (const [i, j] of alignment(own.tokens, tokens)) if (mine(i)) { source[j] = i; used.add(i); }
  // A word moved elsewhere keeps its row; a word repeated shares it (as the seed's rows do).
  for (const pass of ['unused', 'any'] as const) {
    tokens.forEach((word, j) => {
      if (source[j] !== null) return;
      const i = own.tokens.findIndex((w, k) => w === word && mine(k) && (pass === 'any' || !used.has(k)));
      if (i >= 0) { source[j] = i; used.add(i); }
    });
  }
  const matrix = tokens.map((_, j) => (source[j] === null ? [...seed[j]] : [...own.rows[source[j]!]!]));
  const fromSeed = source.map((s) => s === null);
  const added = tokens.filter((_, j) => fromSeed[j] && !own.tokens.some((w, k) => w === tokens[j] && !mine(k)));
  const kept = new Set(source.filter((s) => s !== null)).size;
  const left = own.tokens.filter((w, i) => mine(i) && !used.has(i) && !tokens.includes(w));
  const parts: string[] = [];
  if (added.length) parts.push(`Added ${added.length > 1 ? 'rows' : 'a row'} of ${label} for ${quoted(added)} from the seed`);
  if (kept) parts.push(`kept your ${kept === 1 ? 'row' : `${kept} rows`}`);
  if (left.length) parts.push(`left out your ${left.length > 1 ? 'rows' : 'row'} for ${quoted(left)} (back if the word is)`);
  const note = parts.length && (added.length || left.length) ? `${parts.join('; ')}.` : '';
  return { matrix, fromSeed, note: note.charAt(0).toUpperCase() + note.slice(1) };
}

/** The learner's rows behind `matrix`: a row still equal to the seed's it was fitted from is
 *  the seed's, so it follows the seed when the sentence changes again. */
export function ownRows(tokens: string[], matrix: number[][], fitted?: { matrix: number[][]; fromSeed: boolean[] }): OwnRows {
  return {
    tokens: matrix.map((_, i) => tokens[i] ?? ''),
    rows: matrix.map((row, i) => (fitted?.fromSeed[i] && fitted.matrix[i]?.every((v, j) => v === row[j]) ? null : row)),
  };
}
