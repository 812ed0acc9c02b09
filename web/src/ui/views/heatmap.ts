// A matrix as a heatmap: labelled rows and columns, a colour legend (signed numbers diverge
// from a neutral 0, weights run over 0 to 1, or each row over 0 to its largest weight: see
// colour.ts), the numbers in the cells when they fit. It is a real <table> (the screen-reader
// alternative is the table itself) with one roving tab stop and arrow keys; past a few
// thousand cells it draws on a canvas instead of creating a DOM node per cell.
import { html, nothing, type PropertyValues } from 'lit';
import { SEQUENTIAL, bytes, diverging, extent, gradientStyle, short, full, swatchOf, type Scale, type Scheme } from '../shared/colour.js';
import { DeferredElement } from '../shared/deferred.js';
import { rowView } from '../../core/packed.js';
import { EDITING_STYLES, GridEditor } from '../shared/grid-editing.js';
import { HEATMAP_STYLES } from './heatmap-styles.js';
import { numbered, overflows, pictured } from './heatmap-form.js';

// The smallest cell a finger can hit (WCAG's 24 px target): a tap on a smaller one opens its row
// zoomed under the heatmap, where each cell is a button of at least that size.
const HITTABLE = 24;

// A picture past 256 x 256 takes tens of milliseconds to paint: each is painted in a task of its
// own, so neither the update that asked for it nor the other pictures wait behind it.
const OWN_TASK_CELLS = 65536;

/** A picture's CSS size [width, height]: about 256 px along each side, 1 to 8 px per cell, so
 *  that a tall matrix of few columns (X at 300 tokens by 4) is not a strip a few pixels wide. */
const pictureSize = (rows: number, cols: number) => {
  const cell = (n: number) => Math.max(1, Math.min(8, Math.floor(256 / n)));
  return [cols * cell(cols), rows * cell(rows)];
};

// The page builds labels, selections and scales afresh on every render; compared by content, a
// view whose matrix is the same object as before (unchanged numbers, see core/unchanged.ts)
// is not drawn again while a learner types.
const differentList = (a?: readonly unknown[], b?: readonly unknown[]) =>
  a !== b && (!a || !b || a.length !== b.length || a.some((x, i) => x !== b[i]));
const differentScale = (a?: Scale, b?: Scale) =>
  a !== b && (!a || !b || a.kind !== b.kind || (a.kind === 'diverging' && b.kind === 'diverging' && a.m !== b.m));

export interface CellEvent { key: string; head: number; row: number; col: number }

export class Heatmap extends DeferredElement {
  static properties = {
    key: { type: String, reflect: true }, label: { type: String }, caption: { type: String },
    matrix: { attribute: false }, rows: { attribute: false, hasChanged: differentList }, cols: { attribute: false, hasChanged: differentList },
    masked: { attribute: false }, scale: { attribute: false, hasChanged: differentScale },
    selected: { attribute: false, hasChanged: differentList }, lit: { attribute: false, hasChanged: differentList },
    relative: { type: Boolean, reflect: true },
    head: { type: Number }, editable: { type: Boolean }, clickable: { type: Boolean },
    highlight: { type: Boolean, reflect: true }, numbers: { type: String }, newRow: { type: Number },
    focusRow: { state: true }, focusCol: { state: true }, editing: { state: true }, editError: { state: true },
    asTable: { state: true }, zoom: { state: true },
  };

  key = '';
  label = '';
  caption = '';
  matrix: number[][] = [];
  rows: string[] = [];
  cols: string[] = [];
  masked?: number[][];                 // 0 where the cell is masked out
  scale?: Scale;                       // the colour scale (by default diverging over this matrix's own range)
  relative = false;                    // weights: each row coloured over 0 to its own largest weight
  selected?: [number, number];
  lit?: [number, number, number, number];  // rows [r0, r1) x columns [c0, c1) a derivation reads: outlined in place
  head = 0;
  editable = false;
  clickable = false;
  highlight = false;
  newRow = -1;                         // a row just added (the decoder's latest cache row): outlined, and it arrives
  numbers: 'auto' | 'always' | 'never' = 'auto';
  focusRow = 0;
  focusCol = 0;
  editing = false;
  editError = '';
  asTable = false;
  zoom: [number, number] | null = null;  // the row a finger tapped, zoomed under the heatmap, and the column tapped
  private editor = new GridEditor(this);

  static styles = [EDITING_STYLES, HEATMAP_STYLES];

