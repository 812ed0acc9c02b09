// The training module (cpp/bindings/train_wasm.cpp), loaded once per page, worker or process:
// loadTraining() -> { tasks, start, step, snapshot, stats, lmStart, lmStep, lmModel }, JSON in,
// plain objects out (lmModel: a copy of the weights file's bytes).
import type { Training } from './attention.js';
import createAttentionTrain from './wasm/attention-train.mjs';
import { emscripten, type EmscriptenFactory } from './instantiate.js';

/** The training module's embind functions: JSON text out. */
interface TrainModule {
  tasks(): string;
  start(settings: string): string;
  step(count: number): string;
  snapshot(example: number): string;
  stats(): string;
  count_emval_handles(): number;
  lm_start(settings: string, train: string, heldOut: string): string;
  lm_step(count: number): string;
  /** A view into the wasm memory, valid until the next call; null before lm_start. */
  lm_model(): Uint8Array | null;
}

const wasmUrl = new URL('./wasm/attention-train.wasm', import.meta.url);

let shared: Promise<Training> | null = null;

export function loadTraining(): Promise<Training> {
  shared ??= emscripten(createAttentionTrain as EmscriptenFactory<TrainModule>, wasmUrl).then(({ exports: m }): Training => ({
    tasks: () => JSON.parse(m.tasks()),
    start: (settings) => JSON.parse(m.start(typeof settings === 'string' ? settings : JSON.stringify(settings ?? {}))),
    step: (count) => JSON.parse(m.step(count)),
    snapshot: (example) => JSON.parse(m.snapshot(example)),
    stats: () => ({ ...JSON.parse(m.stats()), handles: m.count_emval_handles() }),
    lmStart: (settings, train, heldOut) => JSON.parse(m.lm_start(typeof settings === 'string' ? settings : JSON.stringify(settings ?? {}), train, heldOut)),
    lmStep: (count) => JSON.parse(m.lm_step(count)),
    lmModel: () => {
      const view = m.lm_model();
      return view ? new Uint8Array(view) : null;  // a copy: the view dies with the next call
    },
  }));
  shared.catch(() => { shared = null; });  // a failed load may be retried
  return shared;
}
