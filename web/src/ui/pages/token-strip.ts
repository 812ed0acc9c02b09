// The tokens of a random-weights trace above the walkthrough: a chip per token to follow it in the
// views below, and past the chips a field for the position of the one to follow. (The trained
// model's word pieces are drawn by model-panels.ts.)
import { html, nothing } from 'lit';
import { clip } from '../shared/clip.js';
import type { AttentionPlayground } from './playground.js';

// Token chips shown; the tokens past them are followed by their position: at 512 tokens the
// chips' layout and text alone made a frame several times too long.
const CHIPS = 96;

export function tokenStrip(el: AttentionPlayground) {
  const tokens = (el.shownTrace?.tokens ?? []) as string[];
  const traced = el.tracedMode();  // encoder-decoder: the tokens are the annotations', followed by no view
  const following = Math.min(el.focusToken, tokens.length - 1);
  const chipped = tokens.slice(0, CHIPS), past = tokens.length - chipped.length;
  // One listener for the strip, not one per chip (a pasted text brings hundreds of chips).
  const onChip = (e: Event) => {
    const index = (e.target as HTMLElement).closest<HTMLElement>('button.token')?.dataset.index;
    if (index !== undefined) el.follow(Number(index), true);
  };
  const onPosition = (e: Event) => {
    const input = e.target as HTMLInputElement, n = tokens.length;
    const i = Number(input.value);
    el.positionError = Number.isInteger(i) && i >= 0 && i < n && input.value.trim() !== '' ? ''
      : `${clip(input.value, 20) || 'an empty field'} is not a position here: 0 to ${n - 1}`;
    if (!el.positionError) el.follow(i, true);
  };
  const chips = traced
    ? chipped.map((t, i) => html`<span class="token" title="position ${i}">${t}</span>`)
    : chipped.map((t, i) => html`<button class="token" data-index=${i} title="position ${i}: follow it below" aria-pressed=${i === following ? 'true' : 'false'}>${t}</button>`);
  const more = past <= 0 ? nothing : traced ? html`<p class="more">and ${past} more tokens</p>`
    : html`<p class="more"><label>and ${past} more: follow the token at position <input type="number" min="0" max=${tokens.length - 1} step="1"
        .value=${String(following)} aria-invalid=${el.positionError ? 'true' : 'false'} @change=${onPosition}></label>${el.positionError
      ? html` <span class="message" role="alert">${el.positionError}</span>` : nothing}</p>`;
  return html`<div class="tokens" part="tokens" role="group" aria-label="Tokens" @click=${onChip}>${traced ? nothing : html`<span class="what">Follow one token:</span>`}${chips}</div>${more}`;
}

/** Cross-attention's source tokens, which the keys and values come from. */
export function sourceStrip(sources: string[]) {
  return html`<div class="tokens source" role="group" aria-label="Source tokens"><span class="side">source</span>
    ${sources.map((w, j) => html`<span class="token" title="source position ${j}">${w}</span>`)}</div>`;
}
