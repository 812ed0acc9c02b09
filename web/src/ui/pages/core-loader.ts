// The two cores of one playground element: where the page compiles the first heatmap's module
// (core/first-core.ts), it draws the first heatmap with it, and the whole core is fetched once
// that is on screen and the page idle, not beside it: on a slow connection the two would share
// it, and compiling the whole core held up the heatmaps' own drawing, a frame after the
// element's, by a tenth of a second. Elsewhere the whole core alone.
import { load } from '../../core/attention.js';
import { loadFirst } from '../../core/first-core.js';
import { idle } from '../shared/idle.js';
import { loadLaterViews } from './later-views.js';
import type { AttentionPlayground } from './playground.js';

export function loadCores(el: AttentionPlayground) {
  const whole = () => {
    void loadLaterViews().then(() => el.requestUpdate());  // beside the whole core: the views the first heatmap did not need
    return load().then((core) => {
      const drawn = el.first !== null && el.firstDrew === el.computed && !el.busy;
      el.core = core;
      el.first = null;
      el.ready = true;
      // The first module's trace of the spec on screen is the whole core's to the bit: computed
      // again, a matrix refused on the way (no longer in the spec) would lose its message.
      if (!drawn) return el.compute();
      if (el.selected) el.derive(el.selected);  // a cell clicked while the core was on its way
      el.requestUpdate();
    }, (e) => { el.loadError = `The attention core could not be loaded: ${e?.message ?? e}`; });
  };
  const first = loadFirst();
  if (!first) return void whole();
  first.then(async (calls) => {
    if (calls && !el.core) {
      el.first = calls;
      el.ready = true;
      el.compute();
      await el.updateComplete;
      await new Promise<void>((done) => idle(done));
    }
    whole();
  });
}
