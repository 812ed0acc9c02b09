// <ap-decode-stepper>: the layer run as a decoder generates, one position at a time, from the
// trace's `decode` steps. Each step shows the KV cache after it (the newest row outlined), the
// one new row of weights per head over the cache, the output row, and what the step cost in
// multiply-adds with the cache and without it. Every number is the core's, the costs too (the
// trace's running counts after each step).
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { SEQUENTIAL, diverging, extent, short, type Scale } from '../shared/colour.js';
import { Stepper, stepperBar, STEPPER_STYLES } from './stepper.js';
import './heatmap.js';
import type { DecodeStep, SelfTrace } from '../../core/attention.js';
import { count } from '../shared/count.js';


export class DecodeStepper extends LitElement {
  static properties = { trace: { attribute: false }, start: { type: Number } };

  trace: SelfTrace | null = null;
  start = 0;  // the step to open on (a shared link's), from 0
  stepper = new Stepper(this);
  // Per trace, once: colour scales that hold still while the cache grows.
  private memo: { trace: SelfTrace; cache: Scale; output: Scale } | null = null;

  /** The position on screen (0-based), for a page or a test to read. */
  get at() { return this.stepper.at; }

  protected willUpdate(changed: PropertyValues) {
    if (changed.has('trace')) this.stepper.reset(this.trace?.decode?.length ?? 0);
    if (changed.has('start') || (changed.has('trace') && changed.get('trace') == null)) this.stepper.at = Math.min(this.start, Math.max(0, this.stepper.count - 1));
  }

  private derived(t: SelfTrace) {
    if (this.memo?.trace !== t) {
      const steps = t.decode as DecodeStep[];  // drawn only when there are steps
      const last = steps[steps.length - 1];
      this.memo = { trace: t, cache: diverging(extent([last.k_cache, last.v_cache])), output: diverging(extent(t.output)) };
    }
    return this.memo;
  }

  static styles = [STEPPER_STYLES, css`
    .tokens { display: flex; flex-wrap: wrap; gap: 0.3rem; margin: 0 0 0.7rem; }
    .tok { font: 0.85rem var(--ap-mono); border: 1px solid var(--ap-line); border-radius: 6px; padding: 0.05rem 0.45rem; }
    .tok.cached { background: var(--ap-card); }
    .tok.new { border: 2px solid var(--ap-accent); font-weight: 700; }
    .tok.later { color: var(--ap-muted); border-style: dashed; }  /* not yet: dashed and muted, still readable */
    .matrices { display: flex; flex-wrap: wrap; gap: 0.8rem 1.2rem; align-items: flex-start; }
    .fact { font: 0.85rem var(--ap-mono); margin: 0.5rem 0; }
    .cost { margin-top: 0.7rem; max-width: 46rem; }
    .cost table { border-collapse: collapse; font: 0.85rem var(--ap-mono); width: 100%; }
    .cost th, .cost td { padding: 0.2rem 0.5rem; text-align: right; border-bottom: 1px solid var(--ap-line); white-space: nowrap; }
    .cost th:first-child, .cost td:first-child { text-align: left; white-space: normal; }
    .cost thead th { font-weight: 600; color: var(--ap-muted); }
    .scroll { overflow-x: auto; }
    .bars { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 0.6rem; align-items: center; font-size: 0.8rem; margin-top: 0.5rem; }
    .bar { height: 0.7rem; border-radius: 4px; min-width: 2px; }
    .bar.with { background: var(--ap-focus); }
    .bar.without { background: var(--ap-accent); }
    @media (prefers-reduced-motion: no-preference) { .bar { transition: width 0.35s ease-out; } }
    .hint { max-width: 70ch; }
  `];

