// The first script of a page that draws attention: it starts compiling wasm while the rest of
// the page's code loads and runs (the page preloads the same file). A page whose first screen
// is written into it compiles the whole core, which the reader's first edit needs; one opened
// by a link that carries settings draws its first heatmap before anything else, and compiles
// the first heatmap's module (first-core.ts), two fifths smaller: linked.js, which read the
// link before the body, says which (and preloaded it).
import { compileEarly, FIRST_HEATMAP } from './instantiate.js';

if (document.documentElement.hasAttribute('data-first-heatmap')) {
  compileEarly(new URL('./wasm/attention-first.wasm', import.meta.url), FIRST_HEATMAP);
} else {
  compileEarly(new URL('./wasm/attention-core.wasm', import.meta.url));
}
