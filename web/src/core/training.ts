// A training run for one element: in a Web Worker of its own (train-worker.ts), or, where no
// worker can start (a sandboxed iframe, a page opened from disk), on the page through the same
// loop. Messages are those of training-loop.ts.
import { loadTraining } from './attention.js';  // the training module, loaded when first used
import { trainingLoop, type TrainingFields, type TrainingMessage, type TrainingReply } from './training-loop.js';
import type { FromTrainWorker } from './train-worker.js';

export type { LmHistory, LmSnapshot, LmStarted, TrainingMessage, TrainingReply, TrainingStop } from './training-loop.js';

export interface TrainingRun {
  send(message: TrainingMessage): void;
  stop(): void;
  readonly inWorker: boolean;
}

export function startTraining(receive: (reply: TrainingReply) => void): TrainingRun {
  let send: ((message: TrainingFields) => void) | null = null;  // where messages go once a loop is running
  const waiting: TrainingFields[] = [];     // messages sent before that
  let worker: Worker | null = null;
  let start: TrainingFields | null = null;  // the last run started, to start again on the page if the worker fails

  const onPage = () => {
    worker?.terminate();
    worker = null;
    send = null;
    loadTraining().then((train) => {
      // A language model's step takes tens of milliseconds: on the page, one at a time.
      const handle = trainingLoop(train, (m) => setTimeout(() => receive(m), 0), { lmSliceMs: 0 });
      send = handle;
      if (start && !waiting.some((m) => m.start || m.language)) handle(start);
      waiting.splice(0).forEach(handle);
    }, (e: unknown) => receive({ error: { field: '', message: `The training module could not be loaded: ${(e as Error | null)?.message ?? e}` }, playing: false }));
  };

  try {
    const started = new Worker(new URL('./train-worker.ts', import.meta.url), { type: 'module' });
    worker = started;
    started.onmessage = ({ data }: MessageEvent<FromTrainWorker>) => ('failed' in data && data.failed ? onPage() : receive(data as TrainingReply));
    started.onerror = (e) => { e.preventDefault?.(); onPage(); };
    send = (m) => started.postMessage(m);
  } catch {
    onPage();
  }

  return {
    send(message: TrainingFields) {
      if (message.start || message.language) start = message;
      if (send) send(message);
      else waiting.push(message);
    },
    stop() {
      worker?.terminate();
      send?.({ play: false });
    },
    get inWorker() { return worker !== null; },
  };
}
