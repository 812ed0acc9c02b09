// Builds everything under dist/ from web/ (after scripts/build-wasm.sh):
//   web/src/state/core-settings.json, core-training-settings.json  the core's settings tables, for the page (settings-table.mjs)
//   web/src/core/trace-schema.json, tables.d.ts  the trace's schema and the types (core-types.mjs)
//   dist/index.html + assets/    the page (vite.config.js), wasm as its own streamed asset
//   dist/examples/               the blog-post example page
//   dist/attention.js            load(): the core for browser and Node
//   dist/attention-playground.js the <attention-playground> element (web/src/embed.ts)
//   dist/assets/, dist/chunks/   what those two load: the wasm, the model and the texts as files, the
//                                code the first heatmap does not need as chunks loaded when used
//   dist/attention-playground.html  the whole playground in one file that works from disk
//   dist/slides/ and python/attention_playground/assets/  the deck and the notebook package (build-hosts.mjs)
import { build } from 'vite';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { LATER } from '../vite.config.js';

const root = new URL('../', import.meta.url).pathname;

// The page's settings tables read the core's: written from the wasm before the page is built.
await import('./settings-table.mjs');
await import('./core-types.mjs');
const quiet = { logLevel: 'warn', configFile: false, root, base: './', worker: { format: 'es' } };

// The library's chunks beyond the core: the elements, and the trainer's and the comparison's own.
const ELEMENTS = /web[\\/]src[\\/](elements|ui|state)[\\/.]|node_modules/;
// (the training loop and the training settings' tables with the trainer: a post's playground needs neither)
const TRAINER = /web[\\/]src[\\/](ui[\\/]pages[\\/]trainer(-lm)?|ui[\\/]views[\\/]chart|state[\\/]training|core[\\/]training(-loop)?)\.ts|state[\\/]core-(training|lm)-settings\.json|lit[\\/]directives[\\/]keyed/;
const COMPARE = /web[\\/]src[\\/]ui[\\/]pages[\\/]compare(-current)?\.ts/;

await build({ configFile: `${root}vite.config.js`, logLevel: 'warn' });

