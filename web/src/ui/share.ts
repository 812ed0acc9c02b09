// Share and Embed for every element of the page: the link of the current state, an <iframe>
// snippet and an element snippet, copied when the page may use the clipboard.
import type { SettingDef, State } from '../state/settings.js';

/** d_model -> d-model: the attribute of a setting or matrix key. */
export const attributeOf = (key: string) => key.replace(/_/g, '-').toLowerCase();

/** Copies text; false where there is no clipboard (a sandboxed iframe, an insecure page). */
export async function copyText(text: string): Promise<boolean> {
  const policy = (document as any).permissionsPolicy ?? (document as any).featurePolicy;
  if (!navigator.clipboard || (policy && !policy.allowsFeature('clipboard-write'))) return false;
  try { await navigator.clipboard.writeText(text); return true; } catch { return false; }
}

export function iframeSnippet(url: string, title: string, height: number): string {
  return `<iframe src="${url.replace(/"/g, '&quot;')}" title="${title}" width="100%" height="${height}" style="border:0" loading="lazy"></iframe>`;
}

/** `<script type="module" src=...></script>` and the element with the settings that differ
 *  from the table's defaults as attributes (plus any `extra` ones, already written). */
export function elementSnippet(tag: string, script: string, table: SettingDef[], state: State, extra: string[] = []): string {
  const attrs = table.filter((d) => state[d.key] !== d.fallback)
    .map((d) => `${attributeOf(d.key)}="${String(state[d.key]).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`);
  return `<script type="module" src="${script}"></script>\n<${tag} ${[...attrs, ...extra].join(' ')}></${tag}>`;
}
