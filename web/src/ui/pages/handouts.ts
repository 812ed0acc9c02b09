// Share, Embed, Copy as NumPy and the exports of one playground element: what it hands out of the
// numbers on screen (a link, a snippet, a program, a file), each written by its language's one
// escaping function (ui/shared/share.ts, ui/shared/export.ts), and what was done said beside the
// buttons. It keeps what it last handed out and said; the settings it reads are the element's.
import { html, nothing } from 'lit';
import { load } from '../../core/attention.js';
import { SETTINGS, attributeOf } from '../../state/settings.js';
import { VIEW_ATTRIBUTES, VIEW_DEFAULTS } from '../../state/view-state.js';
import { copyText, elementSnippet, iframeSnippet, refusedURLs, scriptOf, tooLong, urlAttribute } from '../shared/share.js';
import { withScope } from '../../state/scoped-hash.js';
import type { MatrixData } from '../shared/export.js';
import type { Arcs } from '../views/arcs.js';
import { layerOf } from './model-panels.js';
import { attributeReading, hashOf, scope } from './element-address.js';
import type { AttentionPlayground } from './playground.js';

// The exports' code (3.5 KB gzip) comes in the later views' chunk (later-views.ts), after a
// link's or a post's first heatmap; a file asked for before then waits for it.
const takeAway = () => import('../shared/export.js');

// What Embed writes besides the settings and matrices: how the element looks, what it follows and
// where it links.
const COPIED = ['view', 'controls', 'compact', 'toolbar', 'presets', 'theme', ...Object.values(VIEW_ATTRIBUTES), 'share-url', 'script-url'];

type Said = Pick<Handouts, 'shareText' | 'numpyText' | 'toolNote' | 'offerSpec'>;

export class Handouts {
  shareText = '';
  numpyText = '';
  toolNote = '';      // what Share, Embed or Copy as NumPy did, said beside them (not over the page's note)
  offerSpec = false;  // the link is too long to open: the spec is offered as a file

  constructor(private host: AttentionPlayground) {}

  /** Changes what is said and redraws the element. */
  say(said: Partial<Said>) {
    Object.assign(this, said);
    this.host.requestUpdate();
  }

  /** The buttons, and what the last of them did. */
  toolbar() {
    return html`<div class="tools" part="toolbar">
      <button class="small" data-action="share" @click=${this.share}>Share</button>
      <button class="small" data-action="embed" @click=${this.embed}>Embed</button>
      <button class="small" data-action="numpy" @click=${this.copyNumpy}>Copy as NumPy</button>
      ${this.toolNote ? html`<p class="note tool-note" role="status">${this.toolNote}${this.offerSpec
        ? html` <button class="small" data-action="download-spec" @click=${this.downloadSpec}>Download spec.json</button>` : nothing}</p>` : nothing}</div>`;
  }

  /** The link, snippet or program handed out, to copy by hand. */
  texts() {
    return html`${this.shareText ? html`<textarea class="share" readonly rows=${this.shareText.split('\n').length + 1} aria-label="Link or snippet to copy">${this.shareText}</textarea>` : nothing}
      ${this.numpyText ? html`<textarea class="share numpy" readonly rows="12" aria-label="NumPy program">${this.numpyText}</textarea>` : nothing}`;
  }

  /** The link of the state on screen, on `share-url` when the embedder gave one (http(s) or
   *  relative only). Parsed as a URL, so what it holds is percent-encoded: a link is text a
   *  reader may paste anywhere. */
  private link(): string {
    const shareURL = urlAttribute(this.host, 'share-url');
    if (!this.host.useHash && !shareURL.url) {
      // No hosted playground named: a link to this page, under this element's name, which it
      // reads back; the page's own hash (a slide deck's #/3) stays as it is.
      const url = new URL(location.href);
      url.hash = withScope(location.hash, scope(this.host), hashOf(this.host, attributeReading(this.host)));
      return url.href;
    }
    const url = new URL(shareURL.url ?? location.href.split('#')[0]);
    url.hash = hashOf(this.host);
    return url.href;
  }

  /** Whether Embed may write an <iframe>: there is a page that is the playground to frame. */
  private framable(): boolean {
    return this.host.useHash || Boolean(urlAttribute(this.host, 'share-url').url);
  }

  private snippet(): string {
    // The trained model's snippet says the model and the sentence: nothing else applies to it.
    const model = this.host.modelMode();
    const matrices = model ? [] : Object.entries(this.host.overrides).map(([k, v]): [string, string] => [attributeOf(k), JSON.stringify(v)]);
    // How it looks and where it links travel too: the copy shows what this one shows.
    const shown = COPIED.flatMap((name): Array<[string, string]> => {
      if (name === VIEW_ATTRIBUTES.focus) return this.host.focusToken ? [[name, String(this.host.focusToken)]] : [];
      if (name === VIEW_ATTRIBUTES.head) return this.host.focusHead ? [[name, String(this.host.focusHead)]] : [];
      if (name === VIEW_ATTRIBUTES.layer) return model && this.host.layer !== VIEW_DEFAULTS.layer ? [[name, String(this.host.layer)]] : [];
      if (name === 'share-url' || name === 'script-url') {
        const { url } = urlAttribute(this.host, name);
        return url ? [[name, url]] : [];
      }
      const v = this.host.getAttribute(name);
      return v === null || (name === 'theme' && v === 'auto') ? [] : [[name, v]];
    });
    const table = model ? SETTINGS.filter((d) => d.key === 'model' || d.key === 'sentence') : SETTINGS;
    return elementSnippet('attention-playground', scriptOf(this.host), table, this.host.state, [...shown, ...matrices]);
  }

