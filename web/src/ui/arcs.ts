// BertViz-style head view: queries on the left, keys on the right, a line for every weight
// with its opacity the weight. Hovering or focusing a token keeps only its lines. Past a few
// dozen tokens, each token keeps its strongest lines only: thousands of SVG lines would cost
// more per keystroke than everything else on the page, and could not be told apart anyway.
import { css as style, html, svg, nothing } from 'lit';
import { short } from './colour.js';
import { DeferredElement } from './deferred.js';

const PALETTE = ['#3b6fb6', '#d1495b', '#2e933c', '#b8860b', '#7a4fb3', '#0f8b8d', '#c2571a', '#5c5c5c'];
const ALL_LINES_UP_TO = 24;  // tokens; beyond, each token and head keeps its STRONGEST lines
const STRONGEST = 4;

/** The keys a query row draws lines to: weights of at least 0.01, the strongest few when n is large. */
function linked(row: number[]): number[] {
  const keys = row.map((_, j) => j).filter((j) => row[j] >= 0.01);
  return row.length <= ALL_LINES_UP_TO ? keys : keys.sort((a, b) => row[b] - row[a]).slice(0, STRONGEST);
}

export class Arcs extends DeferredElement {
  static properties = {
    tokens: { attribute: false }, weights: { attribute: false }, head: { type: Number },
    active: { state: true },
  };

  tokens: string[] = [];
  weights: number[][][] = [];  // heads x n x n
  head = -1;                   // -1: every head, coloured apart
  active = -1;

  static styles = style`
    :host { display: block; }
    svg { font: 0.8rem var(--ap-mono, ui-monospace, monospace); max-width: 100%; height: auto; }
    text { fill: currentColor; cursor: pointer; }
    text.on { font-weight: 700; }
    text:focus-visible { outline: 2px solid var(--ap-focus, #1a73e8); }
    .note { font-size: 0.75rem; color: var(--ap-muted, #555); }
    .key { margin-right: 0.8em; }
    .key i { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em; vertical-align: -0.05em; }
  `;

  render() {
    const n = this.tokens.length;
    if (n === 0 || n > 128) return html`<p class="note">${n > 128 ? 'The arc view shows up to 128 tokens; use the heatmap.' : ''}</p>`;
    const row = 20, width = 340, left = 110, right = width - 110, top = 14;
    const heads = this.head >= 0 ? [this.head] : this.weights.map((_, h) => h);
    const y = (i: number) => top + i * row;
    const lines = [];
    for (const h of heads) {
      const w = this.weights[h];
      for (let i = 0; i < n; i++) {
        if (this.active >= 0 && i !== this.active) continue;
        for (const j of linked(w[i])) {
          const a = w[i][j];
          lines.push(svg`<line x1=${left + 6} y1=${y(i) - 4} x2=${right - 6} y2=${y(j) - 4}
            stroke=${PALETTE[h % PALETTE.length]} stroke-width=${1 + 3 * a} stroke-opacity=${Math.min(1, a * (heads.length > 1 ? 0.8 : 1))}>
            <title>${this.tokens[i]} → ${this.tokens[j]}: ${short(a)} (head ${h + 1})</title></line>`);
        }
      }
    }
    const label = (i: number, x: number, anchor: string, side: string) => svg`<text x=${x} y=${y(i)} text-anchor=${anchor}
      class=${this.active === i ? 'on' : ''} tabindex="0" role="button" aria-label="${side} ${this.tokens[i]}: show where it attends"
      @mouseenter=${() => (this.active = i)} @mouseleave=${() => (this.active = -1)}
      @focus=${() => (this.active = i)} @blur=${() => (this.active = -1)}>${this.tokens[i].slice(0, 14)}</text>`;
    return html`<svg viewBox="0 0 ${width} ${top + n * row}" width=${width} role="group"
        aria-label="Attention arcs: each query token on the left connects to the key tokens it weights on the right">
      ${lines}
      ${this.tokens.map((_, i) => label(i, left, 'end', 'query'))}
      ${this.tokens.map((_, i) => label(i, right, 'start', 'key'))}
    </svg>
    ${heads.length > 1 ? html`<p class="note">${heads.map((h) => html`<span class="key"><i style="background:${PALETTE[h % PALETTE.length]}"></i>head ${h + 1}</span>`)}</p>` : nothing}
    ${n > ALL_LINES_UP_TO ? html`<p class="note">With ${n} tokens, each token shows its ${STRONGEST} strongest links per head.</p>` : nothing}`;
  }
}

customElements.get('ap-arcs') || customElements.define('ap-arcs', Arcs);
