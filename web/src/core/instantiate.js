// Compiles and instantiates a wasm module from its URL wherever the code runs: streamed in the
// browser, read from disk in Node (Emscripten 3.1.6 would fetch by path even there), decoded
// from a data: URL in the one-file builds.
function base64Bytes(dataUrl) {
  const b64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  if (typeof atob === 'function') return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return Uint8Array.from(globalThis.Buffer.from(b64, 'base64'));
}

// What a page began compiling before its scripts ran (early.js): url -> Promise<Module | null>.
const EARLY = Symbol.for('attention-playground.early');

export async function instantiate(wasmUrl, imports) {
  const module = await globalThis[EARLY]?.get(wasmUrl.href);
  if (module) return { module, instance: await WebAssembly.instantiate(module, imports) };
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

