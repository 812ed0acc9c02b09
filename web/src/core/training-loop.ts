// The training loop, driven by messages. The same code runs in train-worker.ts and, where no
// worker can start (a sandboxed iframe, a page opened from disk), on the page itself, in
// slices of about 25 ms that leave it responsive.
//
// In:  {start: settings} {play: true|false, until?: step, budget?: steps, rate?: steps per second, settle?: bool}
//      {rate: steps per second} {step: count} {example: i}
// Out: {tasks} (first) {started: settings} {snapshot, playing, stepsPerSecond?, stopped?} {error: {field, message}, playing}
//
// A play run with `settle` pauses by itself once there is little left to watch, and says why in
// `stopped: {reason, step, since?}`:
//   solved    the held-out accuracy has been 100% for SOLVED_HOLD steps (since step `since`);
//   flat      the lowest held-out loss has fallen by less than FLAT_DROP over the last FLAT_WINDOW
//             steps (`since`: the step of the last fall worth the name);
//   diverged  the held-out loss is no longer a finite number;
//   budget    the run reached `until` (or `budget` steps past where it started).
import type { SpecError, TaskInfo, Training, TrainingMetrics, TrainingSettings, TrainingSnapshot } from './attention.js';

/** A message to the loop (In above). */
export type TrainingMessage = { start: TrainingSettings } | { play: boolean; until?: number; budget?: number; rate?: number; settle?: boolean }
  | { rate: number } | { step: number } | { example: number };
/** Every field a message may hold: the loop reads each on its own, so one message may carry several. */
export interface TrainingFields { start?: TrainingSettings; play?: boolean; until?: number; budget?: number; rate?: number; settle?: boolean; step?: number; example?: number }
/** Why a play run paused by itself: at step `step`, a rule met since `since`. */
export interface TrainingStop { reason: 'solved' | 'flat' | 'diverged' | 'budget'; step: number; since?: number }
/** A message from the loop (Out above). */
export type TrainingReply =
  | { tasks: TaskInfo[] }
  | { started: Required<TrainingSettings> }
  | { snapshot: TrainingSnapshot; playing: boolean; stepsPerSecond?: number; stopped?: TrainingStop }
  | (SpecError & { playing: boolean });

// A reply of the training module that is an error: by its `error`, as the loop reads it.
const failed = (reply: object): reply is SpecError => !!(reply as Partial<SpecError>).error;

const SLICE_MS = 25;
const PACE_MS = 50;  // with a rate, a tick every 50 ms
export const MAX_CHUNK = 1000;  // limits::max_train_steps_per_call: a call with more is refused
export const SOLVED_HOLD = 200;
export const FLAT_WINDOW = 1000;
export const FLAT_DROP = 0.05;

/** Watches the metrics of a play run and says when it has settled (null while it has not). */
export function settling(): { room(at: number): number; see(m: TrainingMetrics): TrainingStop | null } {
  let solvedSince: number | null = null;
  let best = Infinity, fellAt: number | null = null;  // the held-out loss when it last fell by FLAT_DROP, and that step
  return {
    /** Steps that may still be taken before the solved rule would pause (Infinity: no limit). */
    room(at) { return solvedSince === null ? Infinity : Math.max(0, solvedSince + SOLVED_HOLD - at); },
    see(m) {
      if (!Number.isFinite(m.eval_loss)) return { reason: 'diverged', step: m.step };
      if (m.accuracy >= 1) solvedSince ??= m.step;
      else solvedSince = null;
      if (solvedSince !== null && m.step >= solvedSince + SOLVED_HOLD) return { reason: 'solved', step: m.step, since: solvedSince };
      if (fellAt === null || m.eval_loss < best * (1 - FLAT_DROP)) {
        best = m.eval_loss;
        fellAt = m.step;
      }
      if (m.step - fellAt >= FLAT_WINDOW) return { reason: 'flat', step: m.step, since: fellAt };
      return null;
    },
  };
}

export function trainingLoop(train: Training, post: (reply: TrainingReply) => void): (message: TrainingFields) => void {
  let playing = false;
  let until = Infinity;
  let rate = 0;  // steps per second; 0: as many as fit in a slice
  let example = 0;
  let chunk = 1;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let started = false;
  let at = 0;  // steps taken
  let watch: ReturnType<typeof settling> | null = null;  // settling() of the play run, when it may pause by itself
  let last: TrainingMetrics | null = null;   // the latest metrics

  const show = (extra: { stepsPerSecond?: number; stopped?: TrainingStop } = {}) => {
    const snapshot = train.snapshot(example);
    post(failed(snapshot) ? { error: snapshot.error, playing } : { snapshot, playing, ...extra });
  };
  const fail = (error: SpecError['error']) => { playing = false; post({ error, playing }); };

  const tick = () => {
    timer = null;
    if (!playing) return;
    const t0 = performance.now();
    const count = Math.min(rate ? Math.max(1, Math.round(rate * PACE_MS / 1000)) : chunk, until - at, watch ? Math.max(1, watch.room(at)) : Infinity);
    const m = count > 0 ? train.step(count) : null;
    const ms = performance.now() - t0;
    if (m && failed(m)) return fail(m.error);
    if (m) { at = m.step; last = m; }
    // Grow or shrink the chunk toward one slice of work per tick.
    chunk = Math.max(1, Math.min(MAX_CHUNK, Math.round(chunk * Math.min(2, ms > 0 ? SLICE_MS / ms : 2))));
    let stopped: TrainingStop | null = m && watch ? watch.see(m) : null;
    if (!stopped && (!m || at >= until)) stopped = { reason: 'budget', step: at };
    if (stopped) playing = false;
    show({ stepsPerSecond: m && ms > 0 ? (1000 * count) / ms : undefined, ...(stopped ? { stopped } : {}) });
    if (playing) timer = setTimeout(tick, rate ? Math.max(0, PACE_MS - ms) : 0);
  };

  post({ tasks: train.tasks().tasks });
  return (message) => {
    if (message.start) {
      playing = false;
      const r = train.start(message.start);
      started = !failed(r);
      at = 0;
      last = null;
      if (failed(r)) return fail(r.error);
      post({ started: r.settings });
      show();
    }
    if (!started) return;
    if (message.example !== undefined) {
      example = message.example;
      show();
    }
    if (message.step) {
      playing = false;
      const m = train.step(message.step);
      if (failed(m)) return fail(m.error);
      at = m.step;
      last = m;
      show();
    }
    if (message.rate !== undefined) rate = message.rate;
    if (message.play !== undefined) {
      playing = message.play;
      if (playing) {
        rate = message.rate ?? 0;
        until = Math.min(message.until ?? Infinity, message.budget ? at + message.budget : Infinity);
        watch = message.settle ? settling() : null;
        if (watch && last) watch.see(last);  // a run already at 100% counts from where it was seen
      }
      if (playing && !timer) timer = setTimeout(tick, 0);
      if (!playing) show();
    }
  };
}
