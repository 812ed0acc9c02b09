// Rotary position embedding, as the trace shows it: the angle each pair of a head's columns
// turns by at each position, and Q and K before and after the turn, side by side. The sentence
// under them says why the scores then depend on the positions only through i − j, with the
// angles of this sentence.
import { html, nothing } from 'lit';
import { diverging, extent, short } from '../shared/colour.js';
import type { DrawHeatmap } from './draw.js';
import type { SelfTrace, TraceSpec } from '../../core/attention.js';
import type { Untyped } from '../../state/trace-schema.js';

/** A trace with positional=rope: it holds the angles and the turned Q and K, and its spec the
 *  style and the base. */
type WithRope = SelfTrace & Required<Pick<SelfTrace, 'rope_angles' | 'Q_rope' | 'K_rope'>>
  & { spec: Required<Pick<TraceSpec, 'rope_style' | 'rope_base'>> };

/** rope_angles: position x pair, in radians. */
export function ropeAngles(given: WithRope | Untyped, draw: DrawHeatmap) {
  const t = given as WithRope;
  const angles = t.rope_angles;
  const dk = t.spec.d_k, base = t.spec.rope_base;
  const pairs = t.spec.rope_style === 'halves' ? `(p, p + ${dk / 2})` : '(2p, 2p + 1)';
  return draw('rope_angles', angles, {
    // rows by position alone: the angles do not depend on the words, and a table whose labels
    // stay the same is not drawn again while a learner types
    rows: angles.map((_, i) => `position ${i}`), cols: angles[0].map((_, p) => `pair ${p}`),
    scale: diverging(extent(angles)), label: 'rope_angles (radians)',
    caption: `position i × θₚ, θₚ = ${base}^(−2p/${dk}); pair p is columns ${pairs} of every head`,
  });
}

/** Q and K before the turn and after it (Q_rope, K_rope), then why the scores see i − j. */
export function ropePairs(given: WithRope | Untyped, draw: DrawHeatmap) {
  const t = given as WithRope;
  const tokens = t.tokens;
  const angles = t.rope_angles;
  const n = tokens.length;
  // Two tokens some distance apart, from this sentence, to put numbers on the argument.
  const i = n - 1, j = Math.max(0, n - 3);
  const a = angles[i][0], b = angles[j][0];
  const example = n > 1 ? html` Here, pair 0 of “${tokens[i]}” (position ${i}) turns by ${short(a)} rad and of “${tokens[j]}”
    (position ${j}) by ${short(b)} rad: between them ${short(a - b)} rad, as between any two tokens ${i - j} apart.` : nothing;
  const pair = (key: 'Q' | 'K', turned: 'Q_rope' | 'K_rope', rows: string[]) => html`<div class="rope-pair">
    ${draw(key, t[key], { label: `${key} (before)`, rows })}${draw(turned, t[turned], { label: `${turned} (${key} turned)`, rows })}</div>`;
  const at = tokens.map((w, p) => `${p} ${w}`);
  return html`<div class="rope-pairs">${pair('Q', 'Q_rope', at)}${pair('K', 'K_rope', at)}</div>
    <p class="why">Why the score then depends on i − j: a rotation keeps lengths, and turning q by i·θ and k by j·θ
      turns the angle between them by (i − j)·θ, so q′ᵢ · k′ⱼ = qᵢ · R((j − i)·θ) kⱼ.${example} The scores see how far apart
      two tokens are, not where they stand, and the same pair of words scores the same anywhere in a sentence.</p>`;
}
