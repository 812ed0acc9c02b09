// early.ts first: the core's wasm starts compiling, from the page's preload, while the page is
// still being read. The rest of the page's code runs after the first frame: that frame then
// shows the first screen written into the page (its numbers as HTML) as soon as the HTML and
// the CSS allow, rather than after the code has been evaluated and has drawn the element (the
// script of a cold page, and the files it needs). The code is fetched meanwhile
// (modulepreload, from linked.js); rendering is blocked until the written screen is read, so
// the animation frame below comes no earlier than the frame that shows it.
//
// A link with settings of its own first writes its numbers into that screen, from the first
// heatmap's module alone (linked-screen.ts), and only then asks for the page's code, which on a
// slow connection would have shared the wasm's download (after three seconds without the wasm,
// the code is asked for all the same: the controls do not wait for the numbers).
import './core/early.js';
import { drawLinkedScreen } from './ui/pages/linked-screen.js';  // (at once: its chunk holds early.ts's code too)

if (document.documentElement.hasAttribute('data-first-heatmap')) await Promise.race([drawLinkedScreen(), new Promise((later) => setTimeout(later, 3000))]);
await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
await import('./ui/pages/playground.js');
