// What the reader is looking at, besides the settings: the token followed, the head, whether
// weights are coloured row by row, the steppers' steps and the trained model's layer. A Share
// link carries it, so the link opens on the same view; it lives in the hash after the settings,
// and only where it differs from the defaults.
import { givenTwice } from './settings.js';

export interface ViewState {
  focus: number;            // the token followed, from 0
  head: number;             // the head followed, from 0
  relative: boolean | null; // weights coloured row by row; null: as the weights call for
  step: number;             // the decode stepper's position, from 0
  block: number;            // the online stepper's key block, from 0
  layer: number;            // the trained model's layer shown, from 1 as the page names layers
}

export const VIEW_DEFAULTS: ViewState = { focus: 0, head: 0, relative: null, step: 0, block: 0, layer: 1 };
const WHOLES = ['focus', 'head', 'step', 'block', 'layer'] as const;
const VIEW_KEYS = [...WHOLES, 'relative'] as const;
const WHOLE = /^\d{1,6}$/;

/** The element's attributes that set the view (the token, the head and the layer followed), by
 *  the view's key: an embed opens on them, and Embed writes them. */
export const VIEW_ATTRIBUTES = { focus: 'focus-token', head: 'head', layer: 'layer' } as const;

/** The view an element's attributes give (`get` reads one), over the defaults, and what was not
 *  understood, as a link's are read. */
export function attributeView(get: (name: string) => string | null): { view: ViewState; problems: string[] } {
  const view = { ...VIEW_DEFAULTS }, problems: string[] = [];
  for (const [key, name] of Object.entries(VIEW_ATTRIBUTES) as Array<[keyof typeof VIEW_ATTRIBUTES, string]>) {
    const text = get(name);
    if (text === null) continue;
    if (WHOLE.test(text.trim())) view[key] = Number(text);
    else problems.push(`${name}="${text.slice(0, 40)}" is not valid`);
  }
  return { view, problems };
}

/** The view's keys taken out of a hash: the rest (the settings), the view (what the hash does
 *  not say is `base`'s), and what was not understood (named, as the settings' problems are). */
export function splitView(hash: string, base: ViewState = VIEW_DEFAULTS): { rest: string; view: ViewState; problems: string[] } {
  const view = { ...base }, problems: string[] = [];
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return { rest: hash, view, problems };
  }
  problems.push(...givenTwice(new URLSearchParams([...params].filter(([k]) => (VIEW_KEYS as readonly string[]).includes(k)))));
  for (const key of WHOLES) {
    const text = params.getAll(key).at(-1);  // (the last, as the settings read theirs)
    if (text === undefined) continue;
    if (WHOLE.test(text)) view[key] = Number(text);
    else problems.push(`${key}="${text.slice(0, 40)}" is not valid`);
    params.delete(key);
  }
  const relative = params.getAll('relative').at(-1);
  if (relative !== undefined) {
    if (relative === '1' || relative === '0') view.relative = relative === '1';
    else problems.push(`relative="${relative.slice(0, 40)}" is not valid`);
    params.delete('relative');
  }
  return { rest: params.toString(), view, problems };
}

/** The view as hash parameters (no '#'), only what differs from the defaults. */
export function viewHash(view: ViewState): string {
  const params = new URLSearchParams();
  for (const key of WHOLES) if (view[key] !== VIEW_DEFAULTS[key]) params.set(key, String(view[key]));
  if (view.relative !== null) params.set('relative', view.relative ? '1' : '0');
  return params.toString();
}
