// Follow one token: the path of one query through one head, with the trace's own numbers. Its
// query vector; its score against every key (before and after the scale) and the softmax
// weights, as bars; every value vector drawn at its weight, and the head's output row they add
// up to. Every number shown is read from the trace (Q, K, V, scores, weights, heads); only the
// lengths of the bars are worked out here, for display. It draws only while on screen: a
// page that never scrolls to it never pays for it.
import { LitElement, css as style, html, nothing, type TemplateResult } from 'lit';
import { SEQUENTIAL, diverging, full, short, swatchOf } from '../shared/colour.js';
import { clip } from '../shared/clip.js';
import { isSelf, scoredRows } from '../../state/trace-schema.js';
import type { Trace } from '../../core/attention.js';

// Past this many keys, the keys with the largest weights are listed (and said so): a row per
// key of a 512-token sentence could not be read, and would cost more than the rest of the page.
const LISTED = 24;
// Wider vectors are drawn as bars without their numbers, which would not fit (the number is on hover).
const NUMBERED = 16;

/** The bar of a signed value v on a scale of ±m: from the middle, right when positive. */
function signedBar(v: number, m: number) {
  const part = m > 0 && Number.isFinite(v) ? Math.min(1, Math.abs(v) / m) * 50 : 0;
  const colour = swatchOf(v >= 0 ? m : -m, diverging(m)).style.replace(/;color:[^;]*/g, '');
  return html`<span class="sbar" aria-hidden="true"><i class=${v < 0 ? 'neg' : 'pos'}
    style="width:${part.toFixed(2)}%;${colour}"></i></span>`;
}

/** A value from 0 to 1 as a bar filled that far. */
function weightBar(w: number) {
  const colour = swatchOf(0.75, SEQUENTIAL).style.replace(/;color:[^;]*/g, '');
  return html`<span class="wbar" aria-hidden="true"><i style="width:${(Math.max(0, Math.min(1, w)) * 100).toFixed(2)}%;${colour}"></i></span>`;
}

/** A vector as a little column chart: component c as a bar up (positive) or down from the middle,
 *  of height scaled[c] / m (what is drawn), its number values[c] (what is read) beneath. */
function vector(values: number[], m: number, scaled: number[] = values, label = '', scaledBy?: number) {
  const numbered = values.length <= NUMBERED;
  return html`<span class="vec ${scaledBy === undefined ? '' : 'low'}" role="list" aria-label=${label}>${values.map((v, c) => {
    const s = scaled[c];
    const h = m > 0 && Number.isFinite(s) ? Math.min(1, Math.abs(s) / m) * 50 : 0;
    const colour = swatchOf(s >= 0 ? m : -m, diverging(m)).style.replace(/;color:[^;]*/g, '');
    const title = scaledBy === undefined ? full(v) : `${full(scaledBy)} × ${full(v)}`;
    return html`<span class="comp" role="listitem" title=${title} aria-label="${c}: ${title}" data-value=${v}>
      <span class="col"><i class=${s < 0 ? 'neg' : 'pos'} style="height:${h.toFixed(2)}%;${colour}"></i></span>
      ${numbered ? html`<span class="n">${short(v)}</span>` : nothing}</span>`;
  })}</span>`;
}

const largest = (xs: number[]) => xs.reduce((m, x) => (Number.isFinite(x) && Math.abs(x) > m ? Math.abs(x) : m), 0);

export class Flow extends LitElement {
  static properties = { trace: { attribute: false }, token: { type: Number }, head: { type: Number }, eager: { type: Boolean } };
  trace: Trace | null = null;
  token = 0;  // the token followed (its row), from 0
  head = 0;   // from 0
  eager = false;  // drawn off screen too: the view is the whole embed, and its height must not jump as it is scrolled to

  private onScreen = false;
  private skipped = false;  // an update came while off screen
  private observer = typeof IntersectionObserver === 'undefined' ? null : new IntersectionObserver((entries) => {
    this.onScreen = entries[entries.length - 1].isIntersecting;
    if (this.onScreen && this.skipped) this.requestUpdate();
  }, { rootMargin: '200px' });

  connectedCallback() {
    super.connectedCallback();
    this.observer?.observe(this);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.observer?.disconnect();
  }

  protected shouldUpdate() {
    const now = this.eager || this.onScreen || !this.observer;
    this.skipped = !now;
    return now;
  }

  /** A table wider than its box (a phone's screen) scrolls inside it: said under it. */
  protected updated() {
    for (const box of this.renderRoot.querySelectorAll<HTMLElement>('.wide')) box.classList.toggle('more', box.scrollWidth > box.clientWidth + 1);
  }

