// Types of dist/attention-playground.js: importing it defines <attention-playground>.
import type { Spec } from '../core/attention.js';

export interface AttentionPlaygroundElement extends HTMLElement {
  /** The spec on screen now (what the core's run() is given). */
  readonly spec: Spec;
  /** light, dark, or auto (follows prefers-color-scheme). */
  theme: 'auto' | 'light' | 'dark';
  /** One step id ("embed" … "concat"), trace key ("weights", "Q" …) or "arcs" to show alone. */
  view: string;
  /** "all", "none", or a comma list of setting keys ("sentence,seed"). */
  controls: string;
  compact: boolean;
}

declare global {
  interface HTMLElementTagNameMap { 'attention-playground': AttentionPlaygroundElement }
  interface HTMLElementEventMap { trace: CustomEvent<{ spec: Spec; trace: unknown; error: { field: string; message: string } | null }> }
}

export declare const AttentionPlayground: { new (): AttentionPlaygroundElement; prototype: AttentionPlaygroundElement };
