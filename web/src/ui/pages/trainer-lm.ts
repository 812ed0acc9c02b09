// What <attention-trainer> draws for the "Language model" task: the loss against the steps (the
// batches' and the held-out, in nats per character, beside token frequencies alone), the
// in-context score (a held-out span read after itself against after another span), and every
// head's previous-token and induction score on the same step axis, so that the induction heads
// forming (Olsson et al.'s phase change) shows beside what the loss and the in-context score do
// then. The charts are drawn at the width they have, so their text stays readable on a phone, and each zooms to its
// data: the loss from where it is after its first steep fall (the line enters from the top), the
// scores from 0 to a little above the highest.
import { css, html, svg, nothing, type TemplateResult } from 'lit';
import type { LmHistory } from '../../core/training.js';
import SHIPPED from '../../state/core-model.json';
import { short, tick } from '../shared/colour.js';

/** A head counts as an induction head from this score on (the playground labels heads from it). */
export const FORMED = 0.3;

/** What the task is, said beside the charts. */
export const LM_EXPLANATION = html`The playground’s trained model, learning from scratch in this tab: two layers of four causal attention heads,
  d_model 96, RoPE, word pieces as its tokens (${SHIPPED.vocabulary} of them: the bytes and the merges the playground’s model reads with) and nothing else, reading Debian’s fortunes (5,880 quotations and jokes, 820 KB, fetched when you
  pick this task) to guess the next token. The loss is in nats per character, so that it compares with a model of other tokens; random weights guess wrong with confidence. Watch the
  <b>previous-token heads</b> form (a token looks at the one before it), and watch for <b>induction heads</b> in layer 2 (a token looks at
  what followed an earlier copy of itself, to copy it): when they form, the model suddenly predicts a text it has just read far better the second
  time (the in-context score jumps), the phase change of Olsson et al. (2022), “In-context learning and induction heads”. The first 2,000 steps read windows of 32 tokens, where the heads start to form;
  the held-out loss, on windows of 128, drops when the model first reads windows that long, and the probe (100 tokens) scores the heads
  (with the defaults the induction head passes 0.3 at step 2,150 and 0.5 by step 2,500). A head’s score is measured on 50 random word pieces written twice: 1 is a perfect head.`;

/** A head's colour: layer 0 cool, layer 1 warm, a hue for each head; a CSS variable, lighter in
 *  the dark theme (LM_STYLES). */
export const headColour = (layer: number, head: number) => `var(--lm-${layer % 2}-${head % 4})`;

const LOSS = 'var(--lm-loss)', HELD_OUT = 'var(--lm-held-out)';

/** The head of `layer` with the highest latest score in `scores` ([layer][head][point]). */
export function bestHead(scores: number[][][], layer: number): number {
  const latest = scores[layer].map((c) => c[c.length - 1] ?? 0);
  return latest.indexOf(Math.max(...latest));
}

/** A head's name in the charts' legends, "layer.head": layers counted from 1 and heads from 0, as
 *  the playground names them ("Layer 1", "head 0"). */
export const headName = (layer: number, head: number) => `${layer + 1}.${head}`;

/** The best latest score of all heads, and its head (layer and head from 0). */
export function best(scores: number[][][]): { layer: number; head: number; score: number } {
  let top = { layer: 0, head: 0, score: -Infinity };
  scores.forEach((layer, l) => layer.forEach((c, h) => {
    const v = c[c.length - 1];
    if (v !== undefined && v > top.score) top = { layer: l, head: h, score: v };
  }));
  return top;
}

/** The first step at which some head's induction score reached FORMED, or null. */
export function formedAt(h: LmHistory): number | null {
  for (let i = 0; i < h.step.length; i++) {
    if (h.induction.some((layer) => layer.some((c) => c[i] >= FORMED))) return h.step[i];
  }
  return null;
}

/** Round ticks about a quarter of [lo, hi] apart. */
function ticks(lo: number, hi: number, count = 4): number[] {
  const rough = (hi - lo) / count, power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough * (1 - 1e-9))!;
  const out = [];
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k++) out.push(Number((k * step).toPrecision(12)));
  return out;
}

interface Line { xs: number[]; ys: number[]; colour: string; width: number; opacity?: number; dashed?: boolean; key: string }

