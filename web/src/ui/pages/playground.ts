// <attention-playground>: the whole playground as one element. It owns the state (one table
// of settings, see state/settings.ts), asks the core for a trace on every change, and draws
// the walkthrough. It computes no attention math itself. With `model: "tiny-lm"` it shows the
// trained model instead of random weights (state/model-mode.ts): the weights are fetched on
// first use, each layer is drawn by the same views as a self-attention trace, and its own views
// add what the heads do and what the model expects next.
import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { load, type AttentionCore, type ModelCard, type ModelTrace, type Spec, type Trace } from '../../core/attention.js';
import { PACKED, lazyRows, type Packed } from '../../core/packed.js';
import { keepUnchanged } from '../../core/unchanged.js';
import { background, large, traceOf } from '../../core/background.js';
import { WHOLE_CORE, loadFirst } from '../../core/first-core.js';
import type { PackedCalls } from '../../core/wrap.js';
import { WORDS } from './playground-words.js';
import { PLAYGROUND_STYLES } from './playground-styles.js';
import { NARROW } from './phone-width.js';
import { MODERN_STYLES } from '../views/modern-styles.js';
import { nearUniform } from '../shared/uniform.js';
import { KEY_OF_ATTRIBUTE, MATRIX_KEYS, SETTINGS, attributeOf, givenWidth, applies, defaults, fromHash, parseValue, readEntries, startFrom, toHash, toSpec, type Reading, type SettingDef, type State } from '../../state/settings.js';
import { PRESETS, type Preset } from '../../state/presets.js';
import { ENCODER_DECODER_STEPS, SELF_STEPS, type Step } from '../views/steps.js';
import { diverging, extent, full, short, type Scale } from '../shared/colour.js';
import { scaleOf } from '../shared/ranges.js';
import { refusal, settingControl } from '../shared/control.js';
import { copyText, elementSnippet, iframeSnippet, refusedURLs, scriptOf, tooLong, urlAttribute } from '../shared/share.js';
import type { MatrixData } from '../shared/export.js';
import { clip } from '../shared/clip.js';
import { fitRows, ownRows, type Fitted, type OwnRows } from '../../state/rows.js';
import { OWN_ROWS, embeddingNote } from '../shared/embed-note.js';
import '../views/heatmap.js';
import type { Arcs } from '../views/arcs.js';
import '../views/arcs.js';
import '../shared/deferred-block.js';
import { litCells, type Block } from '../views/lit-cells.js';
import { unscopedHash, withScope } from '../../state/scoped-hash.js';
import { TOKEN_ROWS, captionOf, isSelf } from '../../state/trace-schema.js';
import { VIEW_ATTRIBUTES, VIEW_DEFAULTS, attributeView, splitView, viewHash, type ViewState } from '../../state/view-state.js';
import { specEntries } from '../../state/from-spec.js';
import { autoValue } from '../../state/auto-value.js';
import type { DrawHeatmap } from '../views/draw.js';
import { loadLaterViews, modern } from './later-views.js';
import { MODEL, WEIGHTS_SIZE, extrasOf, isByte, splitNote, isModelState, isModelTrace, keepWeights, layerTrace, modelNote, repeatHint, repeatRefusal, repeated, repeatLag, copyingHead, copyCaption, bestInduction,
  PUT_AWAY, modelSpec, readableStart, readsPieces, tokenMark, tokenName } from '../../state/model-mode.js';
import { count } from '../shared/count.js';

type Json = Record<string, any>;
type Matrix = number[][];
const EDITABLE = new Set<string>(MATRIX_KEYS);
// The control that shows an error about a spec key that has none of its own.
const ERROR_HOME = new Map([['tokens', 'sentence'], ['layer_norm', 'residual'], ['d_v', 'd_k'], ['d_a', 'd_k']]);

/** m ÷ factor, each row divided when it is first read: at 512 tokens and 4 heads that is a
 *  million numbers, and a heatmap off screen does not read its rows until it is drawn. */
function dividedLazily(m: Matrix, factor: number): Matrix {
  const out: Matrix = lazyRows(m.length, (i) => m[i].map((v) => v / factor));
  const packed = (m as Matrix & { [PACKED]?: Packed })[PACKED];
  // (on top of m's own: its numbers may move, from the wasm memory to their copy)
  if (packed) Object.defineProperty(out, PACKED, { value: Object.create(packed, { factor: { value: packed.factor * factor } }) });
  return out;
}

/** The overrides without the matrices the core refused. */
const without = (overrides: Partial<Spec>, refused: string[]) =>
  Object.fromEntries(Object.entries(overrides).filter(([k]) => !refused.includes(k))) as Partial<Spec>;

// The exports' code (3.5 KB gzip) comes in the later views' chunk (later-views.ts), after a
// link's or a post's first heatmap; a file asked for before then waits for it.
const takeAway = () => import('../shared/export.js');

// Token chips shown; the tokens past them are followed by their position: at 512 tokens the
// chips' layout and text alone made a frame several times too long.
const CHIPS = 96;
const FEW_CONTROLS = 3;
// The settings of random weights, put away in model mode: said once, under the Model control.
// Where an attribute's problem is said, as a link's are.
const ATTRIBUTES_READ = 'Some settings were not understood and were left at their defaults';
// The element's properties that hold the view (ViewState), which the link follows.
const VIEW_PROPERTIES = ['focusToken', 'focusHead', 'layer', 'relative', 'stepAt', 'blockAt'];

const VIEWED: string[] = Object.values(VIEW_ATTRIBUTES);
const PRESENTATION = ['preset', 'view', 'controls', 'compact', 'toolbar', 'presets', ...VIEWED, 'share-url', 'script-url'];
// What Embed writes besides the settings and matrices: how the element looks, what it follows and
// where it links.
const COPIED = ['view', 'controls', 'compact', 'toolbar', 'presets', 'theme', ...VIEWED, 'share-url', 'script-url'];

