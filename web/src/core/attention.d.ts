// Types of dist/attention.js: the spec and trace contract the README describes.

export type Matrix = number[][];
export type Init = 'uniform' | 'normal' | `int:${number}`;

// The spec and the traces are typed from the core's own tables at build time (tables.d.ts).
import type { CellDerivation, EncoderDecoderTrace, HeadScores, MatrixKey, ModelTrace, SelfTrace, Spec } from './tables.js';
export type { EncoderDecoderTrace, HeadScores, MatrixKey, ModelTrace, SelfTrace, Spec };

/** A bad spec: `field` names the key at fault ("" for the whole input). */
export interface SpecError { error: { field: string; message: string } }

/** Keys the trace's spec holds only when they apply (rope's, cross's, the optional ones). */
type OnlyWhenSet = 'rope_style' | 'rope_base' | 'softcap' | 'decode' | 'online_block' | 'source' | 'source_tokens' | 'X_source';

/** The spec a self or encoder-decoder trace echoes: every default filled in (`model` is not
 *  echoed: such a trace is of random weights; the trained model's trace has its own spec). */
export type TraceSpec = Required<Omit<Spec, 'model' | 'sentence' | 'scale' | MatrixKey | 'd_a' | OnlyWhenSet>>
  & Pick<Spec, OnlyWhenSet> & { scale?: number; d_a?: number };

/** One position generated with the KV cache. */
export interface DecodeStep { t: number; k_cache: Matrix; v_cache: Matrix; scores: Matrix; weights: Matrix; output: number[] }
/** Multiply-adds of decoding, with and without the cache: in all, and after each step. */
export interface DecodeCost { with_cache: number; without_cache: number; with_so_far: number[]; without_so_far: number[] }
/** A layer's weights and decoder cache per token with this many key/value heads. */
export interface KvCost { kv_heads: number; parameters: number; cache_per_token: number }
/** One block of keys of the online softmax: m is null where a row has seen no visible key yet;
 *  out is o / l, the output if the keys stopped here (0 on such a row). */
export interface OnlineBlock { keys: [number, number]; m: (number | null)[]; l: number[]; rescale: number[]; o: Matrix; out: Matrix }

/** How the trained model was made and what its heads do (the weights file's header). */
export interface ModelCard {
  /** Only on a model trained in /learn/'s tab ("trained in this tab, step 300"); the shipped model has none. */
  name?: string;
  architecture: string;
  /** The texts' lengths; in tokens too on the shipped card (a tab's run counts characters only). */
  corpus: { package: string; version: string; files: string[]; fortunes: number; train_characters: number; held_out_characters: number;
    train_tokens?: number; held_out_tokens?: number };
  training: { seed: number; steps: number; batch: number; learning_rate: number; repeat_share: number; seconds: number };
  /** Nats per character on the held-out fortunes, and the same for token frequencies alone. */
  held_out_loss: number;
  unigram_loss: number;
  probe: string;
  head_scores: (HeadScores & { layer: number; head: number })[];
}

/** A layer of the trained model: its attention as a self-attention trace, X the residual stream
 *  into it, and the spec of that attention (causal, the model's sizes; its matrices aside). */
export type ModelLayer = Omit<SelfTrace, 'warnings'>;

/** The spec a trained model's trace echoes: the model and the word pieces it read. */
export interface ModelTraceSpec { model: 'tiny-lm'; tokens: string[] }

export type Trace = SelfTrace | EncoderDecoderTrace | ModelTrace;

/** The drawn parameters of a spec, named as in its trace, with no attention run. */
export interface Parameters {
  tokens: string[];
  X?: Matrix;                                  // self and cross
  source_tokens?: string[]; X_source?: Matrix; // cross
  annotations?: Matrix; decoder_state?: number[]; W_c?: Matrix;  // encoder_decoder
  W_q?: Matrix; W_k?: Matrix; W_v?: Matrix; W_o?: Matrix;
  W_a?: Matrix; W_1?: Matrix; W_2?: Matrix; v_a?: number[];
}

