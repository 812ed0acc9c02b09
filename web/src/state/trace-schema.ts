// The core's trace schema, as the page reads it: which step shows an entry, which entries share a
// colour range, whose rows are tokens, and the stages of the rows a score reads. Written from the
// wasm at build time (scripts/core-types.mjs), so an entry the core adds is drawn with no page code.
import type { TraceEntry } from '../core/attention.js';
import SCHEMA from '../core/trace-schema.json';

type Json = Record<string, any>;
export type Mode = 'self' | 'encoder_decoder';

const ENTRIES = SCHEMA as { self: TraceEntry[]; encoder_decoder: TraceEntry[] };

/** What an entry shown only with some setting is (a step's text speaks of the entries always
 *  there): said under its matrix. */
export const captionOf = (mode: Mode, name: string): string => {
  const e = ENTRIES[mode].find((x) => x.name === name);
  return e?.when ? e.label : '';
};

/** The entries a walkthrough step shows, in the schema's order. */
export const shownIn = (mode: Mode, step: string): string[] => ENTRIES[mode].filter((e) => e.step === step).map((e) => e.name);

/** Entries drawn over one colour range: every group of either schema, by entry. */
export const GROUP_OF = new Map<string, string[]>();
for (const schema of [ENTRIES.self, ENTRIES.encoder_decoder]) {
  for (const e of schema) {
    if (!e.group) continue;
    const group = [...new Set(schema.filter((x) => x.group === e.group).map((x) => x.name))];
    GROUP_OF.set(e.name, [...new Set([...(GROUP_OF.get(e.name) ?? []), ...group])]);
  }
}

/** Entries whose rows are the sentence's tokens, or the source's (the sentence's in self mode). */
export const TOKEN_ROWS = new Set(ENTRIES.self.filter((e) => e.rows === 'tokens' || e.rows === 'source').map((e) => e.name));

/** The entries holding a score's query or key rows, in the order they are made (Q, then its stages). */
export const stagesOf = (role: 'query' | 'key'): string[] => ENTRIES.self.filter((e) => e.role === role).map((e) => e.name);

/** The rows a score reads: the last stage the trace holds, with its name and label. */
export function scoredRows(trace: Json, role: 'query' | 'key'): { name: string; label: string; rows: number[][] } {
  const present = ENTRIES.self.filter((e) => e.role === role && trace[e.name]);
  const last = present[present.length - 1];
  return { name: last.name, label: last.label, rows: trace[last.name] };
}
