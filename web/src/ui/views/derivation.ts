// How one clicked number came to be, with the real numbers (computed by the core's derive()),
// written as the cells write them, full precision on hover. Rows and columns are numbered from
// 0, as the heatmaps' headers and NumPy number them.
import { LitElement, css as style, html, nothing } from 'lit';
import { full, short } from '../shared/colour.js';
import type { SpecError } from '../../core/attention.js';
import type { CellDerivation, Logit, OutputCell, Score, ScoreTerm, ScoresCell, Stage, Weighing, WeightsCell } from '../../core/tables.js';

/** A number as the cells show it, its full precision on hover. */
const num = (v: number) => html`<span class="n" title=${full(v)}>${short(v)}</span>`;

// What derive() writes, typed from the core's records of it (cpp/src/core/derivation.cpp's derivation_schema).
type Scored = ScoresCell | WeightsCell;

export class Derivation extends LitElement {
  static properties = { derivation: { attribute: false }, tokens: { attribute: false }, group: { attribute: false } };
  derivation: CellDerivation | SpecError | null = null;
  tokens: string[] = [];   // the keys' tokens (the source's in cross mode)
  group: number[] = [];    // trace.kv_group: the key/value head each query head reads

  static styles = style`
    :host { display: block; font-size: 0.9rem; }
    .eq { font-family: var(--ap-mono, ui-monospace, monospace); overflow-wrap: anywhere; line-height: 1.7; }
    .term { white-space: nowrap; }
    .result { font-weight: 700; color: var(--ap-accent, #e4572e); }
    h3 { margin: 0 0 0.4rem; font-size: 1rem; }
    table { border-collapse: collapse; font: 0.8rem var(--ap-mono, ui-monospace, monospace); margin: 0.3rem 0; }
    td, th { padding: 1px 8px; text-align: right; }
    tr.me { background: color-mix(in srgb, var(--ap-accent, #e4572e) 18%, transparent); }
    .hint { color: var(--ap-muted, #555); }
    table.stages th { text-align: left; font-weight: 500; white-space: nowrap; }
    table.stages tr.used td { font-weight: 700; }
    .wide { overflow-x: auto; }
    .wide.more::after { content: 'all ' attr(data-columns) ' columns: scroll sideways for the rest →'; position: sticky; left: 0; display: block;
      font-size: 0.72rem; color: var(--ap-muted, #555); }
  `;

  /** A table wider than its box (the panel, a phone's screen) scrolls inside it: said under it. */
  protected updated() {
    for (const box of this.renderRoot.querySelectorAll<HTMLElement>('.wide')) box.classList.toggle('more', box.scrollWidth > box.clientWidth + 1);
  }

  private score(s: Score | Logit, staged = false) {
    const terms = s.terms;
    const kind = 'tanh' in (terms[0] ?? {}) ? 'additive' : 'W_a_k' in (terms[0] ?? {}) ? 'general' : 'dot';
    // every term is of the score's kind: each says which by its keys
    const term = (t: ScoreTerm) => 'tanh' in t
      ? html`<span class="term">${num(t.v_a)}·tanh(${num(t.q_W_1)} + ${num(t.k_W_2)})</span>`
      : html`<span class="term">${num(t.q)}×${num('W_a_k' in t ? t.W_a_k : t.k)}</span>`;
    const lead = kind === 'additive' ? 'v_a · tanh(q W_1 + k W_2)' : kind === 'general' ? 'q · (W_a kᵀ)' : staged ? 'q′ · k′' : 'q · k';
    return html`<div class="eq">${lead} = ${terms.map((t, i) => html`${i ? ' + ' : ''}${term(t)}`)}
      = <b>${num(s.raw)}</b></div>
      ${'bias' in s || 'softcap' in s ? this.logit(s)
        : s.factor !== 1 ? html`<div class="eq">× ${num(s.factor)} (scale ÷ temperature) = <span class="result">${num(s.value)}</span></div>` : nothing}`;
  }

  /** With ALiBi's bias or a softcap: × scale, + bias, then the cap and the temperature, in order. */
  private logit(s: Logit) {
    const temperature = s.temperature !== 1 ? html`, then ÷ ${num(s.temperature)} (temperature)` : nothing;
    const bias = s.bias !== undefined ? html` + ${num(s.bias)} (bias)` : nothing;
    if (!('softcap' in s)) return html`<div class="eq">× ${num(s.scale)} (scale)${bias}${temperature} = <span class="result">${num(s.value)}</span></div>`;
    return html`<div class="eq">× ${num(s.scale)} (scale)${bias} = ${num(s.before_cap)}</div>
      <div class="eq">softcap: ${num(s.softcap)} · tanh(${num(s.before_cap)} ÷ ${num(s.softcap)})${temperature} = <span class="result">${num(s.value)}</span></div>`;
  }

