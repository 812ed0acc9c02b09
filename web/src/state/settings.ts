// The one declarative table of the playground's settings. The controls, the URL hash and the
// element's attributes are all derived from it (as tensorflow/playground does), so a new spec
// setting is one row of the core's table. `spec` rows map to spec keys; the others (the window)
// only change what is shown.
// What a spec key means (its default, range, choices, the modes it applies to and its help) is
// the core's to say: those come from the core's own table (core-settings.json, written from the
// wasm at build time by scripts/settings-table.mjs). A row here adds only what the page needs
// to show it: a widget, a slider, the instances it offers of a choice such as int:N; a key the
// core labels and the page says nothing of is a control all the same, drawn from its kind.
import type { Spec } from '../core/attention.js';
import { readMatrix } from './matrix.js';
import CORE from './core-settings.json';

// Model mode (`model: "tiny-lm"`, state/model-mode.ts): the trained model's sizes and weights are
// learned, so its spec, its link and its snippet hold the model and the sentence alone; the
// settings of random weights stay in the state, for when the learner switches back.
const TRAINED = 'tiny-lm';
const OF_TRAINED = new Set(['model', 'sentence']);

export type Kind = 'text' | 'int' | 'number' | 'select' | 'bool';
export type Mode = 'self' | 'encoder_decoder' | 'cross';

export interface SettingDef {
  key: string;            // state key; also the hash key and, kebab-cased, the attribute
  label: string;
  kind: Kind;
  fallback: string | number | boolean;
  options?: string[];     // for select
  min?: number;
  max?: number;
  step?: number;
  slider?: { min: number; max: number; step: number };  // a slider beside the field, over this span
  spec?: boolean;         // part of the spec sent to the core
  modes?: Mode[];         // where the control applies
  needs?: { key: string; is: string[] };  // shown, and sent, only while another setting has one of these values
  empty?: string;         // what an empty field means ("auto" unless said)
  help: string;
}

/** A row of the core's table, as its settings() gives it. */
export interface CoreSetting {
  key: string; kind: string; default: string; help: string;
  choices?: string[]; min?: number; max?: number; modes?: string; label?: string;
}

export const CORE_SETTINGS = CORE as CoreSetting[];

/** What the page adds to a row of the core's table. */
export interface PageRow extends Partial<Pick<SettingDef, 'label' | 'kind' | 'step' | 'slider' | 'needs' | 'empty'>> {
  instances?: Record<string, string[]>;  // a choice the core parameterises (int:N) -> the page's options for it
  only?: Mode[];    // narrower than the core's modes, where the control would change nothing
  more?: string;    // said after the core's help
}

// The widget for a kind of the core's table: a row the page adds nothing to is drawn with it.
const WIDGET: Record<string, Kind> = { string: 'text', integer: 'int', number: 'number', share: 'number', boolean: 'bool', enum: 'select', init: 'select', mask: 'select' };

/** A row of the core's table, completed by what the page adds to it. */
export function declared(core: CoreSetting, row: PageRow = {}): SettingDef {
  const { instances, only, more, ...page } = row;
  const kind = page.kind ?? WIDGET[core.kind];
  if (!kind) throw new Error(`${core.key}: the page has no control for kind ${core.kind}`);
  return {
    key: core.key, label: core.label ?? core.key, kind, ...page, spec: true,
    fallback: core.default === '' ? '' : JSON.parse(core.default),
    options: core.choices?.flatMap((c) => instances?.[c] ?? [c]),
    min: core.min, max: core.max,
    modes: only ?? (core.modes?.split(',') as Mode[] | undefined),
    help: more ? `${core.help} ${more}` : core.help,
  };
}

const WINDOWED = ['window', 'causal_window'];

// What the page adds to the core's rows: sliders, the instances of a parameterised choice, a
// setting another one needs. Every row of the core's table with a label is a control, in the
// core's order; a row not named here is drawn from its kind alone.
const PAGE: Record<string, PageRow> = {
  sentence: { more: 'A repeated word shares one embedding.' },
  seed: { more: 'np.random.seed(seed) gives the same numbers.' },
  // Encoder-decoder attention has one head: the control would only be refused there.
  heads: { only: ['self', 'cross'] },
  d_k: { slider: { min: 1, max: 16, step: 1 } },
  embedding_init: { instances: { 'int:N': ['int:3', 'int:10'] } },
  weight_init: { instances: { 'int:N': ['int:3', 'int:10'] } },
  scale: { step: 0.01, slider: { min: 0.05, max: 2, step: 0.01 } },
  temperature: { step: 0.1, slider: { min: 0.1, max: 5, step: 0.05 }, more: 'Low is sharp, high is flat.' },
  softcap: { step: 1, empty: 'off' },
  // The window masks take their D from the `window` control below.
  mask: { instances: { 'window:D': ['window'], 'causal_window:D': ['causal_window'] } },
  rope_style: { needs: { key: 'positional', is: ['rope'] } },
  rope_base: { step: 1000, needs: { key: 'positional', is: ['rope'] } },
  residual: { label: 'Residual + layer norm', more: 'The page normalises with it: LayerNorm(X + attention(X)), the Transformer sublayer.' },
  online_block: { empty: 'off' },
};
for (const key of Object.keys(PAGE)) {
  if (!CORE_SETTINGS.some((c) => c.key === key && c.label)) throw new Error(`${key} is not a control of the core's settings table`);
}

