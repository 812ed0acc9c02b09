// What the hosts of course authors need, built after dist/ (scripts/build-web.mjs runs this last):
//   python/attention_playground/assets/elements.js    every element in one module, wasm inlined: the
//                                                     notebook package writes it into a cell's output
//   python/attention_playground/assets/elements.json  each element's attributes (name, kind, choices,
//                                                     range, help), read from the elements themselves
//   dist/slides/                                      the reveal.js deck of examples/slides/ (npm start
//                                                     serves it at /slides/)
// The assets are generated, not committed (.gitignore): `npm run build` before `pip install ./python`.
import { build } from 'vite';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url).pathname;
const assets = `${root}python/attention_playground/assets/`;
// A folder of its own under the project (so Node finds lit in node_modules from the bundle),
// so that two builds at once do not pull it from under each other.
mkdirSync(`${root}build`, { recursive: true });
const work = `${mkdtempSync(`${root}build/hosts-`)}/`;
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const quiet = { logLevel: 'warn', configFile: false, root, base: './', worker: { format: 'es' } };
// The page's own builds say this once already.
const onwarn = (w, warn) => { if (w.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') warn(w); };

mkdirSync(assets, { recursive: true });

// 1. The attribute tables, from the elements' own code: imported in Node through Lit's server
//    build (its DOM shim), so observedAttributes, the settings tables and the property types are
//    the ones the browser sees, and a setting added to the page reaches Python by a rebuild.
writeFileSync(`${work}tables.ts`, `export * from '${root}web/src/elements.ts';
export { SETTINGS, MATRIX_KEYS } from '${root}web/src/state/settings.ts';
export { PRESETS } from '${root}web/src/state/presets.ts';
export { MODEL, extrasOf } from '${root}web/src/state/model-mode.ts';
export { VIEW_ATTRIBUTES } from '${root}web/src/state/view-state.ts';
`);
await build({
  ...quiet,
  build: { ssr: `${work}tables.ts`, outDir: work, emptyOutDir: false, target: 'node18', rollupOptions: { onwarn, output: { entryFileNames: 'tables.mjs' } } },
});
let m;
try {
  m = await import(`${work}tables.mjs`);
} catch (e) {
  throw new Error(`build-hosts: the elements could not be imported in Node (through Lit's server build) to read their
attributes; does a module of web/src touch the DOM (document, window, matchMedia ...) when it is imported, rather
than when an element is created? ${e.stack ?? e}`);
}

const attributeOf = (key) => key.replace(/_/g, '-').toLowerCase();  // as web/src/ui/shared/share.ts
// Attributes the element sets on itself (reflected state), not settings to give it.
const INTERNAL = new Set(['narrow', 'use-hash']);
// Values of presentation attributes that no table lists (element.d.ts types them).
const CHOICES = { theme: ['auto', 'light', 'dark'] };
const VECTORS = new Set(['decoder_state']);

// The view's attributes (a whole number each): what the element opens following.
const VIEWED = new Set(Object.values(m.VIEW_ATTRIBUTES));
const VIEW_HELP = {
  'focus-token': { help: 'The token followed, its position from 0.' },
  head: { help: 'The head followed, from 0.' },
  layer: { help: 'The trained model\'s layer shown, from 1.' },
};

function describe(tag, Element, table) {
  const props = new Map([...Element.elementProperties].filter(([, o]) => !o.state && o.attribute !== false)
    .map(([name, o]) => [typeof o.attribute === 'string' ? o.attribute : name.toLowerCase(), o]));
  const rows = [];
  for (const attribute of Element.observedAttributes) {
    if (INTERNAL.has(attribute) || rows.some((r) => r.attribute === attribute)) continue;
    const def = table.find((d) => attributeOf(d.key) === attribute);
    const matrix = m.MATRIX_KEYS.find((k) => attributeOf(k) === attribute);
    const prop = props.get(attribute);
    let row;
    if (def) {
      row = { key: def.key, kind: def.kind, default: def.fallback, help: def.help };
      for (const f of ['options', 'min', 'max']) if (def[f] !== undefined) row[f] = def[f];
    } else if (matrix) {
      row = { key: matrix, kind: VECTORS.has(matrix) ? 'vector' : 'matrix', help: 'Numbers given as JSON; they override what the seed would draw.' };
    } else if (attribute === 'preset') {
      row = { key: 'preset', kind: 'select', options: m.PRESETS.map((p) => p.id), help: 'Loads a worked example.' };
    } else if (attribute === 'controls') {
      row = { key: 'controls', kind: 'controls', options: table.map((d) => d.key), help: 'all, none, or the settings to show as controls.' };
    } else if (prop?.type === Boolean) {
      row = { key: attribute, kind: 'flag' };
    } else if (prop?.type === Number || VIEWED.has(attribute)) {
      row = { key: attribute, kind: 'count', ...VIEW_HELP[attribute] };
    } else {
      row = { key: attribute, kind: 'string' };
    }
    if (CHOICES[attribute]) Object.assign(row, { kind: 'select', options: CHOICES[attribute] });
    rows.push({ attribute, ...row });
  }
  return { tag, attributes: rows };
}

// The trained model's spec takes the sentence and no setting that shapes or gives random
// weights: the element sends such a setting once, for the core to refuse it by name, and a
// notebook refuses it where it is given.
const playground = describe('attention-playground', m.AttentionPlayground, m.SETTINGS);
const specKey = (key) => m.SETTINGS.some((d) => d.key === key) || m.MATRIX_KEYS.includes(key);
playground.trained = { setting: 'model', value: m.MODEL,
  refuses: playground.attributes.filter((r) => specKey(r.key) && m.extrasOf([r.key]).length).map((r) => r.attribute) };
const elements = [
  playground,
  describe('attention-compare', m.AttentionCompare, m.AttentionCompare.table),
  describe('attention-trainer', m.AttentionTrainer, m.AttentionTrainer.table),
];
const version = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).version;
writeFileSync(`${assets}elements.json`, `${JSON.stringify({ version, elements }, null, 1)}\n`);

// 2. Every element in one module: no chunk, no import, the wasm inlined as data: URLs, so it
//    can sit inside a notebook's output or a saved page opened from disk.
await build({
  ...quiet,
  build: {
    outDir: work, emptyOutDir: false, target: 'es2022', minify: true,
    lib: { entry: 'web/src/elements.ts', formats: ['es'], fileName: () => 'elements.js' },
    rollupOptions: { onwarn, output: { codeSplitting: false } },
  },
});
// Inside <script>, only "</script" (any case) can end the element early, and "<!--" can start
// the parser's escaped states; neither may reach the page as written.
const bundle = readFileSync(`${work}elements.js`, 'utf8').replace(/<\/(script)/gi, '<\\/$1');
if (bundle.includes('<!--')) throw new Error('the element bundle holds "<!--": it cannot be inlined in a <script>');
writeFileSync(`${assets}elements.js`, bundle);

// 3. The slide deck, with the elements and reveal.js from node_modules (nothing from a CDN).
await build({
  logLevel: 'warn', configFile: false, root: `${root}examples/slides`, base: './', worker: { format: 'es' },
  build: { outDir: `${root}dist/slides`, emptyOutDir: true, assetsInlineLimit: 0, target: 'es2022', rollupOptions: { onwarn } },
});

console.log('hosts: python/attention_playground/assets/ (elements.js, elements.json), dist/slides/');
