// The page and the example post: web/*.html -> dist/, the wasm as its own streamed asset.
import { defineConfig } from 'vite';
import { posix } from 'node:path';
import { readFileSync } from 'node:fs';

// Pages that draw attention fetch the wasm early.ts compiles from the start (a preload its fetch
// then takes up), and the whole core's JS (which the core imports when first loaded), rather
// than after every script has been read and run. The playground's page
// has linked.js for it, first in its head: a link that carries settings (#d_model=64&heads=2,
// say) opens other numbers than the first screen written into the page, so it marks the page
// (data-linked) before the body is read, and CSS hides that screen (page.css) until the link's
// numbers are written into it (ui/pages/linked-screen.ts) or the element draws its own. It
// preloads the wasm that early.ts then compiles, and says which: for a link, the first
// heatmap's module (data-first-heatmap), whose JS is the page's own (core/first-module.ts);
// else, or for the trained model (which only the whole core runs), the whole core, and its JS, and
// then the model's weights too. Unless the first heatmap's module draws the link's numbers, it also
// asks for the playground's code, which main.ts imports after the first frame (for such a link,
// only once its numbers are on screen: on a slow connection it would share the wasm's
// download). Its tag names the files.
const preloadCore = {
  name: 'preload-core',
  transformIndexHtml: {
    order: 'post',
    handler(html, { filename, bundle, chunk }) {
      if (!bundle || !/<attention-(playground|compare)\b/.test(html)) return html;
      const page = posix.relative(posix.resolve('web'), posix.dirname(filename));
      const href = (name, ext = 'wasm') => {
        const file = Object.keys(bundle).find((f) => new RegExp(`(^|/)${name}-[\\w-]{8}\\.${ext}$`).test(f));
        if (!file) throw new Error(`${name}.${ext} is not in the bundle`);
        const path = posix.relative(page || '.', file);
        return path.startsWith('.') ? path : `./${path}`;
      };
      if (isPlayground(filename)) {
        const files = (list) => list.map((file) => `./${file}`).join(' ');
        return [{ tag: 'script', attrs: { src: './linked.js', 'data-core': href('attention-core'), 'data-core-code': href('attention-core', 'js'),
          'data-first': href('attention-first'), 'data-weights': href('tiny-lm', 'bin'), 'data-later': files(deferred(chunk, bundle)) },
          injectTo: 'head-prepend' }];
      }
      return [{ tag: 'link', attrs: { rel: 'preload', href: href('attention-core'), as: 'fetch', type: 'application/wasm', crossorigin: '' }, injectTo: 'head-prepend' },
        { tag: 'link', attrs: { rel: 'modulepreload', href: href('attention-core', 'js'), crossorigin: '' }, injectTo: 'head-prepend' }];
    },
  },
};
// The playground's code that loads after its first heatmap (ui/pages/later-views.ts), and the
// exports, which come with it (or on their first use, if before).
export const LATER = /web[\\/]src[\\/]ui[\\/](views[\\/](derivation|flow|decode-stepper|online-stepper|stepper|heads-overview|next-token|rope-view|alibi-view|gqa-view|cross-view|later)|shared[\\/]export)\.ts/;
const isPlayground = (filename) => posix.relative(posix.resolve('web'), filename) === 'index.html';

// The page's stylesheets, written into it: a render-blocking fetch fewer before the first frame.
// It is our own CSS from the bundle; a closing tag in it would end the <style> early.
function inlineStyles(html, bundle) {
  if (!bundle) return html;
  return html.replace(/<link rel="stylesheet"(?: crossorigin)? href="\.\/([^"]+\.css)">/g, (link, file) => {
    const css = bundle[file]?.source;
    if (typeof css !== 'string') throw new Error(`inlining ${file}: not in the bundle`);
    if (/<\/style/i.test(css)) throw new Error(`inlining ${file}: it holds "</style"`);
    return `<style>${css.trim()}</style>`;
  });
}

