// Compiles and instantiates a wasm module from its URL wherever the code runs: streamed in the
// browser, read from disk in Node (Emscripten 3.1.6 would fetch by path even there), decoded
// from a data: URL in the one-file builds.

/** What an Emscripten factory (wasm/*.mjs) is given here: the module is instantiated by the
 *  caller, which hands Emscripten the instance through `done`. */
export interface EmscriptenOptions {
  instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void): object;
}
/** An Emscripten factory, resolving to the module's embind functions M. */
export type EmscriptenFactory<M> = (options: EmscriptenOptions) => Promise<M>;

/** What a page began compiling before its scripts ran (early.ts): url -> its module, null when
 *  that compile failed. */
export type EarlyCompiles = Map<string, Promise<WebAssembly.Module | null>>;
/** The global object as early.ts and instantiate() share it: through a registered symbol, so
 *  that every copy of this code on a page finds the same compiles. */
export type WithEarly = { [key: symbol]: EarlyCompiles | undefined };

function base64Bytes(dataUrl: string): Uint8Array<ArrayBuffer> {
  const b64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  if (typeof atob === 'function') return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  // where there is no atob: Node's Buffer (outside the page's types, which are the browser's)
  const { Buffer } = globalThis as unknown as { Buffer: { from(text: string, encoding: 'base64'): Uint8Array } };
  return Uint8Array.from(Buffer.from(b64, 'base64'));
}

export const EARLY = Symbol.for('attention-playground.early');
/** The key under which a page compiles the first heatmap's module (first-core.ts). */
export const FIRST_HEATMAP = 'first heatmap';

/** Starts compiling the wasm at `url` while the page's code still loads; instantiate() (by the
 *  URL) or loadFirst() (by FIRST_HEATMAP) takes the module up. A failed compile is null.
 *  `response`: the file's fetch, when the caller began it before this code had arrived. */
export function compileEarly(url: URL, key = url.href, response?: Promise<Response>): void {
  const early: EarlyCompiles = ((globalThis as unknown as WithEarly)[EARLY] ??= new Map());
  if (!early.has(key)) early.set(key, WebAssembly.compileStreaming(response ?? fetch(url)).catch(() => null));
}

/** The bytes of a file beside the code, wherever it runs: a data: URL decoded, a file read
 *  from disk (Node), else fetched. */
export async function bytesAt(url: URL): Promise<Uint8Array<ArrayBuffer>> {
  if (url.protocol === 'data:') return base64Bytes(url.href);
  if (url.protocol === 'file:') {
    const fs = 'node:fs/promises';  // a variable, so browser bundlers leave it alone
    const { readFile }: { readFile(path: URL): Promise<Uint8Array<ArrayBuffer>> } = await import(/* @vite-ignore */ fs);
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

export async function instantiate(wasmUrl: URL, imports: WebAssembly.Imports): Promise<WebAssembly.WebAssemblyInstantiatedSource> {
  const module = await (globalThis as unknown as WithEarly)[EARLY]?.get(wasmUrl.href);
  if (module) return { module, instance: await WebAssembly.instantiate(module, imports) };
  if (wasmUrl.protocol === 'data:' || wasmUrl.protocol === 'file:') return WebAssembly.instantiate(await bytesAt(wasmUrl), imports);
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

/** An Emscripten factory's module, its wasm instantiated from `wasm`: a URL, as instantiate()
 *  does, or a module already compiled (by the page's first script, or by the page for its
 *  worker); with the compiled wasm module (which the page hands its worker). */
export function emscripten<M>(factory: EmscriptenFactory<M>, wasm: URL | WebAssembly.Module): Promise<{ exports: M; compiled: WebAssembly.Module }> {
  let compiled: WebAssembly.Module | null = null;
  const instantiated = wasm instanceof URL ? (imports: WebAssembly.Imports) => instantiate(wasm, imports)
    : (imports: WebAssembly.Imports) => WebAssembly.instantiate(wasm, imports).then((instance) => ({ instance, module: wasm }));
  return factory({
    instantiateWasm(imports, done) {
      instantiated(imports).then((r) => { compiled = r.module; done(r.instance, r.module); });
      return {};
    },
  }).then((exports) => ({ exports, compiled: compiled! }));  // compiled: done() came first
}
