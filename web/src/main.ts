// early.js first: the page's scripts are async, so this module may be run before the page's own
// early.js tag is, and the core's wasm must still be compiled once, from the preload.
import './core/early.js';
import './ui/playground.js';
