// A matrix as a heatmap: labelled rows and columns, a viridis colour legend, the numbers in
// the cells when they fit. It is a real <table> (the screen-reader alternative is the table
// itself) with one roving tab stop and arrow keys; past a few thousand cells it draws on a
// canvas instead of creating a DOM node per cell.
import { css as style, html, nothing, type PropertyValues } from 'lit';
import { VIRIDIS_256, bounds, css, gradient, ink, short, full, viridis } from './colour.js';
import { DeferredElement } from './deferred.js';

const CANVAS_CELLS = 576;  // 24 x 24: beyond it, DOM cells cost more than they show

export interface CellEvent { key: string; head: number; row: number; col: number }

export class Heatmap extends DeferredElement {
  static properties = {
    key: { type: String, reflect: true }, label: { type: String }, caption: { type: String },
    matrix: { attribute: false }, rows: { attribute: false }, cols: { attribute: false },
    masked: { attribute: false }, range: { attribute: false }, selected: { attribute: false },
    head: { type: Number }, editable: { type: Boolean }, clickable: { type: Boolean },
    highlight: { type: Boolean, reflect: true }, numbers: { type: String },
    focusRow: { state: true }, focusCol: { state: true }, editing: { state: true }, editError: { state: true },
    asTable: { state: true },
  };

  key = '';
  label = '';
  caption = '';
  matrix: number[][] = [];
  rows: string[] = [];
  cols: string[] = [];
  masked?: number[][];                 // 0 where the cell is masked out
  range?: [number, number];            // fixed colour range (weights: 0..1)
  selected?: [number, number];
  head = 0;
  editable = false;
  clickable = false;
  highlight = false;
  numbers: 'auto' | 'always' | 'never' = 'auto';
  focusRow = 0;
  focusCol = 0;
  editing = false;
  editError = '';
  asTable = false;

  static styles = style`
    :host { display: inline-block; max-width: 100%; vertical-align: top; }
    :host([highlight]) .frame { outline: 3px solid var(--ap-accent, #e4572e); outline-offset: 2px; }
    .frame { border-radius: 6px; padding: 4px; }
    .title { font: 600 0.85rem/1.2 var(--ap-mono, ui-monospace, monospace); margin: 0 0 2px; display: flex; gap: 0.5em; align-items: baseline; flex-wrap: wrap; }
    .title small { font-weight: 400; opacity: 0.7; }
    .scroll { overflow: auto; max-width: 100%; max-height: 70vh; }
    table { border-collapse: separate; border-spacing: 1px; font: 0.72rem/1 var(--ap-mono, ui-monospace, monospace); }
    th { font-weight: 500; color: var(--ap-muted, #555); padding: 0 4px; white-space: nowrap; max-width: 7em; overflow: hidden; text-overflow: ellipsis; }
    th.col { writing-mode: vertical-rl; transform: rotate(180deg); height: auto; max-height: 6em; padding: 4px 0; text-align: left; }
    td { min-width: 2.6em; height: 1.9em; text-align: center; padding: 0 2px; border-radius: 3px; cursor: default; font-variant-numeric: tabular-nums; }
    td.small { min-width: 0.9em; height: 0.9em; padding: 0; }
    td.masked { background-image: repeating-linear-gradient(45deg, transparent 0 3px, rgb(128 128 128 / 0.55) 3px 5px); }
    td.click { cursor: pointer; }
    td.sel { outline: 2px solid var(--ap-accent, #e4572e); outline-offset: -2px; }
    td:focus-visible { outline: 3px solid var(--ap-focus, #1a73e8); outline-offset: -1px; }
    td input { width: 5em; font: inherit; }
    .legend { display: flex; align-items: center; gap: 6px; font: 0.68rem var(--ap-mono, ui-monospace, monospace); color: var(--ap-muted, #555); margin-top: 3px; }
    .bar { width: 90px; height: 8px; border-radius: 4px; }
    .error { color: var(--ap-error, #b3261e); font-size: 0.8rem; }
    canvas { image-rendering: pixelated; cursor: pointer; max-width: 100%; }
    button.as { font: inherit; font-size: 0.7rem; font-weight: 400; border: 1px solid var(--ap-line, #ccc); background: none; color: inherit; border-radius: 5px; padding: 0 0.4rem; cursor: pointer; }
  `;