const H = 150, L = 40, R = 12, T = 8, B = 30;
/** A chart's width: the room it has, and no less than a phone's. */
const w = (width: number) => Math.max(240, width);

/** One chart of the same step axis [0, maxStep]: the lines, clipped to the frame; a marker at
 *  the step the induction heads formed, if they did. */
function chart(id: string, label: string, width: number, maxStep: number, y: [number, number], lines: Line[],
  marker: number | null, notes: TemplateResult[] = []): TemplateResult {
  const wide = w(width);
  const px = (s: number) => L + (wide - L - R) * (s / maxStep);
  const py = (v: number) => T + (H - T - B) * (1 - (v - y[0]) / (y[1] - y[0]));
  const xTicks = ticks(0, maxStep, wide < 360 ? 3 : 5).filter((v) => v <= maxStep);
  return html`<svg class="lm-chart" data-chart=${id} viewBox="0 0 ${wide} ${H}" width=${wide} height=${H} role="img" aria-label=${label}>
    <defs><clipPath id="clip-${id}"><rect x=${L} y=${T} width=${wide - L - R} height=${H - T - B}></rect></clipPath></defs>
    <rect x=${L} y=${T} width=${wide - L - R} height=${H - T - B} fill="none" stroke="currentColor" stroke-opacity="0.25"></rect>
    ${ticks(y[0], y[1]).filter((v) => v >= y[0] - 1e-9 && v <= y[1] + 1e-9).map((v) => svg`
      <line x1=${L} x2=${wide - R} y1=${py(v)} y2=${py(v)} stroke="currentColor" stroke-opacity="0.08"></line>
      <text x=${L - 5} y=${py(v) + 4} text-anchor="end">${tick(v)}</text>`)}
    ${xTicks.map((v) => svg`<text x=${px(v)} y=${H - B + 14} text-anchor="middle">${tick(v)}</text>`)}
    <text x=${wide - R} y=${H - 3} text-anchor="end" class="axis">step</text>
    <g clip-path="url(#clip-${id})">
      ${marker !== null ? svg`<line class="formed" x1=${px(marker)} x2=${px(marker)} y1=${T} y2=${H - B} stroke="currentColor" stroke-opacity="0.5" stroke-dasharray="3 3"></line>` : nothing}
      ${lines.map((l) => svg`<polyline data-line=${l.key} points=${l.xs.flatMap((s, i) => (Number.isFinite(l.ys[i]) ? [`${px(s).toFixed(1)},${py(l.ys[i]).toFixed(1)}`] : [])).join(' ')}
        fill="none" style="stroke: ${l.colour}" stroke-width=${l.width} stroke-opacity=${l.opacity ?? 1} stroke-linejoin="round"
        stroke-dasharray=${l.dashed ? '6 4' : nothing}></polyline>`)}
    </g>
    ${notes}
  </svg>`;
}

export interface LossChart { history: LmHistory; unigram: number; width: number; maxStep: number; marker: number | null }

/** The loss: the batches' (light, noisy) and the held-out (bold), and token frequencies alone
 *  (dashed). Its top is the highest loss after the first tenth of the steps, so that what the loss
 *  does then (the bump as the induction heads form) fills the height: the first steps' fall
 *  enters from above, and token frequencies, once the model is well below them, are above the
 *  top; the key says both. */
