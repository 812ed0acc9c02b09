// The mark on a matrix whose rows are built when first read (see unpack in wrap.js): where its
// numbers lie in the packed buffer, so that a whole-matrix pass (a colour range, a picture)
// reads them there instead of building every row. value = numbers[at + r * cols + c] / factor.
export const PACKED = Symbol.for('attention-playground.packed');

/** n rows, row r made by build(r) when first read and kept from then on (a matrix whose rows
 *  are not all read: a heatmap off screen reads none, a picture reads the buffer instead). */
export function lazyRows(n, build) {
  const out = new Array(n);
  for (let r = 0; r < n; r++) {
    Object.defineProperty(out, r, { configurable: true, enumerable: true, get() {
      const value = build(r);
      Object.defineProperty(out, r, { value, configurable: true, enumerable: true, writable: true });
      return value;
    } });
  }
  return out;
}
