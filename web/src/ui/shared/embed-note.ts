// What the Embed step says about where X's numbers come from. A learner expects "dog" and
// "cat" to give different numbers; with vectors handed out by order of first appearance they
// give the same ones, and nothing on screen would say so.
import type { Spec } from '../../core/attention.js';

/** The line under X, or '' when the rows are the learner's own. */
export function embeddingNote(spec: Spec): string {
  if (spec.X) return '';
  if ((spec.embedding_init as string) === 'per_word') {
    return 'Per word: each word’s vector depends only on the seed and the word, so “the” has the same row in every sentence and “dog” and “cat” differ.';
  }
  return 'The words make no difference: each new word takes the seed’s next vector, in order of first appearance, so “the dog sat” gets exactly the numbers of “the cat sat”. Embeddings: per word gives every word a vector of its own.';
}

/** What the Embed step says X is when the learner typed or pasted it: not the seed's. */
export const OWN_ROWS = 'X is yours: the rows you typed or pasted, one per token (a word you add later takes the seed’s row for it, and a note says so). The reset button under X brings back the seed’s vectors.';
