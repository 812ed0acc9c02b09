// The walkthrough's steps show what the core's trace schema puts under them: every entry a step
// drew when the lists were written by hand, in the same order, and the views beside them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importTSTree } from '../../../e2e/typescript.mjs';

const { SELF_STEPS, ENCODER_DECODER_STEPS } = await importTSTree('web/src/ui/views/steps.ts');
const shows = (steps) => Object.fromEntries(steps.map((s) => [s.id, s.shows]));

test('each self-attention step shows its entries of the schema, then its views', () => {
  assert.deepEqual(shows(SELF_STEPS), {
    embed: ['X', 'X_source', 'positional', 'X_in'],
    project: ['W_q', 'W_k', 'W_v', 'Q', 'K', 'V', 'kv_group', 'Q_norm', 'K_norm'],
    rotate: ['rope_angles', 'rope'],
    score: ['raw_scores', 'W_a', 'W_1', 'W_2'],
    alibi: ['alibi_slopes', 'bias'],
    scale: ['scores'],
    mask: ['mask'],
    softmax: ['weights', 'arcs'],
    weigh: ['heads'],
    concat: ['concat', 'W_o', 'output'],
    sublayer: ['residual_sum', 'normalized'],
    decode: ['decode'],
    online: ['online'],
  });
});

test('each encoder-decoder step shows its entries of the schema', () => {
  assert.deepEqual(shows(ENCODER_DECODER_STEPS), {
    inputs: ['decoder_state', 'annotations'],
    score: ['scores', 'W_a', 'W_1', 'W_2'],
    softmax: ['weights'],
    weigh: ['weighted'],
    context: ['context'],
    output: ['W_c', 'output'],
  });
});
