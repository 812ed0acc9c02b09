// Where one playground element's settings and view come from and go to: its attributes (a preset
// first), the page's hash on the full-window page, its own part of a Share link on someone
// else's page (state/scoped-hash.ts), and the link written back as the reader changes things.
// What a link or an attribute asks that cannot be is said in the element's note, never thrown.
import { KEY_OF_ATTRIBUTE, SETTINGS, fromHash, readEntries, startFrom, toHash, type Reading } from '../../state/settings.js';
import { PRESETS } from '../../state/presets.js';
import { unscopedHash } from '../../state/scoped-hash.js';
import { VIEW_ATTRIBUTES, VIEW_DEFAULTS, attributeView, splitView, viewHash, type ViewState } from '../../state/view-state.js';
import { extrasOf, isModelState } from '../../state/model-mode.js';
import type { AttentionPlayground } from './playground.js';

// Where an attribute's problem is said, as a link's are.
export const ATTRIBUTES_READ = 'Some settings were not understood and were left at their defaults';
export const VIEWED: string[] = Object.values(VIEW_ATTRIBUTES);

/** State from the element's attributes: a preset first, then each setting and matrix. */
export function readAttributes(el: AttentionPlayground) {
  const preset = PRESETS.find((x) => x.id === el.getAttribute('preset'));
  const reading = attributeReading(el);
  el.givenModel = reading.state.model;
  adopt(el, reading, ATTRIBUTES_READ, preset?.note);
  readAttributeView(el);
  // the trained model's preset opens on the head that copies, unless the element names one
  el.toInduction = Boolean(preset) && isModelState(el.state) && !VIEWED.some((name) => el.hasAttribute(name));
}

/** The token, head and layer the attributes say to follow. */
export function readAttributeView(el: AttentionPlayground) {
  const { view, problems } = attributeView((name) => el.getAttribute(name));
  adoptView(el, view, problems, ATTRIBUTES_READ);
}

export function attributeReading(el: AttentionPlayground): Reading {
  const preset = el.getAttribute('preset');
  const p = preset ? PRESETS.find((x) => x.id === preset) : undefined;
  const start = startFrom(p);
  if (preset && !p) start.problems.push(`preset "${preset.slice(0, 40)}" is not one of ${PRESETS.map((x) => x.id).join(', ')}`);
  const entries = Array.from(el.attributes).flatMap(({ name, value }): Array<[string, string, string]> => {
    const key = KEY_OF_ATTRIBUTE.get(name);
    return key ? [[key, value, name]] : [];
  });
  return readEntries(entries, start);
}

/** Puts a reading (attributes, hash, preset) on screen, with a note on what was not understood. */
export function adopt(el: AttentionPlayground, r: Reading, problem: string, note = '') {
  el.state = r.state;
  el.overrides = r.overrides;
  el.note = r.problems.length ? `${problem}: ${r.problems.join('; ')}.` : note;
  el.extras = isModelState(r.state) ? extrasOf(r.read) : [];
}

/** The element's name in a link to it: its id, or `playground-N` by its place among the
 *  page's playgrounds without an id, passing over any N that an element's id already takes. */
export function scope(el: AttentionPlayground): string {
  if (el.id) return el.id;
  const all = Array.from(document.querySelectorAll<HTMLElement>('attention-playground'));
  const taken = new Set(all.map((other) => other.id).filter(Boolean));
  let n = 0;
  for (const other of all.filter((x) => !x.id)) {
    do n++; while (taken.has(`playground-${n}`));
    if (other === el) break;
  }
  return `playground-${n}`;
}

/** On someone else's page, the settings a Share link gave this element (state/scoped-hash.ts),
 *  over those of its attributes: the link says what changed from the element the author wrote. */
export function readOwnHash(el: AttentionPlayground): boolean {
  const own = unscopedHash(scope(el), location.hash);
  if (!own || own === el.ownHash) return false;
  el.ownHash = own;
  const base = attributeView((name) => el.getAttribute(name)).view;
  const { rest, view, problems } = splitView(own, base);
  if (view.head !== base.head || view.layer !== base.layer) el.toInduction = false;  // the link's pick, not the preset's
  adopt(el, fromHash(rest, SETTINGS, attributeReading(el)), 'Some of the link was not understood and was left as the page has it');
  adoptView(el, view, problems, 'Some of the link was not understood and was left as the page has it');
  el.linked = true;
  return true;
}