  /** The scale given, or a diverging one over this matrix's visible cells. */
  private colours(): Scale {
    return this.scale ?? diverging(extent(this.matrix, this.masked));
  }

  /** Row-relative on or off, said to the element that shows the heatmap (which may colour its
   *  other weights the same way, and puts the choice in its links). */
  private toggleRelative = () => {
    this.relative = !this.relative;
    this.dispatchEvent(new CustomEvent('relative-change', { detail: { relative: this.relative }, bubbles: true, composed: true }));
  };

  /** Row-relative weights are offered wherever weights are drawn. */
  private relatable() { return this.colours().kind === 'sequential' && this.key !== 'mask'; }

  /** Each row's largest visible weight and where it is, when rows are coloured relative to it. */
  private rowTops(): Array<{ top: number; at: number }> | null {
    if (!this.relative || !this.relatable()) return null;
    return this.matrix.map((row, i) => {
      const mask = this.masked?.[i];
      let top = 0, at = -1;
      for (let j = 0; j < row.length; j++) if (!(mask && mask[j] === 0) && row[j] > top) { top = row[j]; at = j; }
      return { top, at };
    });
  }

  private cellCount() { return this.matrix.length * (this.matrix[0]?.length ?? 0); }

  // A picture when the table would be too big or too wide to show its numbers anyway.
  private large() { return pictured(this.matrix.length, this.matrix[0]?.length ?? 0); }

  private pictured() { return this.large() && !this.asTable; }

  private showNumbers() {
    if (this.numbers !== 'auto') return this.numbers === 'always';
    return numbered(this.matrix.length, this.matrix[0]?.length ?? 0);
  }

  private emit(type: string, row: number, col: number, extra: Record<string, unknown> = {}) {
    this.dispatchEvent(new CustomEvent(type, {
      detail: { key: this.key, head: this.head, row, col, ...extra }, bubbles: true, composed: true,
    }));
  }

  private activate(row: number, col: number) {
    if (this.editable) return this.editor.onClick(row, col);
    this.focusRow = row;
    this.focusCol = col;
    if (this.clickable) this.emit('cell-select', row, col);
  }

  private onKey(e: KeyboardEvent) {
    if (this.editable) return this.editor.onKey(e);
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

  protected urgent(changed: PropertyValues) {
    return changed.has('editing') || changed.has('asTable');
  }

  // A table wider than its box scrolls inside it (a phone's screen): said under it, since nothing
  // else shows that more columns lie to the right. Told by a ResizeObserver, after layout: read
  // in updated(), the widths forced a layout in every heatmap drawn on a keystroke.
  private widths = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => {
    this.toggleAttribute('overflows', overflows(this.watched));
  });
  private watched: HTMLElement | null = null;  // the table's scrolling box, while it is drawn

  disconnectedCallback() {
    super.disconnectedCallback();
    this.widths?.disconnect();
    this.watched = null;
  }

  protected willUpdate() {
    const rows = this.matrix.length, cols = this.matrix[0]?.length ?? 0;
    if (this.zoom && (this.zoom[0] >= rows || this.zoom[1] >= cols)) this.zoom = null;  // a shorter sentence
  }

  protected updated(changed: PropertyValues) {
    if (this.pictured()) this.paint();
    if (this.zoom && changed.has('zoom')) {
      // the tapped column in view inside the zoomed row (the page itself is not scrolled)
      const cells = this.renderRoot.querySelector<HTMLElement>('.zoom-cells');
      const cell = cells?.querySelector<HTMLElement>(`[data-col="${this.zoom[1]}"]`);
      if (cells && cell) cells.scrollLeft = cell.offsetLeft - (cells.clientWidth - cell.offsetWidth) / 2;
    }
    const box = this.renderRoot.querySelector<HTMLElement>('.scroll');
    if (box === this.watched) return;
    this.widths?.disconnect();
    this.watched = box;
    if (!box) this.removeAttribute('overflows');
    for (const el of box ? [box, box.firstElementChild] : []) if (el) this.widths?.observe(el);
  }

  protected estimate(): [number, number] {
    const rows = this.matrix.length, cols = this.matrix[0]?.length ?? 0;
    if (this.pictured()) {
      const [width, height] = pictureSize(rows, cols);
      return [Math.max(width + 8, 280), height + 48];  // at least the title's width; + title and legend
    }
    const cell = this.showNumbers() ? [45, 23] : [11, 11];  // a cell of numbers at 0.72rem, or a small one, + spacing
    return [cols * cell[0] + 50, rows * cell[1] + 66];      // + row labels; + column labels, title and legend
  }

