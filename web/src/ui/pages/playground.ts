// <attention-playground>: the whole playground as one element. It owns the state (one table
// of settings, see state/settings.ts), asks the core for a trace on every change (what it asks
// and what it does with a refusal: state/session.ts), and draws the walkthrough. It computes no
// attention math itself. With `model: "tiny-lm"` it shows the trained model instead of random
// weights (state/model-mode.ts): the weights are fetched on first use, each layer is drawn by
// the same views as a self-attention trace, and its own views add what the heads do and what
// the model expects next.
// Its parts, each given the element: where its settings come from and go (element-address.ts),
// its two cores (core-loader.ts), the trained model's loading and runs (trained-model.ts), the
// controls (setting-controls.ts), the tokens (token-strip.ts), the walkthrough (walkthrough.ts),
// the model's panels (model-panels.ts), and what it hands out (handouts.ts). The members they
// read are not private.
import { LitElement, html, nothing } from 'lit';
import type { AttentionCore, ModelCard, ModelTrace, Spec, Trace } from '../../core/attention.js';
import { keepUnchanged } from '../../core/unchanged.js';
import { large, traceOf } from '../../core/background.js';
import { WHOLE_CORE } from '../../core/first-core.js';
import type { PackedCalls } from '../../core/wrap.js';
import { PLAYGROUND_STYLES } from './playground-styles.js';
import { NARROW } from './phone-width.js';
import { MODERN_STYLES } from '../views/modern-styles.js';
import { KEY_OF_ATTRIBUTE, MATRIX_KEYS, SETTINGS, defaults, isVector, parseValue, readEntries, startFrom, toHash, toSpec, type SettingDef, type State } from '../../state/settings.js';
import type { Preset } from '../../state/presets.js';
import { refusal } from '../shared/control.js';
import { clip } from '../shared/clip.js';
import '../views/heatmap.js';
import '../views/arcs.js';
import '../shared/deferred-block.js';
import { litCells, type Block } from '../views/lit-cells.js';
import { TOKEN_ROWS, isSelf } from '../../state/trace-schema.js';
import { specEntries } from '../../state/from-spec.js';
import { MODEL, WEIGHTS_SIZE, isModelState, isModelTrace, keepWeights, layerTrace, repeatRefusal, repeated, modelSpec, readableStart } from '../../state/model-mode.js';
import { followRows, traceKeeping, without, type OwnMatrix, type Outcome, type Refusal } from '../../state/session.js';
import { Handouts } from './handouts.js';
import { ERROR_HOME, control, folded, offered, presetPicker } from './setting-controls.js';
import { chosenView, derives, flowView, revealDerivation, single, stepDef, stepView, steps } from './walkthrough.js';
import { modelPanels } from './model-panels.js';
import { sourceStrip, tokenStrip } from './token-strip.js';
import { VIEWED, adopt, fitView, hashOf, scope, readAttributeView, readAttributes, readHash, readOwnHash, writeHash } from './element-address.js';
import { computeModel, openOnInduction } from './trained-model.js';
import { loadCores } from './core-loader.js';

type Json = Record<string, any>;
type Matrix = number[][];
const EDITABLE = new Set<string>(MATRIX_KEYS);

// The element's properties that hold the view (ViewState), which the link follows.
const VIEW_PROPERTIES = ['focusToken', 'focusHead', 'layer', 'relative', 'stepAt', 'blockAt'];

const PRESENTATION = ['preset', 'view', 'controls', 'compact', 'toolbar', 'presets', ...VIEWED, 'share-url', 'script-url'];

export class AttentionPlayground extends LitElement {
  static properties = {
    state: { state: true }, overrides: { state: true }, shownTrace: { state: true }, error: { state: true },
    model: { state: true }, layer: { state: true }, modelStatus: { state: true }, modelError: { state: true }, predictAt: { state: true },
    inputErrors: { state: true }, derivation: { state: true }, selected: { state: true }, step: { state: true },
    note: { state: true }, ready: { state: true }, loadError: { state: true }, theme: { type: String, reflect: true },
    view: { type: String }, controls: { type: String }, compact: { type: Boolean, reflect: true },
    toolbar: { type: Boolean }, presets: { type: Boolean }, focusToken: { state: true },
    busy: { state: true }, stale: { state: true }, substituted: { state: true }, narrow: { type: Boolean, reflect: true },
    settingsOpen: { state: true }, positionError: { state: true }, focusHead: { state: true }, relative: { state: true }, stepAt: { state: true }, blockAt: { state: true },
  };

