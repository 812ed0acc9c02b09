// Text the page writes into formats that other programs parse: an HTML attribute (the Embed
// snippets), XML (the SVG exports) and a CSV cell (the CSV export). Each format has exactly one
// function here and every writer goes through it: the text is a learner's sentence or link, so
// it may hold anything, and a snippet that is pasted into a blog runs with that blog's rights.

const MARKUP: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const markup = (s: string) => s.replace(/[&<>"']/g, (c) => MARKUP[c]);

/** A value for an HTML attribute, quoted with " or ': nothing in it can close the quote or open a tag. */
export function htmlAttribute(value: string): string {
  return markup(value);
}

// XML 1.0 allows tab, newline, CR, U+0020-U+D7FF, U+E000-U+FFFD and U+10000-U+10FFFF; with the
// u flag a lone surrogate is one code point, outside every range, so it is replaced too.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** The text with every code point XML cannot hold (C0 controls, U+FFFE, U+FFFF, lone
 *  surrogates) replaced by U+FFFD, so a document that holds it still parses. */
export function xmlChars(text: string): string {
  return text.replace(NOT_XML, '\uFFFD');
}

/** Text for XML character data or a quoted attribute value. */
export function xmlText(text: string): string {
  return markup(xmlChars(text));
}

// Spreadsheets run a cell that begins with one of these as a formula (=HYPERLINK, =cmd|...).
const FORMULA = /^[=+\-@\t\r]/;

/** A text cell of a CSV file (a label, never a number): always quoted, and a leading formula
 *  character disarmed with a ' as spreadsheets expect, so the cell shows as the text it is. */
export function csvText(text: string): string {
  const safe = FORMULA.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

// What a URL parser drops before it reads a scheme: leading and trailing C0 controls and spaces,
// and tabs and newlines anywhere ("jav\tascript:" is javascript:).
const URL_STRIPPED = /^[\u0000-\u0020]+|[\u0000-\u0020]+$|[\t\n\r]/g;

/** `text` resolved against `base` when it is an http(s) or relative URL (a path, `?q`, `#h`,
 *  `//host/p`), else null: a link or script address the page hands out in a snippet is never
 *  javascript:, data: or any other scheme, which would run script where the snippet is pasted. */
export function httpURL(text: string, base: string): string | null {
  const bare = text.replace(URL_STRIPPED, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(bare)?.[1].toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return null;
  try {
    const url = new URL(bare, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