  private bounds(): [number, number] {
    return this.range ?? bounds(this.matrix, this.masked);
  }

  private colour(v: number, [lo, hi]: [number, number]) {
    return viridis((v - lo) / (hi - lo));
  }

  private cellCount() { return this.matrix.length * (this.matrix[0]?.length ?? 0); }

  // A picture when the table would be too big or too wide to show its numbers anyway.
  private large() { return this.cellCount() > CANVAS_CELLS || (this.matrix[0]?.length ?? 0) > 16; }

  private pictured() { return this.large() && !this.asTable; }

  private showNumbers() {
    if (this.numbers !== 'auto') return this.numbers === 'always';
    return (this.matrix[0]?.length ?? 0) <= 16 && this.matrix.length <= 64;
  }

  private emit(type: string, row: number, col: number, extra: Record<string, unknown> = {}) {
    this.dispatchEvent(new CustomEvent(type, {
      detail: { key: this.key, head: this.head, row, col, ...extra }, bubbles: true, composed: true,
    }));
  }

  private activate(row: number, col: number) {
    this.focusRow = row;
    this.focusCol = col;
    if (this.editable) this.editing = true;
    else if (this.clickable) this.emit('cell-select', row, col);
  }

  private onKey(e: KeyboardEvent) {
    if (this.editing) return;
    const rows = this.matrix.length, cols = this.matrix[0]?.length ?? 0;
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const m = moves[e.key];
    if (m) {
      e.preventDefault();
      this.focusRow = Math.min(rows - 1, Math.max(0, this.focusRow + m[0]));
      this.focusCol = Math.min(cols - 1, Math.max(0, this.focusCol + m[1]));
      this.updateComplete.then(() => (this.renderRoot.querySelector('td[tabindex="0"]') as HTMLElement | null)?.focus());
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.activate(this.focusRow, this.focusCol);
    }
  }

  private commit(input: HTMLInputElement) {
    const text = input.value.trim();
    const v = Number(text);
    if (text === '' || !Number.isFinite(v)) {
      this.editError = `“${text.slice(0, 20)}” is not a number`;
      return;
    }
    this.editError = '';
    this.editing = false;
    this.emit('cell-edit', this.focusRow, this.focusCol, { value: v });
  }

  protected urgent(changed: PropertyValues) {
    return changed.has('editing') || changed.has('asTable');
  }

  protected updated(changed: PropertyValues) {
    if (this.editing) {
      const input = this.renderRoot.querySelector('td input') as HTMLInputElement | null;
      if (input && changed.has('editing')) { input.focus(); input.select(); }
    }
    if (this.pictured()) this.paint();
  }

  private paint() {
    const canvas = this.renderRoot.querySelector('canvas');
    if (!canvas) return;
    const rows = this.matrix.length, cols = this.matrix[0]?.length ?? 0;
    canvas.width = cols;
    canvas.height = rows;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const img = ctx.createImageData(cols, rows);
    const [lo, hi] = this.bounds();
    const step = hi > lo ? 255 / (hi - lo) : 0;
    for (let i = 0; i < rows; i++) {
      const row = this.matrix[i], mask = this.masked?.[i];
      for (let j = 0; j < cols; j++) {
        const o = 4 * (i * cols + j);
        if (mask && mask[j] === 0) {
          img.data[o] = img.data[o + 1] = img.data[o + 2] = 128;
        } else {
          const t = 3 * Math.min(255, Math.max(0, Math.round((row[j] - lo) * step || 0)));
          img.data[o] = VIRIDIS_256[t]; img.data[o + 1] = VIRIDIS_256[t + 1]; img.data[o + 2] = VIRIDIS_256[t + 2];
        }
        img.data[o + 3] = 255;
      }
    }
    ctx.putImageData(img, 0, 0);
  }

