// The trace schema as the page reads it: a row per entry of each trace, the captions of entries
// shown only with a setting, the entries whose rows are tokens, the colour groups and the stages
// of the rows a score reads, all from the core's rows (trace-schema.json, written at build time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { importTSTree } from '../../e2e/typescript.mjs';

const ts = await importTSTree('web/src/state/trace-schema.ts');
const SCHEMA = JSON.parse(readFileSync(new URL('../../../web/src/core/trace-schema.json', import.meta.url)));

test('an entry\'s row is the core\'s, and a caption is said only where a setting brings the entry', () => {
  for (const mode of ['self', 'encoder_decoder']) {
    for (const row of SCHEMA[mode]) {
      assert.deepEqual(ts.rowOf(mode, row.name), row);
      assert.equal(ts.captionOf(mode, row.name), row.when ? row.label : '', `${mode} ${row.name}`);
    }
  }
  assert.equal(ts.rowOf('self', 'no such entry'), undefined);
  assert.equal(ts.captionOf('self', 'Q_rope'), ts.rowOf('self', 'Q_rope').label);
  assert.equal(ts.captionOf('self', 'weights'), '');
});

test('token rows, colour groups and a score\'s stages follow the rows', () => {
  assert.ok(ts.TOKEN_ROWS.has('X') && ts.TOKEN_ROWS.has('K') && ts.TOKEN_ROWS.has('weights'));
  assert.ok(!ts.TOKEN_ROWS.has('W_q'), 'a weight matrix\'s rows are no tokens');
  assert.deepEqual(ts.stagesOf('query'), ['Q', 'Q_norm', 'Q_rope']);
  assert.deepEqual(ts.stagesOf('key'), ['K', 'K_norm', 'K_rope']);
  for (const [name, group] of ts.GROUP_OF) {
    assert.ok(group.includes(name), `${name} is in its own group`);
    const row = ts.rowOf('self', name) ?? ts.rowOf('encoder_decoder', name);
    for (const other of group) {
      const o = ts.rowOf('self', other) ?? ts.rowOf('encoder_decoder', other);
      assert.equal(o.group, row.group, `${other} beside ${name}`);
    }
  }
  // the rows a score reads: the last stage the trace holds
  const q = [[1]], turned = [[2]];
  assert.equal(ts.scoredRows({ Q: q }, 'query').rows, q);
  assert.equal(ts.scoredRows({ Q: q, Q_rope: turned }, 'query').name, 'Q_rope');
  assert.ok(ts.isSelf({ spec: { mode: 'cross' } }));
  assert.ok(!ts.isSelf({ spec: { mode: 'encoder_decoder' } }));
  assert.ok(!ts.isSelf({ layers: [], spec: {} }), 'the trained model\'s trace holds self traces, and is none');
});
