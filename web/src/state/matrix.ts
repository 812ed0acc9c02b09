// A matrix read from a link or an attribute: rows of finite numbers, all as long, or refused
// with the reason. What passes here is safe to hand to the core, to write back into a link or
// a snippet, and to draw; anything else (text, objects, ragged rows) never gets that far.

export type Read = { value: number[][] | number[] } | { problem: string };

// The deepest nesting a valid value has: 2 for a matrix, 1 for a vector. Counted on the text
// before parsing, so a 5,000-deep attribute is refused in one pass instead of recursing.
function depth(text: string): number {
  let deepest = 0, level = 0, quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++level);
    else if (c === ']' || c === '}') level--;
  }
  return deepest;
}

const numbers = (row: unknown): row is number[] => Array.isArray(row) && row.length > 0 && row.every((v) => typeof v === 'number');

/** `text` as a matrix (or, with `vector`, a flat list); `name` is how the reader wrote the key. */
export function readMatrix(name: string, text: string, vector: boolean): Read {
  const shape = vector ? 'a list of numbers, like [1, 2, 3]' : 'rows of numbers, like [[1, 2], [3, 4]]';
  if (depth(text) > (vector ? 1 : 2)) return { problem: `${name} is nested deeper than ${shape}` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: `${name} is not a JSON matrix` };
  }
  const rows = vector ? [value] : value;
  if (!Array.isArray(rows) || rows.length === 0 || !rows.every(numbers)) return { problem: `${name} must be ${shape}` };
  if (!rows.every((row) => row.every(Number.isFinite))) return { problem: `${name} holds a number too large to compute with` };
  const width = rows[0].length;
  const ragged = rows.findIndex((row) => row.length !== width);
  if (ragged >= 0) return { problem: `${name}: row ${ragged} has ${rows[ragged].length} numbers, row 0 has ${width}` };
  return { value: value as number[][] | number[] };
}
