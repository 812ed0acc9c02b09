// The settings of a training run, one row each, as state/settings.ts does for the playground:
// the controls, the URL hash and the attributes of <attention-trainer> come from this table.
// What a key means (its default, range, choices and help) is the core's trainer table
// (core-training-settings.json, written from the training module at build time by
// scripts/settings-table.mjs), which also checks every value the page sends; a row here adds
// only a label and a widget. `speed` is the page's own: it changes how the run is shown.
//
// The "Language model" task runs through the training module's own functions (lmStart, lmStep),
// whose settings table (core-lm-settings.json, written beside the trainer's) gives the lm_* rows,
// shown only for that task.
import type { LmSettings, TrainingSettings } from '../core/attention.js';
import { declared, type CoreSetting, type PageRow, type SettingDef, type State } from './settings.js';
import CORE from './core-training-settings.json';
import CORE_LM from './core-lm-settings.json';

export const CORE_TRAINING_SETTINGS = CORE as CoreSetting[];

/** The core's trainer row of `key`, completed by what the page adds. */
function row({ key, ...page }: PageRow & { key: string }): SettingDef {
  const core = CORE_TRAINING_SETTINGS.find((c) => c.key === key);
  if (!core) throw new Error(`${key} is not in the core's trainer table`);
  return declared(core, page);
}

/** The task of the language model: the trained model's architecture learning from the fortunes. */
export const LANGUAGE_MODEL = 'language_model';

const task = row({ key: 'task', label: 'Task', kind: 'select' });
task.options = [...task.options!, LANGUAGE_MODEL];
task.help = `${task.help} Or language_model: the trained model's architecture (2 layers of 4 heads) learning from text.`;

/** The language model's settings: the core's table of what lmStart takes (its defaults and
 *  ranges), as lm_* rows beside the synthetic tasks' (eval_windows is the page's to choose). */
export const CORE_LM_SETTINGS = CORE_LM as CoreSetting[];
function lmRow(key: string, page: PageRow): SettingDef {
  const core = CORE_LM_SETTINGS.find((c) => c.key === key);
  if (!core) throw new Error(`${key} is not in the core's language-model table`);
  return { ...declared(core, page), key: `lm_${key}`, spec: false };  // not a key of the synthetic tasks' trainer
}
export const LM_ROWS: SettingDef[] = [
  lmRow('seed', { label: 'Seed' }),
  lmRow('learning_rate', { label: 'Learning rate', step: 0.001 }),
  lmRow('batch_size', { label: 'Batch size' }),
  lmRow('repeat_share', { label: 'Repeat share', step: 0.05 }),
  lmRow('text_repeats', { label: 'Text repeats', step: 0.05 }),
  lmRow('sentence_share', { label: 'Sentences said twice', step: 0.05 }),
  lmRow('sentences_from', { label: 'Sentences from step', step: 100 }),
  lmRow('steps', { label: 'Run length (steps)', step: 100 }),
  lmRow('decay_steps', { label: 'Rate decay steps', step: 100 }),
  lmRow('short_steps', { label: 'Short-window steps', step: 100 }),
];

/** The row of the setting the language model's `field` (lmStart's error) names. */
export const LM_FIELD: Record<string, string> = { ...Object.fromEntries(LM_ROWS.map((d) => [d.key.slice(3), d.key])), corpus: 'task' };

export const TRAINING: SettingDef[] = [
  task,
  row({ key: 'seed', label: 'Seed', kind: 'int' }),
  row({ key: 'learning_rate', label: 'Learning rate', kind: 'number', step: 0.001 }),
  row({ key: 'optimizer', label: 'Optimizer', kind: 'select' }),
  row({ key: 'heads', label: 'Heads', kind: 'int' }),
  row({ key: 'd_model', label: 'd_model', kind: 'int' }),
  row({ key: 'positional', label: 'Positions', kind: 'select' }),
  row({ key: 'length', label: 'Length', kind: 'int' }),
  { key: 'speed', label: 'Speed', kind: 'select', fallback: 'normal', options: ['slow', 'normal', 'fast'],
    help: 'Steps per second while playing: 10, 50, or as many as the machine manages.' },
  ...LM_ROWS,
];

/** Whether the state is the language model's task. */
export const isLanguage = (state: State): boolean => state.task === LANGUAGE_MODEL;

/** The rows shown for the task on screen: the language model's, or the synthetic tasks'. */
export function shownRows(state: State): SettingDef[] {
  return isLanguage(state) ? [task, ...LM_ROWS] : TRAINING.filter((d) => !LM_ROWS.includes(d));
}

/** The settings lmStart is given (every one: the page's defaults are lmStart's). */
export function toLanguage(state: State): LmSettings {
  return Object.fromEntries(LM_ROWS.map((d) => [d.key.slice(3), Number(state[d.key])])) as LmSettings;
}

/** Why a value the table's parser took is still out of the row's range (the number rows'
 *  parser takes any number), or ''. */
export function outOfRange(def: SettingDef, value: unknown): string {
  if (typeof value !== 'number' || (def.min === undefined && def.max === undefined)) return '';
  if (value >= (def.min ?? -Infinity) && value <= (def.max ?? Infinity)) return '';
  return `${def.label} must be from ${def.min} to ${def.max}.`;
}

/** Steps per second of each speed (0: as fast as it goes). */
export const STEPS_PER_SECOND: Record<string, number> = { slow: 10, normal: 50, fast: 0 };

/** The settings the core is asked to train with: empty means the core's default. */
export function toTraining(state: State): TrainingSettings {
  const out: Record<string, unknown> = {};
  for (const def of TRAINING) {
    if (def.spec && state[def.key] !== '') out[def.key] = state[def.key];
  }
  return out as TrainingSettings;
}