// The page's own control: the D of the window masks, shown after the mask.
const WINDOW: SettingDef = { key: 'window', label: 'Window D', kind: 'int', fallback: 1, min: 0, max: 9999, modes: ['self'], needs: { key: 'mask', is: WINDOWED },
  help: 'For the window masks: how far a token may look (each side for window, back only for causal window).' };

export const SETTINGS: SettingDef[] = CORE_SETTINGS.filter((c) => c.label)
  .flatMap((c) => (c.key === 'mask' ? [declared(c, PAGE[c.key]), WINDOW] : [declared(c, PAGE[c.key])]));

/** Whether a setting applies to a state: its mode, and the setting it needs. */
export function applies(def: SettingDef, state: State): boolean {
  if (def.modes && !def.modes.includes(state.mode as Mode)) return false;
  return !def.needs || def.needs.is.includes(String(state[def.needs.key]));
}

export type State = Record<string, string | number | boolean>;

export function defaults(table: SettingDef[] = SETTINGS): State {
  return Object.fromEntries(table.map((s) => [s.key, s.fallback]));
}

/** Parses a value from text (hash, attribute, input); undefined when it is not valid. */
export function parseValue(def: SettingDef, text: string): string | number | boolean | undefined {
  switch (def.kind) {
    case 'text': return text;
    case 'bool': return text === '' || text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : undefined;
    case 'select': return def.options!.includes(text) ? text : undefined;
    case 'int': {
      if (text.trim() === '' && def.fallback === '') return '';
      if (!/^\d+$/.test(text.trim())) return undefined;
      const v = Number(text);
      return v >= (def.min ?? -Infinity) && v <= (def.max ?? Infinity) ? v : undefined;
    }
    case 'number': {
      if (text.trim() === '') return def.fallback === '' ? '' : undefined;
      const v = Number(text);
      return Number.isFinite(v) ? v : undefined;
    }
  }
}

/** The spec the core computes for a state, plus explicit matrices the learner typed. */
export function toSpec(state: State, overrides: Partial<Spec> = {}): Spec {
  if (state.model === TRAINED) return { model: TRAINED, sentence: String(state.sentence) } as Spec;
  const spec: Record<string, unknown> = {};
  const ed = state.mode === 'encoder_decoder';
  for (const def of SETTINGS) {
    if (!def.spec || !applies(def, state)) continue;
    const v = state[def.key];
    if (v === '' && def.fallback === '') continue;  // empty means "auto": the core's default
    if (def.key === 'model') continue;  // random weights: the core's default, left out as before the model came
    if (def.key === 'mask') { spec.mask = WINDOWED.includes(String(v)) ? `${v}:${state.window}` : v; continue; }
    if (def.key === 'residual') { spec.residual = v; spec.layer_norm = v; continue; }
    spec[def.key] = v;
  }
  if (ed) spec.score = state.score;
  Object.assign(spec, overrides);
  // An explicit X (or annotations) fixes d_model; drop the control's value so they never clash.
  if (givenWidth(overrides) !== undefined || overrides.decoder_state) delete spec.d_model;
  return spec as Spec;
}

/** The state as a URL hash: only what differs from `base` (the defaults, or the reading of an
 *  element's attributes that a scoped link is read over). */
export function toHash(state: State, overrides: Partial<Spec> = {}, table: SettingDef[] = SETTINGS, base?: Reading): string {
  const params = new URLSearchParams();
  const trained = state.model === TRAINED;  // the model and the sentence alone: nothing else applies to it
  for (const def of table) {
    if (trained && !OF_TRAINED.has(def.key)) continue;
    if (state[def.key] !== (base ? base.state[def.key] : def.fallback)) params.set(def.key, String(state[def.key]));
  }
  for (const [k, v] of trained ? [] : Object.entries(overrides)) {
    const text = JSON.stringify(v);
    if (!base || JSON.stringify((base.overrides as Record<string, unknown>)[k]) !== text) params.set(k, text);
  }
  return params.toString();
}

/** The width d_model must have when the embeddings are given (X, annotations or X_source: the
 *  core reads d_model from them), or undefined. */
