// Writes the core's own settings tables (key, kind, default, help, choices, range, modes) for
// the page, read from the wasm builds through the same loaders the page uses:
//   web/src/state/core-settings.json           the spec's, from settings() (state/settings.ts)
//   web/src/state/core-training-settings.json  the trainer's, from the training module (state/training.ts)
//   web/src/state/core-lm-settings.json        the language model's training, from the same module
//   web/src/state/core-model.json              the shipped model's shape (its context, its vocabulary)
//                                              and its file's size, from the header the core wrote
// The page needs a table before the core has loaded (to read a link, to draw its controls), so
// it is written here, at build time, and imported: the page adds labels and widgets, never a
// second copy of a default, a range or a choice.
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { importTSTree } from '../tests/e2e/typescript.mjs';

// The page's loader, from its TypeScript: this runs before the build writes dist/.
const { load, loadTraining } = await importTSTree('web/src/core/attention.ts');

function write(name, table, said) {
  const out = new URL(`../web/src/state/${name}`, import.meta.url);
  const text = `${JSON.stringify(table, null, 1)}\n`;
  // Rewritten only when it changed, so a rebuild leaves the file (and vite's cache) alone.
  if (!existsSync(out) || readFileSync(out, 'utf8') !== text) writeFileSync(out, text);
  console.log(`web/src/state/${name}: ${said}`);
}

const settings = (table, what) => `${table.length} ${what} settings from the core`;
const spec = (await load()).settings();
write('core-settings.json', spec, settings(spec, 'spec'));
const trainer = (await loadTraining()).tasks();
write('core-training-settings.json', trainer.settings, settings(trainer.settings, 'training'));
write('core-lm-settings.json', trainer.language_model_settings, settings(trainer.language_model_settings, 'language-model training'));
// The weights file's first line is its header (io/model_file.hpp): the page says the model's
// context and the file's size before it has fetched the file.
const weights = readFileSync(new URL('../models/tiny-lm.bin', import.meta.url));
const { shape } = JSON.parse(weights.subarray(0, weights.indexOf(10)).toString('utf8'));
write('core-model.json', { context: shape.context, vocabulary: shape.vocabulary, bytes: weights.length },
  `the shipped model's context (${shape.context} tokens) and its file's size (${weights.length} bytes)`);
