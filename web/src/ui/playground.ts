// <attention-playground>: the whole playground as one element. It owns the state (one table
// of settings, see state/settings.ts), asks the core for a trace on every change, and draws
// the walkthrough. It computes no attention math itself.
import { LitElement, css as style, html, nothing, type TemplateResult } from 'lit';
import { load, unpack, type AttentionCore, type Spec } from '../core/attention.js';
import { background } from '../core/background.js';
import { MATRIX_KEYS, SETTINGS, defaults, fromHash, parseValue, readEntries, startFrom, toHash, toSpec, type Reading, type SettingDef, type State } from '../state/settings.js';
import { PRESETS, type Preset } from '../state/presets.js';
import { ENCODER_DECODER_STEPS, SELF_STEPS, type Step } from './steps.js';
import { bounds, full } from './colour.js';
import { THEME } from './theme.js';
import { refusal, settingControl } from './control.js';
import { attributeOf, copyText, elementSnippet, iframeSnippet } from './share.js';
import { download, svgToPNG, toCSV, toJSON, toPNG, toSVG, type MatrixData } from './export.js';
import './heatmap.js';
import type { Arcs } from './arcs.js';
import './arcs.js';
import './derivation.js';

type Json = Record<string, any>;
type Matrix = number[][];
const EDITABLE = new Set<string>(MATRIX_KEYS);
const ERROR_HOME: Record<string, string> = { tokens: 'sentence', layer_norm: 'residual', d_v: 'd_k', d_a: 'd_k' };

// Attributes mirror the settings table (d_model -> d-model) and the editable matrices (W_q -> w-q).
const KEY_OF_ATTRIBUTE = new Map([...SETTINGS.map((d) => d.key), ...MATRIX_KEYS].map((k) => [attributeOf(k), k]));
// Traces past this many numbers are computed in a Web Worker (the page stays responsive);
// smaller ones on the spot, where the round trip would cost more than the run (at 128 tokens
// and 4 heads, about 200,000 numbers: 5 ms here, 20 ms through the worker).
const BACKGROUND_CELLS = 400_000;
function estimatedCells(spec: Spec): number {
  const n = spec.tokens?.length ?? (spec.sentence ?? '').split(/\s+/).length;
  const d = spec.d_model ?? 4, heads = spec.heads ?? 1;
  return 2 * heads * n * n + 8 * n * d;
}

const PRESENTATION = ['preset', 'view', 'controls', 'compact', 'share-url', 'script-url'];

export class AttentionPlayground extends LitElement {
  static properties = {
    state: { state: true }, overrides: { state: true }, trace: { state: true }, error: { state: true },
    inputErrors: { state: true }, derivation: { state: true }, selected: { state: true }, step: { state: true },
    note: { state: true }, ready: { state: true }, loadError: { state: true }, theme: { type: String, reflect: true },
    view: { type: String }, controls: { type: String }, compact: { type: Boolean, reflect: true },
    shareText: { state: true }, numpyText: { state: true }, busy: { state: true },
  };

  static get observedAttributes() {
    return [...super.observedAttributes, ...KEY_OF_ATTRIBUTE.keys(), ...PRESENTATION];
  }

  state: State = defaults();
  overrides: Partial<Spec> = {};
  trace: Json | null = null;
  error: { field: string; message: string } | null = null;
  inputErrors: Record<string, string> = {};
  derivation: Json | null = null;
  selected: { key: string; head: number; row: number; col: number } | null = null;
  step = '';
  note = '';
  ready = false;
  loadError = '';
  theme: 'auto' | 'light' | 'dark' = 'auto';
  view = '';           // one step id, trace key or "arcs" to show alone
  controls = 'all';    // "all", "none", or a comma list of setting keys
  compact = false;
  shareText = '';
  numpyText = '';
  busy = false;        // a large trace is being computed in the background
  private computed = 0;  // the latest compute() call: older answers are dropped
  private core: AttentionCore | null = null;
  private useHash = false;
  private hashTimer: ReturnType<typeof setTimeout> | undefined;
  private pending = false;
  private highlighted: string[] = [];  // matrices the hovered step uses, set at each render

