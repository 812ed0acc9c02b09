// Files a learner can take away from any view: the numbers (CSV, JSON) and the picture (SVG,
// PNG) of a heatmap or of the arcs. Pictures are drawn from the same numbers and colours as
// the screen (its light theme, for slides and paper), not screenshotted, and carry what a
// reader needs away from the page: a title naming the matrix and head, and the colour legend.
import { SEQUENTIAL, colourOf, css, ink, short, stops, type RGB, type Scale } from './colour.js';
import { csvText, xmlChars, xmlText } from './escape.js';
import { clip } from './clip.js';

export interface MatrixData {
  label: string;        // the title: the matrix and its head ("weights · head 2")
  matrix: number[][];
  rows: string[];
  cols: string[];
  scale: Scale;
  relative?: boolean;   // weights coloured row by row over 0 to the row's largest, which is outlined
  masked?: number[][];
}

const ROW = 26, FONT = 11, TITLE_FONT = 13;
// A monospace character is 0.6 em wide in the usual fonts; a little more keeps every label in.
const CHAR = 0.62 * FONT;
const SLANT = Math.PI / 3;  // column labels rise at 60°
const BAR = 160;            // the legend's colour bar

// The longest labels a picture shows, in characters as a reader counts them.
const COL_LABEL = 10, ROW_LABEL = 12;

// Chromium refuses a canvas wider or taller than 32,767 pixels or larger than 268 million in
// all (toBlob then gives null), and each pixel holds 4 bytes: a wide matrix is drawn smaller
// (at most 16,384 pixels a side, 128 MB) rather than not at all.
const CANVAS_SIDE = 16_384, CANVAS_AREA = 8_192 * 4_096;

/** The scale to draw a w x h picture at: sharp on this screen (twice its pixel ratio) and wide
 *  enough for a full-HD slide (a small weights map is a few hundred pixels across), or less
 *  when that would not fit a canvas. */
export function canvasScale(w: number, h: number, wanted = pictureScale(w)): number {
  return Math.min(wanted, CANVAS_SIDE / w, CANVAS_SIDE / h, Math.sqrt(CANVAS_AREA / (w * h)));
}

const SLIDE_WIDTH = 1920, MOST_SCALE = 8;
const pictureScale = (w: number) =>
  Math.max(2 * (globalThis.devicePixelRatio || 1), Math.min(MOST_SCALE, SLIDE_WIDTH / w));

const colLabel = (d: MatrixData, j: number) => d.cols[j] ?? String(j);
const rowLabel = (d: MatrixData, i: number) => d.rows[i] ?? String(i);

// Labels are text cells (quoted, formulas disarmed); numbers stay numbers, -0.5 included.
export function toCSV(d: MatrixData): string {
  const head = ['', ...d.matrix[0].map((_, j) => colLabel(d, j))].map(csvText).join(',');
  const body = d.matrix.map((row, i) => [csvText(rowLabel(d, i)), ...row.map((v) => String(v))].join(','));
  return [head, ...body].join('\n') + '\n';
}

export function toJSON(d: MatrixData): string {
  return JSON.stringify({ name: d.label, rows: d.rows, cols: d.matrix[0].map((_, j) => colLabel(d, j)), values: d.matrix }, null, 1) + '\n';
}

/** Where everything of a picture goes: the sizes come from the longest label and number, so
 *  nothing is cut off (a column label rises up and to the right of its column). */
interface Layout { cell: number; left: number; top: number; width: number; height: number; legend: number; cols: string[]; rows: string[] }

function layout(d: MatrixData): Layout {
  const n = d.matrix.length, m = d.matrix[0].length;
  const cols = d.matrix[0].map((_, j) => clip(colLabel(d, j), COL_LABEL));
  const rows = d.matrix.map((_, i) => clip(rowLabel(d, i), ROW_LABEL));
  const chars = (t: string) => Array.from(t).length;
  let widest = 0;
  for (const row of d.matrix) for (const v of row) widest = Math.max(widest, short(v).length);
  const cell = Math.max(44, Math.ceil(widest * CHAR + 8));
  const left = Math.max(40, Math.ceil(Math.max(0, ...rows.map(chars)) * CHAR + 14));
  const rise = Math.max(0, ...cols.map((c) => chars(c) * CHAR * Math.sin(SLANT)));
  const top = 28 + Math.ceil(rise) + 10;
  const reach = Math.max(0, ...cols.map((c, j) => left + j * cell + cell / 2 + 4 + chars(c) * CHAR * Math.cos(SLANT) + FONT));
  const legend = top + n * ROW + 14;
  const note = d.relative ? chars(RELATIVE_NOTE) * CHAR + 12 : 0;
  const width = Math.ceil(Math.max(left + m * cell + 10, reach + 6, 8 + chars(d.label) * 0.62 * TITLE_FONT + 8, left + BAR + 20 + note));
  return { cell, left, top, width, height: legend + 36, legend, cols, rows };
}

