// React 19: the README's way of using the elements type-checks against web/src/ui/element.d.ts
// (resolved through the package's "./element" export, as an app that installed it would), and
// the element types are really applied (the file's @ts-expect-error lines must be errors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run } from './support.mjs';

test('a React 19 TSX file using the elements type-checks against element.d.ts', () => {
  const react = JSON.parse(readFileSync(join(ROOT, 'node_modules/@types/react/package.json'), 'utf8'));
  assert.match(react.version, /^19\./);
  const files = run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tests/hosts/frameworks/tsconfig.json', '--listFiles'], { cwd: ROOT })
    .split('\n').map((f) => f.trim());
  assert.ok(files.includes(join(ROOT, 'web/src/ui/element.d.ts')), 'element.d.ts is what the import resolved to');
  assert.ok(files.includes(join(ROOT, 'node_modules/@types/react/index.d.ts')));
  // Every line the README gives for React, Vue and Svelte is in it.
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const framework of ['React 19', 'Vue', 'Svelte']) assert.match(readme, new RegExp(`^- ${framework}: `, 'm'));
});
