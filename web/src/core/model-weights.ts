// The trained model's weights file (models/tiny-lm.bin), read when model mode is first used:
// this module is imported on demand, so no other page or embed downloads a byte of it. Fetched
// in the browser, read from disk in Node, decoded in the one-file builds that inline it. Read
// once a page: a post's first screen and its element install the same bytes (a failed read may
// be tried again).
import { bytesAt } from './instantiate.js';

const weightsUrl = new URL('./wasm/tiny-lm.bin', import.meta.url);
let read: Promise<Uint8Array<ArrayBuffer>> | null = null;

export const weightsBytes = (): Promise<Uint8Array<ArrayBuffer>> => {
  const reading = (read ??= bytesAt(weightsUrl));
  reading.catch(() => { if (read === reading) read = null; });
  return reading;
};
