// The settings of a training run, one row each, as state/settings.ts does for the playground:
// the controls, the URL hash and the attributes of <attention-trainer> come from this table.
// What a key means (its default, range, choices and help) is the core's trainer table
// (core-training-settings.json, written from the training module at build time by
// scripts/settings-table.mjs), which also checks every value the page sends; a row here adds
// only a label and a widget. `speed` is the page's own: it changes how the run is shown.
import type { TrainingSettings } from '../core/attention.js';
import { declared, type CoreSetting, type PageRow, type SettingDef, type State } from './settings.js';
import CORE from './core-training-settings.json';

export const CORE_TRAINING_SETTINGS = CORE as CoreSetting[];

/** The core's trainer row of `key`, completed by what the page adds. */
function row({ key, ...page }: PageRow & { key: string }): SettingDef {
  const core = CORE_TRAINING_SETTINGS.find((c) => c.key === key);
  if (!core) throw new Error(`${key} is not in the core's trainer table`);
  return declared(core, page);
}

export const TRAINING: SettingDef[] = [
  row({ key: 'task', label: 'Task', kind: 'select' }),
  row({ key: 'seed', label: 'Seed', kind: 'int' }),
  row({ key: 'learning_rate', label: 'Learning rate', kind: 'number', step: 0.001 }),
  row({ key: 'optimizer', label: 'Optimizer', kind: 'select' }),
  row({ key: 'heads', label: 'Heads', kind: 'int' }),
  row({ key: 'd_model', label: 'd_model', kind: 'int' }),
  row({ key: 'positional', label: 'Positions', kind: 'select' }),
  row({ key: 'length', label: 'Length', kind: 'int' }),
  { key: 'speed', label: 'Speed', kind: 'select', fallback: 'normal', options: ['slow', 'normal', 'fast'],
    help: 'Steps per second while playing: 10, 50, or as many as the machine manages.' },
];

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