// Library mode would inline the wasm (and the model, and the texts) as base64, which the browser
// can neither stream nor compile while it downloads, and which compresses worse: they stay files
// beside the code (?no-inline), fetched when used. Only the one-file page and the notebook,
// built below and by build-hosts.mjs, carry them inlined.
const filesBesideTheCode = {
  name: 'files-beside-the-code',
  enforce: 'pre',
  transform(code, id) {
    if (!/web\/src\/(core\/)?[\w-]+\.ts$/.test(id)) return null;
    return code.replace(/(new URL\('\.\/(?:core\/)?wasm\/[\w.-]+)'/g, "$1?no-inline'");
  },
};
// The script a post loads imports its first screens' code and the core's instantiation through
// small facade chunks, whose own imports (the first screens' chunk and the core's) the browser
// learnt of only once a facade had arrived, a round trip after the script. The script asks for
// those chunks as it starts (modulepreload: fetched, not run before they are imported): on
// Fast 3G, a post's first heatmap came 45 ms sooner (1320 -> 1275 ms, 11 loads each, twice).
const preloadFirstChunks = {
  name: 'preload-first-chunks',
  generateBundle(_options, bundle) {
    const entry = bundle['attention-playground.js'];
    const first = /web[\\/]src[\\/](ui[\\/]pages[\\/]first-screen|core[\\/]instantiate)\.ts$/;
    const files = new Set(entry.dynamicImports.map((name) => bundle[name])
      .filter((chunk) => first.test(chunk.facadeModuleId ?? '')).flatMap((chunk) => chunk.imports));
    if (files.size < 2) throw new Error(`the first chunks of attention-playground.js: ${[...files]}`);
    const hrefs = JSON.stringify([...files].map((file) => `./${file}`));
    entry.code = `for(const f of ${hrefs}){const l=document.createElement("link");l.rel="modulepreload";` +
      `l.href=new URL(f,import.meta.url).href;(document.head??document.documentElement).append(l)}\n${entry.code}`;
  },
};
await build({
  ...quiet,
  plugins: [filesBesideTheCode, preloadFirstChunks],
  build: {
    outDir: 'dist', emptyOutDir: false, target: 'es2022', minify: true,
    lib: {
      entry: { attention: 'web/src/core/attention.ts', 'attention-playground': 'web/src/embed.ts' },
      formats: ['es'], fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: {
      output: {
        chunkFileNames: 'chunks/[name]-[hash].js', assetFileNames: 'assets/[name]-[hash][extname]',
        // Whitespace too: a library's ES build keeps it by default (for other bundlers'
        // tree-shaking), but these files go to browsers as they are (the elements' chunk: 52 KB
        // gzip with it, 48 without).
        minify: true,
        // Few chunks, so that few round trips lie between the script and its first heatmap:
        // the core (with the bundler's helpers, which left to themselves went into the first
        // chunk that needed them: training's), which embed.ts imports at once, and the elements
        // with everything they import at once. The training module's code stays a chunk of its
        // own, loaded when used (in Node too, where the elements' chunk cannot be imported). The
        // trainer's and the comparison's elements are chunks of their own, which embed.ts fetches
        // after the playground's: a blog post's playgrounds do not wait for them.
        codeSplitting: {
          // (a group takes what its modules import as well, unless a group before it took it:
          // the elements go before the trainer's and the comparison's, which share their code)
          groups: [
            { name: 'attention', test: /rolldown[\\/]runtime|web[\\/]src[\\/]core[\\/](attention|wrap|instantiate|packed|unchanged|background)\.ts/, priority: 4 },
            { name: 'training-core', test: /web[\\/]src[\\/]core[\\/]training-core\.ts|attention-train\.mjs/, priority: 3 },
            // a post's first screens (ui/pages/first-screen.ts) with what they import, which the elements import from it
            { name: 'first-screen', test: /web[\\/]src[\\/]ui[\\/]pages[\\/]first-screen\.ts/, priority: 3 },
            // and the trained model's first screen, fetched by a post that shows it (with the model's words, which the elements import from it)
            { name: 'first-screen-model', test: /web[\\/]src[\\/]ui[\\/]pages[\\/]first-screen-model\.ts/, priority: 3 },
            { name: 'elements', test: (id) => ELEMENTS.test(id) && !TRAINER.test(id) && !COMPARE.test(id) && !LATER.test(id), priority: 2 },
            { name: 'views', test: LATER, priority: 1 },
            { name: 'trainer', test: TRAINER, priority: 1 },
            { name: 'compare', test: COMPARE },
          ],
        },
      },
    },
  },
});

// The single file: the element and the core in one inline module script.
await build({
  ...quiet,
  build: {
    outDir: 'build/single', emptyOutDir: true, target: 'es2022', minify: true,
    lib: { entry: 'web/src/ui/pages/playground.ts', formats: ['es'], fileName: () => 'playground.js' },
    rollupOptions: { output: { codeSplitting: false } },
  },
});
const script = readFileSync(`${root}build/single/playground.js`, 'utf8').replace(/<\/(script)/gi, '<\\/$1');
writeFileSync(`${root}dist/attention-playground.html`, `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>Attention Playground</title>
<style>${readFileSync(`${root}web/src/page.css`, 'utf8')}</style>
</head>
<body>
<main><h1 class="sr-only">Attention Playground</h1><attention-playground use-hash></attention-playground></main>
<script type="module">${script}</script>
</body>
</html>
`);
rmSync(`${root}build/single`, { recursive: true, force: true });
console.log('dist/: page, examples, attention.js, attention-playground.js, attention-playground.html');

// The notebook package's assets and the slide deck (dist/slides/): scripts/build-hosts.mjs.
await import('./build-hosts.mjs');
