// <attention-compare>: one sentence under two settings, side by side, and what changed. The
// settings are the playground's table plus `compare`, which names the one thing that differs:
// the scaling of the scores, the mask, soft against hard attention, one head against several,
// and those of current models (compare-current.ts: RoPE, key/value heads with three sides,
// the online softmax). Every trace comes from the core; this element only lays them out and
// subtracts.
import { css as style, html, nothing } from 'lit';
import { load, type AttentionCore, type EntropyCurve, type SelfTrace, type Spec } from '../../core/attention.js';
import { SETTINGS, toSpec, type SettingDef, type State } from '../../state/settings.js';
import { THEME } from '../shared/theme.js';
import { large, traceOf } from '../../core/background.js';
import { settingControl } from '../shared/control.js';
import { TableElement } from '../shared/table-element.js';
import { lineChart, CHART_STYLES } from '../views/chart.js';
import { SEQUENTIAL, diverging, extent, short, type Scale } from '../shared/colour.js';
import { CURRENT_AXES, type CurrentAxis, type Side } from './compare-current.js';
import '../views/heatmap.js';

type Axis = 'scaling' | 'mask' | 'attention' | 'heads' | keyof typeof CURRENT_AXES;

// What each comparison sets on the left and on the right, and why it is worth a look.
const AXES: Record<Axis, CurrentAxis> = {
  scaling: {
    sides: () => [{ label: 'dot: q·k', state: { score: 'dot', scale: '' } }, { label: 'scaled dot: q·k / √d_k', state: { score: 'scaled_dot', scale: '' } }],
    why: 'A dot product of two d_k-wide vectors with unit-variance entries has variance d_k: the wider the heads, the further apart the scores, and the softmax of far-apart scores puts nearly all the weight on one key (its gradient all but vanishes). Dividing by √d_k brings the variance back to 1. The plot shows it on random queries and keys: the entropy of the unscaled rows falls towards 0 as d_k grows, the scaled ones stay spread.',
  },
  mask: {
    sides: () => [{ label: 'no mask', state: { mask: 'none' } }, { label: 'causal mask', state: { mask: 'causal' } }],
    why: 'A causal mask hides every later token, so the weights above the diagonal become 0 and each row shares its weight among the tokens up to itself: the first token can only attend to itself. This is how a decoder predicts the next word without seeing it.',
  },
  attention: {
    sides: () => [{ label: 'soft attention', state: { attention: 'soft' } }, { label: 'hard attention', state: { attention: 'hard' } }],
    why: 'Soft attention mixes every value, weighted by the softmax; hard attention takes the single value with the highest score. Hard attention is sharper but not differentiable, which is why models are trained with the soft kind.',
  },
  heads: {
    sides: (s) => {
      const d = Number(s.d_model);
      const several = Number(s.heads) > 1 ? Number(s.heads) : [4, 2].find((h) => d % h === 0) ?? 1;
      return [{ label: 'one head', state: { heads: 1, d_k: '' } }, { label: `${several} heads`, state: { heads: several, d_k: '' } }];
    },
    why: 'Several heads split the width of Q, K and V into blocks: each head scores with its own slice, so one can follow the previous word while another follows the subject. Their outputs are concatenated and mixed by W_o; the one-head output has no W_o, so the outputs differ by more than the weights.',
    delta: 'output',
  },
  ...CURRENT_AXES,
};

const COMPARE: SettingDef = { key: 'compare', label: 'Compare', kind: 'select', fallback: 'scaling', options: Object.keys(AXES),
  help: 'The one setting that differs between the two sides.' };
// Both sides run random weights: the trained model (`model`) has no setting to compare.
const TABLE = [COMPARE, ...SETTINGS.filter((d) => d.key !== 'mode' && d.key !== 'model')];
const SHOWN = ['compare', 'sentence', 'seed', 'd_model', 'heads', 'embedding_init', 'weight_init', 'temperature', 'positional'];
const WIDTHS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

type Matrix = number[][];
const minus = (a: Matrix, b: Matrix) => a.map((row, i) => row.map((v, j) => v - (b[i]?.[j] ?? 0)));

export class AttentionCompare extends TableElement {
  static properties = { traces: { state: true }, curve: { state: true }, error: { state: true }, busy: { state: true } };
  static table = TABLE;
  static tag = 'attention-compare';
  static page = 'compare/';

  traces: SelfTrace[] | null = null;
  // The comparison the traces on screen are of: after a refused spec they stay, dimmed, while
  // the settings already name another comparison.
  private drawn: { axis: Axis; labels: string[] } = { axis: 'scaling', labels: [] };
  curve: EntropyCurve | null = null;
  error: { field: string; message: string } | null = null;
  busy = false;  // a side is being computed in the background
  private core: AttentionCore | null = null;
  private computed = 0;  // the latest compute(): older ones stop at their next trace
  private callers = [{}, {}, {}];  // each side's place in the worker's queue

