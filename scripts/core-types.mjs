// Writes what the page knows of the core's tables before the core has loaded, from the wasm
// build through the same load() the page uses:
//   web/src/core/trace-schema.json  the trace's schema: a row per entry (its shape, when it is
//                                   there, its kind, the step it is shown under, its colour group)
//   web/src/core/tables.d.ts        the Spec type from the settings table, the Trace types
//                                   (the trained model's too) from the schema and HeadScores from
//                                   its head patterns, so a new key, entry or pattern is typed
//                                   with no code
// Both are build output (gitignored): the core's tables are their one source.
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { importTSTree } from '../tests/e2e/typescript.mjs';

// The page's loader, from its TypeScript: this runs before the build writes dist/.
const { load } = await importTSTree('web/src/core/attention.ts');

const core = await load();
const schema = core.schema(), settings = core.settings();

/** A setting's value as TypeScript: choices spelled with a number (int:N, window:D) as templates. */
function specType(row) {
  const choice = (c) => (/:[A-Z]$/.test(c) ? `\`${c.replace(/:[A-Z]$/, ':${number}')}\`` : JSON.stringify(c));
  switch (row.kind) {
    case 'string': return 'string';
    case 'string[]': return 'string[]';
    case 'integer': case 'number': return 'number';
    case 'boolean': return 'boolean';
    case 'enum': case 'init': return row.choices.map(choice).join(' | ');
    case 'mask': return `${row.choices.map(choice).join(' | ')} | Matrix`;
    case 'matrix': return 'Matrix';
    case 'vector': return 'number[]';
    default: throw new Error(`${row.key}: no TypeScript type for kind ${row.kind}`);
  }
}

// Entries whose value is a structure of its own, typed beside the contract (attention.d.ts), by
// name or, for every trace, by kind; a detector's scores nest as its shape does.
const STRUCTURES = { decode: 'DecodeStep[]', decode_cost: 'DecodeCost', online: 'OnlineBlock[][]', kv_costs: 'KvCost[]', spec: 'TraceSpec' };
const KINDS = { layers: 'ModelLayer[]' };

/** An entry's value as TypeScript: from its kind, and for numbers from how many terms its shape has. */
function entryType(e, structures = STRUCTURES) {
  if (structures[e.name]) return structures[e.name];
  if (KINDS[e.kind]) return KINDS[e.kind];
  const terms = e.shape === '' ? 0 : e.shape.split(' x ').length;
  if (e.kind === 'detector') return `HeadScores${'[]'.repeat(terms)}`;
  if (e.kind === 'text') return 'string[]';
  if (e.kind === 'index') return 'number[]';
  return ['number', 'number[]', 'Matrix', 'Matrix[]'][terms];
}

const ABOUT = { SelfTrace: 'Self- and cross-attention', EncoderDecoderTrace: 'Encoder-decoder attention', ModelTrace: 'The trained model (`model: "tiny-lm"`)' };
const trace = (name, rows, structures) => `/** ${ABOUT[name]}: an entry per row of the core's schema. */
export interface ${name} {
${rows.map((e) => `  /** ${e.label}${e.shape ? ` (${e.shape})` : ''}${e.when ? `; with ${e.when}` : ''} */\n  ${e.name}${e.when ? '?' : ''}: ${entryType(e, structures)};`).join('\n')}
}`;

/** A field's type in derive()'s records as TypeScript ("integer" is a number). */
const derivedType = (type) => type.split(' | ').map((t) => t.replace(/^integer/, 'number')).join(' | ');
const derivedFields = (fields) => fields.length === 0 ? '{}' : `{ ${fields.map((f) => `${f.key}${f.optional ? '?' : ''}: ${derivedType(f.type)};`).join(' ')} }`;
/** A record of derive()'s output as a TypeScript type: what it extends, its fields, one of its sets of fields besides. */
const derived = (r) => `/** ${r.about} */
export type ${r.name} = ${r.alias || [...r.extends, ...(r.fields.length ? [derivedFields(r.fields)] : []),
  ...(r.one_of.length ? [`(${r.one_of.map(derivedFields).join(' | ')})`] : [])].join(' & ')};`;

const types = `// Written by scripts/core-types.mjs from the core's tables: edit those, not this.
// By the package's own name: './attention.js' would resolve to the core's source (attention.ts).
import type { DecodeCost, DecodeStep, KvCost, Matrix, ModelLayer, ModelTraceSpec, OnlineBlock, TraceSpec } from 'attention-playground';

/** The spec: a key per row of the core's settings table. */
export interface Spec {
${settings.map((row) => `  /** ${row.help.replace(/\*\//g, '* /')} */\n  ${row.key}?: ${specType(row)};`).join('\n')}
}

/** The keys of the spec that hold a matrix (a vector: one row). */
export type MatrixKey = ${settings.filter((row) => row.kind === 'matrix' || row.kind === 'vector').map((row) => JSON.stringify(row.key)).join(' | ')};

/** What a head's weights do: the share of its attention on each pattern, over the rows the
 *  pattern covers (1 is a perfect head; 0 where no row has the pattern). */
export interface HeadScores {
${schema.head_patterns.map((p) => `  ${p}: number;`).join('\n')}
}

${trace('SelfTrace', schema.self)}

${trace('EncoderDecoderTrace', schema.encoder_decoder)}

${trace('ModelTrace', schema.model, { ...STRUCTURES, spec: 'ModelTraceSpec' })}

// What derive() writes (a clicked cell's derivation), record by record.
${schema.derivation.map(derived).join('\n')}
`;

/** Rewritten only when it changed, so a rebuild leaves the file (and vite's cache) alone. */
function write(path, text) {
  const out = new URL(path, import.meta.url);
  if (!existsSync(out) || readFileSync(out, 'utf8') !== text) writeFileSync(out, text);
}
// The page reads the schemas of the traces its views draw; the trained model's and the
// derivation's are typed, not read (their rows would be bytes of every first screen's code for nothing).
const { model: _typedOnly, derivation: _typesOnly, ...read } = schema;
write('../web/src/core/trace-schema.json', `${JSON.stringify(read, null, 1)}\n`);
write('../web/src/core/tables.d.ts', types);
console.log(`web/src/core/trace-schema.json, tables.d.ts: ${schema.self.length} + ${schema.encoder_decoder.length} + ${schema.model.length} trace entries, ${settings.length} settings`);