  // One canvas per theme the scale has colours for, the theme showing its own (a variable of
  // THEME), so a picture follows a change of theme. A canvas is painted when the resize
  // observer sees it with a size: the one on screen in the coming frame (asking its style here
  // would force the page's style to be computed once per heatmap), the other when it appears
  // (its box grows from nothing).
  private stale = new Set<Element>();
  private appearing: ResizeObserver | null = null;

  private paint() {
    const canvases = this.renderRoot.querySelectorAll('canvas');
    if (typeof ResizeObserver === 'undefined') return canvases.forEach((c) => this.paintSoon(c));
    this.appearing ??= new ResizeObserver((entries) => {
      for (const e of entries) {
        if (e.contentRect.width > 0 && this.stale.delete(e.target)) this.paintSoon(e.target as HTMLCanvasElement);
      }
    });
    this.appearing.disconnect();  // canvases of an earlier render may be gone
    this.stale.clear();
    for (const canvas of canvases) {
      this.stale.add(canvas);
      this.appearing.observe(canvas);
    }
  }

  private pending = new Set<HTMLCanvasElement>();

  private paintSoon(canvas: HTMLCanvasElement) {
    if (this.cellCount() <= OWN_TASK_CELLS) return this.paintCanvas(canvas);
    if (this.pending.has(canvas)) return;  // the task to come paints the latest matrix
    this.pending.add(canvas);
    setTimeout(() => {
      this.pending.delete(canvas);
      if (canvas.isConnected) this.paintCanvas(canvas);
    }, 0);
  }

  private paintCanvas(canvas: HTMLCanvasElement) {
    const rows = this.matrix.length, cols = this.matrix[0]?.length ?? 0;
    const scale = this.colours(), tops = this.rowTops();
    const half = (bytes('diverging', 'light').length / 3 - 1) / 2, last = bytes('sequential', 'light').length / 3 - 1;
    canvas.width = cols;
    canvas.height = rows;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const lut = bytes(scale.kind, canvas.dataset.scheme as Scheme);
    const img = ctx.createImageData(cols, rows), data = img.data;
    for (let i = 0; i < rows; i++) {
      const [row, divide] = rowView(this.matrix, i), mask = this.masked?.[i];  // read where they lie: no row is built
      // the table step of v is v * a + b, clamped (what step() in colour.ts computes, inlined for speed)
      const a = scale.kind === 'diverging' ? half / scale.m : last / (tops ? tops[i].top : 1);
      const b = scale.kind === 'diverging' ? half : 0, top = scale.kind === 'diverging' ? 2 * half : last;
      for (let j = 0; j < cols; j++) {
        const o = 4 * (i * cols + j);
        if (mask && mask[j] === 0) {
          data[o] = data[o + 1] = data[o + 2] = 128;
        } else {
          const k = Math.round((row[j] / divide) * a + b);
          const t = 3 * (k >= 0 ? (k <= top ? k : top) : k < 0 ? 0 : b);  // NaN: the middle (diverging) or the low end
          data[o] = lut[t]; data[o + 1] = lut[t + 1]; data[o + 2] = lut[t + 2];
        }
        data[o + 3] = 255;
      }
    }
    ctx.putImageData(img, 0, 0);
  }

  /** The cell of the picture under a pointer event, or null past its edge. */
  private cellAt(e: MouseEvent): [number, number] | null {
    const r = (e.currentTarget as HTMLCanvasElement).getBoundingClientRect();
    const col = Math.floor(((e.clientX - r.left) / r.width) * (this.matrix[0]?.length ?? 0));
    const row = Math.floor(((e.clientY - r.top) / r.height) * this.matrix.length);
    return row >= 0 && row < this.matrix.length && col >= 0 && col < (this.matrix[0]?.length ?? 0) ? [row, col] : null;
  }

  private onCanvasClick(e: MouseEvent) {
    const at = this.cellAt(e);
    if (!at || !this.clickable) return;
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    if (!this.zoomed(e, at, Math.min(r.width / (this.matrix[0]?.length ?? 1), r.height / this.matrix.length))) this.emit('cell-select', ...at);
  }

