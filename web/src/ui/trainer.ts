// <attention-trainer>: watch a tiny attention model learn a task. The training module (forward
// and backward in C++) trains it in a Web Worker of the element's own; this element only sends
// settings and play/pause/step, and draws what comes back: the loss and accuracy curves, and
// the attention weights of one held-out example, every head, as they organise themselves.
import { LitElement, css as style, html, nothing } from 'lit';
import type { TaskInfo, TrainingSnapshot } from '../core/attention.js';
import { startTraining, type TrainingReply, type TrainingRun } from '../core/training.js';
import { fromHash, parseValue, readEntries, startFrom, toHash, type Reading, type State } from '../state/settings.js';
import { STEPS_PER_SECOND, TRAINING, toTraining } from '../state/training.js';
import { THEME } from './theme.js';
import { refusal, settingControl } from './control.js';
import { attributeOf, copyText, elementSnippet, iframeSnippet } from './share.js';
import { lineChart, CHART_STYLES } from './chart.js';
import { short } from './colour.js';
import './heatmap.js';

const KEY_OF_ATTRIBUTE = new Map(TRAINING.map((d) => [attributeOf(d.key), d.key]));
const MAX_STEPS = 20_000;  // a play run stops here, so an embedded trainer never spins forever

export class AttentionTrainer extends LitElement {
  static properties = {
    state: { state: true }, inputErrors: { state: true }, error: { state: true }, tasks: { state: true },
    snapshot: { state: true }, playing: { state: true }, rate: { state: true }, example: { state: true },
    note: { state: true }, shareText: { state: true }, theme: { type: String, reflect: true },
  };

  static get observedAttributes() {
    return [...super.observedAttributes, ...KEY_OF_ATTRIBUTE.keys()];
  }

  state: State = startFrom(undefined, TRAINING).state;
  inputErrors: Record<string, string> = {};
  error: { field: string; message: string } | null = null;
  tasks: TaskInfo[] = [];
  snapshot: TrainingSnapshot | null = null;
  playing = false;
  rate = 0;       // steps per second while playing
  example = 0;    // which held-out example is shown
  note = '';
  shareText = '';
  theme: 'auto' | 'light' | 'dark' = 'auto';
  private run: TrainingRun | null = null;
  private useHash = false;
  private heldOut = 256;  // examples in the held-out set

  connectedCallback() {
    super.connectedCallback();
    this.useHash = this.hasAttribute('use-hash');
    this.adopt(this.readAttributes());
    if (this.useHash && location.hash.length > 1) this.adopt(fromHash(location.hash, TRAINING, this.readAttributes()));
    if (this.useHash) window.addEventListener('hashchange', this.onHashChange);
    this.run = startTraining((reply) => this.receive(reply));
    this.restart();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.onHashChange);
    this.run?.stop();
    this.run = null;
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null) {
    super.attributeChangedCallback(name, old, value);
    if (old === value || !this.isConnected || !KEY_OF_ATTRIBUTE.has(name)) return;
    this.adopt(this.readAttributes());
    this.restart();
  }

  /** A link opened on this page (or Back): its settings replace those on screen. */
  private onHashChange = () => {
    if (location.hash.slice(1) === toHash(this.state, {}, TRAINING)) return;
    this.adopt(fromHash(location.hash, TRAINING, this.readAttributes()));
    this.restart();
  };

  private readAttributes(): Reading {
    const entries = Array.from(this.attributes).flatMap(({ name, value }): Array<[string, string, string]> => {
      const key = KEY_OF_ATTRIBUTE.get(name);
      return key ? [[key, value, name]] : [];
    });
    return readEntries(entries, startFrom(undefined, TRAINING), TRAINING);
  }

  private adopt(r: Reading) {
    this.state = r.state;
    this.note = r.problems.length ? `Some settings were not understood and were left at their defaults: ${r.problems.join('; ')}.` : '';
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
    if (this.useHash) {
      const hash = toHash(this.state, {}, TRAINING);
      if (location.hash.slice(1) !== hash) history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
    }
  }

  private set(key: string, text: string) {
    const def = TRAINING.find((d) => d.key === key)!;
    const value = parseValue(def, text);
    const errors = { ...this.inputErrors };
    if (value === undefined) {
      this.inputErrors = { ...errors, [key]: refusal(def) };
      return;
    }
    delete errors[key];
    this.inputErrors = errors;
    this.state = { ...this.state, [key]: value };
    if (!def.spec) {  // speed: the run goes on at the new pace
      if (this.playing) this.run?.send({ play: true, until: MAX_STEPS, rate: STEPS_PER_SECOND[String(value)] });
      return;
    }
    this.restart();
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

  private link() {
    const base = this.useHash ? location.href.split('#')[0] : new URL('./learn/', document.baseURI).href;
    return `${base}#${toHash(this.state, {}, TRAINING)}`;
  }

  private async share() {
    this.shareText = this.link();
    this.note = (await copyText(this.shareText)) ? 'Link copied: it replays this run, step for step.' : 'Copy the link below.';
  }

  private async embed() {
    const script = this.getAttribute('script-url') ?? new URL('./attention-playground.js', document.baseURI).href;
    this.shareText = `${iframeSnippet(this.link(), 'Watch attention learn', 760)}\n\n${elementSnippet('attention-trainer', script, TRAINING, this.state)}`;
    this.note = (await copyText(this.shareText)) ? 'Embed snippets copied.' : 'Copy a snippet below.';
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
      value: this.state[def.key], set: (text) => this.set(def.key, text),
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
              <div class="heads">${s.weights.map((w, i) => html`<ap-heatmap key="train-weights" .head=${i} label="head ${i + 1}"
                caption="weights: row attends to column" .matrix=${w} .rows=${s.tokens} .cols=${s.tokens} .range=${[0, 1]}></ap-heatmap>`)}</div>
            </div>` : nothing}
          </div>
        </div>
      </div>`;
  }
}

customElements.get('attention-trainer') || customElements.define('attention-trainer', AttentionTrainer);