  share = async () => {
    const url = this.link();
    const long = tooLong(url);
    if (long) {
      return this.say({ shareText: '', numpyText: '', offerSpec: true,
        toolNote: `${long} Download the spec as a JSON file instead: attention-cli run spec.json computes the same numbers.` });
    }
    this.say({ shareText: url, numpyText: '', offerSpec: false });
    this.say({ toolNote: refusedURLs(this.host) + ((await copyText(url)) ? 'Link copied.' : 'Copy the link below.') });
  };

  embed = async () => {
    const url = this.link();
    const long = tooLong(url);
    // An <iframe> needs a page that is the playground (this one on the full page, or share-url),
    // and a link that opens: otherwise it would frame a blog post or an error page.
    const framed = !long && this.framable();
    this.say({ shareText: framed ? `${iframeSnippet(url, 'Attention Playground', 720)}\n\n${this.snippet()}` : this.snippet(), numpyText: '', offerSpec: false });
    const copied = await copyText(this.shareText);
    this.say({ toolNote: refusedURLs(this.host) + (long ? `${long} ${copied ? 'The element snippet was copied' : 'Copy the element snippet below'}: it holds the matrices itself.`
      : framed ? (copied ? 'Embed snippets copied: an <iframe>, or the element itself.' : 'Copy a snippet below.')
      : `${copied ? 'The element snippet was copied' : 'Copy the element snippet below'}. (For an <iframe> too, give this element share-url: the address of a hosted playground page.)`) });
  };

  downloadSpec = async () => {
    const { download } = await takeAway();
    download('spec.json', `${JSON.stringify(this.host.spec, null, 1)}\n`, 'application/json');
  };

  copyNumpy = async () => {
    // Clicked while the first heatmap's module stands in: the whole core, on its way, writes it.
    const core = this.host.core ?? await load();
    const r = core.numpy(this.host.spec);
    if (typeof r !== 'string') return;
    // The trained model's program says where the layer and head on screen are in what it leaves
    // (whole numbers only: nothing of the reader's reaches the comment).
    // (after the coding line, which must stay among the first two)
    const shown = this.host.model ? `# On the page: ${layerOf(this.host, true).toLowerCase()}, which is layers[${this.host.layer - 1}]["weights"][${this.host.focusHead}] below.\n` : '';
    const [first, ...rest] = r.split('\n');
    this.say({ numpyText: shown ? [first, shown + rest.join('\n')].join('\n') : r, shareText: '', offerSpec: false });
    this.say({ toolNote: (await copyText(this.numpyText)) ? 'NumPy program copied: it rebuilds every number on screen.' : 'Copy the NumPy program below.' });
  };

  async exportMatrix(format: string, data: MatrixData, file: string) {
    const { download, toCSV, toJSON, toSVG, toPNG } = await takeAway();
    if (format === 'csv') download(`${file}.csv`, toCSV(data), 'text/csv');
    if (format === 'json') download(`${file}.json`, toJSON(data), 'application/json');
    if (format === 'svg') download(`${file}.svg`, toSVG(data), 'image/svg+xml');
    if (format === 'png') download(`${file}.png`, await toPNG(data));
  }

  async exportArcs(format: string, e: Event) {
    const arcs = (e.target as HTMLElement).closest('.matrix')?.querySelector<Arcs>('ap-arcs');
    arcs?.flush();  // drawn now, if it put off the latest weights
    const svg = arcs?.shadowRoot?.querySelector('svg');
    if (!svg) return;
    const { download, standaloneSVG, svgToPNG, TITLE_BAND } = await takeAway();
    const heads = arcs!.weights.length;
    const text = standaloneSVG(svg, `attention arcs${heads > 1 ? `, heads 0 to ${heads - 1}` : ''}`, 'line width and strength: weight ÷ the largest of its row');
    if (format === 'svg') download('arcs.svg', text, 'image/svg+xml');
    else download('arcs.png', await svgToPNG(text, svg.viewBox.baseVal.width, svg.viewBox.baseVal.height + TITLE_BAND));
  }

  exportMenu(onPick: (format: string, e: Event) => Promise<void>, formats = ['png', 'svg', 'csv', 'json']) {
    // A file that cannot be made (a picture too large for any canvas, say) is said, not thrown.
    const pick = (f: string, e: Event) => onPick(f, e).catch((error) => {
      this.host.note = `The ${f.toUpperCase()} file could not be made: ${error?.message ?? error}.`;
    });
    return html`<details class="export"><summary>export</summary>
      ${formats.map((f) => html`<button class="small" data-format=${f} @click=${(e: Event) => pick(f, e)}>${f.toUpperCase()}</button>`)}
      <button class="small" data-format="numpy" @click=${this.copyNumpy}>Copy as NumPy</button></details>`;
  }
}
