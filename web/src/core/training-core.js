// The training module (cpp/bindings/train_wasm.cpp), loaded once per page, worker or process:
// loadTraining() -> { tasks, start, step, snapshot, stats }, JSON in, plain objects out.
import createAttentionTrain from './wasm/attention-train.mjs';
import { instantiate } from './instantiate.js';

const wasmUrl = new URL('./wasm/attention-train.wasm', import.meta.url);

let shared = null;

export function loadTraining() {
  shared ??= createAttentionTrain({
    instantiateWasm(imports, done) {
      instantiate(wasmUrl, imports).then((r) => done(r.instance, r.module));
      return {};
    },
  }).then((m) => ({
    tasks: () => JSON.parse(m.tasks()),
    start: (settings) => JSON.parse(m.start(typeof settings === 'string' ? settings : JSON.stringify(settings ?? {}))),
    step: (count) => JSON.parse(m.step(count)),
    snapshot: (example) => JSON.parse(m.snapshot(example)),
    stats: () => ({ ...JSON.parse(m.stats()), handles: m.count_emval_handles() }),
  }));
  shared.catch(() => { shared = null; });  // a failed load may be retried
  return shared;
}
