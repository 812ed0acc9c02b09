// <ap-online-stepper>: FlashAttention's online softmax, one key block at a time, from the
// trace's `online` entries. Per query row: the running maximum m and the running sum l (and the
// factor that rescaled what was summed before, when the maximum rose), the running output o,
// and o / l, whose difference from the head's output (trace.heads) shrinks to 0 at the last
// block. The only arithmetic here is that difference (o / l is the core's), to show the convergence.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { diverging, extent, full, short, type Scale } from '../shared/colour.js';
import { Stepper, stepperBar, STEPPER_STYLES } from './stepper.js';
import './heatmap.js';
import type { Matrix, OnlineBlock, SelfTrace } from '../../core/attention.js';

/** What one block shows beside its o: o / l, its difference from the head's output, and where
 *  a row has seen a key (0: drawn masked), each n x d_v. */
interface Shown { ratio: Matrix; delta: Matrix; seen: Matrix }

function shownOf(b: OnlineBlock, head: Matrix): Shown {
  const seen = b.o.map((row, i) => row.map(() => (b.m[i] === null ? 0 : 1)));
  const ratio = b.out;
  const delta = ratio.map((row, i) => row.map((v, j) => (seen[i][j] ? v - head[i][j] : 0)));
  return { ratio, delta, seen };
}

/** The largest |o / l − head| of a block over the rows that have seen a key, read without
 *  keeping any matrix. */
function worstOf(b: OnlineBlock, head: Matrix): number {
  let worst = 0;
  b.out.forEach((row, i) => {
    if (b.m[i] === null) return;
    row.forEach((v, j) => { worst = Math.max(worst, Math.abs(v - head[i][j])); });
  });
  return worst;
}

export class OnlineStepper extends LitElement {
  static properties = { trace: { attribute: false }, head: { state: true }, start: { type: Number } };

  trace: SelfTrace | null = null;
  start = 0;  // the block to open on (a shared link's), from 0
  head = 0;
  stepper = new Stepper(this);
  // Per trace and head: the blocks' largest differences, each worked out when the stepper first
  // reaches its block (at 512 tokens in blocks of one key a head has 512 blocks of n x d_v: built
  // all at once they held the page for seconds), and the colour scales, from the last block.
  private memo: { trace: SelfTrace; head: number; worst: number[]; range: { o: number; ratio: number; delta: number } } | null = null;

  /** The block on screen (0-based), for a page or a test to read. */
  get at() { return this.stepper.at; }

  protected willUpdate(changed: PropertyValues) {
    const online = this.trace?.online;
    if (changed.has('trace') && online && this.head >= online.length) this.head = 0;
    if (changed.has('trace') || changed.has('head')) this.stepper.reset(online?.[this.head]?.length ?? 0);
    if (changed.has('start') || (changed.has('trace') && changed.get('trace') == null)) this.stepper.at = Math.min(this.start, Math.max(0, this.stepper.count - 1));
  }

  private memoOf(t: SelfTrace) {
    if (this.memo?.trace !== t || this.memo.head !== this.head) {
      const blocks = (t.online as OnlineBlock[][])[this.head], head = t.heads[this.head];  // drawn only when there are blocks
      const first = worstOf(blocks[0], head);
      this.memo = { trace: t, head: this.head, worst: [first],
        range: { o: extent(blocks[blocks.length - 1].o), ratio: extent(head), delta: first } };
    }
    const memo = this.memo, blocks = (t.online as OnlineBlock[][])[this.head], head = t.heads[this.head];
    for (let k = memo.worst.length; k <= this.stepper.at; k++) memo.worst.push(worstOf(blocks[k], head));
    return memo;
  }

