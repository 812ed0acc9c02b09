// The training loop, driven by messages. The same code runs in train-worker.ts and, where no
// worker can start (a sandboxed iframe, a page opened from disk), on the page itself, in
// slices of about 25 ms that leave it responsive.
//
// In:  {start: settings} {play: true|false, until?: step, budget?: steps, rate?: steps per second, settle?: bool}
//      {rate: steps per second} {step: count} {example: i}
//      {language: lm settings}  a language-model run instead (the "Language model" task): its texts are
//                               fetched first (corpus.ts, on the first such run only); play, step and
//                               settle then drive it, and {model: true} asks for its weights so far
// Out: {tasks} (first) {started: settings} {snapshot, playing, stepsPerSecond?, stopped?} {error: {field, message}, playing}
//      {loading: 'corpus'} {languageStarted} {language: lm snapshot, playing, stepsPerSecond?, stopped?} {model: bytes, step}
//
// A play run with `settle` pauses by itself once there is little left to watch, and says why in
// `stopped: {reason, step, since?}`:
//   solved    the held-out accuracy has been 100% for SOLVED_HOLD steps (since step `since`);
//   flat      the lowest held-out loss has fallen by less than FLAT_DROP over the last FLAT_WINDOW
//             steps (`since`: the step of the last fall worth the name); for the language model
//             LM_FLAT_DROP over LM_FLAT_WINDOW (its loss falls slowly for thousands of steps);
//   diverged  the held-out loss is no longer a finite number;
//   budget    the run reached `until` (or `budget` steps past where it started).
import type { LmMetrics, LmSettings, ModelCard, SpecError, TaskInfo, Training, TrainingMetrics, TrainingSettings, TrainingSnapshot } from './attention.js';

/** A message to the loop (In above). */
export type TrainingMessage = { start: TrainingSettings } | { play: boolean; until?: number; budget?: number; rate?: number; settle?: boolean }
  | { rate: number } | { step: number } | { example: number } | { language: LmSettings } | { model: true };
/** Every field a message may hold: the loop reads each on its own, so one message may carry several. */
export interface TrainingFields {
  start?: TrainingSettings; play?: boolean; until?: number; budget?: number; rate?: number; settle?: boolean; step?: number; example?: number;
  language?: LmSettings; model?: boolean;
}
/** Why a play run paused by itself: at step `step`, a rule met since `since`. */
export interface TrainingStop { reason: 'solved' | 'flat' | 'diverged' | 'budget'; step: number; since?: number }

/** The curves of a language-model run: a point per call of lmStep (thinned to at most
 *  LM_POINTS, every other one dropped when there are more); the head scores [layer][head][point]. */
export interface LmHistory { step: number[]; loss: number[]; eval_loss: number[]; in_context: number[]; previous_token: number[][][]; induction: number[][][] }
/** A language-model run as the page draws it: the latest metrics (null at step 0), the curves,
 *  and the seconds spent training. */
export interface LmSnapshot { step: number; metrics: LmMetrics | null; history: LmHistory; seconds: number }
/** A language-model run has started: its settings, the texts' lengths in characters, and the
 *  held-out loss of token frequencies alone (the core's, per character), to draw the loss against. */
export interface LmStarted {
  settings: Required<LmSettings>; unigram: number; characters: { train: number; heldOut: number };
  source: { package: string; version: string; fortunes: number };
}

/** A message from the loop (Out above). */
export type TrainingReply =
  | { tasks: TaskInfo[] }
  | { started: Required<TrainingSettings> }
  | { snapshot: TrainingSnapshot; playing: boolean; stepsPerSecond?: number; stopped?: TrainingStop }
  | { loading: 'corpus' }
  | { languageStarted: LmStarted }
  | { language: LmSnapshot; playing: boolean; stepsPerSecond?: number; stopped?: TrainingStop }
  | { model: Uint8Array<ArrayBuffer>; step: number }
  | (SpecError & { playing: boolean });

/** How the loop is run: `lmSliceMs`, the time one call of the language model's steps aims at
 *  (in a worker, long enough that the held-out loss and the probe measured after each call cost
 *  little beside the steps; on the page, 0: a step at a time, the page drawn between them). */
