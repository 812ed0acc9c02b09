// A spec handed to the element by a host page (`el.spec = {...}`), read as the attributes and
// the link are read: through the settings table, so a value it refuses falls back to its
// default with a note, and the spec on screen is the one the controls show.
import type { Spec } from '../core/attention.js';

/** [key, text, name] entries for readEntries(): the spec keys the table knows by their own
 *  name (readEntries reads `mask: "window:D"` as the mask and its window), matrices as JSON.
 *  `layer_norm` is not one of them: it follows `residual`, as the control sets both. */
export function specEntries(spec: Spec): Array<[string, string, string]> {
  const entries: Array<[string, string, string]> = [];
  for (const [key, value] of Object.entries(spec ?? {})) {
    if (value === undefined || key === 'layer_norm') continue;
    entries.push([key, typeof value === 'object' ? JSON.stringify(value) : String(value), key]);
  }
  return entries;
}