  static get observedAttributes() {
    return [...super.observedAttributes, ...KEY_OF_ATTRIBUTE.keys(), ...PRESENTATION];
  }

  state: State = defaults();
  overrides: Partial<Spec> = {};
  /** The trace the views draw: the spec's, or in model mode the picked layer's (as a self trace). */
  shownTrace: Json | null = null;
  /** The trained model's trace on screen (model mode), else null. */
  model: ModelTrace | null = null;
  layer = 1;           // the model's layer the views show, from 1
  modelStatus: 'idle' | 'loading' | 'ready' | 'failed' = 'idle';  // the trained model's weights
  modelError = '';     // why they could not be loaded
  predictAt = -1;      // the token whose next token is shown (hovered or focused); -1: the last
  card: ModelCard | null = null;
  modelWarm = false;  // the page's module has run the model (its probe computed)
  extras: string[] = [];  // keys a link set along with the model: sent once, for the core to name
  refusals: Record<string, string> = {};  // what the core said of each of them, shown beside its control
  givenModel: unknown = 'random';  // the model the element's attributes (or its preset) give
  private toIntroduction = false;  // Open the trained model: its first trace lands the reader at its introduction
  toInduction = false;  // the trained model's preset: its first trace opens on the induction head
  error: Refusal | null = null;
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
  toolbar = false;     // Share, Embed and NumPy on an embedded element (the full page always has them)
  presets = false;     // the worked examples on an embedded element
  focusToken = 0;      // the token the flow view follows (its position, from 0)
  focusHead = 0;       // the head it follows, from 0
  viewRead = '';  // a link's view not yet held against a trace: what a note on it begins with
  relative: boolean | null = null;  // weights coloured row by row; null: when they are near-uniform
  stepAt = 0;          // the decode stepper's position
  blockAt = 0;         // the online stepper's key block
  readonly handouts = new Handouts(this);  // Share, Embed, Copy as NumPy and the exports
  busy = false;        // a large trace is being computed in the background
  stale = false;       // the trace on screen is the last good one, not the spec's
  substituted: string[] = [];  // matrices the core refused, drawn from the seed in the trace on screen
  narrow = false;      // the element is phone-wide: results first, the settings folded away
  settingsOpen = false;  // the folded settings are open
  positionError = '';  // the position typed to follow a token past the chips is not one
  // By the element's width, not the window's: an embed in a narrow column is a phone too.
  private resizer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver((entries) => {
    this.sized = true;
    const narrow = entries[entries.length - 1].contentRect.width < NARROW;
    if (narrow !== this.narrow) this.narrow = narrow;
  });
  private sized = false;  // narrow is known: the observer has reported, or the width was measured
  traced: Spec = {};  // the spec of the trace on screen
  errorShown = false;  // set while rendering, when the error found a place beside its control or matrix
  computed = 0;  // the latest compute() call: older answers are dropped
  core: AttentionCore | null = null;
  first: PackedCalls | null = null;  // the first heatmap's core, until the whole core is in
  firstDrew = -1;  // the compute() whose trace the first heatmap's core drew
  useHash = false;
  hashTimer: ReturnType<typeof setTimeout> | undefined;
  private pending = false;
  highlighted: string[] = [];  // matrices the hovered step uses, set at each render
  // The learner's rows of X (or the annotations) while the sentence changes, and the matrix
  // last fitted from them: another matrix in `overrides` means the learner gave new rows.
  private own: OwnMatrix | null = null;
  lit = new Map<string, Block>();  // the cells the open derivation reads, set at each render
  private reveal = false;   // a derivation was just opened: bring it and its cell into view
  linked = false;   // this element's settings came from the link: bring it into view
  private given: Spec | null = null;  // a spec set before the element was on a page
  ownHash = '';  // this element's part of the page's hash, as last read

