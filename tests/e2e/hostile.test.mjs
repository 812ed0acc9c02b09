// What a hostile or unlucky link, attribute or label does to the page: snippets that stay inert
// when pasted, matrices that are numbers or refused, a bad matrix that blanks nothing, elements
// that share the worker fairly, large work sent to the worker by the core's own count, links
// too long to open, exports that parse, and view names that are not views.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../dist/attention.js';
import { start, cells, drawn, ready, done } from './harness.mjs';

const core = await load();
const pages = {};
let env;
before(async () => { env = await start(pages); });
after(async () => { await env?.stop(); });

const page1 = (body) => `<!doctype html><html lang="en"><head><title>hostile</title><link rel="icon" href="data:,">
<script type="module" src="/attention-playground.js"></script></head><body><main>${body}</main></body></html>`;
const specOf = (page, sel = 'attention-playground') => page.locator(sel).evaluate((el) => el.spec);
const noteOf = (page, sel = 'attention-playground') => page.locator(sel).evaluate((el) =>
  [...el.shadowRoot.querySelectorAll('.note, .message')].map((e) => e.textContent).join(' '));
const words = (n) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

/** What a browser builds from pasted text: its script elements, on* attributes and elements. */
const parsed = (page, text) => page.evaluate((html) => {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const all = [...doc.body.querySelectorAll('*')];
  return {
    scripts: [...doc.querySelectorAll('script')].map((s) => ({ src: s.getAttribute('src'), text: s.textContent })),
    handlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.localName} ${a.name}`)),
    tags: all.map((el) => el.localName),
    iframe: [...doc.querySelectorAll('iframe')].map((f) => ({ src: f.getAttribute('src'), title: f.getAttribute('title') })),
    element: [...doc.querySelectorAll('attention-playground')].map((el) => Object.fromEntries([...el.attributes].map((a) => [a.name, a.value]))),
  };
}, text);

test('Embed and Share snippets stay inert, whatever the link or attributes hold', async () => {
  const page = await env.page();
  const sentence = `it's "><script>window.pwned=1</script> <img src=x onerror=window.pwned=2> fine`;
  const x = `[["'><script>alert(document.domain)</script><x y='"]]`;
  const hash = `#sentence=${encodeURIComponent(sentence)}&X=${encodeURIComponent(x)}&W_q=${encodeURIComponent("[[4' onmouseover='alert(1)]]")}`;
  await page.goto(env.base + hash);
  await ready(page);
  // the matrices held text, so they were refused, by name; the sentence is the learner's own
  assert.match(await noteOf(page), /not understood.*\bX\b.*\bW_q\b/);
  const spec = await specOf(page);
  assert.equal(spec.sentence, sentence);
  assert.equal(spec.X, undefined);
  // an embedder's own attributes go through the same escaping
  const script = `https://cdn.example/ap.js"></script><script>window.pwned=3</script>`;
  const share = `https://blog.example/post?a='><svg onload=alert(1)>`;
  await page.locator('attention-playground').evaluate((el, [s, u]) => { el.setAttribute('script-url', s); el.setAttribute('share-url', u); }, [script, share]);
  // and a matrix edited on screen (numbers) travels in the element snippet
  await page.locator('ap-heatmap[key="X"] td[data-row="0"][data-col="0"]').click();
  await page.locator('ap-heatmap[key="X"] input').fill('-0.5');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.X?.[0][0] === -0.5);
  const edited = await specOf(page);

  await page.click('button[data-action="embed"]');
  const embed = await page.locator('textarea.share').inputValue();
  const p = await parsed(page, embed);
  assert.deepEqual(p.handlers, []);
  assert.deepEqual(p.scripts, [{ src: new URL(script).href, text: '' }]);  // the snippet's own module script (as a URL, percent-encoded), nothing more
  assert.deepEqual(p.tags, ['iframe', 'script', 'attention-playground']);
  assert.equal(p.iframe.length, 1);
  assert.equal(p.iframe[0].title, 'Attention Playground');
  assert.ok(p.iframe[0].src.startsWith(new URL(share).href + '#'), p.iframe[0].src);  // percent-encoded, as a URL
  assert.equal(p.element[0].sentence, sentence);
  assert.deepEqual(JSON.parse(p.element[0].x), edited.X);

  await page.click('button[data-action="share"]');
  const link = await page.locator('textarea.share').inputValue();
  const q = await parsed(page, link);
  assert.deepEqual([q.scripts, q.handlers, q.tags], [[], [], []]);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  await done(page);
});