  /** Follow head k: shown here at once, and said to the element that keeps the choice. */
  private pickHead(k: number) {
    this.head = k;
    this.dispatchEvent(new CustomEvent('focus-head', { detail: { index: k }, bubbles: true, composed: true }));
  }

  /** Follow token i: shown here at once, and said to the element that keeps the choice. */
  private pick(i: number) {
    this.token = i;
    this.dispatchEvent(new CustomEvent('focus-token', { detail: { index: i }, bubbles: true, composed: true }));
  }

  static styles = style`
    :host { display: block; min-height: 4rem; font-size: 0.9rem; container-type: inline-size; }
    .wide { overflow-x: auto; max-width: 100%; }
    .wide.more::after { content: 'scroll sideways for the rest →'; position: sticky; left: 0; display: block; font-size: 0.72rem; color: var(--ap-muted, #555); }
    .row { display: flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; margin: 0 0 0.5rem; }
    .row .what { font-size: 0.8rem; font-weight: 600; color: var(--ap-muted, #555); margin-right: 0.2rem; }
    button { font: inherit; font-size: 0.82rem; border: 1px solid var(--ap-line, #ccc); background: var(--ap-card, #fff); color: inherit;
      border-radius: 6px; padding: 0.1rem 0.5rem; cursor: pointer; }
    button:hover { border-color: var(--ap-focus, #1a73e8); }
    button:focus-visible { outline: 3px solid var(--ap-focus, #1a73e8); outline-offset: 2px; }
    button[aria-pressed='true'] { background: var(--ap-fg, #222); color: var(--ap-bg, #fff); border-color: var(--ap-fg, #222); }
    .chip { font-family: var(--ap-mono, ui-monospace, monospace); }
    .chip .pos { margin-left: 0.35em; font-size: 0.72em; color: var(--ap-muted, #555); }  /* a key's position: 24 rows of a space told apart */
    h3 { margin: 0.9rem 0 0.3rem; font-size: 0.92rem; }
    h3 .k { display: inline-grid; place-items: center; width: 1.4em; height: 1.4em; border-radius: 50%; background: var(--ap-line, #ddd); font-size: 0.75rem; margin-right: 0.3rem; }
    .say { margin: 0 0 0.4rem; color: var(--ap-muted, #555); font-size: 0.82rem; max-width: 70ch; }
    .mono, table { font-family: var(--ap-mono, ui-monospace, monospace); }
    table { border-collapse: collapse; font-size: 0.8rem; }
    th, td { padding: 2px 6px; text-align: right; white-space: nowrap; }
    thead th { font-weight: 600; color: var(--ap-muted, #555); text-align: center; }
    th[scope='row'] { text-align: left; font-weight: 400; }
    th[scope='row'] button { padding: 0 0.35rem; font-size: 0.8rem; }
    td.bar { width: 7rem; min-width: 4rem; }
    tr.masked td { color: var(--ap-muted, #555); }
    .sbar, .wbar { display: block; position: relative; height: 0.7rem; border-radius: 2px; background: color-mix(in srgb, var(--ap-line, #ccc) 45%, transparent); }
    .sbar::after { content: ''; position: absolute; left: 50%; top: -2px; bottom: -2px; width: 1px; background: var(--ap-muted, #777); }
    .sbar i, .wbar i { position: absolute; top: 0; bottom: 0; border-radius: 2px; }
    .sbar i.pos { left: 50%; }
    .sbar i.neg { right: 50%; }
    .wbar i { left: 0; }
    .stack { display: flex; height: 0.9rem; border-radius: 3px; overflow: hidden; outline: 1px solid var(--ap-line, #ccc); margin: 0.3rem 0 0.2rem; max-width: 32rem; }
    .stack i { display: block; height: 100%; box-shadow: inset -1px 0 0 var(--ap-card, #fff); }
    .vec { display: inline-flex; gap: 3px; vertical-align: middle; }
    .comp { display: inline-flex; flex-direction: column; align-items: center; min-width: 3.9em; }
    .col { position: relative; display: block; width: 0.9rem; height: 2.6rem; }
    .low .col { height: 2rem; }  /* a row per key: lower, so the sum stays near its parts */
    .col::after { content: ''; position: absolute; left: -3px; right: -3px; top: 50%; height: 1px; background: var(--ap-muted, #777); }
    .col i { position: absolute; left: 0; right: 0; border-radius: 1px; }
    .col i.pos { bottom: 50%; }
    .col i.neg { top: 50%; }
    .n { font: 0.72rem var(--ap-mono, ui-monospace, monospace); }
    .values td { vertical-align: middle; }
    tr.sum th, tr.sum td { border-top: 2px solid var(--ap-fg, #222); padding-top: 4px; }
    .out .n { font-weight: 700; }
    .note { color: var(--ap-muted, #555); font-size: 0.8rem; }
    /* Short, so a change reads as a change and never delays the numbers. */
    .sbar i, .wbar i, .stack i { transition: width 0.18s ease-out; }
    .col i { transition: height 0.18s ease-out; }
    @container (width < 480px) {
      td.bar { width: 2.4rem; min-width: 2.4rem; }
      th, td { padding: 2px 3px; }
      .comp { min-width: 3.3em; }
      .n { font-size: 0.66rem; }
    }
    @media (prefers-reduced-motion: reduce) { .sbar i, .wbar i, .stack i, .col i { transition: none; } }
  `;