export class AttentionPlayground extends LitElement {
  static properties = {
    state: { state: true }, overrides: { state: true }, shownTrace: { state: true }, error: { state: true },
    model: { state: true }, layer: { state: true }, modelStatus: { state: true }, modelError: { state: true }, predictAt: { state: true },
    inputErrors: { state: true }, derivation: { state: true }, selected: { state: true }, step: { state: true },
    note: { state: true }, ready: { state: true }, loadError: { state: true }, theme: { type: String, reflect: true },
    view: { type: String }, controls: { type: String }, compact: { type: Boolean, reflect: true },
    toolbar: { type: Boolean }, presets: { type: Boolean }, focusToken: { state: true },
    shareText: { state: true }, numpyText: { state: true }, toolNote: { state: true }, busy: { state: true }, stale: { state: true },
    substituted: { state: true }, offerSpec: { state: true }, narrow: { type: Boolean, reflect: true },
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
  private card: ModelCard | null = null;
  private modelWarm = false;  // the page's module has run the model (its probe computed)
  private extras: string[] = [];  // keys a link set along with the model: sent once, for the core to name
  private refusals: Record<string, string> = {};  // what the core said of each of them, shown beside its control
  private givenModel: unknown = 'random';  // the model the element's attributes (or its preset) give
  private toIntroduction = false;  // Open the trained model: its first trace lands the reader at its introduction
  private toInduction = false;  // the trained model's preset: its first trace opens on the induction head
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
  toolbar = false;     // Share, Embed and NumPy on an embedded element (the full page always has them)
  presets = false;     // the worked examples on an embedded element
  focusToken = 0;      // the token the flow view follows (its position, from 0)
  focusHead = 0;       // the head it follows, from 0
  private viewRead = '';  // a link's view not yet held against a trace: what a note on it begins with
  relative: boolean | null = null;  // weights coloured row by row; null: when they are near-uniform
  stepAt = 0;          // the decode stepper's position
  blockAt = 0;         // the online stepper's key block
  shareText = '';
  toolNote = '';       // what Share, Embed or Copy as NumPy did, said beside them (not over the page's note)
  numpyText = '';
  busy = false;        // a large trace is being computed in the background
  stale = false;       // the trace on screen is the last good one, not the spec's
  substituted: string[] = [];  // matrices the core refused, drawn from the seed in the trace on screen
  offerSpec = false;   // the link is too long to open: the spec is offered as a file
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
  private traced: Spec = {};  // the spec of the trace on screen
  private errorShown = false;  // set while rendering, when the error found a place beside its control or matrix
  private computed = 0;  // the latest compute() call: older answers are dropped
  private core: AttentionCore | null = null;
  private first: PackedCalls | null = null;  // the first heatmap's core, until the whole core is in
  private firstDrew = -1;  // the compute() whose trace the first heatmap's core drew
  private useHash = false;
  private hashTimer: ReturnType<typeof setTimeout> | undefined;
  private pending = false;
  private highlighted: string[] = [];  // matrices the hovered step uses, set at each render
  private derivedFor: { trace: Json; value: { raw: Matrix[] | null; factor: number; visible: Matrix } } | null = null;
  // The learner's rows of X (or the annotations) while the sentence changes, and the matrix
  // last fitted from them: another matrix in `overrides` means the learner gave new rows.
  private own: { key: string; rows: OwnRows; value: Matrix; fitted?: Fitted } | null = null;
  private lit = new Map<string, Block>();  // the cells the open derivation reads, set at each render
  private reveal = false;   // a derivation was just opened: bring it and its cell into view
  private linked = false;   // this element's settings came from the link: bring it into view
  private given: Spec | null = null;  // a spec set before the element was on a page
  private ownHash = '';  // this element's part of the page's hash, as last read

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
    this.readAttributes();
    if (this.given) this.adoptSpec(this.given);
    this.given = null;
    if (this.useHash && location.hash.length > 1) this.readHash();
    else if (!this.useHash) this.readOwnHash();
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
    const whole = () => {
      void loadLaterViews().then(() => this.requestUpdate());  // beside the whole core: the views the first heatmap did not need
      return load().then((core) => {
        const drawn = this.first !== null && this.firstDrew === this.computed && !this.busy;
        this.core = core;
        this.first = null;
        this.ready = true;
        // The first module's trace of the spec on screen is the whole core's to the bit: computed
        // again, a matrix refused on the way (no longer in the spec) would lose its message.
        if (!drawn) return this.compute();
        if (this.selected) this.derive(this.selected);  // a cell clicked while the core was on its way
        this.requestUpdate();
      }, (e) => { this.loadError = `The attention core could not be loaded: ${e?.message ?? e}`; });
    };
    // Where the page compiles the first heatmap's module, it draws the first heatmap, and the
    // whole core is fetched once that is on screen and the page idle, not beside it: on a slow
    // connection the two would share it, and compiling the whole core held up the heatmaps'
    // own drawing, a frame after the element's, by a tenth of a second.
    const first = loadFirst();
    if (!first) return void whole();
    first.then(async (calls) => {
      if (calls && !this.core) {
        this.first = calls;
        this.ready = true;
        this.compute();
        await this.updateComplete;
        await new Promise<void>((done) => idle(done));
      }
      whole();
    });
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
      this.readAttributes();
      this.schedule();
    } else if (VIEWED.includes(name)) {
      this.readAttributeView();
      if (this.model) this.pickLayer(this.layer);
    }
  }

  /** State from the element's attributes: a preset first, then each setting and matrix. */
  private readAttributes() {
    const preset = PRESETS.find((x) => x.id === this.getAttribute('preset'));
    const reading = this.attributeReading();
    this.givenModel = reading.state.model;
    this.adopt(reading, ATTRIBUTES_READ, preset?.note);
    this.readAttributeView();
    // the trained model's preset opens on the head that copies, unless the element names one
    this.toInduction = Boolean(preset) && isModelState(this.state) && !VIEWED.some((name) => this.hasAttribute(name));
  }

  /** The token, head and layer the attributes say to follow. */
  private readAttributeView() {
    const { view, problems } = attributeView((name) => this.getAttribute(name));
    this.adoptView(view, problems, ATTRIBUTES_READ);
  }

  private attributeReading(): Reading {
    const preset = this.getAttribute('preset');
    const p = preset ? PRESETS.find((x) => x.id === preset) : undefined;
    const start = startFrom(p);
    if (preset && !p) start.problems.push(`preset "${preset.slice(0, 40)}" is not one of ${PRESETS.map((x) => x.id).join(', ')}`);
    const entries = Array.from(this.attributes).flatMap(({ name, value }): Array<[string, string, string]> => {
      const key = KEY_OF_ATTRIBUTE.get(name);
      return key ? [[key, value, name]] : [];
    });
    return readEntries(entries, start);
  }

  /** Puts a reading (attributes, hash, preset) on screen, with a note on what was not understood. */
  private adopt(r: Reading, problem: string, note = '') {
    this.state = r.state;
    this.overrides = r.overrides;
    this.note = r.problems.length ? `${problem}: ${r.problems.join('; ')}.` : note;
    this.extras = isModelState(r.state) ? extrasOf(r.read) : [];
  }

  /** The trace on screen: the spec's (the trained model's whole trace in model mode), null
   *  until the first one is computed. */
  get trace(): Json | null {
    return this.model ?? this.shownTrace;
  }

  /** Whether the settings ask for the trained model. */
  private modelMode(): boolean {
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
    this.adopt(readEntries(specEntries(value), startFrom()), 'Some of the spec was not understood and was left at its default');
    this.inputErrors = {};
    this.selected = null;
    this.derivation = null;
  }

  private onHashChange = () => {
    clearTimeout(this.hashTimer);  // the link opened now is what the address says
    if (!this.useHash) { if (this.readOwnHash()) this.compute(); return; }
    if (location.hash.slice(1) !== this.hashOf()) { this.readHash(); this.compute(); }
  };

  /** The element's name in a link to it: its id, or `playground-N` by its place among the
   *  page's playgrounds without an id, passing over any N that an element's id already takes. */
  private scope(): string {
    if (this.id) return this.id;
    const all = Array.from(document.querySelectorAll<HTMLElement>('attention-playground'));
    const taken = new Set(all.map((el) => el.id).filter(Boolean));
    let n = 0;
    for (const el of all.filter((x) => !x.id)) {
      do n++; while (taken.has(`playground-${n}`));
      if (el === this) break;
    }
    return `playground-${n}`;
  }

  /** On someone else's page, the settings a Share link gave this element (state/scoped-hash.ts),
   *  over those of its attributes: the link says what changed from the element the author wrote. */
  private readOwnHash(): boolean {
    const own = unscopedHash(this.scope(), location.hash);
    if (!own || own === this.ownHash) return false;
    this.ownHash = own;
    const base = attributeView((name) => this.getAttribute(name)).view;
    const { rest, view, problems } = splitView(own, base);
    if (view.head !== base.head || view.layer !== base.layer) this.toInduction = false;  // the link's pick, not the preset's
    this.adopt(fromHash(rest, SETTINGS, this.attributeReading()), 'Some of the link was not understood and was left as the page has it');
    this.adoptView(view, problems, 'Some of the link was not understood and was left as the page has it');
    this.linked = true;
    return true;
  }

  private readHash() {
    const { rest, view, problems } = splitView(location.hash);
    this.adopt(fromHash(rest), 'Some of the link was not understood and was left at its default');
    this.adoptView(view, problems, 'Some of the link was not understood and was left at its default');
  }

  /** The hash of what is on screen: the settings that differ from `base` (the defaults, or the
   *  element's attributes under a scoped link), then the view. */
  private hashOf(base?: Reading): string {
    const view = viewHash({ focus: this.focusToken, head: this.focusHead, relative: this.relative, step: this.stepAt, block: this.blockAt,
      layer: this.modelMode() ? this.layer : 1 });
    return [toHash(this.state, this.overrides, SETTINGS, base), view].filter(Boolean).join('&');
  }

  /** A link's view: the token and head followed, row-relative weights, a stepper's step. */
  private adoptView(view: ViewState, problems: string[], problem: string) {
    this.focusToken = view.focus;
    this.predictAt = view.focus || -1;  // what comes next after the token followed, if one is given
    this.focusHead = view.head;
    this.relative = view.relative;
    this.stepAt = view.step;
    this.blockAt = view.block;
    this.layer = Math.max(1, view.layer);
    this.viewRead = problem;
    this.addNote(problem, problems);
  }

  /** Adds `problems` to the note under `problem`, as one more sentence, or in the last one when
   *  that is under the same words (a link's settings, then its view, read in turn). */
  private addNote(problem: string, problems: string[]) {
    if (!problems.length) return;
    const last = this.note.lastIndexOf(`${problem}: `);
    const same = last >= 0 && this.note.endsWith('.') && !this.note.slice(last).includes('. ');
    this.note = same ? `${this.note.slice(0, -1)}; ${problems.join('; ')}.` : `${this.note ? `${this.note} ` : ''}${problem}: ${problems.join('; ')}.`;
  }

  /** The head and layer followed, held against the trace's (`layers` of `heads` each): one a link
   *  asked for that the trace does not have is not understood, as head=-1 is (said in a note, and
   *  left at its default); one left behind by fewer heads or layers goes back to it quietly. No
   *  label then names a head or layer that is not drawn. */
  private fitView(layers: number, heads: number, tokens: number) {
    const problems: string[] = [];
    const range = (what: string, from: number, count: number) => (count === 1 ? `there is one ${what}, ${from}` : `the ${what}s are ${from} to ${from + count - 1}`);
    if (this.layer > layers) {
      problems.push(`layer="${this.layer}" is not valid: ${range('layer', 1, layers)}`);
      this.layer = VIEW_DEFAULTS.layer;
    }
    if (this.focusHead >= heads) {
      problems.push(`head="${this.focusHead}" is not valid: ${range('head', 0, heads)}`);
      this.focusHead = VIEW_DEFAULTS.head;
    }
    // A token past the text's end: a link's is noted; one left by a shorter text follows its last.
    if (this.focusToken >= tokens && tokens > 0) {
      if (this.viewRead) problems.push(`focus="${this.focusToken}" is not valid: ${range('token', 0, tokens)}`);
      this.focusToken = this.viewRead ? VIEW_DEFAULTS.focus : tokens - 1;
    }
    if (this.predictAt >= tokens) this.predictAt = -1;
    if (this.viewRead) this.addNote(this.viewRead, problems);
    this.viewRead = '';
  }

  private compute() {
    this.toolNote = '';  // it said what was done with the numbers before this change
    if (!this.core && !this.first) return;
    // The trained model is computed by the whole core alone (the first module's trace of it has
    // no probe scores): until it is in, a post's first screen, if any, shows it, and the model is
    // computed when the core is in (what the first module drew is not the model's).
    if (this.modelMode()) return void (this.core ? this.computeModel() : (this.firstDrew = -1));
    const { state, overrides } = this;
    const wanted = this.spec;
    const id = ++this.computed;
    let refusal: { field: string; message: string } | null = null;
    const attempt = (spec: Spec, refused: string[]) => this.run(spec, (result) => {
      if (result === null || id !== this.computed) return;  // a newer spec is on its way
      if (!this.core && result.error?.field === WHOLE_CORE) return void (this.firstDrew = -1);  // computed when the whole core is in
      // A matrix the core refuses (the wrong shape, say) blanks nothing: the views are computed
      // again with the seed's matrix in its place, and the message stays beside it.
      const field = result.error?.field;
      if (field && Object.hasOwn(overrides, field) && !refused.includes(field)) {
        refusal ??= result.error;
        return attempt(toSpec(state, without(overrides, [...refused, field])), [...refused, field]);
      }
      this.show(wanted, spec, result, refusal, refused);
    });
    attempt(wanted, []);
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

  /** Model mode: the trained model’s trace, on the spot (at 128 tokens it is small), once
   *  its weights are in; the first in the page's worker (below). Keys a link set besides the
   *  model and the sentence are sent too, once: the core names the one it refuses, and the
   *  message stands beside that setting while the model runs without it. */
  private computeModel() {
    const core = this.core!;
    if (this.modelStatus !== 'ready') {
      if (this.modelStatus === 'idle') this.loadModel();
      this.stale = this.shownTrace !== null;  // what is on screen is not the trained model's
      return;
    }
    const id = ++this.computed;  // an answer of the worker still on its way is dropped
    this.busy = false;
    const wanted = this.spec;
    if (!this.model && !this.extras.length && !this.modelWarm) return this.firstModelTrace(core, wanted, id);
    const sent = toSpec({ ...this.state, model: 'random' }, this.overrides) as Json;
    let extras = this.extras.filter((k) => Object.hasOwn(sent, k)), refusal: { field: string; message: string } | null = null;
    this.extras = [];
    this.refusals = {};
    for (;;) {
      const spec = { ...wanted, ...Object.fromEntries(extras.map((k) => [k, sent[k]])) } as Spec;
      const result = core.trace(spec) as Json;
      const field = result.error?.field;
      if (field && extras.includes(field)) {
        refusal ??= result.error;
        this.refusals = { ...this.refusals, [field]: result.error.message };
        extras = extras.filter((k) => k !== field);
        continue;
      }
      return this.show(wanted, wanted, result, refusal, []);
    }
  }

  /** The model's first trace, computed in the page's worker: on the page's cold module it was
   *  one of the longest tasks of opening a model link (50-90 ms, and its heads' probe, computed
   *  once per module, as long again). The worker's run compiles the code the page's module
   *  shares, so the page's own probe, in an idle slot after the views, then costs little. */
  private firstModelTrace(core: AttentionCore, spec: Spec, id: number) {
    const onPage = () => this.show(spec, spec, core.trace(spec) as Json, null, []);
    const weights = core.installedModel();
    if (!weights) return onPage();
    const worker = background(core);
    worker.install(weights);
    worker.run(spec, this).then((result) => {
      if (result === null || id !== this.computed) return;
      this.show(spec, spec, result as Json, null, []);
    }, () => { if (id === this.computed) onPage(); }).finally(() => idle(() => {
      this.modelWarm = true;
      const probe = modelSpec(' ');
      if (!large(core, probe)) core.trace(probe);  // asked first, as every path that runs the core
    }));
  }

  /** Fetches the trained model's weights once (the core keeps them for every element of the
   *  page), saying so while they come; a failure is said beside the Model control. */
  private loadModel() {
    const core = this.core!;
    this.modelStatus = 'loading';
    this.modelError = '';
    const failed = (why: string) => {
      this.modelStatus = 'failed';
      this.modelError = `The trained model could not be loaded: ${why}. Switch Model back to random, or try again.`;
    };
    core.loadModel().then((r) => {
      if ('error' in r) return failed(r.error.message);
      // The first trace in a task of its own: with the weights' install it made one long task.
      setTimeout(() => {
        this.card = r.card;
        this.modelStatus = 'ready';
        this.compute();
      });
    }, (e) => failed(String(e?.message ?? e)));
  }

  private retryModel = () => {
    this.modelStatus = 'idle';
    this.compute();
  };

  private show(wanted: Spec, spec: Spec, result: Json, refusal: { field: string; message: string } | null, refused: string[]) {
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
        if (this.toInduction) this.openOnInduction(this.model);
        if (this.toIntroduction) {
          this.toIntroduction = false;
          this.updateComplete.then(() => this.renderRoot.querySelector('#model-intro')?.scrollIntoView({ block: 'start' }));
        }
        this.fitView(this.model.layers.length, this.model.layers[0].weights.length, this.model.tokens.length);
        this.shownTrace = layerTrace(this.model, this.layer - 1) as unknown as Json;
      } else {
        this.model = null;
        this.shownTrace = keepUnchanged(this.shownTrace, result);  // views of unchanged numbers are not drawn again
        this.fitView(1, isSelf(result as Trace) ? result.weights.length : 1, (result.tokens as string[]).length);
      }
      this.traced = spec;
      this.stale = false;
      this.substituted = refused;
      if (this.selected) this.derive(this.selected);
    }
    this.writeHash();
    this.dispatchEvent(new CustomEvent('trace', { detail: { spec: wanted, trace: this.error ? null : this.trace, error: this.error } }));
    if (this.linked && this.shownTrace) {
      this.linked = false;  // the reader followed a link to this element: it is what they came for
      this.updateComplete.then(() => this.scrollIntoView({ block: 'start' }));
    }
  }

  /** The full-window page's link follows what is on screen. Written when typing pauses:
   *  replaceState costs milliseconds, and browsers throttle it. Not over a link opened
   *  meanwhile: its hashchange, still to come, reads it. */
  private writeHash() {
    if (!this.useHash) return;
    clearTimeout(this.hashTimer);
    const seen = location.hash;
    this.hashTimer = setTimeout(() => {
      const hash = this.hashOf();
      if (location.hash === seen && location.hash.slice(1) !== hash) history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
    }, 150);
  }

  /** The derivation of a clicked cell. In model mode the spec is the picked layer's own (its
   *  input and learned weights: state/model-mode.ts), which takes the core a tenth of a second
   *  to read: after a change of text, it waits until typing pauses (`later`). */
  private derive(sel: { key: string; head: number; row: number; col: number }) {
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

  /** The preset's sentence said twice, opened on the head that copies: of the probe's induction
   *  heads the one that copies most on this text (else the highest induction score on the probe),
   *  whichever head that is after training, and on a token of the second copy. */
  private openOnInduction(t: ModelTrace) {
    this.toInduction = false;
    const lag = repeatLag(t.tokens);
    const best = (lag === null ? null : copyingHead(t, lag)) ?? bestInduction(t.probe_head_scores);
    this.layer = best.layer + 1;
    this.focusHead = best.head;
    this.focusToken = Math.floor((t.tokens.length * 3) / 4);
  }

  /** Shows layer `layer` (from 1) of the trained model in the views, and head `head` in those
   *  that follow one head; a derivation open is of the layer shown. */
  private pickLayer(layer: number, head = this.focusHead) {
    if (!this.model) return;
    this.layer = Math.min(Math.max(1, layer), this.model.layers.length);
    this.focusHead = head;
    this.shownTrace = layerTrace(this.model, this.layer - 1) as unknown as Json;
    if (this.selected) this.derive(this.selected);
    this.writeHash();
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
  private openModel = () => {
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

  private repeatSentence = () => {
    const sentence = String(this.state.sentence);
    if (repeatRefusal(sentence, this.model?.tokens.length ?? 0)) return;
    this.setSentence(repeated(sentence));
  };

  /** The matrix whose rows are the tokens keeps the learner's rows as words come and go; a new
   *  word takes the row the seed gives it in this spec (see state/rows.ts). */
  private followSentence(before: string) {
    const key = this.state.mode === 'encoder_decoder' ? 'annotations' : 'X';
    const given = this.overrides[key] as Matrix | undefined;
    if (!this.core || !given?.length) return;
    // The seed's matrices alone (no attention is run): cheap at any length and with any mode on.
    const tokensOf = (sentence: string) => {
      const t = this.core!.parameters({ sentence, d_model: 1 }) as Json;
      return t.error ? null : (t.tokens as string[]);
    };
    if (this.own?.key !== key || this.own.value !== given) {
      const fitted = this.own?.key === key ? this.own.fitted : undefined;
      this.own = { key, rows: ownRows(tokensOf(before) ?? [], given, fitted), value: given };
    }
    const tokens = tokensOf(String(this.state.sentence));
    if (!tokens) return;  // no words (the box cleared to retype): the core's message says so
    const spec = toSpec(this.state, without(this.overrides, [key])) as Json;
    if (key === 'X' || !this.overrides.decoder_state) spec.d_model = given[0].length;
    const seed = (this.core.parameters(spec as Spec) as Json)[key] as Matrix | undefined;
    if (seed?.length !== tokens.length) return;  // the seed cannot say (another matrix is refused): the core's message will
    const fitted = fitRows(this.own.rows, tokens, seed, key);
    // "no" then "now" may take the same seed row: the matrix stays, the note names the word.
    const same = JSON.stringify(fitted.matrix) === JSON.stringify(given);
    this.note = fitted.note || (same ? this.note : '');
    if (same) return;
    this.own = { ...this.own, value: fitted.matrix, fitted };
    this.overrides = { ...this.overrides, [key]: fitted.matrix };
  }

  private applyPreset(p: Preset) {
    this.adopt(readEntries([], startFrom(p)), '', p.note);
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

  // One listener for the strip, not one per chip (a pasted text brings hundreds of chips).
  private onChip = (e: Event) => {
    const index = (e.target as HTMLElement).closest<HTMLElement>('button.token')?.dataset.index;
    if (index !== undefined) this.follow(Number(index), true);
  };

  private onPosition = (e: Event) => {
    const input = e.target as HTMLInputElement, n = (this.shownTrace?.tokens as string[] | undefined)?.length ?? 0;
    const i = Number(input.value);
    this.positionError = Number.isInteger(i) && i >= 0 && i < n && input.value.trim() !== '' ? ''
      : `${clip(input.value, 20) || 'an empty field'} is not a position here: 0 to ${n - 1}`;
    if (!this.positionError) this.follow(i, true);
  };

  /** Follows token i in the flow view; from the token chips, the view comes into sight too. */
  private follow(i: number, show = false) {
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
   *  sight as far as the clicked cell stays on screen. The link follows the view too: the
   *  token, head and layer followed, however they changed. */
  protected async updated(changed: Map<PropertyKey, unknown>) {
    if (this.shownTrace && VIEW_PROPERTIES.some((k) => changed.has(k))) this.writeHash();
    if (!this.shotGone && (this.shownTrace || this.loadError)) {
      this.querySelector(':scope > [slot="first-screen"]')?.remove();
      this.shotGone = document.readyState !== 'loading';  // one the parser has still to reach is looked for again
    }
    if (!this.reveal) return;
    this.reveal = false;
    const sel = this.selected;
    // the steps draw after the page: the panel is in one of them
    await Promise.all(Array.from(this.renderRoot.querySelectorAll<LitElement>('ap-deferred-block'), (b) => b.updateComplete));
    const panel = this.renderRoot.querySelector<HTMLElement>('.derivation');
    const map = sel && Array.from(this.renderRoot.querySelectorAll<HTMLElement & { head: number }>(`ap-heatmap[key="${sel.key}"]`))
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

  private onCellEdit(e: CustomEvent) {
    const { key, row, col, values } = e.detail as { key: string; row: number; col: number; values: Matrix };
    if (!this.shownTrace || !this.editable(key)) return;
    const vector = key === 'decoder_state';
    const current = (vector ? [this.shownTrace[key]] : this.shownTrace[key]) as Matrix;
    const next = current.map((r) => [...r]);
    // A pasted block: the heatmap already left out what falls outside the matrix.
    values.forEach((r, i) => r.forEach((v, j) => { if (next[row + i]?.[col + j] !== undefined) next[row + i][col + j] = v; }));
    this.overrides = { ...this.overrides, [key]: vector ? next[0] : next };
    this.compute();
  }

  /** Whether a matrix takes typed numbers: X and the weights of random mode (the trained model's
   *  are learned, and shown as they are). */
  private editable(key: string): boolean {
    return EDITABLE.has(key) && !this.model && !this.modelMode();
  }

  private resetMatrix(key: string) {
    const next = { ...this.overrides } as Json;
    delete next[key];
    this.overrides = next;
    this.compute();
  }

  /** The link of the state on screen, on `share-url` when the embedder gave one (http(s) or
   *  relative only). Parsed as a URL, so what it holds is percent-encoded: a link is text a
   *  reader may paste anywhere. */
  private link(): string {
    const shareURL = urlAttribute(this, 'share-url');
    if (!this.useHash && !shareURL.url) {
      // No hosted playground named: a link to this page, under this element's name, which it
      // reads back; the page's own hash (a slide deck's #/3) stays as it is.
      const url = new URL(location.href);
      url.hash = withScope(location.hash, this.scope(), this.hashOf(this.attributeReading()));
      return url.href;
    }
    const url = new URL(shareURL.url ?? location.href.split('#')[0]);
    url.hash = this.hashOf();
    return url.href;
  }

  /** Whether Embed may write an <iframe>: there is a page that is the playground to frame. */
  private framable(): boolean {
    return this.useHash || Boolean(urlAttribute(this, 'share-url').url);
  }

  private snippet(): string {
    // The trained model's snippet says the model and the sentence: nothing else applies to it.
    const model = this.modelMode();
    const matrices = model ? [] : Object.entries(this.overrides).map(([k, v]): [string, string] => [attributeOf(k), JSON.stringify(v)]);
    // How it looks and where it links travel too: the copy shows what this one shows.
    const shown = COPIED.flatMap((name): Array<[string, string]> => {
      if (name === VIEW_ATTRIBUTES.focus) return this.focusToken ? [[name, String(this.focusToken)]] : [];
      if (name === VIEW_ATTRIBUTES.head) return this.focusHead ? [[name, String(this.focusHead)]] : [];
      if (name === VIEW_ATTRIBUTES.layer) return model && this.layer !== VIEW_DEFAULTS.layer ? [[name, String(this.layer)]] : [];
      if (name === 'share-url' || name === 'script-url') {
        const { url } = urlAttribute(this, name);
        return url ? [[name, url]] : [];
      }
      const v = this.getAttribute(name);
      return v === null || (name === 'theme' && v === 'auto') ? [] : [[name, v]];
    });
    const table = model ? SETTINGS.filter((d) => d.key === 'model' || d.key === 'sentence') : SETTINGS;
    return elementSnippet('attention-playground', scriptOf(this), table, this.state, [...shown, ...matrices]);
  }

  private async share() {
    const url = this.link();
    this.numpyText = '';
    const long = tooLong(url);
    this.offerSpec = Boolean(long);
    if (long) {
      this.shareText = '';
      this.toolNote = `${long} Download the spec as a JSON file instead: attention-cli run spec.json computes the same numbers.`;
      return;
    }
    this.shareText = url;
    this.toolNote = refusedURLs(this) + ((await copyText(url)) ? 'Link copied.' : 'Copy the link below.');
  }

  private async embed() {
    const url = this.link();
    const long = tooLong(url);
    // An <iframe> needs a page that is the playground (this one on the full page, or share-url),
    // and a link that opens: otherwise it would frame a blog post or an error page.
    const framed = !long && this.framable();
    this.shareText = framed ? `${iframeSnippet(url, 'Attention Playground', 720)}\n\n${this.snippet()}` : this.snippet();
    this.numpyText = '';
    this.offerSpec = false;
    const copied = await copyText(this.shareText);
    this.toolNote = refusedURLs(this) + (long ? `${long} ${copied ? 'The element snippet was copied' : 'Copy the element snippet below'}: it holds the matrices itself.`
      : framed ? (copied ? 'Embed snippets copied: an <iframe>, or the element itself.' : 'Copy a snippet below.')
      : `${copied ? 'The element snippet was copied' : 'Copy the element snippet below'}. (For an <iframe> too, give this element share-url: the address of a hosted playground page.)`);
  }

  private async downloadSpec() {
    const { download } = await takeAway();
    download('spec.json', `${JSON.stringify(this.spec, null, 1)}\n`, 'application/json');
  }

  private async copyNumpy() {
    // Clicked while the first heatmap's module stands in: the whole core, on its way, writes it.
    const core = this.core ?? await load();
    const r = core.numpy(this.spec);
    if (typeof r !== 'string') return;
    // The trained model's program says where the layer and head on screen are in what it leaves
    // (whole numbers only: nothing of the reader's reaches the comment).
    // (after the coding line, which must stay among the first two)
    const shown = this.model ? `# On the page: ${this.layerOf(true).toLowerCase()}, which is layers[${this.layer - 1}]["weights"][${this.focusHead}] below.\n` : '';
    const [first, ...rest] = r.split('\n');
    this.numpyText = shown ? [first, shown + rest.join('\n')].join('\n') : r;
    this.shareText = '';
    this.offerSpec = false;
    this.toolNote = (await copyText(this.numpyText)) ? 'NumPy program copied: it rebuilds every number on screen.' : 'Copy the NumPy program below.';
  }

  private async exportMatrix(format: string, data: MatrixData, file: string) {
    const { download, toCSV, toJSON, toSVG, toPNG } = await takeAway();
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
    const { download, standaloneSVG, svgToPNG, TITLE_BAND } = await takeAway();
    const heads = arcs!.weights.length;
    const text = standaloneSVG(svg, `attention arcs${heads > 1 ? `, heads 0 to ${heads - 1}` : ''}`, 'line width and strength: weight ÷ the largest of its row');
    if (format === 'svg') download('arcs.svg', text, 'image/svg+xml');
    else download('arcs.png', await svgToPNG(text, svg.viewBox.baseVal.width, svg.viewBox.baseVal.height + TITLE_BAND));
  }

  private exportMenu(onPick: (format: string, e: Event) => Promise<void>, formats = ['png', 'svg', 'csv', 'json']) {
    // A file that cannot be made (a picture too large for any canvas, say) is said, not thrown.
    const pick = (f: string, e: Event) => onPick(f, e).catch((error) => {
      this.note = `The ${f.toUpperCase()} file could not be made: ${error?.message ?? error}.`;
    });
    return html`<details class="export"><summary>export</summary>
      ${formats.map((f) => html`<button class="small" data-format=${f} @click=${(e: Event) => pick(f, e)}>${f.toUpperCase()}</button>`)}
      <button class="small" data-format="numpy" @click=${this.copyNumpy}>Copy as NumPy</button></details>`;
  }

  private newSeed() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    this.set(SETTINGS.find((s) => s.key === 'seed')!, String(seed));
  }

  // ---------------------------------------------------------------- controls
  /** `folded`: inside the closed Settings disclosure, where a message would not be seen. */
  private control(def: SettingDef, folded = false): TemplateResult | typeof nothing {
    if (!applies(def, this.state)) return nothing;
    const home = this.error && (ERROR_HOME.get(this.error.field) ?? this.error.field) === def.key ? this.error.message : '';
    if (this.modelMode() && def.key !== 'model' && def.key !== 'sentence') {
      // Put away in model mode; a setting a link gave along with the model stands, disabled, with the core's message.
      const message = home || this.refusals[def.key];
      if (!message) return nothing;
      if (home && !folded) this.errorShown = true;
      return settingControl(def, { value: this.state[def.key], set: () => undefined, message, disabled: true,
        hint: 'Put away: it shapes random weights, and the trained model’s are learned.' });
    }
    if (home && !folded) this.errorShown = true;
    if (def.key === 'model') return this.modelControl(def, home);
    const locked = def.key === 'd_model' && givenWidth(this.overrides) !== undefined;
    return settingControl(def, {
      value: this.state[def.key], set: (text) => this.set(def, text), message: this.inputErrors[def.key] || home,
      disabled: locked, hint: locked ? 'set by your matrix' : def.key !== 'sentence' ? ''
        : this.modelMode() ? readsPieces(this.model?.tokens.length) : this.compact ? '' : WORDS.startHere,
      auto: autoValue(def.key, this.shownTrace),
      extra: def.key === 'seed' ? html`<button class="small" @click=${this.newSeed} title="Draw a new random seed">new random</button>` : undefined,
    });
  }


  /** Random weights or the trained model: while its weights load, said here and above the
   *  views; a failure to load them is said here, with a way to try again. */
  private modelControl(def: SettingDef, home: string) {
    const model = this.modelMode();
    const loading = model && this.modelStatus === 'loading';
    const failed = model && this.modelStatus === 'failed';
    return settingControl(def, {
      value: this.state[def.key], set: (text) => this.set(def, text), message: (failed ? this.modelError : '') || home,
      hint: !model ? '' : loading ? `Loading the trained model, ${WEIGHTS_SIZE}…` : PUT_AWAY,
      extra: failed ? html`<button class="small" data-action="retry-model" @click=${this.retryModel}>try again</button>` : undefined,
      // a model trained in /learn/'s tab is named by its card, not by the shipped model's name
      names: this.card?.name ? { [MODEL]: this.card.name } : undefined,
    });
  }

  /** The worked examples: a row of buttons, or on a phone-wide element one labelled list, so
   *  that none is hidden off the right edge of the screen. */
  private presetPicker() {
    if (this.narrow) {
      const pick = (e: Event) => {
        const p = PRESETS.find((x) => x.id === (e.target as HTMLSelectElement).value);
        if (p) this.applyPreset(p);
      };
      // The list shows the example on screen (none once a setting is changed), and the trained
      // model, the first of them, is one tap away beside it (until it is on screen).
      const now = toHash(this.state, this.overrides);
      const shown = PRESETS.find((p) => toHash(startFrom(p).state, startFrom(p).overrides) === now)?.id ?? '';
      const first = PRESETS[0];
      return html`<div class="presets picker" part="presets"><label>Worked examples
        <select data-action="preset" @change=${pick}><option value="" ?selected=${!shown}>choose one…</option>
          ${PRESETS.map((p) => html`<option value=${p.id} ?selected=${p.id === shown}>${p.label}</option>`)}</select></label>
        ${isModelState(this.state) ? nothing : html`<button class="small preset" data-preset=${first.id} @click=${() => this.applyPreset(first)}>${first.label}</button>`}</div>`;
    }
    return html`<nav class="presets" part="presets" aria-label="Worked examples">
      ${PRESETS.map((p) => html`<button class="preset" data-preset=${p.id} @click=${() => this.applyPreset(p)}>${p.label}</button>`)}
    </nav>`;
  }

  /** On a narrow element the results come first: the sentence stays, the rest folds away. */
  private folded(shown: SettingDef[]) {
    const rest = shown.filter((d) => d.key !== 'sentence');
    // The few controls an embedder picked (controls="seed,temperature") stay in sight: folding
    // is for the whole table, which would push the results off a phone's screen.
    if (rest.length <= FEW_CONTROLS) return shown.map((d) => this.control(d));
    const toggled = (e: Event) => (this.settingsOpen = (e.target as HTMLDetailsElement).open);
    return [
      ...shown.filter((d) => d.key === 'sentence').map((d) => this.control(d)),
      ...(rest.length ? [html`<details class="settings" ?open=${this.settingsOpen} @toggle=${toggled}>
        <summary>Settings</summary><div class="fold">${rest.map((d) => this.control(d, !this.settingsOpen))}</div></details>`] : []),
    ];
  }

  // ---------------------------------------------------------------- views
  private heatmap(key: string, matrix: Matrix, opts: { head?: number; label?: string; rows?: string[]; cols?: string[]; masked?: Matrix; scale?: Scale; caption?: string } = {}) {
    const t = this.shownTrace!;
    const sel = this.selected && this.selected.key === key && this.selected.head === (opts.head ?? 0)
      ? [this.selected.row, this.selected.col] as [number, number] : undefined;
    const lit = this.lit.get(key) ?? this.lit.get(`${key}@${opts.head ?? 0}`);
    const error = this.error && this.error.field === key ? this.error.message : '';
    if (error) this.errorShown = true;
    const instead = this.substituted.includes(key) ? ` Yours was not kept: shown here and used in every step is the seed's ${key}.` : '';
    const tokens = t.tokens as string[];
    const scale = opts.scale ?? scaleOf(t, key);
    // The picture file is coloured as the heatmap is at the moment it is asked for (row-relative or not).
    const relative = (e: Event) => Boolean((e.target as HTMLElement).closest('.matrix')?.querySelector('ap-heatmap')?.hasAttribute('relative'));
    // key as an attribute: a heatmap not drawn yet reflects none, and is still found by its key
    return html`<div class="matrix">
      <ap-heatmap key=${key} .label=${opts.label ?? key} .matrix=${matrix} .head=${opts.head ?? 0} .caption=${opts.caption ?? ''}
        .rows=${opts.rows ?? tokens} .cols=${opts.cols ?? []} .masked=${opts.masked} .scale=${scale} .selected=${sel} .lit=${lit}
        .relative=${this.relative === true} ?editable=${this.editable(key)} ?clickable=${['scores', 'weights', 'output'].includes(key)} ?highlight=${this.highlighted.includes(key)}></ap-heatmap>
      ${this.exportMenu((f, e) => this.exportMatrix(f, {
        label: opts.label ?? key, matrix, rows: opts.rows ?? tokens, cols: opts.cols ?? [],
        scale, relative: relative(e), masked: opts.masked,
      }, (opts.label ?? key).replace(/[^\w]+/g, '_')))}
      ${this.editable(key) && Object.hasOwn(this.overrides, key) ? html`<button class="small" @click=${() => this.resetMatrix(key)}>reset ${key} to the seed</button>` : nothing}
      ${error ? html`<div class="message" role="alert">${error}${instead}</div>` : nothing}
    </div>`;
  }

  private perHead(key: string, stack: Matrix[], opts: { cols?: string[]; scale?: Scale; masked?: Matrix; caption?: string; name?: string } = {}) {
    const name = opts.name ?? key;
    return stack.map((m, h) => this.heatmap(key, m, { ...opts, head: h, label: stack.length > 1 ? `${name} · head ${h}` : name }));
  }

  /** A weight matrix, its rows numbered. */
  private weightMatrix(key: string) {
    const m = this.shownTrace![key] as Matrix | undefined;
    return m ? this.heatmap(key, m, { rows: Array.from({ length: m.length }, (_, i) => String(i)) }) : nothing;  // not m.map: it would build every row
  }

  /** The views of current models' attention: RoPE, ALiBi, grouped-query and cross-attention
   *  (undefined: the key is drawn as in any self-attention trace). */
  private modern(key: string, t: Json): unknown {
    const draw: DrawHeatmap = (k, m, o) => this.heatmap(k, m, o);
    const sources = t.source_tokens as string[] | undefined;
    const views = modern;  // undefined until their code is in: their places stay empty
    switch (key) {
      case 'rope_angles': return t.rope_angles && views ? views.ropeAngles(t, draw) : nothing;
      case 'rope': return t.Q_rope && views ? views.ropePairs(t, draw) : nothing;
      case 'alibi_slopes': return t.alibi_slopes && views ? views.alibiSlopes(t, draw) : nothing;
      case 'bias': return t.bias && views ? views.alibiBias(t, draw) : nothing;
      case 'kv_group': return t.kv_group && t.spec.kv_heads < t.spec.heads && views ? html`${views.gqaDiagram(t)}${views.gqaCosts(t)}` : nothing;
      case 'X_source': return sources ? this.heatmap('X_source', t.X_source, { rows: sources }) : nothing;
      case 'K': case 'V': return sources ? this.heatmap(key, t[key], { rows: sources }) : undefined;
      case 'arcs': return sources ? html`<div class="matrix"><div class="arcs-title">arcs: the sentence over the source (hover a token)</div>
        <ap-cross-arcs .tokens=${t.tokens} .sources=${sources} .weights=${t.weights}></ap-cross-arcs></div>` : undefined;
      default: return undefined;
    }
  }

  private showSelf(key: string): unknown {
    const t = this.shownTrace!;
    const tokens = t.tokens as string[];
    const mine = this.modern(key, t);
    if (mine !== undefined) return mine;
    const keys = (t.source_tokens ?? tokens) as string[];  // the columns: the source's tokens in cross mode
    switch (key) {
      case 'scores': return this.perHead('scores', t.scores, { cols: keys, masked: t.mask });
      case 'raw_scores': return this.rawScores();
      case 'weights': return html`${this.randomNote()}${this.uniformHint(t)}${this.perHead('weights', t.weights, { cols: keys, masked: t.mask })}`;
      case 'heads': return this.perHead('heads', t.heads);
      case 'decode': return html`<ap-decode-stepper .trace=${t} .start=${this.stepAt}></ap-decode-stepper>`;
      case 'online': return html`<ap-online-stepper .trace=${t} .start=${this.blockAt}></ap-online-stepper>`;
      case 'mask': return t.mask ? this.heatmap('mask', t.mask, { cols: tokens, caption: '1 = visible, 0 = masked' })
        : this.heatmap('mask', this.derived(t).visible, { cols: keys, label: 'mask: none', caption: 'every token sees every token (all 1)' });
      case 'arcs': return html`<div class="matrix"><div class="arcs-title">${this.model ? `arcs of head ${this.focusHead}, layer ${this.layer} (hover a token)` : 'arcs (hover a token)'}</div>
        ${this.randomNote()}<ap-arcs .tokens=${tokens} .weights=${t.weights} .head=${this.model ? Math.min(this.focusHead, t.weights.length - 1) : -1}></ap-arcs>
        ${this.exportMenu((f, e) => this.exportArcs(f, e), ['png', 'svg'])}</div>`;
      case 'W_q': case 'W_k': case 'W_v': case 'W_o': case 'W_a': case 'W_1': case 'W_2': return this.weightMatrix(key);
      default: return Object.hasOwn(t, key) ? this.heatmap(key, t[key], { caption: captionOf('self', key) }) : nothing;
    }
  }

  private showEncoderDecoder(key: string): unknown {
    const t = this.shownTrace!;
    const tokens = t.tokens as string[];
    switch (key) {
      case 'decoder_state': return this.heatmap('decoder_state', [t.decoder_state], { rows: ['h'] });
      case 'scores': return this.heatmap('scores', [t.scores], { rows: ['h'], cols: tokens });
      case 'weights': return this.heatmap('weights', [t.weights], { rows: ['h'], cols: tokens });
      case 'context': return this.heatmap('context', [t.context], { rows: ['c'] });
      case 'output': return this.heatmap('output', [t.output], { rows: ['y'] });
      case 'W_c': case 'W_a': case 'W_1': case 'W_2': return this.weightMatrix(key);
      default: return Object.hasOwn(t, key) ? this.heatmap(key, t[key]) : nothing;
    }
  }

  /** Matrices the steps show that the trace does not hold, made once per trace: the scores
   *  before scaling (each score divided by scale ÷ temperature again) and, with no mask, the
   *  all-visible mask. */
  private derived(t: Json): { raw: Matrix[] | null; factor: number; visible: Matrix } {
    if (this.derivedFor?.trace !== t) {
      const factor = t.scale / t.spec.temperature;
      const n = (t.tokens as string[]).length, m = ((t.source_tokens ?? t.tokens) as string[]).length;
      // With ALiBi's bias or a softcap the scores are no multiple of q·k: they are not divided back.
      const raw = factor !== 0 && Number.isFinite(factor) && t.spec.mode !== 'encoder_decoder' && !t.bias && !t.spec.softcap
        ? (t.scores as Matrix[]).map((m) => dividedLazily(m, factor)) : null;
      const ones = new Array(m).fill(1);  // one row, shown n times: nothing reads it to write
      this.derivedFor = { trace: t, value: { raw, factor, visible: t.mask ? [] : Array.from({ length: n }, () => ones) } };
    }
    return this.derivedFor.value;
  }

  /** Where the weights are near-uniform (a random model's are: every row's largest under 0.5),
   *  0 to 1 paints them all one dark colour: said right there, with the view that shows their
   *  ranking one click away. */
  private uniformHint(t: Json): unknown {
    if (this.relative !== null || !nearUniform(t.weights as Matrix[], t.mask as Matrix | undefined)) return nothing;
    return html`<p class="hint uniform">${WORDS.uniform}
      <button class="small" data-action="relative-all" @click=${() => (this.relative = true)}>${WORDS.relativeAll}</button></p>`;
  }

  /** The Score step's matrix: q·k (or the general or additive score) before it is scaled. */
  private rawScores() {
    const t = this.shownTrace!;
    const { raw, factor } = this.derived(t);
    const tokens = (t.source_tokens ?? t.tokens) as string[];
    const name = t.spec.score === 'general' ? 'q W_a kᵀ' : t.spec.score === 'additive' ? 'additive score' : 'q·kᵀ';
    if (t.raw_scores) {
      // With ALiBi's bias or a softcap the scores are no multiple of q·k: the core gives q·k itself.
      const then = [t.bias ? '+ the bias' : '', t.spec.softcap ? 'capped' : ''].filter(Boolean).join(', then ');
      return this.perHead('raw_scores', t.raw_scores, { cols: tokens, masked: t.mask, scale: diverging(extent(t.raw_scores)), name,
        caption: `before scaling; the scores are these × ${short(factor)} ${then}` });
    }
    if (!raw) return html`<p class="hint">The scale ÷ temperature is ${full(factor)}, so the scores before it cannot be shown apart; the Scale step shows the scores.</p>`;
    const scale = diverging((scaleOf(t, 'scores') as { m: number }).m / Math.abs(factor));
    return this.perHead('raw_scores', raw, { cols: tokens, masked: t.mask, scale, name,
      caption: factor === 1 ? 'before scaling (× 1: the same as the scores)' : `before scaling: scores ÷ ${short(factor)}` });
  }

  private stepDef(): Step | undefined {
    return this.steps().find((s) => s.id === this.step);
  }

  /** The trace on screen decides the views (it may be the last good one, of another mode). */
  private tracedMode(): boolean {
    return this.shownTrace?.spec?.mode === 'encoder_decoder';
  }

  private steps(): Step[] {
    const ed = this.tracedMode();
    return (ed ? ENCODER_DECODER_STEPS : SELF_STEPS).filter((s) => ed || s.id !== 'sublayer' || this.shownTrace?.spec?.residual)
      .filter((s) => !s.needs || this.shownTrace?.[s.needs] !== undefined);
  }

  private stepView(given: Step, i: number) {
    const ed = this.tracedMode();
    const t = this.shownTrace!;
    const s = this.model ? { ...given, ...this.modelStep(given.id) } : given;
    const embedding = s.id === 'embed' && !ed && !this.model ? embeddingNote(this.traced) : '';
    const extra = s.id === 'scale' && !ed
      ? html`<p class="fact">scale = ${full(t.scale)}${t.spec.temperature !== 1 ? html`, temperature = ${full(t.spec.temperature)}` : nothing}${t.spec.softcap ? html`, softcap = ${full(t.spec.softcap)}: logits = softcap · tanh((score × scale + bias) ÷ softcap)` : nothing}</p>` : nothing;
    const deriving = this.derives(s);
    return html`<section class="step ${deriving ? 'deriving' : ''}" part="card" id="step-${s.id}" tabindex="-1"
        @mouseenter=${() => (this.step = s.id)} @mouseleave=${() => (this.step = '')} @focusin=${() => (this.step = s.id)}>
      <h2><span class="num">${i + 1}</span> ${s.title}</h2>
      <p class="formula">${s.formula}</p>
      <p class="about">${s.id === 'embed' && !ed && this.traced.X ? OWN_ROWS : s.text}</p>${extra}${t.source_tokens && modern ? modern.crossNote(s.id) : nothing}
      <div class="body ${deriving ? 'deriving' : ''}">
        <div class="matrices">${s.shows.map((k) => (ed ? this.showEncoderDecoder(k) : this.showSelf(k)))}</div>
        ${deriving ? this.derivationPanel() : nothing}
      </div>
      ${embedding ? html`<p class="hint embed-note">${embedding}</p>` : nothing}
    </section>`;
  }

  /** The derivation on screen explains a cell of this step. */
  private derives(s: Step): boolean {
    return Boolean(this.derivation && this.selected && s.shows.includes(this.selected.key));
  }

  /** What a step says of a layer of the trained model, where its words for random weights do not fit. */
  private modelStep(id: string): Partial<Step> {
    const second = this.layer > 1;
    const spec = this.model?.layers[this.layer - 1]?.spec as { d_model?: number; heads?: number } | undefined;
    const d = spec?.d_model ?? 0, dk = d / (spec?.heads ?? 1);  // the model's shape, as its trace says it
    switch (id) {
      case 'embed': return {
        title: `The residual stream into layer ${this.layer}`,
        formula: second ? 'X = E[token] + P[position] + the earlier layers’ outputs' : 'X = E[token] + P[position]   (both learned)',
        text: second ? `What layer ${this.layer} reads: each token’s learned embedding plus its position’s, with every earlier layer’s output added on. So a head here can use what a head of layer ${this.layer - 1} found: an induction head reads the work of a previous-token head.`
          : `Each token’s learned embedding plus its position’s: ${d} numbers per token, the same word piece at another position gets another row. Layer 2 reads this stream after layer 1 has added its output to it.`,
      };
      case 'project': return { text: `The learned W_q, W_k and W_v turn each row of X into a query (what this token looks for), a key (what it offers) and a value (what it passes on); head i uses its own ${dk} columns of each.` };
      case 'mask': return { text: 'The model predicts each next token from the ones before it, so it may not look ahead: the causal mask hides every later position (hatched).' };
      case 'concat': return { text: `The heads’ outputs side by side, mixed back to ${d} columns by W_o. The layer adds this output to X: the residual stream ${second ? 'that a learned unembedding turns into the next-token probabilities above' : 'layer 2 reads'}.` };
      default: return {};
    }
  }

  private shown(def: SettingDef) {
    if (this.controls === 'all' || this.controls === '') return true;
    // The reader switched the model (Open the trained model): the Model control is the way back.
    if (def.key === 'model' && this.state.model !== this.givenModel) return true;
    if (this.controls === 'none') return false;
    return this.controls.split(',').map((k) => k.trim()).includes(def.key);
  }

  /** What `view` may name for the trace on screen: a step, a matrix a step shows, "arcs", or
   *  (self-attention) "flow". */
  private views(): string[] {
    return [...this.steps().flatMap((s) => [s.id, ...s.shows]), ...(this.tracedMode() ? [] : ['flow']), ...(this.model ? ['heads', 'overview', 'next'] : [])];
  }

  /** The `view` attribute when it names one of views(), else '' (every step is shown). */
  private chosenView(): string {
    return this.views().includes(this.view) ? this.view : '';
  }

  private single(view: string): unknown {
    if (view === 'overview' || view === 'heads') return this.overview();
    if (view === 'next') return this.nextCard();
    // a view of one layer of the trained model says which (and which head, where it follows one)
    const layer = this.model ? html`<p class="hint layer-of">${this.layerOf(view === 'flow')}</p>` : nothing;
    return html`${layer}${this.singleView(view)}`;
  }

  /** "layer 2 of 2", and the head followed with `head`. */
  private layerOf(head: boolean): string {
    return `Layer ${this.layer} of ${this.model?.layers.length ?? 1}${head ? `, head ${this.focusHead}` : ''}`;
  }

  private singleView(view: string): unknown {
    if (view === 'flow') return this.flowView();
    const step = this.steps().find((s) => s.id === view);
    if (step) return this.stepView(step, this.steps().indexOf(step));
    const ed = this.tracedMode();
    const deriving = Boolean(this.derivation && this.selected?.key === view);
    return html`<div class="body ${deriving ? 'deriving' : ''}">
      <div class="matrices">${ed ? this.showEncoderDecoder(view) : this.showSelf(view)}</div>
      ${deriving ? this.derivationPanel() : nothing}</div>`;
  }

  /** How the clicked number came to be, beside the matrices it reads (or under them, or in a
   *  sheet at the bottom of a phone's screen: see the styles). */
  private derivationPanel() {
    const close = () => { this.derivation = null; this.selected = null; };
    return html`<div class="derivation" part="derivation" role="region" aria-label="How this number is computed" aria-live="polite"
        @keydown=${(e: KeyboardEvent) => { if (e.key === 'Escape') close(); }}>
      <button class="small close" aria-label="Close the derivation" @click=${close}>close</button>
      <ap-derivation .derivation=${this.derivation} .tokens=${this.shownTrace!.source_tokens ?? this.shownTrace!.tokens} .group=${this.shownTrace!.kv_group ?? []}></ap-derivation></div>`;
  }

  /** Follow one token: its own card on the full page, or the whole element with view="flow". */
  private flowView() {
    if (this.tracedMode()) return nothing;
    return html`<section class="step flow ${this.view === 'flow' ? 'alone' : ''}" part="card" id="step-flow" tabindex="-1">
      <h2>Follow one token${this.model ? `: layer ${this.layer}` : ''}</h2>
      <p class="about">${this.view === 'flow' ? 'One query’s path through one head, with the real numbers: pick a token to follow.'
        : 'One query’s path through one head, with the numbers of the steps above: pick a token here, in the tokens at the top, or by its row’s label in any matrix.'}</p>
      ${this.randomNote()}
      <ap-flow .trace=${this.shownTrace} .token=${this.focusToken} .head=${this.focusHead} ?eager=${this.view === 'flow'}
        @focus-token=${(e: CustomEvent) => this.follow(e.detail.index)} @focus-head=${(e: CustomEvent) => (this.focusHead = e.detail.index)}></ap-flow>
    </section>`;
  }

  /** Where an answer seems to show on random weights (the weights, the arcs, the flow), the
   *  page says it is none, with the trained model one click away. Not where the learner typed
   *  the weights, nor in encoder-decoder mode (its numbers are the learner's or the article's). */
  private randomNote() {
    const t = this.shownTrace;
    if (this.model || !t || this.tracedMode() || (this.traced.W_q && this.traced.W_k)) return nothing;
    return html`<p class="random-note">${WORDS.random} <button class="small" data-action="open-model" @click=${this.openModel}>${WORDS.openModel}</button></p>`;
  }

  /** The trained model's tokens: word pieces, a leading space and the newline as marks, a byte
   *  of a character outside ASCII apart. Hovering or focusing one shows what the model expects after it; a click
   *  follows it in the views below too. */
  private modelTokens(t: ModelTrace) {
    const following = Math.min(this.focusToken, t.tokens.length - 1);
    const at = (e: Event) => (e.target as HTMLElement).closest<HTMLElement>('button.token')?.dataset.index;
    // A chip's title is written when it is hovered or focused: rewriting every chip's on every
    // keystroke cost a few tenths of a millisecond, for nobody to read.
    const predict = (e: Event) => {
      const i = at(e);
      if (i === undefined) return;
      (e.target as HTMLElement).closest('button.token')!.setAttribute('title', `position ${i}: ${tokenName(t.tokens[Number(i)])}`);
      this.predictAt = Number(i);
    };
    const pick = (e: Event) => { const i = at(e); if (i !== undefined) { this.predictAt = Number(i); this.follow(Number(i)); } };
    return html`<p class="hint split-note">${splitNote(t.tokens)}</p>
      <div class="tokens model" part="tokens" role="group" aria-label="Tokens: the word pieces the model reads"
        @mouseover=${predict} @focusin=${predict} @click=${pick}>
      ${t.tokens.map((tok, i) => html`<button class="token ${isByte(tok) ? 'byte' : /^\s+$/.test(tok) ? 'mark' : ''}" data-index=${i}
        aria-pressed=${i === following ? 'true' : 'false'} aria-label="position ${i}: ${tokenName(tok)}">${tokenMark(tok)}</button>`)}
    </div>`;
  }

  /** Beside Repeat: on a text said twice, what the best induction head (on the probe) does on
   *  its second copy, counted on this trace; else what repeating is for. */
  private copyLine(t: ModelTrace): string {
    const lag = repeatLag(t.tokens);
    const best = lag === null ? null : copyingHead(t, lag);
    if (!best) return repeatHint(t.probe_head_scores);
    return copyCaption(best.copying, best.layer + 1, best.head, t.probe_head_scores[best.layer][best.head].induction);
  }

  /** Repeat my sentence: the sentence twice, so an induction head has something to copy. */
  private repeatBar() {
    const why = repeatRefusal(String(this.state.sentence), this.model?.tokens.length ?? 0);
    return html`<div class="model-bar">
      <button class="small" data-action="repeat" ?disabled=${Boolean(why)} aria-describedby="repeat-why" @click=${this.repeatSentence}>Repeat my sentence</button>
      <span class="hint" id="repeat-why">${this.model && (!why || repeatLag(this.model.tokens) !== null) ? `${this.copyLine(this.model)} ${why}`.trim() : why}</span>
    </div>`;
  }

  private nextCard() {
    const t = this.model!;
    const at = this.predictAt >= 0 && this.predictAt < t.tokens.length ? this.predictAt : -1;
    return html`<section class="card next" part="card" id="model-next">
      <h2>What comes next</h2>
      <ap-next-token .model=${t} .at=${at}></ap-next-token>
      ${at >= 0 && at !== t.tokens.length - 1 ? html`<button class="small" data-action="predict-last" @click=${() => (this.predictAt = -1)}>after the last token</button>` : nothing}
    </section>`;
  }

  private overview() {
    const t = this.model!;
    const pick = (e: CustomEvent) => this.pickLayer(e.detail.layer, e.detail.head);
    return html`<section class="card overview" part="card" id="model-heads">
      <h2>What each head does</h2>
      <p class="about">Each head’s weights on this text (row: the token that looks; the future is hidden), named by what it does in general:
        its highest score on random tokens repeated twice, when that is at least 0.3; beside it, the same score on this text. Pick one to see it below.</p>
      <ap-heads-overview .model=${t} .layer=${this.layer} .head=${this.focusHead} @head-select=${pick}></ap-heads-overview>
    </section>`;
  }

  /** Which layer the walkthrough below shows. */
  private layerPicker() {
    const t = this.model!;
    return html`<div class="layers" role="group" aria-label="Layer shown below"><span class="what">Below, step by step:</span>
      ${t.layers.map((_, l) => html`<button class="small" data-layer=${l + 1} aria-pressed=${l + 1 === this.layer ? 'true' : 'false'}
        @click=${() => this.pickLayer(l + 1)}>Layer ${l + 1}</button>`)}
      <span class="hint">${this.layerOf(true)} followed (pick another above)</span></div>`;
  }

  /** What the model is, said plainly: what it learns, what it cannot, and (unfolded on demand)
   *  how it was made, from its card. */
  private modelAbout() {
    const c = this.card;
    return html`<p class="about model-about">${this.model ? modelNote(this.model.probe_head_scores) : ''}</p>
      ${c ? html`<details class="model-card"><summary>How it was trained</summary><p>${c.architecture}.
        ${c.name ? 'Trained in this tab' : 'Trained'} on ${count(c.corpus.fortunes)} fortunes of Debian’s ${c.corpus.package} package (${count(c.corpus.train_characters)} characters${c.corpus.train_tokens ? `, ${count(c.corpus.train_tokens)} tokens` : ''}),
        ${count(c.training.steps)} steps of ${c.training.batch} texts. On fortunes it never saw it scores ${short(c.held_out_loss)} nats a character,
        against ${short(c.unigram_loss)} for token frequencies alone (lower is better).</p></details>` : nothing}`;
  }

  /** Model mode, above the walkthrough: the note, the tokens, Repeat, the next token, the
   *  heads; each part in a `block` of its own (drawn when in sight, a few a frame). */
  private modelPanels(block: (content: () => unknown) => unknown) {
    return html`${block(() => html`${this.modelAbout()}${this.modelTokens(this.model!)}${this.repeatBar()}`)}
      ${block(() => html`<div class="model-cards">${this.nextCard()}${this.overview()}</div>`)}${block(() => this.layerPicker())}`;
  }

  render() {
    this.highlighted = this.stepDef()?.uses ?? [];
    this.errorShown = false;  // control() and heatmap() set it when they show the error
    this.lit = litCells(this.shownTrace, this.derivation ? this.selected : null);
    // In model mode the model and the sentence, and a setting a link gave it that the core refused.
    const home = this.error ? ERROR_HOME.get(this.error.field) ?? this.error.field : '';
    const shown = SETTINGS.filter((d) => this.shown(d) && (!this.modelMode() || d.key === 'model' || d.key === 'sentence' || d.key === home || d.key in this.refusals));
    const controls = this.narrow ? this.folded(shown) : shown.map((d) => this.control(d));
    const view = this.chosenView();
    const unknownView = this.shownTrace && this.view && !view
      ? `view="${clip(this.view, 40)}" is not a view here (a step: ${this.steps().map((s) => s.id).join(', ')}; a matrix such as X, Q or weights; arcs; or flow), so every step is shown.` : '';
    // A step draws at once, on screen or not, when the hovered step (whose matrices every step
    // highlights) changes, or a derivation opens or closes in it; a keystroke waits for sight.
    const block = (content: () => unknown, deriving = false) =>
      html`<ap-deferred-block .content=${content} .now=${`${this.step} ${deriving}`}></ap-deferred-block>`;
    const views = this.shownTrace ? (view ? this.single(view)
      : [...this.steps().map((s, i) => block(() => this.stepView(s, i), this.derives(s))), block(() => this.flowView())]) : nothing;
    // An error is shown beside its control or matrix; one with neither on screen goes above the views.
    const general = this.error && !this.errorShown ? this.error.message : '';
    // The full-window page shows all its chrome; an embedded element shows what it is asked for.
    const page = this.useHash;
    const title = page && !this.compact, presets = page || this.presets, tools = page || this.toolbar;
    const toolbar = tools ? html`<div class="tools" part="toolbar">
      <button class="small" data-action="share" @click=${this.share}>Share</button>
      <button class="small" data-action="embed" @click=${this.embed}>Embed</button>
      <button class="small" data-action="numpy" @click=${this.copyNumpy}>Copy as NumPy</button>
      ${this.toolNote ? html`<p class="note tool-note" role="status">${this.toolNote}${this.offerSpec
        ? html` <button class="small" data-action="download-spec" @click=${this.downloadSpec}>Download spec.json</button>` : nothing}</p>` : nothing}</div>` : nothing;
    const header = title || presets;
    const tokens = (this.shownTrace?.tokens ?? []) as string[];
    const following = Math.min(this.focusToken, tokens.length - 1);
    const chipped = tokens.slice(0, CHIPS), past = tokens.length - chipped.length;
    const chips = this.tracedMode()
      ? chipped.map((t, i) => html`<span class="token" title="position ${i}">${t}</span>`)
      : chipped.map((t, i) => html`<button class="token" data-index=${i} title="position ${i}: follow it below" aria-pressed=${i === following ? 'true' : 'false'}>${t}</button>`);
    const more = past <= 0 ? nothing : this.tracedMode() ? html`<p class="more">and ${past} more tokens</p>`
      : html`<p class="more"><label>and ${past} more: follow the token at position <input type="number" min="0" max=${tokens.length - 1} step="1"
          .value=${String(following)} aria-invalid=${this.positionError ? 'true' : 'false'} @change=${this.onPosition}></label>${this.positionError
        ? html` <span class="message" role="alert">${this.positionError}</span>` : nothing}</p>`;
    // The element's drawing is the slot's fallback: shown while no first screen fills the slot,
    // and always once there is a trace (or an error) to show, the slot then taking none.
    return html`<slot name=${this.shownTrace || this.loadError ? 'none' : 'first-screen'}><div class="frame">
      ${header ? html`<div class="header" part="header">
        ${title ? html`<div class="title" part="title" role="heading" aria-level="2">Attention Playground</div>` : nothing}
        ${presets ? this.presetPicker() : nothing}${toolbar}
      </div>` : nothing}
      <div class="layout ${controls.length ? '' : 'bare'} ${page ? 'page' : ''}">
        ${controls.length ? html`<div class="controls" part="controls" role="group" aria-label="Settings">${controls}</div>` : nothing}
        <div class="views" part="view" @relative-change=${(e: CustomEvent) => (this.relative = e.detail.relative)}
          @step-change=${this.onStep} @cell-select=${this.onCellSelect} @cell-edit=${this.onCellEdit} @click=${this.onRowLabel}>
          ${header ? nothing : toolbar}
          ${this.note ? html`<p class="note" role="status">${this.note}</p>` : nothing}
          ${unknownView ? html`<p class="note">${unknownView}</p>` : nothing}
          ${this.shareText ? html`<textarea class="share" readonly rows=${this.shareText.split('\n').length + 1} aria-label="Link or snippet to copy">${this.shareText}</textarea>` : nothing}
          ${this.numpyText ? html`<textarea class="share numpy" readonly rows="12" aria-label="NumPy program">${this.numpyText}</textarea>` : nothing}
          ${this.loadError ? html`<p class="message" role="alert">${this.loadError}</p>` : nothing}
          ${general ? html`<p class="message" role="alert">${general}</p>` : nothing}
          ${this.shownTrace?.warnings?.length ? html`<p class="note">${this.shownTrace.warnings.join(' ')}</p>` : nothing}
          ${!this.ready && !this.loadError ? html`<p class="hint">Loading the attention core…</p>` : nothing}
          ${this.modelMode() && this.modelStatus === 'loading' ? html`<p class="note loading-model" role="status">Loading the trained model, ${WEIGHTS_SIZE}…</p>` : nothing}
          <p class="hint busy" role="status">${this.busy ? 'Computing the new trace in the background…' : ''}</p>
          ${this.shownTrace ? html`
            ${view ? nothing : this.model ? html`<div id="model-intro" class=${this.stale ? 'stale' : ''}>${this.modelPanels(block)}</div>`
              : html`<div class="tokens" part="tokens" role="group" aria-label="Tokens" @click=${this.onChip}>${this.tracedMode() ? nothing : html`<span class="what">Follow one token:</span>`}${chips}</div>${more}`}
            ${view || !this.shownTrace.source_tokens ? nothing : html`<div class="tokens source" role="group" aria-label="Source tokens"><span class="side">source</span>
              ${(this.shownTrace.source_tokens as string[]).map((w, j) => html`<span class="token" title="source position ${j}">${w}</span>`)}</div>`}
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

/** `f` in an idle slot (within a second), or soon where there are none. */
const idle = (f: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(() => f(), { timeout: 1000 }) : setTimeout(f, 100));
