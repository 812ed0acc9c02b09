// The comparisons of current models' attention in <attention-compare>: sinusoidal positions
// against rotary ones (RoPE); multi-head against grouped-query and multi-query attention; the
// standard softmax against FlashAttention's online softmax. Each says what its sides set; the
// key/value comparison builds its shared heads from the multi-head side's own matrices, and the
// online one draws its sides from the trace's `online` blocks (o / l after the last block).
import { html, type TemplateResult } from 'lit';
import type { State } from '../../state/settings.js';
import type { OnlineBlock } from '../../core/attention.js';
import { SEQUENTIAL, diverging, extent, short } from '../shared/colour.js';
import '../views/heatmap.js';

type Trace = Record<string, any>;
type Matrix = number[][];

export interface Side {
  label: string;
  state: Partial<State>;
  /** Spec keys taken from the first side's trace (the same X and weights, say). */
  from?: (first: Trace) => Record<string, unknown>;
}

export interface CurrentAxis {
  sides: (s: State) => Side[];
  why: string;
  delta?: 'output';            // the difference is of the outputs, not of head 0's weights
  controls?: string[];         // settings worth a control in this comparison, besides the usual
  hides?: string[];            // usual controls the sides set themselves, which would change nothing
  side?: (trace: Trace, label: string, k: number) => TemplateResult;
  difference?: (traces: Trace[], labels: string[]) => TemplateResult | TemplateResult[];
}

// ---------------------------------------------------------------- key/value heads

/** The columns of `width` of every `group`-th head: each group keeps its first head's block. */
const firstOfEachGroup = (w: Matrix, heads: number, kv: number, width: number): Matrix =>
  w.map((row) => Array.from({ length: kv }, (_, g) => row.slice(g * (heads / kv) * width, (g * (heads / kv) + 1) * width)).flat());

function kvSides(s: State): Side[] {
  const d = Number(s.d_model);
  const heads = Number(s.heads) > 1 ? Number(s.heads) : 4;
  // Four heads on a width that four does not divide: each head gets the whole part of d_model / 4.
  const d_k = s.d_k !== '' ? s.d_k : d % heads === 0 ? '' : Math.max(1, Math.floor(d / heads));
  const shared = (kv: number) => (mha: Trace) => ({
    kv_heads: kv, X: mha.X, W_q: mha.W_q, W_o: mha.W_o,
    W_k: firstOfEachGroup(mha.W_k, heads, kv, mha.spec.d_k), W_v: firstOfEachGroup(mha.W_v, heads, kv, mha.spec.d_v),
  });
  const middle = heads % 2 === 0 && heads > 2 ? heads / 2 : [...Array(heads).keys()].reverse().find((g) => g > 1 && g < heads && heads % g === 0);
  const side = (label: string, kv: number, from?: Side['from']): Side => ({ label, state: { heads, d_k, kv_heads: kv }, from });
  return [
    side(`MHA: ${heads} key/value heads for ${heads} query heads`, heads),
    ...(middle ? [side(`GQA: ${middle} key/value heads`, middle, shared(middle))] : []),
    side('MQA: 1 key/value head', 1, shared(1)),
  ];
}

/** Each later side's weights minus the first side's, head by head: a head that kept its
 *  key/value head is all 0, one that now shares another's is not. */
function kvDifference(traces: Trace[], labels: string[]): TemplateResult[] {
  const [a] = traces;
  const tokens = a.tokens as string[];
  return traces.slice(1).map((b, k) => {
    const deltas = (a.weights as Matrix[]).map((w, h) => (b.weights as Matrix[])[h].map((row, i) => row.map((v, j) => v - w[i][j])));
    const sizes = deltas.map((d) => extent(d));
    const kept = sizes.flatMap((m, h) => (m <= 1e-12 ? [h + 1] : []));  // the same numbers, summed the same way
    const largest = Math.max(...sizes);
    return html`<div class="card diff">
      <h2>What changed: weights of ${labels[k + 1]} minus weights of ${labels[0]}</h2>
      <p class="summary" data-summary>${kept.length ? `Head${kept.length > 1 ? 's' : ''} ${kept.join(', ')} kept ${kept.length > 1 ? 'their' : 'its'} key/value head: no change but rounding (${short(Math.max(...kept.map((h) => sizes[h - 1])))}, the last bits of a double). ` : ''}The others now read their group's keys:
        the largest change is ${short(largest)}. The colours are centred on 0: the middle of the scale is no change.</p>
      <div class="matrices">${deltas.map((d, h) => html`<ap-heatmap key="difference" .head=${h} label="Δ weights, head ${h}"
        .matrix=${d} .rows=${tokens} .cols=${tokens} .scale=${diverging(largest)}></ap-heatmap>`)}</div>
    </div>`;
  });
}

// ---------------------------------------------------------------- online softmax

const lastBlock = (t: Trace, h: number) => (t.online as OnlineBlock[][])[h].at(-1)!;

/** o / l of a head's last block: the online softmax's output for that head. */
export const onlineHead = (t: Trace, h: number): Matrix => lastBlock(t, h).out;

