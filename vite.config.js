// The page and the example post: web/*.html -> dist/, the wasm as its own streamed asset.
import { defineConfig } from 'vite';
import { posix } from 'node:path';

// Pages that draw attention fetch the core's wasm from the start (a preload the core's own
// fetch then takes up), rather than after every script has been read and run.
const preloadCore = {
  name: 'preload-core',
  transformIndexHtml: {
    order: 'post',
    handler(html, { filename, bundle }) {
      if (!bundle || !/<attention-(playground|compare)\b/.test(html)) return html;
      const wasm = Object.keys(bundle).find((f) => /(^|\/)attention-core-[\w-]+\.wasm$/.test(f));
      if (!wasm) return html;
      const page = posix.relative(posix.resolve('web'), posix.dirname(filename));
      const href = posix.relative(page || '.', wasm);
      return [{ tag: 'link', attrs: { rel: 'preload', href: href.startsWith('.') ? href : `./${href}`, as: 'fetch', type: 'application/wasm', crossorigin: '' }, injectTo: 'head-prepend' }];
    },
  },
};

export default defineConfig({
  root: 'web',
  base: './',
  plugins: [preloadCore],
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    target: 'es2022',
    rollupOptions: { input: { main: 'web/index.html', learn: 'web/learn/index.html', compare: 'web/compare/index.html', examples: 'web/examples/index.html' } },
  },
  worker: { format: 'es' },  // core/worker.js imports the Emscripten module
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
