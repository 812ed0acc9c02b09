// The code a first heatmap does not need: the views of a cell's derivation, follow one token, the
// steppers, the trained model's heads overview and next-character card, and those of current
// models' attention (RoPE, ALiBi, grouped queries, cross-attention); the exports come in the same
// chunk (vite.config.js). About 20 KB gzip, fetched when the element loads the whole core: at once
// on the page, after the first heatmap for a shared link or a post. Until it is in, their tags
// stay empty and the steps of current models show their heatmaps without their views.
import type * as Rope from '../views/rope-view.js';
import type * as Alibi from '../views/alibi-view.js';
import type * as Gqa from '../views/gqa-view.js';
import type * as Cross from '../views/cross-view.js';

export type ModernViews = typeof Rope & typeof Alibi & typeof Gqa & typeof Cross;

/** The views of current models' attention, once their code is in. */
export let modern: ModernViews | undefined;

let loading: Promise<unknown> | null = null;

/** Fetches them (once; again after a failure), resolving when they are in or have failed. */
export function loadLaterViews(): Promise<unknown> {
  loading ??= Promise.all([import('../views/derivation.js'), import('../views/flow.js'), import('../views/decode-stepper.js'),
    import('../views/online-stepper.js'), import('../views/heads-overview.js'), import('../views/next-token.js'),
    import('../views/rope-view.js'), import('../views/alibi-view.js'), import('../views/gqa-view.js'), import('../views/cross-view.js')])
    .then(([, , , , , , rope, alibi, gqa, cross]) => { modern = { ...rope, ...alibi, ...gqa, ...cross }; })
    .catch(() => { loading = null; });  // the next element to load the core tries again
  return loading;
}
