// Every element of the project in one module: the one file the notebook and the slides load (scripts/build-hosts.mjs).
export { AttentionPlayground } from './ui/pages/playground.js';
export { AttentionTrainer } from './ui/pages/trainer.js';
export { AttentionCompare } from './ui/pages/compare.js';
