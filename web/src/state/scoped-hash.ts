// A link to one element among several on someone else's page (a blog post with three
// playgrounds): its settings go in the page's URL hash under the element's own name
// (`#seed004.sentence=...&seed004.seed=3`), so the element reads back its own numbers and leaves
// the others, and the page's own URL, alone. A setting's name has no dot, so `a.b.sentence` is
// the sentence of the element named `a.b`, never a setting `b.sentence` of the element `a`.

/** The hash (no '#') of `hash` (as toHash writes it) under `scope`. */
export function scopedHash(scope: string, hash: string): string {
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(hash)) out.append(`${scope}.${k}`, v);
  return out.toString();
}

/** The setting a hash key names under `scope`, or null when the key is not the scope's. */
const settingOf = (scope: string, key: string) => {
  const rest = key.startsWith(`${scope}.`) ? key.slice(scope.length + 1) : null;
  return rest && !rest.includes('.') ? rest : null;
};

/** The part of a URL hash under `scope`, as an unscoped hash ('' when there is none). */
export function unscopedHash(scope: string, hash: string): string {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return '';
  }
  const out = new URLSearchParams();
  for (const [k, v] of params) {
    const setting = settingOf(scope, k);
    if (setting) out.append(setting, v);
  }
  return out.toString();
}

/** The page's hash (`#/3` of a slide deck, other elements' settings) with `scope`'s part
 *  replaced by `hash`: what is not this element's stays as it was, in its place, a route that
 *  reads its hash as a path (reveal.js: `#/3/1`, `#/intro`) first. A deck that reads its whole
 *  hash as the route takes the route alone once its elements have read theirs (`routeOf`). */
export function withScope(current: string, scope: string, hash: string): string {
  const parts = current.replace(/^#/, '').split('&').filter((p) => p !== '' && !settingOf(scope, decodeKey(p)));
  return [...parts, scopedHash(scope, hash)].filter(Boolean).join('&');
}

/** The route of a hash that also holds elements' settings (`#/3&deck-1.seed=7` -> `#/3`). */
export const routeOf = (hash: string) => hash.split('&')[0];

/** The key of one `key=value` part of a hash, as URLSearchParams reads it. */
function decodeKey(part: string): string {
  try {
    return decodeURIComponent(part.split('=')[0].replace(/\+/g, ' '));
  } catch {
    return part;
  }
}
