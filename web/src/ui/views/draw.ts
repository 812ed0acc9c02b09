// How a view asks the playground for a heatmap: the playground draws it (with its export menu,
// the selected cell, the highlight of the hovered step and its colour scale), so a view of
// RoPE, ALiBi or cross-attention lays out numbers without owning any of that.
import type { TemplateResult } from 'lit';
import type { Scale } from '../shared/colour.js';

export type Matrix = number[][];

export interface HeatmapOptions {
  head?: number;
  label?: string;
  rows?: string[];
  cols?: string[];
  masked?: Matrix;
  scale?: Scale;
  caption?: string;
}

export type DrawHeatmap = (key: string, matrix: Matrix, opts?: HeatmapOptions) => TemplateResult;