export interface LoopOptions { lmSliceMs?: number }

// A reply of the training module that is an error: by its `error`, as the loop reads it.
const failed = (reply: object): reply is SpecError => !!(reply as Partial<SpecError>).error;

const SLICE_MS = 25;
const PACE_MS = 50;  // with a rate, a tick every 50 ms
export const MAX_CHUNK = 1000;  // limits::max_train_steps_per_call: a call with more is refused
export const SOLVED_HOLD = 200;
export const FLAT_WINDOW = 1000;
export const FLAT_DROP = 0.05;
export const LM_FLAT_WINDOW = 1000;
export const LM_FLAT_DROP = 0.02;
export const LM_POINTS = 1200;
const LM_SLICE_MS = 1500;

/** What a settle rule reads of the metrics: the language model's have no accuracy. */
type Seen = Pick<TrainingMetrics, 'step' | 'eval_loss'> & { accuracy?: number };

/** Watches the metrics of a play run and says when it has settled (null while it has not). The
 *  flat rule counts from step `from`: the language model's held-out loss, on long windows, stays
 *  flat while it trains on short ones. */
export function settling({ window = FLAT_WINDOW, drop = FLAT_DROP, from = 0 } = {}): { room(at: number): number; see(m: Seen): TrainingStop | null } {
  let solvedSince: number | null = null;
  let best = Infinity, fellAt: number | null = null;  // the held-out loss when it last fell by `drop`, and that step
  return {
    /** Steps that may still be taken before the solved rule would pause (Infinity: no limit). */
    room(at) { return solvedSince === null ? Infinity : Math.max(0, solvedSince + SOLVED_HOLD - at); },
    see(m) {
      if (!Number.isFinite(m.eval_loss)) return { reason: 'diverged', step: m.step };
      if (m.accuracy !== undefined && m.accuracy >= 1) solvedSince ??= m.step;
      else solvedSince = null;
      if (solvedSince !== null && m.step >= solvedSince + SOLVED_HOLD) return { reason: 'solved', step: m.step, since: solvedSince };
      if (m.step < from) return null;
      if (fellAt === null || m.eval_loss < best * (1 - drop)) {
        best = m.eval_loss;
        fellAt = m.step;
      }
      if (m.step - fellAt >= window) return { reason: 'flat', step: m.step, since: fellAt };
      return null;
    },
  };
}

/** An empty history for a model of `layers` x `heads`. */
const emptyHistory = (layers = 0, heads = 0): LmHistory => ({
  step: [], loss: [], eval_loss: [], in_context: [],
  previous_token: Array.from({ length: layers }, () => Array.from({ length: heads }, () => [])),
  induction: Array.from({ length: layers }, () => Array.from({ length: heads }, () => [])),
});

/** `m` added to the curves; every other point dropped (the last kept) when there are more than `most`. */
export function record(h: LmHistory, m: LmMetrics, most = LM_POINTS): LmHistory {
  if (!h.previous_token.length) h = emptyHistory(m.previous_token.length, m.previous_token[0]?.length ?? 0);
  h.step.push(m.step);
  h.loss.push(m.loss);
  h.eval_loss.push(m.eval_loss);
  h.in_context.push(m.in_context);
  m.previous_token.forEach((layer, l) => layer.forEach((v, k) => h.previous_token[l][k].push(v)));
  m.induction.forEach((layer, l) => layer.forEach((v, k) => h.induction[l][k].push(v)));
  if (h.step.length <= most) return h;
  const last = h.step.length - 1;
  const keep = <T>(list: T[]) => list.filter((_, i) => i % 2 === 0 || i === last);
  return {
    step: keep(h.step), loss: keep(h.loss), eval_loss: keep(h.eval_loss), in_context: keep(h.in_context),
    previous_token: h.previous_token.map((layer) => layer.map(keep)), induction: h.induction.map((layer) => layer.map(keep)),
  };
}

/** A copy of the curves, for a reply (the loop goes on adding to its own). */
const copied = (h: LmHistory): LmHistory => ({
  step: h.step.slice(), loss: h.loss.slice(), eval_loss: h.eval_loss.slice(), in_context: h.in_context.slice(),
  previous_token: h.previous_token.map((layer) => layer.map((c) => c.slice())), induction: h.induction.map((layer) => layer.map((c) => c.slice())),
});

