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
