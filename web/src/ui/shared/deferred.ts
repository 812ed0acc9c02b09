// Views that draw only while on screen. Off screen, an update (the first one too) is put off
// and done in idle time, a few per slot, so that none stays stale for long: a page of twenty
// matrices and an arc view then costs, per keystroke, what the two or three in view cost, and
// no long task blocks typing.
import { LitElement, type PropertyValues } from 'lit';

export class DeferredElement extends LitElement {
  deferred = false;  // an update is waiting for the element to come on screen or for idle time
  private onScreen = false;
  withParent = false;  // created by a view being placed, and drawn in the same frame as it
  private reported = false;  // the observer has reported at least once
  private catchUp = false;
  private observer = typeof IntersectionObserver === 'undefined' ? null : new IntersectionObserver((entries) => {
    this.reported = true;
    this.onScreen = entries[entries.length - 1].isIntersecting;  // the latest, if several came at once
    if (this.onScreen && this.deferred) placeSoon(this);
  }, { rootMargin: `${MARGIN}px` });

  connectedCallback() {
    super.connectedCallback();
    this.observer?.observe(this);
    // Created by a view being placed: placed with it, at the size it holds until it draws, and
    // drawn in the same frame when in sight, past the frame's slice (a step is not shown
    // without its matrices), unless it may come a frame later (withStep).
    if (placing && this.observer && !this.hasUpdated) {
      this.holdPlace(true);
      this.withParent = this.withStep();
      unplaced.add(this);
    }
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.observer?.disconnect();
    waiting.delete(this);
  }

  /** Draws what it holds now, if it put that off. */
  flush() {
    if (!this.deferred) return;
    this.catchUp = true;
    this.requestUpdate();
    this.performUpdate();  // now, not in a microtask: the idle slot's clock must see its cost
  }

  /** Within the observer's margin of the window, as measured now (a forced layout); called by
   *  placeAll for every waiting view at once. */
  inSight(): boolean {
    const r = this.getBoundingClientRect();
    return (r.width > 0 || r.height > 0) && r.bottom >= -MARGIN && r.top <= innerHeight + MARGIN &&
      r.right >= -MARGIN && r.left <= innerWidth + MARGIN;
  }

  /** Found in sight before the observer's first report: drawn now. */
  seen() {
    this.onScreen = true;
    this.withParent = false;
    if (this.deferred) this.flush();
    else if (this.isUpdatePending) this.performUpdate();  // its first update, due a microtask later, now: timed in its slice
  }

  /** Whether, created by a view being drawn (a step), it is drawn in the same frame as that
   *  view when in sight, whatever that frame has cost so far. */
  protected withStep(): boolean {
    return true;
  }

  /** Changes that must show at once, on screen or not (a cell being edited, say). */
  protected urgent(_changed: PropertyValues): boolean {
    return false;
  }

  /** Roughly the size it will draw at, [width, height] in px: held while its first drawing
   *  waits, so that the views after it are not pulled on screen by a view of no size. */
  protected estimate(): [number, number] {
    return [0, 0];
  }

  // The first drawing waits too: the views found in sight when they are placed (placeAll) draw
  // at once, and idle time draws the others (a page's first screen then costs what its visible
  // views cost, not what all of them do).
  protected shouldUpdate(changed: PropertyValues) {
    // (a first update lists every property set so far: none of them is urgent yet)
    const now = this.onScreen || this.catchUp || !this.observer || (this.hasUpdated && this.urgent(changed));
    this.catchUp = false;
    this.deferred = !now;
    if (!now) later(this);
    if (!now && !this.reported && this.observer) placeSoon(this);
    if (!this.hasUpdated) this.holdPlace(!now);
    return now;
  }

  private holdPlace(hold: boolean) {
    const [width, height] = hold ? this.estimate() : [0, 0];
    this.style.minWidth = width ? `min(${width}px, 100%)` : '';
    this.style.minHeight = height ? `${height}px` : '';
  }
}

const MARGIN = 100;  // px around the window that count as on screen

// The observer first reports after the coming frame, so a view placed on screen would draw one
// frame after the page around it (on a cold load, a whole frame's layout and paint before the
// first numbers showed). Instead the views whose first update finds no report yet are measured
// in one batch at the start of the coming frame (one layout, which the frame would do anyway),
// and those in sight draw in that frame. Measured in the task that created them, that layout
// was taken there: a page of the trained model's views spent 60-75 ms of its longest task on it.
// A view coming on screen later (the observer's report) is drawn the same way.
//
// Each frame draws for at most SLICE ms and leaves the rest in sight to the next: drawn in one
// go, the trained model's first screen (its steps, then the views inside them) was one task of
// 150-180 ms.
const unplaced = new Set<DeferredElement>();
const frame: (f: () => void) => void = typeof requestAnimationFrame === 'function' ? (f) => requestAnimationFrame(f) : queueMicrotask;
const SLICE = 30;  // ms
let placing = false;

function placeSoon(el: DeferredElement) {
  if (unplaced.size === 0 && !placing) frame(placeAll);
  unplaced.add(el);
}

// A view drawn here may move the ones after it (a step's real height replaces its estimate) and
// may hold views of its own: they are measured again, in the same frame while its slice lasts
// (a step's own views whatever the slice).
function placeAll() {
  placing = true;
  const start = performance.now(), over = () => performance.now() - start > SLICE;
  const left: DeferredElement[] = [];
  while ([...unplaced].some((el) => el.withParent || !over())) {
    const batch = [...unplaced].filter((el) => el.isConnected && (el.deferred || !el.hasUpdated));
    unplaced.clear();
    const inSight = new Set(batch.filter((el) => el.inSight()));
    let drawn = 0;
    for (const el of inSight) {
      if (!el.withParent && over()) left.push(el);
      else el.seen(), drawn++;
    }
    if (!drawn) break;  // nothing moved
    for (const el of batch) if (!inSight.has(el)) unplaced.add(el);
  }
  placing = false;
  const next = [...unplaced, ...left];
  unplaced.clear();  // those out of sight wait for the observer, or for idle time
  for (const el of next) {
    el.withParent = false;
    placeSoon(el);  // the slice ran out: the next frame goes on
  }
}

type Deadline = { timeRemaining(): number };
const waiting = new Set<DeferredElement>();
const idle: (f: (d?: Deadline) => void) => void =
  typeof requestIdleCallback === 'function' ? (f) => requestIdleCallback(f, { timeout: 300 }) : (f) => setTimeout(f, 16);

function later(el: DeferredElement) {
  if (waiting.size === 0) idle(drain);
  waiting.add(el);
}

// At least one per slot: on a page that is never idle (a trainer playing, steady typing) the
// slot comes by its timeout with no time left, and the views must still catch up.
function drain(deadline?: Deadline) {
  let drawn = 0;
  for (const el of waiting) {
    if (drawn > 0 && (!deadline || deadline.timeRemaining() < 4)) break;
    waiting.delete(el);
    el.flush();
    drawn++;
  }
  if (waiting.size) idle(drain);
}
