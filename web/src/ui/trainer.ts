// <attention-trainer>: watch a tiny attention model learn a task. The training module (forward
// and backward in C++) trains it in a Web Worker of the element's own; this element only sends
// settings and play/pause/step, and draws what comes back: the loss and accuracy curves, and
// the attention weights of one held-out example, every head, as they organise themselves.
import { css as style, html, nothing } from 'lit';
import type { TaskInfo, TrainingSnapshot } from '../core/attention.js';
import { startTraining, type TrainingReply, type TrainingRun } from '../core/training.js';
import type { SettingDef } from '../state/settings.js';
import { STEPS_PER_SECOND, TRAINING, toTraining } from '../state/training.js';
import { THEME } from './theme.js';
import { settingControl } from './control.js';
import { TableElement } from './table-element.js';
import { lineChart, CHART_STYLES } from './chart.js';
import { SEQUENTIAL, short } from './colour.js';
import './heatmap.js';

const MAX_STEPS = 20_000;  // a play run stops here, so an embedded trainer never spins forever

export class AttentionTrainer extends TableElement {
  static properties = {
    error: { state: true }, tasks: { state: true }, snapshot: { state: true }, playing: { state: true },
    rate: { state: true }, example: { state: true },
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
      if (this.playing) this.run?.send({ play: true, until: MAX_STEPS, rate: STEPS_PER_SECOND[String(this.state.speed)] });
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
    if (reply.stepsPerSecond !== undefined) this.rate = reply.stepsPerSecond;
  }

  /** A new run from step 0 with the settings on screen (and the same example shown). */
  private restart() {
    if (!this.run) return;
    this.snapshot = null;
    this.rate = 0;
    this.run.send({ start: toTraining(this.state) });
    this.run.send({ example: this.example });
    this.writeHash();
  }

  private play() {
    if (!this.run || this.error) return;
    if (this.playing) return this.run.send({ play: false });
    this.playing = true;
    this.run.send({ play: true, until: MAX_STEPS, rate: STEPS_PER_SECOND[String(this.state.speed)] });
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
    .card { background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 12px; padding: 0.6rem 0.9rem; }
    .card h2 { font-size: 1rem; margin: 0 0 0.4rem; }
    .seq { border-collapse: separate; border-spacing: 3px 2px; font: 0.82rem var(--ap-mono); margin-bottom: 0.6rem; }
    .seq td { text-align: center; padding: 0 4px; border-radius: 4px; min-width: 1.4em; }
    .seq th { text-align: right; font-weight: 400; color: var(--ap-muted); padding-right: 6px; }
    .seq .right { background: color-mix(in srgb, #2e933c 25%, transparent); }
    .seq .wrong { background: color-mix(in srgb, var(--ap-error) 25%, transparent); }
    .heads { display: flex; flex-wrap: wrap; gap: 0.8rem; }
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


  render() {
    const s = this.snapshot;
    const task = this.tasks.find((t) => t.name === this.state.task);
    const m = s?.metrics;
    const h = s?.history;
    const general = this.error && !TRAINING.some((d) => d.key === this.error!.field) ? this.error.message : '';
    return html`
      <div class="header">
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
          ${task ? html`<p class="explain">${task.explanation}</p>` : nothing}
          <div class="bar">
            <button data-action="play" @click=${this.play} ?disabled=${!s}>${this.playing ? 'Pause' : 'Play'}</button>
            <button data-action="step" @click=${() => this.run?.send({ step: 1 })} ?disabled=${!s || this.playing}>Step</button>
            <button data-action="step100" @click=${() => this.run?.send({ step: 100 })} ?disabled=${!s || this.playing}>+100 steps</button>
            <button data-action="reset" @click=${() => this.restart()}>Reset</button>
            <div class="stats" role="status" aria-live="off">
              <span>step <b data-stat="step">${m?.step ?? 0}</b></span>
              <span>loss <b data-stat="loss">${m ? short(m.loss) : '…'}</b></span>
              <span>held-out accuracy <b data-stat="accuracy">${m ? `${(100 * m.accuracy).toFixed(1)}%` : '…'}</b></span>
              ${this.playing && this.rate ? html`<span>${Math.round(this.rate)} steps/s</span>` : nothing}
            </div>
          </div>
          ${general ? html`<p class="message" role="alert">${general}</p>` : nothing}
          <div class="panels">
            <div class="card">
              <h2>Loss and accuracy</h2>
              ${h && h.step.length > 1
                ? lineChart(`Training curves: at step ${m!.step} the loss is ${short(m!.loss)} and the held-out accuracy ${(100 * m!.accuracy).toFixed(1)}%`, [
                    { label: 'loss (batch)', colour: '#d1495b', xs: h.step, ys: h.loss },
                    { label: 'accuracy (batch)', colour: '#3b6fb6', xs: h.step, ys: h.accuracy, axis: 'right' },
                  ], { label: 'step' }, { label: 'loss', min: 0 }, { label: 'accuracy', min: 0, max: 1 })
                : html`<p class="hint">Press Play: the curves appear as the model trains.</p>`}
            </div>
            ${s ? html`<div class="card">
              <h2>Held-out example ${s.example + 1}
                <button class="small" aria-label="previous example" @click=${() => this.show(this.example - 1)}>‹</button>
                <button class="small" aria-label="next example" @click=${() => this.show(this.example + 1)}>›</button></h2>
              ${this.sequence(s)}
              <div class="heads">${s.weights.map((w, i) => html`<ap-heatmap key="train-weights" .head=${i} label="head ${i}"
                caption="weights: row attends to column" .matrix=${w} .rows=${s.tokens} .cols=${s.tokens} .scale=${SEQUENTIAL}></ap-heatmap>`)}</div>
            </div>` : nothing}
          </div>
        </div>
      </div>`;
  }
}

customElements.get('attention-trainer') || customElements.define('attention-trainer', AttentionTrainer);
