// Colours and number text for every matrix: the cells, the canvas pictures, the legends and the
// exported files all come through here, so one colour is one number wherever it is seen.
//
// Signed matrices (X, W, Q, K, V, scores, outputs, differences) are drawn on a diverging scale
// over [−m, m]: a neutral colour at 0, blue below, red above, the two sides equally light at
// equal distances from 0 (so the sign is read from the hue and the size from the lightness, and
// readers who confuse red and green still tell blue from red). Weights are drawn on viridis over
// a fixed 0 to 1, or each row over 0 to its own largest weight. Light and dark themes get their
// own diverging ramp (0 is light grey on a light page, dark grey on a dark one); viridis reads
// on both.

import { PACKED, type Packed } from '../../core/packed.js';

export type RGB = [number, number, number];
export type Scheme = 'light' | 'dark';

/** How a matrix is coloured: signed values over [−m, m], or weights over [0, 1]. */
export type Scale = { kind: 'diverging'; m: number } | { kind: 'sequential' };

export const SEQUENTIAL: Scale = { kind: 'sequential' };

/** A diverging scale over [−m, m] (over [−1, 1] when m is 0 or not a number). */
export function diverging(m: number): Scale {
  return { kind: 'diverging', m: m > 0 && m < Infinity ? m : 1 };
}

/** The largest finite |value| in nested arrays of numbers (a matrix, a stack of them, a list
 *  of both); in a matrix, cells where `masked` is 0 are skipped. Plain loops: at 512 tokens the
 *  scores of four heads are a million numbers, measured on every keystroke. */
export function extent(values: unknown, masked?: number[][]): number {
  let m = 0;
  // a matrix whose rows are not built yet: its numbers, read where they lie (at 512 tokens the
  // scores of four heads are a million numbers: the largest |x| first, divided once)
  const packed = (v: unknown, mask?: number[][]) => {
    const p = (v as { [PACKED]?: Packed } | null)?.[PACKED];
    if (!p) return false;
    const numbers = p.numbers;
    let top = 0;
    for (let i = 0; i < p.rows; i++) {
      const row = mask?.[i], at = p.at + i * p.cols;
      for (let j = 0; j < p.cols; j++) {
        const a = Math.abs(numbers[at + j]);
        if (a > top && a !== Infinity && !(row && row[j] === 0)) top = a;
      }
    }
    const scaled = top / Math.abs(p.factor);
    if (scaled > m && scaled !== Infinity) m = scaled;
    return true;
  };
  const walk = (v: unknown): void => {
    if (typeof v === 'number') { const a = Math.abs(v); if (a > m && a !== Infinity) m = a; return; }
    if (!Array.isArray(v) || packed(v)) return;
    if (typeof v[0] !== 'number') { for (const x of v) walk(x); return; }
    for (let j = 0; j < v.length; j++) { const a = Math.abs(v[j]); if (a > m && a !== Infinity) m = a; }
  };
  if (masked && Array.isArray(values)) {
    if (packed(values, masked)) return m;
    const rows = values as number[][];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i], mask = masked[i];
      for (let j = 0; j < row.length; j++) {
        if (mask?.[j] === 0) continue;
        const a = Math.abs(row[j]);
        if (a > m && a !== Infinity) m = a;
      }
    }
  } else walk(values);
  return m;
}

// ---------------------------------------------------------------- the ramps

// Viridis (perceptually uniform, readable by colour-blind readers and in grey), sampled at
// 11 stops from matplotlib's table and interpolated.
const VIRIDIS: RGB[] = [
  [68, 1, 84], [72, 40, 120], [62, 74, 137], [49, 104, 142], [38, 130, 142], [31, 158, 137],
  [53, 183, 121], [109, 205, 89], [180, 222, 44], [229, 228, 25], [253, 231, 37],
];

/** Viridis at t in [0, 1]. */
export function viridis(t: number): RGB {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const a = VIRIDIS[i], b = VIRIDIS[i + 1];
  return [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * f)) as RGB;
}