  private onCanvasClick(e: MouseEvent) {
    const canvas = e.currentTarget as HTMLCanvasElement;
    const r = canvas.getBoundingClientRect();
    const col = Math.floor(((e.clientX - r.left) / r.width) * (this.matrix[0]?.length ?? 0));
    const row = Math.floor(((e.clientY - r.top) / r.height) * this.matrix.length);
    if (this.clickable) this.emit('cell-select', row, col);
  }

  private legend(b: [number, number]) {
    return html`<div class="legend" aria-hidden="true">
      <span>${short(b[0])}</span><span class="bar" style="background:${gradient()}"></span><span>${short(b[1])}</span>
    </div>`;
  }

  render() {
    const rows = this.matrix.length, cols = this.matrix[0]?.length ?? 0;
    const b = this.bounds();
    const toggle = this.large()
      ? html`<button class="as" @click=${() => (this.asTable = !this.asTable)}>${this.asTable ? 'show as picture' : 'show as table'}</button>` : nothing;
    const title = html`<div class="title">${this.label}<small>${this.caption || `${rows} × ${cols}`}</small>${toggle}</div>`;
    if (this.pictured()) {
      const size = Math.max(1, Math.min(8, Math.floor(256 / Math.max(rows, cols))));
      return html`<div class="frame">${title}
        <canvas role="img" aria-label="${this.label}: ${rows} by ${cols} heatmap, too large for numbers"
          style="width:${cols * size}px;height:${rows * size}px" @click=${this.onCanvasClick}></canvas>
        ${this.legend(b)}</div>`;
    }
    const numbers = this.showNumbers();
    const rowLabel = (i: number) => this.rows[i] ?? String(i);
    const colLabel = (j: number) => this.cols[j] ?? String(j);
    const active = this.clickable || this.editable;
    return html`<div class="frame">${title}
      <div class="scroll">
      <table @keydown=${this.onKey} aria-label="${this.label}">
        <thead><tr><td></td>${Array.from({ length: cols }, (_, j) => html`<th class="col" scope="col" title=${colLabel(j)}>${colLabel(j)}</th>`)}</tr></thead>
        <tbody>${this.matrix.map((row, i) => html`<tr><th scope="row" title=${rowLabel(i)}>${rowLabel(i)}</th>${row.map((v, j) => {
          const masked = this.masked !== undefined && this.masked[i]?.[j] === 0;
          const c = this.colour(v, b);
          const focus = i === this.focusRow && j === this.focusCol;
          const sel = this.selected !== undefined && this.selected[0] === i && this.selected[1] === j;
          const cls = `${numbers ? '' : 'small'} ${masked ? 'masked' : ''} ${active ? 'click' : ''} ${sel ? 'sel' : ''}`;
          if (this.editing && focus) {
            return html`<td class=${cls}><input aria-label="new value for row ${i + 1}, column ${j + 1}" .value=${String(v)}
              @keydown=${(e: KeyboardEvent) => { if (e.key === 'Enter') this.commit(e.target as HTMLInputElement); if (e.key === 'Escape') { this.editing = false; this.editError = ''; } }}
              @blur=${(e: FocusEvent) => this.commit(e.target as HTMLInputElement)}></td>`;
          }
          return html`<td class=${cls} tabindex=${active && focus ? 0 : -1} data-row=${i} data-col=${j} data-value=${v}
            style="background-color:${masked ? 'transparent' : css(c)};color:${masked ? 'inherit' : ink(c)}"
            title="${rowLabel(i)} → ${colLabel(j)}: ${full(v)}${masked ? ' (masked)' : ''}"
            aria-label="${rowLabel(i)}, ${colLabel(j)}: ${full(v)}${masked ? ', masked' : ''}"
            @click=${active ? () => this.activate(i, j) : nothing}>${numbers ? short(v) : ''}</td>`;
        })}</tr>`)}</tbody>
      </table></div>
      ${this.legend(b)}
      ${this.editError ? html`<div class="error" role="alert">${this.editError}</div>` : nothing}
    </div>`;
  }
}

customElements.get('ap-heatmap') || customElements.define('ap-heatmap', Heatmap);
