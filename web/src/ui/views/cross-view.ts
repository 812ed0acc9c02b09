// Cross-attention, as the trace shows it: the target sentence (the queries) over the source
// sentence (the keys and values), a line from each target token to the source tokens it
// weighs, the picture of a translation model's alignment; and, step by step, what changes
// when the keys and values come from another sentence.
import { css as style, html, svg, nothing } from 'lit';
import { short } from '../shared/colour.js';
import { DeferredElement } from '../shared/deferred.js';
import { PALETTE, stroke } from './arcs.js';
import { clip } from '../shared/clip.js';

const COLUMN = 74, TOP = 18, GAP = 120;
const ALL_LINES_UP_TO = 24;  // tokens; beyond, each target token keeps its strongest lines
const STRONGEST = 4;

/** The source tokens a target row draws lines to: weights of at least 0.01, the strongest few when m is large. */
function linked(row: number[]): number[] {
  const keys = row.map((_, j) => j).filter((j) => row[j] >= 0.01);
  return row.length <= ALL_LINES_UP_TO ? keys : keys.sort((a, b) => row[b] - row[a]).slice(0, STRONGEST);
}

export class CrossArcs extends DeferredElement {
  static properties = {
    tokens: { attribute: false }, sources: { attribute: false }, weights: { attribute: false },
    active: { state: true },
  };

  tokens: string[] = [];       // the target: queries, one row of weights each
  sources: string[] = [];      // the source: keys and values, one column each
  weights: number[][][] = [];  // heads x n x m
  active: { side: 'target' | 'source'; at: number } | null = null;

  static styles = style`
    :host { display: block; }
    svg { font: 0.8rem var(--ap-mono, ui-monospace, monospace); max-width: 100%; height: auto; }
    text { fill: currentColor; cursor: pointer; text-anchor: middle; }
    text.on { font-weight: 700; }
    text.side { cursor: default; text-anchor: start; fill: var(--ap-muted, #555); font-size: 0.7rem; }
    text:focus-visible { outline: 2px solid var(--ap-focus, #1a73e8); }
    .note { font-size: 0.75rem; color: var(--ap-muted, #555); }
  `;

  render() {
    const n = this.tokens.length, m = this.sources.length;
    if (!n || !m || !this.weights.length) return nothing;
    if (n > 128 || m > 128) return html`<p class="note">The arc view shows up to 128 tokens a side; use the heatmap.</p>`;
    const heads = this.weights.length;
    const left = 64, width = left + Math.max(n, m) * COLUMN;
    const keyRow = heads > 1 ? 18 : 0;
    const top = TOP + keyRow, bottom = top + GAP;
    const tx = (i: number) => left + (i + 0.5) * ((width - left) / n);
    const sx = (j: number) => left + (j + 0.5) * ((width - left) / m);
    const lines = [];
    for (let h = 0; h < heads; h++) {
      const w = this.weights[h];
      for (let i = 0; i < n; i++) {
        if (this.active?.side === 'target' && this.active.at !== i) continue;
        const most = Math.max(...w[i]);
        for (const j of linked(w[i])) {
          if (this.active?.side === 'source' && this.active.at !== j) continue;
          const look = stroke(w[i][j], most, heads);
          lines.push(svg`<line x1=${tx(i)} y1=${top + 6} x2=${sx(j)} y2=${bottom - 14}
            stroke=${PALETTE[h % PALETTE.length]} stroke-width=${look.width} stroke-opacity=${look.opacity} stroke-linecap="round">
            <title>${this.tokens[i]} → ${this.sources[j]}: ${short(w[i][j])}${heads > 1 ? ` (head ${h})` : ''}</title></line>`);
        }
      }
    }
    const key = heads > 1 ? svg`${Array.from({ length: heads }, (_, h) => svg`
      <line x1=${left + h * 70} x2=${left + h * 70 + 16} y1="10" y2="10" stroke=${PALETTE[h % PALETTE.length]} stroke-width="4" stroke-linecap="round"></line>
      <text class="side" x=${left + h * 70 + 21} y="14">head ${h}</text>`)}` : nothing;
    const label = (side: 'target' | 'source', at: number, x: number, y: number, word: string) => svg`<text x=${x} y=${y}
      class=${this.active?.side === side && this.active.at === at ? 'on' : ''} tabindex="0" role="button"
      aria-label="${side} ${word}: show its lines"
      @mouseenter=${() => (this.active = { side, at })} @mouseleave=${() => (this.active = null)}
      @focus=${() => (this.active = { side, at })} @blur=${() => (this.active = null)}>${clip(word, 9)}</text>`;
    return html`<svg viewBox="0 0 ${width} ${bottom + 6}" width=${width} role="group"
        aria-label="Cross-attention arcs: each target token (top) connects to the source tokens (bottom) it weighs">
      ${key}
      <text class="side" x="0" y=${top}>target</text><text class="side" x="0" y=${bottom}>source</text>
      ${lines}
      ${this.tokens.map((w, i) => label('target', i, tx(i), top, w))}
      ${this.sources.map((w, j) => label('source', j, sx(j), bottom, w))}
    </svg>
    <p class="note">Each target token (the queries) over the source tokens it reads from; a line’s width and strength: its weight relative to the largest of its row.</p>
    ${m > ALL_LINES_UP_TO ? html`<p class="note">With ${m} source tokens, each target token shows its ${STRONGEST} strongest links per head.</p>` : nothing}`;
  }
}

customElements.get('ap-cross-arcs') || customElements.define('ap-cross-arcs', CrossArcs);

// What each step does differently when the keys and values come from the source.
const NOTES: Record<string, string> = {
  embed: 'Cross-attention: the source sentence has its own rows, X_source. The two sentences share one vocabulary (the sentence first, then the source), so a word in both has one embedding.',
  project: 'The queries come from the sentence, Q = X W_q (n rows); the keys and values from the source, K = X_source W_k and V = X_source W_v (m rows).',
  score: 'Every token of the sentence scores every token of the source: the scores are n × m.',
  mask: 'Nothing is hidden: the source is all there before the translation starts, so it has no future to mask.',
  softmax: 'Each row says where a word of the sentence looks in the source: the alignment picture of a translation model (here with random weights, so not yet a good one).',
};

/** The note a step gets in cross mode, or nothing. */
export function crossNote(step: string) {
  return NOTES[step] ? html`<p class="cross-note">${NOTES[step]}</p>` : nothing;
}
