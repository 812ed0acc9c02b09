// The mark on a matrix whose rows are built when first read (see unpack in wrap.js): where its
// numbers lie in the packed buffer, so that a whole-matrix pass (a colour range, a picture)
// reads them there instead of building every row. value = numbers[at + r * cols + c] / factor.
export const PACKED = Symbol.for('attention-playground.packed');
