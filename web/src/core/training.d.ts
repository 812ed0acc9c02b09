// Types of training.js: a training run in a Web Worker (or on the page where none can start).
import type { SpecError, TaskInfo, TrainingSettings, TrainingSnapshot } from './attention.js';

export type TrainingMessage = { start: TrainingSettings } | { play: boolean; until?: number; budget?: number; rate?: number; settle?: boolean }
  | { rate: number } | { step: number } | { example: number };
/** Why a play run paused by itself (training-loop.js): at step `step`, a rule met since `since`. */
export interface TrainingStop { reason: 'solved' | 'flat' | 'diverged' | 'budget'; step: number; since?: number }
export type TrainingReply =
  | { tasks: TaskInfo[] }
  | { started: Required<TrainingSettings> }
  | { snapshot: TrainingSnapshot; playing: boolean; stepsPerSecond?: number; stopped?: TrainingStop }
  | (SpecError & { playing: boolean });

export interface TrainingRun {
  send(message: TrainingMessage): void;
  stop(): void;
  readonly inWorker: boolean;
}

export function startTraining(receive: (reply: TrainingReply) => void): TrainingRun;
