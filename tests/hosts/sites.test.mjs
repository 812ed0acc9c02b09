// The README's static-site recipes, as written there, built by the real generators (Debian's
// mkdocs + mkdocs-material, sphinx-build, hugo) in a temporary folder with dist/'s files beside
// the pages, served on 127.0.0.1 (module scripts do not run from file:) and opened in Chromium
// with every request off the machine refused: the element shows the core's numbers, the site's
// CSS leaves it whole, and the site's --ap-accent restyles it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, run, launch, serveDir, weightsShown, weightsOfSpec } from './support.mjs';

const work = mkdtempSync(join(tmpdir(), 'ap-sites-'));
let chromium;
before(async () => { chromium = await launch(); });
after(async () => { await chromium?.close(); rmSync(work, { recursive: true, force: true }); });

/** The files of the README's "Static sites" recipes: each code block that names its path, in
 *  its first line's comment (`# mkdocs.yml`, `{# overrides/main.html #}`, `.. lesson.rst` ...)
 *  or as the fence's title (```md title="content/lesson.md"). */
function recipes() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Static sites'), readme.indexOf('### Slides'));
  const files = {};
  for (const [, info, body] of section.matchAll(/```([^\n]*)\n([\s\S]*?)```/g)) {
    const path = info.match(/title="([^"]+)"/)?.[1]
      ?? body.split('\n')[0].match(/^(?:#|\{#|\{\{\/\*|<!--|\.\.)\s*([\w./-]+\.(?:yml|html|md|py|rst))\b/)?.[1];
    if (path) files[path] = body;
  }
  return files;
}
const RECIPES = recipes();

// The site's own look, hostile to a careless widget: centred text, huge type and borders on
// every table, content-box sizing, a narrow column; and the accent the site wants.
const ACCENT = 'rgb(0, 128, 0)';
const SITE_CSS = `attention-playground { --ap-accent: ${ACCENT}; }
main, article, .md-content, .body { text-align: center; line-height: 2.2; }
table, td, th { border: 4px solid red !important; padding: 12px !important; font-size: 28px !important; }
* { box-sizing: content-box; }
p { margin: 2em 0; }
`;

function write(dir, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}
/** What the README says to copy: the element's script, chunks/ and assets/, beside the pages. */
function copyDist(to) {
  mkdirSync(to, { recursive: true });
  for (const f of ['attention-playground.js', 'chunks', 'assets']) cpSync(join(ROOT, 'dist', f), join(to, f), { recursive: true });
}
const recipe = (...paths) => Object.fromEntries(paths.map((p) => {
  assert.ok(RECIPES[p], `the README's recipe has ${p} (found: ${Object.keys(RECIPES).join(', ')})`);
  return [p, RECIPES[p]];
}));

async function check(site, path) {
  const server = await serveDir(site);
  const page = await chromium.page({ loopback: true });
  try {
    await page.goto(server.base + path);
    const host = page.locator('attention-playground');
    assert.equal(await host.count(), 1);
    const { spec, weights } = await weightsOfSpec(host);
    assert.equal(spec.sentence, 'i miss the old kanye');  // preset="seed004"
    assert.deepEqual(await weightsShown(host), weights);
    // Whole: as wide as its column, its cells drawn at the element's own size, left-aligned.
    const look = await host.evaluate((el) => {
      const box = el.getBoundingClientRect(), column = el.parentElement.getBoundingClientRect();
      const td = el.shadowRoot.querySelector('ap-heatmap').shadowRoot.querySelector('td[data-row]');
      const cell = getComputedStyle(td);
      return { width: box.width, column: column.width, visible: el.checkVisibility(), td: td.getBoundingClientRect().height,
        font: parseFloat(cell.fontSize), border: cell.borderTopWidth };
    });
    assert.ok(look.visible && look.width > 300 && look.width >= 0.95 * look.column, JSON.stringify(look));
    assert.ok(look.td > 8 && look.td < 40 && look.font < 16 && look.border !== '4px', `the site's table CSS reached the cells: ${JSON.stringify(look)}`);
    // The site's accent: the outline of a selected cell.
    await host.locator('ap-heatmap[key="weights"] td[data-row="0"][data-col="1"]').click();
    const outline = await host.locator('ap-heatmap[key="weights"] td.sel').evaluate((td) => getComputedStyle(td).outlineColor);
    assert.equal(outline, ACCENT);
    assert.deepEqual(page.errors, []);
    assert.deepEqual(page.refused, []);
    if (process.env.HOSTS_SHOTS) await page.screenshot({ path: join(process.env.HOSTS_SHOTS, `${site.split('/').at(-2)}.png`), fullPage: true });
  } finally {
    await page.context().close();
    await server.close();
  }
}

