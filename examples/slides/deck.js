// The deck: reveal.js and the playground's elements, both from node_modules and web/src, built
// into dist/slides/ by scripts/build-hosts.mjs (nothing is fetched from a CDN).
import Reveal from 'reveal.js';
import 'reveal.js/reveal.css';
import 'reveal.js/theme/white.css';
import '../../web/src/elements.ts';
import { routeOf } from '../../web/src/state/scoped-hash.ts';
import './deck.css';

const FIELDS = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

/** Whether a key is the deck's. reveal.js listens on the document and looks only at
 *  document.activeElement, which is the element itself while focus is inside its shadow root:
 *  without this, an arrow that moves the selected cell of a heatmap (the element marks it
 *  handled with preventDefault) or a space typed into the sentence would also move the slides. */
export function forTheDeck(event) {
  if (event.defaultPrevented) return false;
  const target = event.composedPath?.()[0];
  if (!(target instanceof Element) || !(target.getRootNode() instanceof ShadowRoot)) return true;
  if (target.closest(FIELDS)) return false;
  return !(target.closest('button, summary, a[href]') && (event.key === ' ' || event.key === 'Enter'));
}

// A Share link from an element on a slide is the slide's route with the element's settings
// after it (#/example&playground-1.seed=7). The elements have read theirs by now (their module
// ran first); reveal.js reads the whole hash as the route, so it is given the route alone. Then
// the elements' part goes back after every route reveal.js writes (it replaces the address on
// each change of slide), so that a reload opens each element as the link did.
const route = routeOf(location.hash);
const elements = location.hash.slice(route.length);  // '&playground-2.layer=2', or ''
if (route !== location.hash) history.replaceState(null, '', route || location.pathname + location.search);

const deck = new Reveal({
  hash: true,
  width: 1280,
  height: 720,  // 16:9, as a projector or a laptop screen is
  margin: 0.04,
  keyboardCondition: forTheDeck,
});
deck.initialize().then(() => {
  if (!elements) return;
  const replace = history.replaceState.bind(history);
  const kept = (url) => {
    const [path, hash = '/'] = String(url ?? location.href).split('#');
    return `${path}#${routeOf(`#${hash}`).slice(1) || '/'}${elements}`;
  };
  history.replaceState = (state, title, url) => replace(state, title, kept(url));
  history.replaceState(null, '', location.href);
});
window.deck = deck;

// An element grows when it draws its first numbers, which may come after reveal.js has centred
// its slide (they wait for the core): the slide then ran off the bottom of the screen. Centre the
// slides again whenever an element changes size (reveal.js scales the slide, which leaves the
// element's own size alone, so this does not call itself again).
const resized = new ResizeObserver(() => { if (deck.isReady()) deck.layout(); });
for (const el of document.querySelectorAll('attention-playground, attention-compare, attention-trainer')) resized.observe(el);