  constructor() {
    super();
    // A host script may set `spec` before this class is defined (the embed's script defines its
    // elements once their code has arrived, after the page's load event): that spec is a plain
    // property of the element, which would hide the setter below. Taken up as given instead.
    if (Object.hasOwn(this, 'spec')) {
      const own = this as { spec?: Spec };
      this.given = own.spec ?? null;
      delete own.spec;
    }
  }

  connectedCallback() {
    super.connectedCallback();
    // The full-window page keeps its state in the URL hash; embedded copies use attributes.
    this.useHash = this.hasAttribute('use-hash');
    readAttributes(this);
    if (this.given) this.adoptSpec(this.given);
    this.given = null;
    if (this.useHash && location.hash.length > 1) readHash(this);
    else if (!this.useHash) readOwnHash(this);
    // The page's first screen, written into it as HTML (scripts/first-screen.mjs) or drawn by a
    // post's script (first-screen.ts) so that it shows before this code arrives, fills the
    // element's slot until the first trace; one written for other settings than those read goes
    // now (one still to be read is hidden by the page's CSS), and one the page is still reading
    // goes once it is read (updated).
    const shot = this.querySelector<HTMLElement>(':scope > [slot="first-screen"]');
    if (shot && shot.dataset.hash !== toHash(this.state, this.overrides)) shot.remove();
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => this.requestUpdate(), { once: true });
    window.addEventListener('hashchange', this.onHashChange);
    this.resizer?.observe(this);
    loadCores(this);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.onHashChange);
    clearTimeout(this.hashTimer);
    this.resizer?.disconnect();
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null) {
    super.attributeChangedCallback(name, old, value);
    if (old === value || !this.isConnected) return;
    if (KEY_OF_ATTRIBUTE.has(name) || name === 'preset') {
      readAttributes(this);
      this.schedule();
    } else if (VIEWED.includes(name)) {
      readAttributeView(this);
      if (this.model) this.pickLayer(this.layer);
    }
  }

  /** The trace on screen: the spec's (the trained model's whole trace in model mode), null
   *  until the first one is computed. */
  get trace(): Json | null {
    return this.model ?? this.shownTrace;
  }

  /** Whether the settings ask for the trained model. */
  modelMode(): boolean {
    return isModelState(this.state);
  }

  /** Many attributes change at once while a page parses: recompute once after them. */
  private schedule() {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => { this.pending = false; this.compute(); });
  }

  /** The spec on screen now: what run(spec) is asked for. */
  get spec(): Spec { return toSpec(this.state, this.overrides); }

  /** A host page's spec replaces the one on screen, read as attributes are: a value the
   *  settings refuse is named in a note and left at its default. */
  set spec(value: Spec) {
    if (!this.isConnected) { this.given = value; return; }  // the attributes are read first, on connecting
    this.adoptSpec(value);
    this.compute();
  }

  private adoptSpec(value: Spec) {
    adopt(this, readEntries(specEntries(value), startFrom()), 'Some of the spec was not understood and was left at its default');
    this.inputErrors = {};
    this.selected = null;
    this.derivation = null;
  }

  /** The element's name in a link to it (element-address.ts). */
  scope(): string {
    return scope(this);
  }

  private onHashChange = () => {
    clearTimeout(this.hashTimer);  // the link opened now is what the address says
    if (!this.useHash) { if (readOwnHash(this)) this.compute(); return; }
    if (location.hash.slice(1) !== hashOf(this)) { readHash(this); this.compute(); }
  };

  compute() {
    if (this.handouts.toolNote) this.handouts.say({ toolNote: '' });  // it said what was done with the numbers before this change
    if (!this.core && !this.first) return;
    // The trained model is computed by the whole core alone (the first module's trace of it has
    // no probe scores): until it is in, a post's first screen, if any, shows it, and the model is
    // computed when the core is in (what the first module drew is not the model's).
    if (this.modelMode()) return void (this.core ? computeModel(this) : (this.firstDrew = -1));
    const wanted = this.spec;
    const id = ++this.computed;
    // an answer for an older spec (of the worker, still on its way) is dropped
    traceKeeping((spec, then) => this.run(spec, (r) => then(id === this.computed ? r : null)), this.state, this.overrides, (o) => {
      if (!this.core && o.result.error?.field === WHOLE_CORE) return void (this.firstDrew = -1);  // computed when the whole core is in
      this.show(wanted, o);
    });
  }

  /** Computes a trace on the spot or, past BACKGROUND_CELLS, in the page's worker (each element
   *  has its own place in its queue); null when a newer spec of this element replaced it. */
  private run(spec: Spec, then: (result: Json | null) => void) {
    const core = this.core ?? this.first!;
    this.busy = large(core, spec);
    if (!this.busy) return then(core.trace(spec) as Json);
    // the worker is started from the whole core's compiled module: computed once that is in
    if (this.core) traceOf(this.core, spec, this).then((t) => then(t as Json | null));
  }

  retryModel = () => {
    this.modelStatus = 'idle';
    this.compute();
  };

  show(wanted: Spec, { spec, result, refusal, refused }: Outcome) {
    this.busy = false;
    if (!this.core) this.firstDrew = this.computed;
    // A refused matrix is not kept: neither the link nor the rows that follow their words carry it.
    if (refused.length) this.overrides = without(this.overrides, refused);
    if (result.error) {
      // What stops the spec now (its size, say) is the error; a matrix refused on the way is noted.
      this.error = result.error;  // keep the last good trace on screen
      if (refusal) this.note = `${refusal.message}: it was not kept.`;
      this.stale = this.shownTrace !== null;
    } else {
      this.error = refusal;
      if (isModelTrace(result)) {
        // The learned weights: kept, so their views are not drawn again.
        this.model = keepWeights(this.model, result, keepUnchanged);
        if (this.toInduction) openOnInduction(this, this.model);
        if (this.toIntroduction) {
          this.toIntroduction = false;
          this.updateComplete.then(() => this.renderRoot.querySelector('#model-intro')?.scrollIntoView({ block: 'start' }));
        }
        fitView(this, this.model.layers.length, this.model.layers[0].weights.length, this.model.tokens.length);
        this.shownTrace = layerTrace(this.model, this.layer - 1) as unknown as Json;
      } else {
        this.model = null;
        this.shownTrace = keepUnchanged(this.shownTrace, result);  // views of unchanged numbers are not drawn again
        fitView(this, 1, isSelf(result as Trace) ? result.weights.length : 1, (result.tokens as string[]).length);
      }
      this.traced = spec;
      this.stale = false;
      this.substituted = refused;
      if (this.selected) this.derive(this.selected);
    }
    writeHash(this);
    this.dispatchEvent(new CustomEvent('trace', { detail: { spec: wanted, trace: this.error ? null : this.trace, error: this.error } }));
    if (this.linked && this.shownTrace) {
      this.linked = false;  // the reader followed a link to this element: it is what they came for
      this.updateComplete.then(() => this.scrollIntoView({ block: 'start' }));
    }
  }

  /** The derivation of a clicked cell. In model mode the spec is the picked layer's own (its
   *  input and learned weights: state/model-mode.ts), which takes the core a tenth of a second
   *  to read: after a change of text, it waits until typing pauses (`later`). */
  derive(sel: { key: string; head: number; row: number; col: number }) {
    if (!this.core) return;
    if (this.model) {
      if (sel.row >= this.model.tokens.length || sel.col >= this.model.tokens.length && sel.key !== 'output') {
        this.selected = null;  // the text got shorter than the clicked cell
        this.derivation = null;
        return;
      }
      this.derivation = this.core.derive({ spec: this.model.spec, layer: this.layer - 1, matrix: sel.key as 'weights',
        head: sel.head, row: sel.row, col: sel.col }) as Json;
      return;
    }
    const ed = this.tracedMode();
    this.derivation = this.core.derive({ spec: this.traced, matrix: sel.key as 'weights',
      head: sel.head, row: ed ? 0 : sel.row, col: sel.col }) as Json;
  }

  /** Shows layer `layer` (from 1) of the trained model in the views, and head `head` in those
   *  that follow one head; a derivation open is of the layer shown. */
  pickLayer(layer: number, head = this.focusHead) {
    if (!this.model) return;
    this.layer = Math.min(Math.max(1, layer), this.model.layers.length);
    this.focusHead = head;
    this.shownTrace = layerTrace(this.model, this.layer - 1) as unknown as Json;
    if (this.selected) this.derive(this.selected);
    writeHash(this);
  }

  set(def: SettingDef, text: string) {
    const value = parseValue(def, text);
    const errors = { ...this.inputErrors };
    if (value === undefined) {
      errors[def.key] = refusal(def);
      this.inputErrors = errors;
      return;
    }
    delete errors[def.key];
    this.inputErrors = errors;
    const before = this.state;
    this.state = { ...this.state, [def.key]: value };
    if (def.key === 'sentence' || def.key === 'mode' || def.key === 'model') this.selected = null, this.derivation = null;
    if (def.key === 'sentence' && !this.modelMode()) this.followSentence(String(before.sentence));
    if (def.key === 'sentence') this.positionError = '', this.predictAt = -1;
    if (def.key === 'model') this.extras = [];
    if (def.key === 'model' && value === MODEL && this.modelStatus === 'failed') this.modelStatus = 'idle';  // chosen again: try again
    this.compute();
  }

  /** The sentence, set as if typed (Repeat my sentence, Open the trained model). */
  private setSentence(text: string) {
    this.set(SETTINGS.find((d) => d.key === 'sentence')!, text);
  }

  /** Switches to the trained model, keeping as much of the sentence as the model reads. */
  openModel = () => {
    const core = this.core;  // (the first heatmap's module does not count the model's tokens)
    const tokens = (text: string) => {
      const w = core?.work(modelSpec(text));
      return w && !('error' in w) ? w.tokens : null;
    };
    this.state = { ...this.state, sentence: readableStart(String(this.state.sentence), tokens) };
    this.set(SETTINGS.find((d) => d.key === 'model')!, MODEL);
    this.note = '';  // a note on the random example (a preset's) is not the trained model's
    this.toIntroduction = true;
  };

  repeatSentence = () => {
    const sentence = String(this.state.sentence);
    if (repeatRefusal(sentence, this.model?.tokens.length ?? 0)) return;
    this.setSentence(repeated(sentence));
  };

  /** The learner's rows of X (or the annotations) follow the sentence's words (state/session.ts). */
  private followSentence(before: string) {
    if (!this.core) return;
    const core = this.core;
    const r = followRows((spec) => core.parameters(spec) as Json, this.state, this.overrides, this.own, before);
    this.own = r.own;
    if (r.note !== undefined) this.note = r.note;
    if (r.own && r.matrix) this.overrides = { ...this.overrides, [r.own.key]: r.matrix };
  }

  applyPreset(p: Preset) {
    adopt(this, readEntries([], startFrom(p)), '', p.note);
    this.toInduction = isModelState(this.state);
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
    this.reveal = true;
  }

  /** A stepper moved: its step goes into the link (each stepper its own). */
  private onStep = (e: CustomEvent) => {
    if ((e.target as HTMLElement).localName === 'ap-online-stepper') this.blockAt = e.detail.at;
    else this.stepAt = e.detail.at;
  };

  /** Follows token i in the flow view; from the token chips, the view comes into sight too. */
  follow(i: number, show = false) {
    this.focusToken = i;
    if (!show) return;
    // The steps on the way are sized by estimate until drawn (content-visibility), so the view
    // moves as they are drawn: it is brought back until it stays put (instantly, as a smooth
    // scroll would chase a moving target).
    const settle = (tries: number) => requestAnimationFrame(() => {
      const flow = this.renderRoot.querySelector<HTMLElement>('#step-flow');
      if (!flow) return;
      const top = flow.getBoundingClientRect().top;
      if (Math.abs(top) > 2) flow.scrollIntoView({ block: 'start' });
      if (Math.abs(top) > 2 && tries > 0) settle(tries - 1);
    });
    this.updateComplete.then(() => settle(6));
  }

  /** A click on the label of a row that is a token (in X, Q, the weights ...) follows that token. */
  private onRowLabel(e: MouseEvent) {
    if (this.tracedMode()) return;
    const path = e.composedPath() as HTMLElement[];
    const th = path.find((n) => n.tagName === 'TH' && n.getAttribute('scope') === 'row');
    const map = path.find((n) => n.tagName === 'AP-HEATMAP') as (HTMLElement & { key: string }) | undefined;
    if (!th || !map || !TOKEN_ROWS.has(map.key)) return;
    this.follow((th.parentElement as HTMLTableRowElement).sectionRowIndex);
  }

  /** The first trace is drawn at the element's width. The observer reports after a frame: when
   *  the trace comes first (the page's code ran before the browser drew), the width is measured
   *  now, so that a phone's first frame shows the results with the settings folded away, and not
   *  the settings unfolded above them. */
  private shotGone = false;  // the written first screen is removed: not looked for on every keystroke

  protected willUpdate() {
    if (!this.shownTrace || this.sized) return;
    this.sized = true;
    this.narrow = this.getBoundingClientRect().width < NARROW;
  }

  /** After a derivation opens: where it covers the page (a phone's bottom sheet), the page moves
   *  so the clicked cell stays above it; where it sits below the matrices, it is scrolled into
   *  sight (revealDerivation). The link follows the view too: the token, head and layer
   *  followed, however they changed. */
  protected async updated(changed: Map<PropertyKey, unknown>) {
    if (this.shownTrace && VIEW_PROPERTIES.some((k) => changed.has(k))) writeHash(this);
    if (!this.shotGone && (this.shownTrace || this.loadError)) {
      this.querySelector(':scope > [slot="first-screen"]')?.remove();
      this.shotGone = document.readyState !== 'loading';  // one the parser has still to reach is looked for again
    }
    if (!this.reveal) return;
    this.reveal = false;
    if (this.selected) await revealDerivation(this, this.selected);
  }

  private onCellEdit(e: CustomEvent) {
    const { key, row, col, values } = e.detail as { key: string; row: number; col: number; values: Matrix };
    if (!this.shownTrace || !this.editable(key)) return;
    const vector = isVector(key);
    const current = (vector ? [this.shownTrace[key]] : this.shownTrace[key]) as Matrix;
    const next = current.map((r) => [...r]);
    // A pasted block: the heatmap already left out what falls outside the matrix.
    values.forEach((r, i) => r.forEach((v, j) => { if (next[row + i]?.[col + j] !== undefined) next[row + i][col + j] = v; }));
    this.overrides = { ...this.overrides, [key]: vector ? next[0] : next };
    this.compute();
  }

  /** Whether a matrix takes typed numbers: X and the weights of random mode (the trained model's
   *  are learned, and shown as they are). */
  editable(key: string): boolean {
    return EDITABLE.has(key) && !this.model && !this.modelMode();
  }

  resetMatrix(key: string) {
    const next = { ...this.overrides } as Json;
    delete next[key];
    this.overrides = next;
    this.compute();
  }

  /** The trace on screen decides the views (it may be the last good one, of another mode). */
  tracedMode(): boolean {
    return this.shownTrace?.spec?.mode === 'encoder_decoder';
  }

  render() {
    this.highlighted = stepDef(this)?.uses ?? [];
    this.errorShown = false;  // control() and heatmap() set it when they show the error
    this.lit = litCells(this.shownTrace, this.derivation ? this.selected : null);
    // In model mode the model and the sentence, and a setting a link gave it that the core refused.
    const home = this.error ? ERROR_HOME.get(this.error.field) ?? this.error.field : '';
    const shown = SETTINGS.filter((d) => offered(this, d) && (!this.modelMode() || d.key === 'model' || d.key === 'sentence' || d.key === home || d.key in this.refusals));
    const controls = this.narrow ? folded(this, shown) : shown.map((d) => control(this, d));
    const view = chosenView(this);
    const unknownView = this.shownTrace && this.view && !view
      ? `view="${clip(this.view, 40)}" is not a view here (a step: ${steps(this).map((s) => s.id).join(', ')}; a matrix such as X, Q or weights; arcs; or flow), so every step is shown.` : '';
    // A step draws at once, on screen or not, when the hovered step (whose matrices every step
    // highlights) changes, or a derivation opens or closes in it; a keystroke waits for sight.
    const block = (content: () => unknown, deriving = false) =>
      html`<ap-deferred-block .content=${content} .now=${`${this.step} ${deriving}`}></ap-deferred-block>`;
    const views = this.shownTrace ? (view ? single(this, view)
      : [...steps(this).map((s, i) => block(() => stepView(this, s, i), derives(this, s))), block(() => flowView(this))]) : nothing;
    // An error is shown beside its control or matrix; one with neither on screen goes above the views.
    const general = this.error && !this.errorShown ? this.error.message : '';
    // The full-window page shows all its chrome; an embedded element shows what it is asked for.
    const page = this.useHash;
    const title = page && !this.compact, presets = page || this.presets, tools = page || this.toolbar;
    const toolbar = tools ? this.handouts.toolbar() : nothing;
    const header = title || presets;
    // The element's drawing is the slot's fallback: shown while no first screen fills the slot,
    // and always once there is a trace (or an error) to show, the slot then taking none.
    return html`<slot name=${this.shownTrace || this.loadError ? 'none' : 'first-screen'}><div class="frame">
      ${header ? html`<div class="header" part="header">
        ${title ? html`<div class="title" part="title" role="heading" aria-level="2">Attention Playground</div>` : nothing}
        ${presets ? presetPicker(this) : nothing}${toolbar}
      </div>` : nothing}
      <div class="layout ${controls.length ? '' : 'bare'} ${page ? 'page' : ''}">
        ${controls.length ? html`<div class="controls" part="controls" role="group" aria-label="Settings">${controls}</div>` : nothing}
        <div class="views" part="view" @relative-change=${(e: CustomEvent) => (this.relative = e.detail.relative)}
          @step-change=${this.onStep} @cell-select=${this.onCellSelect} @cell-edit=${this.onCellEdit} @click=${this.onRowLabel}>
          ${header ? nothing : toolbar}
          ${this.note ? html`<p class="note" role="status">${this.note}</p>` : nothing}
          ${unknownView ? html`<p class="note">${unknownView}</p>` : nothing}
          ${this.handouts.texts()}
          ${this.loadError ? html`<p class="message" role="alert">${this.loadError}</p>` : nothing}
          ${general ? html`<p class="message" role="alert">${general}</p>` : nothing}
          ${this.shownTrace?.warnings?.length ? html`<p class="note">${this.shownTrace.warnings.join(' ')}</p>` : nothing}
          ${!this.ready && !this.loadError ? html`<p class="hint">Loading the attention core…</p>` : nothing}
          ${this.modelMode() && this.modelStatus === 'loading' ? html`<p class="note loading-model" role="status">Loading the trained model, ${WEIGHTS_SIZE}…</p>` : nothing}
          <p class="hint busy" role="status">${this.busy ? 'Computing the new trace in the background…' : ''}</p>
          ${this.shownTrace ? html`
            ${view ? nothing : this.model ? html`<div id="model-intro" class=${this.stale ? 'stale' : ''}>${modelPanels(this, block)}</div>`
              : tokenStrip(this)}
            ${view || !this.shownTrace.source_tokens ? nothing : sourceStrip(this.shownTrace.source_tokens as string[])}
            ${view || this.compact || this.model || ['W_q', 'W_k', 'W_v'].some((k) => k in this.overrides) ? nothing
              : html`<p class="hint random-weights">The weights are drawn at random from seed <span data-shows="seed">${this.state.seed}</span>, not learned: what a head attends to means nothing yet (“A trained model” shows one that learned).</p>`}
            ${view || this.compact ? nothing : html`<p class="hint">Click a cell of the scores, the weights or the output to see how it is computed.</p>`}
            <div class=${this.stale ? 'stale' : ''}>${views}</div>` : nothing}
        </div>
      </div>
    </div></slot>`;
  }

  static styles = [...PLAYGROUND_STYLES, MODERN_STYLES];  // (the modern views' own classes: a first screen has none)
}

customElements.get('attention-playground') || customElements.define('attention-playground', AttentionPlayground);
