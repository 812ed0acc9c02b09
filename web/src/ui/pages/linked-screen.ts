// A shared link's first screen on the playground's page. The page holds its first screen as
// HTML (first-screen.html), which a link with settings of its own cannot use as it is: the
// hash never reaches the server, so the written numbers are the defaults', and the page hides
// them (page.css) until the element draws the link's, after its code (47 KB gzip). When the
// link changes only settings the written screen can show (it lists them in its data-link, with
// what the settings table says of each), this module computes the link's trace with the first
// heatmap's module (core/first-core.ts) and writes its numbers into the written screen: each
// control's value, the token chips, and each heatmap's cells, size and legend, every new cell,
// chip and label a copy of a written one, so that it looks as they do. The element then keeps
// that screen until it draws its own (its data-hash is the link's, as the element writes it).
// Anything else (another setting, a value the table would refuse, a spec the core refuses, a
// heatmap too large for numbers in its cells, a spec the element would compute in its worker)
// leaves the screen hidden for the element to draw.
import { loadFirst, traceFor } from '../../core/first-core.js';
import { autoValue } from '../../state/auto-value.js';
import { diverging, extent, short, swatchOf, type Scale } from '../shared/colour.js';
import { inTable, markOverflowing } from '../views/heatmap-form.js';
import { willBeNarrow } from './phone-width.js';

type Matrix = number[][];
type Trace = { error?: unknown; tokens: string[]; scale?: number; spec?: { d_k?: number } } & Record<string, unknown>;
/** What the written screen says of itself (scripts/first-screen.mjs writes it). */
export type Written = {
  spec: Record<string, unknown>;                          // the spec it shows
  settings: Array<[string, 'text'] | [string, number, number]>;  // what a link may set: a text, or an integer's bounds (table order)
  heatmaps: Record<string, { tokens: boolean; range: string[] }>;  // its heatmaps: rows named by the tokens (else numbered), the entries sharing its colours
};

/** Draws the link's numbers into the page's written first screen when it can (see above);
 *  resolves once it is done or has given up, and never rejects. */
export async function drawLinkedScreen(): Promise<void> {
  try {
    const screen = document.querySelector<HTMLElement>('attention-playground > .first-screen[data-link]');
    if (!screen) return;
    const written = JSON.parse(screen.dataset.link!) as Written;
    const link = linkSpec(written, location.hash);
    if (!link) return;
    const calls = await loadFirst();
    if (!calls || customElements.get('attention-playground')) return;
    // (a heatmap whose rows are the tokens holds them all as table rows)
    const rowsFit = (tokens: number) => !Object.values(written.heatmaps).some((map) => map.tokens && !inTable(tokens, 1));
    const t = traceFor(calls, link.spec, rowsFit) as Trace | null;
    if (!t || t.error) return;
    // The copy drawn at the element's width (the wide page's, or the phone's: page.css) is
    // redrawn, and the other one taken out: at another width it would show the defaults' numbers.
    const copy = screen.querySelector(`:scope > ${willBeNarrow(screen.parentElement!) ? '.narrow' : '.wide'}`);
    if (!copy?.shadowRoot || !redraw(copy.shadowRoot, written, link.text, t)) return;
    for (const other of screen.querySelectorAll(':scope > .wide, :scope > .narrow')) if (other !== copy) other.remove();
    screen.toggleAttribute('data-for-link', true);  // shown (page.css)
    if (!copy.checkVisibility()) {  // (a width that changed, a scroll bar that came with the screen)
      screen.toggleAttribute('data-for-link', false);
      return;
    }
    screen.dataset.hash = link.hash;  // the element keeps it until it draws its own
    // a table wider than its column says it scrolls, as the heatmap's own does once drawn
    markOverflowing(copy.shadowRoot.querySelectorAll('[data-element="ap-heatmap"]'));
  } catch {
    // the element draws it with its own code
  }
}

/** The link's spec, its settings as text and its hash as the element writes it (what differs
 *  from the defaults, in the table's order), or null when the written screen cannot show it. */
