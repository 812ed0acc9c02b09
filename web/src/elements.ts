// dist/attention-playground.js: every element of the project in one module for embedding.
export { AttentionPlayground } from './ui/playground.js';
export { AttentionTrainer } from './ui/trainer.js';
export { AttentionCompare } from './ui/compare.js';
