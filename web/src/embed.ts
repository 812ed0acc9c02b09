// dist/attention-playground.js, the one script a blog post loads. It imports nothing before its
// body runs, so that it asks for everything its first heatmap needs as soon as it arrives, side by
// side: the first heatmap's module (first-core.ts), the core's code and the first screens' code.
// (A static import would have held the body back until the core's code had arrived: on a slow
// connection the wasm's download then began two round trips after this file's.) Its build puts
// before its body the hints that fetch the chunks its imports lead to (scripts/build-web.mjs).

// A playground that shows the trained model needs its weights: they are asked for now, beside
// the first heatmap's module, rather than once the elements' code has arrived and asked for the
// core, and the core for the weights. One that shows its weights, with its own controls or
// none, is drawn from the first heatmap's module (the one built to run the model too); for any
// other, the whole core, which alone runs the element's model, is asked for now too (on
// localhost the weights came 370 ms after navigation, the core's download having ended at 350).
const models = [...document.querySelectorAll('attention-playground[model="tiny-lm"]')];
if (models.length) {
  const weights = document.createElement('link');  // taken up by the fetch of them (core/model-weights.ts)
  Object.assign(weights, { rel: 'preload', as: 'fetch', crossOrigin: '', href: new URL('./core/wasm/tiny-lm.bin', import.meta.url).href });
  (document.head ?? document.documentElement).append(weights);
}
const firstScreen = (p: Element) => p.getAttribute('view') === 'weights' && [null, 'none'].includes(p.getAttribute('controls'));
if (models.some(firstScreen)) void import('./ui/pages/first-screen-model.js').catch(() => {});  // its code, beside the wasm
if (models.some((p) => !firstScreen(p))) wholeCore();
// (Not for a post whose playgrounds all show the trained model otherwise: the whole core runs those.)
const playgrounds = [...document.querySelectorAll('attention-playground')].filter((p) => !models.includes(p) || firstScreen(p));
if (playgrounds.length) {
  // (the module that also runs the trained model where a first screen shows it: 12 KB gzip more)
  const wasm = models.some(firstScreen) ? new URL('./core/wasm/attention-first-model.wasm', import.meta.url)
    : new URL('./core/wasm/attention-first.wasm', import.meta.url);
  const bytes = fetch(wasm);  // the compile, set up once the core's code is in, streams this download
  bytes.catch(() => {});  // a failed fetch is the compile's to report (null: the whole core draws)
  // Registered before the elements can ask for it: the core's code is their import, and it
  // arrives first. Were it not yet registered, the page would load the whole core instead.
  const compiling = import('./core/instantiate.js').then(({ compileEarly, FIRST_HEATMAP }) => compileEarly(wasm, FIRST_HEATMAP, bytes));
  // The playgrounds that show the weights are drawn from the first heatmap's module alone (a
  // first screen the element keeps until it draws its own), and only then is the elements'
  // code asked for: on a slow connection it would have shared the wasm's download. It is asked
  // for after the frame that shows them: arriving before it, its evaluation (tens of ms) made
  // that frame later (on localhost, 195 against 188 ms, medians of 31 loads in turns). (Beside a
  // trainer or a comparison, whose code is wanted at once, both are asked for together; and
  // after three seconds without the wasm, the playgrounds' code is asked for all the same, so
  // that on a very slow connection the controls do not wait for the numbers.)
  if (playgrounds.some((p) => p.getAttribute('view') === 'weights')) {
    const drawing = Promise.all([import('./ui/pages/first-screen.js'), compiling])
      .then(([{ drawFirstScreens }]) => drawFirstScreens(playgrounds)).catch(() => {});  // else the elements draw them
    if (!document.querySelector('attention-trainer, attention-compare')) {
      await Promise.race([drawing, new Promise((later) => setTimeout(later, 3000))]);
      await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
    }
  }
  // a trained model the first screens did not draw (a wide one, say) waits for the whole core,
  // unless it was asked for already
  if (models.every(firstScreen) && models.some((p) => !p.querySelector(':scope > [slot="first-screen"]'))) wholeCore();
}
// The playground next: a post's playgrounds draw as soon as it is in. The trainer's and the
// comparison's code (chunks of their own, 20 KB gzip) are fetched once the playgrounds have
// drawn, not beside them: on a slow connection they took a share of the end of the first
// heatmap's module's download (on Fast 3G, its last byte came about 20 ms later). At once on a page
// that shows a trainer or a comparison.
const { AttentionPlayground } = await import('./ui/pages/playground.js');
if (!document.querySelector('attention-trainer, attention-compare')) await drawn([...document.querySelectorAll('attention-playground')]);
const [{ AttentionTrainer }, { AttentionCompare }] = await Promise.all([import('./ui/pages/trainer.js'), import('./ui/pages/compare.js')]);
export { AttentionPlayground, AttentionTrainer, AttentionCompare };

/** Starts fetching and compiling the whole core, which the elements take up when their code asks for it. */
function wholeCore() {
  const core = new URL('./core/wasm/attention-core.wasm', import.meta.url), coreBytes = fetch(core);
  coreBytes.catch(() => {});  // a failed fetch is the compile's to report (the element then fetches it)
  import('./core/instantiate.js').then(({ compileEarly }) => compileEarly(core, core.href, coreBytes));
}

/** Resolves once each playground has shown its first trace, or its error, and the frame that
 *  shows it has been drawn; or after ten seconds (one whose core could not be loaded shows
 *  neither). */
function drawn(playgrounds: Element[]): Promise<unknown> {
  const each = playgrounds.map((p) => new Promise<unknown>((done) => {
    const element = p as InstanceType<typeof AttentionPlayground>;
    if (element.shownTrace || element.error) return done(element.updateComplete);
    element.addEventListener('trace', () => done(element.updateComplete), { once: true });
  }));
  const painted = () => new Promise((after) => requestAnimationFrame(() => setTimeout(after, 0)));
  return Promise.race([Promise.all(each).then(painted), new Promise((later) => setTimeout(later, 10_000))]);
}