const columns = (m: Matrix) => (m[0] ?? []).map((_, j) => String(j));
const headLabel = (t: Trace, name: string, h: number) => (t.heads.length > 1 ? `${name}, head ${h}` : name);

function onlineSide(t: Trace, label: string, k: number): TemplateResult {
  const tokens = t.tokens as string[];
  const scale = diverging(extent(t.heads));
  const heads = t.heads as Matrix[];
  return html`<div class="card" data-side=${label}>
    <h2>${label}</h2>
    <div class="matrices">${k === 0
      ? heads.map((m, h) => html`
        <ap-heatmap key="weights" .head=${h} label=${headLabel(t, 'weights', h)} caption="n × n, held in memory"
          .matrix=${t.weights[h]} .rows=${tokens} .cols=${tokens} .scale=${SEQUENTIAL} .masked=${t.mask}></ap-heatmap>
        <ap-heatmap key="heads" .head=${h} label=${headLabel(t, 'softmax(scores) · V', h)}
          .matrix=${m} .rows=${tokens} .cols=${columns(m)} .scale=${scale}></ap-heatmap>`)
      : heads.map((_, h) => {
        const b = lastBlock(t, h);
        return html`
        <ap-heatmap key="running" .head=${h} label=${headLabel(t, 'm and l after the last block', h)} caption="n × 2: all it keeps besides o"
          .matrix=${b.m.map((m, i) => [m ?? 0, b.l[i]])} .rows=${tokens} .cols=${['m', 'l']}></ap-heatmap>
        <ap-heatmap key="heads" .head=${h} label=${headLabel(t, 'o / l', h)}
          .matrix=${onlineHead(t, h)} .rows=${tokens} .cols=${columns(heads[h])} .scale=${scale}></ap-heatmap>`;
      })}</div>
  </div>`;
}

/** o / l minus the standard head output, per head, on the outputs' own scale: what rounding
 *  leaves (about 1e−16) is drawn as the neutral colour it is. */
function onlineDifference([a, b]: Trace[]): TemplateResult {
  const tokens = a.tokens as string[];
  const deltas = (a.heads as Matrix[]).map((m, h) => onlineHead(b, h).map((row, i) => row.map((v, j) => v - m[i][j])));
  const largest = extent(deltas);
  const numbers = deltas.length * deltas[0].length * (deltas[0][0]?.length ?? 0);
  const moved = deltas.flat(2).filter((v) => Math.abs(v) > 0.005).length;
  return html`<div class="card diff">
    <h2>What changed: the online softmax's o / l minus the standard softmax(scores) · V</h2>
    <p class="summary" data-summary>${moved} of ${numbers} numbers moved by more than 0.005; the largest difference is ${short(largest)}.
      The same sums, added in another order: at most the last bits of a double differ.</p>
    <div class="matrices">${deltas.map((d, h) => html`<ap-heatmap key="difference" .head=${h} label=${headLabel(a, 'Δ head output', h)}
      .matrix=${d} .rows=${tokens} .cols=${columns(d)} .scale=${diverging(extent(a.heads))}></ap-heatmap>`)}</div>
  </div>`;
}

function onlineSides(s: State): Side[] {
  const block = Number(s.online_block) > 0 ? Number(s.online_block) : 2;
  return [{ label: 'standard softmax', state: { online_block: '' } }, { label: `online softmax, blocks of ${block}`, state: { online_block: block } }];
}

export const CURRENT_AXES: Record<'positional' | 'kv_heads' | 'online', CurrentAxis> = {
  positional: {
    sides: () => [{ label: 'sinusoidal', state: { positional: 'sinusoidal' } }, { label: 'RoPE (rotary)', state: { positional: 'rope' } }],
    why: 'Sinusoidal encoding adds a pattern of the position to X, so it reaches the queries, keys and values, and a score depends on where each of the two tokens stands. RoPE (Llama, Mistral, Gemma) rotates each pair of columns of q and k by an angle proportional to the position, after the projection, and leaves V alone: a score then depends on the positions only through their distance i − j.',
    controls: ['rope_style', 'rope_base'],
    hides: ['positional'],
  },
  kv_heads: {
    sides: kvSides,
    why: 'In multi-head attention (MHA) every query head has its own key and value head. In grouped-query attention (GQA: Llama 2 70B, Llama 3, Mistral) the query heads of a group share one, and in multi-query attention (MQA) all of them share a single one: the KV cache a decoder keeps shrinks by that factor. Here every side has the same X, W_q and W_o, and each group\'s shared key/value head is the one its first query head had under MHA (its columns of W_k and W_v), so the first head of each group is unchanged and the others now read their group\'s keys and values.',
    controls: ['d_k'],
    difference: kvDifference,
  },
  online: {
    sides: onlineSides,
    why: 'FlashAttention computes exactly the same attention without ever holding the n × n weights: it visits the keys a block at a time and keeps, per query, the running maximum m, the running sum l and the running output o, rescaling them when the maximum rises. After the last block o / l is the output, so the two sides agree to the last bits of a double; what it saves is memory (and trips to it), not arithmetic.',
    controls: ['online_block', 'mask'],
    side: onlineSide,
    difference: onlineDifference,
  },
};
