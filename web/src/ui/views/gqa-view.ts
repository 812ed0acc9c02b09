// Grouped-query attention, as the trace shows it: which query heads read which key/value head
// (trace.kv_group, drawn as query heads over the key/value heads they share), and what sharing
// saves: the parameters of the projections and the KV cache a decoder keeps per token, for
// multi-head, grouped-query and multi-query attention at the widths on screen. The counts are
// display arithmetic on the spec's widths; no attention is computed here.
import { html, svg } from 'lit';
import type { KvCost, SelfTrace } from '../../core/attention.js';
import type { Untyped } from '../../state/trace-schema.js';
import { count } from '../shared/count.js';

const GAP = 46, TOP = 22, BOTTOM = 92;

/** Query heads on top, key/value heads below, a line from each query head to the one it reads. */
export function gqaDiagram(given: SelfTrace | Untyped) {
  const group = (given as SelfTrace).kv_group;
  const heads = group.length, kv = Math.max(...group) + 1;
  const width = heads * GAP + 20;
  const qx = (i: number) => 10 + GAP / 2 + i * GAP;
  // Each key/value head sits under the middle of the query heads that read it.
  const kx = (g: number) => {
    const readers = group.flatMap((x, i) => (x === g ? [qx(i)] : []));
    return readers.reduce((a, b) => a + b, 0) / readers.length;
  };
  return html`<figure class="gqa">
    <svg viewBox="0 0 ${width} ${BOTTOM + 22}" width=${width} role="img"
      aria-label=${`${heads} query heads share ${kv} key/value ${kv === 1 ? 'head' : 'heads'}: ${group.map((g, i) => `query head ${i} reads key/value head ${g}`).join(', ')}`}>
      ${group.map((g, i) => svg`<line x1=${qx(i)} y1=${TOP + 9} x2=${kx(g)} y2=${BOTTOM - 11} class="link"></line>`)}
      ${group.map((_, i) => svg`<g class="q"><circle cx=${qx(i)} cy=${TOP} r="11"></circle><text x=${qx(i)} y=${TOP + 4}>q${i}</text></g>`)}
      ${Array.from({ length: kv }, (_, g) => svg`<g class="kv"><rect x=${kx(g) - 17} y=${BOTTOM - 11} width="34" height="22" rx="5"></rect>
        <text x=${kx(g)} y=${BOTTOM + 4}>kv${g}</text></g>`)}
    </svg>
    <figcaption>query heads (top) and the key/value head each reads (below): every ${heads / kv} query ${heads / kv === 1 ? 'head reads its own' : 'heads in a row share one'}</figcaption>
  </figure>`;
}

/** Bytes, written as a reader compares them: 960 B, 12.3 KB, 1.5 MB, 2 GB. */
function size(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let u = 0;
  while (bytes >= 1000 && u < units.length - 1) { bytes /= 1000; u++; }
  return `${u ? Number(bytes.toPrecision(3)) : bytes} ${units[u]}`;
}

const FP16 = 2;  // bytes a number

/** Parameters and KV cache of MHA, this GQA, and MQA at the spec's widths, as the core counts them. */
export function gqaCosts(given: SelfTrace | Untyped) {
  const t = given as SelfTrace;
  const { d_model: d, heads: h, kv_heads: current, d_k: dk, d_v: dv } = t.spec;
  const n = t.tokens.length;
  const CONTEXT = 4096;
  const TITLES: Record<string, string> = { MHA: 'multi-head attention: a key/value head per query head', GQA: 'grouped-query attention',
    MQA: 'multi-query attention: one key/value head for all' };
  const kinds = t.kv_costs.map((c) => ({ ...c, name: c.kv_heads === h ? 'MHA' : c.kv_heads === 1 ? 'MQA' : 'GQA' }))
    .map((c) => ({ ...c, title: TITLES[c.name] }));
  // One column per kind of attention, so the table stays narrow enough for a phone.
  const measures: Array<{ label: unknown; value: (c: KvCost) => number; show: (v: number) => string }> = [
    { label: html`parameters <small>W_q + W_k + W_v${t.W_o ? ' + W_o' : ''}</small>`, value: (c) => c.parameters, show: count },
    { label: html`KV cache per token <small>numbers</small>`, value: (c) => c.cache_per_token, show: count },
    { label: html`at fp16, ${n} ${n === 1 ? 'token' : 'tokens'}`, value: (c) => FP16 * n * c.cache_per_token, show: size },
    { label: html`at fp16, ${count(CONTEXT)} tokens`, value: (c) => FP16 * CONTEXT * c.cache_per_token, show: size },
  ];
  const now = (kv: number) => (kv === current ? 'now' : '');
  return html`<div class="costs">
    <p class="costs-title">What sharing saves at d_model ${d}, ${h} heads, d_k ${dk}, d_v ${dv} (one layer)</p>
    <table>
      <thead><tr><td></td>${kinds.map((k) => html`<th scope="col" class=${now(k.kv_heads)} title=${k.title}>${k.name}${k.kv_heads === current ? html`<br><small>on screen</small>` : ''}</th>`)}</tr></thead>
      <tbody>
        <tr><th scope="row">key/value heads</th>${kinds.map((k) => html`<td class=${now(k.kv_heads)}>${k.kv_heads}</td>`)}</tr>
        ${measures.map((m) => html`<tr><th scope="row">${m.label}</th>${kinds.map((k) => {
          const v = m.value(k);
          return html`<td class=${now(k.kv_heads)} data-kv=${k.kv_heads} data-value=${v}>${m.show(v)}</td>`;
        })}</tr>`)}
      </tbody>
    </table>
    <p class="how">W_q is d_model × heads·d_k; W_k and W_v are d_model × kv_heads·d_k (d_v); a decoder caches, per token and layer,
      one key and one value row per key/value head: kv_heads × (d_k + d_v) numbers, 2 bytes each at fp16.</p>
  </div>`;
}
