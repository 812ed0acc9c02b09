// How the views of current models' attention look (RoPE, grouped queries, cross-attention): in
// the playground's styles from the start, while the views' code is fetched when first needed.
import { css } from '@lit/reactive-element/css-tag.js';

export const MODERN_STYLES = css`
  /* RoPE */
  .rope-pairs { display: flex; flex-direction: column; gap: 0.6rem; max-width: 100%; }
  .rope-pair { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 0.6rem 1.2rem; }
  .why { max-width: 70ch; margin: 0.5rem 0 0; }
  /* grouped queries */
  .gqa { margin: 0; }
  .gqa svg { max-width: 100%; height: auto; font: 0.72rem var(--ap-mono); }
  .gqa .link { stroke: var(--ap-muted); stroke-width: 1.5; }
  .gqa circle { fill: var(--ap-card); stroke: var(--ap-fg); stroke-width: 1.2; }
  .gqa rect { fill: color-mix(in srgb, var(--ap-accent) 22%, var(--ap-card)); stroke: var(--ap-accent); stroke-width: 1.2; }
  .gqa text { fill: currentColor; text-anchor: middle; }
  .gqa figcaption, .costs .how { font-size: 0.8rem; color: var(--ap-muted); max-width: 70ch; }
  .costs { max-width: 100%; overflow-x: auto; }
  .costs-title { font: 600 0.85rem var(--ap-mono); margin: 0.4rem 0 0.3rem; }
  .costs table { border-collapse: collapse; font: 0.8rem var(--ap-mono); }
  .costs th, .costs td { padding: 0.15rem 0.6rem; text-align: right; border-bottom: 1px solid var(--ap-line); }
  .costs td { white-space: nowrap; }
  .costs th[scope='row'] { text-align: left; font-weight: 500; }
  .costs thead th { font-weight: 600; vertical-align: bottom; }
  .costs small { font-weight: 400; color: var(--ap-muted); }
  .costs .now { background: color-mix(in srgb, var(--ap-accent) 14%, transparent); }
  /* cross-attention */
  .cross-note { max-width: 70ch; margin: 0.2rem 0 0.6rem; padding-left: 0.6rem; border-left: 3px solid var(--ap-accent); }
  .tokens .side { font-size: 0.75rem; color: var(--ap-muted); align-self: center; min-width: 3.5rem; }
`;