  connectedCallback() {
    super.connectedCallback();
    load().then((core) => { this.core = core; this.compute(); },
      (e) => { this.note = `The attention core could not be loaded: ${e?.message ?? e}`; });
  }

  protected apply() { this.compute(); }

  private sides(): Side[] {
    return AXES[this.state.compare as Axis].sides(this.state);
  }

  /** The spec of one side: the shared settings with that side's difference on top, and what
   *  it takes from the first side's trace. */
  private specOf(side: Side, first?: Record<string, any>): Spec {
    const spec = toSpec({ ...this.state, ...side.state, mode: 'self' } as State);
    return first && !first.error && side.from ? { ...spec, ...side.from(first) } as Spec : spec;
  }

  /** The settings with a control here: the usual ones and those this comparison reads. */
  private shownKeys(): string[] {
    const axis = AXES[this.state.compare as Axis];
    return [...SHOWN, ...(axis.controls ?? [])].filter((k) => !axis.hides?.includes(k));
  }

  /** Every side's trace, each computed where its size says (a large one in the page's worker,
   *  in that side's place), then laid out together; an older comparison still on its way is
   *  dropped. */
  private async compute() {
    if (!this.core) return;
    const core = this.core, id = ++this.computed;
    const sides = this.sides();
    const specs: Spec[] = [], traces: Array<Record<string, any>> = [];
    this.busy = sides.some((side) => large(core, this.specOf(side)));
    for (const [i, side] of sides.entries()) {
      specs.push(this.specOf(side, traces[0]));
      const t = await traceOf(core, specs[i], this.callers[i]);
      if (t === null || id !== this.computed) return;
      traces.push(t as Record<string, any>);
    }
    this.busy = false;
    const bad = traces.find((t) => t.error)?.error;
    this.error = bad ?? null;
    if (!bad) {
      this.traces = traces as SelfTrace[];
      this.drawn = { axis: this.state.compare as Axis, labels: sides.map((s) => s.label) };
    }
    if (!bad && this.state.compare === 'scaling') {
      const curve = core.entropy({ spec: this.specOf(this.sides()[0]), widths: WIDTHS });
      this.curve = 'error' in curve ? null : curve;
    }
    this.writeHash();
    this.dispatchEvent(new CustomEvent('compare', { detail: { specs, traces: this.traces, error: this.error } }));
  }

  static styles = [THEME, CHART_STYLES, style`
    .controls { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 0.4rem 0.8rem; padding: 0.7rem 1rem; border-bottom: 1px solid var(--ap-line); }
    .control.text { grid-column: 1 / -1; }
    .main { padding: 0.8rem 1rem 2rem; }
    .why { max-width: 80ch; color: var(--ap-muted); margin: 0 0 0.8rem; }
    .sides { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 1rem; }
    .card { background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 12px; padding: 0.6rem 0.9rem; min-width: 0; }
    .card h2 { font-size: 1rem; margin: 0 0 0.4rem; }
    .card.diff { border-color: var(--ap-accent); }
    .matrices { display: flex; flex-wrap: wrap; gap: 0.6rem 1rem; }
    .summary { font: 0.85rem var(--ap-mono); margin: 0.2rem 0 0.5rem; }
    .tools { display: flex; gap: 0.4rem; margin-left: auto; }
    .stale { opacity: 0.45; }
  `];

  /** One side; `output` is the scale both sides' outputs share, so a colour is one number across them. */
  private side(trace: SelfTrace, label: string, output: Scale) {
    const t = trace.tokens;
    return html`<div class="card" part="card side" data-side=${label}>
      <h2>${label}</h2>
      <div class="matrices">
        ${trace.weights.map((w, h) => html`<ap-heatmap key="weights" .head=${h} label=${trace.weights.length > 1 ? `weights, head ${h}` : 'weights'}
          .matrix=${w} .rows=${t} .cols=${t} .scale=${SEQUENTIAL} .masked=${trace.mask}></ap-heatmap>`)}
        <ap-heatmap key="output" part="output" label="output" .matrix=${trace.output} .rows=${t} .cols=${trace.output[0].map((_, j) => String(j))} .scale=${output}></ap-heatmap>
      </div>
    </div>`;
  }

  private bothSides(traces: SelfTrace[], labels: string[]) {
    const output = diverging(extent(traces.map((t) => t.output)));
    const own = AXES[this.drawn.axis].side;
    return traces.map((t, k) => (own ? own(t, labels[k], k) : this.side(t, labels[k], output)));
  }

