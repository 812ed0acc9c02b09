// The settings of a training run, one row each, as state/settings.ts does for the playground:
// the controls, the URL hash and the attributes of <attention-trainer> come from this table.
// The core checks them again (trainer.cpp's table) and names any value it refuses; `spec`
// rows go to the core, the others only change how the run is shown.
import type { TrainingSettings } from '../core/attention.js';
import type { SettingDef, State } from './settings.js';

export const TRAINING: SettingDef[] = [
  { key: 'task', label: 'Task', kind: 'select', fallback: 'copy', options: ['copy', 'earlier', 'sort', 'reverse'], spec: true,
    help: 'What the model learns.' },
  { key: 'seed', label: 'Seed', kind: 'int', fallback: 42, min: 0, max: 4294967295, spec: true,
    help: 'Seeds the initial weights, the examples and the batches: the same seed gives the same run.' },
  { key: 'learning_rate', label: 'Learning rate', kind: 'number', fallback: '', step: 0.001, spec: true,
    help: 'Step size; empty means 0.003 for Adam and 0.1 for SGD.' },
  { key: 'optimizer', label: 'Optimizer', kind: 'select', fallback: 'adam', options: ['adam', 'sgd'], spec: true,
    help: 'Adam adapts the step of each weight; SGD takes the plain gradient step.' },
  { key: 'heads', label: 'Heads', kind: 'int', fallback: 2, min: 1, max: 4, spec: true,
    help: 'Attention heads (1 to 4); they must divide d_model.' },
  { key: 'd_model', label: 'd_model', kind: 'int', fallback: 16, min: 1, max: 64, spec: true,
    help: 'Width of the embeddings and of the attention layer.' },
  { key: 'positional', label: 'Positions', kind: 'select', fallback: 'learned', options: ['learned', 'sinusoidal', 'none'], spec: true,
    help: 'How the model knows where a token is: a learned vector per position, sin/cos waves, or not at all.' },
  { key: 'length', label: 'Length', kind: 'int', fallback: '', min: 1, max: 64, spec: true,
    help: 'Items per example; empty means the task\'s default.' },
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