  static styles = [STEPPER_STYLES, css`
    .top { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 0.3rem 1rem; }
    .top label.head { margin-top: 0.3rem; }
    .top .stepper { flex: 1 1 20rem; }
    label.head { font-size: 0.85rem; display: flex; gap: 0.4rem; align-items: center; }
    select { font: inherit; font-size: 0.85rem; padding: 0.15rem 0.3rem; border: 1px solid var(--ap-line); border-radius: 6px; background: var(--ap-card); color: inherit; }
    .keys { display: flex; flex-wrap: wrap; gap: 0.3rem; margin: 0 0 0.7rem; align-items: center; }
    .keys .what { font-size: 0.8rem; color: var(--ap-muted); margin-right: 0.2rem; }
    .tok { font: 0.85rem var(--ap-mono); border: 1px solid var(--ap-line); border-radius: 6px; padding: 0.05rem 0.45rem; }
    .tok.seen { background: var(--ap-card); }
    .tok.current { border: 2px solid var(--ap-accent); font-weight: 700; }
    .tok.later { color: var(--ap-muted); border-style: dashed; }  /* a later block: dashed and muted, still readable */
    .rows { overflow: auto; max-height: 22rem; margin-bottom: 0.8rem; }
    table.stats { border-collapse: collapse; font: 0.8rem var(--ap-mono); font-variant-numeric: tabular-nums; }
    .stats th, .stats td { padding: 0.15rem 0.55rem; text-align: right; border-bottom: 1px solid var(--ap-line); white-space: nowrap; }
    .stats th:first-child { text-align: left; max-width: 8em; overflow: hidden; text-overflow: ellipsis; }
    .stats thead th { color: var(--ap-muted); font-weight: 600; position: sticky; top: 0; background: var(--ap-card); white-space: normal; vertical-align: bottom; }
    /* marked by a bar in the accent colour; the number keeps the text colour, which reads at 4.5:1 */
    .stats tr.rescaled td.rescale { font-weight: 700; box-shadow: inset 3px 0 0 var(--ap-accent); }
    .stats .was { color: var(--ap-muted); }
    .matrices { display: flex; flex-wrap: wrap; gap: 0.8rem 1.2rem; align-items: flex-start; }
    .converge { margin-top: 0.8rem; }
    .converge h3 { font-size: 0.9rem; margin: 0 0 0.3rem; }
    .bars { display: flex; align-items: flex-end; gap: 3px; height: 4.5rem; max-width: 100%; overflow-x: auto; padding-bottom: 2px; border-bottom: 1px solid var(--ap-line); }
    .bars .bar { flex: 0 0 auto; width: 1.4rem; background: var(--ap-muted); border-radius: 3px 3px 0 0; min-height: 2px; opacity: 0.5; }
    .bars .bar.current { background: var(--ap-accent); opacity: 1; }
    @media (prefers-reduced-motion: no-preference) { .bars .bar { transition: background-color 0.3s, opacity 0.3s; } }
    .fact { font: 0.85rem var(--ap-mono); margin: 0.4rem 0; }
  `];

