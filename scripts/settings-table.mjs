// Writes web/src/state/core-settings.json: the core's own table of spec settings (key, kind,
// default, help, choices, range, modes), read from the wasm build through the same load() the
// page uses. The page needs the table before the core has loaded (to read a link, to draw its
// controls), so it is written here, at build time, and state/settings.ts imports it: the page
// adds labels and widgets, never a second copy of a default, a range or a choice.
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { load } from '../web/src/core/attention.js';

const out = new URL('../web/src/state/core-settings.json', import.meta.url);
const core = await load();
const text = `${JSON.stringify(core.settings(), null, 1)}\n`;
// Rewritten only when it changed, so a rebuild leaves the file (and vite's cache) alone.
if (!existsSync(out) || readFileSync(out, 'utf8') !== text) writeFileSync(out, text);
console.log(`web/src/state/core-settings.json: ${core.settings().length} settings from the core`);
