// <attention-trainer>: watch a tiny attention model learn a task. The training module (forward
// and backward in C++) trains it in a Web Worker of the element's own; this element only sends
// settings and play/pause/step, and draws what comes back: the loss and accuracy curves, and
// the attention weights of one held-out example, every head, as they organise themselves.
import { css as style, html, nothing } from 'lit';
import type { TaskInfo, TrainingSnapshot } from '../../core/attention.js';
import { startTraining, type TrainingReply, type TrainingRun, type TrainingStop } from '../../core/training.js';
import type { SettingDef } from '../../state/settings.js';
import { STEPS_PER_SECOND, TRAINING, toTraining } from '../../state/training.js';
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
    if (changed && !changed.spec) {
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
      return;
    }
    if ('started' in reply) {
      this.error = null;
      this.heldOut = reply.started.eval_size;
      return;
    }
    this.snapshot = reply.snapshot;
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
    this.rate = 0;
    this.stopped = null;
    this.settledAt = 0;
    this.zoomed = true;
    this.run.send({ start: toTraining(this.state) });
    this.run.send({ example: this.example });
    this.writeHash();
  }

  private play() {
    if (!this.run || this.error) return;
    if (this.playing) return this.run.send({ play: false });
    // After a pause of its own, Play keeps training past what made it pause.
    const settle = !this.settledAt;
    this.playing = true;
    this.stopped = null;
    this.run.send({ play: true, budget: BUDGET, settle, rate: STEPS_PER_SECOND[String(this.state.speed)] });
  }

  private step(count: number) {
    this.stopped = null;
    this.run?.send({ step: count });
  }

  private show(example: number) {
    this.example = (example + this.heldOut) % this.heldOut;
    this.run?.send({ example: this.example });
  }

  static styles = [THEME, CHART_STYLES, style`
    .layout { display: grid; grid-template-columns: 240px minmax(0, 1fr); }
    .controls { padding: 0.8rem 1rem; border-right: 1px solid var(--ap-line); display: flex; flex-direction: column; gap: 0.55rem; }
    .main { padding: 0.8rem 1rem 2rem; min-width: 0; }
    .explain { max-width: 75ch; color: var(--ap-muted); margin: 0 0 0.8rem; }
    .bar { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; margin-bottom: 0.6rem; }
    .stats { font-family: var(--ap-mono); font-size: 0.85rem; display: flex; gap: 1.2em; flex-wrap: wrap; }
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
    const home = this.error && TRAINING.some((d) => d.key === this.error!.field) ? this.error.field : '';
    return TRAINING.map((def) => settingControl(def, {
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

  protected updated() {
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
      budget: html`Paused after ${BUDGET} steps, as many as one press of Play runs. Play runs ${BUDGET} more.`,
    }[stop.reason];
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

  render() {
    const s = this.snapshot;
    const task = this.tasks.find((t) => t.name === this.state.task);
    const m = s?.metrics;
    const h = s?.history;
    const general = this.error && !TRAINING.some((d) => d.key === this.error!.field) ? this.error.message : '';
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
          ${task ? html`<p class="explain" part="explain">${task.explanation}</p>` : nothing}
          <div class="bar">
            <button data-action="play" @click=${this.play} ?disabled=${!s}>${this.playing ? 'Pause' : this.settledAt ? 'Keep training' : 'Play'}</button>
            <button data-action="step" @click=${() => this.step(1)} ?disabled=${!s || this.playing}>Step</button>
            <button data-action="step100" @click=${() => this.step(100)} ?disabled=${!s || this.playing}>+100 steps</button>
            <button data-action="reset" @click=${() => this.restart()}>Reset</button>
            <div class="stats" role="status" aria-live="off">
              <span>step <b data-stat="step">${m?.step ?? 0}</b></span>
              <span>loss <b data-stat="loss">${m ? short(m.loss) : '…'}</b></span>
              <span>held-out accuracy <b data-stat="accuracy">${m ? `${(100 * m.accuracy).toFixed(1)}%` : '…'}</b></span>
              ${this.playing && this.rate ? html`<span>${Math.round(this.rate)} steps/s</span>` : nothing}
            </div>
          </div>
          ${general ? html`<p class="message" role="alert">${general}</p>` : nothing}
          ${this.stopped && !this.playing ? this.pausedNote(this.stopped) : nothing}
          <div class="panels">
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
          </div>
        </div>
      </div>`;
  }
}

customElements.get('attention-trainer') || customElements.define('attention-trainer', AttentionTrainer);
