// Model mode: the page on the trained model (`model: "tiny-lm"`) rather than on random weights.
// What the page reads off a model trace: each layer as the self-attention trace the views
// already draw, what each head does (its label from the probe's scores), the next token's
// likeliest guesses, how a token is shown, and whether the sentence can be repeated. Nothing here
// computes attention: every number is the core's.
import type { HeadScores, ModelTrace, SelfTrace, Spec } from '../core/attention.js';
import SHIPPED from './core-model.json';
import type { State } from './settings.js';

/** The model's name in the spec, the hash and the element's attribute. */
export const MODEL = 'tiny-lm';
/** The tokens the model reads at most (its context), from the shipped weights' header. */
export const CONTEXT = SHIPPED.context;
/** The weights file's size, said while it loads (models/tiny-lm.bin: 2 layers of 4 96 x 96
 *  matrices, the embeddings, positions and unembedding, a byte a number, and its card). */
export const WEIGHTS_SIZE = `${Math.round(SHIPPED.bytes / 1024)} KB`;

export const isModelState = (state: State): boolean => state.model === MODEL;

/** What the Model control says in model mode, and the Sentence control of the tokens (`now`:
 *  how many the sentence is, once read), here and in a post's first screen. */
export const PUT_AWAY = 'Seed, sizes, mask and your matrices are put away until you switch back: the trained model’s are learned.';
export const readsPieces = (now?: number): string => `It reads word pieces: at most ${CONTEXT} tokens${now === undefined ? '' : ` (${now} now)`}.`;

/** A model trace, told from the self and encoder-decoder traces by its layers. */
export const isModelTrace = (t: unknown): t is ModelTrace =>
  typeof t === 'object' && t !== null && Array.isArray((t as Partial<ModelTrace>).layers);

/** The spec the page sends in model mode: the model and the sentence, nothing that shapes
 *  random weights (the core refuses those, naming them). */
export const modelSpec = (sentence: string): Spec => ({ model: MODEL, sentence } as Spec);

/** How many characters a text is: code points, as a reader counts them. */
export const characters = (text: string): number => [...text].length;

/** The text the tokens spell: each one's bytes (a byte outside ASCII from its <0xNN> in the
 *  name), read as UTF-8. */
