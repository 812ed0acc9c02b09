// BertViz-style head view: queries on the left, keys on the right, a line for every weight.
// A line's width and opacity grow with its weight relative to the largest of its query's row
// (see stroke()): random weights are near uniform, and lines drawn by the weight alone would
// all be faint hairlines. Hovering or focusing a token keeps only its lines. Past a few
// dozen tokens, each token keeps its strongest lines only: thousands of SVG lines would cost
// more per keystroke than everything else on the page, and could not be told apart anyway.
import { css as style, html, svg, nothing } from 'lit';
import { short } from '../shared/colour.js';
import { DeferredElement } from '../shared/deferred.js';
import { clip } from '../shared/clip.js';

export const PALETTE = ['#3b6fb6', '#d1495b', '#2e933c', '#b8860b', '#7a4fb3', '#0f8b8d', '#c2571a', '#5c5c5c'];
const ALL_LINES_UP_TO = 24;  // tokens; beyond, each token and head keeps its STRONGEST lines
const STRONGEST = 4;
const KEY_WIDTH = 80, KEY_ROW = 18;  // the heads' key above the lines, when there are several heads

/** The look of a line of weight w in a row whose largest weight is top, r = (w / top)²: width
 *  1 + 2.5 r px and opacity 0.15 + 0.75 r (0.8 of that with several heads drawn over each
 *  other). The row's largest is 3.5 px and nearly opaque, the faintest still visible; squaring
 *  pulls apart the near-equal weights of a random model. */
export function stroke(w: number, top: number, heads: number): { width: number; opacity: number } {
  const r = top > 0 ? Math.min(1, w / top) ** 2 : 0;
  return { width: 1 + 2.5 * r, opacity: (0.15 + 0.75 * r) * (heads > 1 ? 0.8 : 1) };
}

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
    text.key { cursor: default; }
  `;

  render() {
    const n = this.tokens.length;
    if (n === 0 || n > 128) return html`<p class="note">${n > 128 ? 'The arc view shows up to 128 tokens; use the heatmap.' : ''}</p>`;
    const heads = this.head >= 0 ? [this.head] : this.weights.map((_, h) => h);
    const row = 20, width = 400, left = 110, right = width - 110;
    const perLine = Math.floor(width / KEY_WIDTH), keyRows = heads.length > 1 ? Math.ceil(heads.length / perLine) : 0;
    const top = 14 + keyRows * KEY_ROW;
    const y = (i: number) => top + i * row;
    const lines = [];
    for (const h of heads) {
      const w = this.weights[h];
      for (let i = 0; i < n; i++) {
        if (this.active >= 0 && i !== this.active) continue;
        const most = Math.max(...w[i]);
        for (const j of linked(w[i])) {
          const a = w[i][j], look = stroke(a, most, heads.length);
          lines.push(svg`<line x1=${left + 6} y1=${y(i) - 4} x2=${right - 6} y2=${y(j) - 4}
            stroke=${PALETTE[h % PALETTE.length]} stroke-width=${look.width} stroke-opacity=${look.opacity} stroke-linecap="round">
            <title>${`${this.tokens[i]} → ${this.tokens[j]}: ${short(a)} (head ${h})`}</title></line>`);  // one part, not four: fewer to update per keystroke
        }
      }
    }
    // The heads' key is part of the picture, so an exported copy still says which colour is which head.
    const key = keyRows ? svg`<g class="heads">${heads.map((h, k) => {
      const x = 4 + (k % perLine) * KEY_WIDTH, ky = 12 + Math.floor(k / perLine) * KEY_ROW;
      return svg`<line x1=${x} x2=${x + 18} y1=${ky - 4} y2=${ky - 4} stroke=${PALETTE[h % PALETTE.length]} stroke-width="4" stroke-linecap="round"></line>
        <text class="key" x=${x + 24} y=${ky} font-size="11">${`head ${h}`}</text>`;
    })}</g>` : nothing;
    const label = (i: number, x: number, anchor: string, side: string) => svg`<text x=${x} y=${y(i)} text-anchor=${anchor}
      class=${this.active === i ? 'on' : ''} tabindex="0" role="button" aria-label="${side} ${this.tokens[i]}: show where it attends"
      @mouseenter=${() => (this.active = i)} @mouseleave=${() => (this.active = -1)}
      @focus=${() => (this.active = i)} @blur=${() => (this.active = -1)}>${clip(this.tokens[i], 14)}</text>`;
    return html`<svg viewBox="0 0 ${width} ${top + n * row}" width=${width} role="group"
        aria-label="Attention arcs: each query token on the left connects to the key tokens it weights on the right">
      ${key}
      ${lines}
      ${this.tokens.map((_, i) => label(i, left, 'end', 'query'))}
      ${this.tokens.map((_, i) => label(i, right, 'start', 'key'))}
    </svg>
    <p class="note">A line’s width and strength: its weight relative to the largest weight of its query’s row (hover a line for the weight).</p>
    ${n > ALL_LINES_UP_TO ? html`<p class="note">With ${n} tokens, each token shows its ${STRONGEST} strongest links per head.</p>` : nothing}`;
  }
}

customElements.get('ap-arcs') || customElements.define('ap-arcs', Arcs);
