// A dependency-free module of web/src (one that imports nothing) loaded straight from its
// TypeScript source, so Node tests can call the page's own functions without a build.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export async function importTS(path) {
  const source = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText;
  return import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`);
}
