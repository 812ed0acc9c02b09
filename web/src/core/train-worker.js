// Training in a Web Worker, so the page stays responsive while the model learns: the training
// module loads here, and every message goes to the training loop (training-loop.js).
import { loadTraining } from './training-core.js';
import { trainingLoop } from './training-loop.js';

const early = [];
let handle = (message) => early.push(message);

self.onmessage = ({ data }) => handle(data);

loadTraining().then((train) => {
  handle = trainingLoop(train, (m) => self.postMessage(m));
  early.splice(0).forEach(handle);
}, (e) => self.postMessage({ failed: String(e?.message ?? e) }));
