// The page's one number format and its colour scales (web/src/ui/shared/colour.ts), in Node: what a
// learner reads in a cell, a legend, a derivation or an export, and the colour behind it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../../e2e/typescript.mjs';
import * as tol from '../../../tolerance.mjs';

const { short, full, tick, diverging, extent, colourOf, divergingColour, ink, viridis, SEQUENTIAL, step } = await importTSTree('web/src/ui/shared/colour.ts');

test('short: 3 significant digits with a leading zero, the true minus, exponents only when tiny or huge', () => {
  const cases = [
    [0.281, '0.281'], [-0.048, '−0.0480'], [1, '1.00'], [0.99996, '1.00'], [1.5, '1.50'], [12.345, '12.3'],
    [-12.345, '−12.3'], [99.96, '100'], [927, '927'], [4096, '4096'], [0.0012345, '0.00123'], [0.001, '0.00100'],
    [7.9e-232, '7.9e−232'], [-3.2e-5, '−3.2e−5'], [12345, '1.2e4'], [-2.5e7, '−2.5e7'],
    [0, '0'], [-0, '0'], [NaN, 'NaN'], [Infinity, '∞'], [-Infinity, '−∞'],
  ];
  for (const [v, text] of cases) assert.equal(short(v), text, `short(${v})`);
  // never an ASCII hyphen for a minus, never ".281" without its zero
  for (let k = 0; k < 2000; k++) {
    const v = (Math.random() - 0.5) * 10 ** (Math.random() * 12 - 6);
    assert.doesNotMatch(short(v), /-|^[−]?\./, `short(${v}) = ${short(v)}`);
  }
});

test('full: 8 significant digits for hover and screen readers; tick: round axis values as they are', () => {
  assert.equal(full(-0.123456789), '−0.12345679');
  assert.equal(full(927), '927');
  assert.equal(full(0.4472135954999579), '0.4472136');
  assert.deepEqual([1, 4, 16, 0.5, -2, 256].map(tick), ['1', '4', '16', '0.5', '−2', '256']);
});

// Relative luminance (WCAG) and OKLab lightness of an sRGB colour.
const linear = (c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
const lightness = ([r, g, b]) => {
  const [R, G, B] = [r, g, b].map(linear);
  const l = Math.cbrt(0.4122214708 * R + 0.5363337163 * G + 0.0514459929 * B);
  const m = Math.cbrt(0.2119034982 * R + 0.6806995451 * G + 0.1073969566 * B);
  const s = Math.cbrt(0.0883024619 * R + 0.2817188376 * G + 0.6299787005 * B);
  return 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
};
const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };

test('diverging: 0 is neutral grey in each theme, +x and −x differ in hue at the same lightness', () => {
  const scale = diverging(2.5);
  assert.deepEqual(scale, { kind: 'diverging', m: 2.5 });
  for (const scheme of ['light', 'dark']) {
    const zero = colourOf(0, scale, scheme);
    assert.equal(new Set(zero).size, 1, `${scheme}: 0 is grey, ${zero}`);
    assert.deepEqual(zero, divergingColour(0, scheme));
    assert.ok(scheme === 'light' ? lightness(zero) > 0.9 : lightness(zero) < 0.4, `${scheme}: 0 is ${zero}`);
    for (const x of [0.3, 1, 1.7, 2.5, 99]) {
      const up = colourOf(x, scale, scheme), down = colourOf(-x, scale, scheme);
      assert.ok(up[0] > up[2] && down[2] > down[0], `${scheme} ±${x}: red above 0, blue below (${up} / ${down})`);
      assert.ok(Math.abs(lightness(up) - lightness(down)) < tol.oklabLightness, `${scheme} ±${x}: equally light (${up} / ${down})`);
    }
    // further from 0 is further from the neutral lightness, on both sides
    const far = [0, 0.5, 1, 1.5, 2, 2.5].map((x) => Math.abs(lightness(colourOf(x, scale, scheme)) - lightness(zero)));
    far.reduce((a, b) => (assert.ok(b > a, `${scheme}: ${far}`), b));
  }
  assert.equal(step(2.5, scale) + step(-2.5, scale), 2 * step(0, scale));
  assert.deepEqual(colourOf(1e9, scale), colourOf(2.5, scale));   // beyond m: the end colour
  assert.deepEqual(diverging(0), { kind: 'diverging', m: 1 });     // an all-zero matrix is all neutral
  assert.equal(extent([[1, -3], [2, Infinity]]), 3);
  assert.equal(extent([[1, -3], [2, 0.5]], [[1, 0], [1, 1]]), 2);  // masked cells do not count
  // a matrix whose rows are not built yet (a large trace, unpacked lazily) is measured in its buffer, divided by its factor
  const lazy = (numbers, at, rows, cols, factor) =>
    Object.defineProperty(new Array(rows), Symbol.for('attention-playground.packed'), { value: { numbers: Float64Array.from(numbers), at, rows, cols, factor } });
  assert.equal(extent(lazy([9, 1, -3, 2, Infinity], 1, 2, 2, 1)), 3);
  assert.equal(extent(lazy([9, 1, -3, 2, 0.5], 1, 2, 2, 1), [[1, 0], [1, 1]]), 2);
  assert.equal(extent([lazy([1, -8, 2, 4], 0, 2, 2, 2), [[1, 3]]]), 4);  // a stack of heads, one lazy
});

test('weights: 0 and 1 are the ends of viridis, in both themes, whatever the matrix holds', () => {
  for (const scheme of ['light', 'dark']) {
    assert.deepEqual(colourOf(0, SEQUENTIAL, scheme), [68, 1, 84]);
    assert.deepEqual(colourOf(1, SEQUENTIAL, scheme), [253, 231, 37]);
    assert.deepEqual(colourOf(0.5, SEQUENTIAL, scheme), viridis(0.5));
  }
  // row-relative: the row's largest weight takes the top colour
  assert.deepEqual(colourOf(0.03, SEQUENTIAL, 'light', 0.03), [253, 231, 37]);
});

test('cell text stays readable: every colour of every scale, in both themes, gives at least 4.5:1', () => {
  for (const scheme of ['light', 'dark']) {
    for (let k = -200; k <= 200; k++) {
      const c = colourOf(k / 200, diverging(1), scheme);
      const text = ink(c) === '#000' ? [0, 0, 0] : [255, 255, 255];
      assert.ok(contrast(c, text) >= 4.5, `${scheme} ${k / 200}: ${c} with ${ink(c)} is ${contrast(c, text).toFixed(2)}:1`);
    }
  }
  for (let k = 0; k <= 100; k++) {
    const c = colourOf(k / 100, SEQUENTIAL);
    assert.ok(contrast(c, ink(c) === '#000' ? [0, 0, 0] : [255, 255, 255]) >= 4.5, `weight ${k / 100}`);
  }
});
