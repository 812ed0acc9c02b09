// What the element asks the core for, and what it does with a refusal, with no page in it: the
// state and the learner's matrices become a spec, the core runs it, and a matrix or a setting the
// core refuses is left out and the spec run again, so that a wrong shape blanks nothing (the
// message stays beside what was refused). Random weights and the trained model are the two ways
// a trace is asked for; the element (ui/pages/playground.ts) only draws what they give.
import type { Spec } from '../core/attention.js';
import { toSpec, type State } from './settings.js';
import { fitRows, ownRows, type Fitted, type OwnRows } from './rows.js';

type Json = Record<string, any>;
type Matrix = number[][];
export interface Refusal { field: string; message: string }

/** What one computation gave: the trace (or the error that stops it), the spec that made it,
 *  the first thing refused on the way and every key left out for it. */
export interface Outcome {
  spec: Spec;
  result: Json;
  refusal: Refusal | null;
  refused: string[];
}

/** Runs a spec, now or later; answers null when a newer spec replaced it. */
export type Run = (spec: Spec, then: (result: Json | null) => void) => void;

/** The overrides without the keys the core refused. */
export const without = (overrides: Partial<Spec>, refused: string[]) =>
  Object.fromEntries(Object.entries(overrides).filter(([k]) => !refused.includes(k))) as Partial<Spec>;

/** The one way a refusal is met: `specOf(left)` is run without the keys `left` out; while the
 *  core refuses one of `keys` not yet left out, that one is left out too (its message kept) and
 *  the spec run again. `done` gets the last answer, unless `run` dropped it. */
function runLeavingOut(run: Run, keys: string[], specOf: (left: string[]) => Spec, done: (o: Outcome & { said: Record<string, string> }) => void) {
  let refusal: Refusal | null = null;
  const said: Record<string, string> = {};
  const attempt = (refused: string[]) => {
    const spec = specOf(refused);
    run(spec, (result) => {
      if (result === null) return;
      const field = result.error?.field;
      if (field && keys.includes(field) && !refused.includes(field)) {
        refusal ??= result.error;
        said[field] = result.error.message;
        return attempt([...refused, field]);
      }
      done({ spec, result, refusal, refused, said });
    });
  };
  attempt([]);
}

/** Random weights: the spec of `state` and the learner's `overrides`. A matrix the core refuses
 *  (the wrong shape, say) is replaced by the seed's and the spec run again, as often as the core
 *  refuses another; `done` gets the last answer, unless `run` dropped it. */
export function traceKeeping(run: Run, state: State, overrides: Partial<Spec>, done: (o: Outcome) => void) {
  runLeavingOut(run, Object.keys(overrides), (left) => toSpec(state, without(overrides, left)), done);
}

/** The trained model: `wanted` (the model and the sentence) with the `extras` a link set besides
 *  them, valued as in `sent`. The core names the one it refuses; that one is left out and the
 *  rest sent again, so the model runs without what it cannot take, and each refusal is kept for
 *  its control. */
export function traceWithExtras(trace: (spec: Spec) => Json, wanted: Spec, sent: Json, extras: string[]) {
  const keys = extras.filter((k) => Object.hasOwn(sent, k));
  let out!: { result: Json; refusal: Refusal | null; refusals: Record<string, string> };
  runLeavingOut((spec, then) => then(trace(spec)), keys,
    (left) => ({ ...wanted, ...Object.fromEntries(keys.filter((k) => !left.includes(k)).map((k) => [k, sent[k]])) } as Spec),
    ({ result, refusal, said }) => { out = { result, refusal, refusals: said }; });
  return out;  // (the run above answers at once)
}

/** The learner's matrix whose rows are the tokens (X, or the annotations), the rows they gave and
 *  the matrix last fitted from them: another matrix in the overrides means they gave new rows. */
export interface OwnMatrix { key: string; rows: OwnRows; value: Matrix; fitted?: Fitted }

/** The sentence changed from `before`: the learner's matrix keeps their rows as words come and
 *  go, and a new word takes the row the seed gives it in this spec (state/rows.ts). `parameters`
 *  is the core's (the seed's matrices alone, no attention run). Gives the rows to keep for the
 *  next edit and, when the matrix changes, the new one; `note` names a word that took a seed's
 *  row (undefined: the note stays as it is). */
export function followRows(parameters: (spec: Spec) => Json, state: State, overrides: Partial<Spec>, own: OwnMatrix | null, before: string):
  { own: OwnMatrix | null; matrix?: Matrix; note?: string } {
  const key = state.mode === 'encoder_decoder' ? 'annotations' : 'X';
  const given = overrides[key] as Matrix | undefined;
  if (!given?.length) return { own };
  // cheap at any length and with any mode on
  const tokensOf = (sentence: string) => {
    const t = parameters({ sentence, d_model: 1 });
    return t.error ? null : (t.tokens as string[]);
  };
  if (own?.key !== key || own.value !== given) {
    const fitted = own?.key === key ? own.fitted : undefined;
    own = { key, rows: ownRows(tokensOf(before) ?? [], given, fitted), value: given };
  }
  const tokens = tokensOf(String(state.sentence));
  if (!tokens) return { own };  // no words (the box cleared to retype): the core's message says so
  const spec = toSpec(state, without(overrides, [key])) as Json;
  if (key === 'X' || !overrides.decoder_state) spec.d_model = given[0].length;
  const seed = parameters(spec as Spec)[key] as Matrix | undefined;
  if (seed?.length !== tokens.length) return { own };  // the seed cannot say (another matrix is refused): the core's message will
  const fitted = fitRows(own.rows, tokens, seed, key);
  // "no" then "now" may take the same seed row: the matrix stays, the note names the word.
  if (JSON.stringify(fitted.matrix) === JSON.stringify(given)) return { own, note: fitted.note || undefined };
  return { own: { ...own, value: fitted.matrix, fitted }, matrix: fitted.matrix, note: fitted.note };
}
