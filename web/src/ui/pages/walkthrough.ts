// The walkthrough of one playground element: each step's card with the matrices it shows, a
// matrix or step alone (view="..."), Follow one token, and the derivation of a clicked cell. The
// views are chosen by the trace's keys (the steps' table, ui/views/steps.ts); the numbers are the
// core's, drawn as they are.
import { html, nothing, type LitElement } from 'lit';
import { PACKED, lazyRows, type Packed } from '../../core/packed.js';
import { ENCODER_DECODER_STEPS, SELF_STEPS, type Step } from '../views/steps.js';
import { diverging, extent, full, short, type Scale } from '../shared/colour.js';
import { scaleOf } from '../shared/ranges.js';
import { nearUniform } from '../shared/uniform.js';
import { OWN_ROWS, embeddingNote } from '../shared/embed-note.js';
import { captionOf, rowOf, type Mode } from '../../state/trace-schema.js';
import type { DrawHeatmap } from '../views/draw.js';
import { modern } from './later-views.js';
import { WORDS } from './playground-words.js';
import { layerOf, modelStep, nextCard, overview } from './model-panels.js';
import type { AttentionPlayground } from './playground.js';

type Json = Record<string, any>;
type Matrix = number[][];
interface Derived { raw: Matrix[] | null; factor: number; visible: Matrix }
const derivedOf = new WeakMap<Json, Derived>();

/** m ÷ factor, each row divided when it is first read: at 512 tokens and 4 heads that is a
 *  million numbers, and a heatmap off screen does not read its rows until it is drawn. */
function dividedLazily(m: Matrix, factor: number): Matrix {
  const out: Matrix = lazyRows(m.length, (i) => m[i].map((v) => v / factor));
  const packed = (m as Matrix & { [PACKED]?: Packed })[PACKED];
  // (on top of m's own: its numbers may move, from the wasm memory to their copy)
  if (packed) Object.defineProperty(out, PACKED, { value: Object.create(packed, { factor: { value: packed.factor * factor } }) });
  return out;
}

// ---------------------------------------------------------------- views
function heatmap(el: AttentionPlayground, key: string, matrix: Matrix, opts: { head?: number; label?: string; rows?: string[]; cols?: string[]; masked?: Matrix; scale?: Scale; caption?: string } = {}) {
  const t = el.shownTrace!;
  const sel = el.selected && el.selected.key === key && el.selected.head === (opts.head ?? 0)
    ? [el.selected.row, el.selected.col] as [number, number] : undefined;
  const lit = el.lit.get(key) ?? el.lit.get(`${key}@${opts.head ?? 0}`);
  const error = el.error && el.error.field === key ? el.error.message : '';
  if (error) el.errorShown = true;
  const instead = el.substituted.includes(key) ? ` Yours was not kept: shown here and used in every step is the seed's ${key}.` : '';
  const tokens = t.tokens as string[];
  const scale = opts.scale ?? scaleOf(t, key);
  // The picture file is coloured as the heatmap is at the moment it is asked for (row-relative or not).
  const relative = (e: Event) => Boolean((e.target as HTMLElement).closest('.matrix')?.querySelector('ap-heatmap')?.hasAttribute('relative'));
  // key as an attribute: a heatmap not drawn yet reflects none, and is still found by its key
  return html`<div class="matrix">
    <ap-heatmap key=${key} .label=${opts.label ?? key} .matrix=${matrix} .head=${opts.head ?? 0} .caption=${opts.caption ?? ''}
      .rows=${opts.rows ?? tokens} .cols=${opts.cols ?? []} .masked=${opts.masked} .scale=${scale} .selected=${sel} .lit=${lit}
      .relative=${el.relative === true} ?editable=${el.editable(key)} ?clickable=${['scores', 'weights', 'output'].includes(key)} ?highlight=${el.highlighted.includes(key)}></ap-heatmap>
    ${el.handouts.exportMenu((f, e) => el.handouts.exportMatrix(f, {
      label: opts.label ?? key, matrix, rows: opts.rows ?? tokens, cols: opts.cols ?? [],
      scale, relative: relative(e), masked: opts.masked,
    }, (opts.label ?? key).replace(/[^\w]+/g, '_')))}
    ${el.editable(key) && Object.hasOwn(el.overrides, key) ? html`<button class="small" @click=${() => el.resetMatrix(key)}>reset ${key} to the seed</button>` : nothing}
    ${error ? html`<div class="message" role="alert">${error}${instead}</div>` : nothing}
  </div>`;
}