/** What the playground's model card says of a model trained here. */
export interface TrainedHere { started: LmStarted; step: number; seconds: number; metrics: LmMetrics | null }

/** The weights file `bytes` (lmModel()'s) with a card that says how it was trained here: the
 *  header line (JSON) is rewritten, the weights after it are kept as they are. */
export function withCard(bytes: Uint8Array<ArrayBuffer>, here: TrainedHere): Uint8Array<ArrayBuffer> {
  const end = bytes.indexOf(10);
  if (end < 0) return bytes;
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, end)));
  const { settings, unigram, characters, source } = here.started;
  const card: ModelCard = {
    name: `trained in this tab, step ${here.step}`,
    architecture: header.card.architecture,  // the core's words for the shape it trained
    corpus: { package: source.package, version: source.version, files: [], fortunes: source.fortunes,
      train_characters: characters.train, held_out_characters: characters.heldOut },
    training: { seed: settings.seed, steps: here.step, batch: settings.batch_size, learning_rate: settings.learning_rate,
      repeat_share: settings.repeat_share, seconds: Math.round(10 * here.seconds) / 10 },
    held_out_loss: here.metrics?.eval_loss ?? NaN,
    unigram_loss: unigram,
    probe: '50 random printable word pieces repeated twice (np.random.seed(0))',
    head_scores: [],
  };
  header.card = card;
  const line = new TextEncoder().encode(`${JSON.stringify(header)}\n`);
  const out = new Uint8Array(line.length + bytes.length - end - 1);
  out.set(line);
  out.set(bytes.subarray(end + 1), line.length);
  return out;
}