  /** Right minus left, with the largest change named. */
  private difference([a, b]: [SelfTrace, SelfTrace]) {
    const t = a.tokens;
    const heads = AXES[this.drawn.axis].delta === 'output';
    const key = heads ? 'output' : 'weights';
    const delta = heads ? minus(b.output, a.output) : minus(b.weights[0], a.weights[0]);
    let top = { v: 0, i: 0, j: 0 }, changed = 0;
    delta.forEach((row, i) => row.forEach((v, j) => {
      if (Math.abs(v) > 0.005) changed++;
      if (Math.abs(v) > Math.abs(top.v)) top = { v, i, j };
    }));
    const cols = heads ? delta[0].map((_, j) => String(j)) : t;
    const where = heads ? `${t[top.i]}, column ${top.j}` : `${t[top.i]} → ${t[top.j]}`;
    return html`<div class="card diff" part="card diff">
      <h2 part="diff-title">What changed: ${key} on the right minus ${key} on the left${heads ? '' : ' (head 0)'}</h2>
      <p class="summary" part="summary" data-summary>${changed} of ${delta.length * delta[0].length} numbers moved by more than 0.005;
        the largest change is ${short(top.v)} at ${where}. The colours are centred on 0: the middle of the scale is no change.</p>
      <ap-heatmap key="difference" label="Δ ${key}" .matrix=${delta} .rows=${t} .cols=${cols}
        .scale=${diverging(Math.abs(top.v))}></ap-heatmap>
    </div>`;
  }

  /** The difference on screen: the comparison's own drawing of it, or right minus left. */
  private differences(traces: SelfTrace[]) {
    const own = AXES[this.drawn.axis].difference;
    return own ? own(traces, this.drawn.labels) : this.difference([traces[0], traces[1]]);
  }

  private entropy() {
    const c = this.curve;
    if (!c) return nothing;
    return html`<div class="card">
      <h2>Entropy of the attention rows against d_k</h2>
      ${lineChart(`Entropy against d_k: at d_k ${c.d_k[c.d_k.length - 1]} unscaled rows have ${short(c.dot[c.dot.length - 1])} nats, scaled ones ${short(c.scaled_dot[c.scaled_dot.length - 1])}, uniform ${short(c.uniform)}`, [
        { label: 'dot (unscaled)', colour: '#d1495b', xs: c.d_k, ys: c.dot },
        { label: 'scaled dot', colour: '#3b6fb6', xs: c.d_k, ys: c.scaled_dot },
        { label: 'uniform (the most spread)', colour: '#777777', xs: [c.d_k[0], c.d_k[c.d_k.length - 1]], ys: [c.uniform, c.uniform], dashed: true },
      ], { label: 'd_k (log scale)', log: true }, { label: 'entropy (nats)', min: 0 })}
      <p class="hint">Random queries and keys with unit-variance entries (np.random.seed(seed), randn), one row per token of the sentence.</p>
    </div>`;
  }

  render() {
    const axis = this.state.compare as Axis;
    const labels = this.sides().map((s) => s.label);
    const field = this.error?.field ?? '';
    const shown = this.shownKeys();
    const placed = TABLE.some((d) => d.key === field && shown.includes(d.key));
    return html`
      <div class="header" part="header">
        <h2 class="title">Attention, compared: ${labels.join(' against ')}</h2>
        <div class="tools">
          <button data-action="share" @click=${this.share}>Share</button>
          <button data-action="embed" @click=${this.embed}>Embed</button>
        </div>
      </div>
      <div class="controls" part="controls">${TABLE.filter((d) => shown.includes(d.key)).map((def) => settingControl(def, {
        value: this.state[def.key], set: (text) => this.set(def, text),
        message: this.inputErrors[def.key] || (field === def.key ? this.error!.message : ''),
      }))}</div>
      <div class="main" part="main">
        ${this.note ? html`<p class="note" role="status">${this.note}</p>` : nothing}
        <p class="hint busy" role="status">${this.busy ? 'Computing the comparison in the background…' : ''}</p>
        ${this.shareText ? html`<textarea class="share" readonly rows="4" aria-label="Link or embed snippets">${this.shareText}</textarea>` : nothing}
        ${this.error && !placed ? html`<p class="message" role="alert">${this.error.message}</p>` : nothing}
        <p class="why" part="why">${AXES[axis].why}</p>
        ${this.traces ? html`<div class=${this.error ? 'stale' : ''}>
          <div class="sides" part="sides">${this.bothSides(this.traces, this.drawn.labels)}</div>
          <div class="sides" part="sides" style="margin-top: 1rem">${this.differences(this.traces)}${axis === 'scaling' ? this.entropy() : nothing}</div>
        </div>` : nothing}
      </div>`;
  }
}

customElements.get('attention-compare') || customElements.define('attention-compare', AttentionCompare);
