// Types of dist/attention-playground.js: importing it defines <attention-playground>,
// <attention-trainer> and <attention-compare>.
import type { SelfTrace, Spec, TrainingSnapshot } from '../core/attention.js';

export interface AttentionPlaygroundElement extends HTMLElement {
  /** The spec on screen now (what the core's run() is given). */
  readonly spec: Spec;
  /** light, dark, or auto (follows prefers-color-scheme). */
  theme: 'auto' | 'light' | 'dark';
  /** One step id ("embed" … "concat"), trace key ("weights", "Q" …) or "arcs" to show alone;
   *  any other value shows every step, with a note. */
  view: string;
  /** "all", "none", or a comma list of setting keys ("sentence,seed"). */
  controls: string;
  compact: boolean;
}

/** Watch attention learn: its attributes are the training settings (task, seed, learning-rate ...). */
export interface AttentionTrainerElement extends HTMLElement {
  theme: 'auto' | 'light' | 'dark';
  /** The latest snapshot of the run: metrics, history, and the weights of the example shown. */
  readonly snapshot: TrainingSnapshot | null;
  readonly playing: boolean;
}

/** One sentence under two settings: `compare` (scaling, mask, attention, heads) plus the playground's settings. */
export interface AttentionCompareElement extends HTMLElement {
  theme: 'auto' | 'light' | 'dark';
  /** The left and right traces on screen. */
  readonly traces: [SelfTrace, SelfTrace] | null;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-playground': AttentionPlaygroundElement;
    'attention-trainer': AttentionTrainerElement;
    'attention-compare': AttentionCompareElement;
  }
  interface HTMLElementEventMap { trace: CustomEvent<{ spec: Spec; trace: unknown; error: { field: string; message: string } | null }> }
}

export declare const AttentionPlayground: { new (): AttentionPlaygroundElement; prototype: AttentionPlaygroundElement };
export declare const AttentionTrainer: { new (): AttentionTrainerElement; prototype: AttentionTrainerElement };
export declare const AttentionCompare: { new (): AttentionCompareElement; prototype: AttentionCompareElement };
