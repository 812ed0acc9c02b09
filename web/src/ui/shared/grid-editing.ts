// An editable matrix behaves like a spreadsheet, so a teacher can type a textbook's X without
// the mouse: a selected cell takes typing at once (a digit, minus or dot starts the edit with
// that character; Enter, F2 or a double click edit the value there); Enter commits and moves
// down (to the column where a run of Tabs began, as spreadsheets do), Tab commits and moves
// right, wrapping to the next row (Shift reverses both); Escape cancels and keeps the cell
// selected; the arrows move the selection; clicking another cell while editing commits and
// selects it. A block pasted into a cell (lines of numbers, or a JSON array of arrays) fills the
// matrix from there: what fits is applied and a note says how many rows and columns did not.
import { css, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { fit, readPasted } from '../../state/pasted.js';

export interface EditableGrid extends ReactiveControllerHost, HTMLElement {
  key: string;
  label: string;
  head: number;
  matrix: number[][];
  focusRow: number;
  focusCol: number;
  editing: boolean;
  editError: string;
  renderRoot: HTMLElement | DocumentFragment;
}

const STARTS_EDIT = /^[0-9.+-]$/;

export class GridEditor implements ReactiveController {
  /** The text the editor opens with when typing started it (else the cell's value, selected). */
  draft: string | null = null;
  /** What the last paste left out, or why it was refused; gone with the next edit or matrix. */
  note = '';
  private tabStart: number | null = null;  // the column a run of Tabs began in
  private clickWhileEditing = false;      // a mousedown came while editing: its click selects, not edits
  private opened = false;                 // the editor is new and wants focus
  private shown: number[][] | null = null;  // the matrix the note speaks of
  private pasted: { row: number; col: number; kept: number[][] } | null = null;

  constructor(private host: EditableGrid) {
    host.addController(this);
  }

  private get size() { return [this.host.matrix.length, this.host.matrix[0]?.length ?? 0]; }

  /** The note stays while the matrix is the one it speaks of: the paste's result (once the
   *  element computed it), not a later edit, preset or sentence. */
  hostUpdate() {
    const m = this.host.matrix;
    if (!this.note || m === this.shown) return;
    const p = this.pasted;
    if (p && p.kept.every((r, i) => r.every((v, j) => m[p.row + i]?.[p.col + j] === v))) this.shown = m;
    else this.note = '';
    this.pasted = null;
  }

  hostUpdated() {
    if (!this.opened || !this.host.editing) return;
    this.opened = false;
    const input = this.host.renderRoot.querySelector('td input') as HTMLInputElement | null;
    if (!input) return;
    input.focus();
    if (this.draft === null) input.select();
    else input.setSelectionRange(input.value.length, input.value.length);
  }

  private emit(row: number, col: number, values: number[][]) {
    const { key, head } = this.host;
    this.host.dispatchEvent(new CustomEvent('cell-edit', {
      detail: { key, head, row, col, values, value: values[0][0] }, bubbles: true, composed: true,
    }));
  }

  private open(draft: string | null) {
    this.draft = draft;
    this.note = '';
    this.host.editError = '';
    this.host.editing = true;
    this.opened = true;
  }

  private select(row: number, col: number) {
    const [rows, cols] = this.size;
    this.host.focusRow = Math.min(rows - 1, Math.max(0, row));
    this.host.focusCol = Math.min(cols - 1, Math.max(0, col));
    this.host.updateComplete.then(() => (this.host.renderRoot.querySelector('td[tabindex="0"]') as HTMLElement | null)?.focus());
  }

  /** Keys on a selected cell (the editor's own keys go to onInputKey). */
  onKey(e: KeyboardEvent) {
    if (this.host.editing || e.ctrlKey || e.metaKey || e.altKey) return;
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const m = moves[e.key];
    if (m) {
      e.preventDefault();
      this.tabStart = null;
      this.select(this.host.focusRow + m[0], this.host.focusCol + m[1]);
    } else if (e.key === 'Enter' || e.key === 'F2') {
      e.preventDefault();
      this.open(null);
    } else if (STARTS_EDIT.test(e.key)) {
      e.preventDefault();
      this.open(e.key);
    } else if (e.key === 'Backspace' || e.key === 'Delete') {
      e.preventDefault();
      this.open('');
    }
  }

  onInputKey(e: KeyboardEvent) {
    // Handled here and stopped: the table's own Enter would open the editor again.
    e.stopPropagation();
    const input = e.target as HTMLInputElement;
    if (e.key === 'Escape') {
      e.preventDefault();
      this.host.editing = false;
      this.host.editError = '';
      this.select(this.host.focusRow, this.host.focusCol);
      return;
    }
    const [rows, cols] = this.size;
    const { focusRow: r, focusCol: c } = this.host;
    let next: [number, number] | null = null;
    if (e.key === 'Tab') {
      this.tabStart ??= c;
      const i = r * cols + c + (e.shiftKey ? -1 : 1);
      next = i < 0 || i >= rows * cols ? [r, c] : [Math.floor(i / cols), i % cols];
    } else if (e.key === 'Enter' || e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const down = e.key === 'Enter' ? !e.shiftKey : e.key === 'ArrowDown';
      next = [Math.min(rows - 1, Math.max(0, r + (down ? 1 : -1))), this.tabStart ?? c];
      this.tabStart = null;
    }
    if (!next) return;
    e.preventDefault();
    if (this.commit(input)) this.select(...next);
  }

  /** Writes the editor's number into the matrix; false (and a message) when it is not one. */
  private commit(input: HTMLInputElement): boolean {
    if (!this.host.editing) return true;
    const text = input.value.trim();
    const { focusRow: row, focusCol: col } = this.host;
    // Empty leaves the cell as it was: a matrix has no blank cells to clear it to.
    const v = text === '' ? this.host.matrix[row][col] : Number(text);
    if (!Number.isFinite(v)) {
      this.host.editError = `“${text.slice(0, 20)}” is not a number`;
      return false;
    }
    this.host.editError = '';
    this.host.editing = false;
    if (v !== this.host.matrix[row][col]) this.emit(row, col, [[v]]);
    return true;
  }

  /** Focus leaving the editor (a click elsewhere) commits it; a refused value stays open. */
  onBlur(e: FocusEvent) {
    this.commit(e.target as HTMLInputElement);
  }

  onMouseDown() {
    this.clickWhileEditing = this.host.editing;
  }

  /** A click edits a cell, or, while another is being edited, commits that one and selects this. */
  onClick(row: number, col: number) {
    const wasEditing = this.clickWhileEditing;
    this.clickWhileEditing = false;
    this.tabStart = null;
    if (this.host.editing) {
      // The edit could not be committed (not a number): it keeps the focus and its message.
      if (row !== this.host.focusRow || col !== this.host.focusCol) this.opened = true, this.host.requestUpdate();
      return;
    }
    if (wasEditing) return this.select(row, col);
    this.host.focusRow = row;
    this.host.focusCol = col;
    this.open(null);
  }

  onDoubleClick(row: number, col: number) {
    if (this.host.editing) return;
    this.host.focusRow = row;
    this.host.focusCol = col;
    this.open(null);
  }

  /** A block of numbers pasted into the selected cell (or into the editor: a single number
   *  pasted there is left to the editor as text). */
  onPaste(e: ClipboardEvent) {
    const text = e.clipboardData?.getData('text/plain') ?? '';
    const read = readPasted(text);
    const single = 'rows' in read && read.rows.length === 1 && read.rows[0].length === 1;
    if (this.host.editing && (single || !('rows' in read))) return;
    e.preventDefault();
    const { focusRow: row, focusCol: col } = this.host;
    this.shown = this.host.matrix;
    this.pasted = null;
    if (!('rows' in read)) {
      this.note = read.problem;
      this.host.requestUpdate();
      return;
    }
    this.host.editing = false;
    this.host.editError = '';
    const [rows, cols] = this.size;
    const { kept, rowsLeft, colsLeft } = fit(read.rows, rows, cols, row, col);
    const left = [rowsLeft ? `${rowsLeft} row${rowsLeft > 1 ? 's' : ''}` : '', colsLeft ? `${colsLeft} column${colsLeft > 1 ? 's' : ''}` : '']
      .filter(Boolean).join(' and ');
    const given = `${read.rows.length} × ${Math.max(...read.rows.map((r) => r.length))}`;
    this.note = left ? `Pasted the ${given} block from row ${row}, column ${col}: ${left} fell outside ${this.host.label} (${rows} × ${cols}) and ${rowsLeft + colsLeft === 1 ? 'was' : 'were'} left out.` : '';
    this.pasted = { row, col, kept };
    this.emit(row, col, kept);
    this.select(row, col);
  }
}

/** The editor sits over its cell (as wide as a number needs), so no column moves while typing. */
export const EDITING_STYLES = css`
  td.edit:focus { outline: 2px solid var(--ap-focus, #1a73e8); outline-offset: -2px; }
  td.editing { position: relative; }
  td.editing .held { visibility: hidden; }
  td.editing input { position: absolute; left: 0; top: 0; z-index: 1; box-sizing: border-box; width: max(100%, 6em); height: 100%;
    margin: 0; padding: 0 3px; font: inherit; border: 2px solid var(--ap-focus, #1a73e8); border-radius: 3px;
    background: var(--ap-card, #fff); color: var(--ap-fg, #1c1c1e); box-shadow: 0 1px 6px rgb(0 0 0 / 0.3); }
  .paste-note { font-size: 0.8rem; color: var(--ap-muted, #555); max-width: 40ch; }
`;
