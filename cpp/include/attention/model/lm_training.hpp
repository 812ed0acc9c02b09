#pragma once
// Training the language model (language_model.hpp) on text: next-token cross-entropy over
// batches of windows, the backward pass analytic (no tape), Adam. Deterministic from the seed:
// the same settings and text give the same weights, natively and in wasm.
//
// The batches come from one NumpyRandom stream (the seed + 1; the weights draw from the seed).
// Each window is n + 1 tokens from a random start (randint), n = short_context for the first
// short_steps steps and the context after them; then u = rand(), and if u < repeat_share, a
// span of L = 8 + randint(min(64, (n + 1) / 2) - 7) tokens at a random place (randint) is
// written twice in a row: v = rand(), and if v < text_repeats the span is the text's own, else
// random tokens (each by randint over the trainer's random ids: the printable word pieces). Only
// an induction head can predict the second copy of random tokens (no statistics of English can),
// so they teach exactly that: on natural text alone induction heads form late, with a share of repeats within a few thousand
// steps (Olsson et al. 2022). The text's own spans teach the heads to copy words too: trained on
// random spans alone, the character model copied random characters and ignored a repeated English sentence;
// with nine spans in ten the text's, one head does both.
// The span's length and place vary, so no head can find the copy by its distance alone.
//
// The learning rate: learning_rate, and over the last decay_steps of a run of `steps` steps it
// falls linearly, to learning_rate / decay_steps at the last step (where it stays if the run
// goes on): at step t (from 0), learning_rate x min(1, max(1, steps - t) / decay_steps). The
// model then guesses the copied word more often, and its held-out loss is lower, than at a
// constant rate.
//
// Sentences said twice: from step sentences_from on (on windows of the context), before the
// rest (so one more rand() per window), if rand() < sentence_share the window begins with one
// of the text's sentences of 2 to 16 tokens (randint over them; a sentence ends with a piece
// ending in '.', '!', '?' or a newline) written twice, then the text that follows it. That is
// what a learner types and repeats: with spans of 8 to 64 tokens at random places alone, the
// heads copied such a sentence said twice less surely (README.md gives the figures).
//
// Short windows first: a key's share of a uniform row is 1/n, and so is the pull towards the
// right one, so both heads of the induction circuit form about as many times faster as the
// windows are shorter; with RoPE the heads then work at every distance. At context 128 alone
// they had not formed in 6000 steps; after 2000 steps of 32 they are there within 250 more.

#include <cstdint>
#include <utility>
#include <vector>

#include "attention/model/language_model.hpp"
#include "attention/train/optimizer.hpp"

