// Writes web/first-screen.html: the page's default first screen as static HTML, which the page
// (vite.config.js) puts inside its <attention-playground> so that the browser paints the
// numbers before any of the page's code has arrived. The element shows it in its place until
// its own first trace replaces it (ui/pages/playground.ts).
//
// It is the live element serialized: its shadow root, and each element's within it, become
// declarative shadow roots (<template shadowrootmode>) holding the rules of the element's styles
// that apply in it; the page's own elements become <span>s (once defined, an element of that name
// would draw itself into the copy); a control's value is written as its attribute. One copy is
// taken at a wide window and one at a phone's, and CSS shows the one the element would draw at
// its width (page.css). It is inert, and what lies below the fold is left out.
//
//   npm run first-screen    builds, writes the file from the page as built, builds again;
//                           tests/e2e/first-screen.test.mjs fails when the file is out of date
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../tests/e2e/serve.mjs';
import { CHROMIUM } from '../tests/e2e/harness.mjs';
import { importTSTree } from '../tests/e2e/typescript.mjs';

export const FILE = new URL('../web/first-screen.html', import.meta.url);
const WIDTHS = { wide: 1280, narrow: 390 };  // either side of the element's phone width
const FOLD = 1000;  // px from the top: what lies below is not on a first screen, even a tall one

// The page's one HTML escaper, from its TypeScript source, and the tables the screen says it is drawn from.
const { htmlAttribute } = await importTSTree('web/src/ui/shared/escape.ts');
const { SETTINGS } = await importTSTree('web/src/state/settings.ts');
const { GROUP_OF } = await importTSTree('web/src/state/trace-schema.ts');
// The settings a shared link may change and still be shown on this screen, its numbers redrawn
// (web/src/ui/pages/linked-screen.ts): what they change on it is values, chips and heatmaps.
const LINKABLE = ['sentence', 'seed', 'd_model', 'heads'];

/** What a link's first screen needs to know of this one (data-link): the spec it shows, what a
 *  link may set (a text, or an integer's bounds), and each of its heatmaps' rows (the tokens, or
 *  numbered) and the entries whose range its colours span. `drawn`: drawnOf() of the page. */
function linkable(drawn, written) {
  const keys = [...new Set(Array.from(written.matchAll(/data-element="ap-heatmap" key="(\w+)"/g), (m) => m[1]))];
  return {
    spec: drawn.spec,
    settings: SETTINGS.filter((def) => LINKABLE.includes(def.key)).map((def) => {  // (in the table's order, as a link writes them)
      if (def.kind === 'text') return [def.key, 'text'];
      if (def.kind === 'int' && def.min !== undefined && def.max !== undefined) return [def.key, def.min, def.max];
      throw new Error(`the setting ${def.key} is not a text or a bounded integer`);
    }),
    heatmaps: Object.fromEntries(keys.map((key) => {
      if (typeof drawn.heatmaps[key] !== 'boolean') throw new Error(`the heatmap ${key}'s rows are neither the tokens nor numbered`);
      return [key, { tokens: drawn.heatmaps[key], range: GROUP_OF.get(key) ?? [key] }];
    })),
  };
}

