// dist/attention-playground.js: every element of the project in one module for embedding.
export { AttentionPlayground } from './ui/pages/playground.js';
export { AttentionTrainer } from './ui/pages/trainer.js';
export { AttentionCompare } from './ui/pages/compare.js';