export function linkSpec(written: Written, hash: string): { spec: Record<string, unknown>; text: Map<string, string>; hash: string } | null {
  const params = new URLSearchParams(hash.slice(1));
  const keys = [...params.keys()];
  if (new Set(keys).size !== keys.length) return null;  // a setting given twice
  const spec = { ...written.spec }, text = new Map<string, string>(), out = new URLSearchParams();
  for (const [key, ...bounds] of written.settings) {
    const given = params.get(key);
    if (given === null) continue;
    params.delete(key);
    let value: string | number = given;
    if (bounds[0] !== 'text') {
      // an integer as the settings table reads one (state/settings.ts), without the spaces it forgives
      if (!/^\d{1,10}$/.test(given) || +given < bounds[0] || +given > (bounds[1] as number)) return null;
      value = +given;
    }
    text.set(key, String(value));
    if (value !== spec[key]) out.set(key, String(value));
    spec[key] = value;
  }
  return params.size ? null : { spec, text, hash: out.toString() };
}

/** Writes trace `t` into one written copy (the wide page's or the phone's); false when the copy
 *  is not as this module knows it, or a heatmap would not be a table of numbers. */
function redraw(root: ShadowRoot, written: Written, text: Map<string, string>, t: Trace): boolean {
  for (const control of root.querySelectorAll<HTMLElement>('[data-key]')) {
    const key = control.dataset.key!, typed = control.querySelector('input:not([type="range"])'), slider = control.querySelector('input[type="range"]');
    if (text.has(key)) typed?.setAttribute('value', text.get(key)!);
    const auto = autoValue(key, t);
    if (slider && auto !== undefined && typed?.getAttribute('value') === '') slider.setAttribute('value', String(auto));
  }
  // a setting said in the text (the seed of "drawn at random from seed 42")
  for (const said of root.querySelectorAll<HTMLElement>('[data-shows]')) said.textContent = text.get(said.dataset.shows!) ?? String(written.spec[said.dataset.shows!]);
  const chips = Array.from(root.querySelectorAll('.tokens > .token'));  // the first pressed, the next not
  if (chips.length < 2) return false;
  const tokens = chips[0].parentElement!;
  chips.forEach((chip) => chip.remove());
  tokens.append(...t.tokens.map((token, i) => copy(chips[i ? 1 : 0], token)));
  for (const map of root.querySelectorAll('[data-element="ap-heatmap"]')) {
    const key = map.getAttribute('key') ?? '', known = written.heatmaps[key], m = t[key] as Matrix | undefined;
    if (!known || !m?.[0]?.length || !map.shadowRoot || !inTable(m.length, m[0].length)) return false;
    const rows = known.tokens ? t.tokens : m.map((_, i) => String(i));
    if (!heatmap(map.shadowRoot, m, rows, diverging(extent(known.range.map((k) => t[k]))))) return false;
  }
  return true;
}

/** Writes matrix m into a written heatmap's table, title and legend, as views/heatmap.ts draws
 *  them; false when the written one is not a table of numbers on a diverging scale. */
function heatmap(root: ShadowRoot, m: Matrix, rows: string[], scale: Scale): boolean {
  const table = root.querySelector('table'), size = root.querySelector('.title small'), legend = root.querySelectorAll('.legend > span');
  const head = table?.tHead?.rows[0], body = table?.tBodies[0], row = body?.rows[0], cell = row?.cells[1];
  // (its legend, when below the fold of the written screen, is not written: the rows below it are
  // then as far down, and not written either)
  if (scale.kind !== 'diverging' || !head || !body || !row || !cell || !size || (legend.length && (legend.length !== 5 || legend[2].textContent !== '0'))
    || !/^\d+ × \d+$/.test(size.textContent ?? '')) return false;  // its size, no caption
  const corner = head.cells[0], column = head.cells[1], label = row.cells[0];
  head.replaceChildren(corner, ...m[0].map((_, j) => copy(column, String(j))));
  body.replaceChildren(...m.map((values, i) => {
    const tr = row.cloneNode(false) as HTMLTableRowElement;
    tr.append(copy(label, rows[i]), ...values.map((v) => {
      const td = copy(cell, short(v));
      td.setAttribute('style', swatchOf(v, scale).style);
      return td;
    }));
    return tr;
  }));
  size.textContent = `${m.length} × ${m[0].length}`;
  if (legend.length) {
    legend[0].textContent = short(-scale.m);
    legend[4].textContent = short(scale.m);
  }
  return true;
}

/** A copy of a written element (its tag, its attributes) holding `text`. */
function copy(like: Element, text: string): Element {
  const e = like.cloneNode(false) as Element;
  e.textContent = text;
  return e;
}