  /** Whether a tap (a finger, not a mouse) on a cell `size` px wide opened its row zoomed instead
   *  of choosing the cell: a finger cannot tell 5 px cells apart, a cell in the zoomed row it can. */
  private zoomed(e: MouseEvent, at: [number, number], size: number) {
    if ((e as PointerEvent).pointerType !== 'touch' || size >= HITTABLE) return false;
    this.zoom = at;
    return true;
  }

  private onCellClick(e: MouseEvent, row: number, col: number) {
    if (!this.editable && this.zoomed(e, [row, col], (e.currentTarget as HTMLElement).offsetWidth)) return;
    this.activate(row, col);
  }

  /** The zoomed row: its cells as buttons a finger can hit, with its neighbours a tap away. */
  private zoomedRow(scale: Scale, rowLabel: (i: number) => string, colLabel: (j: number) => string) {
    const [i, j] = this.zoom!, rows = this.matrix.length;
    const tops = this.rowTops(), mask = this.masked?.[i];
    const sel = this.selected?.[0] === i ? this.selected[1] : -1;
    const go = (row: number) => { this.zoom = [row, j]; };
    // rows numbered from 0, as the derivation and the token chips number them
    return html`<div class="zoom" role="group" aria-label="Row ${i} (${rowLabel(i)}) of rows 0 to ${rows - 1}, zoomed">
      <div class="zoom-bar"><button class="as" data-action="row-up" aria-label="The row above" ?disabled=${i === 0} @click=${() => go(i - 1)}>↑</button>
        <span>row ${i}: <b>${rowLabel(i)}</b></span>
        <button class="as" data-action="row-down" aria-label="The row below" ?disabled=${i === rows - 1} @click=${() => go(i + 1)}>↓</button>
        <button class="as" data-action="unzoom" aria-label="Close the zoomed row" @click=${() => { this.zoom = null; }}>×</button></div>
      <div class="zoom-cells">${this.matrix[i].map((v, c) => {
        const masked = mask?.[c] === 0;
        const style = masked ? '' : swatchOf(v, scale.kind === 'sequential' ? SEQUENTIAL : scale, tops ? tops[i].top : 1).style;
        return html`<button class="zcell ${c === sel ? 'sel' : ''} ${c === j ? 'tapped' : ''}" data-col=${c} style=${style} ?disabled=${masked}
          aria-label="${rowLabel(i)}, ${colLabel(c)}: ${full(v)}${masked ? ', masked' : ''}" @click=${() => this.activate(i, c)}>
          <span class="zl">${colLabel(c)}</span>${masked ? '—' : short(v)}</button>`;
      })}</div></div>`;
  }

  // The full number of the cell under the pointer, as a table cell's title gives it.
  private onCanvasHover(e: MouseEvent) {
    const at = this.cellAt(e), canvas = e.currentTarget as HTMLCanvasElement;
    if (!at) return canvas.removeAttribute('title');
    const [i, j] = at;
    canvas.title = `${this.rows[i] ?? i} → ${this.cols[j] ?? j}: ${full(this.matrix[i][j])}`;
  }

  private legend(scale: Scale, relative: boolean) {
    if (scale.kind === 'diverging') {
      return html`<div class="legend" aria-hidden="true">
        <span>${short(-scale.m)}</span><span class="bar low" style=${gradientStyle('diverging', 0, 0.5)}></span><span>0</span><span class="bar high" style=${gradientStyle('diverging', 0.5, 1)}></span><span>${short(scale.m)}</span>
      </div>`;
    }
    return html`<div class="legend" aria-hidden="true">
      <span>0</span><span class="bar" style=${gradientStyle('sequential')}></span><span>${relative ? 'row max' : '1'}</span>
      ${relative ? html`<span class="how">each row scaled to its own largest weight${this.pictured() ? '' : ' (outlined)'}</span>` : nothing}
    </div>`;
  }

