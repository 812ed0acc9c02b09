// One click loads a worked example, with its own numbers: the trained model, the seed articles'
// examples, then the attention of current models (RoPE, grouped-query, ALiBi, cross-attention,
// the KV cache, FlashAttention's online softmax).
import type { Spec } from '../core/attention.js';
import type { State } from './settings.js';

export interface Preset {
  id: string;
  label: string;
  note: string;
  state: Partial<State>;
  overrides: Partial<Spec>;
}

export const PRESETS: Preset[] = [
  // The trained model (state/model-mode.ts): a sentence said twice, for its induction head.
  {
    id: 'trained',
    label: 'A trained model',
    note: 'A small language model, trained on Debian’s fortunes: its weights are learned, not drawn from a seed. Beside “Repeat my sentence”, what its induction head does on the second copy, counted on this text.',
    state: { model: 'tiny-lm', sentence: 'The cat sat on the mat. The cat sat on the mat.' },
    overrides: {},
  },
  {
    id: 'seed000',
    label: 'Decoder state [5,1,20]',
    note: 'Encoder-decoder dot attention: the decoder state [5, 1, 20] scores 927 against the annotation [3, 12, 45]; the softmax all but wipes out the second and third annotations.',
    state: { mode: 'encoder_decoder', score: 'dot', sentence: 'a1 a2 a3 a4' },
    overrides: { decoder_state: [5, 1, 20], annotations: [[3, 12, 45], [59, 2, 5], [1, 43, 5], [4, 3, 45.3]] },
  },
  {
    id: 'seed001',
    label: '“This is book”',
    note: 'Three 5-wide embeddings, projections to 3 columns, scores divided by √5 (the embedding size), then a softmax per row.',
    state: { sentence: 'This is book', score: 'scaled_dot', scale: 1 / Math.sqrt(5), d_k: 3, weight_init: 'normal' },
    overrides: { X: [[0.1, -0.3, 0.5, -0.2, 0.7], [-0.6, 0.2, 0.9, -0.1, 0.3], [0.8, -0.5, -0.4, 0.6, -0.9]] },
  },
  {
    id: 'seed004',
    label: '“i miss the old kanye”',
    note: 'The printed embeddings with np.random.seed(42) and randint(3) weight matrices: the output matches the article\'s printed attention to 8 decimals.',
    state: { sentence: 'i miss the old kanye', seed: 42, weight_init: 'int:3', score: 'scaled_dot' },
    overrides: {
      X: [[0.46676289, 0.85994041, 0.68030754], [0.52477466, 0.39986097, 0.04666566], [0.45049925, 0.01326496, 0.94220176],
          [0.97375552, 0.23277134, 0.09060643], [0.61838601, 0.38246199, 0.98323089]],
    },
  },
  {
    id: 'causal',
    label: 'Causal, 2 heads',
    note: '“chasing” may only look at the words before it: the causal mask hides the future, in each of two heads.',
    state: { sentence: 'The FBI is chasing the thief', mask: 'causal', heads: 2, d_model: 8 },
    overrides: {},
  },
  // The attention of current models: each preset turns on one idea, with the views it adds.
  {
    id: 'llama',
    label: 'Llama-style layer',
    note: 'Rotary positions, 8 query heads sharing 2 key/value heads, a causal mask: the attention of Llama and Mistral, at d_model 16 (d_k 2, one turning pair per head: set d_k to 8 to see slower pairs).',
    state: { sentence: 'The FBI is chasing the thief', positional: 'rope', heads: 8, kv_heads: 2, mask: 'causal', d_model: 16 },
    overrides: {},
  },
  {
    id: 'mqa',
    label: 'Multi-query',
    note: 'Four query heads read one key/value head: the KV cache a decoder keeps is a quarter of multi-head attention’s.',
    state: { sentence: 'The FBI is chasing the thief', heads: 4, kv_heads: 1, mask: 'causal', d_model: 8 },
    overrides: {},
  },
  {
    id: 'alibi',
    label: 'ALiBi',
    note: 'No position in the vectors: each head subtracts its slope times the distance from the scores, so far tokens weigh less.',
    state: { sentence: 'The FBI is chasing the thief', positional: 'alibi', heads: 4, mask: 'causal', d_model: 8 },
    overrides: {},
  },
  {
    id: 'cross',
    label: 'Translation (cross-attention)',
    note: 'The French sentence asks, the English source answers: each row of the weights says where a French word looks in the English one.',
    state: { mode: 'cross', sentence: 'le chat noir dort', source: 'the black cat is asleep', d_model: 8, heads: 2 },
    overrides: {},
  },
  {
    id: 'kv-cache',
    label: 'Generate with a KV cache',
    note: 'The layer run as a decoder generates it, one token a step: each step adds one key and one value to the cache and reproduces one row of the weights.',
    state: { sentence: 'The FBI is chasing the thief', mask: 'causal', decode: true, heads: 2, d_model: 8 },
    overrides: {},
  },
  {
    id: 'flash',
    label: 'FlashAttention blocks',
    note: 'The softmax computed online, two keys at a time, as FlashAttention does: a running maximum, sum and output, rescaled as each block comes in.',
    state: { sentence: 'The FBI is chasing the thief', online_block: 2 },
    overrides: {},
  },
];