/** The element's spec, and whether each heatmap's rows are the tokens (true), numbered (false) or neither. */
function drawnOf() {
  const el = document.querySelector('attention-playground');
  const numbered = (rows) => rows.every((r, i) => r === String(i));
  const heatmaps = Object.fromEntries(Array.from(el.shadowRoot.querySelectorAll('ap-heatmap'), (h) => [h.getAttribute('key'),
    JSON.stringify(h.rows) === JSON.stringify(el.trace.tokens) ? true : h.rows.length === h.matrix.length && numbered(h.rows) ? false : null]));
  return { spec: el.spec, heatmaps };
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** The element's drawing as a tree the browser hands over: { tag, attrs, shadow?, kids } or a string. */
function tree(fold) {
  const UNSEEN = /^(id|for|title|tabindex|role|aria-(?!pressed|current|invalid).*|data-(row|col|value|index|action|preset))$/;  // the aria- three are styled
  const host = document.querySelector('attention-playground');
  // Only the rules that style something in the copy: it is inert (no :hover, no :focus) and
  // never changes, so a rule that matches nothing in it now never will.
  const used = (root, rule) => {
    if (rule instanceof CSSMediaRule || rule instanceof CSSContainerRule || rule instanceof CSSSupportsRule) {
      const inner = Array.from(rule.cssRules, (r) => used(root, r)).filter(Boolean);
      return inner.length ? `${rule.cssText.slice(0, rule.cssText.indexOf('{'))}{ ${inner.join(' ')} }` : '';
    }
    if (!(rule instanceof CSSStyleRule) || /:host/.test(rule.selectorText)) return rule.cssText;  // @keyframes, say
    try {
      return root.querySelector(rule.selectorText.replace(/::[\w-]+(\([^)]*\))?/g, '')) ? rule.cssText : '';
    } catch {
      return rule.cssText;  // a selector querySelector cannot take is kept
    }
  };
  const styles = (root) => root.adoptedStyleSheets.flatMap((s) => Array.from(s.cssRules, (r) => used(root, r))).filter(Boolean).join('\n');
  // not shown and taking no room: a control's help until it is hovered, which an inert copy never is
  const unseen = (style) => style.display === 'none' || (style.visibility === 'hidden' && /absolute|fixed/.test(style.position));
  const node = (n) => {
    if (n.nodeType === Node.TEXT_NODE) return n.data;
    if (n.nodeType !== Node.ELEMENT_NODE) return null;  // Lit's markers are comments
    if (n.localName === 'canvas') throw new Error('a canvas on the first screen cannot be written as HTML');
    if (n.localName === 'template' || n.getBoundingClientRect().top > fold || unseen(getComputedStyle(n))) return null;
    if (n.parentElement?.localName === 'details' && !n.parentElement.open && n.localName !== 'summary') return null;  // folded away
    // what only a person's pointer, keyboard or screen reader would use: never, on an inert copy
    const attrs = n.getAttributeNames().filter((a) => !UNSEEN.test(a))
      .map((a) => [a, a === 'class' ? n.getAttribute(a).trim().replace(/\s+/g, ' ') : n.getAttribute(a)]);
    // Lit sets a control's value as a property: its attribute says what the control shows
    const set = (name, on) => { const i = attrs.findIndex(([a]) => a === name); if (i >= 0) attrs.splice(i, 1); if (on !== false) attrs.push([name, on === true ? '' : on]); };
    if (n.localName === 'input') { set('value', n.value); if (n.type === 'checkbox' || n.type === 'radio') set('checked', n.checked); }
    if (n.localName === 'option') set('selected', n.selected);
    const own = n.localName.includes('-');
    const kids = n.localName === 'textarea' ? [n.value] : Array.from(n.childNodes, node).filter((k) => k !== null);
    return {
      tag: own ? 'span' : n.localName, attrs: own ? [['data-element', n.localName], ...attrs] : attrs,
      shadow: n.shadowRoot ? { css: styles(n.shadowRoot), kids: Array.from(n.shadowRoot.childNodes, node).filter((k) => k !== null) } : null,
      kids,
    };
  };
  return { attrs: host.getAttributeNames().map((a) => [a, host.getAttribute(a)]), css: styles(host.shadowRoot),
    kids: Array.from(host.shadowRoot.childNodes, node).filter((k) => k !== null) };
}

const css = (text) => {
  if (/<\/style/i.test(text)) throw new Error('a style sheet holds "</style"');
  return `<style>${text}</style>`;
};
const attributes = (attrs) => attrs.map(([a, v]) => (v === '' ? ` ${a}` : ` ${a}="${htmlAttribute(v)}"`)).join('');
const root = (shadow) => `<template shadowrootmode="open">${css(shadow.css)}${shadow.kids.map(html).join('')}</template>`;
function html(n) {
  if (typeof n === 'string') return htmlAttribute(n);  // text: the same escaping holds
  const open = `<${n.tag}${attributes(n.attrs)}>`;
  if (VOID.has(n.tag)) return open;
  return `${open}${n.shadow ? root(n.shadow) : ''}${n.kids.map(html).join('')}</${n.tag}>`;
}

/** The first screen of the page at base, as the HTML that goes inside its element (hash:
 *  settings to open it with, for the tests of its escaping; the page's own has none). */
export async function firstScreen(browser, base, hash = '') {
  const copies = [];
  let drawn;
  for (const [name, width] of Object.entries(WIDTHS)) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(base + hash);
    // every view drawn (those off screen draw in idle time), and the element's width settled
    await page.waitForFunction(() => {
      const el = document.querySelector('attention-playground');
      const views = el?.trace ? Array.from(el.shadowRoot.querySelectorAll('*')).filter((v) => 'deferred' in v) : [];
      return views.length > 0 && views.every((v) => !v.deferred && !v.isUpdatePending) && !el.isUpdatePending;
    });
    const t = await page.evaluate(tree, FOLD);
    copies.push(`<div class="${name}"${attributes(t.attrs)}>${root(t)}</div>`);
    drawn ??= await page.evaluate(drawnOf);
    await page.close();
  }
  // data-hash: the settings it shows, as the link writes them (the defaults: none). The page's
  // first frame waits for the empty element at its end (vite.config.js): Chromium lets a frame be
  // drawn as soon as the element a rel=expect names is inserted, its contents still unread.
  return `<div class="first-screen" slot="first-screen" inert aria-hidden="true" data-hash="" data-link="${htmlAttribute(JSON.stringify(linkable(drawn, copies.join(''))))}">` +
    `${copies.join('')}<i id="first-screen-end"></i></div>\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serve();
  const browser = await chromium.launch(CHROMIUM);
  try {
    writeFileSync(FILE, await firstScreen(browser, server.base));
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(`wrote ${fileURLToPath(FILE)}`);
}
