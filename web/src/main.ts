// early.js first: the core's wasm starts compiling, from the page's preload, before the rest of
// the page's code is evaluated (the page's scripts are async, each run as it arrives).
import './core/early.js';
import './ui/playground.js';
