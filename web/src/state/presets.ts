// One click loads a seed article's worked example, with its own numbers.
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
];
