// The mark on a matrix whose rows are built when first read (see unpack in wrap.ts): where its
// numbers lie in the packed buffer, so that a whole-matrix pass (a colour range, a picture)
// reads them there instead of building every row. value = numbers[at + r * cols + c] / factor.
export interface Packed { numbers: Float64Array; at: number; rows: number; cols: number; factor: number }
export const PACKED: unique symbol = Symbol.for('attention-playground.packed');
// The mark on a list whose entries are built when first read: a pass over the whole list (such
// as keeping unchanged matrices) would build every entry, so it is passed over.
export const LAZY: unique symbol = Symbol.for('attention-playground.lazy');

// The array behind the proxy, read by property name as the proxy is asked (a row's index or
// any other key an array answers for).
type Keyed = Record<PropertyKey, unknown>;

/** n rows, row r made by build(r) when first read and kept from then on (a matrix whose rows
 *  are not all read: a heatmap off screen reads none, a picture reads the buffer instead). An
 *  array behind a proxy, which answers for rows not yet built: a getter defined per row costs
 *  time for every row, read or not, and at 512 tokens a trace holds tens of thousands. */
export function lazyRows<T>(n: number, build: (r: number) => T): T[] {
  const row = (key: string | symbol) => {  // the row a property name stands for, or -1
    if (typeof key !== 'string') return -1;
    const r = Number(key);
    return Number.isInteger(r) && r >= 0 && r < n && String(r) === key ? r : -1;
  };
  const target = new Array<T>(n);
  Object.defineProperty(target, LAZY, { value: true });
  return new Proxy(target as unknown as Keyed, {
    get(rows, key) {
      const value = rows[key];
      if (value !== undefined) return value;
      const r = row(key);
      return r < 0 ? value : (rows[r] = build(r));
    },
    // a row not yet built is there all the same: map, slice, `in` and Object.keys see every row
    has: (rows, key) => row(key) >= 0 || Reflect.has(rows, key),
    ownKeys: (rows) => [...Array.from({ length: n }, (_, r) => String(r)), ...Reflect.ownKeys(rows).filter((k) => row(k) < 0)],
    getOwnPropertyDescriptor(rows, key) {
      const r = row(key);
      if (r >= 0 && rows[r] === undefined) rows[r] = build(r);
      return Reflect.getOwnPropertyDescriptor(rows, key);
    },
  }) as unknown as T[];
}

/** Row r of a matrix, to read without building it: a view of the packed buffer where the
 *  matrix has one, else the row itself; and the factor its numbers are divided by. */
export function rowView(m: readonly (readonly number[])[], r: number): [ArrayLike<number>, number] {
  const p = (m as { [PACKED]?: Packed })[PACKED];
  return p ? [p.numbers.subarray(p.at + r * p.cols, p.at + (r + 1) * p.cols), p.factor] : [m[r], 1];
}
