// The page's writers of other formats fed hostile text, in Node: the one HTML attribute escaper
// of the Embed snippets, the URL check of what a snippet hands out, the one XML escaper of the SVG
// exports and the one CSV text cell. What is tested is the TypeScript that ships.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../../e2e/typescript.mjs';

const { htmlAttribute, xmlText, xmlChars, csvText, httpURL } = await importTSTree('web/src/ui/shared/escape.ts');

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
