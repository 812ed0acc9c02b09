// The page and the example post: web/*.html -> dist/, the wasm as its own streamed asset.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'web',
  base: './',
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
