// How the playground looks: its layout by its own width (a 700 px column of a wide screen is
// narrow), the controls, the walkthrough's steps and the panels beside them, on the theme's
// colours; the views of current models it draws have theirs in modern-styles.ts.
import { css } from '@lit/reactive-element/css-tag.js';
import { THEME } from '../shared/theme.js';

export const PLAYGROUND_STYLES = [THEME, css`
    /* The element lays out by its own width (a 700 px column of a wide screen is narrow), so the
       frame is the container its layout asks about. */
    .frame { container-type: inline-size; }
    .presets { display: flex; flex-wrap: wrap; gap: 0.4rem; }
    /* On a phone the examples are one labelled list, so the results stay on the first screen. */
    .presets.picker { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem 0.5rem; font-size: 0.85rem; font-weight: 600; }
    .presets.picker label { display: flex; align-items: center; gap: 0.5rem; flex: 1 0 15rem; }
    .presets.picker select { font: inherit; font-weight: 400; min-width: 0; flex: 1; max-width: 20rem; padding: 0.2rem 0.3rem;
      color: var(--ap-fg); background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 6px; }
    .layout { display: grid; grid-template-columns: 260px minmax(0, 1fr); }
    .layout.page { min-height: calc(100vh - 60px); }  /* the full-window page; an embedded element is as tall as what it shows */
    .controls { padding: 0.8rem 1rem; border-right: 1px solid var(--ap-line); display: flex; flex-direction: column; gap: 0.55rem; }
    .views { padding: 0.8rem 1rem; min-width: 0; }
    .layout.page .views { padding-bottom: 3rem; }
    .busy { margin: 0 0 0.4rem; }
    .busy:empty { margin: 0; }
    .tokens { display: flex; flex-wrap: wrap; gap: 0.3rem; margin-bottom: 0.8rem; }
    /* a long text's chips scroll in five lines rather than push every matrix off the first screen */
    .tokens[part='tokens'] { max-height: 9.5rem; overflow-y: auto; padding: 2px; }
    .more { font-size: 0.8rem; color: var(--ap-muted); margin: -0.4rem 0 0.8rem; }
    .more input { width: 5.5em; font: inherit; color: var(--ap-fg); background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 6px; padding: 0.1rem 0.3rem; }
    .more input[aria-invalid='true'] { border-color: var(--ap-error); }
    .token { font-family: var(--ap-mono); font-size: 0.85rem; background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 6px; padding: 0.1rem 0.45rem; }
    .tokens .what { font-size: 0.8rem; font-weight: 600; color: var(--ap-muted); align-self: center; }
    button.token[aria-pressed='true'] { background: var(--ap-fg); color: var(--ap-bg); border-color: var(--ap-fg); }
    .views > .hint { margin: 0 0 0.6rem; }
    .close { float: right; margin-left: 0.5rem; }
    /* The derivation stands beside the matrices it explains on a wide element, under them on a
       narrow one, and in a sheet over the bottom of a phone's screen (the page then moves so
       the clicked cell stays above it). It never covers the cells it lights up. */
    .derivation { background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 10px; padding: 0.6rem 0.9rem; margin-top: 0.8rem; overflow: auto; }
    .step.deriving { content-visibility: visible; }  /* containment would hold the sheet inside the card */
    @container (width >= 760px) {
      .body.deriving { display: grid; grid-template-columns: minmax(0, 1fr) minmax(16rem, 24rem); gap: 1rem; align-items: start; }
      .body.deriving > .derivation { margin-top: 0; position: sticky; top: 0.5rem; max-height: calc(100vh - 1rem); }
    }
    @media (max-width: 600px) {
      .derivation { position: fixed; left: 0; right: 0; bottom: 0; z-index: 5; margin: 0; max-height: 45vh; border-radius: 14px 14px 0 0;
        box-shadow: 0 -4px 18px rgb(0 0 0 / 0.3); padding-bottom: 1rem; }
      .step.deriving { margin-bottom: 48vh; }  /* room to scroll the clicked cell above the sheet */
    }
    .step { background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 12px; padding: 0.7rem 1rem 0.9rem; margin-bottom: 0.9rem;
      content-visibility: auto; contain-intrinsic-size: auto 420px; }  /* steps off screen skip layout and paint */
    ap-deferred-block { display: block; }  /* holds one step: a box, so that it can be seen coming on screen */
    .step.alone { content-visibility: visible; }  /* the whole embed: laid out at once, so the article under it does not move */
    .step h2 { font-size: 1.05rem; margin: 0 0 0.2rem; display: flex; align-items: center; gap: 0.5rem; }
    .num { display: inline-grid; place-items: center; width: 1.6em; height: 1.6em; border-radius: 50%; background: var(--ap-fg); color: var(--ap-bg); font-size: 0.8rem; font-weight: 600; }
    .formula { font-family: var(--ap-mono); font-size: 0.85rem; margin: 0.2rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
    .about { margin: 0.2rem 0 0.6rem; max-width: 70ch; color: var(--ap-muted); }
    .fact { font-family: var(--ap-mono); font-size: 0.85rem; }
    .matrices { display: flex; flex-wrap: wrap; gap: 0.8rem 1.2rem; align-items: flex-start; }
    .matrices > p { margin-block: 0; }  /* a note among the matrices: the gap alone spaces it (flex margins add to it) */
    .matrix { max-width: 100%; }
    .arcs-title { font: 600 0.85rem var(--ap-mono); }
    .stale { opacity: 0.45; }
    .tools { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 0.4rem; margin-left: auto; }
    .tools > .tool-note { flex-basis: 100%; margin: 0; padding: 0.25rem 0.6rem; font-size: 0.85rem; text-align: end; }  /* what a button did, beside it */
    .views > .tools { margin: 0 0 0.5rem; justify-content: flex-end; }
    details.export { font-size: 0.8rem; margin-top: 2px; }
    details.export summary { cursor: pointer; color: var(--ap-muted); width: max-content; }
    details.export button { margin: 2px 2px 0 0; }
    /* Model mode: the word pieces (a leading space, the newline as marks; a byte apart), Repeat,
       the next token and the heads side by side where there is room, the layer picker. */
    .tokens.model .token { min-width: 1.4em; text-align: center; padding: 0.05rem 0.3rem; margin: 0 0.3rem 0.3rem 0; vertical-align: top; }
    /* a line of chips, not flex items: a keystroke that changes them all lays them out in
       half the time (64 chips: about 0.9 ms as flex items, 0.5 ms in a line) */
    .tokens.model { display: block; }
    .token.mark { color: var(--ap-muted); }
    .token.byte { font-style: italic; border-style: dashed; }
    .model-about { margin: 0 0 0.3rem; }
    .split-note { margin: 0 0 0.3rem; }
    details.model-card { font-size: 0.85rem; color: var(--ap-muted); margin: 0 0 0.7rem; max-width: 70ch; }
    details.model-card summary { cursor: pointer; width: max-content; }
    details.model-card p { margin: 0.3rem 0 0; }
    .model-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.3rem 0.6rem; margin: -0.2rem 0 0.9rem; }
    .model-bar button[disabled] { opacity: 0.55; cursor: not-allowed; }
    .model-cards { display: flex; flex-wrap: wrap; gap: 0.9rem; align-items: flex-start; margin-bottom: 0.9rem; }
    .card { background: var(--ap-card); border: 1px solid var(--ap-line); border-radius: 12px; padding: 0.7rem 1rem 0.9rem; min-width: 0; box-sizing: border-box; }
    .card h2 { font-size: 1.05rem; margin: 0 0 0.4rem; }
    .card.next { flex: 1 1 15rem; max-width: 26rem; }
    .card.overview { flex: 3 1 22rem; }
    .card .small { margin-top: 0.4rem; }
    .layers { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; margin: 0 0 0.8rem; }
    .layers .what { font-size: 0.8rem; font-weight: 600; color: var(--ap-muted); }
    .layers button[aria-pressed='true'] { background: var(--ap-fg); color: var(--ap-bg); border-color: var(--ap-fg); }
    .random-note { margin: 0.2rem 0 0.5rem; color: var(--ap-muted); font-size: 0.8rem; }  /* said where a pattern seems to show, not a hint on using the page */
    .layout.bare { grid-template-columns: minmax(0, 1fr); }
    :host([compact]) .layout { min-height: 0; grid-template-columns: minmax(0, 1fr); }
    :host([compact]) .controls { border-right: none; border-bottom: 1px solid var(--ap-line); display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 0.4rem 0.8rem; }
    :host([compact]) .control.text { grid-column: 1 / -1; }
    :host([compact]) .about { display: none; }
    :host([compact]) .views { padding: 0.6rem; }
    .embed-note { max-width: 70ch; margin: 0.5rem 0 0; }
    /* Beside the sidebar, the help covers the results for a moment rather than the next control. */
    @container (width >= 760px) {
      :host(:not([compact])) .controls > .control .help { left: calc(100% + 1.2rem); right: auto; top: auto; bottom: 0; width: 16rem; }
    }
    details.settings > summary { cursor: pointer; font-weight: 600; font-size: 0.9rem; padding: 0.2rem 0; width: max-content; }
    /* Narrower than NARROW: the results first, the settings above them (folded, by script). */
    @container (width < 760px) {
      .layout { grid-template-columns: minmax(0, 1fr); min-height: 0; }
      .layout.page { min-height: 0; }
      .controls { border-right: none; border-bottom: 1px solid var(--ap-line); display: flex; flex-direction: column; gap: 0.4rem; padding: 0.6rem 0.7rem; }
      .fold { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0.55rem 0.8rem; padding: 0.4rem 0 0.3rem; }
      .fold .control.text { grid-column: 1 / -1; }
      .header { padding: 0.5rem 0.7rem; }
      .views { padding: 0.6rem; }
      .layout.page .views { padding-bottom: 2rem; }
      .step, .card { padding: 0.6rem 0.7rem 0.8rem; }
    }
`];
