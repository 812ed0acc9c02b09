// A blog post's playgrounds, drawn before their code has arrived. The script a post loads
// (embed.ts) compiles the first heatmap's module (core/first-core.ts) and, with this module
// alone, draws each playground that shows the weights as the element will draw it: its sentence
// and its heatmaps, with the element's own styles, words, colours and numbers. The element keeps
// that screen in its first-screen slot until it draws its own (playground.ts), as the home page
// keeps the screen written into it. The rest of the elements' code (37 KB gzip) is asked for
// after this, not beside the wasm, so that on a slow connection the first heatmap waits for
// neither. The trained model is drawn too (its Model and Sentence controls, or none, and one
// layer's heads: first-screen-model.ts). Only what the element would draw the same way is drawn
// here: a playground with a preset, its own matrices, chosen controls (the trained model's
// aside), a setting it would complain of, one showing anything but the weights, weights too
// large for numbers in their cells or a spec the element would compute in its worker (the core
// counts both before anything runs), one as wide as the page's layout (760 px and more), one on
// a page that styles its ::parts, or a page opened by a link to a playground's own state, waits
// for its own code.
import { adoptStyles, type CSSResult } from '@lit/reactive-element/css-tag.js';
import { loadFirst, traceFor } from '../../core/first-core.js';
import { KEY_OF_ATTRIBUTE, MATRIX_KEYS, SETTINGS, readEntries, toHash, toSpec, type Reading } from '../../state/settings.js';
import { SEQUENTIAL, full, gradientStyle, short, swatchOf } from '../shared/colour.js';
import { nearUniform } from '../shared/uniform.js';
import { HEATMAP_STYLES } from '../views/heatmap-styles.js';
import { inTable, markOverflowing } from '../views/heatmap-form.js';
import { THEME } from '../shared/theme.js';
import { PLAYGROUND_STYLES } from './playground-styles.js';
import { willBeNarrow } from './phone-width.js';
import { WORDS } from './playground-words.js';

type Matrix = number[][];
// Attributes that change nothing the screen draws, beside the settings' own.
const HARMLESS = new Set(['view', 'theme', 'class', 'id', 'style', 'lang', 'dir', 'title']);
// Attributes drawn for the trained model alone: without controls, on the layer chosen (its
// value is read as the element reads it, by first-screen-model.ts; the element's other view
// attributes, the token and the head followed, leave the screen to the element).
const MODEL_ONLY = new Set(['controls', 'layer']);

/** Draws the first screen of each playground in `elements` that it can draw (see above); resolves
 *  once they are on the page (at once when there are none), and never rejects. */
export async function drawFirstScreens(elements: Element[]): Promise<void> {
  // (a link to one of the post's playgrounds may set others than its attributes)
  if (location.hash.length > 1 || partsStyled()) return;
  // Only a narrow element, its settings folded above its views: a wide one lists them all beside
  // its views, a column as tall as the screen, which the first screen would not hold (what
  // follows the element on the page would move down by it when the element is in).
  const wanted = elements.map((el) => [el, reading(el)] as const).filter((w): w is readonly [Element, Reading] => w[1] !== null && willBeNarrow(w[0]));
  if (!wanted.length) return;
  const modelCode = wanted.some(([, r]) => trained(r)) ? import('./first-screen-model.js') : null;  // (beside the wasm)
  const calls = await loadFirst();
  if (!calls) return;
  for (const [el, r] of wanted) {
    if (customElements.get('attention-playground') || el.querySelector(':scope > [slot="first-screen"]')) continue;
    try {
      // (the weights are tokens x tokens)
      const fits = (n: number) => inTable(n, n);
      if (trained(r)) {
        const { modelLayer } = await modelCode!;
        const shown = await modelLayer(calls, el, String(r.state.sentence), fits);
        if (shown && !customElements.get('attention-playground')) draw(el, r, shown, shown);
        continue;
      }
      const t = traceFor(calls, toSpec(r.state, r.overrides), fits) as { error?: unknown; tokens: string[]; weights: Matrix[]; mask?: Matrix } | null;
      if (!t || t.error) continue;
      draw(el, r, t);
    } catch {
      // the element draws it with its own code
    }
  }
}