  connectedCallback() {
    super.connectedCallback();
    // The full-window page keeps its state in the URL hash; embedded copies use attributes.
    this.useHash = this.hasAttribute('use-hash');
    this.readAttributes();
    if (this.useHash && location.hash.length > 1) this.readHash();
    if (this.useHash) window.addEventListener('hashchange', this.onHashChange);
    load().then((core) => {
      this.core = core;
      this.ready = true;
      this.compute();
    }, (e) => { this.loadError = `The attention core could not be loaded: ${e?.message ?? e}`; });
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.onHashChange);
    clearTimeout(this.hashTimer);
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null) {
    super.attributeChangedCallback(name, old, value);
    if (old === value || !this.isConnected) return;
    if (KEY_OF_ATTRIBUTE.has(name) || name === 'preset') {
      this.readAttributes();
      this.schedule();
    }
  }

  /** State from the element's attributes: a preset first, then each setting and matrix. */
  private readAttributes() {
    const preset = this.getAttribute('preset');
    const p = preset ? PRESETS.find((x) => x.id === preset) : undefined;
    const start = startFrom(p);
    if (preset && !p) start.problems.push(`preset "${preset.slice(0, 40)}" is not one of ${PRESETS.map((x) => x.id).join(', ')}`);
    const entries = Array.from(this.attributes).flatMap(({ name, value }): Array<[string, string, string]> => {
      const key = KEY_OF_ATTRIBUTE.get(name);
      return key ? [[key, value, name]] : [];
    });
    this.adopt(readEntries(entries, start), 'Some settings were not understood and were left at their defaults', p?.note);
  }

  /** Puts a reading (attributes, hash, preset) on screen, with a note on what was not understood. */
  private adopt(r: Reading, problem: string, note = '') {
    this.state = r.state;
    this.overrides = r.overrides;
    this.note = r.problems.length ? `${problem}: ${r.problems.join('; ')}.` : note;
  }

  /** Many attributes change at once while a page parses: recompute once after them. */
  private schedule() {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => { this.pending = false; this.compute(); });
  }

  /** The spec on screen now: what run(spec) is asked for. */
  get spec(): Spec { return toSpec(this.state, this.overrides); }

  private onHashChange = () => {
    if (location.hash.slice(1) !== toHash(this.state, this.overrides)) { this.readHash(); this.compute(); }
  };

  private readHash() {
    this.adopt(fromHash(location.hash), 'Some of the link was not understood and was left at its default');
  }

  private compute() {
    if (!this.core) return;
    const spec = this.spec;
    const id = ++this.computed;
    const here = () => unpack(this.core!.runPacked(spec));
    if (estimatedCells(spec) < BACKGROUND_CELLS) return this.show(spec, here());
    this.busy = true;
    background(this.core).run(spec).catch(here).then((result) => {
      if (result === null || id !== this.computed) return;  // a newer spec is on its way
      this.busy = false;
      this.show(spec, result);
    });
  }

  private show(spec: Spec, result: Json) {
    if (result.error) {
      this.error = result.error;  // keep the last good trace on screen
    } else {
      this.error = null;
      this.trace = result;
      if (this.selected) this.derive(this.selected);
    }
    if (this.useHash) {
      // Written when typing pauses: replaceState costs milliseconds, and browsers throttle it.
      clearTimeout(this.hashTimer);
      this.hashTimer = setTimeout(() => {
        const hash = toHash(this.state, this.overrides);
        if (location.hash.slice(1) !== hash) history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
      }, 150);
    }
    this.dispatchEvent(new CustomEvent('trace', { detail: { spec, trace: this.error ? null : this.trace, error: this.error } }));
  }

  private derive(sel: { key: string; head: number; row: number; col: number }) {
    if (!this.core) return;
    const ed = this.tracedMode();
    this.derivation = this.core.derive({ spec: this.spec, matrix: sel.key as 'weights',
      head: sel.head, row: ed ? 0 : sel.row, col: sel.col }) as Json;
  }

  private set(def: SettingDef, text: string) {
    const value = parseValue(def, text);
    const errors = { ...this.inputErrors };
    if (value === undefined) {
      errors[def.key] = refusal(def);
      this.inputErrors = errors;
      return;
    }
    delete errors[def.key];
    this.inputErrors = errors;
    this.state = { ...this.state, [def.key]: value };
    if (def.key === 'sentence' || def.key === 'mode') this.selected = null, this.derivation = null;
    this.compute();
  }

  private applyPreset(p: Preset) {
    this.adopt(readEntries([], startFrom(p)), '', p.note);
    this.inputErrors = {};
    this.selected = null;
    this.derivation = null;
    this.compute();
  }

  private onCellSelect(e: CustomEvent) {
    const d = e.detail;
    if (!['scores', 'weights', 'output'].includes(d.key)) return;
    this.selected = { key: d.key, head: d.head, row: d.row, col: d.col };
    this.derive(this.selected);
  }

  private onCellEdit(e: CustomEvent) {
    const { key, row, col, value } = e.detail;
    if (!this.trace || !EDITABLE.has(key)) return;
    const vector = key === 'decoder_state';
    const current = (vector ? [this.trace[key]] : this.trace[key]) as Matrix;
    const next = current.map((r) => [...r]);
    next[row][col] = value;
    this.overrides = { ...this.overrides, [key]: vector ? next[0] : next };
    this.compute();
  }

  private resetMatrix(key: string) {
    const next = { ...this.overrides } as Json;
    delete next[key];
    this.overrides = next;
    this.compute();
  }

  private link(): string {
    const hash = toHash(this.state, this.overrides);
    const base = this.getAttribute('share-url') ?? (this.useHash ? location.href.split('#')[0] : new URL('./', document.baseURI).href);
    return `${base}#${hash}`;
  }

  private snippet(): string {
    const matrices = Object.entries(this.overrides).map(([k, v]) => `${attributeOf(k)}='${JSON.stringify(v)}'`);
    const script = this.getAttribute('script-url') ?? new URL('./attention-playground.js', document.baseURI).href;
    return elementSnippet('attention-playground', script, SETTINGS, this.state, matrices);
  }

  private async share() {
    const url = this.link();
    this.shareText = url;
    this.numpyText = '';
    this.note = (await copyText(url)) ? 'Link copied.' : 'Copy the link below.';
  }

  private async embed() {
    const iframe = iframeSnippet(this.link(), 'Attention Playground', 720);
    this.shareText = `${iframe}\n\n${this.snippet()}`;
    this.numpyText = '';
    this.note = (await copyText(this.shareText)) ? 'Embed snippets copied: an <iframe>, or the element itself.' : 'Copy a snippet below.';
  }

  private async copyNumpy() {
    if (!this.core) return;
    const r = this.core.numpy(this.spec);
    if (typeof r !== 'string') return;
    this.numpyText = r;
    this.shareText = '';
    this.note = (await copyText(r)) ? 'NumPy program copied: it rebuilds every number on screen.' : 'Copy the NumPy program below.';
  }

  private async exportMatrix(format: string, data: MatrixData, file: string) {
    if (format === 'csv') download(`${file}.csv`, toCSV(data), 'text/csv');
    if (format === 'json') download(`${file}.json`, toJSON(data), 'application/json');
    if (format === 'svg') download(`${file}.svg`, toSVG(data), 'image/svg+xml');
    if (format === 'png') download(`${file}.png`, await toPNG(data));
  }

  private async exportArcs(format: string, e: Event) {
    const arcs = (e.target as HTMLElement).closest('.matrix')?.querySelector<Arcs>('ap-arcs');
    arcs?.flush();  // drawn now, if it put off the latest weights
    const svg = arcs?.shadowRoot?.querySelector('svg');
    if (!svg) return;
    const clone = svg.cloneNode(true) as SVGSVGElement;
    clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    clone.setAttribute('font-family', 'monospace');
    clone.setAttribute('font-size', '13');
    const text = new XMLSerializer().serializeToString(clone);
    if (format === 'svg') download('arcs.svg', text, 'image/svg+xml');
    else download('arcs.png', await svgToPNG(text, svg.viewBox.baseVal.width, svg.viewBox.baseVal.height));
  }

  private exportMenu(onPick: (format: string, e: Event) => void, formats = ['png', 'svg', 'csv', 'json']) {
    return html`<details class="export"><summary>export</summary>
      ${formats.map((f) => html`<button class="small" data-format=${f} @click=${(e: Event) => onPick(f, e)}>${f.toUpperCase()}</button>`)}
      <button class="small" data-format="numpy" @click=${this.copyNumpy}>Copy as NumPy</button></details>`;
  }

  private newSeed() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    this.set(SETTINGS.find((s) => s.key === 'seed')!, String(seed));
  }

  // ---------------------------------------------------------------- controls
  private control(def: SettingDef): TemplateResult | typeof nothing {
    if (def.modes && !def.modes.includes(this.state.mode as 'self')) return nothing;
    if (def.key === 'window' && this.state.mask !== 'window') return nothing;
    const home = this.error && (ERROR_HOME[this.error.field] ?? this.error.field) === def.key ? this.error.message : '';
    const locked = def.key === 'd_model' && Boolean(this.overrides.X || this.overrides.annotations);
    return settingControl(def, {
      value: this.state[def.key], set: (text) => this.set(def, text), message: this.inputErrors[def.key] || home,
      disabled: locked, hint: locked ? 'set by your matrix' : '',
      extra: def.key === 'seed' ? html`<button class="small" @click=${this.newSeed} title="Draw a new random seed">new random</button>` : undefined,
    });
  }


  // ---------------------------------------------------------------- views
  private heatmap(key: string, matrix: Matrix, opts: { head?: number; label?: string; rows?: string[]; cols?: string[]; masked?: Matrix; range?: [number, number] } = {}) {
    const t = this.trace!;
    const sel = this.selected && this.selected.key === key && this.selected.head === (opts.head ?? 0)
      ? [this.selected.row, this.selected.col] as [number, number] : undefined;
    const error = this.error && this.error.field === key ? this.error.message : '';
    const tokens = t.tokens as string[];
    return html`<div class="matrix">
      <ap-heatmap .key=${key} .label=${opts.label ?? key} .matrix=${matrix} .head=${opts.head ?? 0}
        .rows=${opts.rows ?? tokens} .cols=${opts.cols ?? []} .masked=${opts.masked} .range=${opts.range} .selected=${sel}
        ?editable=${EDITABLE.has(key)} ?clickable=${['scores', 'weights', 'output'].includes(key)} ?highlight=${this.highlighted.includes(key)}></ap-heatmap>
      ${this.exportMenu((f) => this.exportMatrix(f, {
        label: opts.label ?? key, matrix, rows: opts.rows ?? tokens, cols: opts.cols ?? [],
        range: opts.range ?? bounds(matrix, opts.masked), masked: opts.masked,
      }, (opts.label ?? key).replace(/[^\w]+/g, '_')))}
      ${EDITABLE.has(key) && key in this.overrides ? html`<button class="small" @click=${() => this.resetMatrix(key)}>reset ${key} to the seed</button>` : nothing}
      ${error ? html`<div class="message" role="alert">${error}</div>` : nothing}
    </div>`;
  }

  private perHead(key: string, stack: Matrix[], opts: { cols?: string[]; range?: [number, number]; masked?: Matrix } = {}) {
    return stack.map((m, h) => this.heatmap(key, m, { ...opts, head: h, label: stack.length > 1 ? `${key} · head ${h + 1}` : key }));
  }

  /** A weight matrix, its rows numbered. */
  private weightMatrix(key: string) {
    const m = this.trace![key] as Matrix | undefined;
    return m ? this.heatmap(key, m, { rows: m.map((_, i) => String(i)) }) : nothing;
  }

  private showSelf(key: string): unknown {
    const t = this.trace!;
    const tokens = t.tokens as string[];
    switch (key) {
      case 'scores': return this.perHead('scores', t.scores, { cols: tokens, masked: t.mask });
      case 'weights': return this.perHead('weights', t.weights, { cols: tokens, masked: t.mask, range: [0, 1] });
      case 'heads': return this.perHead('heads', t.heads);
      case 'mask': return t.mask ? this.heatmap('mask', t.mask, { cols: tokens, range: [0, 1] }) : html`<p class="hint">No mask: every token sees every token.</p>`;
      case 'arcs': return html`<div class="matrix"><div class="arcs-title">arcs (hover a token)</div><ap-arcs .tokens=${tokens} .weights=${t.weights}></ap-arcs>
        ${this.exportMenu((f, e) => this.exportArcs(f, e), ['png', 'svg'])}</div>`;
      case 'W_q': case 'W_k': case 'W_v': case 'W_o': case 'W_a': case 'W_1': case 'W_2': return this.weightMatrix(key);
      default: return t[key] ? this.heatmap(key, t[key]) : nothing;
    }
  }

  private showEncoderDecoder(key: string): unknown {
    const t = this.trace!;
    const tokens = t.tokens as string[];
    switch (key) {
      case 'decoder_state': return this.heatmap('decoder_state', [t.decoder_state], { rows: ['h'] });
      case 'scores': return this.heatmap('scores', [t.scores], { rows: ['h'], cols: tokens });
      case 'weights': return this.heatmap('weights', [t.weights], { rows: ['h'], cols: tokens, range: [0, 1] });
      case 'context': return this.heatmap('context', [t.context], { rows: ['c'] });
      case 'output': return this.heatmap('output', [t.output], { rows: ['y'] });
      case 'W_c': case 'W_a': case 'W_1': case 'W_2': return this.weightMatrix(key);
      default: return t[key] ? this.heatmap(key, t[key]) : nothing;
    }
  }

  private stepDef(): Step | undefined {
    return this.steps().find((s) => s.id === this.step);
  }

  /** The trace on screen decides the views (it may be the last good one, of another mode). */
  private tracedMode(): boolean {
    return this.trace?.spec?.mode === 'encoder_decoder';
  }

  private steps(): Step[] {
    const ed = this.tracedMode();
    return (ed ? ENCODER_DECODER_STEPS : SELF_STEPS).filter((s) => ed || s.id !== 'sublayer' || this.trace?.spec?.residual);
  }

  private stepView(s: Step, i: number) {
    const ed = this.tracedMode();
    const t = this.trace!;
    const extra = s.id === 'scale' && !ed
      ? html`<p class="fact">scale = ${full(t.scale)}${t.spec.temperature !== 1 ? html`, temperature = ${full(t.spec.temperature)}` : nothing}</p>` : nothing;
    return html`<section class="step" id="step-${s.id}" tabindex="-1"
        @mouseenter=${() => (this.step = s.id)} @mouseleave=${() => (this.step = '')} @focusin=${() => (this.step = s.id)}>
      <h2><span class="num">${i + 1}</span> ${s.title}</h2>
      <p class="formula">${s.formula}</p>
      <p class="about">${s.text}</p>${extra}
      <div class="matrices">${s.shows.map((k) => (ed ? this.showEncoderDecoder(k) : this.showSelf(k)))}</div>
    </section>`;
  }

  private shown(def: SettingDef) {
    if (this.controls === 'all' || this.controls === '') return true;
    if (this.controls === 'none') return false;
    return this.controls.split(',').map((k) => k.trim()).includes(def.key);
  }

  private single(): unknown {
    const step = this.steps().find((s) => s.id === this.view);
    if (step) return this.stepView(step, this.steps().indexOf(step));
    const ed = this.tracedMode();
    return html`<div class="matrices">${ed ? this.showEncoderDecoder(this.view) : this.showSelf(this.view)}</div>`;
  }

  render() {
    this.highlighted = this.stepDef()?.uses ?? [];
    const shown = SETTINGS.filter((d) => this.shown(d));
    const controls = shown.map((d) => this.control(d));
    // An error is shown beside its control or matrix; one with neither goes above the views.
    const field = this.error?.field ?? '';
    const placed = shown.some((d) => d.key === (ERROR_HOME[field] ?? field)) || EDITABLE.has(field);
    const general = this.error && !placed ? this.error.message : '';
    const toolbar = html`<div class="tools">
      <button class="small" data-action="share" @click=${this.share}>Share</button>
      <button class="small" data-action="embed" @click=${this.embed}>Embed</button>
      <button class="small" data-action="numpy" @click=${this.copyNumpy}>Copy as NumPy</button></div>`;
    return html`
      ${this.compact ? nothing : html`<div class="header">
        <div class="title" role="heading" aria-level="2">Attention Playground</div>
        <nav class="presets" aria-label="Worked examples">
          ${PRESETS.map((p) => html`<button class="preset" data-preset=${p.id} @click=${() => this.applyPreset(p)}>${p.label}</button>`)}
        </nav>${toolbar}
      </div>`}
      <div class="layout ${controls.length ? '' : 'bare'}">
        ${controls.length ? html`<div class="controls" role="group" aria-label="Settings">${controls}</div>` : nothing}
        <div class="views" @cell-select=${this.onCellSelect} @cell-edit=${this.onCellEdit}>
          ${this.compact ? toolbar : nothing}
          ${this.note ? html`<p class="note" role="status">${this.note}</p>` : nothing}
          ${this.shareText ? html`<textarea class="share" readonly rows=${this.shareText.split('\n').length + 1} aria-label="Link or snippet to copy">${this.shareText}</textarea>` : nothing}
          ${this.numpyText ? html`<textarea class="share numpy" readonly rows="12" aria-label="NumPy program">${this.numpyText}</textarea>` : nothing}
          ${this.loadError ? html`<p class="message" role="alert">${this.loadError}</p>` : nothing}
          ${general ? html`<p class="message" role="alert">${general}</p>` : nothing}
          ${this.trace?.warnings?.length ? html`<p class="note">${this.trace.warnings.join(' ')}</p>` : nothing}
          ${!this.ready && !this.loadError ? html`<p class="hint">Loading the attention core…</p>` : nothing}
          <p class="hint" role="status">${this.busy ? 'Computing the new trace in the background…' : ''}</p>
          ${this.trace ? html`
            ${this.view ? nothing : html`<div class="tokens" aria-label="Tokens">${(this.trace.tokens as string[]).map((t, i) => html`<span class="token" title="position ${i}">${t}</span>`)}</div>`}
            <div class="derivation ${this.derivation ? 'open' : ''}" aria-live="polite">${this.derivation ? html`<button class="small close" aria-label="Close the derivation" @click=${() => { this.derivation = null; this.selected = null; }}>close</button>` : nothing}<ap-derivation .derivation=${this.derivation} .tokens=${this.trace.tokens}></ap-derivation></div>
            <div class=${this.error ? 'stale' : ''}>${this.view ? this.single() : this.steps().map((s, i) => this.stepView(s, i))}</div>` : nothing}
        </div>
      </div>`;
  }

  static styles = [THEME, style`
    .presets { display: flex; flex-wrap: wrap; gap: 0.4rem; }
    .layout { display: grid; grid-template-columns: 260px minmax(0, 1fr); min-height: calc(100vh - 60px); }
    .controls { padding: 0.8rem 1rem; border-right: 1px solid var(--ap-line); display: flex; flex-direction: column; gap: 0.55rem; }
    .views { padding: 0.8rem 1rem 3rem; min-width: 0; }
    .tokens { display: flex; flex-wrap: wrap; gap: 0.3rem; margin-bottom: 0.8rem; }
    .token { font-family: var(--ap-mono); font-size: 0.85rem; background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 6px; padding: 0.1rem 0.45rem; }
    .derivation { padding: 0.2rem 0.9rem; margin-bottom: 0.6rem; }
    .close { float: right; }
    .derivation.open { position: sticky; top: 0; z-index: 1; background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 10px; padding: 0.6rem 0.9rem; margin-bottom: 1rem; max-height: 40vh; overflow: auto; }
    .step { background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 12px; padding: 0.7rem 1rem 0.9rem; margin-bottom: 0.9rem;
      content-visibility: auto; contain-intrinsic-size: auto 420px; }  /* steps off screen skip layout and paint */
    .step h2 { font-size: 1.05rem; margin: 0 0 0.2rem; display: flex; align-items: center; gap: 0.5rem; }
    .num { display: inline-grid; place-items: center; width: 1.6em; height: 1.6em; border-radius: 50%; background: var(--ap-fg); color: var(--ap-bg); font-size: 0.8rem; }
    .formula { font-family: var(--ap-mono); font-size: 0.88rem; margin: 0.2rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
    .about { margin: 0.2rem 0 0.6rem; max-width: 70ch; color: var(--ap-muted); }
    .fact { font-family: var(--ap-mono); font-size: 0.85rem; }
    .matrices { display: flex; flex-wrap: wrap; gap: 0.8rem 1.2rem; align-items: flex-start; }
    .matrix { max-width: 100%; }
    .arcs-title { font: 600 0.85rem var(--ap-mono); }
    .stale { opacity: 0.45; }
    .tools { display: flex; gap: 0.4rem; margin-left: auto; }
    .views > .tools { margin: 0 0 0.5rem; justify-content: flex-end; }
    details.export { font-size: 0.78rem; margin-top: 2px; }
    details.export summary { cursor: pointer; color: var(--ap-muted); width: max-content; }
    details.export button { margin: 2px 2px 0 0; }
    .layout.bare { grid-template-columns: minmax(0, 1fr); }
    :host([compact]) .layout { min-height: 0; grid-template-columns: minmax(0, 1fr); }
    :host([compact]) .controls { border-right: none; border-bottom: 1px solid var(--ap-line); display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 0.4rem 0.8rem; }
    :host([compact]) .control.text { grid-column: 1 / -1; }
    :host([compact]) .about { display: none; }
    :host([compact]) .views { padding: 0.6rem; }
    @media (max-width: 760px) {
      .layout { grid-template-columns: minmax(0, 1fr); }
      .controls { border-right: none; border-bottom: 1px solid var(--ap-line); display: grid; grid-template-columns: 1fr 1fr; }
      .control.text { grid-column: 1 / -1; }
      .header { padding: 0.5rem 0.7rem; }
      .views { padding: 0.6rem 0.6rem 2rem; }
    }
  `];
}

customElements.get('attention-playground') || customElements.define('attention-playground', AttentionPlayground);
