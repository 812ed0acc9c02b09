// The page's writers of other formats fed hostile text, in Node: the one HTML attribute
// escaper of the Embed snippets, the one XML escaper of the SVG exports, the one CSV text cell,
// the label cutter, and the reader of matrices from a link or an attribute. The TypeScript
// sources are compiled on the fly (they import nothing), so what is tested is what ships.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

let copies = 0;
/** A fresh instance of one source module of web/src. */
async function source(path) {
  const text = readFileSync(new URL(`../../web/src/${path}`, import.meta.url), 'utf8');
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  return import(`data:text/javascript;charset=utf-8,${encodeURIComponent(`${js}\n// copy ${++copies}`)}`);
}

const { htmlAttribute, xmlText, xmlChars, csvText, httpURL } = await source('ui/shared/escape.ts');
const { readMatrix } = await source('state/matrix.ts');

const HOSTILE = [`"'><script>alert(document.domain)</script><x y='"`, `4' onmouseover='alert(1)`, `" onerror="x`, '&amp;&lt;', '</textarea>'];
const entities = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => entities[e]);

test('an HTML attribute value can neither close its quotes nor open a tag, and reads back as written', () => {
  for (const value of HOSTILE) {
    const out = htmlAttribute(value);
    assert.doesNotMatch(out, /[<>"']/, value);
    assert.equal(decode(out), value);
  }
  assert.equal(htmlAttribute('plain text 42'), 'plain text 42');
});

test('a URL handed out in a snippet is http(s) or relative, never another scheme', () => {
  const base = 'https://blog.example/posts/one.html';
  const fine = {
    'https://x.example/y': 'https://x.example/y', 'http://x.example/': 'http://x.example/', 'HTTPS://X.example/a': 'https://x.example/a',
    '/p/': 'https://blog.example/p/', './a.js': 'https://blog.example/posts/a.js', 'a.js': 'https://blog.example/posts/a.js',
    '?q=1': 'https://blog.example/posts/one.html?q=1', '#h': 'https://blog.example/posts/one.html#h',
    '//cdn.example/p.js': 'https://cdn.example/p.js', '  https://x.example/ ': 'https://x.example/',
  };
  for (const [text, url] of Object.entries(fine)) assert.equal(httpURL(text, base), url, text);
  const hostile = ['javascript:alert(1)', 'JavaScript:alert(1)', ' jav\tascript:alert(1)', '\u0001javascript:alert(1)', 'java\nscript:x',
    'data:text/javascript,alert(1)', 'DATA:text/html,<script>x</script>', 'vbscript:msgbox', 'file:///etc/passwd', 'blob:https://x/1',
    'ftp://x.example/', 'mailto:a@b', 'javascript://%0aalert(1)', '\u0000javascript:x'];
  for (const text of hostile) assert.equal(httpURL(text, base), null, JSON.stringify(text));
});

test('XML text escapes markup and replaces what XML cannot hold with U+FFFD', () => {
  const hostile = 'a\uFFFEb\uFFFFc\u0001d\u001Fe\uD800f\uDFFFg<h>&"\'';
  const out = xmlText(hostile);
  assert.equal(out, 'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg&lt;h&gt;&amp;&quot;&#39;');
  // what XML allows is kept as it is: tab, newline, CR, emoji (a surrogate pair), U+FFFD itself
  const fine = 'tab\tnew\nline\rcr 👩‍👩‍👧‍👦 \uFFFD \uE000 \uD7FF';
  assert.equal(xmlChars(fine), fine);
  assert.equal(xmlText(fine), fine);
});

test('a CSV text cell is quoted and a leading formula character disarmed', () => {
  assert.equal(csvText('cat'), '"cat"');
  assert.equal(csvText('say "hi", ok'), '"say ""hi"", ok"');
  for (const lead of ['=', '+', '-', '@', '\t', '\r']) {
    assert.equal(csvText(`${lead}HYPERLINK("x")`), `"'${lead}HYPERLINK(""x"")"`);
  }
  assert.equal(csvText('a=b'), '"a=b"');  // only a leading one is a formula
});

test('labels are cut between graphemes, or between code points without Intl.Segmenter', async () => {
  const family = '👩‍👩‍👧‍👦';
  const { clip } = await source('ui/shared/clip.ts');
  assert.equal(clip(`${family}${family}${family}`, 2), `${family}${family}`);
  assert.equal(clip('abc', 10), 'abc');
  assert.equal(clip('🙂'.repeat(12), 10), '🙂'.repeat(10));
  const segmenter = Intl.Segmenter;
  delete Intl.Segmenter;
  try {
    const { clip: byCodePoint } = await source('ui/shared/clip.ts');
    assert.equal(byCodePoint('🙂'.repeat(12), 10), '🙂'.repeat(10));
    assert.equal(byCodePoint('a🙂🙂', 2), 'a🙂');  // .slice(0, 2) would leave half an emoji
  } finally {
    Intl.Segmenter = segmenter;
  }
});

test('a matrix from a link is numbers in rows, or refused with a reason naming it', () => {
  assert.deepEqual(readMatrix('X', '[[1, -0.5], [3, 4e2]]', false), { value: [[1, -0.5], [3, 400]] });
  assert.deepEqual(readMatrix('decoder-state', '[5, 1, 20]', true), { value: [5, 1, 20] });
  const refused = {
    strings: `[["'><script>alert(1)</script>"]]`, object: '{"__proto__": 1}', ragged: '[[1, 2], [3]]', empty: '[]',
    'empty row': '[[]]', huge: '[[1e999]]', 'not JSON': '[[1,', 'flat for a matrix': '[1, 2]', null: 'null',
    deep: '['.repeat(5000) + ']'.repeat(5000), 'deep object': '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
  };
  for (const [what, text] of Object.entries(refused)) {
    const r = readMatrix('w-q', text, false);
    assert.ok('problem' in r, what);
    assert.match(r.problem, /^w-q\b/, what);
  }
  assert.ok('problem' in readMatrix('decoder_state', '[[1, 2]]', true));
  assert.ok('problem' in readMatrix('decoder_state', '[1, "2"]', true));
  // brackets inside a string do not count as nesting
  assert.match(readMatrix('X', '[["[[[[["]]', false).problem, /must be rows of numbers/);
});
