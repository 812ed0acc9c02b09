// The trained model in one playground element: its weights fetched once for the page, its first
// trace in the page's worker, each later one on the spot with the settings a link set beside it
// (state/session.ts), and the preset that opens on the head that copies.
import type { AttentionCore, ModelTrace, Spec } from '../../core/attention.js';
import { background, large } from '../../core/background.js';
import { toSpec } from '../../state/settings.js';
import { bestInduction, copyingHead, modelSpec, repeatLag } from '../../state/model-mode.js';
import { traceWithExtras, type Outcome } from '../../state/session.js';
import { idle } from '../shared/idle.js';
import type { AttentionPlayground } from './playground.js';

type Json = Record<string, any>;

/** Model mode: the trained model’s trace, on the spot (at 128 tokens it is small), once
 *  its weights are in; the first in the page's worker (below). Keys a link set besides the
 *  model and the sentence are sent too, once: the core names the one it refuses, and the
 *  message stands beside that setting while the model runs without it. */
export function computeModel(el: AttentionPlayground) {
  const core = el.core!;
  if (el.modelStatus !== 'ready') {
    if (el.modelStatus === 'idle') loadModel(el);
    el.stale = el.shownTrace !== null;  // what is on screen is not the trained model's
    return;
  }
  const id = ++el.computed;  // an answer of the worker still on its way is dropped
  el.busy = false;
  const wanted = el.spec;
  if (!el.model && !el.extras.length && !el.modelWarm) return firstModelTrace(el, core, wanted, id);
  const sent = toSpec({ ...el.state, model: 'random' }, el.overrides) as Json;
  const { result, refusal, refusals } = traceWithExtras((spec) => core.trace(spec) as Json, wanted, sent, el.extras);
  el.extras = [];
  el.refusals = refusals;
  el.show(wanted, { spec: wanted, result, refusal, refused: [] });
}

/** The model's first trace, computed in the page's worker: on the page's cold module it was
 *  one of the longest tasks of opening a model link (50-90 ms, and its heads' probe, computed
 *  once per module, as long again). The worker's run compiles the code the page's module
 *  shares, so the page's own probe, in an idle slot after the views, then costs little. */
function firstModelTrace(el: AttentionPlayground, core: AttentionCore, spec: Spec, id: number) {
  const alone = (result: Json): Outcome => ({ spec, result, refusal: null, refused: [] });
  const onPage = () => el.show(spec, alone(core.trace(spec) as Json));
  const weights = core.installedModel();
  if (!weights) return onPage();
  const worker = background(core);
  worker.install(weights);
  worker.run(spec, el).then((result) => {
    if (result === null || id !== el.computed) return;
    el.show(spec, alone(result as Json));
  }, () => { if (id === el.computed) onPage(); }).finally(() => idle(() => {
    el.modelWarm = true;
    const probe = modelSpec(' ');
    if (!large(core, probe)) core.trace(probe);  // asked first, as every path that runs the core
  }));
}

/** Fetches the trained model's weights once (the core keeps them for every element of the
 *  page), saying so while they come; a failure is said beside the Model control. */
function loadModel(el: AttentionPlayground) {
  const core = el.core!;
  el.modelStatus = 'loading';
  el.modelError = '';
  const failed = (why: string) => {
    el.modelStatus = 'failed';
    el.modelError = `The trained model could not be loaded: ${why}. Switch Model back to random, or try again.`;
  };
  core.loadModel().then((r) => {
    if ('error' in r) return failed(r.error.message);
    // The first trace in a task of its own: with the weights' install it made one long task.
    setTimeout(() => {
      el.card = r.card;
      el.modelStatus = 'ready';
      el.compute();
    });
  }, (e) => failed(String(e?.message ?? e)));
}

/** The preset's sentence said twice, opened on the head that copies: of the probe's induction
 *  heads the one that copies most on this text (else the highest induction score on the probe),
 *  whichever head that is after training, and on a token of the second copy. */
export function openOnInduction(el: AttentionPlayground, t: ModelTrace) {
  el.toInduction = false;
  const lag = repeatLag(t.tokens);
  const best = (lag === null ? null : copyingHead(t, lag)) ?? bestInduction(t.probe_head_scores);
  el.layer = best.layer + 1;
  el.focusHead = best.head;
  el.focusToken = Math.floor((t.tokens.length * 3) / 4);
}