// OKLCH to sRGB (Björn Ottosson's OKLab): equal steps of L look equally far apart.
function oklab(L: number, C: number, hue: number): [number, number, number] {
  const a = C * Math.cos((hue * Math.PI) / 180), b = C * Math.sin((hue * Math.PI) / 180);
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s];
}

const inGamut = (c: number[]) => c.every((x) => x >= -1e-7 && x <= 1 + 1e-7);
const encode = (x: number) => Math.round(255 * (x <= 0.0031308 ? 12.92 * x : 1.055 * Math.max(0, x) ** (1 / 2.4) - 0.055));

/** The colour of lightness L and hue `hue`, as saturated as sRGB allows up to chroma C. */
function oklch(L: number, C: number, hue: number): RGB {
  let lo = 0, hi = C;
  if (!inGamut(oklab(L, C, hue))) {
    for (let k = 0; k < 24; k++) { const mid = (lo + hi) / 2; if (inGamut(oklab(L, mid, hue))) lo = mid; else hi = mid; }
    C = lo;
  }
  return oklab(L, C, hue).map((x) => encode(Math.min(1, Math.max(0, x)))) as RGB;
}

const NEGATIVE_HUE = 255, POSITIVE_HUE = 30;  // blue, red
// Lightness at 0 and at ±m: towards dark on a light page, towards light on a dark one.
const RAMP: Record<Scheme, { zero: number; end: number; chroma: number }> = {
  light: { zero: 0.965, end: 0.44, chroma: 0.15 },
  dark: { zero: 0.31, end: 0.82, chroma: 0.14 },
};

/** The diverging colour of t in [−1, 1] (value / m) in a theme. */
export function divergingColour(t: number, scheme: Scheme): RGB {
  const u = Math.min(1, Math.abs(Number.isFinite(t) ? t : 0)), r = RAMP[scheme];
  return oklch(r.zero + (r.end - r.zero) * u, r.chroma * u ** 0.8, t < 0 ? NEGATIVE_HUE : POSITIVE_HUE);
}

export function css([r, g, b]: RGB): string {
  return `rgb(${r} ${g} ${b})`;
}

/** Black or white text, whichever has the higher WCAG contrast on this background (the worse
 *  of the two choices is where both give about 4.6:1, so every cell's text clears 4.5:1). */
export function ink([r, g, b]: RGB): string {
  const lin = (c: number) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  const L = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? '#000' : '#fff';
}

// ---------------------------------------------------------------- tables

// Both scales are quantised to tables built once: a cell's colour is then a lookup, not a
// colour conversion, and a canvas of a million cells is coloured from a byte array. The
// diverging table has an odd number of steps, so 0 falls exactly on its middle, neutral step.
const STEPS = { diverging: 257, sequential: 256 } as const;

/** One step of a scale: its colour in each theme and the cell style that picks between them. */
export interface Swatch { light: RGB; dark: RGB; style: string }

function swatch(light: RGB, dark: RGB): Swatch {
  const same = light.every((x, k) => x === dark[k]);
  // light-dark() follows the color-scheme the theme sets; the first declarations are for
  // browsers without it, which then show the light theme's colours.
  const style = same ? `background-color:${css(light)};color:${ink(light)}`
    : `background-color:${css(light)};color:${ink(light)};background-color:light-dark(${css(light)},${css(dark)});color:light-dark(${ink(light)},${ink(dark)})`;
  return { light, dark, style };
}

// Each built when first used (the diverging one takes thousands of colour conversions: a first
// screen that shows only weights does without them).
const tables: Partial<Record<Scale['kind'], Swatch[]>> = {};
const BUILD: Record<Scale['kind'], () => Swatch[]> = {
  diverging: () => Array.from({ length: STEPS.diverging }, (_, k) => {
    const t = (k - (STEPS.diverging - 1) / 2) / ((STEPS.diverging - 1) / 2);
    return swatch(divergingColour(t, 'light'), divergingColour(t, 'dark'));
  }),
  sequential: () => Array.from({ length: STEPS.sequential }, (_, k) => { const c = viridis(k / (STEPS.sequential - 1)); return swatch(c, c); }),
};
function table(kind: Scale['kind']): Swatch[] {
  return (tables[kind] ??= BUILD[kind]());
}

