// The trained model's weights file (models/tiny-lm.bin), read when model mode is first used:
// this module is imported on demand, so no other page or embed downloads a byte of it. Fetched
// in the browser, read from disk in Node, decoded in the one-file builds that inline it.
import { bytesAt } from './instantiate.js';

const weightsUrl = new URL('./wasm/tiny-lm.bin', import.meta.url);

export const weightsBytes = (): Promise<Uint8Array<ArrayBuffer>> => bytesAt(weightsUrl);
