// A link to one element among several on someone else's page (a blog post with three
// playgrounds): its settings go in the page's URL hash under the element's own name
// (`#seed004.sentence=...&seed004.seed=3`), so the element reads back its own numbers and leaves
// the others, and the page's own URL, alone.

/** The hash (no '#') of `hash` (as toHash writes it) under `scope`. */
export function scopedHash(scope: string, hash: string): string {
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(hash)) out.append(`${scope}.${k}`, v);
  return out.toString();
}

/** The part of a URL hash under `scope`, as an unscoped hash ('' when there is none). */
export function unscopedHash(scope: string, hash: string): string {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return '';
  }
  const prefix = `${scope}.`;
  const out = new URLSearchParams();
  for (const [k, v] of params) if (k.startsWith(prefix)) out.append(k.slice(prefix.length), v);
  return out.toString();
}
