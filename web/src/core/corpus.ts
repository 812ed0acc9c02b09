// The language model's texts (the "Language model" task of /learn/): the fortunes it trains on
// and the ones held out, as the build copies them beside the wasm from models/. This module is
// imported only when that task is chosen, so the page's first load fetches none of its 820 KB.
// Fetched in the browser, read from disk in Node, decoded in the one-file builds that inline them.
import { bytesAt } from './instantiate.js';

const trainUrl = new URL('./wasm/tiny-lm-train.txt', import.meta.url);
const heldOutUrl = new URL('./wasm/tiny-lm-held-out.txt', import.meta.url);

export interface Corpus { train: string; heldOut: string }

let shared: Promise<Corpus> | null = null;

/** Both texts, fetched once per page or worker. */
export function fortunes(): Promise<Corpus> {
  shared ??= Promise.all([bytesAt(trainUrl), bytesAt(heldOutUrl)]).then(([train, heldOut]) => {
    const utf8 = new TextDecoder('utf-8');
    return { train: utf8.decode(train), heldOut: utf8.decode(heldOut) };
  });
  shared.catch(() => { shared = null; });  // a failed fetch may be retried
  return shared;
}

/** Where the texts come from: the corpus of models/tiny-lm.bin's card (tests/web/core/corpus.test.mjs
 *  checks these against it). */
export const SOURCE = { package: 'fortunes', version: '1:1.99.1-7.3', fortunes: 5880 } as const;

/** The model's vocabulary: the unknown token, the newline, printable ASCII. */
export const VOCABULARY = 97;
/** Characters the model reads at once; a window is this plus the one it predicts. */
export const CONTEXT = 128;

/** A character's token id, as the core's encode_text gives it: the newline 1, printable ASCII from
 *  2, anything else (a tab, a letter outside ASCII) 0, the unknown token. */
export function tokenId(codePoint: number): number {
  if (codePoint === 10) return 1;
  return codePoint >= 32 && codePoint <= 126 ? codePoint - 30 : 0;
}

/** A text as token ids (one per character). */
export function encode(text: string): Int32Array {
  const ids: number[] = [];
  for (const c of text) ids.push(tokenId(c.codePointAt(0)!));
  return Int32Array.from(ids);
}

/** The loss of knowing only how often each character occurs in `train` (add-one counts), in nats
 *  per character, on the characters the held-out loss predicts: the last CONTEXT of each of the
 *  first `windows` windows of CONTEXT + 1 characters of `heldOut`, as the core measures it.
 *  A model below it has learned more than letter frequencies. */
export function unigramLoss(train: Int32Array, heldOut: Int32Array, windows: number): number {
  const counts = new Float64Array(VOCABULARY).fill(1);
  for (const id of train) counts[id]++;
  const total = train.length + VOCABULARY;
  let loss = 0, n = 0;
  for (let w = 0; w < windows && (w + 1) * (CONTEXT + 1) <= heldOut.length; w++) {
    for (let i = 1; i <= CONTEXT; i++) {
      loss -= Math.log(counts[heldOut[w * (CONTEXT + 1) + i]] / total);
      n++;
    }
  }
  return n ? loss / n : NaN;
}