export function trainingLoop(train: Training, post: (reply: TrainingReply) => void, options: LoopOptions = {}): (message: TrainingFields) => void {
  const lmSlice = options.lmSliceMs ?? LM_SLICE_MS;
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

  // The language model's run, when the last start was one.
  let language = false;
  let lm: { started: LmStarted; history: LmHistory; metrics: LmMetrics | null; seconds: number } | null = null;
  let stepping = false;  // a Step of the language model: played up to `until`, no pause of its own
  let loading = 0;       // > 0: the texts of run number `loading` are on their way
  let runs = 0;          // runs started
  const queued: TrainingFields[] = [];  // messages that came while the texts were on their way

  const show = (extra: { stepsPerSecond?: number; stopped?: TrainingStop } = {}) => {
    if (language) {
      if (lm) post({ language: { step: at, metrics: lm.metrics, history: copied(lm.history), seconds: lm.seconds }, playing, ...extra });
      return;
    }
    const snapshot = train.snapshot(example);
    post(failed(snapshot) ? { error: snapshot.error, playing } : { snapshot, playing, ...extra });
  };
  const fail = (error: SpecError['error']) => { playing = false; post({ error, playing }); };

  /** `count` steps of the run: its metrics, or the error. */
  const steps = (count: number): { step: number; metrics: TrainingMetrics | LmMetrics } | SpecError => {
    if (!language) {
      const m = train.step(count);
      if (failed(m)) return m;
      last = m;
      return { step: m.step, metrics: m };
    }
    const t0 = performance.now();
    const m = train.lmStep(count);
    if (failed(m)) return m;
    lm!.seconds += (performance.now() - t0) / 1000;
    lm!.metrics = m;
    lm!.history = record(lm!.history, m);
    return { step: m.step, metrics: m };
  };

  const tick = () => {
    timer = null;
    if (!playing) return;
    const t0 = performance.now();
    const count = Math.min(rate && !language ? Math.max(1, Math.round(rate * PACE_MS / 1000)) : chunk, until - at,
      watch ? Math.max(1, watch.room(at)) : Infinity);
    const r = count > 0 ? steps(count) : null;
    const ms = performance.now() - t0;
    if (r && failed(r)) return fail(r.error);
    if (r) at = r.step;
    // Grow or shrink the chunk toward one slice of work per tick.
    const slice = language ? lmSlice : SLICE_MS;
    chunk = Math.max(1, Math.min(MAX_CHUNK, Math.round(chunk * Math.min(2, ms > 0 ? slice / ms : 2))));
    let stopped: TrainingStop | null = r && watch ? watch.see(r.metrics) : null;
    if (!stopped && (!r || at >= until)) {
      if (stepping) playing = false;
      else stopped = { reason: 'budget', step: at };
    }
    if (stopped) playing = false;
    if (!playing) stepping = false;
    show({ stepsPerSecond: r && ms > 0 ? (1000 * count) / ms : undefined, ...(stopped ? { stopped } : {}) });
    if (playing) timer = setTimeout(tick, rate && !language ? Math.max(0, PACE_MS - ms) : 0);
  };

  // The texts as the corpus module gives them.
  let texts: { train: string; heldOut: string; source: LmStarted['source'] } | null = null;

  /** A language-model run from step 0: its texts fetched (once), then started. */
  const startLanguage = (settings: LmSettings) => {
    const run = ++runs;
    loading = run;
    if (!texts) post({ loading: 'corpus' });
    import('./corpus.js').then(async ({ fortunes, SOURCE }) => {
      if (!texts) {
        const { train: trainText, heldOut } = await fortunes();
        texts ??= { train: trainText, heldOut, source: SOURCE };
      }
      if (run !== runs) return;  // a newer start came meanwhile
      loading = 0;
      const r = train.lmStart(settings, texts.train, texts.heldOut);
      if (failed(r)) {
        queued.length = 0;
        return fail(r.error);
      }
      const begun: LmStarted = { settings: r.settings, unigram: r.unigram_loss, source: texts.source,
        characters: { train: [...texts.train].length, heldOut: [...texts.heldOut].length } };
      lm = { started: begun, history: emptyHistory(), metrics: null, seconds: 0 };
      at = 0;
      chunk = 1;
      started = true;
      post({ languageStarted: begun });
      show();
      queued.splice(0).forEach(handle);
    }).catch((e: unknown) => {
      if (run !== runs) return;
      loading = 0;
      queued.length = 0;
      fail({ field: 'task', message: `The fortunes could not be fetched: ${(e as Error | null)?.message ?? e}. Pick the task again to retry.` });
    });
  };

  const handle = (message: TrainingFields): void => {
    if (message.start || message.language) {
      playing = false;
      stepping = false;
      queued.length = 0;
      at = 0;
      last = null;
      lm = null;
      started = false;
      language = Boolean(message.language) && !message.start;
      if (language) {
        startLanguage(message.language!);
        // What else this message holds waits for the texts, as later messages do.
        const rest: TrainingFields = { ...message, language: undefined, start: undefined };
        if (Object.values(rest).some((v) => v !== undefined)) queued.push(rest);
        return;
      }
      ++runs;  // a language run still loading is not started when its texts come
      loading = 0;
      const r = train.start(message.start!);
      started = !failed(r);
      if (failed(r)) return fail(r.error);
      post({ started: r.settings });
      show();
    }
    if (loading) {
      queued.push(message);
      return;
    }
    if (!started) return;
    if (message.example !== undefined && !language) {
      example = message.example;
      show();
    }
    if (message.model && language && lm) {
      const bytes = train.lmModel();
      if (bytes) post({ model: withCard(bytes, { started: lm.started, step: at, seconds: lm.seconds, metrics: lm.metrics }), step: at });
    }
    if (message.step) {
      if (language) {
        // A language model's step takes tens of milliseconds: steps are played, and shown as they go.
        playing = true;
        stepping = true;
        watch = null;
        until = at + message.step;
        if (!timer) timer = setTimeout(tick, 0);
        return;
      }
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
      stepping = false;
      if (playing) {
        rate = message.rate ?? 0;
        until = Math.min(message.until ?? Infinity, message.budget ? at + message.budget : Infinity);
        watch = message.settle ? settling(language ? { window: LM_FLAT_WINDOW, drop: LM_FLAT_DROP, from: lm?.started.settings.short_steps } : undefined) : null;
        const seen = language ? lm?.metrics : last;
        if (watch && seen) watch.see(seen);  // a run already at 100% counts from where it was seen
      }
      if (playing && !timer) timer = setTimeout(tick, 0);
      if (!playing) show();
    }
  };

  post({ tasks: train.tasks().tasks });
  return handle;
}
