// Every head of the trained model at a glance, as BertViz's model view: a row per layer, a
// thumbnail per head of its weights on this text (row i: where token i looks; the hidden future
// left blank), named by what the head does in general (its highest score on the probe, random
// tokens repeated twice, when that is at least 0.3; else "mixed"), with two numbers side by
// side, each named: that score on the probe and the same pattern's score on this text (a mixed
// head's number says which pattern it is). Clicking a head picks it for the views below.
// The thumbnails are canvases repainted when the weights change (not rebuilt), and only while
// on screen.
import { css as style, html, nothing } from 'lit';
import { bytes, full, short } from '../shared/colour.js';
import { DeferredElement } from '../shared/deferred.js';
import { PATTERNS, PATTERN_HELP, PATTERN_NAMES, headLabel } from '../../state/model-mode.js';
import type { ModelTrace } from '../../core/attention.js';
import { rowView } from '../../core/packed.js';

export class HeadsOverview extends DeferredElement {
  static properties = { model: { attribute: false }, layer: { type: Number }, head: { type: Number } };
  model: ModelTrace | null = null;
  layer = 1;  // the layer picked, from 1 as the page names layers
  head = 0;   // the head picked, from 0

  // Eight pictures, the costliest view of model mode's first screen: in a frame of its own
  // (with its step, the frame that opens a model link was the page's longest task).
  protected withStep() {
    return false;
  }

  static styles = style`
    :host { display: block; container-type: inline-size; }
    .layer { margin: 0 0 0.6rem; }
    .layer > .name { font-size: 0.82rem; font-weight: 600; color: var(--ap-muted, #555); margin: 0 0 0.25rem; }
    .heads { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 0.5rem; }
    button.thumb { font: inherit; color: inherit; background: var(--ap-card, #fff); border: 1px solid var(--ap-line, #ccc); border-radius: 8px;
      padding: 0.35rem; cursor: pointer; display: flex; flex-direction: column; align-items: stretch; gap: 0.15rem; text-align: left; min-width: 0; }
    button.thumb:hover { border-color: var(--ap-focus, #1a73e8); }
    button.thumb:focus-visible { outline: 3px solid var(--ap-focus, #1a73e8); outline-offset: 2px; }
    button.thumb[aria-pressed='true'] { border-color: var(--ap-accent, #d1495b); box-shadow: 0 0 0 2px var(--ap-accent, #d1495b); }
    canvas { display: block; width: 100%; max-width: 8rem; aspect-ratio: 1; image-rendering: pixelated; margin: 0 auto 0.15rem;
      background: color-mix(in srgb, var(--ap-line, #ccc) 35%, transparent); border-radius: 3px; }
    .head { font: 600 0.78rem var(--ap-mono, ui-monospace, monospace); }
    .label { font-size: 0.78rem; font-weight: 600; overflow-wrap: anywhere; }
    .label.mixed { font-weight: 400; color: var(--ap-muted, #555); }
    .scores { display: flex; flex-wrap: wrap; gap: 0 0.5em; font-size: 0.72rem; color: var(--ap-muted, #555); }
    .own { font-weight: 600; color: var(--ap-fg, inherit); }
    .words { display: flex; flex-direction: column; gap: 0.1rem; min-width: 0; }
    /* On a phone: two heads a row, each its picture beside its words, so the eight stay short. */
    @container (width < 480px) {
      .heads { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0.4rem; }
      button.thumb { flex-direction: row; align-items: center; gap: 0.45rem; }
      button.thumb canvas { width: 4.2rem; flex: none; margin: 0; }
    }
  `;

