// Which colour scale each matrix of a trace is drawn on. Matrices a learner reads together share
// one range, so one colour is one number across them: W_q, W_k and W_v; Q, K and V (and Q and K
// after RoPE turns them); X with its positional encoding (and the source's rows in cross mode);
// the scores of every head. Weights and the mask are drawn over 0 to 1.
import { SEQUENTIAL, diverging, extent, type Scale } from './colour.js';

type Trace = Record<string, any>;

const GROUPS: string[][] = [
  ['X', 'positional', 'X_in', 'X_source'],
  ['W_q', 'W_k', 'W_v'],
  ['Q', 'K', 'V', 'Q_rope', 'K_rope'],
  ['W_1', 'W_2'],
  ['heads', 'concat'],
  ['residual_sum', 'normalized'],
  ['decoder_state', 'annotations'],
  ['weighted', 'context'],
];
const GROUP_OF = new Map(GROUPS.flatMap((g) => g.map((k): [string, string[]] => [k, g])));

const cache = new WeakMap<Trace, Map<string, Scale>>();

/** The scale of trace[key]: shared by its group, computed once per trace. */
export function scaleOf(trace: Trace, key: string): Scale {
  if (key === 'weights' || key === 'mask') return SEQUENTIAL;
  let known = cache.get(trace);
  if (!known) cache.set(trace, (known = new Map()));
  let scale = known.get(key);
  if (!scale) {
    const group = GROUP_OF.get(key) ?? [key];
    // Masked scores never reach the softmax: they do not stretch the range of those that do.
    const m = key === 'scores' && trace.mask && Array.isArray(trace.scores[0]?.[0])
      ? Math.max(...(trace.scores as number[][][]).map((s) => extent(s, trace.mask)))
      : extent(group.map((k) => trace[k]));
    scale = diverging(m);
    for (const k of group) known.set(k, scale);
  }
  return scale;
}
