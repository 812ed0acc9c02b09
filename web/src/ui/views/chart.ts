// A small line chart as SVG: the training curves (loss and accuracy against steps) and the
// entropy of attention rows against d_k. Each series may have its own y range, drawn on the
// left or the right axis; x and the left axis may be logarithmic, and an axis given a max
// shows the points up to it. The SVG is one image whose label the caller
// writes to say what it shows now (the latest loss and accuracy, say).
import { css, html, svg, nothing, type TemplateResult } from 'lit';
import { tick } from '../shared/colour.js';

export interface Series {
  label: string;
  colour: string;
  xs: number[];
  ys: number[];
  axis?: 'left' | 'right';
  dashed?: boolean;
}

export interface Axis { label: string; min?: number; max?: number; log?: boolean }

const W = 420, H = 200, L = 46, R = 46, T = 12, B = 34;

function range(values: number[], axis: Axis): [number, number] {
  const finite = values.filter((v) => Number.isFinite(v) && (!axis.log || v > 0));
  let lo = axis.min ?? Math.min(...finite), hi = axis.max ?? Math.max(...finite);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (lo === hi) hi = axis.log ? lo * 2 : lo + 1;
  return [lo, hi];
}

function ticks([lo, hi]: [number, number], log: boolean): number[] {
  if (log) {
    // Powers of 2 a factor 4 apart (d_k), or of 10 over more than three decades (a loss).
    const out = [];
    if (hi / lo > 1000) for (let k = Math.ceil(Math.log10(lo) - 1e-9); k <= Math.log10(hi) + 1e-9; k++) out.push(Number((10 ** k).toPrecision(12)));
    else for (let v = 2 ** Math.ceil(Math.log2(lo)); v <= hi * (1 + 1e-9); v *= 4) out.push(v);
    return out;
  }
  // Round numbers about a quarter of the range apart (1, 2, 2.5 or 5 times a power of ten).
  const rough = (hi - lo) / 4, power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough * (1 - 1e-9))!;
  const out = [];
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k++) out.push(Number((k * step).toPrecision(12)));
  return out;
}

/** A tick's text: small powers of ten as 1e−5, which fit beside the axis. */
const label = (v: number) => (v > 0 && v < 0.01 ? v.toExponential(0) : tick(v)).replace('e-', 'e−');

export function lineChart(title: string, series: Series[], x: Axis, left: Axis, right?: Axis): TemplateResult {
  const xr = range(series.flatMap((s) => s.xs), x);
  const inX = (v: number) => v >= xr[0] && v <= xr[1];
  const tx = (v: number) => x.log ? Math.log(v / xr[0]) / Math.log(xr[1] / xr[0]) : (v - xr[0]) / (xr[1] - xr[0]);
  const px = (v: number) => L + (W - L - R) * (Number.isFinite(tx(v)) ? tx(v) : 0);
  const shown = (s: Series) => s.ys.filter((_, i) => inX(s.xs[i]));
  const yr = { left: range(series.filter((s) => s.axis !== 'right').flatMap(shown), left),
    right: right ? range(series.filter((s) => s.axis === 'right').flatMap(shown), right) : [0, 1] as [number, number] };
  const logs = { left: !!left.log, right: !!right?.log };
  const ty = (v: number, side: 'left' | 'right') => logs[side]
    ? Math.log(v / yr[side][0]) / Math.log(yr[side][1] / yr[side][0]) : (v - yr[side][0]) / (yr[side][1] - yr[side][0]);
  const py = (v: number, side: 'left' | 'right') => T + (H - T - B) * (1 - ty(v, side));
  const lines = series.map((s) => {
    const side = s.axis ?? 'left';
    const points = s.xs.map((xv, i) => [xv, s.ys[i]]).filter(([xv, yv]) => Number.isFinite(yv) && inX(xv) && (!logs[side] || yv > 0))
      .map(([xv, yv]) => `${px(xv).toFixed(1)},${py(yv, side).toFixed(1)}`).join(' ');
    return svg`<polyline points=${points} fill="none" stroke=${s.colour} stroke-width="2" stroke-dasharray=${s.dashed ? '5 4' : nothing}></polyline>`;
  });
  const yTicks = (side: 'left' | 'right', x0: number, anchor: string) => ticks(yr[side], logs[side]).map((v) =>
    svg`<text x=${x0} y=${py(v, side) + 4} text-anchor=${anchor}>${label(v)}</text>`);
  return html`<figure class="chart">
    <svg viewBox="0 0 ${W} ${H}" width=${W} role="img" aria-label=${title}>
      <rect x=${L} y=${T} width=${W - L - R} height=${H - T - B} fill="none" stroke="currentColor" stroke-opacity="0.25"></rect>
      ${ticks(xr, !!x.log).map((v) => svg`<text x=${px(v)} y=${H - B + 14} text-anchor="middle">${tick(v)}</text>`)}
      <text x=${(L + W - R) / 2} y=${H - 4} text-anchor="middle">${x.label}</text>
      ${yTicks('left', L - 4, 'end')}
      <text transform="translate(11 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">${left.label}</text>
      ${right ? yTicks('right', W - R + 4, 'start') : nothing}
      ${right ? svg`<text transform="translate(${W - 6} ${(T + H - B) / 2}) rotate(90)" text-anchor="middle">${right.label}</text>` : nothing}
      ${lines}
    </svg>
    <figcaption>${series.map((s) => html`<span class="key"><i style="border-color:${s.colour};border-style:${s.dashed ? 'dashed' : 'solid'}"></i>${s.label}</span>`)}</figcaption>
  </figure>`;
}

export const CHART_STYLES = css`
  .chart { margin: 0; }
  .chart svg { max-width: 100%; height: auto; font: 0.68rem var(--ap-mono, ui-monospace, monospace); overflow: visible; }
  .chart text { fill: currentColor; }
  .chart figcaption { font-size: 0.75rem; color: var(--ap-muted, #555); }
  .chart .key { margin-right: 1em; white-space: nowrap; }
  .chart .key i { display: inline-block; width: 1.4em; height: 0; border-top-width: 2px; margin-right: 0.35em; vertical-align: 0.25em; }
`;