/** The table step of value v: on a sequential scale v / top (top = 1, or the row's largest weight). */
export function step(v: number, scale: Scale, top = 1): number {
  if (scale.kind === 'diverging') {
    const half = (STEPS.diverging - 1) / 2;
    const k = Math.round(half + (v / scale.m) * half);
    return Number.isFinite(k) ? Math.min(STEPS.diverging - 1, Math.max(0, k)) : v > 0 ? STEPS.diverging - 1 : v < 0 ? 0 : half;
  }
  const k = Math.round((v / top) * (STEPS.sequential - 1));
  return Number.isFinite(k) ? Math.min(STEPS.sequential - 1, Math.max(0, k)) : 0;
}

/** The swatch of value v on a scale (top: see step). */
export function swatchOf(v: number, scale: Scale, top = 1): Swatch {
  return table(scale.kind)[step(v, scale, top)];
}

/** The colour of value v on a scale in a theme (top: see step). */
export function colourOf(v: number, scale: Scale, scheme: Scheme = 'light', top = 1): RGB {
  return swatchOf(v, scale, top)[scheme];
}

const packed = new Map<string, Uint8Array>();

/** A scale's table as bytes, [r, g, b] per step, for painting canvases. */
export function bytes(kind: Scale['kind'], scheme: Scheme): Uint8Array {
  const key = `${kind} ${scheme}`;
  let out = packed.get(key);
  if (!out) {
    const t = table(kind);
    out = new Uint8Array(t.length * 3);
    for (let k = 0; k < t.length; k++) out.set(t[k][scheme], 3 * k);
    packed.set(key, out);
  }
  return out;
}

/** Colour stops of a scale from its low end to its high end (`count` of them). */
export function stops(kind: Scale['kind'], scheme: Scheme, count = 11): RGB[] {
  const t = table(kind);
  return Array.from({ length: count }, (_, k) => t[Math.round((k / (count - 1)) * (t.length - 1))][scheme]);
}

/** The style of a legend bar: the scale between fractions `from` and `to` of it, in the theme
 *  of the element it colours (the light theme's, where light-dark() is unknown). */
export function gradientStyle(kind: Scale['kind'], from = 0, to = 1): string {
  const t = table(kind), count = 9;
  const at = (k: number) => t[Math.round((from + ((to - from) * k) / (count - 1)) * (t.length - 1))];
  const bar = (colour: (s: Swatch) => string) => `linear-gradient(to right, ${Array.from({ length: count },
    (_, k) => `${colour(at(k))} ${((k / (count - 1)) * 100).toFixed(1)}%`).join(', ')})`;
  const light = bar((s) => css(s.light));
  return kind === 'sequential' ? `background:${light}`
    : `background:${light};background:${bar((s) => `light-dark(${css(s.light)}, ${css(s.dark)})`)}`;
}

// ---------------------------------------------------------------- numbers

const MINUS = '\u2212';

/** A number as every cell, legend, derivation and picture shows it: 3 significant digits with
 *  a leading zero (0.281, −0.0481, 1.00, 12.3); from 100 up the whole number (927, 4096); 0
 *  exactly is "0" (nothing else rounds to it); exponent form below 0.001 and from 10,000 up,
 *  with 2 digits (7.9e−232, 1.2e5), as the exponent says the size and a cell has little room.
 *  Negative numbers take the true minus sign. Full precision: full(). */
export function short(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === 0) return '0';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : `${MINUS}∞`;
  const a = Math.abs(v);
  const text = a >= 1e4 || a < 1e-3 ? a.toExponential(1).replace('e+', 'e').replace('e-', `e${MINUS}`)
    : a >= 100 ? a.toFixed(0) : a.toPrecision(3);
  return v < 0 ? MINUS + text : text;
}

/** Full precision (8 significant digits, the true minus sign) for tooltips and screen readers. */
export function full(v: number): string {
  const text = Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(8)));
  return text.replace(/-/g, MINUS);
}

/** An axis tick: a round number, as short as it is (1, 0.5, 256), the true minus sign. */
export function tick(v: number): string {
  return String(Number(v.toPrecision(6))).replace(/-/g, MINUS);
}
