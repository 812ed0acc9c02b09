// The trained model's panels above the walkthrough of one playground element: what the model is,
// the word pieces it reads, Repeat my sentence with what the copying head does on it, what comes
// next, and what each head does; and what a step of the walkthrough says of a learned layer.
// Every caption is computed from the trace on screen (state/model-mode.ts).
import { html, nothing } from 'lit';
import type { ModelTrace } from '../../core/attention.js';
import type { Step } from '../views/steps.js';
import { short } from '../shared/colour.js';
import { count } from '../shared/count.js';
import { copyCaption, copyingHead, isByte, modelNote, repeatHint, repeatLag, repeatRefusal, splitNote, tokenMark, tokenName } from '../../state/model-mode.js';
import type { AttentionPlayground } from './playground.js';

/** What a step says of a layer of the trained model, where its words for random weights do not fit. */
export function modelStep(el: AttentionPlayground, id: string): Partial<Step> {
  const second = el.layer > 1;
  const spec = el.model?.layers[el.layer - 1]?.spec as { d_model?: number; heads?: number } | undefined;
  const d = spec?.d_model ?? 0, dk = d / (spec?.heads ?? 1);  // the model's shape, as its trace says it
  switch (id) {
    case 'embed': return {
      title: `The residual stream into layer ${el.layer}`,
      formula: second ? 'X = E[token] + P[position] + the earlier layers’ outputs' : 'X = E[token] + P[position]   (both learned)',
      text: second ? `What layer ${el.layer} reads: each token’s learned embedding plus its position’s, with every earlier layer’s output added on. So a head here can use what a head of layer ${el.layer - 1} found: an induction head reads the work of a previous-token head.`
        : `Each token’s learned embedding plus its position’s: ${d} numbers per token, the same word piece at another position gets another row. Layer 2 reads this stream after layer 1 has added its output to it.`,
    };
    case 'project': return { text: `The learned W_q, W_k and W_v turn each row of X into a query (what this token looks for), a key (what it offers) and a value (what it passes on); head i uses its own ${dk} columns of each.` };
    case 'mask': return { text: 'The model predicts each next token from the ones before it, so it may not look ahead: the causal mask hides every later position (hatched).' };
    case 'concat': return { text: `The heads’ outputs side by side, mixed back to ${d} columns by W_o. The layer adds this output to X: the residual stream ${second ? 'that a learned unembedding turns into the next-token probabilities above' : 'layer 2 reads'}.` };
    default: return {};
  }
}

/** "layer 2 of 2", and the head followed with `head`. */
export function layerOf(el: AttentionPlayground, head: boolean): string {
  return `Layer ${el.layer} of ${el.model?.layers.length ?? 1}${head ? `, head ${el.focusHead}` : ''}`;
}

/** The trained model's tokens: word pieces, a leading space and the newline as marks, a byte
 *  of a character outside ASCII apart. Hovering or focusing one shows what the model expects after it; a click
 *  follows it in the views below too. */
function modelTokens(el: AttentionPlayground, t: ModelTrace) {
  const following = Math.min(el.focusToken, t.tokens.length - 1);
  const at = (e: Event) => (e.target as HTMLElement).closest<HTMLElement>('button.token')?.dataset.index;
  // A chip's title is written when it is hovered or focused: rewriting every chip's on every
  // keystroke cost a few tenths of a millisecond, for nobody to read.
  const predict = (e: Event) => {
    const i = at(e);
    if (i === undefined) return;
    (e.target as HTMLElement).closest('button.token')!.setAttribute('title', `position ${i}: ${tokenName(t.tokens[Number(i)])}`);
    el.predictAt = Number(i);
  };
  const pick = (e: Event) => { const i = at(e); if (i !== undefined) { el.predictAt = Number(i); el.follow(Number(i)); } };
  return html`<p class="hint split-note">${splitNote(t.tokens)}</p>
    <div class="tokens model" part="tokens" role="group" aria-label="Tokens: the word pieces the model reads"
      @mouseover=${predict} @focusin=${predict} @click=${pick}>
    ${t.tokens.map((tok, i) => html`<button class="token ${isByte(tok) ? 'byte' : /^\s+$/.test(tok) ? 'mark' : ''}" data-index=${i}
      aria-pressed=${i === following ? 'true' : 'false'} aria-label="position ${i}: ${tokenName(tok)}">${tokenMark(tok)}</button>`)}
  </div>`;
}