/** Whether a reading is of the trained model. */
const trained = (r: Reading) => r.state.model !== 'random';  // (its two values)

/** The element's settings as it will read them, when this module can draw it as it will: random
 *  weights with their controls, or the trained model with its two or none (controls="none"; its
 *  layer may be chosen). */
function reading(el: Element): Reading | null {
  if (el.getAttribute('view') !== 'weights') return null;
  const entries: Array<[string, string, string]> = [];
  for (const { name, value } of Array.from(el.attributes)) {
    const key = KEY_OF_ATTRIBUTE.get(name);
    if (key && !MATRIX_KEYS.includes(key)) entries.push([key, value, name]);
    else if (!HARMLESS.has(name) && !MODEL_ONLY.has(name)) return null;
  }
  const r = readEntries(entries);
  if (r.problems.length) return null;
  if (trained(r)) {
    const other = entries.some(([key]) => key !== 'model' && key !== 'sentence');
    return [null, 'none'].includes(el.getAttribute('controls')) && !other ? r : null;
  }
  return r.state.mode !== 'self' || [...MODEL_ONLY].some((name) => el.hasAttribute(name)) ? null : r;
}

/** Whether the host page styles the element's parts (::part), which only the element's own
 *  shadow root takes: its first screen would show in other colours or shapes for a moment. A
 *  stylesheet of another origin, which cannot be read, is taken not to. */
