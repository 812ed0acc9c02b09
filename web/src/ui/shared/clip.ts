// A label cut to fit a picture. Cutting UTF-16 units would split an emoji (a surrogate pair, or
// a family joined by zero-width joiners) into a broken character, so the cut falls between
// graphemes where the browser can tell them apart, and between code points otherwise.
const graphemes = typeof Intl !== 'undefined' && 'Segmenter' in Intl
  ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** The first `length` characters of `text`, as a reader counts them. */
export function clip(text: string, length: number): string {
  if (text.length <= length) return text;  // no grapheme is shorter than one unit
  if (graphemes) {
    let out = '', count = 0;
    for (const { segment } of graphemes.segment(text)) {
      if (count++ === length) break;
      out += segment;
    }
    return out;
  }
  return Array.from(text).slice(0, length).join('');
}
