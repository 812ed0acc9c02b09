// The embeddable modules: dist/attention.js (load() for browser and Node) and
// dist/attention-playground.js (the custom element). Library mode inlines the wasm, so each
// is one self-contained file: no second request, no CDN, works from any folder.
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    lib: {
      entry: { attention: 'web/src/core/attention.js', 'attention-playground': 'web/src/ui/playground.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: { output: { chunkFileNames: 'chunks/[name]-[hash].js' } },
  },
});
