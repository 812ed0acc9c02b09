// The walkthrough: the pipeline as numbered steps, each with a sentence or two, its formula,
// and the trace matrices it uses (highlighted while the step is hovered or focused) and shows.
// What a step shows is the core's to say: every entry of the trace schema under the step's id,
// so an entry the core adds appears in its step with no code here; a step adds only its views
// (pictures that are no one entry), and the entries those draw in their own way.
import { shownIn, type Mode } from '../../state/trace-schema.js';

export interface Step {
  id: string;
  title: string;
  formula: string;
  text: string;
  uses: string[];   // matrices from earlier steps that this one reads
  shows: string[];  // trace keys and views drawn in this step
  needs?: string;   // a trace key without which the step is not shown (decode, online)
}

interface Written extends Omit<Step, 'shows'> {
  views?: string[];   // drawn after the step's entries
  drawn?: string[];   // entries a view draws (not again on their own)
}

const stepsOf = (mode: Mode, steps: Written[]): Step[] => steps.map(({ views = [], drawn = [], ...step }) => ({
  ...step, shows: [...shownIn(mode, step.id).filter((k) => !drawn.includes(k)), ...views],
}));

export const SELF_STEPS: Step[] = stepsOf('self', [
  { id: 'embed', title: 'Embed', formula: 'X = [e(w₁); …; e(wₙ)]   (+ PE when positional)',
    text: 'Every distinct word gets one random vector from the seed, so a repeated word is the same row twice. Sinusoidal positional encoding, when on, adds a pattern that depends only on the position.',
    uses: [] },
  { id: 'project', title: 'Project', formula: 'Q = X W_q    K = X W_k    V = X W_v',
    text: 'Three weight matrices turn each row of X into a query (what this token looks for), a key (what it offers to others) and a value (what it passes on). With several heads, head i uses its own block of columns.',
    uses: ['X', 'X_in'] },
  { id: 'rotate', title: 'Rotate (RoPE)', formula: 'q′ᵢ = R(i·θ) qᵢ    k′ⱼ = R(j·θ) kⱼ    θₚ = base^(−2p/d_k)',
    text: 'Rotary position embedding turns each pair of a head’s query and key columns by an angle that grows with the position: pair p turns by θₚ per token, the first pairs fast, the last ones slowly. Nothing is added to X, and V is left as it is.',
    uses: ['Q', 'K'], views: ['rope'], drawn: ['Q_rope', 'K_rope'], needs: 'Q_rope' },
  { id: 'score', title: 'Score', formula: 'dot: q·k    general: q W_a kᵀ    additive: v_a·tanh(q W_1 + k W_2)',
    text: 'Each query is compared with every key. The dot product is large when the two vectors point the same way; the other score functions put learned weights in between.',
    uses: ['Q', 'K'] },
  { id: 'alibi', title: 'Bias (ALiBi)', formula: 'logits = score × scale + bias,   bias_h[i, j] = −m_h |i − j|',
    text: 'ALiBi gives no position to the vectors at all: each head subtracts from a score its slope m_h times the distance between the two tokens, so far tokens weigh less. Heads with a large slope look near; those with a small one, far.',
    uses: ['raw_scores'], needs: 'bias' },
  { id: 'scale', title: 'Scale', formula: 'scores = score(q, k) × scale ÷ temperature,   scale = 1/√d_k by default',
    text: 'Dot products grow with the width d_k, which would make the softmax nearly one-hot; dividing by √d_k keeps them in a range where the weights stay soft. The temperature sharpens (< 1) or flattens (> 1) them further.',
    uses: ['raw_scores'] },
  { id: 'mask', title: 'Mask', formula: 'causal: j ≤ i     window D: |i − j| ≤ D',
    text: 'Masked positions (hatched) are left out of the softmax, as if their score were −∞. A causal mask lets each token see only itself and the tokens before it.',
    uses: ['scores'] },
  { id: 'softmax', title: 'Softmax', formula: 'weights[i, j] = exp(s_ij − max_j s_ij) / Σ_j exp(s_ij − max_j s_ij)',
    text: 'Each row of scores becomes a probability distribution: positive weights that add up to 1. Subtracting the row maximum first changes nothing mathematically but keeps exp() from overflowing. Hard attention puts all the weight on the top score instead.',
    uses: ['scores', 'mask'], views: ['arcs'] },
  { id: 'weigh', title: 'Weigh', formula: 'head = weights · V',
    text: 'Each output row is a mix of the value vectors, in the proportions the weights give: the token “reads” mostly from the tokens it attends to.',
    uses: ['weights', 'V'] },
  { id: 'concat', title: 'Concatenate', formula: 'output = [head₁ … head_h] W_o',
    text: 'The heads’ outputs sit side by side and one more matrix mixes them back to d_model columns. With a single head the head’s output is the output.',
    uses: ['heads'] },
  { id: 'sublayer', title: 'Add & norm', formula: 'LayerNorm(X + output)',
    text: 'The Transformer adds the input back (the residual connection) and normalises each row to mean 0 and variance 1.',
    uses: ['X_in', 'X', 'output'] },
  { id: 'decode', title: 'Generate with a KV cache', formula: 'step t:  q, k, v = x_t W;   K ← [K; k],  V ← [V; v];   y_t = softmax(q Kᵀ × scale) V',
    text: 'A decoder produces one position at a time. Each step projects only the new token, appends its key and value to the cache, and scores one query row against every cached key; step t gives row t of the output above. Without the cache, every earlier key and value would be projected again at every step.',
    uses: ['X', 'W_q', 'W_k', 'W_v', 'output'], needs: 'decode' },
  { id: 'online', title: 'Online softmax (FlashAttention)', formula: 'per block:  m ← max(m, max s);   l ← l·e^(m_before − m) + Σ e^(s − m);   o ← o·e^(m_before − m) + Σ e^(s − m) v;   head = o / l',
    text: 'FlashAttention visits the keys a block at a time and never holds a whole row of weights: per query it keeps the running maximum m, the running sum l and the running output o, and rescales them whenever a block raises the maximum. After the last block o / l is exactly the head’s output.',
    uses: ['scores', 'V', 'heads'], needs: 'online' },
]);

export const ENCODER_DECODER_STEPS: Step[] = stepsOf('encoder_decoder', [
  { id: 'inputs', title: 'Inputs', formula: 'h (decoder state),   a₁ … a_m (annotations)',
    text: 'At one decoding step, the decoder’s hidden state looks at every hidden state of the encoder (the annotations, one row each).',
    uses: [] },
  { id: 'score', title: 'Score', formula: 'score_j = h · a_j   (or general / additive) × scale ÷ temperature',
    text: 'One number per annotation says how well it matches what the decoder needs now.',
    uses: ['decoder_state', 'annotations'] },
  { id: 'softmax', title: 'Softmax', formula: 'weights = softmax(scores)',
    text: 'Large differences between scores make the weights nearly one-hot: a score of 927 against 929 leaves the others with almost nothing.',
    uses: ['scores'] },
  { id: 'weigh', title: 'Weigh', formula: 'weighted_j = weights_j × a_j',
    text: 'Each annotation is multiplied by its weight; those with tiny weights all but vanish.',
    uses: ['weights', 'annotations'] },
  { id: 'context', title: 'Context', formula: 'context = Σ_j weighted_j',
    text: 'Adding the weighted annotations gives the context vector for this step.',
    uses: ['weighted'] },
  { id: 'output', title: 'Output', formula: 'output = tanh([context, h] W_c)',
    text: 'The context joins the decoder state and one layer turns them into this step’s output.',
    uses: ['context', 'decoder_state'] },
]);
