// A post's first screen of the trained model (first-screen.ts draws it): the weights file
// installed in the first heatmap's module built to run the model (attention-first-model.wasm,
// which the post's script chose and whose weights it preloaded), and the layer's weights of the
// element's sentence. A module of its own, fetched only by a post that shows the model: the
// model's words and marks stay out of every other post's first download.
import type { ModelTrace } from '../../core/attention.js';
import { traceFor } from '../../core/first-core.js';
import type { PackedCalls } from '../../core/wrap.js';
import { PUT_AWAY, modelSpec, readsPieces, tokenMark } from '../../state/model-mode.js';
import { attributeView } from '../../state/view-state.js';

type Matrix = number[][];
/** What the screen shows of one layer: its tokens as the page marks them, its heads' weights,
 *  which layer it is, and what the Model and Sentence controls say. */
export type LayerShown = { tokens: string[]; weights: Matrix[]; mask?: Matrix; label: string; modelHint: string; sentenceHint: string };

let installed: Promise<boolean> | null = null;

/** The layer the element `el` opens on (its `layer`, from 1) of the model's trace of
 *  `sentence`, or null where the element is to draw it: a layer attribute it would not read,
 *  weights that could not be fetched or read, a sentence the core refuses or that `fits` says is
 *  too long for tables, a layer the model does not have. */
export async function modelLayer(calls: PackedCalls, el: Element, sentence: string, fits: (tokens: number) => boolean): Promise<LayerShown | null> {
  const { view: { layer }, problems } = attributeView((name) => el.getAttribute(name));
  if (problems.length) return null;
  installed ??= import('../../core/model-weights.js').then(async ({ weightsBytes }) => !('error' in calls.install(await weightsBytes())), () => false);
  if (!(await installed)) return null;
  const t = traceFor(calls, modelSpec(sentence), fits) as ModelTrace | { error: unknown } | null;
  if (!t || 'error' in t || !t.layers[layer - 1]) return null;
  const { weights, mask } = t.layers[layer - 1];
  return { tokens: t.tokens.map(tokenMark), weights, mask, label: `Layer ${layer} of ${t.layers.length}`, modelHint: PUT_AWAY, sentenceHint: readsPieces(t.tokens.length) };
}