function perHead(el: AttentionPlayground, key: string, stack: Matrix[], opts: { cols?: string[]; scale?: Scale; masked?: Matrix; caption?: string; name?: string } = {}) {
  const name = opts.name ?? key;
  return stack.map((m, h) => heatmap(el, key, m, { ...opts, head: h, label: stack.length > 1 ? `${name} · head ${h}` : name }));
}

// A vector of encoder-decoder attention is one row, named for what it is: the decoder state h
// (and its scores and weights over the annotations), the context c, the output y.
const ONE_ROW: Record<string, string> = { decoder_state: 'h', scores: 'h', weights: 'h', context: 'c', output: 'y' };

/** An entry drawn as its row of the schema says: a stack of heads (its shape begins with
 *  heads) one heatmap per head; over the keys (its last term is m) with the source's tokens as
 *  columns and the mask hatched; its rows the tokens, the source's, or numbered (a weight
 *  matrix); a vector as one row. Nothing where the trace does not hold it. */
function byRow(el: AttentionPlayground, mode: Mode, key: string, t: Json): unknown {
  const row = rowOf(mode, key);
  if (!row || !Object.hasOwn(t, key)) return nothing;
  const terms = row.shape ? row.shape.split(' x ') : [];
  const tokens = t.tokens as string[], sources = (t.source_tokens ?? tokens) as string[];
  const overKeys = terms[terms.length - 1] === 'm';
  const opts = { caption: captionOf(mode, key), cols: overKeys ? sources : undefined, masked: overKeys && mode === 'self' ? t.mask : undefined };
  if (terms.length === 3 && terms[0] === 'heads') return perHead(el, key, t[key], opts);
  const m = (terms.length === 1 ? [t[key]] : t[key]) as Matrix;
  const rows = terms.length === 1 ? [ONE_ROW[key] ?? key]
    : row.rows === 'tokens' ? tokens : row.rows === 'source' ? sources
    : Array.from({ length: m.length }, (_, i) => String(i));  // not m.map: it would build every row
  return heatmap(el, key, m, { ...opts, rows });
}

/** The views of current models' attention: RoPE, ALiBi, grouped-query and cross-attention
 *  (undefined: the key is drawn as in any self-attention trace). */
function modernView(el: AttentionPlayground, key: string, t: Json): unknown {
  const draw: DrawHeatmap = (k, m, o) => heatmap(el, k, m, o);
  const sources = t.source_tokens as string[] | undefined;
  const views = modern;  // undefined until their code is in: their places stay empty
  switch (key) {
    case 'rope_angles': return t.rope_angles && views ? views.ropeAngles(t, draw) : nothing;
    case 'rope': return t.Q_rope && views ? views.ropePairs(t, draw) : nothing;
    case 'alibi_slopes': return t.alibi_slopes && views ? views.alibiSlopes(t, draw) : nothing;
    case 'bias': return t.bias && views ? views.alibiBias(t, draw) : nothing;
    case 'kv_group': return t.kv_group && t.spec.kv_heads < t.spec.heads && views ? html`${views.gqaDiagram(t)}${views.gqaCosts(t)}` : nothing;
    case 'arcs': return sources ? html`<div class="matrix"><div class="arcs-title">arcs: the sentence over the source (hover a token)</div>
      <ap-cross-arcs .tokens=${t.tokens} .sources=${sources} .weights=${t.weights}></ap-cross-arcs></div>` : undefined;
    default: return undefined;
  }
}

