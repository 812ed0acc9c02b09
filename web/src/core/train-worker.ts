// Training in a Web Worker, so the page stays responsive while the model learns: the training
// module loads here, and every message goes to the training loop (training-loop.ts).
import { loadTraining } from './training-core.js';
import { trainingLoop, type TrainingFields, type TrainingReply } from './training-loop.js';

/** What this worker posts: the loop's replies, or { failed } when the training module could
 *  not load (the page then trains on its own). */
export type FromTrainWorker = TrainingReply | { failed: string };

// The worker's global scope, as much of it as is used here (the project's types are the page's,
// whose self is a window).
declare const self: { onmessage: ((event: MessageEvent<TrainingFields>) => void) | null; postMessage(message: FromTrainWorker): void };

const early: TrainingFields[] = [];
let handle = (message: TrainingFields) => { early.push(message); };

self.onmessage = ({ data }) => handle(data);

loadTraining().then((train) => {
  handle = trainingLoop(train, (m) => self.postMessage(m));
  early.splice(0).forEach(handle);
}, (e: unknown) => self.postMessage({ failed: String((e as Error | null)?.message ?? e) }));
