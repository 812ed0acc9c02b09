// The trained model's card, written from the header of its weights file (models/tiny-lm.bin),
// so the README says what the committed weights are:
//   node scripts/model-card.mjs           prints it
//   node scripts/model-card.mjs --write   writes it into README.md between its markers
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
export const BEGIN = '<!-- model card: written by scripts/model-card.mjs from models/tiny-lm.bin -->';
export const END = '<!-- end of the model card -->';

export function modelCard() {
  const bytes = readFileSync(new URL('models/tiny-lm.bin', root));
  const header = JSON.parse(bytes.subarray(0, bytes.indexOf(10)).toString('utf8'));
  const { card, shape } = header;
  const f = (x, digits = 2) => x.toFixed(digits);
  const { corpus, training } = card;
  const label = (h) => {
    const [name, score] = Object.entries({ 'previous-token': h.previous_token, 'duplicate-token': h.duplicate_token, induction: h.induction, 'first-token': h.first_token, 'current-token': h.current_token })
      .sort((a, b) => b[1] - a[1])[0];
    return score >= 0.3 ? name : 'mixed';
  };
  const rows = card.head_scores.map((h) => `| ${h.layer + 1} | ${h.head} | ${f(h.previous_token)} | ${f(h.duplicate_token)} | ${f(h.induction)} | ${f(h.first_token)} | ${f(h.current_token)} | ${label(h)} |`);
  return [
    BEGIN,
    '',
    `- **Architecture:** ${card.architecture}; ${bytes.length.toLocaleString('en')} bytes of weights, each a row's int8 step.`,
    `- **Tokens:** ${shape.vocabulary} word pieces: the 256 bytes and ${header.merges.length} merges learned from the training text (byte-pair encoding, as GPT-2's; ${f(corpus.train_characters / corpus.train_tokens)} characters a token there). Every text encodes; a character outside ASCII that no merge joins is read as its bytes.`,
    `- **Corpus:** Debian's \`${corpus.package}\` package, version ${corpus.version}: the files ${corpus.files.join(', ')}; ${corpus.fortunes.toLocaleString('en')} fortunes, every tenth held out (${corpus.held_out_characters.toLocaleString('en')} characters, ${corpus.held_out_tokens.toLocaleString('en')} tokens), never trained on (${corpus.train_characters.toLocaleString('en')} characters, ${corpus.train_tokens.toLocaleString('en')} tokens trained on).`,
    `- **Training:** ${training.steps.toLocaleString('en')} steps of Adam (learning rate ${training.learning_rate}, falling linearly over the last ${training.decay_steps.toLocaleString('en')} steps to 1/${training.decay_steps.toLocaleString('en')} of it), batches of ${training.batch} windows of ${training.short_context + 1} tokens for the first ${training.short_steps.toLocaleString('en')} steps and of ${shape.context + 1} after them, a share of ${training.repeat_share} of them holding a span written twice (${training.text_repeats} of those spans the text itself, the rest random printable word pieces), and from step ${training.sentences_from.toLocaleString('en')} a share of ${training.sentence_share} beginning instead with one of the text's sentences of 2 to 16 word pieces said twice; seed ${training.seed}; ${Math.round(training.seconds)} s on one core of the machine that trained it.`,
    `- **Held-out loss:** ${f(card.held_out_loss, 3)} nats per character (${f(card.held_out_loss_per_token, 3)} per token), against ${f(card.unigram_loss, 3)} per character for the token frequencies alone (the unigram baseline). Per character, so that it compares with a model of other tokens: the character model before this one scored 1.971.`,
    `- **In context:** a held-out span of ${shape.context / 2} tokens costs ${f(card.in_context, 3)} nats per token less read right after itself than after another span (Olsson et al.'s in-context learning; about 0 for a model that cannot look back at a copy).`,
    `- **Heads** on the probe (${card.probe}); at step 0 the best previous-token score was ${f(card.untrained?.previous_token ?? 0)} and the best induction score ${f(card.untrained?.induction ?? 0)}:`,
    '',
    'Layers are numbered from 1 and heads from 0, as the page numbers them.',
    '',
    '| layer | head | previous-token | duplicate-token | induction | first-token | current-token | label |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    END,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const card = modelCard();
  if (process.argv.includes('--write')) {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const start = readme.indexOf(BEGIN), end = readme.indexOf(END);
    if (start < 0 || end < 0) throw new Error(`README.md has no ${BEGIN} ... ${END}`);
    writeFileSync(new URL('README.md', root), readme.slice(0, start) + card + readme.slice(end + END.length));
  } else {
    console.log(card);
  }
}
