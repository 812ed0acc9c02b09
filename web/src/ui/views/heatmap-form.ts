// Which form a heatmap takes for its shape: a table with its numbers in its cells, a table of
// colours alone, or a picture (a canvas); and whether its table scrolls sideways in its column. The element decides by it (heatmap.ts), and the first
// screens drawn before its code has arrived (pages/first-screen.ts, pages/linked-screen.ts) draw
// only what it draws as a table of numbers.

// A heatmap writes its numbers in its cells up to this many columns; a wider one is a picture.
const NUMBERED_COLUMNS = 16;
const NUMBERED_ROWS = 64;    // more rows: a table of colours alone
const CANVAS_CELLS = 576;    // 24 x 24: beyond it, DOM cells cost more than they show

/** Whether a matrix of this shape is drawn as a picture (unless asked for as a table). */
export const pictured = (rows: number, cols: number) => rows * cols > CANVAS_CELLS || cols > NUMBERED_COLUMNS;

/** Whether its cells hold their numbers when it is a table. */
export const numbered = (rows: number, cols: number) => cols <= NUMBERED_COLUMNS && rows <= NUMBERED_ROWS;

/** Whether it is drawn as a table with its numbers in its cells. */
export const inTable = (rows: number, cols: number) => !pictured(rows, cols) && numbered(rows, cols);

/** Whether a table's scrolling box is narrower than the table: the heatmap then says it scrolls
 *  sideways (its `overflows` attribute), as nothing else shows that more columns lie to the right. */
export const overflows = (box: Element | null | undefined) => Boolean(box && box.scrollWidth > box.clientWidth + 1);

/** Sets `overflows` on each heatmap drawn before the element (a first screen's), every one
 *  measured before any is marked: marking one between measures made the next measure lay the
 *  page out again (four heads of the trained model took 114 ms of a post's first screen so). */
export function markOverflowing(maps: Iterable<Element>): void {
  const measured = Array.from(maps, (map) => [map, overflows(map.shadowRoot?.querySelector('.scroll'))] as const);
  for (const [map, over] of measured) map.toggleAttribute('overflows', over);
}