/** A cell to derive; with the trained model's spec, `layer` picks the layer (from 0). */
export interface DeriveRequest { spec: Spec | ModelTrace['spec']; layer?: number; matrix: 'scores' | 'weights' | 'output'; head?: number; row: number; col: number }
/** How one cell came to be: derive()'s records, typed from the core's schema (tables.d.ts). */
export type Derivation = CellDerivation;

/** A row of the core's settings table: `default` is JSON text ('' when the core works it out). */
export interface Setting { key: string; kind: string; default: string; help: string; choices?: string[]; min?: number; max?: number; modes?: string; label?: string }

/** A row of the trace's schema (the core's; core-types.mjs writes it into the page as trace-schema.json). */
export interface TraceEntry { name: string; shape: string; when: string; kind: string; step: string; label: string; rows: string; group: string; role: string }

/** A record of what derive() writes (core-types.mjs types it): a field's type is TypeScript's but "integer". */
export interface DerivedRecord {
  name: string; about: string; extends: string[]; alias: string;
  fields: DerivedField[]; one_of: DerivedField[][];
}
export interface DerivedField { key: string; type: string; optional: boolean }

/** A trace with its numbers in one buffer: each matrix in `skeleton` is {"@": offset, shape}. */
export interface PackedTrace { skeleton: Record<string, unknown>; numbers: Float64Array }

export interface EntropyCurve { d_k: number[]; dot: number[]; scaled_dot: number[]; uniform: number }

export interface TaskInfo {
  name: 'copy' | 'earlier' | 'sort' | 'reverse';
  title: string;
  explanation: string;
  length: { default: number; min: number; max: number };
  needs_positions: boolean;
}

export interface TrainingSettings {
  task?: TaskInfo['name'];
  seed?: number;
  length?: number;
  d_model?: number;
  heads?: number;
  positional?: 'none' | 'sinusoidal' | 'learned';
  residual?: boolean;
  optimizer?: 'adam' | 'sgd';
  learning_rate?: number;
  batch_size?: number;
  eval_size?: number;
}

export interface TrainingMetrics { step: number; loss: number; batch_accuracy: number; eval_loss: number; accuracy: number }

export interface TrainingSnapshot {
  task: string; step: number; example: number; heads: number;
  tokens: string[]; targets: Array<string | null>; predictions: Array<string | null>; confidence: Array<number | null>;
  weights: Matrix[];  // heads x n x n
  metrics: TrainingMetrics;
  history: { stride: number; step: number[]; loss: number[]; accuracy: number[] };
}

export interface AttentionCore {
  /** The trace of a spec, or the error naming the field at fault. */
  run(spec: Spec | string): Trace | SpecError;
  /** The same trace packed: ten times cheaper than run() for large traces; unpack() it. */
  runPacked(spec: Spec | string): PackedTrace;
  /** The trace as run() gives it, as cheap as runPacked(): the rows of a large matrix (and of
   *  every matrix of the trained model's layers) are built when first read, and a picture or a
   *  range reads its numbers where they lie. */
  trace(spec: Spec | string): Trace | SpecError;
  /** NumPy's np.random.seed(seed) then rand / randn / randint(N) of shape (rows, cols). */
  random(request: { seed?: number; dist?: Init; rows?: number; cols?: number }): Matrix | SpecError;
  /** How many numbers run(spec) would compute, counted by the core without computing them
   *  (the page sends large traces to a worker by it), or the error naming the field at fault. */
  work(spec: Spec | string): { cells: number; tokens: number } | SpecError;
  /** A NumPy-only Python program that rebuilds the trace. */
  numpy(spec: Spec | string): string | SpecError;
  /** How one cell of scores, weights or output came to be, with the real numbers. */
  derive(request: DeriveRequest): Derivation | SpecError;
  /** The spec's drawn parameters (tokens, X or annotations, the weights) without running
   *  attention: cheap at any length; bounded by what drawing takes, not by the trace's size. */
  parameters(spec: Spec | string): Parameters | SpecError;
  /** The spec's keys, kinds, defaults and help. */
  settings(): Setting[];
  schema(): { self: TraceEntry[]; encoder_decoder: TraceEntry[]; model: TraceEntry[]; head_patterns: string[]; derivation: DerivedRecord[] };
  /** Mean entropy of attention rows against d_k, unscaled and scaled (random unit-variance q, k). */
  entropy(request: { spec: Spec; widths: number[] }): EntropyCurve | SpecError;
  /** For leak checks: allocator bytes in use and live embind handles. */
  stats(): { heap_in_use: number; heap_size: number; memory_bytes: number; handles: number };
  /** Fetches the trained model's weights (once) so that specs with `model: "tiny-lm"` run;
   *  resolves to its model card, or the error naming `model`. Until it resolves such specs are
   *  refused with that error. Nothing is fetched unless this is called. Given `bytes` (a
   *  weights file, as Training.lmModel() gives one), it installs those instead of fetching the
   *  shipped model's, and later calls without bytes resolve to them; refused bytes leave the
   *  model that was installed. */
  loadModel(bytes?: Uint8Array): Promise<{ card: ModelCard } | SpecError>;
  /** The weights file installed last (fetched or given), or null before any: what a worker
   *  installs to run the same model. */
  installedModel(): Uint8Array | null;
  /** The compiled wasm module (for starting a worker without fetching it again). */
  module: WebAssembly.Module;
}