namespace attention {

// The defaults are the shipped model's recipe; lm_training_settings() is their table.
struct LmTrainingSettings {
  LmShape shape;
  std::uint32_t seed = 1;
  long batch_size = 8;
  double learning_rate = 0.003;
  double repeat_share = 0.75;
  double text_repeats = 0.9;  // of the repeated spans, the share that repeat the text rather than random tokens
  double sentence_share = 0.75;  // from step sentences_from on, the share of windows that begin with a sentence said twice
  long sentences_from = 2000;
  long steps = 5000;         // the run's length, which the learning rate's decay counts back from
  long decay_steps = 1500;   // 0: a constant rate
  long short_steps = 2000;  // the first steps, on windows of short_context tokens
  long short_context = 32;
  long eval_windows = 64;   // held-out windows of context + 1 tokens, from the start of the held-out text
};

// The table of the settings a run takes (the same Setting rows as the spec's and the trainer's):
// seed, learning_rate, batch_size, repeat_share, text_repeats, sentence_share, sentences_from,
// steps, decay_steps, short_steps, eval_windows. The shape is the model's.
const std::vector<Setting>& lm_training_settings();
Result<LmTrainingSettings> parse_lm_training(const nlohmann::json& j);

struct LmBatchPass {
  double loss = 0;                  // mean next-token cross-entropy, nats per token
  std::vector<Matrix> x;            // layers + 1 of (B*n, d): the residual stream into each layer, then the last
  std::vector<Matrix> Q, K, V;      // layers of (B*n, d); Q and K after RoPE
  std::vector<std::vector<Matrix>> attention;  // layers x B*h of (n, n), causal
  std::vector<Matrix> concat;       // layers of (B*n, d)
  Matrix probabilities;             // (B*n, V)
  std::vector<double> losses;       // (B*n): each position's -log p(its next token)
};

// windows: B sequences of n + 1 ids; the model reads the first n and predicts the last n.
LmBatchPass lm_forward(const LmShape& shape, const LmWeights& w, const std::vector<std::vector<int>>& windows);
LmWeights lm_backward(const LmShape& shape, const LmWeights& w, const std::vector<std::vector<int>>& windows,
                      const LmBatchPass& f);

// The mean loss over the first `windows` windows of context + 1 tokens of text, side by side.
double text_loss(const LmShape& shape, const LmWeights& w, const std::vector<int>& text, long windows);

// The characters (UTF-8 lead bytes) per token of the tokens text_loss(shape, w, text, count)
// predicts: its nats per token divided by this are nats per character, a unit that compares
// models whatever their tokens.
double characters_per_token(const WordPieces& pieces, const std::vector<int>& text, long context, long count);
long characters(const std::string& utf8);  // its UTF-8 lead bytes: the characters a loss per character counts

// How much cheaper a text is when the model has just read it (Olsson et al.'s in-context
// learning, on a span written twice): over the first `spans` spans of context / 2 tokens of
// text, each read in the second half of a window twice, once after the next span and once after
// itself, the mean loss on its tokens the first way minus the second way, nats per token. The
// same tokens at the same positions, so only the copy before them differs: about 0 for a model
// that cannot look back at a copy, and it jumps as induction heads form. (A span's first token,
// which nothing before it predicts, is left out.)
double in_context_score(const LmShape& shape, const LmWeights& w, const std::vector<int>& text, long spans);

// Each layer's head scores on a probe: `length` random tokens (np.random.seed(seed), randint
// over printable_pieces() of the model's tokens, an index into them) repeated twice, as Olsson et al. measure induction heads;
// none when the two copies do not fit in the context.
std::vector<std::vector<HeadScores>> probe_head_scores(const LanguageModel& model, long length = 50,
                                                       std::uint32_t seed = 0);

// Cross-entropy of `held_out` under the add-one unigram distribution of `train`, nats per token:
// the loss of a model that knows only how often each token occurs.
double unigram_loss(const std::vector<int>& train, const std::vector<int>& held_out, long vocabulary);
// The same per character of the held-out text (held_out its tokens): the baseline in the unit
// the model's held-out loss is shown in.
double unigram_loss_per_character(const std::vector<int>& train, const std::vector<int>& held_out, const std::string& held_out_text,
                                  long vocabulary);

class LmTrainer {
 public:
  // train and held_out: texts in `pieces`, train holding more than context + 1 ids, held_out
  // at least context + 1. A random span draws from printable_pieces(pieces) (randint over them).
  LmTrainer(const LmTrainingSettings& settings, std::vector<int> train, std::vector<int> held_out, const WordPieces& pieces);

  double step();                // one batch and one update; the batch's loss before it
  double held_out_loss() const;  // mean over the evaluation windows
  double in_context() const;     // in_context_score on the held-out text, over half as many spans (two windows each)
  long steps() const { return optimizer_.steps(); }
  const LmWeights& weights() const { return weights_; }
  const LmTrainingSettings& settings() const { return settings_; }

 private:
  LmTrainingSettings settings_;
  std::vector<int> train_, held_out_, random_;
  std::vector<std::pair<std::size_t, std::size_t>> sentences_;  // each sentence of train_ of 2 to 16 tokens: its start, its length
  LmWeights weights_;
  Optimizer optimizer_;
  NumpyRandom batches_;
};

}  // namespace attention
