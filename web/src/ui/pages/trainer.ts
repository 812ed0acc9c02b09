// <attention-trainer>: watch a tiny attention model learn a task. The training module (forward
// and backward in C++) trains it in a Web Worker of the element's own; this element only sends
// settings and play/pause/step, and draws what comes back: the loss and accuracy curves, and
// the attention weights of one held-out example, every head, as they organise themselves.
// The "Language model" task trains the playground's model (2 layers of 4 heads) on the fortunes
// instead (trainer-lm.ts draws it), and opens it in the playground, as trained so far, below.
import { css as style, html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { TaskInfo, TrainingSnapshot } from '../../core/attention.js';
import { startTraining, type LmSnapshot, type LmStarted, type TrainingReply, type TrainingRun, type TrainingStop } from '../../core/training.js';
import { LM_FLAT_DROP } from '../../core/training-loop.js';
import { parseValue, type SettingDef } from '../../state/settings.js';
import { LM_FIELD, STEPS_PER_SECOND, TRAINING, isLanguage, outOfRange, shownRows, toLanguage, toTraining } from '../../state/training.js';
import { FORMED, LM_EXPLANATION, LM_STYLES, best, formedAt, headChart, headLegend, headName, inContextChart, lossChart } from './trainer-lm.js';
import { THEME } from '../shared/theme.js';
import { settingControl } from '../shared/control.js';
import { TableElement } from '../shared/table-element.js';
import { lineChart, CHART_STYLES } from '../views/chart.js';
import { SEQUENTIAL, short } from '../shared/colour.js';
import '../views/heatmap.js';

// One press of Play runs at most this many steps, so an embedded trainer never spins forever;
// before that it pauses by itself once the model has learned the task or the loss stopped
// falling (training-loop.ts), and says so.
const BUDGET = 5000;
// The language model's steps take tens of milliseconds: a press of Play runs at most this many
// (a few minutes), unless its held-out loss flattens first.
export const LM_BUDGET = 4000;
// What the playground opens the model trained here on: a sentence written twice, where an
// induction head has something to copy.
const INSPECT_SENTENCE = 'The cat sat on the mat. The cat sat on the mat.';

// A head whose weights on the scored rows (those with a target) are this spread out picks out
// no token: its rows' entropy is at least SPREAD of log(keys it sees), and no key gets half.
const SPREAD = 0.75, PICKS = 0.5;
// A head that looks at one place: on average its largest weight in a scored row is this or more.
const FOCUSED = 0.8;

/** How a head spreads its weight over the rows that are scored: the mean, over those rows with
 *  more than one visible key, of the row's entropy over log(keys) (1: uniform, 0: one key), and
 *  of the row's largest weight. */
export function spread(weights: number[][], targets: Array<string | null>): { evenness: number; top: number } {
  let even = 0, top = 0, rows = 0;
  weights.forEach((row, i) => {
    if (targets[i] === null || targets[i] === undefined) return;
    const keys = row.filter((v) => v > 0).length;
    if (keys < 2) return;
    even += -row.reduce((a, v) => a + (v > 0 ? v * Math.log(v) : 0), 0) / Math.log(keys);
    top += Math.max(...row);
    rows++;
  });
  return rows ? { evenness: even / rows, top: top / rows } : { evenness: 0, top: 1 };
}

const percent = (v: number) => `${Math.round(100 * v)}%`;
const heads = (list: number[]) => list.length === 1 ? `head ${list[0]}` : `heads ${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;

export class AttentionTrainer extends TableElement {
  static properties = {
    error: { state: true }, tasks: { state: true }, snapshot: { state: true }, playing: { state: true },
    rate: { state: true }, example: { state: true }, stopped: { state: true }, zoomed: { state: true },
    lm: { state: true }, lmStarted: { state: true }, loadingCorpus: { state: true }, opened: { state: true }, opening: { state: true },
    openError: { state: true }, chartWidth: { state: true },
  };
  static table = TRAINING;
  static tag = 'attention-trainer';
  static page = 'learn/';

  error: { field: string; message: string } | null = null;
  tasks: TaskInfo[] = [];
  snapshot: TrainingSnapshot | null = null;
  playing = false;
  rate = 0;       // steps per second while playing
  example = 0;    // which held-out example is shown
  stopped: TrainingStop | null = null;  // why the last play run paused by itself
  zoomed = true;  // the curves up to the step the run settled at, rather than all of them
  /** The language model's run: its latest snapshot, and what it started with. */
  lm: LmSnapshot | null = null;
  lmStarted: LmStarted | null = null;
  loadingCorpus = false;  // the fortunes are on their way
  /** The model trained here, opened in the playground below: at which step (version: a new
   *  element for each opening, which loads the weights installed then). */
  opened: { step: number; version: number; layer: number; head: number } | null = null;
  opening = false;
  openError = '';
  chartWidth = 560;  // the width the language model's charts have
  /** Steps one press of Play runs at most (null: the task's own, BUDGET or LM_BUDGET). */
  budget: number | null = null;
  private settledAt = 0;  // the step the run first paused by itself at (0: not yet)
  private run: TrainingRun | null = null;
  private heldOut = 256;  // examples in the held-out set

  connectedCallback() {
    super.connectedCallback();
    this.run = startTraining((reply) => this.receive(reply));
    this.restart();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.run?.stop();
    this.run = null;
  }

  /** A new setting starts a new run; the speed only changes the pace of this one. */
  protected apply(changed: SettingDef | null) {
    if (changed?.key === 'speed') {
      if (this.playing) this.run?.send({ rate: STEPS_PER_SECOND[String(this.state.speed)] });
      this.writeHash();
      return;
    }
    this.restart();
  }

  private receive(reply: TrainingReply) {
    if ('tasks' in reply) {
      this.tasks = reply.tasks;
      return;
    }
    if ('error' in reply) {
      this.error = reply.error;
      this.playing = reply.playing;
      this.loadingCorpus = false;
      return;
    }
    if ('started' in reply) {
      this.error = null;
      this.heldOut = reply.started.eval_size;
      return;
    }
    if ('loading' in reply) {
      this.loadingCorpus = true;
      return;
    }
    if ('languageStarted' in reply) {
      this.error = null;
      this.loadingCorpus = false;
      this.lmStarted = reply.languageStarted;
      return;
    }
    if ('model' in reply) {
      if (this.opening) this.install(reply.model, reply.step);  // not after a Reset that came meanwhile
      return;
    }
    // A reply of the other kind of run, posted before the loop heard of the new one.
    if (('language' in reply) !== isLanguage(this.state)) return;
    if ('language' in reply) this.lm = reply.language;
    else this.snapshot = reply.snapshot;
    this.playing = reply.playing;
    if (reply.stopped) {
      this.stopped = reply.stopped;
      if (!this.settledAt && reply.stopped.reason !== 'budget') this.settledAt = reply.stopped.step;
    }
    if (reply.stepsPerSecond !== undefined) this.rate = reply.stepsPerSecond;
  }

  /** A new run from step 0 with the settings on screen (and the same example shown). */
  private restart() {
    if (!this.run) return;
    this.snapshot = null;
    this.lm = null;
    this.lmStarted = null;
    this.opened = null;
    this.opening = false;
    this.openError = '';
    this.rate = 0;
    this.stopped = null;
    this.settledAt = 0;
    this.zoomed = true;
    if (isLanguage(this.state)) {
      this.run.send({ language: toLanguage(this.state) });
    } else {
      this.run.send({ start: toTraining(this.state) });
      this.run.send({ example: this.example });
    }
    this.writeHash();
  }

  /** A value the table's parser takes but the row's range does not gets a message too. */
  protected set(def: SettingDef, text: string) {
    const value = parseValue(def, text);
    const why = value === undefined ? '' : outOfRange(def, value);
    if (why) {
      this.inputErrors = { ...this.inputErrors, [def.key]: why };
      return;
    }
    super.set(def, text);
  }

  /** Asks the loop for the language model's weights so far; install() opens them. */
  private openPlayground() {
    if (!this.run || !this.lm?.step) return;
    this.opening = true;
    this.openError = '';
    this.run.send({ model: true });
  }

  /** Installs the weights trained here in the page's core (the playground's `model: "tiny-lm"`
   *  then runs on them) and shows a new playground element on them below. */
  private async install(bytes: Uint8Array, step: number) {
    try {
      const [{ load }] = await Promise.all([import('../../core/attention.js'), import('./playground.js')]);
      const core = await load();
      const r = await core.loadModel(bytes);
      if ('error' in r) throw new Error(r.error.message);
      // opened on the head that copies most (from the scores when the weights were taken)
      const top = this.lm?.history ? best(this.lm.history.induction) : { layer: 0, head: 0 };
      this.opened = { step, version: (this.opened?.version ?? 0) + 1, layer: top.layer + 1, head: top.head };
      await this.updateComplete;
      this.renderRoot.querySelector('.inspect')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    } catch (e) {
      this.openError = `The model could not be opened: ${(e as Error | null)?.message ?? e}`;
    } finally {
      this.opening = false;
    }
  }

  private play() {
    if (!this.run || this.error) return;
    if (this.playing) return this.run.send({ play: false });
    // After a pause of its own, Play keeps training past what made it pause.
    const settle = !this.settledAt;
    this.playing = true;
    this.stopped = null;
    const language = isLanguage(this.state);
    this.run.send({ play: true, budget: this.budgetOf(), settle, rate: language ? 0 : STEPS_PER_SECOND[String(this.state.speed)] });
  }

  private budgetOf() { return this.budget ?? (isLanguage(this.state) ? LM_BUDGET : BUDGET); }

  private step(count: number) {
    this.stopped = null;
    this.run?.send({ step: count });
  }

  private show(example: number) {
    this.example = (example + this.heldOut) % this.heldOut;
    this.run?.send({ example: this.example });
  }

  static styles = [THEME, CHART_STYLES, LM_STYLES, style`
    .layout { display: grid; grid-template-columns: 240px minmax(0, 1fr); }
    .controls { padding: 0.8rem 1rem; border-right: 1px solid var(--ap-line); display: flex; flex-direction: column; gap: 0.55rem; }
    .main { padding: 0.8rem 1rem 2rem; min-width: 0; }
    .explain { max-width: 75ch; color: var(--ap-muted); margin: 0 0 0.8rem; }
    .bar { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; margin-bottom: 0.6rem; }
    .stats { font-family: var(--ap-mono); font-size: 0.85rem; display: flex; gap: 0.2em 1.2em; flex-wrap: wrap; }
    .stats b { font-weight: 600; }
    .panels { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; }
    .card { background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 12px; padding: 0.6rem 0.9rem; min-width: 0; max-width: 100%; box-sizing: border-box; }
    .card h2 .zoom { margin-left: 0.5rem; font-weight: 400; }
    .card h2 { font-size: 1rem; margin: 0 0 0.4rem; }
    .seq { border-collapse: separate; border-spacing: 3px 2px; font: 0.82rem var(--ap-mono); margin-bottom: 0.6rem; }
    .seq td { text-align: center; padding: 0 4px; border-radius: 4px; min-width: 1.4em; }
    .seq th { text-align: right; font-weight: 400; color: var(--ap-muted); padding-right: 6px; }
    .seq .right { background: color-mix(in srgb, #2e933c 25%, transparent); }
    .seq .wrong { background: color-mix(in srgb, var(--ap-error) 25%, transparent); }
    .heads { display: flex; flex-wrap: wrap; gap: 0.8rem; }
    .head { min-width: 0; max-width: 100%; }
    .head-note { max-width: 36ch; margin: 0.2rem 0 0 4px; font-size: 0.82rem; color: var(--ap-muted); }
    .head-note b { color: var(--ap-fg); font-weight: 600; }
    .paused { background: color-mix(in srgb, var(--ap-focus) 12%, transparent); border-radius: 8px; padding: 0.45rem 0.8rem; margin: 0 0 0.8rem; font-size: 0.9rem; max-width: 75ch; }
    /* What is wider than the screen (a long example, a heatmap on a phone) scrolls inside its own
       box, which says so: the edge it continues past fades out, and a line under it points on. */
    .wide { max-width: 100%; }
    .scroller { overflow-x: auto; max-width: 100%; overscroll-behavior-x: contain; }
    .scroller > ap-heatmap { max-width: none; }
    .wide[data-more~='right'] .scroller { mask-image: linear-gradient(to right, #000 calc(100% - 2.5rem), transparent); }
    .wide[data-more~='left'] .scroller { mask-image: linear-gradient(to left, #000 calc(100% - 2.5rem), transparent); }
    .wide[data-more~='left'][data-more~='right'] .scroller { mask-image: linear-gradient(to right, transparent, #000 2.5rem, #000 calc(100% - 2.5rem), transparent); }
    .scroll-hint { display: none; font-size: 0.75rem; color: var(--ap-muted); margin: 0.1rem 0 0.3rem; }
    .wide[data-more] .scroll-hint { display: block; }
    .tools { display: flex; gap: 0.4rem; margin-left: auto; }
    @media (max-width: 760px) {
      .layout { grid-template-columns: minmax(0, 1fr); }
      .controls { border-right: none; border-bottom: 1px solid var(--ap-line); display: grid; grid-template-columns: 1fr 1fr; }
    }
  `];

  private controls() {
    const home = this.errorHome();
    return shownRows(this.state).map((def) => settingControl(def, {
      value: this.state[def.key], set: (text) => this.set(def, text),
      message: this.inputErrors[def.key] || (home === def.key ? this.error!.message : ''),
    }));
  }

  private sequence(s: TrainingSnapshot) {
    const verdict = (i: number) => s.targets[i] === null ? '' : s.predictions[i] === s.targets[i] ? 'right' : 'wrong';
    return html`<table class="seq" aria-label="the example: its input, the target and the model's answer at each position">
      <tr><th scope="row">input</th>${s.tokens.map((t) => html`<td>${t}</td>`)}</tr>
      <tr><th scope="row">target</th>${s.targets.map((t) => html`<td>${t ?? '·'}</td>`)}</tr>
      <tr><th scope="row">answer</th>${s.predictions.map((p, i) => html`<td class=${verdict(i)}
        title=${s.confidence[i] === null ? '' : `probability ${short(s.confidence[i]!)}`}>${p ?? '·'}</td>`)}</tr>
    </table>`;
  }


  /** A box that scrolls sideways when `content` is wider than the room, and says so. */
  private wide(content: unknown, what: string) {
    return html`<div class="wide"><div class="scroller" tabindex="0" role="group" aria-label="${what} (scrolls sideways)"
      @scroll=${(e: Event) => this.mark((e.currentTarget as HTMLElement).parentElement!)}>${content}</div>
      <p class="scroll-hint" aria-hidden="true">scroll sideways for the rest →</p></div>`;
  }

  /** Marks a .wide box with the sides it continues past (data-more="left right"), or none. */
  private mark(box: Element) {
    const scroller = box.firstElementChild as HTMLElement;
    const more = [scroller.scrollLeft > 1 ? 'left' : '', scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1 ? 'right' : '']
      .filter(Boolean).join(' ');
    if (more) box.setAttribute('data-more', more);
    else box.removeAttribute('data-more');
  }

  private sizes: ResizeObserver | null = null;
  private widths: ResizeObserver | null = null;

  /** The control the run's error belongs beside ('' : none, said above the curves). */
  private errorHome(): string {
    if (!this.error) return '';
    const field = isLanguage(this.state) ? LM_FIELD[this.error.field] ?? '' : this.error.field;
    return shownRows(this.state).some((d) => d.key === field) ? field : '';
  }

  protected updated() {
    // The language model's charts are drawn at the width they have: their text stays readable.
    const charts = this.renderRoot.querySelector('.lm-charts');
    this.widths ??= new ResizeObserver(([e]) => {
      const w = Math.floor(e.contentRect.width / 10) * 10;
      if (w > 0 && w !== this.chartWidth) this.chartWidth = w;
    });
    this.widths.disconnect();
    if (charts) this.widths.observe(charts);
    // A heatmap draws after this element does, so its size is watched as well as the box's.
    this.sizes ??= new ResizeObserver((entries) => {
      for (const e of entries) {
        const box = e.target.closest('.wide');
        if (box) this.mark(box);
      }
    });
    this.sizes.disconnect();
    for (const box of this.renderRoot.querySelectorAll('.wide')) {
      const scroller = box.firstElementChild!;
      this.sizes.observe(scroller);
      for (const child of scroller.children) this.sizes.observe(child);
      this.mark(box);
    }
  }

  /** Why the run paused by itself, and what Play does now. */
  private pausedNote(stop: TrainingStop) {
    const keep = html`Press <b>Keep training</b> to go on.`;
    const why = {
      solved: html`Paused at step ${stop.step}: the held-out accuracy has been 100% since step ${stop.since}, so the model has learned the task.
        The loss still falls a little with every step. ${keep}`,
      flat: html`Paused at step ${stop.step}: the loss stopped falling. The held-out loss has not fallen by 5% since step ${stop.since}. ${keep}`,
      diverged: html`Paused at step ${stop.step}: the loss is no longer a number, so the learning rate is too high for this run. Try a smaller one.`,
      budget: html`Paused after ${this.budgetOf()} steps, as many as one press of Play runs. Play runs ${this.budgetOf()} more.`,
    }[stop.reason];
    if (isLanguage(this.state) && stop.reason === 'flat') {
      return html`<p class="paused" role="status" data-stopped="flat">Paused at step ${stop.step}: the held-out loss has not fallen by
        ${Math.round(100 * LM_FLAT_DROP)}% since step ${stop.since}. The induction heads can still form after a long flat stretch: ${keep}</p>`;
    }
    return html`<p class="paused" role="status" data-stopped=${stop.reason}>${why}</p>`;
  }

  /** What a spread-out head means, beside it; nothing for a head that looks somewhere. */
  private headNote(s: TrainingSnapshot, h: number) {
    const all = s.weights.map((w) => spread(w, s.targets));
    const { evenness, top } = all[h];
    if (evenness < SPREAD || top >= PICKS) return nothing;
    const how = html`<b>${evenness > 0.95 ? 'Nearly uniform' : 'Spread out'}</b> on this example: its rows' entropy is ${percent(evenness)} of log n, the most a row can have,
      so it picks out no token.`;
    const focused = all.map((a, i) => (i !== h && a.top >= FOCUSED ? i : -1)).filter((i) => i >= 0);
    let text;
    if (s.metrics.step === 0) text = html`<b>Untrained</b>: its weights start nearly uniform (entropy ${percent(evenness)} of log n). Training will show whether it learns where to look.`;
    else if (s.metrics.accuracy < 0.9) text = html`${how} It has not learned where to look yet.`;
    else if (focused.length) text = html`${how} The answer comes from ${heads(focused)}. A model often has more heads than a task needs: a spare head is left averaging, or takes only part of the task (the ‹ › examples may show it at work).`;
    else text = html`${how} Here that can be the point: when no single token holds the answer, a blend of all of them summarises what is there.`;
    return html`<p class="head-note" data-head-note=${h}>${text}</p>`;
  }

  /** The loss (log scale) and accuracy curves: up to the step the run settled at, when zoomed. */
  private curves(s: TrainingSnapshot) {
    const h = s.history, m = s.metrics;
    const last = h.step[h.step.length - 1];
    const zoomable = this.settledAt > 0 && last > 1.25 * this.settledAt;
    const max = zoomable && this.zoomed ? this.settledAt : undefined;
    const losses = h.loss.filter((v) => v > 0 && Number.isFinite(v));
    return html`<h2>Loss and accuracy${zoomable ? html`<button class="small zoom" data-action="zoom" aria-pressed=${this.zoomed ? 'true' : 'false'}
        @click=${() => (this.zoomed = !this.zoomed)}>${this.zoomed ? `show all ${last} steps` : `zoom to steps 0–${this.settledAt}`}</button>` : nothing}</h2>
      ${lineChart(`Training curves${max ? `, steps 0 to ${max}` : ''}: at step ${m.step} the loss is ${short(m.loss)} and the held-out accuracy ${(100 * m.accuracy).toFixed(1)}%`, [
        { label: 'loss (batch, log scale)', colour: '#d1495b', xs: h.step, ys: h.loss },
        { label: 'accuracy (batch)', colour: '#3b6fb6', xs: h.step, ys: h.accuracy, axis: 'right' },
      ], { label: 'step', max }, { label: 'loss', log: losses.length > 0 && Math.max(...losses) > 10 * Math.min(...losses) },
      { label: 'accuracy', min: 0, max: 1 })}`;
  }

  /** The language model's stats beside the buttons. */
  private lmStats() {
    const m = this.lm?.metrics, h = this.lm?.history;
    const prev = h && m ? best(h.previous_token) : null, ind = h && m ? best(h.induction) : null;
    return html`<span>step <b data-stat="step">${this.lm?.step ?? 0}</b></span>
      <span>loss <b data-stat="loss">${m ? short(m.loss) : '…'}</b></span>
      <span>held-out <b data-stat="eval_loss">${m ? short(m.eval_loss) : '…'}</b></span>
      <span>best previous-token <b data-stat="previous_token">${prev ? prev.score.toFixed(2) : '…'}</b>${prev ? ` (head ${headName(prev.layer, prev.head)})` : ''}</span>
      <span>best induction <b data-stat="induction">${ind ? ind.score.toFixed(2) : '…'}</b>${ind ? ` (head ${headName(ind.layer, ind.head)})` : ''}</span>`;
  }

  /** The language model's loss and head charts, on one step axis. */
  private lmCharts(lm: LmSnapshot, started: LmStarted) {
    const h = lm.history, width = this.chartWidth;
    const maxStep = Math.max(10, h.step[h.step.length - 1]);
    const marker = formedAt(h);
    return html`<h2>Loss and heads</h2>
      <div class="lm-charts">
        <h3>Loss <span class="sub">(nats per character, lower is better)</span></h3>
        ${lossChart({ history: h, unigram: started.unigram, width, maxStep, marker })}
        <h3>In-context score <span class="sub">(how much less a held-out text costs read right after itself than after another, nats per token)</span></h3>
        ${inContextChart({ history: h, width, maxStep, marker })}
        <h3>Previous-token score <span class="sub">(each head: looks at the token just before)</span></h3>
        ${headChart({ history: h, pattern: 'previous_token', width, maxStep, marker })}
        ${headLegend(h, 'previous_token')}
        <h3>Induction score <span class="sub">(looks at what followed an earlier copy, to copy it)</span></h3>
        ${headChart({ history: h, pattern: 'induction', width, maxStep, marker })}
        ${headLegend(h, 'induction')}
        <p class="formed-note hint" data-formed=${marker ?? ''}>${marker !== null
          ? html`The dotted line: step ${marker}, where a head’s induction score first reached ${FORMED} (the playground calls it an induction head from there).`
          : html`No head’s induction score has reached ${FORMED} yet (the playground calls a head an induction head from there).`}</p>
      </div>`;
  }

  /** Open in the playground: the model as trained so far, in the playground's model mode below. */
  private openCard() {
    const step = this.lm?.step ?? 0;
    return html`<div class="card open">
      <h2>Look inside</h2>
      <p>Open the model <b>as trained so far in this tab</b> in the playground: every layer and head on a sentence of yours, the heads overview
        and the likeliest next tokens. It shows the weights of the step you open it at and does not follow the training: open it again for a later step.</p>
      <p><button data-action="open-playground" @click=${this.openPlayground} ?disabled=${!step || this.opening}>${this.opening ? 'Opening…'
        : this.opened ? `Open step ${step} in the playground` : 'Open in the playground'}</button></p>
      ${this.openError ? html`<p class="message" role="alert">${this.openError}</p>` : nothing}
      ${!step ? html`<p class="hint">Train a few steps first.</p>` : nothing}
    </div>`;
  }

  /** The main column for the language model. */
  private lmMain() {
    const lm = this.lm, started = this.lmStarted;
    const trained = lm && started && lm.history.step.length > 0;
    return html`
      <div class="panels">
        <div class="card lm-card">
          ${trained ? this.lmCharts(lm!, started!) : html`<h2>Loss and heads</h2><p class="hint">${this.loadingCorpus
            ? 'Fetching the fortunes (820 KB)…' : lm ? 'Press Play: the curves appear as the model trains (a step takes a few hundredths of a second).' : 'Starting…'}</p>`}
        </div>
        ${this.openCard()}
      </div>
      ${this.opened ? html`<section class="inspect" aria-label="The model trained here, in the playground">
        <p class="shown" role="status" data-opened-step=${this.opened.step}>The playground below shows the model <b>as trained in this tab, at step ${this.opened.step}</b>,
          not the model the playground ships with.</p>
        ${keyed(this.opened.version, html`<attention-playground model="tiny-lm" sentence=${INSPECT_SENTENCE} theme=${this.theme}
          layer=${this.opened.layer} head=${this.opened.head}></attention-playground>`)}
      </section>` : nothing}`;
  }

  render() {
    const s = this.snapshot;
    const language = isLanguage(this.state);
    const task = this.tasks.find((t) => t.name === this.state.task);
    const m = s?.metrics;
    const h = s?.history;
    const general = this.error && !this.errorHome() ? this.error.message : '';
    const ready = language ? Boolean(this.lm) : Boolean(s);
    return html`
      <div class="header" part="header">
        <h2 class="title">Watch attention learn</h2>
        <div class="tools">
          <button data-action="share" @click=${this.share}>Share</button>
          <button data-action="embed" @click=${this.embed}>Embed</button>
        </div>
      </div>
      <div class="layout">
        <div class="controls">${this.controls()}</div>
        <div class="main">
          ${this.note ? html`<p class="note" role="status">${this.note}</p>` : nothing}
          ${this.shareText ? html`<textarea class="share" readonly rows="4" aria-label="Link or embed snippets">${this.shareText}</textarea>` : nothing}
          ${language ? html`<p class="explain" part="explain">${LM_EXPLANATION}</p>`
            : task ? html`<p class="explain" part="explain">${task.explanation}</p>` : nothing}
          <div class="bar">
            <button data-action="play" @click=${this.play} ?disabled=${!ready}>${this.playing ? 'Pause' : this.settledAt ? 'Keep training' : 'Play'}</button>
            <button data-action="step" @click=${() => this.step(1)} ?disabled=${!ready || this.playing}>Step</button>
            <button data-action="step100" @click=${() => this.step(100)} ?disabled=${!ready || this.playing}>+100 steps</button>
            <button data-action="reset" @click=${() => this.restart()}>Reset</button>
            <div class="stats" role="status" aria-live="off">
              ${language ? this.lmStats() : html`
              <span>step <b data-stat="step">${m?.step ?? 0}</b></span>
              <span>loss <b data-stat="loss">${m ? short(m.loss) : '…'}</b></span>
              <span>held-out accuracy <b data-stat="accuracy">${m ? `${(100 * m.accuracy).toFixed(1)}%` : '…'}</b></span>`}
              ${this.playing && this.rate ? html`<span data-stat="rate">${this.rate < 20 ? this.rate.toFixed(1) : Math.round(this.rate)} steps/s</span>` : nothing}
            </div>
          </div>
          ${general ? html`<p class="message" role="alert">${general}</p>` : nothing}
          ${this.stopped && !this.playing ? this.pausedNote(this.stopped) : nothing}
          ${language ? this.lmMain() : html`<div class="panels">
            <div class="card">
              ${h && h.step.length > 1 ? this.curves(s!)
                : html`<h2>Loss and accuracy</h2><p class="hint">Press Play: the curves appear as the model trains.</p>`}
            </div>
            ${s ? html`<div class="card">
              <h2>Held-out example ${s.example + 1}
                <button class="small" aria-label="previous example" @click=${() => this.show(this.example - 1)}>‹</button>
                <button class="small" aria-label="next example" @click=${() => this.show(this.example + 1)}>›</button></h2>
              ${this.wide(this.sequence(s), 'the example')}
              <div class="heads">${s.weights.map((w, i) => html`<div class="head">${this.wide(html`<ap-heatmap key="train-weights" .head=${i} label="head ${i}"
                caption="weights: row attends to column" .matrix=${w} .rows=${s.tokens} .cols=${s.tokens} .scale=${SEQUENTIAL}></ap-heatmap>`, `head ${i}'s weights`)}
                ${this.headNote(s, i)}</div>`)}</div>
            </div>` : nothing}
          </div>`}
        </div>
      </div>`;
  }
}

customElements.get('attention-trainer') || customElements.define('attention-trainer', AttentionTrainer);