test('the comparison and the trainer escape their snippets with the same function', async () => {
  const page = await env.page();
  for (const [path, tag] of [['compare/', 'attention-compare'], ['learn/', 'attention-trainer']]) {
    await page.goto(env.base + path);
    await page.locator(`${tag} button[data-action="embed"]`).waitFor();
    const script = `x.js" onload="window.pwned=1`;
    await page.locator(tag).evaluate((el, s) => el.setAttribute('script-url', s), script);
    await page.click(`${tag} button[data-action="embed"]`);
    const p = await parsed(page, await page.locator(`${tag} textarea.share`).inputValue());
    assert.deepEqual(p.handlers, [], tag);
    assert.deepEqual(p.scripts, [{ src: new URL(script, page.url()).href, text: '' }], tag);
    assert.equal(p.tags.filter((t) => t === tag).length, 1, tag);
  }
  await done(page);
});

test('a matrix from an attribute or a link is rows of numbers, or refused with a note naming it', async () => {
  const deep = '['.repeat(5000) + '1' + ']'.repeat(5000);
  const bad = { strings: '[["a","b"]]', object: '{"__proto__": {"x": 1}}', ragged: '[[1,2],[3]]', huge: '[[1e999]]', deep };
  pages['/matrices.html'] = page1(Object.entries(bad).map(([id, v]) =>
    `<attention-playground id="${id}" sentence="one two" controls="none" view="weights" x='${v}' w-q='${v}'></attention-playground>`).join('\n') +
    `<attention-playground id="matrix" mode="encoder_decoder" controls="none" view="weights" decoder-state="[[5,1,20]]"></attention-playground>
    <attention-playground id="text" mode="encoder_decoder" controls="none" view="weights" decoder-state='[5,"1",20]'></attention-playground>`);
  const page = await env.page();
  await page.goto(env.base + 'matrices.html');
  for (const id of Object.keys(bad)) {
    await page.locator(`#${id} ap-heatmap[key="weights"]`).waitFor();
    assert.match(await noteOf(page, `#${id}`), /not understood.*\bx\b.*\bw-q\b/, id);
    const spec = await specOf(page, `#${id}`);
    assert.equal(spec.X, undefined, id);
    assert.equal(spec.W_q, undefined, id);
    assert.deepEqual(await cells(page, 'weights', 0, `#${id}`), core.run(spec).weights[0], id);
  }
  for (const [id, why] of [['matrix', 'is nested deeper than a list of numbers'], ['text', 'must be a list of numbers']]) {
    await page.locator(`#${id} ap-heatmap[key="weights"]`).waitFor();
    assert.match(await noteOf(page, `#${id}`), new RegExp(`decoder-state ${why}`));
    assert.equal((await specOf(page, `#${id}`)).decoder_state, undefined);
  }
  // the same from a link
  const hash = `#sentence=one+two&X=${encodeURIComponent(deep)}&W_k=${encodeURIComponent('[[true]]')}`;
  await page.goto(env.base + hash);
  await ready(page);
  assert.match(await noteOf(page), /not understood.*X is nested deeper.*W_k must be rows of numbers/);
  await done(page);
});

