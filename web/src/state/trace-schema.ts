// The core's trace schema, as the page reads it: which step shows an entry, which entries share a
// colour range, whose rows are tokens, and the stages of the rows a score reads. Written from the
// wasm at build time (scripts/core-types.mjs), so an entry the core adds is drawn with no page code.
import type { EncoderDecoderTrace, Matrix, SelfTrace, Trace, TraceEntry } from '../core/attention.js';
import SCHEMA from '../core/trace-schema.json';

export type Mode = 'self' | 'encoder_decoder';

/** A trace as a caller may hold it: the core's JSON with no type on it. A reader that takes it
 *  reads it as the trace the core made it (run() and trace() return no other). */
export type Untyped = Record<string, unknown>;

/** Self- or cross-attention's trace: every mode's but encoder_decoder's, as its spec says (the
 *  trained model's trace holds a self-attention trace per layer, and is none itself). */
export const isSelf = (t: Trace): t is SelfTrace => !('layers' in t) && t.spec?.mode !== 'encoder_decoder';

/** The name of an entry of either trace. */
export type EntryName = keyof SelfTrace | keyof EncoderDecoderTrace;

/** Either trace read by entry name, as a reader led by the schema reads it: which type an entry
 *  has is known to the reader that names it, not here. */
export type Entries = { readonly [K in EntryName]?: unknown };

/** A row of a trace's schema: its name is an entry of that trace (tables.d.ts and the schema are
 *  both written from the core's tables). */
type RowOf<T> = TraceEntry & { name: keyof T & string };

const SCHEMAS = SCHEMA as { self: RowOf<SelfTrace>[]; encoder_decoder: RowOf<EncoderDecoderTrace>[] };
const ENTRIES: Record<Mode, TraceEntry[]> = SCHEMAS;

/** What an entry shown only with some setting is (a step's text speaks of the entries always
 *  there): said under its matrix. */
export const captionOf = (mode: Mode, name: string): string => {
  const e = rowOf(mode, name);
  return e?.when ? e.label : '';
};

/** An entry's row of a trace's schema; undefined for a name the schema does not hold. */
export const rowOf = (mode: Mode, name: string): TraceEntry | undefined => ENTRIES[mode].find((x) => x.name === name);

/** The entries a walkthrough step shows, in the schema's order. */
export const shownIn = (mode: Mode, step: string): string[] => ENTRIES[mode].filter((e) => e.step === step).map((e) => e.name);

/** Entries drawn over one colour range: every group of either schema, by entry. */
export const GROUP_OF = new Map<string, EntryName[]>();
const BOTH: RowOf<Entries>[][] = [SCHEMAS.self, SCHEMAS.encoder_decoder];
for (const schema of BOTH) {
  for (const e of schema) {
    if (!e.group) continue;
    const group = [...new Set(schema.filter((x) => x.group === e.group).map((x) => x.name))];
    GROUP_OF.set(e.name, [...new Set([...(GROUP_OF.get(e.name) ?? []), ...group])]);
  }
}

/** Entries whose rows are the sentence's tokens, or the source's (the sentence's in self mode). */
export const TOKEN_ROWS = new Set(ENTRIES.self.filter((e) => e.rows === 'tokens' || e.rows === 'source').map((e) => e.name));

/** The entries holding a score's query or key rows, in the order they are made (Q, then its stages). */
export const stagesOf = (role: 'query' | 'key'): (keyof SelfTrace)[] => SCHEMAS.self.filter((e) => e.role === role).map((e) => e.name);

/** The rows a score reads: the last stage the trace holds, with its name and label. */
export function scoredRows(trace: SelfTrace, role: 'query' | 'key'): { name: string; label: string; rows: Matrix } {
  const present = SCHEMAS.self.filter((e) => e.role === role && trace[e.name]);
  const last = present[present.length - 1];
  return { name: last.name, label: last.label, rows: trace[last.name] as Matrix };  // a query's or a key's rows: a matrix
}
