// Files a learner can take away from any view: the numbers (CSV, JSON) and the picture (SVG,
// PNG) of a heatmap or of the arcs. Pictures are drawn from the same numbers and colours as
// the screen, not screenshotted.
import { css, ink, short, viridis } from './colour.js';

export interface MatrixData {
  label: string;
  matrix: number[][];
  rows: string[];
  cols: string[];
  range: [number, number];
  masked?: number[][];
}

const CELL = 44, ROW = 26, LEFT = 90, TOP = 70;

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]!));
const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function toCSV(d: MatrixData): string {
  const head = ['', ...d.matrix[0].map((_, j) => d.cols[j] ?? String(j))].map(csvCell).join(',');
  const body = d.matrix.map((row, i) => [csvCell(d.rows[i] ?? String(i)), ...row.map((v) => String(v))].join(','));
  return [head, ...body].join('\n') + '\n';
}

export function toJSON(d: MatrixData): string {
  return JSON.stringify({ name: d.label, rows: d.rows, cols: d.matrix[0].map((_, j) => d.cols[j] ?? String(j)), values: d.matrix }, null, 1) + '\n';
}

function colourOf(d: MatrixData, i: number, j: number): [number, number, number] | null {
  if (d.masked && d.masked[i]?.[j] === 0) return null;
  const [lo, hi] = d.range;
  return viridis((d.matrix[i][j] - lo) / (hi - lo));
}

export function toSVG(d: MatrixData): string {
  const n = d.matrix.length, m = d.matrix[0].length;
  const w = LEFT + m * CELL + 10, h = TOP + n * ROW + 10;
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="monospace" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="4" y="16" font-size="13" font-weight="bold">${esc(d.label)}</text>`];
  for (let j = 0; j < m; j++) {
    out.push(`<text transform="translate(${LEFT + j * CELL + CELL / 2 + 4},${TOP - 6}) rotate(-60)">${esc((d.cols[j] ?? String(j)).slice(0, 10))}</text>`);
  }
  for (let i = 0; i < n; i++) {
    out.push(`<text x="${LEFT - 6}" y="${TOP + i * ROW + ROW / 2 + 4}" text-anchor="end">${esc((d.rows[i] ?? String(i)).slice(0, 12))}</text>`);
    for (let j = 0; j < m; j++) {
      const c = colourOf(d, i, j);
      const x = LEFT + j * CELL, y = TOP + i * ROW;
      out.push(`<rect x="${x}" y="${y}" width="${CELL - 1}" height="${ROW - 1}" fill="${c ? css(c) : '#ccc'}"><title>${d.matrix[i][j]}</title></rect>`);
      out.push(`<text x="${x + CELL / 2}" y="${y + ROW / 2 + 4}" text-anchor="middle" fill="${c ? ink(c) : '#333'}">${esc(short(d.matrix[i][j]))}</text>`);
    }
  }
  out.push('</svg>');
  return out.join('\n');
}

export function toPNG(d: MatrixData): Promise<Blob> {
  const n = d.matrix.length, m = d.matrix[0].length;
  const canvas = document.createElement('canvas');
  const scale = 2;
  canvas.width = (LEFT + m * CELL + 10) * scale;
  canvas.height = (TOP + n * ROW + 10) * scale;
  const g = canvas.getContext('2d')!;
  g.scale(scale, scale);
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#000';
  g.font = 'bold 13px monospace';
  g.fillText(d.label, 4, 16);
  g.font = '11px monospace';
  for (let j = 0; j < m; j++) {
    g.save();
    g.translate(LEFT + j * CELL + CELL / 2 + 4, TOP - 6);
    g.rotate(-Math.PI / 3);
    g.fillStyle = '#000';
    g.fillText((d.cols[j] ?? String(j)).slice(0, 10), 0, 0);
    g.restore();
  }
  for (let i = 0; i < n; i++) {
    g.textAlign = 'end';
    g.fillStyle = '#000';
    g.fillText((d.rows[i] ?? String(i)).slice(0, 12), LEFT - 6, TOP + i * ROW + ROW / 2 + 4);
    g.textAlign = 'center';
    for (let j = 0; j < m; j++) {
      const c = colourOf(d, i, j);
      g.fillStyle = c ? css(c) : '#ccc';
      g.fillRect(LEFT + j * CELL, TOP + i * ROW, CELL - 1, ROW - 1);
      g.fillStyle = c ? ink(c) : '#333';
      g.fillText(short(d.matrix[i][j]), LEFT + j * CELL + CELL / 2, TOP + i * ROW + ROW / 2 + 4);
    }
  }
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png'));
}

/** An SVG element (the arcs) as a PNG of the same size, on white. */
export function svgToPNG(svgText: string, width: number, height: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = width * 2;
      canvas.height = height * 2;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#fff';
      g.fillRect(0, 0, canvas.width, canvas.height);
      g.drawImage(img, 0, 0, canvas.width, canvas.height);
      URL.revokeObjectURL(url);
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png');
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