test('a matrix of the wrong shape shows the core\'s message beside it, and the views still render', async () => {
  const page = await env.page();
  const sentence = 'the cat sat on the mat';
  for (const [key, value] of [['X', [[1]]], ['W_q', [[1]]]]) {
    await page.goto(`${env.base}#sentence=${encodeURIComponent(sentence)}&${key}=${encodeURIComponent(JSON.stringify(value))}`);
    await ready(page);
    const spec = await specOf(page);
    const given = { ...spec, [key]: value };
    if (key === 'X') delete given.d_model;  // an explicit X sets the width
    const message = core.run(given).error.message;
    assert.match(message, new RegExp(`^${key}:`));
    const beside = page.locator('.matrix').filter({ has: page.locator(`ap-heatmap[key="${key}"]`) }).locator('.message');
    assert.ok((await beside.innerText()).includes(message), message);
    assert.match(await beside.innerText(), new RegExp(`seed's ${key}`));
    // every step is drawn, from the seed's matrix in place of the refused one, and not dimmed
    const fallback = { ...spec };
    delete fallback[key];
    if (key === 'X') fallback.d_model = 1;  // the width the learner's X gave the d_model control
    const expected = core.run(fallback);
    assert.equal(expected.error, undefined);
    assert.deepEqual(await cells(page, 'weights'), expected.weights[0], key);
    assert.deepEqual(await cells(page, key), expected[key], key);
    assert.equal(await page.locator('.views .stale').count(), 0);
    // the refused matrix is not kept: not in the spec, not in the link, no reset to offer
    assert.equal((await specOf(page))[key], undefined);
    assert.match(await beside.innerText(), /Yours was not kept/);
    assert.equal(await page.locator(`text=reset ${key} to the seed`).count(), 0);
    await page.waitForFunction((k) => !new URLSearchParams(location.hash.slice(1)).has(k), key);
  }
  // an element that does not show the refused matrix says it above its views
  pages['/shape.html'] = page1(`<attention-playground id="s" view="weights" controls="none" w-q="[[1]]"></attention-playground>`);
  await page.goto(env.base + 'shape.html');
  await page.locator('#s ap-heatmap[key="weights"]').waitFor();
  assert.match(await page.locator('#s .message').innerText(), /W_q: is 1 x 1, expected/);
  await done(page);
});

test('three elements with large traces all render: one element never starves another', async () => {
  const sentence = (k) => Array.from({ length: 300 }, (_, i) => `e${k}w${i % 97}`).join(' ');
  pages['/three.html'] = page1([0, 1, 2].map((k) =>
    `<attention-playground id="e${k}" sentence="${sentence(k)}" heads="4" d-model="8" controls="none" view="weights" compact></attention-playground>`).join('\n'));
  const page = await env.page();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(env.base + 'three.html');
  await page.waitForFunction(() => [...document.querySelectorAll('attention-playground')].every((el) =>
    el.trace?.tokens?.length === 300 && !el.busy), null, { timeout: 30000 });
  assert.equal(workers.length, 1);  // the traces came from the shared worker
  for (const k of [0, 1, 2]) {
    assert.equal(await page.locator(`#e${k} ap-heatmap[key="weights"]`).count(), 4);
    const shown = await page.locator(`#e${k}`).evaluate((el) => el.trace.weights);
    assert.deepEqual(shown, core.run(await specOf(page, `#e${k}`)).weights, `element ${k}`);
    assert.doesNotMatch(await page.locator(`#e${k} .views`).innerText(), /Computing the new trace/);
  }
  await done(page);
});

