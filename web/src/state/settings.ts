// The one declarative table of the playground's settings. The controls, the URL hash and the
// element's attributes are all derived from it (as tensorflow/playground does), so a new
// setting is one row here. `spec` rows map to spec keys; the others only change what is shown.
import type { Spec } from '../core/attention.js';
import { readMatrix } from './matrix.js';

export type Kind = 'text' | 'int' | 'number' | 'select' | 'bool';

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
  modes?: Array<'self' | 'encoder_decoder'>;  // where the control applies
  help: string;
}

export const SETTINGS: SettingDef[] = [
  { key: 'mode', label: 'Mode', kind: 'select', fallback: 'self', options: ['self', 'encoder_decoder'], spec: true,
    help: 'Self-attention (every token attends over the sentence) or encoder-decoder (a decoder state attends over annotations).' },
  { key: 'sentence', label: 'Sentence', kind: 'text', fallback: 'the cat sat on the mat', spec: true,
    help: 'Split into words and punctuation; a repeated word shares one embedding.' },
  { key: 'seed', label: 'Seed', kind: 'int', fallback: 42, min: 0, max: 4294967295, spec: true,
    help: 'Seeds NumPy\'s legacy random stream: np.random.seed(seed) gives the same numbers.' },
  { key: 'd_model', label: 'd_model', kind: 'int', fallback: 4, min: 1, max: 1024, spec: true,
    help: 'Width of each embedding vector.' },
  { key: 'heads', label: 'Heads', kind: 'int', fallback: 1, min: 1, max: 64, spec: true, modes: ['self'],
    help: 'Number of attention heads; each uses its own block of columns of Q, K and V.' },
  { key: 'd_k', label: 'd_k', kind: 'int', fallback: '', min: 1, max: 1024, slider: { min: 1, max: 16, step: 1 }, spec: true, modes: ['self'],
    help: 'Query/key width per head; empty means d_model / heads.' },
  { key: 'embedding_init', label: 'Embeddings', kind: 'select', fallback: 'uniform', options: ['uniform', 'normal', 'int:3', 'int:10', 'per_word'], spec: true,
    help: 'uniform: np.random.rand; normal: np.random.randn; int:N: np.random.randint(N); per word: a vector from the seed and the word alone, the same in any sentence.' },
  { key: 'weight_init', label: 'Weights', kind: 'select', fallback: 'normal', options: ['normal', 'uniform', 'int:3', 'int:10'], spec: true,
    help: 'How W_q, W_k, W_v (and the rest) are drawn.' },
  { key: 'score', label: 'Score', kind: 'select', fallback: 'scaled_dot', options: ['scaled_dot', 'dot', 'general', 'additive'], spec: true,
    help: 'dot: q·k; scaled_dot: q·k/√d_k; general: q W_a kᵀ; additive: v_a·tanh(q W_1 + k W_2).' },
  { key: 'scale', label: 'Scale', kind: 'number', fallback: '', step: 0.01, slider: { min: 0.05, max: 2, step: 0.01 }, spec: true,
    help: 'Multiplies the scores; empty means 1/√d_k for scaled_dot and 1 otherwise.' },
  { key: 'temperature', label: 'Temperature', kind: 'number', fallback: 1, min: 0, step: 0.1, slider: { min: 0.1, max: 5, step: 0.05 }, spec: true,
    help: 'Divides the scores before the softmax: low is sharp, high is flat.' },
  { key: 'mask', label: 'Mask', kind: 'select', fallback: 'none', options: ['none', 'causal', 'window'], spec: true, modes: ['self'],
    help: 'causal: no token sees the future; window: only tokens within D positions.' },
  { key: 'window', label: 'Window D', kind: 'int', fallback: 1, min: 0, max: 9999, modes: ['self'],
    help: 'For the window mask: how far each side a token may look.' },
  { key: 'positional', label: 'Positional encoding', kind: 'select', fallback: 'none', options: ['none', 'sinusoidal'], spec: true, modes: ['self'],
    help: 'Adds sin/cos waves of the position to X, so order matters.' },
  { key: 'attention', label: 'Attention', kind: 'select', fallback: 'soft', options: ['soft', 'hard'], spec: true,
    help: 'soft: softmax weights; hard: all weight on the highest score.' },
  { key: 'residual', label: 'Residual + layer norm', kind: 'bool', fallback: false, spec: true, modes: ['self'],
    help: 'LayerNorm(X + attention(X)), the Transformer sublayer.' },
];

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
  const spec: Record<string, unknown> = {};
  const ed = state.mode === 'encoder_decoder';
  for (const def of SETTINGS) {
    if (!def.spec) continue;
    if (def.modes && !def.modes.includes(state.mode as 'self')) continue;
    const v = state[def.key];
    if (v === '' && def.fallback === '') continue;  // empty means "auto": the core's default
    if (def.key === 'mask') { spec.mask = v === 'window' ? `window:${state.window}` : v; continue; }
    if (def.key === 'residual') { spec.residual = v; spec.layer_norm = v; continue; }
    spec[def.key] = v;
  }
  if (ed) spec.score = state.score;
  Object.assign(spec, overrides);
  // An explicit X (or annotations) fixes d_model; drop the control's value so they never clash.
  if (overrides.X || overrides.annotations || overrides.decoder_state) delete spec.d_model;
  return spec as Spec;
}

/** The state as a URL hash: only what differs from the defaults. */
export function toHash(state: State, overrides: Partial<Spec> = {}, table: SettingDef[] = SETTINGS): string {
  const params = new URLSearchParams();
  for (const def of table) {
    if (state[def.key] !== def.fallback) params.set(def.key, String(state[def.key]));
  }
  for (const [k, v] of Object.entries(overrides)) params.set(k, JSON.stringify(v));
  return params.toString();
}

export const MATRIX_KEYS = ['X', 'W_q', 'W_k', 'W_v', 'W_o', 'annotations', 'decoder_state'] as const;

export interface Reading { state: State; overrides: Partial<Spec>; problems: string[] }

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
  for (const [key, text, name] of entries) {
    const def = table.find((s) => s.key === key);
    if (def) {
      const v = parseValue(def, text);
      if (v === undefined) problems.push(`${name}="${text.slice(0, 40)}" is not valid`);
      else state[key] = v;
    } else if (table.some((d) => d.spec) && (MATRIX_KEYS as readonly string[]).includes(key)) {
      const read = readMatrix(name, text, key === 'decoder_state');
      if ('value' in read) overrides[key] = read.value;
      else problems.push(read.problem);
    } else {
      problems.push(`"${name.slice(0, 40)}" is not a setting`);
    }
  }
  // An explicit X (or annotations) fixes d_model: the (locked) control shows its width.
  const inputs = overrides.X ?? overrides.annotations;
  if (Array.isArray(inputs) && Array.isArray(inputs[0])) state.d_model = inputs[0].length;
  return { state, overrides: overrides as Partial<Spec>, problems };
}

/** Reads a URL hash over `start` (the defaults of `table`). */
export function fromHash(hash: string, table: SettingDef[] = SETTINGS, start: Reading = startFrom(undefined, table)): Reading {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return { ...start, problems: ['the link could not be read'] };
  }
  return readEntries([...params].map(([k, v]): [string, string, string] => [k, v, k]), start, table);
}