export function readHash(el: AttentionPlayground) {
  const { rest, view, problems } = splitView(location.hash);
  adopt(el, fromHash(rest), 'Some of the link was not understood and was left at its default');
  adoptView(el, view, problems, 'Some of the link was not understood and was left at its default');
}

/** The hash of what is on screen: the settings that differ from `base` (the defaults, or the
 *  element's attributes under a scoped link), then the view. */
export function hashOf(el: AttentionPlayground, base?: Reading): string {
  const view = viewHash({ focus: el.focusToken, head: el.focusHead, relative: el.relative, step: el.stepAt, block: el.blockAt,
    layer: el.modelMode() ? el.layer : 1 });
  return [toHash(el.state, el.overrides, SETTINGS, base), view].filter(Boolean).join('&');
}

/** A link's view: the token and head followed, row-relative weights, a stepper's step. */
function adoptView(el: AttentionPlayground, view: ViewState, problems: string[], problem: string) {
  el.focusToken = view.focus;
  el.predictAt = view.focus || -1;  // what comes next after the token followed, if one is given
  el.focusHead = view.head;
  el.relative = view.relative;
  el.stepAt = view.step;
  el.blockAt = view.block;
  el.layer = Math.max(1, view.layer);
  el.viewRead = problem;
  addNote(el, problem, problems);
}

/** Adds `problems` to the note under `problem`, as one more sentence, or in the last one when
 *  that is under the same words (a link's settings, then its view, read in turn). */
function addNote(el: AttentionPlayground, problem: string, problems: string[]) {
  if (!problems.length) return;
  const last = el.note.lastIndexOf(`${problem}: `);
  const same = last >= 0 && el.note.endsWith('.') && !el.note.slice(last).includes('. ');
  el.note = same ? `${el.note.slice(0, -1)}; ${problems.join('; ')}.` : `${el.note ? `${el.note} ` : ''}${problem}: ${problems.join('; ')}.`;
}

/** The head and layer followed, held against the trace's (`layers` of `heads` each): one a link
 *  asked for that the trace does not have is not understood, as head=-1 is (said in a note, and
 *  left at its default); one left behind by fewer heads or layers goes back to it quietly. No
 *  label then names a head or layer that is not drawn. */
export function fitView(el: AttentionPlayground, layers: number, heads: number, tokens: number) {
  const problems: string[] = [];
  const range = (what: string, from: number, count: number) => (count === 1 ? `there is one ${what}, ${from}` : `the ${what}s are ${from} to ${from + count - 1}`);
  if (el.layer > layers) {
    problems.push(`layer="${el.layer}" is not valid: ${range('layer', 1, layers)}`);
    el.layer = VIEW_DEFAULTS.layer;
  }
  if (el.focusHead >= heads) {
    problems.push(`head="${el.focusHead}" is not valid: ${range('head', 0, heads)}`);
    el.focusHead = VIEW_DEFAULTS.head;
  }
  // A token past the text's end: a link's is noted; one left by a shorter text follows its last.
  if (el.focusToken >= tokens && tokens > 0) {
    if (el.viewRead) problems.push(`focus="${el.focusToken}" is not valid: ${range('token', 0, tokens)}`);
    el.focusToken = el.viewRead ? VIEW_DEFAULTS.focus : tokens - 1;
  }
  if (el.predictAt >= tokens) el.predictAt = -1;
  if (el.viewRead) addNote(el, el.viewRead, problems);
  el.viewRead = '';
}

/** The full-window page's link follows what is on screen. Written when typing pauses:
 *  replaceState costs milliseconds, and browsers throttle it. Not over a link opened
 *  meanwhile: its hashchange, still to come, reads it. */
export function writeHash(el: AttentionPlayground) {
  if (!el.useHash) return;
  clearTimeout(el.hashTimer);
  const seen = location.hash;
  el.hashTimer = setTimeout(() => {
    const hash = hashOf(el);
    if (location.hash === seen && location.hash.slice(1) !== hash) history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
  }, 150);
}
