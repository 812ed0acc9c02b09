// A training run for one element: in a Web Worker of its own (train-worker.js), or, where no
// worker can start (a sandboxed iframe, a page opened from disk), on the page through the same
// loop. Messages are those of training-loop.js.
import { loadTraining } from './training-core.js';
import { trainingLoop } from './training-loop.js';

export function startTraining(receive) {
  let send = null;        // where messages go once a loop is running
  const waiting = [];     // messages sent before that
  let worker = null;
  let start = null;       // the last run started, to start again on the page if the worker fails

  const onPage = () => {
    worker?.terminate();
    worker = null;
    send = null;
    loadTraining().then((train) => {
      const handle = trainingLoop(train, (m) => setTimeout(() => receive(m), 0));
      send = handle;
      if (start && !waiting.some((m) => m.start)) handle(start);
      waiting.splice(0).forEach(handle);
    }, (e) => receive({ error: { field: '', message: `The training module could not be loaded: ${e?.message ?? e}` }, playing: false }));
  };

  try {
    worker = new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => (data.failed ? onPage() : receive(data));
    worker.onerror = (e) => { e.preventDefault?.(); onPage(); };
    send = (m) => worker.postMessage(m);
  } catch {
    onPage();
  }

  return {
    send(message) {
      if (message.start) start = message;
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