export function lossChart({ history: h, unigram, width, maxStep, marker }: LossChart): TemplateResult {
  const n = h.step.length, first = h.step[0], last = h.step[n - 1];
  const later = h.step.flatMap((s, i) => (s >= first + 0.1 * (last - first) ? [i] : []));
  const finite = (list: number[]) => list.filter(Number.isFinite);
  const values = finite([...h.loss, ...h.eval_loss]);
  if (!values.length) values.push(unigram);  // a run that diverged at once
  const top = Math.max(...finite(later.flatMap((i) => [h.loss[i], h.eval_loss[i]])), Math.min(...values));
  const lo = Math.min(...values), pad = 0.06 * (top - lo || 1);
  const y: [number, number] = [lo - pad, top + pad];
  const clipped = h.eval_loss[0] > y[1] || h.loss[0] > y[1];
  const baselineShown = unigram <= y[1] && unigram >= y[0];
  const e = h.eval_loss[n - 1], t = h.loss[n - 1];
  // The baseline's label sits at the right, above its line, or below it when the line runs near the top.
  const at = T + (H - T - B) * (1 - (unigram - y[0]) / (y[1] - y[0]));
  const label = baselineShown ? svg`<text x=${w(width) - R - 6} y=${at - T < 24 ? at + 14 : at - 5} text-anchor="end" class="baseline">token frequencies alone, ${short(unigram)}</text>` : svg``;
  return html`${chart('loss', `Loss against steps: at step ${last} the batches' loss is ${short(t)} and the held-out loss ${short(e)} nats per character; token frequencies alone give ${short(unigram)}.`,
    width, maxStep, y, [
      { key: 'unigram', xs: [0, maxStep], ys: [unigram, unigram], colour: 'currentColor', width: 1.2, opacity: 0.55, dashed: true },
      { key: 'loss', xs: h.step, ys: h.loss, colour: LOSS, width: 1.4, opacity: 0.55 },
      { key: 'eval_loss', xs: h.step, ys: h.eval_loss, colour: HELD_OUT, width: 2.4 },
    ], marker, [label])}
    <div class="lm-key"><span><i style="border-color:${HELD_OUT};border-top-width:3px"></i>held-out fortunes</span>
      <span><i style="border-color:${LOSS};opacity:0.6"></i>training batches</span>
      <span><i style="border-top-style:dashed"></i>token frequencies alone${baselineShown ? '' : html`, ${short(unigram)}: above the top`}</span>
      ${clipped ? html`<span class="clipped">↑ it starts above the top, at ${short(Math.max(h.eval_loss[0], h.loss[0]))} (step ${first})</span>` : nothing}</div>`;
}

export interface InContextChart { history: LmHistory; width: number; maxStep: number; marker: number | null }

/** The in-context score: how much less a held-out span costs read right after itself than after
 *  another span (the same tokens at the same places). A model that cannot look back at a
 *  copy scores about 0; Olsson et al.'s phase change is its jump as the induction heads form
 *  (the marker). */
export function inContextChart({ history: h, width, maxStep, marker }: InContextChart): TemplateResult {
  const values = h.in_context.filter(Number.isFinite);
  const lo = Math.min(0, ...values), hi = Math.max(0.5, ...values), pad = 0.06 * (hi - lo);
  const last = h.in_context[h.in_context.length - 1];
  return chart('in_context', `In-context score against steps: at step ${h.step[h.step.length - 1]} a held-out span costs ${short(last)} nats per token less read right after itself than after another span.`,
    width, maxStep, [lo - pad, hi + pad], [
      { key: 'zero', xs: [0, maxStep], ys: [0, 0], colour: 'currentColor', width: 1.2, opacity: 0.55, dashed: true },
      { key: 'in_context', xs: h.step, ys: h.in_context, colour: HELD_OUT, width: 2.4 },
    ], marker);
}

export interface HeadChart { history: LmHistory; pattern: 'previous_token' | 'induction'; width: number; maxStep: number; marker: number | null }

/** Every head's score on one pattern: the best head of each layer (by its latest score) bold. */
export function headChart({ history: h, pattern, width, maxStep, marker }: HeadChart): TemplateResult {
  const scores = h[pattern];
  const top = Math.max(0.05, ...scores.flat(2).filter(Number.isFinite));
  const hi = Math.min(1, Math.ceil((top * 1.15) / 0.05) * 0.05);
  const bests = scores.map((_, l) => bestHead(scores, l));
  const lines: Line[] = [];
  scores.forEach((layer, l) => layer.forEach((c, k) => {
    if (k !== bests[l]) lines.push({ key: headName(l, k), xs: h.step, ys: c, colour: headColour(l, k), width: 1.2, opacity: 0.45 });
  }));
  bests.forEach((k, l) => lines.push({ key: headName(l, k), xs: h.step, ys: scores[l][k], colour: headColour(l, k), width: 2.6 }));
  const name = pattern === 'induction' ? 'Induction' : 'Previous-token';
  const b = best(scores);
  return chart(pattern, `${name} score of every head against steps: the best now is layer ${b.layer + 1}'s head ${b.head}, at ${short(b.score)} (1 is a perfect head).`,
    width, maxStep, [0, hi], lines, marker);
}

