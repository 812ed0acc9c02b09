// Viridis (perceptually uniform, readable by colour-blind readers and in grey), sampled at
// 11 stops from matplotlib's table and interpolated.
const STOPS: Array<[number, number, number]> = [
  [68, 1, 84], [72, 40, 120], [62, 74, 137], [49, 104, 142], [38, 130, 142], [31, 158, 137],
  [53, 183, 121], [109, 205, 89], [180, 222, 44], [229, 228, 25], [253, 231, 37],
];

/** Colour of t in [0, 1] as [r, g, b]. */
export function viridis(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const a = STOPS[i], b = STOPS[i + 1];
  return [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * f)) as [number, number, number];
}

/** viridis at 256 steps, [r, g, b] per step: canvas pictures colour a million cells with it. */
export const VIRIDIS_256: Uint8Array = (() => {
  const table = new Uint8Array(256 * 3);
  for (let k = 0; k < 256; k++) table.set(viridis(k / 255), 3 * k);
  return table;
})();

export function css([r, g, b]: [number, number, number]): string {
  return `rgb(${r} ${g} ${b})`;
}

/** Black or white text, whichever has the higher WCAG contrast on this background (over
 *  viridis the worse of the two choices still clears 4.5:1). */
export function ink([r, g, b]: [number, number, number]): string {
  const lin = (c: number) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  const L = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? '#000' : '#fff';
}

export function gradient(): string {
  return `linear-gradient(to right, ${STOPS.map((s, i) => `${css(s)} ${(i / (STOPS.length - 1)) * 100}%`).join(', ')})`;
}

/** The colour range of a matrix: its smallest and largest visible value (never empty). */
export function bounds(m: number[][], masked?: number[][]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  m.forEach((row, i) => row.forEach((v, j) => {
    if (masked && masked[i]?.[j] === 0) return;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }));
  if (!Number.isFinite(lo)) return [0, 1];
  return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
}

/** Short fixed-width text for a cell: 3 significant digits, exponent beyond that. */
export function short(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e4) return String(v);
  const a = Math.abs(v);
  if (a >= 1e4 || a < 1e-3) return v.toExponential(1).replace('e+', 'e');
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  return v.toFixed(a >= 1 ? 2 : 3).replace(/^(-?)0\./, '$1.');
}

/** Full precision for derivations and tooltips. */
export function full(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(8)));
}