function partsStyled(): boolean {
  const styled = (rules: CSSRuleList): boolean => Array.from(rules).some((rule) => ('cssRules' in rule && styled(rule.cssRules as CSSRuleList))
    || ('selectorText' in rule && /::part\(/i.test(String(rule.selectorText))));
  return Array.from(document.styleSheets).some((sheet) => {
    try {
      return styled(sheet.cssRules);
    } catch {
      return false;
    }
  });
}

/** The theme's rules split in two. Its rules for the element's own box (`:host`: the font,
 *  the colours, the --ap-* variables, dark or light) are given to the document, for a playground
 *  not yet defined that holds a first screen, in a layer of their own: the host page's rules for
 *  the element then win over them as they win over the element's `:host` (its font, its colours,
 *  its --ap-*, an inline style), and the first screen inherits what the element will have. The
 *  rest styles the first screen's content, in its shadow root. Once the element is defined, its
 *  own `:host` gives its box the same. */
let inside: CSSStyleSheet | null = null;
function themeInside(): CSSStyleSheet {
  if (inside) return inside;
  const theme = new CSSStyleSheet(), holding = 'attention-playground:not(:defined):has(> .first-screen)';
  theme.replaceSync(THEME.cssText);
  const rules = Array.from(theme.cssRules, (rule) => rule.cssText), box = (text: string) => text.includes(':host');
  const outside = new CSSStyleSheet();
  outside.replaceSync(`@layer attention-playground-first-screen { ap-first-screen { display: block; }
    ${rules.filter(box).map((text) => text.replace(/:host\(((?:[^()]|\([^()]*\))*)\)/g, `:where(${holding}$1)`).replace(/:host\b/g, `:where(${holding})`)).join('\n')} }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, outside];
  inside = new CSSStyleSheet();
  inside.replaceSync(rules.filter((text) => !box(text)).join('\n'));
  return inside;
}

/** An element, its attributes set (never parsed: a sentence may hold anything) and its children. */
function h(tag: string, attributes: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElement {
  const e = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) e.setAttribute(name, value);
  e.append(...children);
  return e;
}

/** A shadow root on `host` styled by `styles` (as Lit styles the elements: each sheet built once
 *  and shared by every root that uses it) and holding `content`. */
function shadow(host: HTMLElement, styles: Array<CSSResult | CSSStyleSheet>, ...content: Node[]): HTMLElement {
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root, styles);
  root.append(...content);
  return host;
}

/** The screen of view="weights" in a narrow element, as playground.ts renders it: the sentence,
 *  the other settings folded under it, the weights below; or, for the trained model (`model`
 *  says which layer and what the Sentence control says of it), the Model and Sentence
 *  controls (unless the element has none) and the layer's weights. */
function draw(el: Element, r: Reading, t: { tokens: string[]; weights: Matrix[]; mask?: Matrix }, model?: { label: string; modelHint: string; sentenceHint: string }) {
  // (an element of its own, not a <div>: a host page's rules for its <div>s do not reach it)
  const shot = h('ap-first-screen', { class: 'first-screen', slot: 'first-screen', inert: '', 'aria-hidden': 'true', 'data-hash': toHash(r.state, r.overrides) });
  const def = (key: string) => SETTINGS.find((d) => d.key === key)!;
  const input = h('input', { type: 'text', spellcheck: 'false', autocomplete: 'off' }) as HTMLInputElement;
  input.value = String(r.state.sentence);
  const control = (key: string, field: HTMLElement, hint: string) => h('div', { class: `control ${def(key).kind}`, 'data-key': key },
    h('label', {}, def(key).label), h('div', { class: 'input' }, field), h('div', { class: 'help' }, def(key).help), h('div', { class: 'hint' }, hint));
  const chosen = (v: string) => h('option', { value: v, ...(v === r.state.model ? { selected: '' } : {}) }, v.replace('_', ' '));
  const controls = !model ? [control('sentence', input, WORDS.startHere), h('details', { class: 'settings' }, h('summary', {}, 'Settings'))]
    : el.getAttribute('controls') === 'none' ? []
      : [control('model', h('select', {}, ...def('model').options!.map(chosen)), model.modelHint), control('sentence', input, model.sentenceHint)];
  const matrices = h('div', { class: 'matrices' },
    ...(model ? [] : [h('p', { class: 'random-note' }, `${WORDS.random} `, h('button', { class: 'small' }, WORDS.openModel))]),
    ...(nearUniform(t.weights, t.mask) ? [h('p', { class: 'hint uniform' }, `${WORDS.uniform} `, h('button', { class: 'small' }, WORDS.relativeAll))] : []),
    ...t.weights.map((m, head) => h('div', { class: 'matrix' }, heatmap(t.weights.length > 1 ? `weights · head ${head}` : 'weights', m, t.tokens, t.mask),
      h('details', { class: 'export' }, h('summary', {}, 'export')))));
  const views = h('div', { class: 'views', part: 'view' }, h('p', { class: 'hint busy' }),
    h('div', {}, ...(model ? [h('p', { class: 'hint layer-of' }, model.label)] : []), h('div', { class: 'body' }, matrices)));
  el.append(shadow(shot, PLAYGROUND_STYLES.map((s) => (s === THEME ? themeInside() : s)), h('div', { class: 'frame' },
    controls.length ? h('div', { class: 'layout' }, h('div', { class: 'controls', part: 'controls' }, ...controls), views) : h('div', { class: 'layout bare' }, views))));
  // a table wider than the element says it scrolls, as the heatmap's own does once drawn
  markOverflowing(matrices.querySelectorAll('[data-element]'));
}

/** One head's weights as views/heatmap.ts draws them: a table of numbers on the 0-to-1 scale. */
function heatmap(label: string, m: Matrix, tokens: string[], mask?: Matrix): HTMLElement {
  const head = h('tr', {}, h('td'), ...tokens.map((k) => h('th', { class: 'col', scope: 'col' }, k)));
  const rows = m.map((row, i) => h('tr', {}, h('th', { scope: 'row' }, tokens[i]), ...row.map((v, j) => {
    const masked = mask?.[i]?.[j] === 0;
    return h('td', { class: `click ${masked ? 'masked' : ''}`, style: masked ? 'background-color:transparent;color:inherit' : swatchOf(v, SEQUENTIAL).style, title: full(v) }, short(v));
  })));
  return shadow(h('span', { 'data-element': 'ap-heatmap' }), [HEATMAP_STYLES], h('div', { class: 'frame' },
    h('div', { class: 'title' }, label, h('small', {}, `${m.length} × ${tokens.length}`), h('button', { class: 'as', 'aria-pressed': 'false' }, 'row-relative')),
    h('div', { class: 'scroll' }, h('table', {}, h('thead', {}, head), h('tbody', {}, ...rows))),
    h('div', { class: 'legend' }, h('span', {}, '0'), h('span', { class: 'bar', style: gradientStyle('sequential') }), h('span', {}, '1'))));
}