const RELATIVE_NOTE = 'each row scaled to its largest weight (outlined)';

/** Each row's largest visible weight and where it is, when the picture is row-relative. */
function rowTops(d: MatrixData): Array<{ top: number; at: number }> | null {
  if (!d.relative || d.scale.kind !== 'sequential') return null;
  return d.matrix.map((row, i) => {
    let top = 0, at = -1;
    row.forEach((v, j) => { if (!(d.masked && d.masked[i]?.[j] === 0) && v > top) { top = v; at = j; } });
    return { top, at };
  });
}

function cellColour(d: MatrixData, tops: ReturnType<typeof rowTops>, i: number, j: number): RGB | null {
  if (d.masked && d.masked[i]?.[j] === 0) return null;
  return tops ? colourOf(d.matrix[i][j], SEQUENTIAL, 'light', tops[i].top) : colourOf(d.matrix[i][j], d.scale, 'light');
}

/** The legend's texts and where they stand along the bar (0 to 1). */
function legendLabels(d: MatrixData): Array<[string, number]> {
  if (d.scale.kind === 'diverging') return [[short(-d.scale.m), 0], ['0', 0.5], [short(d.scale.m), 1]];
  return [['0', 0], [d.relative ? 'row max' : '1', 1]];
}

const anchorOf = (at: number) => (at === 0 ? 'start' : at === 1 ? 'end' : 'middle');

export function toSVG(d: MatrixData): string {
  const n = d.matrix.length, m = d.matrix[0].length;
  const L = layout(d), tops = rowTops(d);
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${L.width}" height="${L.height}" viewBox="0 0 ${L.width} ${L.height}" font-family="monospace" font-size="${FONT}">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="8" y="20" font-size="${TITLE_FONT}" font-weight="bold">${xmlText(d.label)}</text>`];
  for (let j = 0; j < m; j++) {
    out.push(`<text transform="translate(${L.left + j * L.cell + L.cell / 2 + 4},${L.top - 6}) rotate(-60)">${xmlText(L.cols[j])}</text>`);
  }
  for (let i = 0; i < n; i++) {
    out.push(`<text x="${L.left - 6}" y="${L.top + i * ROW + ROW / 2 + 4}" text-anchor="end">${xmlText(L.rows[i])}</text>`);
    for (let j = 0; j < m; j++) {
      const c = cellColour(d, tops, i, j);
      const x = L.left + j * L.cell, y = L.top + i * ROW;
      out.push(`<rect x="${x}" y="${y}" width="${L.cell - 1}" height="${ROW - 1}" fill="${c ? css(c) : '#ccc'}"><title>${d.matrix[i][j]}</title></rect>`);
      if (tops?.[i].at === j) out.push(`<rect class="top" x="${x + 1}" y="${y + 1}" width="${L.cell - 3}" height="${ROW - 3}" fill="none" stroke="${ink(c!)}" stroke-width="2"/>`);
      out.push(`<text x="${x + L.cell / 2}" y="${y + ROW / 2 + 4}" text-anchor="middle" fill="${c ? ink(c) : '#333'}">${xmlText(short(d.matrix[i][j]))}</text>`);
    }
  }
  // The legend: the scale's bar, its ends and (diverging) its 0.
  const kind = d.scale.kind, colours = stops(kind, 'light');
  out.push(`<g class="legend" transform="translate(${L.left},${L.legend})">`,
    `<defs><linearGradient id="legend-${kind}">${colours.map((c, k) => `<stop offset="${k / (colours.length - 1)}" stop-color="${css(c)}"/>`).join('')}</linearGradient></defs>`,
    `<rect width="${BAR}" height="10" rx="3" fill="url(#legend-${kind})"/>`);
  if (kind === 'diverging') out.push(`<line x1="${BAR / 2}" x2="${BAR / 2}" y1="-2" y2="13" stroke="#333"/>`);
  for (const [text, at] of legendLabels(d)) out.push(`<text x="${at * BAR}" y="25" text-anchor="${anchorOf(at)}" fill="#333">${xmlText(text)}</text>`);
  if (d.relative) out.push(`<text x="${BAR + 12}" y="9" fill="#333">${RELATIVE_NOTE}</text>`);
  out.push('</g>', '</svg>');
  return out.join('\n');
}