  render() {
    const t = this.trace;
    if (!t || !isSelf(t) || !Array.isArray(t.weights?.[0]?.[0])) {
      return html`<p class="note">Following one token needs self-attention: in encoder-decoder mode the one query is the decoder state, shown step by step above.</p>`;
    }
    const tokens = t.tokens;
    const keys = t.source_tokens ?? tokens;
    const n = tokens.length, heads = t.weights.length;
    const i = Math.min(Math.max(0, Math.trunc(this.token) || 0), n - 1);
    const h = Math.min(Math.max(0, Math.trunc(this.head) || 0), heads - 1);
    const dk = Number(t.spec.d_k);
    const group = t.kv_group?.[h] ?? h;
    const out = t.heads[h][i];  // (d_v)
    const dv = out.length;
    // The rows the score reads: the last stage the trace holds (Q, or Q turned by RoPE, ...).
    const queries = scoredRows(t, 'query'), keysRead = scoredRows(t, 'key');
    const Q = queries.rows, V = t.V;
    const q = Q[i].slice(h * dk, (h + 1) * dk);  // (d_k)
    const scores = t.scores[h][i], weights = t.weights[h][i];  // (m) each
    const visible = (j: number) => !t.mask || t.mask[i]?.[j] !== 0;
    const m = keys.length;

    // The score before its scale: the Score step's q·kᵀ (scores ÷ (scale ÷ temperature)); a bias
    // (ALiBi) or a cap cannot be taken back out that way, and then it is left to the derivation.
    const factor = t.scale / t.spec.temperature;
    const separable = factor !== 0 && Number.isFinite(factor) && !t.bias && !t.spec.softcap;
    const raw = separable ? scores.map((s) => s / factor) : null;
    const rawName = t.spec.score === 'general' ? 'q W_a kᵀ' : t.spec.score === 'additive' ? 'additive' : 'q · k';

    // Which keys get a row: all of them, or the heaviest few of a long sentence, in their order.
    const order = m <= LISTED ? keys.map((_, j) => j)
      : keys.map((_, j) => j).sort((a, b) => weights[b] - weights[a]).slice(0, LISTED).sort((a, b) => a - b);
    const shownRaw = raw ? order.filter(visible).map((j) => raw[j]) : [];
    const shownScores = order.filter(visible).map((j) => scores[j]);
    const mRaw = largest(shownRaw), mScore = largest(shownScores);
    const vRows = order.map((j) => V[j].slice(group * dv, (group + 1) * dv));  // (d_v) each
    // The keys' bars share one scale, so their shares compare; the sum, several of them added,
    // has its own (on theirs its bars would dwarf every share).
    const mV = largest(order.flatMap((j, k) => vRows[k].map((v) => weights[j] * v))), mOut = largest(out);
    // With fewer key/value heads than query heads, the keys and values are a shared head's.
    const kvName = t.spec.kv_heads && t.spec.kv_heads < heads ? `key/value head ${group}` : `head ${group}`;
    const qLabel = `${queries.name}, row ${i}${heads > 1 ? `, columns ${h * dk} to ${(h + 1) * dk - 1}` : ''}`;
    const empty = t.empty_rows?.includes(i);
    const keyButton = (j: number) => html`<button class="chip" data-index=${j} ?disabled=${j >= n}
      title="follow “${keys[j]}” (position ${j}) instead" @click=${() => this.pick(j)}>${clip(keys[j], 14)}<span class="pos">${j}</span></button>`;

    const pickTokens = html`<div class="row" role="group" aria-label="Token to follow"><span class="what">Follow</span>
      ${tokens.map((tok, k) => html`<button class="chip pick" data-index=${k} aria-pressed=${k === i ? 'true' : 'false'}
        title="position ${k}" @click=${() => this.pick(k)}>${clip(tok, 14)}</button>`)}</div>`;
    const pickHead = heads > 1 ? html`<div class="row" role="group" aria-label="Head"><span class="what">Head</span>
      ${Array.from({ length: heads }, (_, k) => html`<button class="head" data-head=${k} aria-pressed=${k === h ? 'true' : 'false'}
        @click=${() => this.pickHead(k)}>head ${k}</button>`)}</div>` : nothing;

    const scoreRows = order.map((j): TemplateResult => {
      const seen = visible(j);
      return html`<tr class=${seen ? '' : 'masked'} data-key=${j}>
        <th scope="row">${keyButton(j)}</th>
        ${raw ? html`<td class="bar">${seen ? signedBar(raw[j], mRaw) : nothing}</td><td title=${full(raw[j])}>${seen ? short(raw[j]) : 'masked'}</td>` : nothing}
        <td class="bar">${seen ? signedBar(scores[j], mScore) : nothing}</td><td title=${full(scores[j])}>${seen ? short(scores[j]) : 'masked'}</td>
        <td class="bar">${weightBar(weights[j])}</td><td class="weight" title=${full(weights[j])} data-value=${weights[j]}>${short(weights[j])}</td>
      </tr>`;
    });
    const stack = html`<div class="stack" role="img" aria-label="the weights of “${tokens[i]}” side by side: together they fill the bar">
      ${order.map((j, k) => html`<i title="${keys[j]}: ${full(weights[j])}"
        style="width:${(Math.max(0, weights[j]) * 100).toFixed(3)}%;${swatchOf(k % 2 ? 0.35 : 0.8, SEQUENTIAL).style.replace(/;color:[^;]*/g, '')}"></i>`)}</div>`;
    const valueRows = order.map((j, k) => html`<tr data-key=${j}>
      <th scope="row">${keyButton(j)}</th>
      <td title=${full(weights[j])}>${short(weights[j])} ×</td>
      <td>${vector(vRows[k], mV, vRows[k].map((v) => weights[j] * v), `value of ${keys[j]}, drawn at weight ${short(weights[j])}`, weights[j])}</td></tr>`);

    return html`${pickTokens}${pickHead}
      <h3><span class="k">1</span>The query of “${tokens[i]}”</h3>
      <p class="say">What “${tokens[i]}” looks for: ${qLabel}${queries.name !== 'Q' ? ` (${queries.label})` : ''}.</p>
      <div class="mono q wide">q = ${vector(q, largest(q), q, `query of ${tokens[i]}`)}</div>

      <h3><span class="k">2</span>Its score against every key, then the softmax</h3>
      <p class="say">${raw ? html`${rawName} compares the query with each key (${keysRead.name}${heads > 1 ? `, ${kvName}’s columns` : ''});
        × ${short(factor)} (scale ÷ temperature) gives the score; the softmax turns the row of scores into weights.`
        : html`With ${t.bias ? 'a position bias' : 'a cap'} in the score, the score before its scale is not shown apart (a clicked score’s derivation gives it term by term).`}
        ${m > LISTED ? ` The ${LISTED} keys with the largest weights, of ${m}.` : ''}</p>
      <div class="wide"><table class="scores">
        <thead><tr><th scope="col">key</th>${raw ? html`<th scope="col" colspan="2">${rawName}</th>` : nothing}
          <th scope="col" colspan="2">score</th><th scope="col" colspan="2">weight</th></tr></thead>
        <tbody>${scoreRows}</tbody>
      </table></div>
      ${empty ? html`<p class="note">Every key is masked for “${tokens[i]}”, so its weights are all 0.</p>`
        : html`${stack}<p class="say">The weights side by side fill the bar: a softmax row adds up to 1.${t.spec.attention === 'hard' ? ' Hard attention puts all of it on the highest score.' : ''}</p>`}

      <h3><span class="k">3</span>Each value, at its weight, and their sum</h3>
      <p class="say">Each key’s value vector (V${heads > 1 ? `, ${kvName}’s columns` : ''}) is drawn shrunk by its weight; added up they give
        the ${heads > 1 ? `head ${h} output` : 'output'} row of “${tokens[i]}”${heads > 1 ? ', which the Concatenate step joins with the other heads' : ''}
        (the keys’ bars share one scale; the sum is drawn on its own).</p>
      <div class="wide"><table class="values">
        <tbody>${valueRows}
          <tr class="sum"><th scope="row">= ${heads > 1 ? `head ${h}` : 'output'}</th><td></td>
            <td class="out">${vector(out, mOut, out, `output row of ${tokens[i]}`)}</td></tr>
        </tbody>
      </table></div>
      ${m > LISTED ? html`<p class="note">The output adds all ${m} values; the ${m - LISTED} with the smallest weights are not listed.</p>` : nothing}`;
  }
}

customElements.get('ap-flow') || customElements.define('ap-flow', Flow);