export function textOf(tokens: string[]): string {
  const bytes: number[] = [];
  for (const part of tokens.join('').split(/(<0x[0-9A-F]{2}>)/)) {
    if (isByte(part)) bytes.push(parseInt(part.slice(3, 5), 16));
    else bytes.push(...new TextEncoder().encode(part));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The line above the chips: how the model splits this text, in its numbers. */
export function splitNote(tokens: string[]): string {
  return `The model reads word pieces: these ${characters(textOf(tokens))} characters are ${tokens.length} tokens (␣ marks a space).`;
}

/** The longest start of `text` the model reads whole, in whole characters: at most CONTEXT
 *  tokens as `count` says (the core's count of a text's word pieces; null where it refuses the
 *  text). A token is at least one byte, so the first CONTEXT bytes' characters always fit: the
 *  search starts from there, and keeps them when nothing can be counted. */
export function readableStart(text: string, count: (start: string) => number | null): string {
  const chars = [...text];
  const fits = (k: number) => {
    const n = count(chars.slice(0, k).join(''));
    return n !== null && n <= CONTEXT;
  };
  if (fits(chars.length)) return text;
  const utf8 = new TextEncoder();
  let lo = 0, bytes = 0;  // lo: a start that fits
  while (lo < chars.length && (bytes += utf8.encode(chars[lo]).length) <= CONTEXT) lo++;
  let hi = chars.length;  // a start that does not
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return chars.slice(0, lo).join('');
}

/** The sentence followed by itself: what "Repeat my sentence" makes. */
export function repeated(sentence: string): string {
  return /\s$/.test(sentence) ? `${sentence}${sentence}` : `${sentence} ${sentence}`;
}

/** Why a sentence of `tokens` tokens cannot be repeated, or '' when it can: said twice it is at
 *  least twice as long (the core refuses a text past the context, naming its length). */
export function repeatRefusal(sentence: string, tokens: number): string {
  if (!sentence.trim()) return 'Type a sentence first.';
  return 2 * tokens > CONTEXT ? `Repeated, it would be about ${2 * tokens} tokens; the model reads at most ${CONTEXT}.` : '';
}

/** Whether a token is one byte of a character outside ASCII (shown apart: it is not a letter). */
export const isByte = (token: string): boolean => /^<0x[0-9A-F]{2}>$/.test(token);

/** A token as the page shows it: a space as a visible mark (" the" as "␣the"), the newline as
 *  one, and a byte that is part of a character (<0xE2>) as it is named. */
export function tokenMark(token: string): string {
  return token.replace(/ /g, '␣').replace(/\n/g, '↵');
}

/** What a token is, in words, for a title or a screen reader. */
export function tokenName(token: string): string {
  if (/^\s+$/.test(token)) return [...token].map((c) => (c === '\n' ? 'newline' : 'space')).join(', ');
  if (isByte(token)) return `the byte ${token.slice(1, -1)} (part of a character)`;
  return token.startsWith(' ') ? `“${token.slice(1)}” after a space` : `“${token}”`;
}

// ---------------------------------------------------------------- a layer as a self trace

const layers = new WeakMap<ModelTrace, SelfTrace[]>();

/** Layer l (from 0) of a model trace as a self-attention trace: its matrices as they are, its
 *  tokens as the page shows them, the spec of the layer. The same object for the same trace, so
 *  views given it again draw nothing new. */
export function layerTrace(t: ModelTrace, l: number): SelfTrace {
  let made = layers.get(t);
  if (!made) layers.set(t, (made = []));
  if (!made[l]) {
    const tokens = t.tokens.map(tokenMark);
    made[l] = { ...t.layers[l], tokens, spec: { ...t.layers[l].spec, tokens }, warnings: [] } as SelfTrace;
  }
  return made[l];
}

// The learned weights, and what the length of the text alone decides (RoPE's angles, the
// causal mask): the same numbers from one keystroke to the next.
const KEPT = ['W_q', 'W_k', 'W_v', 'W_o', 'rope_angles', 'mask'] as const;

/** `next` with the matrices of `previous` that stay the same while the text changes, where they
 *  are the same numbers: their views are then not drawn again (RoPE's table of angles alone took
 *  a keystroke three milliseconds). Only they are compared: every other matrix changes with the
 *  text, and comparing them all took a keystroke two milliseconds. */
export function keepWeights(previous: ModelTrace | null, next: ModelTrace, keep: <T>(a: unknown, b: T) => T): ModelTrace {
  if (!previous) return next;
  next.layers.forEach((layer, l) => {
    const before = previous.layers[l];
    if (!before) return;
    for (const k of KEPT) (layer as Record<string, unknown>)[k] = keep(before[k], layer[k]);
  });
  return next;
}

// ---------------------------------------------------------------- what a head does

/** A pattern of the core's head detector: HeadScores is written from its list at build time, so
 *  a name for each, below, is checked against it by the type checker. */
export type Pattern = keyof HeadScores;
export const PATTERN_NAMES: Record<Pattern, string> = {
  previous_token: 'previous-token', duplicate_token: 'duplicate-token', induction: 'induction', first_token: 'first-token',
  current_token: 'current-token',
};
export const PATTERNS = Object.keys(PATTERN_NAMES) as Pattern[];
/** What each pattern means, in a sentence. */
export const PATTERN_HELP: Record<Pattern, string> = {
  previous_token: 'looks at the token just before',
  duplicate_token: 'looks at earlier copies of the same token',
  induction: 'looks at the token after an earlier copy of this one, to copy what came next',
  first_token: 'looks at the first token (a resting place when there is nothing to find)',
  current_token: 'looks at its own token',
};
/** A head is named by its highest pattern from this score up; below it, "mixed". */
export const LABELLED_FROM = 0.3;

export interface HeadLabel { pattern: Pattern | null; name: string; score: number; top: Pattern }

/** A head's label from its scores: its highest pattern if that scores at least LABELLED_FROM. */
export function headLabel(scores: HeadScores): HeadLabel {
  const top = PATTERNS.reduce((a, b) => (scores[b] > scores[a] ? b : a));
  const score = scores[top];
  return score >= LABELLED_FROM ? { pattern: top, name: PATTERN_NAMES[top], score, top } : { pattern: null, name: 'mixed', score, top };
}

// ---------------------------------------------------------------- the next character

export interface Guess { id: number; token: string; p: number }

/** The k likeliest next tokens after one position, from its row of log-probabilities (the
 *  probabilities are their exp), likeliest first. */
export function topNext(logProbs: number[], vocab: string[], k = 5): Guess[] {
  const best: Guess[] = [];
  for (let id = 0; id < logProbs.length; id++) {
    const p = Math.exp(logProbs[id]);
    if (best.length === k && p <= best[k - 1].p) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].p < p) at--;
    best.splice(at, 0, { id, token: vocab[id] ?? String(id), p });
    if (best.length > k) best.pop();
  }
  return best;
}

/** The keys a link, the attributes or a spec set besides the model and the sentence, read
 *  in model mode: sent with the model once, so that the core names the one it refuses. */
export const extrasOf = (read: string[] = []): string[] => read.filter((k) => k !== 'model' && k !== 'sentence' && k !== 'window');

/** The best score of a pattern over every head of the probe. */
const bestOf = (probe: HeadScores[][], pattern: keyof HeadScores): number => Math.max(0, ...probe.flat().map((s) => s[pattern]));

/** Whether the model has a head that copies: some head's induction score names it. */
export const copies = (probe: HeadScores[][]): boolean => bestOf(probe, 'induction') >= LABELLED_FROM;

/** What a model this small learns, and what this one did, from its heads' scores on the probe:
 *  said from the numbers, so it stays true when the weights are trained again. */
