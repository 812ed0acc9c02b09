// A module of web/src loaded straight from its TypeScript source, so Node tests can call the
// page's own functions without a build. importTSTree follows its relative imports (.ts
// sources, .js modules and .json tables), each module inlined as a data: URL, since a data:
// module cannot resolve a relative path itself.
import { readFileSync, existsSync } from 'node:fs';
import ts from 'typescript';

const transpile = (source) =>
  ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText;
const dataURL = (js) => `data:text/javascript;base64,${Buffer.from(js).toString('base64')}`;

/** The module at `url` (a .ts file, or .json) as a data: URL with its relative imports inlined. */
function inlined(url) {
  if (url.pathname.endsWith('.json')) return dataURL(`export default ${readFileSync(url, 'utf8')};`);
  const js = transpile(readFileSync(url, 'utf8'));
  return dataURL(js.replace(/(from\s+|import\s+)(['"])(\.{1,2}\/[^'"]+)\2/g, (_, lead, quote, spec) => {
    let target = new URL(spec, url);
    const source = new URL(target.href.replace(/\.js$/, '.ts'));
    if (existsSync(source)) target = source;
    return `${lead}${quote}${inlined(target)}${quote}`;
  }));
}

export async function importTSTree(path) {
  return import(inlined(new URL(`../../${path}`, import.meta.url)));
}
