// A module of web/src loaded straight from its TypeScript source, so Node tests can call the
// page's own functions without a build. importTSTree follows its relative imports, static and
// dynamic (.ts sources, .js and .mjs modules and .json tables), each module inlined as a data:
// URL, since a data: module cannot resolve a relative path itself; for the same reason each
// module's import.meta.url is its file's URL, so that new URL('./x.wasm', import.meta.url)
// finds the file beside it.
import { readFileSync, existsSync } from 'node:fs';
import ts from 'typescript';

const transpile = (source) =>
  ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText;
const dataURL = (js) => `data:text/javascript;base64,${Buffer.from(js).toString('base64')}`;

/** The module at `url` (a .ts file, or .json) as a data: URL with its relative imports inlined. */
const inlined = (url) => dataURL(inlinedJS(url));

/** The module at `url` as JavaScript whose relative imports are data: URLs. */
function inlinedJS(url) {
  if (url.pathname.endsWith('.json')) return `export default ${readFileSync(url, 'utf8')};`;
  const js = transpile(readFileSync(url, 'utf8')).replaceAll('import.meta.url', JSON.stringify(url.href));
  return js.replace(/(from\s+|import\s*\(\s*|import\s+)(['"])(\.{1,2}\/[^'"]+)\2/g, (_, lead, quote, spec) => {
    let target = new URL(spec, url);
    const source = new URL(target.href.replace(/\.js$/, '.ts'));
    if (existsSync(source)) target = source;
    return `${lead}${quote}${inlined(target)}${quote}`;
  });
}

export async function importTSTree(path) {
  return import(inlined(new URL(`../../${path}`, import.meta.url)));
}

let copies = 0;
/** A new instance of the module at `path`, not the one an earlier import made: for a test of
 *  what the module reads as it loads (whether Intl.Segmenter is there, say). */
export async function importTSFresh(path) {
  return import(dataURL(`${inlinedJS(new URL(`../../${path}`, import.meta.url))}\n// copy ${++copies}`));
}