// The playground page holds its first screen as HTML (web/first-screen.html, written by
// scripts/first-screen.mjs), so the browser paints its numbers before any script has arrived.
// linked.js (preloadCore), read before the body, marks a link that carries settings: the page then hides
// that screen (page.css) rather than show numbers the link did not ask for, until it has written
// the link's into it (the screen says what it needs for that in its data-link). The first frame
// waits until that screen is read (a render-blocking rel=expect): drawn in one go, never in
// part, it shows its heatmaps. After Vite's own pass, which would take the screen's <style>s
// out of their shadow roots.
const firstScreen = {
  name: 'first-screen',
  transformIndexHtml: {
    order: 'post',
    handler(html, { filename, chunk, bundle }) {
      if (!isPlayground(filename)) return html;
      const element = '<attention-playground use-hash></attention-playground>';
      if (!html.includes(element)) throw new Error(`web/index.html has no ${element}`);
      const screen = readFileSync(new URL('web/first-screen.html', import.meta.url), 'utf8').trim();
      return {
        // async: the page's code runs when it arrives, not after the first screen's HTML is read
        html: inlineStyles(html.replace(element, () => `<attention-playground use-hash>${screen}</attention-playground>`), bundle)
          .replaceAll('<script type="module" ', '<script type="module" async '),
        tags: [{ tag: 'link', attrs: { rel: 'expect', href: '#first-screen-end', blocking: 'render' }, injectTo: 'head' }],
      };
    },
  },
};

// The chunks a page's code imports later (import()), with everything they import: not those
// its own scripts import at once.
const closure = (bundle, files, from) => { for (const f of from) if (!files.has(f)) { files.add(f); closure(bundle, files, bundle[f]?.imports ?? []); } return files; };
function deferred(entry, bundle) {
  const now = closure(bundle, new Set(), [entry.fileName]);
  const later = closure(bundle, new Set(), [...now].flatMap((f) => bundle[f]?.dynamicImports ?? []));
  // not the first heatmap's module, which early.ts fetches for a link only
  return [...later].filter((f) => !now.has(f) && !/(^|\/)attention-first-/.test(f));
}
// What writes a link's numbers into the written screen (ui/pages/linked-screen.ts): a chunk with
// what it imports, which the page's first script imports at once.
const LINKED_SCREEN = /web[\\/]src[\\/]ui[\\/]pages[\\/]linked-screen\.ts$/;

export default defineConfig({
  root: 'web',
  base: './',
  plugins: [preloadCore, firstScreen],
  build: {
    modulePreload: { polyfill: false },  // every browser the page runs in reads rel=modulepreload
    outDir: '../dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    target: 'es2022',
    rollupOptions: {
      input: { main: 'web/index.html', learn: 'web/learn/index.html', compare: 'web/compare/index.html', examples: 'web/examples/index.html' },
      // The playground's views that load after its first heatmap (ui/pages/later-views.ts) are a
      // chunk of their own. The modules they share with the playground go with the heatmap,
      // which every page loads: left to itself, the bundler made a chunk of each, and a link
      // waited for a dozen files on six connections (and a module the views' group took, as the
      // arcs were by cross-attention's view, made the whole group a chunk the playground waits for).
      output: {
        codeSplitting: {
          groups: [
            // what a link's first screen needs (with what it imports: the first heatmap's module's
            // code, the colours), which the page's first script imports, and the heatmap's chunk from it
            { name: 'linked-screen', test: LINKED_SCREEN, priority: 3 },
            { name: 'heatmap', test: /web[\\/]src[\\/](ui[\\/]views[\\/](heatmap|arcs)|ui[\\/]shared[\\/](colour|clip|count|share|deferred)|state[\\/](trace-schema|model-mode))\.ts/, priority: 2 },
            { name: 'views', test: LATER, priority: 1 },
          ],
        },
      },
    },
  },
  worker: { format: 'es' },  // core/worker.ts imports the Emscripten module
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
