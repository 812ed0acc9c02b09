// early.ts first: the core's wasm starts compiling, from the page's preload, while the page is
// still being read. The rest of the page's code runs after the first frame: that frame then
// shows the first screen written into the page (its numbers as HTML) as soon as the HTML and
// the CSS allow, rather than after the code has been evaluated and has drawn the element (the
// script of a cold page, and the files it needs). The code is fetched meanwhile
// (modulepreload, vite.config.js); rendering is blocked until the written screen is read, so
// the animation frame below comes no earlier than the frame that shows it.
import './core/early.js';

await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
await import('./ui/pages/playground.js');