function showSelf(el: AttentionPlayground, key: string): unknown {
  const t = el.shownTrace!;
  const tokens = t.tokens as string[];
  const mine = modernView(el, key, t);
  if (mine !== undefined) return mine;
  const keys = (t.source_tokens ?? tokens) as string[];  // the columns: the source's tokens in cross mode
  switch (key) {
    case 'raw_scores': return rawScores(el);
    case 'weights': return html`${randomNote(el)}${uniformHint(el, t)}${byRow(el, 'self', key, t)}`;
    case 'decode': return html`<ap-decode-stepper .trace=${t} .start=${el.stepAt}></ap-decode-stepper>`;
    case 'online': return html`<ap-online-stepper .trace=${t} .start=${el.blockAt}></ap-online-stepper>`;
    case 'mask': return t.mask ? heatmap(el, 'mask', t.mask, { cols: tokens, caption: '1 = visible, 0 = masked' })
      : heatmap(el, 'mask', derived(t).visible, { cols: keys, label: 'mask: none', caption: 'every token sees every token (all 1)' });
    case 'arcs': return html`<div class="matrix"><div class="arcs-title">${el.model ? `arcs of head ${el.focusHead}, layer ${el.layer} (hover a token)` : 'arcs (hover a token)'}</div>
      ${randomNote(el)}<ap-arcs .tokens=${tokens} .weights=${t.weights} .head=${el.model ? Math.min(el.focusHead, t.weights.length - 1) : -1}></ap-arcs>
      ${el.handouts.exportMenu((f, e) => el.handouts.exportArcs(f, e), ['png', 'svg'])}</div>`;
    default: return byRow(el, 'self', key, t);
  }
}

function showEncoderDecoder(el: AttentionPlayground, key: string): unknown {
  return byRow(el, 'encoder_decoder', key, el.shownTrace!);
}

/** Matrices the steps show that the trace does not hold, made once per trace: the scores
 *  before scaling (each score divided by scale ÷ temperature again) and, with no mask, the
 *  all-visible mask. */
function derived(t: Json): Derived {
  let d = derivedOf.get(t);
  if (!d) {
    const factor = t.scale / t.spec.temperature;
    const n = (t.tokens as string[]).length, m = ((t.source_tokens ?? t.tokens) as string[]).length;
    // Where the scores are no multiple of q·k (ALiBi's bias, a softcap), the core keeps raw_scores
    // itself: they are not divided back.
    const raw = factor !== 0 && Number.isFinite(factor) && t.spec.mode !== 'encoder_decoder' && !t.raw_scores
      ? (t.scores as Matrix[]).map((m) => dividedLazily(m, factor)) : null;
    const ones = new Array(m).fill(1);  // one row, shown n times: nothing reads it to write
    d = { raw, factor, visible: t.mask ? [] : Array.from({ length: n }, () => ones) };
    derivedOf.set(t, d);
  }
  return d;
}

/** Where the weights are near-uniform (a random model's are: every row's largest under 0.5),
 *  0 to 1 paints them all one dark colour: said right there, with the view that shows their
 *  ranking one click away. */
function uniformHint(el: AttentionPlayground, t: Json): unknown {
  if (el.relative !== null || !nearUniform(t.weights as Matrix[], t.mask as Matrix | undefined)) return nothing;
  return html`<p class="hint uniform">${WORDS.uniform}
    <button class="small" data-action="relative-all" @click=${() => (el.relative = true)}>${WORDS.relativeAll}</button></p>`;
}

/** The Score step's matrix: q·k (or the general or additive score) before it is scaled. */
function rawScores(el: AttentionPlayground) {
  const t = el.shownTrace!;
  const { raw, factor } = derived(t);
  const tokens = (t.source_tokens ?? t.tokens) as string[];
  const name = t.spec.score === 'general' ? 'q W_a kᵀ' : t.spec.score === 'additive' ? 'additive score' : 'q·kᵀ';
  if (t.raw_scores) {
    // With ALiBi's bias or a softcap the scores are no multiple of q·k: the core gives q·k itself.
    const then = [t.bias ? '+ the bias' : '', t.spec.softcap ? 'capped' : ''].filter(Boolean).join(', then ');
    return perHead(el, 'raw_scores', t.raw_scores, { cols: tokens, masked: t.mask, scale: diverging(extent(t.raw_scores)), name,
      caption: `before scaling; the scores are these × ${short(factor)} ${then}` });
  }
  if (!raw) return html`<p class="hint">The scale ÷ temperature is ${full(factor)}, so the scores before it cannot be shown apart; the Scale step shows the scores.</p>`;
  const scale = diverging((scaleOf(t, 'scores') as { m: number }).m / Math.abs(factor));
  return perHead(el, 'raw_scores', raw, { cols: tokens, masked: t.mask, scale, name,
    caption: factor === 1 ? 'before scaling (× 1: the same as the scores)' : `before scaling: scores ÷ ${short(factor)}` });
}

