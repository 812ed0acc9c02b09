// The core, loaded once: load() -> { run, runPacked, random, numpy, derive, settings, module }.
// The same file works in the browser (the wasm is fetched and compiled while it streams) and
// in Node (the wasm is read from disk), and every call is JSON in, plain objects out, so no
// embind handle ever reaches the caller.
import createAttentionCore from './wasm/attention-core.mjs';
import { wrap } from './wrap.js';

export { unpack } from './wrap.js';

const wasmUrl = new URL('./wasm/attention-core.wasm', import.meta.url);

function base64Bytes(dataUrl) {
  const b64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  if (typeof atob === 'function') return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return Uint8Array.from(globalThis.Buffer.from(b64, 'base64'));
}

// Emscripten 3.1.6 would fetch the .wasm by path even in Node; hand it the module instead.
async function instantiate(imports) {
  if (wasmUrl.protocol === 'data:') return WebAssembly.instantiate(base64Bytes(wasmUrl.href), imports);
  if (wasmUrl.protocol === 'file:') {
    const fs = 'node:fs/promises';  // a variable, so browser bundlers leave it alone
    const { readFile } = await import(/* @vite-ignore */ fs);
    return WebAssembly.instantiate(await readFile(wasmUrl), imports);
  }
  const response = fetch(wasmUrl);
  if (WebAssembly.instantiateStreaming) {
    try {
      return await WebAssembly.instantiateStreaming(response, imports);
    } catch {
      // a server without the application/wasm type: compile from bytes instead
    }
  }
  return WebAssembly.instantiate(await (await fetch(wasmUrl)).arrayBuffer(), imports);
}

let shared = null;

// One module per page: every <attention-playground> on it shares this promise.
export function load() {
  if (!shared) {
    let compiled = null;
    shared = createAttentionCore({
      instantiateWasm(imports, done) {
        instantiate(imports).then((r) => { compiled = r.module; done(r.instance, r.module); });
        return {};
      },
    }).then((core) => ({ ...wrap(core), module: compiled }));
    shared.catch(() => { shared = null; });  // a failed load may be retried
  }
  return shared;
}
