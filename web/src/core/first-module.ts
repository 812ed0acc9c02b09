// The first heatmap's module (cpp/bindings/first_wasm.cpp) instantiated without Emscripten's
// runtime: its calls are plain C, and the few the module makes of its host (growing its memory,
// copying within it, aborting) are answered here; it writes nothing (it has no printf). Emscripten's JS for it
// was 2.8 KB gzip and a file of its own, fetched before a post's first heatmap; this is part of
// the page's code. It gives the calls the whole core gives through embind, with the same names
// and types. (The module is linked with its import and export names kept: CMakeLists.txt.)
import type { PackedModule } from './wrap.js';

type Exports = {
  memory: WebAssembly.Memory;
  __wasm_call_ctors(): void;
  malloc(bytes: number): number;
  free(at: number): void;
  first_run_packed(spec: number, length: number): number;
  first_work(spec: number, length: number): number;
  first_load_model?(bytes: number, length: number): number;  // attention-first-model.wasm's alone
  first_packed_data(): number;
  first_packed_size(): number;
  first_drop_packed(): void;
};

const MAX_MEMORY = 2 ** 31;  // what the module addresses (a signed 32-bit pointer)
const decoder = new TextDecoder();

/** The module's calls, on a new instance of `module`. */
export async function instantiateFirst(module: WebAssembly.Module): Promise<PackedModule> {
  let core: Exports;  // its exports, once instantiated (its constructors already call the host)
  const bytes = () => new Uint8Array(core.memory.buffer);  // a fresh view: the memory may have grown
  const env = {
    abort() {
      throw new WebAssembly.RuntimeError('the first heatmap\'s module aborted');
    },
    emscripten_memcpy_big(to: number, from: number, count: number) {
      bytes().copyWithin(to, from, from + count);
    },
    // Grown as Emscripten grows it (a fifth more than asked, in whole pages): 1 when it grew.
    emscripten_resize_heap(wanted: number) {
      const now = core.memory.buffer.byteLength;
      wanted >>>= 0;
      if (wanted > MAX_MEMORY) return 0;
      const size = Math.min(MAX_MEMORY, Math.max(wanted, Math.min(now * 1.2, wanted + 96 * 2 ** 20)));
      try {
        core.memory.grow(Math.ceil((size - now) / 65536));
        return 1;
      } catch {
        return 0;
      }
    },
  };
  const instance = await WebAssembly.instantiate(module, { env });
  core = instance.exports as unknown as Exports;
  core.__wasm_call_ctors();
  // A spec crosses as UTF-8 (a weights file as its bytes) in memory the module allocates (it may
  // be far larger than the stack); an answer is the module's own string, read before the next call.
  const call = (f: (spec: number, length: number) => number, given: string | Uint8Array): string => {
    const encoded = typeof given === 'string' ? utf8(given) : given;
    const at = core.malloc(encoded.length + 1);
    bytes().set(encoded, at);
    bytes()[at + encoded.length] = 0;
    const answer = f(at, encoded.length);
    core.free(at);
    const heap = bytes();
    const end = heap.indexOf(0, answer);
    return decoder.decode(heap.subarray(answer, end));
  };
  return {
    run_packed: (spec: string) => call(core.first_run_packed, spec),
    work: (spec: string) => call(core.first_work, spec),
    load_model: (bytes: Uint8Array) => {
      if (!core.first_load_model) throw new Error('this module does not run the trained model');
      return call(core.first_load_model, bytes);
    },
    packed_numbers: () => new Float64Array(core.memory.buffer, core.first_packed_data(), core.first_packed_size()),
    drop_packed: () => core.first_drop_packed(),
  };
}

/** `text` as UTF-8 the way Emscripten writes a string into memory (the whole core's strings
 *  cross so): a lone surrogate is read with the unit after it, as the whole core reads it, so
 *  that odd text gets the same answer from both. */
export function utf8(text: string): Uint8Array {
  if (!/[\ud800-\udfff]/.test(text)) return new TextEncoder().encode(text);
  const out: number[] = [];
  for (let i = 0; i < text.length; ++i) {
    let u = text.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdfff) u = (0x10000 + ((u & 0x3ff) << 10)) | (text.charCodeAt(++i) & 0x3ff);
    if (u <= 0x7f) out.push(u);
    else if (u <= 0x7ff) out.push(0xc0 | (u >> 6), 0x80 | (u & 63));
    else if (u <= 0xffff) out.push(0xe0 | (u >> 12), 0x80 | ((u >> 6) & 63), 0x80 | (u & 63));
    else out.push(0xf0 | (u >> 18), 0x80 | ((u >> 12) & 63), 0x80 | ((u >> 6) & 63), 0x80 | (u & 63));
  }
  return Uint8Array.from(out);
}