/** The legend of the head charts: every head as layer.head in its colour, the best of each layer bold, with its score. */
export function headLegend(h: LmHistory, pattern: 'previous_token' | 'induction'): TemplateResult {
  const scores = h[pattern];
  return html`<div class="legend" data-legend=${pattern}>${scores.map((layer, l) => html`<span class="layer">layer ${l + 1}:
    ${layer.map((c, k) => {
      const top = bestHead(scores, l) === k;
      return html`<span class="key ${top ? 'best' : ''}" title="layer ${l + 1}, head ${k}: ${short(c[c.length - 1] ?? 0)}"><i style="border-color:${headColour(l, k)}"></i>${headName(l, k)}${top ? html` <b>${short(c[c.length - 1] ?? 0)}</b>` : nothing}</span>`;
    })}</span>`)}</div>`;
}

const LIGHT = css`--lm-0-0: #2b6cb0; --lm-0-1: #0f9d9a; --lm-0-2: #7b61d1; --lm-0-3: #3f9a4a;
  --lm-1-0: #d1495b; --lm-1-1: #e07b00; --lm-1-2: #b58900; --lm-1-3: #c2307a; --lm-loss: #d1495b; --lm-held-out: #2b6cb0;`;
const DARK = css`--lm-0-0: #6ea8ff; --lm-0-1: #3cc7c4; --lm-0-2: #a996ff; --lm-0-3: #6cc777;
  --lm-1-0: #ff7a85; --lm-1-1: #ffa142; --lm-1-2: #e0b93a; --lm-1-3: #f06bb0; --lm-loss: #ff7a85; --lm-held-out: #6ea8ff;`;

export const LM_STYLES = css`
  :host { ${LIGHT} }
  @media (prefers-color-scheme: dark) { :host(:not([theme='light'])) { ${DARK} } }
  :host([theme='dark']) { ${DARK} }
  .lm-charts { display: flex; flex-direction: column; gap: 0.3rem; width: min(100%, 640px); min-width: 0; }
  .lm-charts h3 { font-size: 0.9rem; margin: 0.5rem 0 0; font-weight: 600; }
  .lm-charts h3 .sub { font-weight: 400; color: var(--ap-muted); }
  .lm-chart { display: block; font: 11px var(--ap-mono); overflow: visible; }
  .lm-chart text { fill: currentColor; }
  .lm-chart .axis, .lm-chart .baseline, .lm-chart .clipped { fill: var(--ap-muted); }
  .legend { font-size: 0.75rem; color: var(--ap-muted); display: flex; flex-wrap: wrap; gap: 0.1rem 1rem; }
  .legend .layer { white-space: nowrap; }
  .legend .key { margin-right: 0.5em; font-family: var(--ap-mono); }
  .legend .key.best { color: var(--ap-fg); font-weight: 600; }
  .legend .key i { display: inline-block; width: 1.1em; height: 0; border-top: 2px solid; margin-right: 0.25em; vertical-align: 0.25em; }
  .legend .key.best i { border-top-width: 3px; }
  .lm-key { font-size: 0.75rem; color: var(--ap-muted); display: flex; flex-wrap: wrap; gap: 0.1rem 1rem; }
  .lm-key i { display: inline-block; width: 1.4em; height: 0; border-top: 2px solid; margin-right: 0.3em; vertical-align: 0.25em; }
  .formed-note { font-size: 0.82rem; margin: 0.2rem 0 0; }
  .lm-card { flex: 1 1 560px; max-width: 760px; }
  .open { flex: 1 1 260px; max-width: 62ch; }
  .open p { margin: 0.3rem 0; font-size: 0.9rem; }
  .open .shown { font-weight: 600; }
  .inspect { margin-top: 1rem; border: 1px solid var(--ap-line); border-radius: 12px; overflow: hidden; }
  .inspect > p { margin: 0; padding: 0.5rem 0.9rem; background: color-mix(in srgb, var(--ap-focus) 10%, transparent); font-size: 0.9rem; }
`;
