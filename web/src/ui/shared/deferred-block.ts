// A part of a page's own template whose updates wait, off screen, as a view's do: each step of
// the walkthrough is one. A keystroke then rebuilds the steps in sight, not the ones below the
// fold (in model mode at 64 characters, about a tenth of the keystroke's time). Its first
// drawing waits too (the page's first screen then costs what the steps in sight cost), in a
// place of a step's usual size.
import { nothing, type PropertyValues } from 'lit';
import { DeferredElement } from './deferred.js';

export class DeferredBlock extends DeferredElement {
  static properties = { content: { attribute: false }, now: { attribute: false } };

  /** The template, asked for only when the block draws: it reads the page's state then. */
  content: () => unknown = () => nothing;
  /** A change of this shows at once, on screen or not: in a step, the step hovered (every step
   *  highlights the matrices it reads) or a derivation opened or closed in it (on a phone that
   *  is a sheet over the screen, wherever its step is). */
  now: unknown = undefined;

  // Drawn into the page's shadow root, under the page's styles, with the page as the `this` of
  // the template's listeners (as if the template were the page's own).
  protected createRenderRoot() {
    const root = this.getRootNode();
    if (root instanceof ShadowRoot) this.renderOptions.host = root.host;
    return this;
  }

  protected urgent(changed: PropertyValues) {
    return changed.has('now');
  }

  // Held while its first drawing waits: a step's usual height (they are 360 to 950 px).
  protected estimate(): [number, number] {
    return [0, 450];
  }

  render() {
    return this.content();
  }
}

customElements.get('ap-deferred-block') || customElements.define('ap-deferred-block', DeferredBlock);
