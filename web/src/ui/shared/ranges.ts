// Which colour scale each matrix of a trace is drawn on. Matrices a learner reads together share
// one range, so one colour is one number across them: the core's trace schema groups them (W_q,
// W_k and W_v; Q, K and V and their stages; X with its positional encoding). The scores of every
// head share one too. Weights and the mask are drawn over 0 to 1.
import { SEQUENTIAL, diverging, extent, type Scale } from './colour.js';
import { GROUP_OF, type Entries, type EntryName, type Untyped } from '../../state/trace-schema.js';
import type { Trace } from '../../core/attention.js';

const cache = new WeakMap<Trace, Map<string, Scale>>();

/** The scale of trace[key]: shared by its group, computed once per trace. */
export function scaleOf(given: Trace | Untyped, key: string): Scale {
  const trace = given as Trace;
  if (key === 'weights' || key === 'mask') return SEQUENTIAL;
  let known = cache.get(trace);
  if (!known) cache.set(trace, (known = new Map()));
  let scale = known.get(key);
  if (!scale) {
    const entries: Entries = trace;  // read by name: a key the trace lacks reads undefined
    const group = GROUP_OF.get(key) ?? [key as EntryName];
    // Masked scores never reach the softmax: they do not stretch the range of those that do.
    const m = key === 'scores' && 'mask' in trace && trace.mask && Array.isArray(trace.scores[0]?.[0])
      ? Math.max(...trace.scores.map((s) => extent(s, trace.mask)))
      : extent(group.map((k) => entries[k]));
    scale = diverging(m);
    for (const k of group) known.set(k, scale);
  }
  return scale;
}