test('the core counts the work: 512 punctuation tokens at d_model 930 go to the worker', async () => {
  const page = await env.page();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(env.base);
  await ready(page);
  const spec = { sentence: '.'.repeat(512), d_model: 930 };
  assert.ok(core.work(spec).cells > 400_000);  // one word by its spaces, 512 tokens to the core
  // Heartbeats of the main thread from the link's arrival (after the element's own handler has
  // started the computation) to the trace: computed on the page, the trace comes first and
  // there are none; computed in the worker, the page keeps answering meanwhile.
  const beats = await page.locator('attention-playground').evaluate((el, hash) => new Promise((resolve) => {
    let count = -1;
    const beat = setInterval(() => { if (count >= 0) count++; }, 5);
    el.addEventListener('trace', (e) => {
      if (e.detail.trace?.tokens.length !== 512) return;
      clearInterval(beat);
      resolve({ count, busy: el.shadowRoot.querySelector('.hint[role="status"]').textContent });
    });
    window.addEventListener('hashchange', () => { count = 0; }, { once: true });
    location.hash = hash;
  }), `d_model=930&sentence=${'.'.repeat(512)}`);
  assert.equal(workers.length, 1);
  assert.ok(beats.count >= 20, `the main thread answered ${beats.count} times while the trace was computed`);
  assert.match(beats.busy, /Computing the new trace in the background/);  // drawn while it waited
  await done(page);
});

test('a link too long to open is not offered: the spec is, as a file the command line reads', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#sentence=${words(60)}&d_model=64`);
  await ready(page);
  // one cell of X edited: the whole 60 x 64 matrix goes into the link
  await drawn(page.locator('ap-heatmap[key="X"]'));
  await page.locator('ap-heatmap[key="X"] button.as').click();
  await page.locator('ap-heatmap[key="X"] td[data-row="0"][data-col="0"]').click();
  await page.locator('ap-heatmap[key="X"] input').fill('2');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('attention-playground').spec.X?.[0][0] === 2);
  const spec = await specOf(page);
  await page.click('button[data-action="share"]');
  const note = await page.locator('.note').first().innerText();
  assert.match(note, /The link would be [\d,]+ characters long.*would not open/);
  assert.doesNotMatch(note, /copied/i);
  assert.equal(await page.locator('textarea.share').count(), 0);
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('button[data-action="download-spec"]')]);
  assert.equal(d.suggestedFilename(), 'spec.json');
  const file = JSON.parse(readFileSync(await d.path(), 'utf8'));
  assert.deepEqual(file, spec);
  const shown = await page.locator('attention-playground').evaluate((el) => el.trace.weights);
  assert.deepEqual(core.run(file).weights, shown);
  // Embed leaves out the <iframe> (its link could not open) and gives the element with its X
  await page.click('button[data-action="embed"]');
  const embed = await page.locator('textarea.share').inputValue();
  assert.doesNotMatch(embed, /<iframe/);
  assert.deepEqual(JSON.parse((await parsed(page, embed)).element[0].x), spec.X);
  assert.match(await page.locator('.note').first().innerText(), /would not open/);
  // a short link is still just a link
  await page.click('text=reset X to the seed');
  await page.click('button[data-action="share"]');
  assert.match(await page.locator('textarea.share').inputValue(), /^http:\/\/127\.0\.0\.1:\d+\/#sentence=/);
  assert.equal(await page.locator('button[data-action="download-spec"]').count(), 0);
  await done(page);
});