export function stepDef(el: AttentionPlayground): Step | undefined {
  return steps(el).find((s) => s.id === el.step);
}

export function steps(el: AttentionPlayground): Step[] {
  const ed = el.tracedMode();
  return (ed ? ENCODER_DECODER_STEPS : SELF_STEPS).filter((s) => ed || s.id !== 'sublayer' || el.shownTrace?.spec?.residual)
    .filter((s) => !s.needs || el.shownTrace?.[s.needs] !== undefined);
}

export function stepView(el: AttentionPlayground, given: Step, i: number) {
  const ed = el.tracedMode();
  const t = el.shownTrace!;
  const s = el.model ? { ...given, ...modelStep(el, given.id) } : given;
  const embedding = s.id === 'embed' && !ed && !el.model ? embeddingNote(el.traced) : '';
  const extra = s.id === 'scale' && !ed
    ? html`<p class="fact">scale = ${full(t.scale)}${t.spec.temperature !== 1 ? html`, temperature = ${full(t.spec.temperature)}` : nothing}${t.spec.softcap ? html`, softcap = ${full(t.spec.softcap)}: logits = softcap · tanh((score × scale + bias) ÷ softcap)` : nothing}</p>` : nothing;
  const deriving = derives(el, s);
  return html`<section class="step ${deriving ? 'deriving' : ''}" part="card" id="step-${s.id}" tabindex="-1"
      @mouseenter=${() => (el.step = s.id)} @mouseleave=${() => (el.step = '')} @focusin=${() => (el.step = s.id)}>
    <h2><span class="num">${i + 1}</span> ${s.title}</h2>
    <p class="formula">${s.formula}</p>
    <p class="about">${s.id === 'embed' && !ed && el.traced.X ? OWN_ROWS : s.text}</p>${extra}${t.source_tokens && modern ? modern.crossNote(s.id) : nothing}
    <div class="body ${deriving ? 'deriving' : ''}">
      <div class="matrices">${s.shows.map((k) => (ed ? showEncoderDecoder(el, k) : showSelf(el, k)))}</div>
      ${deriving ? derivationPanel(el) : nothing}
    </div>
    ${embedding ? html`<p class="hint embed-note">${embedding}</p>` : nothing}
  </section>`;
}

/** The derivation on screen explains a cell of this step. */
export function derives(el: AttentionPlayground, s: Step): boolean {
  return Boolean(el.derivation && el.selected && s.shows.includes(el.selected.key));
}

/** What `view` may name for the trace on screen: a step, a matrix a step shows, "arcs", or
 *  (self-attention) "flow". */
export function views(el: AttentionPlayground): string[] {
  return [...steps(el).flatMap((s) => [s.id, ...s.shows]), ...(el.tracedMode() ? [] : ['flow']), ...(el.model ? ['heads', 'overview', 'next'] : [])];
}

/** The `view` attribute when it names one of views(), else '' (every step is shown). */
export function chosenView(el: AttentionPlayground): string {
  return views(el).includes(el.view) ? el.view : '';
}

export function single(el: AttentionPlayground, view: string): unknown {
  if (view === 'overview' || view === 'heads') return overview(el);
  if (view === 'next') return nextCard(el);
  // a view of one layer of the trained model says which (and which head, where it follows one)
  const layer = el.model ? html`<p class="hint layer-of">${layerOf(el, view === 'flow')}</p>` : nothing;
  return html`${layer}${singleView(el, view)}`;
}

