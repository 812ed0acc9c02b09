// dist/attention-playground.js, the one script a blog post loads. It starts fetching and
// compiling the first heatmap's module (first-core.ts) before it imports the elements, so that
// the wasm streams in while their code does, rather than after it has all arrived and run. (Its
// one static import, the core's code, which the elements import too, comes first.)
import { compileEarly, FIRST_HEATMAP } from './core/instantiate.js';

// (Not for a post whose playgrounds all show the trained model, which only the whole core runs.)
if (document.querySelector('attention-playground:not([model="tiny-lm"])')) {
  compileEarly(new URL('./core/wasm/attention-first.wasm', import.meta.url), FIRST_HEATMAP);
  void import('./core/wasm/attention-first.mjs');  // its JS, which first-core.ts imports
}
// The playground first: a post's playgrounds draw as soon as it is in. The trainer's and the
// comparison's code (chunks of their own) are fetched after it, not beside it.
const { AttentionPlayground } = await import('./ui/pages/playground.js');
const [{ AttentionTrainer }, { AttentionCompare }] = await Promise.all([import('./ui/pages/trainer.js'), import('./ui/pages/compare.js')]);
export { AttentionPlayground, AttentionTrainer, AttentionCompare };
