// Writes the core's own settings tables (key, kind, default, help, choices, range, modes) for
// the page, read from the wasm builds through the same loaders the page uses:
//   web/src/state/core-settings.json           the spec's, from settings() (state/settings.ts)
//   web/src/state/core-training-settings.json  the trainer's, from the training module (state/training.ts)
//   web/src/state/core-lm-settings.json        the language model's training, from the same module
// The page needs a table before the core has loaded (to read a link, to draw its controls), so
// it is written here, at build time, and imported: the page adds labels and widgets, never a
// second copy of a default, a range or a choice.
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { importTSTree } from '../tests/e2e/typescript.mjs';

// The page's loader, from its TypeScript: this runs before the build writes dist/.
const { load, loadTraining } = await importTSTree('web/src/core/attention.ts');

function write(name, table, what) {
  const out = new URL(`../web/src/state/${name}`, import.meta.url);
  const text = `${JSON.stringify(table, null, 1)}\n`;
  // Rewritten only when it changed, so a rebuild leaves the file (and vite's cache) alone.
  if (!existsSync(out) || readFileSync(out, 'utf8') !== text) writeFileSync(out, text);
  console.log(`web/src/state/${name}: ${table.length} ${what} settings from the core`);
}

write('core-settings.json', (await load()).settings(), 'spec');
const trainer = (await loadTraining()).tasks();
write('core-training-settings.json', trainer.settings, 'training');
write('core-lm-settings.json', trainer.language_model_settings, 'language-model training');
