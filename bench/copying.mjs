// What the trained model does on the sentences a learner types, each said twice (S + " " + S), as
// the page's own caption counts it (model-mode.ts's repeatLag and copying): for the last layer's
// best copying head, the share of the second copy's rows whose largest weight is on the token
// after the earlier twin and the mean weight there; and how often the model's next-token guess
// (the argmax of log_probs) is the token that follows, on the rows of the second copy that have
// one (pooled over the sentences). The sentences (bench/learner-sentences.txt) were written for
// this benchmark, not taken from the corpus, and a check here keeps it so. The model is
// deterministic: one run.
//
// Beside them, what the tokens allow: the share of those rows whose token occurs once before
// them (its twin and nothing else). A head that finds the twin by its token alone splits its
// weight between the places after every earlier occurrence, so on the other rows it can only
// be right by luck or by also matching the token before.
import { readFileSync } from 'node:fs';
import { importTSTree } from '../tests/e2e/typescript.mjs';

const { repeatLag, copying } = await importTSTree('web/src/state/model-mode.ts');

export const SENTENCES = readFileSync(new URL('./learner-sentences.txt', import.meta.url), 'utf8').split('\n').filter(Boolean);

export function copyOnSentences(core, corpus) {
  const seen = SENTENCES.filter((s) => corpus.includes(s));
  if (seen.length) throw new Error(`bench/learner-sentences.txt: in the corpus: ${seen.join(' | ')}`);
  const rows = SENTENCES.map((sentence) => {
    const trace = core.trace({ model: 'tiny-lm', sentence: `${sentence} ${sentence}` });
    if (trace.error) throw new Error(`${sentence}: ${trace.error.message}`);
    const lag = repeatLag(trace.tokens);
    if (lag === null) throw new Error(`${sentence}: its tokens said twice do not repeat`);
    const last = trace.layers.at(-1);
    const heads = last.weights.map((w) => copying(w, trace.tokens, lag));
    let right = 0, guessed = 0;
    for (let i = lag; i + 1 < trace.tokens.length; i++) {
      const row = trace.log_probs[i];
      right += row.indexOf(Math.max(...row)) === trace.vocab.indexOf(trace.tokens[i + 1]);
      guessed++;
    }
    let rows = 0, once = 0;
    for (let i = lag; i < trace.tokens.length; i++) {
      if (trace.tokens[i] !== trace.tokens[i - lag]) continue;
      rows++;
      once += trace.tokens.slice(0, i).filter((t) => t === trace.tokens[i]).length === 1;
    }
    return { sentence, layers: trace.layers.length, heads, right, guessed, one_twin: once / rows };
  });
  const share = (c) => c.hits / c.rows;
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const byHead = rows[0].heads.map((_, h) => mean(rows.map((r) => share(r.heads[h]))));
  const best = byHead.indexOf(Math.max(...byHead));
  return {
    sentences: rows.length, layer: rows[0].layers - 1, head: best,
    hits: mean(rows.map((r) => share(r.heads[best]))), worst_hits: Math.min(...rows.map((r) => share(r.heads[best]))),
    worst_sentence: rows.reduce((w, r) => (share(r.heads[best]) < share(w.heads[best]) ? r : w)).sentence,
    weight: mean(rows.map((r) => r.heads[best].mean)),
    guess: rows.reduce((a, r) => a + r.right, 0) / rows.reduce((a, r) => a + r.guessed, 0),
    one_twin: mean(rows.map((r) => r.one_twin)), worst_one_twin: Math.min(...rows.map((r) => r.one_twin)),
    per_sentence: rows.map((r) => ({ sentence: r.sentence, hits: r.heads[best].hits, rows: r.heads[best].rows, weight: r.heads[best].mean, guessed: r.right, of: r.guessed, one_twin: r.one_twin })),
  };
}
