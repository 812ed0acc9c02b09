// A position in a sequence (the positions a decoder generates, the key blocks of the online
// softmax) that the reader moves with back, next, a slider and play. Play advances at a reading
// pace and stops at the last step. Motion is left to the views' CSS, which turns it off under
// prefers-reduced-motion: play then still steps, only without transitions.
import { css, html, type ReactiveController, type ReactiveControllerHost } from 'lit';

// Long enough to read the new row and the numbers that changed before the next step comes.
export const PACE_MS = 1400;

export class Stepper implements ReactiveController {
  at = 0;
  count = 0;
  playing = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private host: ReactiveControllerHost, private pace = PACE_MS) {
    host.addController(this);
  }

  hostDisconnected() { this.pause(); }

  /** A new sequence (a new trace): the position stays where it still exists. */
  reset(count: number) {
    this.count = count;
    if (this.at > count - 1) this.at = Math.max(0, count - 1);
    if (count < 2) this.pause();
  }

  go(i: number) {
    const at = Math.min(this.count - 1, Math.max(0, i));
    if (at === this.at) return;
    this.at = at;
    this.host.requestUpdate();
    // said to the element that shows the stepper, which puts the step in its links
    (this.host as unknown as EventTarget).dispatchEvent?.(new CustomEvent('step-change', { detail: { at }, bubbles: true, composed: true }));
  }

  next() { this.go(this.at + 1); }
  back() { this.go(this.at - 1); }

  pause() {
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.playing) { this.playing = false; this.host.requestUpdate(); }
  }

  /** Play from here (from the start when at the end), or pause. */
  toggle() {
    if (this.playing) return this.pause();
    if (this.count < 2) return;
    if (this.at >= this.count - 1) this.go(0);
    this.playing = true;
    this.host.requestUpdate();
    this.timer = setInterval(() => {
      this.next();
      if (this.at >= this.count - 1) this.pause();
    }, this.pace);
  }
}

/** Back, play and next, a slider over the steps, and what the step on screen is. */
export function stepperBar(s: Stepper, name: string, where: string) {
  const last = s.count - 1;
  return html`<div class="stepper" role="group" aria-label=${name}>
    <button class="small" data-action="back" @click=${() => { s.pause(); s.back(); }} ?disabled=${s.at <= 0}
      aria-label="Back one step">◀ Back</button>
    <button class="small play" data-action="play" @click=${() => s.toggle()} ?disabled=${last < 1}
      aria-pressed=${s.playing ? 'true' : 'false'}>${s.playing ? '❚❚ Pause' : '▶ Play'}</button>
    <button class="small" data-action="next" @click=${() => { s.pause(); s.next(); }} ?disabled=${s.at >= last}
      aria-label="Next step">Next ▶</button>
    <input type="range" min="0" max=${Math.max(0, last)} .value=${String(s.at)} aria-label="${name}: step"
      aria-valuetext=${where} @input=${(e: Event) => { s.pause(); s.go(Number((e.target as HTMLInputElement).value)); }}>
    <span class="where" aria-live="polite">${where}</span>
  </div>`;
}

// The views that use a stepper sit inside an element that owns the theme: they read its
// variables (inherited through the shadow roots) rather than setting their own.
export const STEPPER_STYLES = css`
  /* Drawn inside a step's row of matrices (a flex row): the whole row, and no wider than it, so
     a wide table scrolls inside the stepper rather than pushing the page sideways. */
  :host { display: block; flex: 1 1 100%; min-width: 0; max-width: 100%; }
  button { font: inherit; font-size: 0.8rem; border: 1px solid var(--ap-line); background: var(--ap-card); color: inherit; border-radius: 6px; padding: 0.1rem 0.5rem; cursor: pointer; }
  button:hover:not([disabled]) { border-color: var(--ap-focus); }
  :focus-visible { outline: 3px solid var(--ap-focus); outline-offset: 2px; }
  .hint { color: var(--ap-muted); font-size: 0.8rem; }
  .stepper { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.6rem; margin: 0.3rem 0 0.7rem; }
  .stepper input[type='range'] { flex: 1 1 8rem; min-width: 6rem; max-width: 16rem; accent-color: var(--ap-focus); margin: 0; }
  .stepper .where { font: 0.85rem var(--ap-mono); flex-basis: 100%; }
  .stepper button[disabled] { opacity: 0.45; cursor: default; }
  .stepper .play { min-width: 6.2em; }
`;
