// The first script of a page that draws attention: it starts compiling the core's wasm while
// the rest of the page's code loads and runs, and instantiate() (instantiate.ts) takes the
// module up. It imports nothing (its one import is of types, gone once compiled), so it runs
// before the page's main code is evaluated, while the wasm (preloaded by the page) streams in.
// A failed compile is null: instantiate() then fetches the wasm itself.
import type { EarlyCompiles, WithEarly } from './instantiate.js';

const url = new URL('./wasm/attention-core.wasm', import.meta.url);
const early: EarlyCompiles = ((globalThis as unknown as WithEarly)[Symbol.for('attention-playground.early')] ??= new Map());
if (!early.has(url.href)) early.set(url.href, WebAssembly.compileStreaming(fetch(url)).catch(() => null));
