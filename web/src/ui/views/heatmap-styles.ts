// How a heatmap looks: the element's (heatmap.ts), and the copy a playground's first screen draws
// before that code has arrived (pages/first-screen.ts), which is why it is a module of its own.
import { css } from '@lit/reactive-element/css-tag.js';

export const HEATMAP_STYLES = css`
  :host { display: inline-block; max-width: 100%; vertical-align: top; }
  :host([highlight]) .frame { outline: 3px solid var(--ap-accent, #e4572e); outline-offset: 2px; }
  .frame { border-radius: 6px; padding: 4px; }
  .title { font: 600 0.85rem/1.2 var(--ap-mono, ui-monospace, monospace); margin: 0 0 2px; display: flex; gap: 0.5em; align-items: baseline; flex-wrap: wrap; }
  .title small { font-size: 0.72rem; font-weight: 400; opacity: 0.7; }
  .scroll { overflow: auto; max-width: 100%; max-height: 70vh; }
  :host([overflows]) .frame::after { content: 'scroll sideways for more columns →'; display: block; font-size: 0.72rem; color: var(--ap-muted, #555); margin-top: 2px; }
  /* --ap-heatmap-font-size: the numbers' size (a slide deck sets it to be read from afar); the cells grow
     with it. --ap-heatmap-cell-height: a cell's height (1.9em of that size), lower where room is short. */
  table { border-collapse: separate; border-spacing: 1px; font: var(--ap-heatmap-font-size, 0.72rem)/1 var(--ap-mono, ui-monospace, monospace); }
  th { font-weight: 500; color: var(--ap-muted, #555); padding: 0 4px; white-space: nowrap; max-width: 7em; overflow: hidden; text-overflow: ellipsis; }
  th.col { writing-mode: vertical-rl; transform: rotate(180deg); height: auto; max-height: 6em; padding: 4px 0; text-align: left; }
  td { min-width: 2.6em; height: var(--ap-heatmap-cell-height, 1.9em); text-align: center; padding: 0 2px; border-radius: 3px; cursor: default; font-variant-numeric: tabular-nums; }
  td.small { min-width: 0.9em; height: 0.9em; padding: 0; }
  td.masked { background-image: repeating-linear-gradient(45deg, transparent 0 3px, rgb(128 128 128 / 0.55) 3px 5px); }
  td.click { cursor: pointer; }
  td.sel { outline: 2px solid var(--ap-accent, #e4572e); outline-offset: -2px; }
  td.lit { outline: 2px dashed var(--ap-accent, #e4572e); outline-offset: -2px; }
  td:focus-visible { outline: 3px solid var(--ap-focus, #1a73e8); outline-offset: -1px; }
  td.top { box-shadow: inset 0 0 0 2px currentColor; }
  tr.new { outline: 2px solid var(--ap-accent, #e4572e); outline-offset: 0; }
  tr.new th { color: var(--ap-fg, inherit); font-weight: 700; }
  @media (prefers-reduced-motion: no-preference) { tr.new td { animation: arrive 0.45s ease-out; } }
  @keyframes arrive { from { opacity: 0; transform: translateY(-0.4em); } }
  .legend { display: flex; flex-wrap: wrap; align-items: center; gap: 2px 6px; font: 0.72rem var(--ap-mono, ui-monospace, monospace); color: var(--ap-muted, #555); margin-top: 3px; }
  .bar { width: 90px; height: 8px; border-radius: 4px; }
  .bar.low, .bar.high { width: 45px; }
  .legend .how { flex-basis: 100%; }
  .error { color: var(--ap-error, #b3261e); font-size: 0.8rem; }
  canvas { image-rendering: pixelated; cursor: pointer; max-width: 100%; display: block; }
  canvas.light { display: var(--ap-light-display, block); }
  canvas.dark { display: var(--ap-dark-display, none); }
  .zoom { margin-top: 4px; max-width: 100%; font: 0.75rem var(--ap-mono, ui-monospace, monospace); }
  .zoom-bar { display: flex; align-items: center; gap: 6px; margin-bottom: 3px; }
  .zoom-bar button.as { min-width: 2rem; min-height: 1.75rem; font-size: 0.85rem; }
  .zoom-cells { display: flex; gap: 2px; overflow-x: auto; padding: 2px; }
  .zcell { flex: 0 0 auto; min-width: 2.6rem; min-height: 2.6rem; display: flex; flex-direction: column; align-items: center; justify-content: center;
    border: 0; border-radius: 4px; font: inherit; color: inherit; cursor: pointer; padding: 0 3px; font-variant-numeric: tabular-nums; }
  .zcell .zl { font-size: 0.65rem; opacity: 0.8; max-width: 5em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .zcell:disabled { background-image: repeating-linear-gradient(45deg, transparent 0 3px, rgb(128 128 128 / 0.55) 3px 5px); cursor: default; }
  .zcell.tapped { box-shadow: inset 0 0 0 2px var(--ap-focus, #1a73e8); }
  .zcell.sel { outline: 2px solid var(--ap-accent, #e4572e); outline-offset: -2px; }
  button.as[aria-pressed='true'] { background: var(--ap-focus, #1a73e8); border-color: var(--ap-focus, #1a73e8); color: var(--ap-bg, #fff); }
  button.as { font: inherit; font-size: 0.7rem; font-weight: 400; border: 1px solid var(--ap-line, #ccc); background: none; color: inherit; border-radius: 5px; padding: 0 0.4rem; cursor: pointer; }
`;
