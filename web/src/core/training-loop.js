// The training loop, driven by messages. The same code runs in train-worker.js and, where no
// worker can start (a sandboxed iframe, a page opened from disk), on the page itself, in
// slices of about 25 ms that leave it responsive.
//
// In:  {start: settings} {play: true|false, until?: step, rate?: steps per second} {step: count} {example: i}
// Out: {tasks} (first) {started: settings} {snapshot, playing, stepsPerSecond?} {error: {field, message}, playing}
const SLICE_MS = 25;
const PACE_MS = 50;  // with a rate, a tick every 50 ms
export const MAX_CHUNK = 1000;  // limits::max_train_steps_per_call: a call with more is refused

export function trainingLoop(train, post) {
  let playing = false;
  let until = Infinity;
  let rate = 0;  // steps per second; 0: as many as fit in a slice
  let example = 0;
  let chunk = 1;
  let timer = null;
  let started = false;
  let at = 0;  // steps taken

  const show = (extra = {}) => {
    const snapshot = train.snapshot(example);
    post(snapshot.error ? { error: snapshot.error, playing } : { snapshot, playing, ...extra });
  };
  const fail = (error) => { playing = false; post({ error, playing }); };

  const tick = () => {
    timer = null;
    if (!playing) return;
    const t0 = performance.now();
    const count = Math.min(rate ? Math.max(1, Math.round(rate * PACE_MS / 1000)) : chunk, until - at);
    const m = count > 0 ? train.step(count) : null;
    const ms = performance.now() - t0;
    if (m?.error) return fail(m.error);
    if (m) at = m.step;
    // Grow or shrink the chunk toward one slice of work per tick.
    chunk = Math.max(1, Math.min(MAX_CHUNK, Math.round(chunk * Math.min(2, ms > 0 ? SLICE_MS / ms : 2))));
    if (!m || m.step >= until) playing = false;
    show({ stepsPerSecond: m && ms > 0 ? (1000 * count) / ms : undefined });
    if (playing) timer = setTimeout(tick, rate ? Math.max(0, PACE_MS - ms) : 0);
  };

  post({ tasks: train.tasks().tasks });
  return (message) => {
    if (message.start) {
      playing = false;
      const r = train.start(message.start);
      started = !r.error;
      at = 0;
      if (r.error) return fail(r.error);
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
      if (m.error) return fail(m.error);
      at = m.step;
      show();
    }
    if (message.play !== undefined) {
      playing = message.play;
      until = message.until ?? Infinity;
      rate = message.rate ?? 0;
      if (playing && !timer) timer = setTimeout(tick, 0);
      if (!playing) show();
    }
  };
}