  render() {
    const t = this.trace;
    const online = t?.online;
    if (!t || !online?.length) return nothing;
    const memo = this.memoOf(t), blocks = online[this.head];
    const s = this.stepper, b = s.at, block = blocks[b], before = b > 0 ? blocks[b - 1] : undefined;
    const shown = shownOf(block, t.heads[this.head]);
    // The colour ranges hold still from block to block, and widen to hold every block shown.
    const range = memo.range;
    range.o = Math.max(range.o, extent(block.o));
    range.ratio = Math.max(range.ratio, extent(shown.ratio));
    range.delta = Math.max(range.delta, extent(shown.delta));
    const scale = { o: diverging(range.o), ratio: diverging(range.ratio), delta: diverging(range.delta) };
    const worst = memo.worst, largest = Math.max(...worst) || 1;
    const tokens = t.tokens;
    const [start, end] = block.keys;
    const last = b === blocks.length - 1;
    const dv = block.o[0]?.length ?? 0;
    const cols = Array.from({ length: dv }, (_, j) => String(j));
    const group = t.kv_group?.[this.head];
    const where = `block ${b} (of 0 to ${blocks.length - 1}): keys ${start} to ${end - 1} (${tokens.slice(start, end).join(' ')})`;
    const unseen = shown.seen;
    const anyUnseen = block.m.some((m) => m === null);
    return html`
      <div class="top">
        ${online.length > 1 ? html`<label class="head">head <select data-action="head" @change=${(e: Event) => { s.pause(); this.head = Number((e.target as HTMLSelectElement).value); }}>
          ${online.map((_, h) => html`<option value=${h} ?selected=${h === this.head}>${h}</option>`)}</select></label>` : nothing}
        ${stepperBar(s, 'Key blocks', where)}
      </div>
      <div class="keys" aria-label="Keys by block"><span class="what">keys:</span>${tokens.map((w, i) => html`<span class="tok ${i < start ? 'seen' : i < end ? 'current' : 'later'}"
        title=${i < start ? 'visited in an earlier block' : i < end ? 'this block' : 'a later block'}>${w}</span>`)}</div>
      ${group !== undefined && online.length > 1 ? html`<p class="hint">Head ${this.head} reads key/value head ${group}.</p>` : nothing}
      <div class="rows" tabindex="0" role="region" aria-label="Running maximum, rescale and sum per query"><table class="stats" data-stats>
        <thead><tr><th scope="col">query</th><th scope="col">m: running max</th><th scope="col">rescale = exp(m_before − m)</th>
          <th scope="col">l: running sum</th><th scope="col">largest |o/l − head|</th></tr></thead>
        <tbody>${tokens.map((w, i) => {
          const m = block.m[i], m0 = before?.m[i] ?? null, l0 = before?.l[i];
          const rescaled = before !== undefined && m0 !== null && block.rescale[i] !== 1;
          const rowWorst = m === null ? null : extent(shown.delta[i]);
          return html`<tr class=${rescaled ? 'rescaled' : ''}>
            <th scope="row" title=${w}>${w}</th>
            <td title=${m === null ? 'no key seen yet' : full(m)}>${m0 !== null && m0 !== m ? html`<span class="was">${short(m0)} →</span> ` : nothing}${m === null ? '—' : short(m)}</td>
            <td class="rescale" title=${full(block.rescale[i])}>${m === null ? '—' : m0 === null ? 'first key' : short(block.rescale[i])}</td>
            <td title=${full(block.l[i])}>${l0 !== undefined && l0 !== block.l[i] && m0 !== null ? html`<span class="was">${short(l0)} →</span> ` : nothing}${m === null ? '—' : short(block.l[i])}</td>
            <td>${rowWorst === null ? '—' : short(rowWorst)}</td></tr>`;
        })}</tbody>
      </table></div>
      <div class="matrices">
        <ap-heatmap key="online_o" label="o: running output" caption="Σ exp(logit − m) · v, not yet divided"
          .matrix=${block.o} .rows=${tokens} .cols=${cols} .scale=${scale.o} .masked=${anyUnseen ? unseen : undefined}></ap-heatmap>
        <ap-heatmap key="online_ratio" label="o / l" caption="the output if the keys stopped here"
          .matrix=${shown.ratio} .rows=${tokens} .cols=${cols} .scale=${scale.ratio} .masked=${anyUnseen ? unseen : undefined}></ap-heatmap>
        <ap-heatmap key="online_head" label="head ${this.head} output" caption="softmax(scores) · V, all keys at once"
          .matrix=${t.heads[this.head]} .rows=${tokens} .cols=${cols} .scale=${scale.ratio}></ap-heatmap>
        <ap-heatmap key="online_delta" label="o / l − head" caption=${last ? 'the last block: 0 up to rounding' : 'shrinks as blocks are added'}
          .matrix=${shown.delta} .rows=${tokens} .cols=${cols} .scale=${scale.delta} .masked=${anyUnseen ? unseen : undefined}></ap-heatmap>
      </div>
      <div class="converge">
        <h3>Largest |o / l − head| after each block</h3>
        <div class="bars" role="img" aria-label="Largest difference after each block so far: ${worst.map((w) => short(w)).join(', ')}">
          ${worst.map((w, k) => html`<div class="bar ${k === b ? 'current' : ''}" title="block ${k}: ${full(w)}"
            style="height: ${Math.max(2, (100 * w) / largest)}%"></div>`)}
        </div>
        <p class="fact" data-worst>after block ${b}: ${short(worst[b])}${last ? ' — o / l is the head’s output (what is left is the last bits of a double: the same terms, added in another order)' : ''}</p>
      </div>
      <p class="hint">The online softmax never holds a row of n weights: it keeps m, l and o per query and visits the keys a block at a time.
        When a block raises a row's maximum, what was summed so far is multiplied by exp(m_before − m) (highlighted), so every term ends up relative to the same maximum.
        ${anyUnseen ? 'Rows marked — have not seen a key they may attend to yet.' : ''}</p>`;
  }
}

customElements.get('ap-online-stepper') || customElements.define('ap-online-stepper', OnlineStepper);