export function givenWidth(overrides: Partial<Spec>): number | undefined {
  const inputs = overrides.X ?? overrides.annotations ?? overrides.X_source;
  return Array.isArray(inputs) && Array.isArray(inputs[0]) ? inputs[0].length : undefined;
}

/** The matrices a spec may give (a vector is one row): the core table's rows of those kinds. */
export const MATRIX_KEYS: readonly string[] = CORE_SETTINGS.filter((c) => c.kind === 'matrix' || c.kind === 'vector').map((c) => c.key);
const VECTOR_KEYS = new Set(CORE_SETTINGS.filter((c) => c.kind === 'vector').map((c) => c.key));
/** Whether a matrix key holds one row, given as a flat list (decoder_state, v_a). */
export const isVector = (key: string) => VECTOR_KEYS.has(key);

/** d_model -> d-model: the attribute of a setting or matrix key. */
export const attributeOf = (key: string) => key.replace(/_/g, '-').toLowerCase();
// Attributes mirror the settings table (d_model -> d-model) and the editable matrices (W_q -> w-q).
export const KEY_OF_ATTRIBUTE = new Map([...SETTINGS.map((d) => d.key), ...MATRIX_KEYS].map((k) => [attributeOf(k), k]));

/** A reading of settings: `read` names the keys its own entries set (not those it started from). */
export interface Reading { state: State; overrides: Partial<Spec>; problems: string[]; read?: string[] }

/** Where a reading starts: the defaults, or a preset's settings and matrices. */
export function startFrom(preset?: { state: Partial<State>; overrides: Partial<Spec> }, table: SettingDef[] = SETTINGS): Reading {
  return { state: { ...defaults(table), ...(preset?.state ?? {}) } as State, overrides: { ...(preset?.overrides ?? {}) }, problems: [] };
}

/** Applies [key, text, name] entries (the URL hash, the element's attributes) over `start`;
 *  a bad entry is skipped and reported under its `name`, never thrown. */
export function readEntries(entries: Iterable<[string, string, string]>, start: Reading = startFrom(), table: SettingDef[] = SETTINGS): Reading {
  const state = { ...start.state };
  const overrides: Record<string, unknown> = { ...start.overrides };
  const problems = [...start.problems];
  const read: string[] = [];
  for (const [key, text, name] of windowsSpelled(entries, table)) {
    const def = table.find((s) => s.key === key);
    if (def) {
      const v = parseValue(def, text);
      if (v === undefined) problems.push(`${name}="${text.slice(0, 40)}" is not valid`);
      else { state[key] = v; read.push(key); }
    } else if (table.some((d) => d.spec) && MATRIX_KEYS.includes(key)) {
      const matrix = readMatrix(name, text, isVector(key));
      if ('value' in matrix) { overrides[key] = matrix.value; read.push(key); }
      else problems.push(matrix.problem);
    } else {
      problems.push(`"${name.slice(0, 40)}" is not a setting`);
    }
  }
  // An explicit X (or annotations) fixes d_model: the (locked) control shows its width.
  const width = givenWidth(overrides);
  if (width !== undefined) state.d_model = width;
  return { state, overrides: overrides as Partial<Spec>, problems, read };
}

/** `mask=causal_window:3`, as a spec writes it, read as the mask control and the window D. */
function* windowsSpelled(entries: Iterable<[string, string, string]>, table: SettingDef[]): Iterable<[string, string, string]> {
  const splits = table.some((d) => d.key === 'window');
  for (const [key, text, name] of entries) {
    const spelled = splits && key === 'mask' ? /^((?:causal_)?window):(\d+)$/.exec(text) : null;
    if (spelled) {
      yield [key, spelled[1], name];
      yield ['window', spelled[2], name];
    } else {
      yield [key, text, name];
    }
  }
}

/** Reads a URL hash over `start` (the defaults of `table`). */
export function fromHash(hash: string, table: SettingDef[] = SETTINGS, start: Reading = startFrom(undefined, table)): Reading {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return { ...start, problems: ['the link could not be read'] };
  }
  const read = readEntries([...params].map(([k, v]): [string, string, string] => [k, v, k]), start, table);
  return { ...read, problems: [...read.problems, ...givenTwice(params)] };
}

/** What a link gives more than once: named, with the value read (the last, as for any reading of
 *  entries in order), so that a link is never read one way by one reader and another way by
 *  another without a word. */
export function givenTwice(params: URLSearchParams): string[] {
  const keys = [...params.keys()];
  return [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))].map((k) => {
    const all = params.getAll(k);
    return `"${k.slice(0, 40)}" is given ${all.length} times: the last (${JSON.stringify(all[all.length - 1].slice(0, 40))}) was read`;
  });
}
