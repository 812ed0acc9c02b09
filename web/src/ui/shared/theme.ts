// The look shared by the page's elements (playground, trainer, comparison): colours for light
// and dark (prefers-color-scheme unless the theme attribute says otherwise), buttons, focus
// rings, the settings controls and their messages.
import { css } from '@lit/reactive-element/css-tag.js';

export const THEME = css`
  :host {
    --ap-bg: #fdfdfc; --ap-fg: #1c1c1e; --ap-muted: #5f6368; --ap-card: #ffffff; --ap-line: #dadce0;
    --ap-accent: #d1495b; --ap-focus: #1a73e8; --ap-error: #b3261e; --ap-mono: ui-monospace, 'DejaVu Sans Mono', monospace;
    --ap-light-display: block; --ap-dark-display: none;  /* pictures drawn once per theme show the theme's own */
    display: block; background: var(--ap-bg); color: var(--ap-fg); font: 15px/1.45 system-ui, 'DejaVu Sans', sans-serif;
    color-scheme: light;
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) { --ap-bg: #17181a; --ap-fg: #e8eaed; --ap-muted: #a6abb2; --ap-card: #202124; --ap-line: #3c4043;
    --ap-accent: #ff7a85; --ap-focus: #8ab4f8; --ap-error: #f28b82; color-scheme: dark; --ap-light-display: none; --ap-dark-display: block; }
  }
  :host([theme='dark']) { --ap-bg: #17181a; --ap-fg: #e8eaed; --ap-muted: #a6abb2; --ap-card: #202124; --ap-line: #3c4043;
    --ap-accent: #ff7a85; --ap-focus: #8ab4f8; --ap-error: #f28b82; color-scheme: dark; --ap-light-display: none; --ap-dark-display: block; }
  .header { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem; padding: 0.6rem 1rem; border-bottom: 1px solid var(--ap-line); }
  .title { font-size: 1.2rem; margin: 0; font-weight: 700; }
  button { font: inherit; font-size: 0.85rem; border: 1px solid var(--ap-line); background: var(--ap-card); color: inherit; border-radius: 999px; padding: 0.25rem 0.8rem; cursor: pointer; }
  button:hover { border-color: var(--ap-focus); }
  button.small { padding: 0.1rem 0.5rem; font-size: 0.8rem; border-radius: 6px; }
  :focus-visible { outline: 3px solid var(--ap-focus); outline-offset: 2px; }
  .control label { display: block; font-size: 0.8rem; font-weight: 600; color: var(--ap-muted); margin-bottom: 2px; }
  .control .input { display: flex; gap: 0.4rem; align-items: center; }
  .control input[type='text'], .control select { width: 100%; box-sizing: border-box; font: inherit; padding: 0.3rem 0.45rem; border: 1px solid var(--ap-line); border-radius: 6px; background: var(--ap-card); color: inherit; }
  .control.bool .input { justify-content: flex-start; }
  .control.bad input, .control.bad select { border-color: var(--ap-error); }
  .message { color: var(--ap-error); font-size: 0.82rem; margin: 0.2rem 0; }
  .hint { color: var(--ap-muted); font-size: 0.8rem; }
  /* A control's help floats under it while it is hovered (after a beat, so passing over the
     sidebar shows nothing) or focused (at once: the keyboard has no hover), until the person
     types or chooses in it: it would cover what their input changes. */
  .control { position: relative; }
  .control .help { position: absolute; left: 0; right: 0; top: calc(100% + 3px); z-index: 3; padding: 0.35rem 0.55rem; border-radius: 6px;
    background: var(--ap-fg); color: var(--ap-bg); font-size: 0.8rem; line-height: 1.35; box-shadow: 0 2px 8px rgb(0 0 0 / 0.25);
    visibility: hidden; opacity: 0; pointer-events: none; transition: opacity 0.12s, visibility 0.12s; }
  .control:not([data-typed]):hover .help { visibility: visible; opacity: 1; transition-delay: 0.4s; }
  .control:not([data-typed]):focus-within .help { visibility: visible; opacity: 1; transition-delay: 0s; }
  .control :is(input, select) { scroll-margin: 0.5rem 0 5.5rem; }  /* a control tabbed to scrolls in with its help */
  @media (prefers-reduced-motion: reduce) { .control .help { transition: none; } }
  .control.slider input[type='range'] { flex: 1; min-width: 0; margin: 0; accent-color: var(--ap-focus); }
  .control.slider input[type='text'] { width: 5.5em; flex: none; }
  .note { background: color-mix(in srgb, var(--ap-focus) 12%, transparent); border-radius: 8px; padding: 0.5rem 0.8rem; margin: 0 0 0.8rem; font-size: 0.9rem; }
  textarea.share { width: 100%; box-sizing: border-box; font: 0.8rem var(--ap-mono); background: var(--ap-card); color: inherit; border: 1px solid var(--ap-line); border-radius: 8px; padding: 0.4rem; margin-bottom: 0.6rem; }
`;