  render() {
    const t = this.trace;
    const steps = t?.decode;
    if (!t || !steps?.length) return nothing;
    const { cache, output } = this.derived(t);
    const s = this.stepper, step = steps[s.at], n = steps.length;
    const tokens = t.tokens;
    const seen = tokens.slice(0, step.t + 1);
    const kv = t.spec.kv_heads, dk = t.spec.d_k, dv = t.spec.d_v;
    const colsOf = (width: number) => Array.from({ length: kv * width }, (_, j) => (kv > 1 ? `${Math.floor(j / width)}.${j % width}` : String(j)));
    const visible = t.mask ? t.mask[step.t].slice(0, step.t + 1) : undefined;
    const heads = step.weights.map((_, h) => `head ${h}`);
    const full = t.output[step.t];
    const gap = Math.max(...step.output.map((v, j) => Math.abs(v - full[j])));
    const where = `position ${step.t} (of 0 to ${n - 1}): “${tokens[step.t]}” is fed in; the cache holds ${step.t + 1} row${step.t ? 's' : ''}`;
    const kvNote = kv > 1 ? `, columns g.j: key/value head g` : '';
    return html`
      ${stepperBar(s, 'Decoding steps', where)}
      <div class="tokens" aria-label="Positions">${tokens.map((w, i) => html`<span class="tok ${i < step.t ? 'cached' : i === step.t ? 'new' : 'later'}"
        title=${i < step.t ? 'in the cache' : i === step.t ? 'this step' : 'not generated yet'}>${w}</span>`)}</div>
      <div class="matrices">
        <ap-heatmap key="k_cache" label="K cache" caption="${step.t + 1} × ${kv * dk}: one row per position so far${kvNote}"
          .matrix=${step.k_cache} .rows=${seen} .cols=${colsOf(dk)} .scale=${cache} .newRow=${step.t}></ap-heatmap>
        <ap-heatmap key="v_cache" label="V cache" caption="${step.t + 1} × ${kv * dv}: one row per position so far${kvNote}"
          .matrix=${step.v_cache} .rows=${seen} .cols=${colsOf(dv)} .scale=${cache} .newRow=${step.t}></ap-heatmap>
        <ap-heatmap key="decode_weights" label="new weights of “${tokens[step.t]}”" caption="${heads.length} head${heads.length > 1 ? 's' : ''} × ${step.t + 1} cached keys"
          .matrix=${step.weights} .rows=${heads} .cols=${seen} .scale=${SEQUENTIAL} .masked=${visible && step.weights.map(() => visible)}></ap-heatmap>
        <ap-heatmap key="decode_output" label="output row" caption="1 × ${step.output.length}"
          .matrix=${[step.output]} .rows=${[tokens[step.t]]} .cols=${step.output.map((_, j) => String(j))} .scale=${output}></ap-heatmap>
      </div>
      <p class="fact" data-check>This row equals row ${step.t} of the output computed all at once: largest difference ${short(gap)}.</p>
      ${this.cost(t, s.at)}`;
  }

  /** The multiply-adds of this step, of the steps so far and of all of them, with and without the cache. */
  private cost(t: SelfTrace, at: number) {
    const total = t.decode_cost;
    if (!total) return nothing;
    const n = (t.decode as DecodeStep[]).length;  // the cost comes with the steps
    const sum = { with: total.with_so_far[at], without: total.without_so_far[at] };
    const before = at > 0 ? { with: total.with_so_far[at - 1], without: total.without_so_far[at - 1] } : { with: 0, without: 0 };
    const here = { with: sum.with - before.with, without: sum.without - before.without };
    const width = (v: number) => `width: ${(100 * v) / total.without_cache}%`;
    const ratio = total.without_cache / total.with_cache;
    return html`<div class="cost" data-cost>
      <div class="scroll" tabindex="0" role="region" aria-label="Multiply-adds with and without the cache"><table>
        <thead><tr><th scope="col">multiply-adds</th><th scope="col">this step</th><th scope="col">steps so far</th><th scope="col">all ${n} steps</th></tr></thead>
        <tbody>
          <tr><th scope="row">with the KV cache</th><td>${count(here.with)}</td><td data-so-far="with">${count(sum.with)}</td><td>${count(total.with_cache)}</td></tr>
          <tr><th scope="row">without the cache</th><td>${count(here.without)}</td><td data-so-far="without">${count(sum.without)}</td><td>${count(total.without_cache)}</td></tr>
        </tbody>
      </table></div>
      <div class="bars" aria-hidden="true">
        <span>so far, cached</span><div class="bar with" style=${width(sum.with)}></div>
        <span>so far, not cached</span><div class="bar without" style=${width(sum.without)}></div>
      </div>
      <p class="hint">Step t projects only the new token (d_model × (heads·d_k + kv_heads·(d_k + d_v))) and reads the t + 1 cached rows;
        without the cache it would project all t + 1 tokens' keys and values again, a cost that grows with every step.
        Over ${n} steps the cache saves ${short(ratio)}× here; the longer the text, the more it saves.</p>
    </div>`;
  }
}

customElements.get('ap-decode-stepper') || customElements.define('ap-decode-stepper', DecodeStepper);