export function toPNG(d: MatrixData): Promise<Blob> {
  const n = d.matrix.length, m = d.matrix[0].length;
  const L = layout(d), tops = rowTops(d);
  const canvas = document.createElement('canvas');
  const scale = canvasScale(L.width, L.height);
  canvas.width = Math.floor(L.width * scale);
  canvas.height = Math.floor(L.height * scale);
  const g = canvas.getContext('2d')!;
  g.scale(scale, scale);
  g.fillStyle = '#fff';
  g.fillRect(0, 0, L.width, L.height);
  g.fillStyle = '#000';
  g.font = `bold ${TITLE_FONT}px monospace`;
  g.fillText(d.label, 8, 20);
  g.font = `${FONT}px monospace`;
  for (let j = 0; j < m; j++) {
    g.save();
    g.translate(L.left + j * L.cell + L.cell / 2 + 4, L.top - 6);
    g.rotate(-SLANT);
    g.fillStyle = '#000';
    g.fillText(L.cols[j], 0, 0);
    g.restore();
  }
  for (let i = 0; i < n; i++) {
    g.textAlign = 'end';
    g.fillStyle = '#000';
    g.fillText(L.rows[i], L.left - 6, L.top + i * ROW + ROW / 2 + 4);
    g.textAlign = 'center';
    for (let j = 0; j < m; j++) {
      const c = cellColour(d, tops, i, j);
      const x = L.left + j * L.cell, y = L.top + i * ROW;
      g.fillStyle = c ? css(c) : '#ccc';
      g.fillRect(x, y, L.cell - 1, ROW - 1);
      if (tops?.[i].at === j) {
        g.strokeStyle = ink(c!);
        g.lineWidth = 2;
        g.strokeRect(x + 1, y + 1, L.cell - 3, ROW - 3);
      }
      g.fillStyle = c ? ink(c) : '#333';
      g.fillText(short(d.matrix[i][j]), x + L.cell / 2, y + ROW / 2 + 4);
    }
  }
  const kind = d.scale.kind, colours = stops(kind, 'light');
  const bar = g.createLinearGradient(L.left, 0, L.left + BAR, 0);
  colours.forEach((c, k) => bar.addColorStop(k / (colours.length - 1), css(c)));
  g.fillStyle = bar;
  g.fillRect(L.left, L.legend, BAR, 10);
  g.fillStyle = '#333';
  g.strokeStyle = '#333';
  g.lineWidth = 1;
  if (kind === 'diverging') {
    g.beginPath();
    g.moveTo(L.left + BAR / 2 + 0.5, L.legend - 2);
    g.lineTo(L.left + BAR / 2 + 0.5, L.legend + 13);
    g.stroke();
  }
  for (const [text, at] of legendLabels(d)) {
    g.textAlign = anchorOf(at) === 'middle' ? 'center' : anchorOf(at) as CanvasTextAlign;
    g.fillText(text, L.left + at * BAR, L.legend + 25);
  }
  g.textAlign = 'start';
  if (d.relative) g.fillText(RELATIVE_NOTE, L.left + BAR + 12, L.legend + 9);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the picture is too large for this browser'))), 'image/png'));
}

/** The band a title and its subtitle add at the top of standaloneSVG's picture. */
export const TITLE_BAND = 40;

/** An SVG element of the page (the arcs) as a file of its own, with a title and a smaller line
 *  under it when given: its labels are the learner's tokens, so every text and attribute loses
 *  what XML cannot hold (XMLSerializer keeps it). */
export function standaloneSVG(svg: SVGSVGElement, title = '', subtitle = ''): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('font-family', 'monospace');
  clone.setAttribute('font-size', '13');
  if (title) {
    const ns = 'http://www.w3.org/2000/svg', box = svg.viewBox.baseVal;
    const body = document.createElementNS(ns, 'g');
    body.setAttribute('transform', `translate(0,${TITLE_BAND})`);
    body.append(...Array.from(clone.childNodes));
    const line = (content: string, attributes: Record<string, string>) => {
      const text = document.createElementNS(ns, 'text');
      Object.entries(attributes).forEach(([k, v]) => text.setAttribute(k, v));
      text.textContent = content;
      return text;
    };
    clone.append(line(title, { x: '4', y: '17', 'font-weight': 'bold' }), line(subtitle, { x: '4', y: '32', 'font-size': '10' }), body);
    clone.setAttribute('viewBox', `0 0 ${box.width} ${box.height + TITLE_BAND}`);
    clone.setAttribute('width', String(box.width));
    clone.setAttribute('height', String(box.height + TITLE_BAND));
  }
  const walker = document.createTreeWalker(clone, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node: Node | null = clone; node; node = walker.nextNode()) {
    if (node instanceof Element) for (const a of Array.from(node.attributes)) a.value = xmlChars(a.value);
    else if (node instanceof CharacterData) node.data = xmlChars(node.data);
  }
  return new XMLSerializer().serializeToString(clone);
}

/** An SVG element (the arcs) as a PNG of the same size, on white. */
export function svgToPNG(svgText: string, width: number, height: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
    img.onload = () => {
      const canvas = document.createElement('canvas');
      const scale = canvasScale(width, height);
      canvas.width = Math.floor(width * scale);
      canvas.height = Math.floor(height * scale);
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#fff';
      g.fillRect(0, 0, canvas.width, canvas.height);
      g.drawImage(img, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(url);
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the picture is too large for this browser'))), 'image/png');
    };
    img.onerror = () => { URL.revokeObjectURL(url); reject(new Error('the SVG could not be drawn')); };
    img.src = url;
  });
}

export function download(filename: string, data: Blob | string, type = 'text/plain') {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
