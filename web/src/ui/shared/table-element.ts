// What the trainer and the comparison share: an element whose state is one settings table.
// Its attributes are the table's keys (d_model -> d-model); with `use-hash` (the full-window
// pages) the state also lives in the URL hash; a bad attribute or link falls back to the
// default with a visible note; a bad value typed in a control gets a message beside it; and
// Share and Embed give a link, an <iframe> and an element snippet for the state on screen.
import { LitElement, type PropertyDeclarations } from 'lit';
import { attributeOf, fromHash, parseValue, readEntries, startFrom, toHash, type Reading, type SettingDef, type State } from '../../state/settings.js';
import { refusal } from './control.js';
import { copyText, elementSnippet, iframeSnippet, refusedURLs, scriptOf } from './share.js';

export abstract class TableElement extends LitElement {
  static properties: PropertyDeclarations = {
    state: { state: true }, inputErrors: { state: true }, note: { state: true }, shareText: { state: true },
    theme: { type: String, reflect: true },
  };

  /** The settings table, the tag, the page that shows the element alone, an iframe's height. */
  static table: SettingDef[] = [];
  static tag = '';
  static page = '';
  static frameHeight = 760;

  static get observedAttributes() {
    return [...super.observedAttributes, ...this.table.map((d) => attributeOf(d.key))];
  }

  state: State = {};
  inputErrors: Record<string, string> = {};
  note = '';
  shareText = '';
  theme: 'auto' | 'light' | 'dark' = 'auto';
  protected useHash = false;

  private get kind() { return this.constructor as typeof TableElement; }

  /** The state changed (from a control, an attribute or the hash): show what it gives. */
  protected abstract apply(changed: SettingDef | null): void;

  connectedCallback() {
    super.connectedCallback();
    this.useHash = this.hasAttribute('use-hash');
    this.adopt(this.readAttributes());
    if (this.useHash && location.hash.length > 1) this.adopt(fromHash(location.hash, this.kind.table, this.readAttributes()));
    if (this.useHash) window.addEventListener('hashchange', this.onHashChange);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.onHashChange);
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null) {
    super.attributeChangedCallback(name, old, value);
    if (old === value || !this.isConnected || !this.kind.table.some((d) => attributeOf(d.key) === name)) return;
    this.adopt(this.readAttributes());
    this.apply(null);
  }

  /** A link opened on this page (or Back): its settings replace those on screen. */
  private onHashChange = () => {
    if (location.hash.slice(1) === toHash(this.state, {}, this.kind.table)) return;
    this.adopt(fromHash(location.hash, this.kind.table, this.readAttributes()));
    this.apply(null);
  };

  private readAttributes(): Reading {
    const table = this.kind.table;
    const entries = Array.from(this.attributes).flatMap(({ name, value }): Array<[string, string, string]> => {
      const def = table.find((d) => attributeOf(d.key) === name);
      return def ? [[def.key, value, name]] : [];
    });
    return readEntries(entries, startFrom(undefined, table), table);
  }

  private adopt(r: Reading) {
    this.state = r.state;
    this.note = r.problems.length ? `Some settings were not understood and were left at their defaults: ${r.problems.join('; ')}.` : '';
  }

  /** The URL hash of the state on screen, kept up to date on the full-window page. */
  protected writeHash() {
    if (!this.useHash) return;
    const hash = toHash(this.state, {}, this.kind.table);
    if (location.hash.slice(1) !== hash) history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
  }

  /** A control's text: the new state, or a message beside the control. */
  protected set(def: SettingDef, text: string) {
    const value = parseValue(def, text);
    const errors = { ...this.inputErrors };
    if (value === undefined) {
      this.inputErrors = { ...errors, [def.key]: refusal(def) };
      return;
    }
    delete errors[def.key];
    this.inputErrors = errors;
    this.state = { ...this.state, [def.key]: value };
    this.apply(def);
  }

  private link() {
    const base = this.useHash ? location.href.split('#')[0] : new URL(`./${this.kind.page}`, document.baseURI).href;
    return `${base}#${toHash(this.state, {}, this.kind.table)}`;
  }

  protected async share() {
    this.shareText = this.link();
    this.note = (await copyText(this.shareText)) ? 'Link copied.' : 'Copy the link below.';
  }

  protected async embed() {
    const title = this.shadowRoot?.querySelector('.title')?.textContent ?? this.kind.tag;
    this.shareText = `${iframeSnippet(this.link(), title, this.kind.frameHeight)}\n\n${elementSnippet(this.kind.tag, scriptOf(this), this.kind.table, this.state)}`;
    this.note = refusedURLs(this) + ((await copyText(this.shareText)) ? 'Embed snippets copied: an <iframe>, or the element itself.' : 'Copy a snippet below.');
  }
}
