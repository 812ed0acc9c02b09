// ALiBi, as the trace shows it: each head's slope m_h and the bias −m_h |i − j| it adds to the
// scores, one diverging heatmap per head over one shared range, so a steep head's darker
// corners are read against a gentle head's pale ones. Masked cells are hatched as in the scores:
// their bias is computed but never reaches the softmax.
import { html } from 'lit';
import { diverging, extent, full } from '../shared/colour.js';
import type { DrawHeatmap } from './draw.js';
import type { SelfTrace } from '../../core/attention.js';
import type { Untyped } from '../../state/trace-schema.js';

/** A trace with positional=alibi: it holds the slopes and the bias. */
type WithAlibi = SelfTrace & Required<Pick<SelfTrace, 'alibi_slopes' | 'bias'>>;

export function alibiSlopes(given: WithAlibi | Untyped, draw: DrawHeatmap) {
  const t = given as WithAlibi;
  const slopes = t.alibi_slopes;
  const heads = slopes.length;
  return draw('alibi_slopes', [slopes], {
    rows: ['m_h'], cols: slopes.map((_, h) => `head ${h}`), label: 'alibi_slopes', scale: diverging(extent(slopes)),
    caption: heads & (heads - 1) ? 'the ALiBi paper’s slopes for a head count that is not a power of two' : `head h: 2^(−8(h+1)/${heads}), h = 0 … ${heads - 1}: from steep to gentle`,
  });
}

export function alibiBias(given: WithAlibi | Untyped, draw: DrawHeatmap) {
  const t = given as WithAlibi;
  const bias = t.bias;
  const slopes = t.alibi_slopes;
  const tokens = t.tokens;
  const scale = diverging(extent(bias));
  return html`${bias.map((b, h) => draw('bias', b, {
    head: h, cols: tokens, scale, masked: t.mask, label: bias.length > 1 ? `bias · head ${h}` : 'bias',
    caption: `−${full(slopes[h])} × |i − j|`,
  }))}`;
}
