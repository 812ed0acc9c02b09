// `npm pack` makes a package that works installed into an empty folder: the core in Node,
// the types through the package's exports, the element in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../e2e/serve.mjs';
import { CHROMIUM } from '../e2e/harness.mjs';

const root = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'attention-pack-'));
const app = join(work, 'app');
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('npm pack, install into an empty folder, use', async (t) => {
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], root));
  const files = packed.files.map((f) => f.path);
  for (const f of ['dist/attention.js', 'dist/attention-playground.js', 'dist/attention-playground.html',
    'web/src/core/attention.d.ts', 'web/src/core/tables.d.ts', 'web/src/ui/element.d.ts', 'package.json', 'README.md']) {
    assert.ok(files.includes(f), `${f} is in the package`);
  }
  assert.ok(!files.some((f) => f.startsWith('cpp/') || f.startsWith('tests/') || f.startsWith('node_modules/')), files.join(' '));

  run('mkdir', ['-p', app], work);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'reader', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--offline', join(work, packed.filename)], app);

  // the core in Node, through the package's main export
  writeFileSync(join(app, 'use.mjs'), `import { load } from 'attention-playground';
const core = await load();
const t = core.run({ mode: 'encoder_decoder', score: 'dot', decoder_state: [5, 1, 20], annotations: [[3, 12, 45]] });
console.log(JSON.stringify({ score: t.scores[0], error: core.run({ heads: 3 }).error.field }));`);
  assert.deepEqual(JSON.parse(run('node', ['use.mjs'], app)), { score: 927, error: 'heads' });

  // the types resolve through "exports"
  writeFileSync(join(app, 'types.ts'), `import { load, type Trace, type Spec } from 'attention-playground';
import type { AttentionPlaygroundElement } from 'attention-playground/element';
const spec: Spec = { sentence: 'typed', heads: 1, mask: 'causal' };
export async function f(el: AttentionPlaygroundElement): Promise<Trace | string> {
  const core = await load();
  const t = core.run(spec);
  return 'error' in t ? t.error.message : (el.spec.seed === 1 ? t : t);
}`);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'NodeNext',
    moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022', 'DOM'], skipLibCheck: false, types: [] }, files: ['types.ts'] }));
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);

  // the element from the installed package, in Chromium
  const installed = join(app, 'node_modules/attention-playground/dist');
  const element = readFileSync(join(installed, 'attention-playground.js'), 'utf8');
  const pages = {
    '/page.html': '<!doctype html><html lang="en"><head><title>t</title><link rel="icon" href="data:,"><script type="module" src="/attention-playground.js"></script></head><body><attention-playground sentence="installed from a tarball"></attention-playground></body></html>',
    '/attention-playground.js': { type: 'text/javascript', body: element },
  };
  for (const folder of ['chunks', 'assets']) {
    for (const f of readdirSync(join(installed, folder))) {
      pages[`/${folder}/${f}`] = { type: f.endsWith('.wasm') ? 'application/wasm' : 'text/javascript', body: readFileSync(join(installed, folder, f)) };
    }
  }
  const server = await serve(pages);
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.base + 'page.html');
    await page.locator('ap-heatmap[key="weights"] td[data-row]').first().waitFor();
    assert.equal(await page.locator('ap-heatmap[key="weights"] td[data-row]').count(), 16);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
