// The code a first heatmap does not need (ui/views/later.ts; the exports come in the same chunk,
// vite.config.js): about 20 KB gzip, fetched when the element loads the whole core, which is at
// once on the page, and after the first heatmap for a shared link or a post. Until it is in,
// their tags stay empty and the steps of current models show their heatmaps without their views.
import type * as Later from '../views/later.js';

/** The views of current models' attention (RoPE, ALiBi, grouped queries, cross-attention), once
 *  their code is in. */
export let modern: typeof Later | undefined;

let loading: Promise<unknown> | null = null;

/** Fetches them (once; again after a failure), resolving when they are in or have failed. */
export function loadLaterViews(): Promise<unknown> {
  loading ??= import('../views/later.js')
    .then((views) => { modern = views; })
    .catch(() => { loading = null; });  // the next element to load the core tries again
  return loading;
}