test('exports of hostile labels: the SVG parses, labels are cut whole, CSV labels cannot run', async () => {
  const page = await env.page();
  const sentence = '=1+2 +cmd -rf @SUM a\uFFFFb \uFFFE abcdefghi𝐀𝐁 e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301';
  await page.goto(`${env.base}#weight_init=normal&sentence=${encodeURIComponent(sentence)}`);
  await ready(page);
  const spec = await specOf(page);
  const trace = core.run(spec);
  const save = async (key, format) => {
    const box = page.locator('.matrix').filter({ has: page.locator(`ap-heatmap[key="${key}"]`) }).first();
    await box.locator('summary').click();
    const [d] = await Promise.all([page.waitForEvent('download'), box.locator(`button[data-format="${format}"]`).click()]);
    return readFileSync(await d.path(), 'utf8');
  };
  const svg = await save('weights', 'svg');
  const read = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return { error: doc.querySelector('parsererror')?.textContent ?? '', labels: [...doc.querySelectorAll('text')].map((t) => t.textContent) };
  }, svg);
  assert.equal(read.error, '');
  assert.ok(read.labels.includes('a\uFFFDb'));
  assert.ok(read.labels.includes('abcdefghi𝐀'));            // ten characters, the tenth whole
  assert.ok(read.labels.includes('e\u0301'.repeat(6)));      // six letters, each with its accent
  assert.doesNotMatch(svg, /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  // the arcs, serialised from the page, parse too
  const arcs = page.locator('.matrix').filter({ has: page.locator('ap-arcs') });
  await drawn(page.locator('ap-arcs'));
  await arcs.locator('summary').click();
  const [a] = await Promise.all([page.waitForEvent('download'), arcs.locator('button[data-format="svg"]').click()]);
  const arcsError = await page.evaluate((text) => new DOMParser().parseFromString(text, 'image/svg+xml').querySelector('parsererror')?.textContent ?? '',
    readFileSync(await a.path(), 'utf8'));
  assert.equal(arcsError, '');
  // CSV: labels quoted, formulas disarmed; Q's negative numbers stay numbers
  const csv = (await save('Q', 'csv')).trim().split('\n');
  const rows = csv.slice(1).map((line) => line.match(/^("(?:[^"]|"")*"),(.*)$/).slice(1));
  assert.deepEqual(rows.map(([label]) => label), trace.tokens.map((t) => `"${/^[=+\-@]/.test(t) ? "'" : ''}${t}"`));
  assert.ok(rows.some(([label]) => label.startsWith('"\'=')));
  assert.deepEqual(rows.map(([, numbers]) => numbers.split(',').map(Number)), trace.Q);
  assert.ok(trace.Q.flat().some((v) => v < 0));
  assert.doesNotMatch(csv.slice(1).join('\n'), /,"/);  // no number was quoted
  await done(page);
});

test('a PNG of a matrix too wide for a canvas is drawn smaller, never thrown', async () => {
  const page = await env.page();
  await page.goto(`${env.base}#d_model=800&sentence=wide+matrix`);
  await ready(page);
  const box = page.locator('.matrix').filter({ has: page.locator('ap-heatmap[key="X"]') });
  await drawn(box.locator('ap-heatmap'));
  await box.locator('summary').click();
  const [d] = await Promise.all([page.waitForEvent('download'), box.locator('button[data-format="png"]').click()]);
  const png = readFileSync(await d.path());
  assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  assert.ok(width <= 16384 && width > 8000, `${width} x ${height}`);
  assert.ok(height > 0 && height < width);
  await done(page);  // and no unhandled rejection
});

test('a view that names no step or matrix gets a note, and every step is shown', async () => {
  pages['/views.html'] = page1(['tokens', 'spec', '__proto__', 'constructor', 'toString'].map((v) =>
    `<attention-playground id="v-${v.replace(/_/g, '')}" view="${v}" controls="none" compact></attention-playground>`).join('\n') +
    '<attention-playground id="ok" view="weights" controls="none" compact></attention-playground>');
  const page = await env.page();
  await page.goto(env.base + 'views.html');
  for (const v of ['tokens', 'spec', '__proto__', 'constructor', 'toString']) {
    const host = `#v-${v.replace(/_/g, '')}`;
    await page.locator(`${host} ap-heatmap[key="weights"]`).waitFor();
    assert.match(await noteOf(page, host), new RegExp(`view="${v}" is not a view here`), v);
    assert.ok(await page.locator(`${host} section.step`).count() >= 8, v);
    assert.deepEqual(await cells(page, 'weights', 0, host), core.run(await specOf(page, host)).weights[0], v);
  }
  // a known view is still shown alone, with no note
  await page.locator('#ok ap-heatmap[key="weights"]').waitFor();
  assert.equal(await page.locator('#ok ap-heatmap').count(), 1);
  assert.equal(await noteOf(page, '#ok'), '');
  await done(page);
});