function singleView(el: AttentionPlayground, view: string): unknown {
  if (view === 'flow') return flowView(el);
  const step = steps(el).find((s) => s.id === view);
  if (step) return stepView(el, step, steps(el).indexOf(step));
  const ed = el.tracedMode();
  const deriving = Boolean(el.derivation && el.selected?.key === view);
  return html`<div class="body ${deriving ? 'deriving' : ''}">
    <div class="matrices">${ed ? showEncoderDecoder(el, view) : showSelf(el, view)}</div>
    ${deriving ? derivationPanel(el) : nothing}</div>`;
}

/** How the clicked number came to be, beside the matrices it reads (or under them, or in a
 *  sheet at the bottom of a phone's screen: see the styles). */
function derivationPanel(el: AttentionPlayground) {
  const close = () => { el.derivation = null; el.selected = null; };
  return html`<div class="derivation" part="derivation" role="region" aria-label="How this number is computed" aria-live="polite"
      @keydown=${(e: KeyboardEvent) => { if (e.key === 'Escape') close(); }}>
    <button class="small close" aria-label="Close the derivation" @click=${close}>close</button>
    <ap-derivation .derivation=${el.derivation} .tokens=${el.shownTrace!.source_tokens ?? el.shownTrace!.tokens} .group=${el.shownTrace!.kv_group ?? []}></ap-derivation></div>`;
}

/** Follow one token: its own card on the full page, or the whole element with view="flow". */
export function flowView(el: AttentionPlayground) {
  if (el.tracedMode()) return nothing;
  return html`<section class="step flow ${el.view === 'flow' ? 'alone' : ''}" part="card" id="step-flow" tabindex="-1">
    <h2>Follow one token${el.model ? `: layer ${el.layer}` : ''}</h2>
    <p class="about">${el.view === 'flow' ? 'One query’s path through one head, with the real numbers: pick a token to follow.'
      : 'One query’s path through one head, with the numbers of the steps above: pick a token here, in the tokens at the top, or by its row’s label in any matrix.'}</p>
    ${randomNote(el)}
    <ap-flow .trace=${el.shownTrace} .token=${el.focusToken} .head=${el.focusHead} ?eager=${el.view === 'flow'}
      @focus-token=${(e: CustomEvent) => el.follow(e.detail.index)} @focus-head=${(e: CustomEvent) => (el.focusHead = e.detail.index)}></ap-flow>
  </section>`;
}

/** Where an answer seems to show on random weights (the weights, the arcs, the flow), the
 *  page says it is none, with the trained model one click away. Not where the learner typed
 *  the weights, nor in encoder-decoder mode (its numbers are the learner's or the article's). */
export function randomNote(el: AttentionPlayground) {
  const t = el.shownTrace;
  if (el.model || !t || el.tracedMode() || (el.traced.W_q && el.traced.W_k)) return nothing;
  return html`<p class="random-note">${WORDS.random} <button class="small" data-action="open-model" @click=${el.openModel}>${WORDS.openModel}</button></p>`;
}

/** After a derivation opens: where it covers the page (a phone's bottom sheet), the page moves
 *  so the clicked cell stays above it; where it sits below the matrices, it is scrolled into
 *  sight as far as the clicked cell stays on screen. */
export async function revealDerivation(el: AttentionPlayground, sel: { key: string; head: number }) {
  // the steps draw after the page: the panel is in one of them
  await Promise.all(Array.from(el.renderRoot.querySelectorAll<LitElement>('ap-deferred-block'), (b) => b.updateComplete));
  const panel = el.renderRoot.querySelector<HTMLElement>('.derivation');
  const map = Array.from(el.renderRoot.querySelectorAll<HTMLElement & { head: number }>(`ap-heatmap[key="${sel.key}"]`))
    .find((m) => m.head === sel.head);
  if (!panel || !map) return;
  await (map as unknown as LitElement).updateComplete;
  const cell = map.shadowRoot?.querySelector('td.sel') ?? map;
  const c = cell.getBoundingClientRect(), p = panel.getBoundingClientRect();
  if (getComputedStyle(panel).position === 'fixed') {
    if (c.bottom + 12 > p.top) window.scrollBy({ top: c.bottom + 12 - p.top });
  } else if (p.bottom > innerHeight) {
    window.scrollBy({ top: Math.max(0, Math.min(p.bottom - innerHeight + 12, c.top - 12)) });
  }
}
