// The notebook package in real Jupyter: pip installs it with no network, Debian's
// `jupyter nbconvert --execute --to html` runs a notebook that shows four playgrounds, a
// comparison and a trainer, and the exported page, opened from disk with every other request
// refused, shows the numbers the core computes for each element's spec; a hostile sentence
// stays a sentence; the script is in the page once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, PYTHON, core, run, launch, weightsShown, weightsOfSpec } from './support.mjs';

const { loadTraining } = await import(join(ROOT, 'dist/attention.js'));

const work = mkdtempSync(join(tmpdir(), 'ap-jupyter-'));
const site = join(work, 'site');  // where pip installs the package (--target), for the kernel's PYTHONPATH
let chromium;
before(async () => { chromium = await launch(); });
after(async () => { await chromium?.close(); rmSync(work, { recursive: true, force: true }); });

const HOSTILE = `"><script>window.pwned=1</script><img src=x onerror="window.pwned=2"> & &amp; ' </attention-playground><b>x</b>\r\n\u2028 é`;
const X = [[0.1, -0.3, 0.5], [-0.6, 0.2, 0.9], [0.8, -0.5, -0.4], [0.25, 1e-7, -3]];

test('pip installs the package with no network and no build isolation', () => {
  // From a copy: pip builds in the source tree, which would leave build/ and *.egg-info in python/.
  const source = join(work, 'python');
  cpSync(join(ROOT, 'python'), source, { recursive: true });
  run(PYTHON, ['-m', 'pip', 'install', '--no-build-isolation', '--no-index', '--disable-pip-version-check', '-q', '--target', site, source],
    { env: { ...process.env, PIP_ROOT_USER_ACTION: 'ignore' } });
  const probe = `import attention_playground as ap, json, os
print(json.dumps({"file": ap.__file__, "version": ap.__version__, "built": ap._settings.version(),
  "assets": sorted(os.listdir(os.path.join(os.path.dirname(ap.__file__), "assets")))}))`;
  const installed = JSON.parse(run(PYTHON, ['-c', probe], { cwd: work, env: { ...process.env, PYTHONPATH: site } }));
  assert.ok(installed.file.startsWith(site), installed.file);
  assert.deepEqual(installed.assets, ['elements.js', 'elements.json']);
  const npmVersion = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  assert.equal(installed.version, npmVersion);
  assert.equal(installed.built, npmVersion);
});

test('the package in place (PYTHONPATH=python): settings, errors, escaping, sessions', () => {
  const out = run(PYTHON, ['-m', 'unittest', '-v', 'test_python'], {
    cwd: join(ROOT, 'tests/hosts'), env: { ...process.env, PYTHONPATH: join(ROOT, 'python') },
  });
  assert.equal(out, '');  // unittest reports on stderr; run() throws with it on a failure
});

test('a notebook executed by nbconvert, exported to HTML and opened from disk offline', async () => {
  assert.ok(existsSync(join(site, 'attention_playground')), 'the first test installed the package');
  const make = `
import json, nbformat
from nbformat.v4 import new_notebook, new_code_cell
given = json.load(open("given.json", encoding="utf-8"))
cells = [
    "import numpy as np\\nfrom attention_playground import Playground, Compare, Trainer, SettingError",
    'Playground(sentence="The FBI is chasing the thief", mask="causal", heads=2, d_model=8, seed=7)',
    "Playground(sentence=%r, view='weights', seed=3)" % given["hostile"],
    "X = np.array(%r)\\nPlayground(sentence='one two three four', X=X, view='weights')" % given["X"],
    'Playground(preset="seed004", view="weights", controls="none", compact=True)',
    'try:\\n    Playground(heads="2")\\nexcept SettingError as e:\\n    print("refused:", e)',
    'Compare(compare="mask", sentence="the cat sat on the mat")',
    'Trainer(task="reverse", seed=7, heads=1, d_model=8)',
    'Playground(sentence="saved to a file", heads=2, d_model=4).save("saved.html")',
]
nbformat.write(new_notebook(cells=[new_code_cell(c) for c in cells]), "course.ipynb")
`;
  writeFileSync(join(work, 'given.json'), JSON.stringify({ hostile: HOSTILE, X }));
  run(PYTHON, ['-c', make], { cwd: work });
  const env = { ...process.env, PYTHONPATH: site };
  run('jupyter', ['nbconvert', '--execute', '--to', 'html', '--ExecutePreprocessor.timeout=120', 'course.ipynb'], { cwd: work, env });
  const exported = readFileSync(join(work, 'course.html'), 'utf8');
  // One copy of the script for the whole notebook: the first display carries it.
  assert.equal(exported.split('customElements.define("attention-playground"').length - 1, 1);

  const page = await chromium.page();
  await page.goto(pathToFileURL(join(work, 'course.html')).href);
  await page.getByText("refused: Playground setting heads must be a whole number from 1 to 64, not '2' (str)").waitFor();
  const playgrounds = page.locator('attention-playground');
  await playgrounds.nth(3).locator('ap-heatmap[key="weights"]').first().waitFor();
  assert.equal(await playgrounds.count(), 4);
  for (let i = 0; i < 4; i++) {
    const host = playgrounds.nth(i);
    const { spec, weights } = await weightsOfSpec(host);
    assert.deepEqual(await weightsShown(host), weights, `playground ${i}: ${JSON.stringify(spec)}`);
  }
  const [first, hostile, typed] = await Promise.all([0, 1, 2].map((i) => playgrounds.nth(i).evaluate((el) => el.spec)));
  assert.deepEqual([first.heads, first.mask, first.d_model, first.seed, first.sentence], [2, 'causal', 8, 7, 'The FBI is chasing the thief']);
  assert.equal(hostile.sentence, HOSTILE);
  assert.deepEqual(typed.X, X);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  // The comparison and the trainer share the page's one script: both sides drawn, and 100
  // steps of training (the training module is inlined too) give Node's numbers.
  const sides = await page.locator('attention-compare').evaluate(async (el) => {
    while (!el.traces) await new Promise((r) => setTimeout(r, 20));
    return el.traces.map((t) => t.weights);
  });
  assert.deepEqual(sides, ['none', 'causal'].map((mask) => core.run({ sentence: 'the cat sat on the mat', mask }).weights));
  await page.locator('attention-trainer button[data-action="step100"]:not([disabled])').click();
  await page.waitForFunction(() => document.querySelector('attention-trainer').snapshot?.step === 100);
  const training = await loadTraining();
  assert.equal(training.start({ task: 'reverse', seed: 7, heads: 1, d_model: 8 }).error, undefined);
  assert.deepEqual((await page.locator('attention-trainer').evaluate((el) => el.snapshot)).metrics, training.step(100));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.refused, []);  // (Debian's nbconvert template loads its own scripts from file:)
  if (process.env.HOSTS_SHOTS) await page.screenshot({ path: join(process.env.HOSTS_SHOTS, 'notebook.png'), fullPage: true });
  await page.context().close();

  // .save(): a page of its own, also from disk.
  const saved = await chromium.page();
  await saved.goto(pathToFileURL(join(work, 'saved.html')).href);
  const host = saved.locator('attention-playground');
  const { spec, weights } = await weightsOfSpec(host);
  assert.equal(spec.sentence, 'saved to a file');
  assert.deepEqual(await weightsShown(host), weights);
  assert.deepEqual(saved.errors, []);
  assert.deepEqual(saved.refused, []);
  await saved.context().close();
  assert.deepEqual(readdirSync(work).filter((f) => f.endsWith('.html')).sort(), ['course.html', 'saved.html']);
});