/** A packed trace as the plain one run() returns. */
export function unpack(packed: PackedTrace): Trace | SpecError;

/** The settings of a language-model run (the trained model's architecture learning from a text). */
export interface LmSettings { seed?: number; learning_rate?: number; batch_size?: number; repeat_share?: number; text_repeats?: number; sentence_share?: number; sentences_from?: number; steps?: number; decay_steps?: number; short_steps?: number; eval_windows?: number }

/** After some language-model steps: the mean loss of their batches and the held-out loss (nats per
 *  character); in_context, how much less a held-out span costs read right after itself than after
 *  another span (nats per character, Olsson et al.'s in-context learning); and every head's
 *  previous-token and induction score ([layer][head]) on a probe of 50 random word pieces repeated
 *  twice (1 is a perfect head). */
export interface LmMetrics { step: number; loss: number; eval_loss: number; in_context: number; previous_token: number[][]; induction: number[][] }

/** The training module: one tiny attention model trained by gradient descent (one run at a time). */
export interface Training {
  /** The tasks, the trainer's settings table, and the language model's (lmStart's keys). */
  tasks(): { tasks: TaskInfo[]; settings: Setting[]; language_model_settings: Setting[] };
  /** A new run from step 0 (the previous one ends), or the error naming the setting at fault. */
  start(settings: TrainingSettings | string): { settings: Required<TrainingSettings> } | SpecError;
  /** `count` optimisation steps (1 to 1000) on fresh batches. */
  step(count: number): TrainingMetrics | SpecError;
  /** Held-out example `example`: tokens, targets, answers, every head's weights, the curves. */
  snapshot(example: number): TrainingSnapshot | SpecError;
  stats(): { heap_in_use: number; heap_size: number; memory_bytes: number; handles: number };
  /** A language-model run from step 0 (the trained model's shape: 2 layers of 4 heads, d_model 64,
   *  context 128, characters) on `train`, its held-out loss measured on `heldOut`; or the error
   *  naming the setting at fault. */
  lmStart(settings: LmSettings | string, train: string, heldOut: string): { settings: Required<LmSettings>; unigram_loss: number } | SpecError;
  /** `count` language-model steps (1 to 1000). */
  lmStep(count: number): LmMetrics | SpecError;
  /** The language model's weights so far as a weights file (a copy), what AttentionCore.loadModel(bytes)
   *  installs; null before lmStart. */
  lmModel(): Uint8Array<ArrayBuffer> | null;
}

/** Loads the training module (a wasm module of its own) once; later calls share it. */
export function loadTraining(): Promise<Training>;

/** Loads the wasm core once per page (or process); later calls share it. */
export function load(): Promise<AttentionCore>;
