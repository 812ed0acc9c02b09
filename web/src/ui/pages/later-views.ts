// The views a first heatmap does not need: a cell's derivation, follow one token, the steppers,
// and the trained model's heads overview and next-character card. Their code (about 13 KB gzip)
// is fetched when the element loads the whole core, which is at once on the page, and after the
// first heatmap for a shared link or a post. Their tags stay empty until it is in.
let loading: Promise<unknown> | null = null;

export function loadLaterViews(): Promise<unknown> {
  loading ??= Promise.all([import('../views/derivation.js'), import('../views/flow.js'), import('../views/decode-stepper.js'),
    import('../views/online-stepper.js'), import('../views/heads-overview.js'), import('../views/next-token.js')])
    .catch(() => { loading = null; });  // the next element to load the core tries again
  return loading;
}