export function modelNote(probe: HeadScores[][]): string {
  const learned = ['which word piece follows which'];
  if (bestOf(probe, 'previous_token') >= LABELLED_FROM) learned.push('to look at the previous token');
  if (copies(probe)) learned.push('to copy repeated text (induction)');
  const list = learned.length > 1 ? `${learned.slice(0, -1).join(', ')} and ${learned.at(-1)}` : learned[0];
  const noCopy = copies(probe) ? ''
    : `; this one has not learned to copy repeated text (its best induction score is ${bestOf(probe, 'induction').toFixed(2)})`;
  return `A model this small learns ${list}${noCopy}. It does not resolve what “it” refers to: that takes models thousands of times larger.`;
}

/** The line beside "Repeat my sentence" for a text not said twice: what repeating it is for,
 *  and whether the model has a head that may copy. */
export function repeatHint(probe: HeadScores[][]): string {
  return copies(probe)
    ? 'It writes your sentence twice: below, what the induction head then does on it.'
    : `It writes your sentence twice; none of this model’s heads copies (the best induction score is ${bestOf(probe, 'induction').toFixed(2)}).`;
}

// ---------------------------------------------------------------- what a head does on this text

/** The head with the highest induction score on the probe (layer and head from 0). */
export function bestInduction(probe: HeadScores[][]): { layer: number; head: number } {
  let best = { layer: 0, head: 0, score: -1 };
  probe.forEach((heads, l) => heads.forEach((s, h) => { if (s.induction > best.score) best = { layer: l, head: h, score: s.induction }; }));
  return { layer: best.layer, head: best.head };
}

/** Where a text is said twice: the lag L (the copy as long as it can be, at least two tokens)
 *  at which every token from L on repeats the one L back, but for the copy's first two at most
 *  (after a space a first word may split otherwise: "My" then " My"); null when it is not. */
export function repeatLag(tokens: string[]): number | null {
  const n = tokens.length;
  for (let lag = Math.max(1, Math.floor((n - 1) / 2)); lag <= n - 2; lag++) {
    let i = n - 1;
    while (i >= lag && tokens[i] === tokens[i - lag]) i--;
    if (n - 1 - i >= 2 && i - lag < 2) return lag;
  }
  return null;
}

/** What a head does on the second copy of a text said twice (`lag` back): of its rows (each
 *  token from `lag` on that repeats the one `lag` back, whose target is the token after that earlier twin), how
 *  many put their largest weight on the target, the mean weight there, and the token most of
 *  the other rows look at most (with how many). */
export interface Copying { rows: number; hits: number; mean: number; instead: { token: string; rows: number } | null }

export function copying(weights: number[][], tokens: string[], lag: number): Copying {
  let hits = 0, sum = 0, rows = 0;
  const elsewhere = new Map<string, number>();
  for (let i = lag; i < tokens.length; i++) {
    if (tokens[i] !== tokens[i - lag]) continue;
    const row = weights[i], target = i - lag + 1;
    rows++;
    let top = 0;
    for (let j = 1; j <= i; j++) if (row[j] > row[top]) top = j;
    sum += row[target];
    if (top === target) hits++;
    else elsewhere.set(tokens[top], (elsewhere.get(tokens[top]) ?? 0) + 1);
  }
  const [token, count] = [...elsewhere].sort((a, b) => b[1] - a[1])[0] ?? [];
  return { rows, hits, mean: rows ? sum / rows : 0, instead: token === undefined ? null : { token, rows: count } };
}

/** Of the heads the probe names induction heads, the one that copies most on this text said twice
 *  (`lag` back): the most rows on the target, then the larger mean weight there (layer and head
 *  from 0); null when the probe names none. A model may have more than one: the caption speaks
 *  of the one this text shows copying, whichever the probe ranks first. */
export function copyingHead(t: ModelTrace, lag: number): { layer: number; head: number; copying: Copying } | null {
  let best: { layer: number; head: number; copying: Copying } | null = null;
  t.probe_head_scores.forEach((heads, l) => heads.forEach((s, h) => {
    if (s.induction < LABELLED_FROM) return;
    const c = copying(t.layers[l].weights[h], t.tokens, lag);
    if (!best || c.hits > best.copying.hits || (c.hits === best.copying.hits && c.mean > best.copying.mean)) best = { layer: l, head: h, copying: c };
  }));
  return best;
}

/** The caption of a text said twice: what head `head` of layer `layer` (from 1), an induction
 *  head on the probe (its score `score` there), does on its second copy, counted on this text's weights. */
export function copyCaption(c: Copying, layer: number, head: number, score: number): string {
  const who = `head ${head} of layer ${layer} (induction ${score.toFixed(2)} on random tokens)`;
  const where = `${c.hits} of ${c.rows} rows of the second copy`;
  const said = (only: string) => `puts its largest weight on the token after the earlier twin in ${only}${where} (a mean weight of ${c.mean.toFixed(2)} there)`;
  if (c.hits * 2 >= c.rows) return `On this text, ${who} ${said('')}: it copies.`;
  const instead = c.instead ? `; the others look most at ${tokenName(c.instead.token)} (${c.instead.rows} of them)` : '';
  return `On this text, ${who} ${said('only ')}${instead}: it does not copy here.`;
}