/** Beside Repeat: on a text said twice, what the best induction head (on the probe) does on
 *  its second copy, counted on this trace; else what repeating is for. */
function copyLine(t: ModelTrace): string {
  const lag = repeatLag(t.tokens);
  const best = lag === null ? null : copyingHead(t, lag);
  if (!best) return repeatHint(t.probe_head_scores);
  return copyCaption(best.copying, best.layer + 1, best.head, t.probe_head_scores[best.layer][best.head].induction);
}

/** Repeat my sentence: the sentence twice, so an induction head has something to copy. */
function repeatBar(el: AttentionPlayground) {
  const why = repeatRefusal(String(el.state.sentence), el.model?.tokens.length ?? 0);
  return html`<div class="model-bar">
    <button class="small" data-action="repeat" ?disabled=${Boolean(why)} aria-describedby="repeat-why" @click=${el.repeatSentence}>Repeat my sentence</button>
    <span class="hint" id="repeat-why">${el.model && (!why || repeatLag(el.model.tokens) !== null) ? `${copyLine(el.model)} ${why}`.trim() : why}</span>
  </div>`;
}

export function nextCard(el: AttentionPlayground) {
  const t = el.model!;
  const at = el.predictAt >= 0 && el.predictAt < t.tokens.length ? el.predictAt : -1;
  return html`<section class="card next" part="card" id="model-next">
    <h2>What comes next</h2>
    <ap-next-token .model=${t} .at=${at}></ap-next-token>
    ${at >= 0 && at !== t.tokens.length - 1 ? html`<button class="small" data-action="predict-last" @click=${() => (el.predictAt = -1)}>after the last token</button>` : nothing}
  </section>`;
}

export function overview(el: AttentionPlayground) {
  const t = el.model!;
  const pick = (e: CustomEvent) => el.pickLayer(e.detail.layer, e.detail.head);
  return html`<section class="card overview" part="card" id="model-heads">
    <h2>What each head does</h2>
    <p class="about">Each head’s weights on this text (row: the token that looks; the future is hidden), named by what it does in general:
      its highest score on random tokens repeated twice, when that is at least 0.3; beside it, the same score on this text. Pick one to see it below.</p>
    <ap-heads-overview .model=${t} .layer=${el.layer} .head=${el.focusHead} @head-select=${pick}></ap-heads-overview>
  </section>`;
}

/** Which layer the walkthrough below shows. */
function layerPicker(el: AttentionPlayground) {
  const t = el.model!;
  return html`<div class="layers" role="group" aria-label="Layer shown below"><span class="what">Below, step by step:</span>
    ${t.layers.map((_, l) => html`<button class="small" data-layer=${l + 1} aria-pressed=${l + 1 === el.layer ? 'true' : 'false'}
      @click=${() => el.pickLayer(l + 1)}>Layer ${l + 1}</button>`)}
    <span class="hint">${layerOf(el, true)} followed (pick another above)</span></div>`;
}

/** What the model is, said plainly: what it learns, what it cannot, and (unfolded on demand)
 *  how it was made, from its card. */
function modelAbout(el: AttentionPlayground) {
  const c = el.card;
  return html`<p class="about model-about">${el.model ? modelNote(el.model.probe_head_scores) : ''}</p>
    ${c ? html`<details class="model-card"><summary>How it was trained</summary><p>${c.architecture}.
      ${c.name ? 'Trained in this tab' : 'Trained'} on ${count(c.corpus.fortunes)} fortunes of Debian’s ${c.corpus.package} package (${count(c.corpus.train_characters)} characters${c.corpus.train_tokens ? `, ${count(c.corpus.train_tokens)} tokens` : ''}),
      ${count(c.training.steps)} steps of ${c.training.batch} texts. On fortunes it never saw it scores ${short(c.held_out_loss)} nats a character,
      against ${short(c.unigram_loss)} for token frequencies alone (lower is better).</p></details>` : nothing}`;
}

/** Model mode, above the walkthrough: the note, the tokens, Repeat, the next token, the
 *  heads; each part in a `block` of its own (drawn when in sight, a few a frame). */
export function modelPanels(el: AttentionPlayground, block: (content: () => unknown) => unknown) {
  return html`${block(() => html`${modelAbout(el)}${modelTokens(el, el.model!)}${repeatBar(el)}`)}
    ${block(() => html`<div class="model-cards">${nextCard(el)}${overview(el)}</div>`)}${block(() => layerPicker(el))}`;
}