  render() {
    const rows = this.matrix.length, cols = this.matrix[0]?.length ?? 0;
    const scale = this.colours(), tops = this.rowTops();
    const rowLabel = (i: number) => this.rows[i] ?? String(i);
    const colLabel = (j: number) => this.cols[j] ?? String(j);
    const zoom = this.zoom && this.clickable ? this.zoomedRow(scale, rowLabel, colLabel) : nothing;
    const toggle = this.large()
      ? html`<button class="as" @click=${() => (this.asTable = !this.asTable)}>${this.asTable ? 'show as picture' : 'show as table'}</button>` : nothing;
    const relative = this.relatable()
      ? html`<button class="as" data-action="relative" aria-pressed=${this.relative ? 'true' : 'false'} title="Colour each row from 0 to its own largest weight, so near-uniform rows still show their ranking"
          @click=${this.toggleRelative}>row-relative</button>` : nothing;
    const title = html`<div class="title">${this.label}<small>${this.caption || `${rows} × ${cols}`}</small>${relative}${toggle}</div>`;
    if (this.pictured()) {
      const [width, height] = pictureSize(rows, cols);
      const schemes: Scheme[] = scale.kind === 'diverging' ? ['light', 'dark'] : ['light'];
      return html`<div class="frame">${title}
        ${schemes.map((scheme) => html`<canvas class=${schemes.length > 1 ? scheme : ''} data-scheme=${scheme} role="img"
          aria-label="${this.label}: ${rows} by ${cols} heatmap, too large for numbers"
          style="width:${width}px;height:${height}px" @click=${this.onCanvasClick} @pointermove=${this.onCanvasHover}></canvas>`)}
        ${this.legend(scale, tops !== null)}${zoom}</div>`;
    }
    const numbers = this.showNumbers();
    const active = this.clickable || this.editable;
    return html`<div class="frame">${title}
      <div class="scroll">
      <table @keydown=${this.onKey} @paste=${this.editable ? (e: ClipboardEvent) => this.editor.onPaste(e) : nothing} aria-label="${this.label}">
        <thead><tr><td></td>${Array.from({ length: cols }, (_, j) => html`<th class="col" scope="col" title=${colLabel(j)}>${colLabel(j)}</th>`)}</tr></thead>
        <tbody>${this.matrix.map((row, i) => html`<tr class=${i === this.newRow ? 'new' : ''}><th scope="row" title=${rowLabel(i)}>${rowLabel(i)}</th>${row.map((v, j) => {
          const masked = this.masked !== undefined && this.masked[i]?.[j] === 0;
          const top = tops?.[i];
          const swatch = swatchOf(v, scale.kind === 'sequential' ? SEQUENTIAL : scale, top ? top.top : 1);
          const marked = top !== undefined && top.at === j;
          const focus = i === this.focusRow && j === this.focusCol;
          const sel = this.selected !== undefined && this.selected[0] === i && this.selected[1] === j;
          const lit = this.lit !== undefined && i >= this.lit[0] && i < this.lit[1] && j >= this.lit[2] && j < this.lit[3];
          const cls = `${numbers ? '' : 'small'} ${masked ? 'masked' : ''} ${active ? 'click' : ''} ${sel ? 'sel' : ''} ${lit ? 'lit' : ''} ${this.editable ? 'edit' : ''} ${marked ? 'top' : ''}`;
          if (this.editing && focus) {
            return html`<td class="${cls} editing"><span class="held" aria-hidden="true">${numbers ? short(v) : ''}</span><input
              aria-label="new value for row ${i}, column ${j}" .value=${this.editor.draft ?? String(v)} autocomplete="off" spellcheck="false"
              @keydown=${(e: KeyboardEvent) => this.editor.onInputKey(e)} @blur=${(e: FocusEvent) => this.editor.onBlur(e)}></td>`;
          }
          return html`<td class=${cls} tabindex=${active && focus ? 0 : -1} data-row=${i} data-col=${j} data-value=${v}
            style=${masked ? 'background-color:transparent;color:inherit' : swatch.style}
            title="${rowLabel(i)} → ${colLabel(j)}: ${full(v)}${masked ? ' (masked)' : ''}${marked ? ' (largest in its row)' : ''}"
            aria-label="${rowLabel(i)}, ${colLabel(j)}: ${full(v)}${masked ? ', masked' : ''}${marked ? ', largest in its row' : ''}"
            @click=${active ? (e: MouseEvent) => this.onCellClick(e, i, j) : nothing} @mousedown=${this.editable ? () => this.editor.onMouseDown() : nothing}
            @dblclick=${this.editable ? () => this.editor.onDoubleClick(i, j) : nothing}>${numbers ? short(v) : ''}</td>`;
        })}</tr>`)}</tbody>
      </table></div>
      ${this.legend(scale, tops !== null)}${zoom}
      ${this.editError ? html`<div class="error" role="alert">${this.editError}</div>` : nothing}
      ${this.editable && this.editor.note ? html`<div class="paste-note" role="status">${this.editor.note}</div>` : nothing}
    </div>`;
  }
}

customElements.get('ap-heatmap') || customElements.define('ap-heatmap', Heatmap);
