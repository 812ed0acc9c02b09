// What the trained model expects next: after one position of the text, its five likeliest next
// tokens as a bar list, each bar its probability (the exp of the trace's log-probability,
// from 0 to 1, so the five bars together fill at most one). The token the text goes on
// with, when it is one of them, is marked.
import { LitElement, css as style, html, nothing } from 'lit';
import { SEQUENTIAL, full, short, swatchOf } from '../shared/colour.js';
import { isByte, tokenMark, tokenName, topNext } from '../../state/model-mode.js';
import type { ModelTrace } from '../../core/attention.js';

export class NextToken extends LitElement {
  static properties = { model: { attribute: false }, at: { type: Number } };
  model: ModelTrace | null = null;
  at = -1;  // the position the guesses follow; past the end (or -1), the last

  static styles = style`
    :host { display: block; font-size: 0.88rem; }
    p { margin: 0 0 0.35rem; }
    .tok { font-family: var(--ap-mono, ui-monospace, monospace); font-weight: 700; }
    .tok.byte { font-style: italic; font-weight: 400; }
    ol { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: auto minmax(4rem, 14rem) auto; gap: 0.2rem 0.5rem; align-items: center; }
    li { display: contents; }
    li .tok { text-align: center; min-width: 1.6rem; padding: 0 0.3rem; border: 1px solid var(--ap-line, #ccc); border-radius: 5px; background: var(--ap-card, #fff); }
    li.actual .tok { border-color: var(--ap-accent, #d1495b); box-shadow: 0 0 0 1px var(--ap-accent, #d1495b); }
    .bar { display: block; height: 0.75rem; border-radius: 3px; background: color-mix(in srgb, var(--ap-line, #ccc) 45%, transparent); position: relative; overflow: hidden; }
    .bar i { position: absolute; left: 0; top: 0; bottom: 0; border-radius: 3px; }
    .p { font: 0.8rem var(--ap-mono, ui-monospace, monospace); font-variant-numeric: tabular-nums; }
    .hint { color: var(--ap-muted, #555); font-size: 0.78rem; margin-top: 0.35rem; }
  `;

  render() {
    const t = this.model;
    if (!t || !t.tokens.length) return nothing;
    const n = t.tokens.length;
    const at = this.at >= 0 && this.at < n ? this.at : n - 1;
    const guesses = topNext(t.log_probs[at], t.vocab);
    const actual = at + 1 < n ? t.tokens[at + 1] : null;
    const colour = swatchOf(0.75, SEQUENTIAL).style.replace(/;color:[^;]*/g, '');
    const shown = (token: string) => html`<span class="tok ${isByte(token) ? 'byte' : ''}" title=${tokenName(token)}>${tokenMark(token)}</span>`;
    return html`<p>After ${shown(t.tokens[at])} (position ${at}${at === n - 1 ? ', the last' : ''}), the model’s five likeliest next tokens:</p>
      <ol aria-label="the five likeliest next tokens and their probabilities">${guesses.map((g) => html`<li class=${g.token === actual ? 'actual' : ''}
          data-token=${g.token} data-value=${g.p} aria-label="${tokenName(g.token)}: ${full(g.p)}${g.token === actual ? ' (what comes next here)' : ''}">
        ${shown(g.token)}<span class="bar" aria-hidden="true"><i style="width:${(Math.min(1, g.p) * 100).toFixed(2)}%;${colour}"></i></span>
        <span class="p" title=${full(g.p)}>${short(g.p)}</span></li>`)}</ol>
      <p class="hint">${actual === null ? 'Hover or focus a token above to see what the model expects after it.'
        : html`The text goes on with ${shown(actual)}${guesses.some((g) => g.token === actual) ? ' (outlined)' : ', not among these five'}.`}</p>`;
  }
}

customElements.get('ap-next-token') || customElements.define('ap-next-token', NextToken);