  render() {
    const t = this.model;
    if (!t) return nothing;
    return html`${t.layers.map((layer, l) => html`<div class="layer" role="group" aria-label="Layer ${l + 1}">
      <p class="name">Layer ${l + 1}</p>
      <div class="heads">${layer.weights.map((_, h) => {
        const probe = t.probe_head_scores[l]?.[h], own = t.head_scores[l]?.[h];
        if (!probe || !own) return nothing;
        const label = headLabel(probe), pattern = label.pattern ?? label.top;
        const all = PATTERNS.map((p) => `${PATTERN_NAMES[p]} ${full(probe[p])}`).join(', ');
        const picked = l + 1 === this.layer && h === this.head;
        return html`<button class="thumb" data-layer=${l + 1} data-head=${h} data-pattern=${label.pattern ?? 'mixed'}
            data-score=${label.score} data-own=${own[pattern]} aria-pressed=${picked ? 'true' : 'false'}
            title="In general (random tokens repeated twice): ${all}.${label.pattern ? ` A ${label.name} head ${PATTERN_HELP[label.pattern]}.` : ''} Click to show this head below."
            @click=${() => this.pick(l + 1, h)}>
          <canvas data-layer=${l} data-head=${h} role="img" aria-label="layer ${l + 1} head ${h}: its weights on this text"></canvas>
          <span class="words"><span class="head">head ${h}</span>
          <span class="label ${label.pattern ? '' : 'mixed'}">${label.name}</span>
          <span class="scores"><span class="probe">${label.pattern ? '' : `highest: ${PATTERN_NAMES[pattern]} `}${short(label.score)} on random tokens</span>
            <span class="own">${short(own[pattern])} here</span></span></span>
        </button>`;
      })}</div></div>`)}`;
  }

  private pick(layer: number, head: number) {
    this.layer = layer;
    this.head = head;
    this.dispatchEvent(new CustomEvent('head-select', { detail: { layer, head }, bubbles: true, composed: true }));
  }

  private painted: ModelTrace | null = null;
  private lut: Uint32Array | null = null;  // the weights' colours as RGBA words, 0 to 1 in its steps
  // each canvas's pixels, kept from one trace to the next of the same length (a fresh one per
  // keystroke was 8 x 16 KiB to allocate and clear)
  private images = new WeakMap<HTMLCanvasElement, ImageData>();

  /** Each thumbnail's weights painted, when the trace is new: a pixel per weight through the
   *  colour table; the canvases are resized only when the text's length changes (a resize clears
   *  and reallocates them). */
  protected updated() {
    const t = this.model;
    if (!t || t === this.painted) return;  // a new pick repaints nothing
    this.painted = t;
    if (!this.lut) {
      const rgb = bytes('sequential', 'light'), words = new Uint32Array(rgb.length / 3), view = new Uint8Array(words.buffer);
      for (let k = 0; k < words.length; k++) view.set([rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2], 255], 4 * k);
      this.lut = words;
    }
    const lut = this.lut, last = lut.length - 1;
    for (const canvas of this.renderRoot.querySelectorAll<HTMLCanvasElement>('canvas')) {
      const w = t.layers[Number(canvas.dataset.layer)]?.weights[Number(canvas.dataset.head)];
      const n = w?.length ?? 0;
      if (!n) continue;
      if (canvas.width !== n) canvas.width = n;
      if (canvas.height !== n) canvas.height = n;
      const ctx = canvas.getContext('2d');
      if (!ctx) continue;
      let img = this.images.get(canvas);
      if (img?.width !== n) this.images.set(canvas, img = ctx.createImageData(n, n));  // blank above the diagonal, as it stays
      const px = new Uint32Array(img.data.buffer);
      for (let i = 0; i < n; i++) {
        const [row, divide] = rowView(w, i);
        for (let j = 0; j <= i; j++) {  // causal: the keys after i are hidden, and left blank
          const k = Math.round((row[j] / divide) * last);
          px[i * n + j] = lut[k < 0 ? 0 : k > last ? last : k];
        }
      }
      ctx.putImageData(img, 0, 0);
    }
  }

  protected estimate(): [number, number] {
    return [600, 2 * 190];
  }
}

customElements.get('ap-heads-overview') || customElements.define('ap-heads-overview', HeadsOverview);