test('MkDocs with the Material theme', async () => {
  const dir = join(work, 'mkdocs');
  write(dir, { ...recipe('mkdocs.yml', 'overrides/main.html', 'docs/lesson.md'), 'docs/index.md': '# Home\n', 'docs/course.css': SITE_CSS });
  copyDist(join(dir, 'docs'));
  run('mkdocs', ['build', '--quiet', '--strict'], { cwd: dir });
  await check(join(dir, 'site'), 'lesson/');
});

test('Sphinx', async () => {
  const dir = join(work, 'sphinx');
  write(dir, { ...recipe('conf.py', 'lesson.rst'), 'index.rst': 'Course\n======\n\n.. toctree::\n\n   lesson\n', '_static/course.css': SITE_CSS });
  copyDist(join(dir, '_static'));
  run('sphinx-build', ['-q', '-W', '-b', 'html', dir, join(dir, '_build')]);
  await check(join(dir, '_build'), 'lesson.html');
});

test('Hugo, with a shortcode', async () => {
  const dir = join(work, 'hugo');
  write(dir, {
    ...recipe('layouts/shortcodes/attention.html', 'content/lesson.md'),
    'hugo.toml': 'baseURL = "http://127.0.0.1/"\ntitle = "Course"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n',
    'layouts/_default/single.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>'
      + '<link rel="stylesheet" href="{{ "course.css" | relURL }}"></head><body><main>{{ .Content }}</main></body></html>\n',
    'layouts/index.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title></head><body></body></html>\n',
    'static/course.css': SITE_CSS,
  });
  copyDist(join(dir, 'static'));
  run('hugo', ['--quiet', '--source', dir]);
  await check(join(dir, 'public'), 'lesson/');
  // The shortcode's attributes go through Hugo's escaping: a hostile sentence stays a sentence.
  const hostile = `"><img src=x onerror=alert(1)> & '</attention-playground>`;
  writeFileSync(join(dir, 'content/hostile.md'), `---\ntitle: Hostile\n---\n{{< attention sentence="${hostile.replace(/"/g, '\\"')}" view="weights" toolbar="" share-url="javascript:alert(document.domain)//" >}}\n`);
  run('hugo', ['--quiet', '--source', dir]);
  const server = await serveDir(join(dir, 'public'));
  const page = await chromium.page({ loopback: true });
  try {
    await page.goto(server.base + 'hostile/');
    assert.equal((await weightsOfSpec(page.locator('attention-playground'))).spec.sentence, hostile);
    assert.equal(await page.locator('img').count(), 0);
    // a shortcode's share-url that would run script is refused by the element, by name
    await page.click('attention-playground button[data-action="share"]');
    assert.ok((await page.locator('attention-playground textarea.share').inputValue()).startsWith(server.base), 'the link is this page');
    assert.match(await page.locator('attention-playground .note').innerText(), /share-url="javascript:alert\(document\.domain\)\/\/" is not an http\(s\) or relative address/);
  } finally {
    await page.context().close();
    await server.close();
  }
});
