// Types of training.js: a training run in a Web Worker (or on the page where none can start).
import type { SpecError, TaskInfo, TrainingSettings, TrainingSnapshot } from './attention.js';

export type TrainingMessage = { start: TrainingSettings } | { play: boolean; until?: number; rate?: number } | { step: number } | { example: number };
export type TrainingReply =
  | { tasks: TaskInfo[] }
  | { started: Required<TrainingSettings> }
  | { snapshot: TrainingSnapshot; playing: boolean; stepsPerSecond?: number }
  | (SpecError & { playing: boolean });

export interface TrainingRun {
  send(message: TrainingMessage): void;
  stop(): void;
  readonly inWorker: boolean;
}

export function startTraining(receive: (reply: TrainingReply) => void): TrainingRun;
