// Share and Embed for every element of the page: the link of the current state, an <iframe>
// snippet and an element snippet, copied when the page may use the clipboard. Every value in a
// snippet goes through htmlAttribute(): a sentence, a matrix or a link may hold anything.
import { attributeOf, type SettingDef, type State } from '../../state/settings.js';
import { htmlAttribute, httpURL } from './escape.js';
import { clip } from './clip.js';
import { count } from './count.js';

// Browsers, servers and chat apps cut or refuse longer URLs (some at 2,000, most past 32,000
// characters; Chromium refuses 2 MB), so a longer link is offered as a file instead.
export const LINK_LIMIT = 32_000;

/** Copies text; false where there is no clipboard (a sandboxed iframe, an insecure page). */
export async function copyText(text: string): Promise<boolean> {
  const policy = (document as any).permissionsPolicy ?? (document as any).featurePolicy;
  if (!navigator.clipboard || (policy && !policy.allowsFeature('clipboard-write'))) return false;
  try { await navigator.clipboard.writeText(text); return true; } catch { return false; }
}

/** One `name="value"` attribute, the value escaped. */
export const attribute = (name: string, value: string) => `${name}="${htmlAttribute(value)}"`;

export function iframeSnippet(url: string, title: string, height: number): string {
  return `<iframe ${attribute('src', url)} ${attribute('title', title)} width="100%" height="${height}" style="border:0" loading="lazy"></iframe>`;
}

/** `<script type="module" src=...></script>` and the element with the settings that differ
 *  from the table's defaults as attributes, then `extra` ones (name and value, not yet escaped). */
export function elementSnippet(tag: string, script: string, table: SettingDef[], state: State, extra: Array<[string, string]> = []): string {
  const attrs = table.filter((d) => state[d.key] !== d.fallback).map((d): [string, string] => [attributeOf(d.key), String(state[d.key])]);
  const written = [...attrs, ...extra].map(([name, value]) => attribute(name, value));
  return `<script type="module" ${attribute('src', script)}></script>\n<${tag} ${written.join(' ')}></${tag}>`;
}

/** An embedder's address attribute (`share-url`, `script-url`): resolved when it is http(s) or
 *  relative; otherwise refused with a note naming it, since Share and Embed would hand the
 *  address to readers who paste it into their own pages. Absent: url and problem are null. */
export function urlAttribute(el: Element, name: 'share-url' | 'script-url'): { url: string | null; problem: string | null } {
  const text = el.getAttribute(name);
  if (text === null) return { url: null, problem: null };
  const url = httpURL(text, document.baseURI);
  return url ? { url, problem: null }
    : { url: null, problem: `${name}="${clip(text, 40)}" is not an http(s) or relative address, so it was not used` };
}

/** What Share and Embed say of the address attributes they refused, or ''. */
export const refusedURLs = (el: Element): string => (['share-url', 'script-url'] as const)
  .map((n) => urlAttribute(el, n).problem).filter(Boolean).map((p) => `${p}. `).join('');

/** The script an element snippet loads: the embedder's script-url, else the page's own <script>
 *  of the elements, else the file beside the page. */
export function scriptOf(el: Element): string {
  const given = urlAttribute(el, 'script-url').url;
  if (given) return given;
  const tag = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).find((s) => /attention-playground[^/]*\.js([?#]|$)/.test(s.src));
  return tag?.src ?? new URL('./attention-playground.js', document.baseURI).href;
}

/** Why a link this long would not open, or '' when it would. */
export function tooLong(url: string): string {
  if (url.length <= LINK_LIMIT) return '';
  return `The link would be ${count(url.length)} characters long (your matrices are in it), and browsers and servers cut links past ${count(LINK_LIMIT)}, so it would not open.`;
}
