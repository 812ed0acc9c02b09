// Types of dist/attention-playground.js: importing it defines <attention-playground>,
// <attention-trainer> and <attention-compare>.
// The contract by the package's own name: '../core/attention.js' would resolve to the core's
// source (attention.ts) and type-check it in the embedder's project.
import type { SelfTrace, Spec, Trace, TrainingSnapshot } from 'attention-playground';

/** The detail of the `trace` event: sent after every computation, on the element (it does not bubble). */
export interface TraceEventDetail {
  /** The spec that was asked for. */
  spec: Spec;
  /** Its trace, or null when the spec was refused (the last good trace stays on screen). */
  trace: Trace | null;
  /** Why the spec was refused, naming the field at fault; null when it was not. */
  error: { field: string; message: string } | null;
}

export interface AttentionPlaygroundElement extends HTMLElement {
  /** The spec on screen now (what the core's run() is given). Setting it replaces the settings
   *  and matrices on screen and recomputes; a value the settings refuse is named in a note and
   *  left at its default. Keys the page has no control for are refused the same way. */
  spec: Spec;
  /** The trace on screen (every intermediate matrix: X, Q, K, V, scores, weights, heads, output
   *  ...), null until the first one is computed. With `model="tiny-lm"` it is the trained model's
   *  trace (ModelTrace: every layer's attention, the next-token log-probabilities, the heads'
   *  scores). Read it, do not change it. */
  readonly trace: Trace | null;
  /** light, dark, or auto (follows prefers-color-scheme). */
  theme: 'auto' | 'light' | 'dark';
  /** One step id ("embed" … "concat"), trace key ("weights", "Q" …), "arcs" or "flow" to show
   *  alone (with the trained model also "heads" (or "overview"), every head at a glance, and
   *  "next", the likeliest next characters); any other value shows every step, with a note. */
  view: string;
  /** "all", "none", or a comma list of setting keys ("sentence,seed"). */
  controls: string;
  compact: boolean;
  /** Attribute `toolbar`: Share, Embed and Copy as NumPy on an embedded element. */
  toolbar: boolean;
  /** Attribute `presets`: the worked examples on an embedded element. */
  presets: boolean;
  /** Attribute `focus-token`: the token the flow view follows, by position from 0 (with the
   *  trained model, "What comes next" is for it). */
  focusToken: number;
  /** Attribute `head`: the head followed, from 0. */
  focusHead: number;
  /** Attribute `layer`: the trained model's layer shown, from 1. */
  layer: number;
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
  interface HTMLElementEventMap { trace: CustomEvent<TraceEventDetail> }
}

export declare const AttentionPlayground: { new (): AttentionPlaygroundElement; prototype: AttentionPlaygroundElement };
export declare const AttentionTrainer: { new (): AttentionTrainerElement; prototype: AttentionTrainerElement };
export declare const AttentionCompare: { new (): AttentionCompareElement; prototype: AttentionCompareElement };