  /** The query's and the key's rows at every stage the core made (as the trace names them: Q,
   *  then Q_rope, ...): the score reads the last. RoPE's turn is said in words above them. */
  private stages(d: Scored) {
    const stages = d.stages as Stage[], last = stages.length - 1;  // shown only with stages
    const row = (name: string, cls: string, values: number[]) => html`<tr class=${cls}><th>${name}</th>${values.map((v) => html`<td>${num(v)}</td>`)}</tr>`;
    const r = d.rope;
    return html`${r ? html`<p>RoPE: q of “${d.query_token}” turns by its position ${r.q_position}, k of “${d.key_token}” by ${r.k_position}
      (each pair by position × θₚ), so their dot product sees only ${r.q_position} − ${r.k_position} = ${r.q_position - r.k_position}:</p>`
      : html`<p>The rows the score reads, stage by stage:</p>`}
      <div class="wide" data-columns=${stages[last].q.length}><table class="stages"><tbody>
        ${stages.map((s, i) => html`${row(`q from ${s.q_name}`, `q${i ? ' stage' : ''}${i === last ? ' used' : ''}`, s.q)}`)}
        ${stages.map((s, i) => html`${row(`k from ${s.k_name}`, `k${i ? ' stage' : ''}${i === last ? ' used' : ''}`, s.k)}`)}
      </tbody></table></div>`;
  }

  /** Grouped-query attention: which key/value head this query head reads, and who shares it. */
  private shared(d: Scored) {
    if (d.kv_head === undefined || new Set(this.group).size === this.group.length) return nothing;
    const with_ = this.group.flatMap((g, h) => (g === d.kv_head && h !== d.head ? [h] : []));
    return html`<p class="hint">k and v come from key/value head ${d.kv_head}${with_.length ? `, shared with query ${with_.length > 1 ? 'heads' : 'head'} ${with_.join(', ')}` : ''}.</p>`;
  }

  private softmax(sm: Weighing, col: number) {
    if ('empty_row' in sm) return html`<p>Every position of this row is masked, so its weights are all 0.</p>`;
    if ('argmax' in sm) {
      return html`<p class="eq">hard attention: the highest visible score is ${num(sm.max)} at “${this.tokens[sm.argmax] ?? sm.argmax}”,
        so this weight is <span class="result">${num(sm.value)}</span>.</p>`;
    }
    return html`<p class="eq">softmax: exp(score − max) / Σ, with max = ${num(sm.max)}</p>
      <table><thead><tr><th>key</th><th>score</th><th>exp(score − max)</th></tr></thead><tbody>
      ${sm.row_scores.map((s, j) => html`<tr class=${j === col ? 'me' : ''}>
        <td>${this.tokens[j] ?? j}</td><td>${sm.visible[j] ? num(s) : 'masked'}</td><td>${num(sm.exps[j])}</td></tr>`)}
      </tbody></table>
      <p class="eq">Σ = ${num(sm.sum)}; ${num(sm.exps[col])} / ${num(sm.sum)} = <span class="result">${num(sm.value)}</span></p>`;
  }

  private output(d: OutputCell) {
    if (d.via === 'W_o') {
      return html`<div class="eq">output = concat · W_o column ${d.col} = ${d.terms.map((t, i) => html`${i ? ' + ' : ''}<span class="term">${num(t.concat)}×${num(t.W_o)}</span>`)}
        = <span class="result">${num(d.value)}</span></div>`;
    }
    return html`<div class="eq">output = Σ weight × v = ${d.terms.map((t, i) => html`${i ? ' + ' : ''}<span class="term" title=${t.token}>${num(t.weight)}×${num(t.v)}</span>`)}
      = <span class="result">${num(d.value)}</span></div>`;
  }

  render() {
    const d = this.derivation;
    if (!d) return html`<p class="hint">Click a cell of the scores, the weights or the output to see how it is computed.</p>`;
    if ('error' in d) return html`<p class="hint">${d.error.message}</p>`;
    const where = d.matrix === 'output'
      ? html`row ${d.row} “${d.query_token}”, column ${d.col}`
      : html`“${d.query_token}” → “${d.key_token}” (row ${d.row}, column ${d.col}), head ${d.head}`;
    return html`<h3>${d.matrix} · ${where}</h3>
      ${d.matrix === 'output' ? nothing : this.shared(d)}
      ${d.matrix !== 'output' && (d.stages?.length ?? 0) > 1 && d.score?.terms ? this.stages(d) : nothing}
      ${d.matrix === 'output' ? this.output(d) : this.score(d.score, (d.stages?.length ?? 0) > 1)}
      ${d.matrix === 'weights' ? this.softmax(d.softmax, d.col) : nothing}`;
  }
}

customElements.get('ap-derivation') || customElements.define('ap-derivation', Derivation);
