// The training module (cpp/bindings/train_wasm.cpp), loaded once per page, worker or process:
// loadTraining() -> { tasks, start, step, snapshot, stats }, JSON in, plain objects out.
import type { Training } from './attention.js';
import createAttentionTrain from './wasm/attention-train.mjs';
import { instantiate, type EmscriptenFactory } from './instantiate.js';

/** The training module's embind functions: JSON text out. */
interface TrainModule {
  tasks(): string;
  start(settings: string): string;
  step(count: number): string;
  snapshot(example: number): string;
  stats(): string;
  count_emval_handles(): number;
}

const wasmUrl = new URL('./wasm/attention-train.wasm', import.meta.url);

let shared: Promise<Training> | null = null;

export function loadTraining(): Promise<Training> {
  shared ??= (createAttentionTrain as EmscriptenFactory<TrainModule>)({
    instantiateWasm(imports, done) {
      instantiate(wasmUrl, imports).then((r) => done(r.instance, r.module));
      return {};
    },
  }).then((m): Training => ({
    tasks: () => JSON.parse(m.tasks()),
    start: (settings) => JSON.parse(m.start(typeof settings === 'string' ? settings : JSON.stringify(settings ?? {}))),
    step: (count) => JSON.parse(m.step(count)),
    snapshot: (example) => JSON.parse(m.snapshot(example)),
    stats: () => ({ ...JSON.parse(m.stats()), handles: m.count_emval_handles() }),
  }));
  shared.catch(() => { shared = null; });  // a failed load may be retried
  return shared;
}
