// The core, loaded once and wrapped in plain JS: load() -> { run, random, numpy, derive, settings }.
// The same file works in the browser (the wasm is fetched and compiled while it streams) and
// in Node (the wasm is read from disk), and every call is JSON in, plain objects out, so no
// embind handle ever reaches the caller.
import createAttentionCore from './wasm/attention-core.mjs';

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

function wrap(core) {
  const call = (fn, value) => JSON.parse(fn(typeof value === 'string' ? value : JSON.stringify(value)));
  return {
    run: (spec) => call(core.run, spec ?? {}),
    random: ({ seed = 42, dist = 'uniform', rows = 1, cols = 1 } = {}) => {
      const r = call(core.random, { seed, dist, rows, cols });
      return r.error ? r : r.values;
    },
    numpy: (spec) => {
      const r = call(core.numpy, spec ?? {});
      return r.error ? r : r.program;
    },
    derive: (request) => call(core.derive, request),
    settings: () => JSON.parse(core.settings()),
    // Leak checks: bytes the allocator holds, and live embind handles (none should stay).
    // Benchmarks only: the attention kernel timed inside wasm ({ms, runs}).
    bench: (request) => call(core.bench, request),
    stats: () => ({ ...JSON.parse(core.stats()), handles: core.count_emval_handles() }),
  };
}

let shared = null;

// One module per page: every <attention-playground> on it shares this promise.
export function load() {
  if (!shared) {
    shared = createAttentionCore({
      instantiateWasm(imports, done) {
        instantiate(imports).then((r) => done(r.instance, r.module));
        return {};
      },
    }).then(wrap);
    shared.catch(() => { shared = null; });  // a failed load may be retried
  }
  return shared;
}
