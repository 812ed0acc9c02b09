#pragma once
// The trained model: a small decoder-only transformer whose attention a learner can read.
// Attention only, as the toy models of Elhage et al.'s "A Mathematical Framework for
// Transformer Circuits": every head writes straight into the residual stream, so each one is
// a pattern on the page and nothing else hides the computation; two layers are the fewest in
// which induction heads can form (a head of layer 1 reads what a previous-token head of
// layer 0 wrote). Tokens are word pieces (model/word_pieces.hpp): with characters, a head that
// looks for the twin of the token before it finds every space and every "t" of a sentence, and on
// the short sentences a learner types it copied almost nothing; a word piece's twin is rare.
// Positions twice: RoPE in every layer makes a head's pattern depend on how far back a key is,
// so heads learned on short windows work on long ones (with absolute positions alone, induction
// heads had not formed at context 128 in 6000 steps); the learned P, from the sinusoidal
// encoding, adds what every position shares (its slow columns), which queries and keys without
// a bias need to look one back regardless of the token (with RoPE alone, the previous-token
// heads had not formed in 2500 steps).
//
//   x_0 = E[tokens] + P[0:n]                                         (n, d)   P learned, from the sinusoidal encoding
//   layer l: a_l = attention(x_l; W_q, W_k, W_v, W_o, causal, RoPE)  (n, d)   heads of d/h columns
//            x_{l+1} = x_l + a_l
//   logits = x_L W_U + b_U                                           (n, V)
//   log_probs = log_softmax(logits)                                  (n, V): the next token after each position
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "attention/core/attention.hpp"
#include "attention/core/error.hpp"
#include "attention/core/scalar.hpp"
#include "attention/model/word_pieces.hpp"

namespace attention {

struct LmShape {
  long vocabulary = 384;  // V: the word pieces, 256 bytes and 128 merges
  long context = 128;    // the longest input in tokens, and the rows of P
  long d_model = 96;
  long heads = 4;       // per layer; divides d_model
  long layers = 2;
  double rope_base = 10000;  // RoPE in every layer: pairs (2i, 2i+1) of a head's columns turn by position x base^(-2i/d_k)
};

// The shape said in words, for the model card ("attention-only decoder: 2 layers of 4 causal
// heads with RoPE, d_model 96, learned positions, context 128, 384 word pieces"): every card says
// how its model is built from the shape it was built with.
std::string architecture(const LmShape& shape);

struct LmLayer {
  Matrix W_q, W_k, W_v, W_o;  // (d, d); head i takes column block i of W_q, W_k, W_v and row block i of W_o
};

struct LmWeights {
  Matrix E;                    // (V, d) token embeddings
  Matrix P;                    // (context, d) learned positions
  std::vector<LmLayer> layers;
  Matrix W_U;                  // (d, V) unembedding
  Matrix b_U;                  // (1, V)
};

// Every tensor with its name (E, P, layers.0.W_q ... W_U, b_U), in the file's order.
std::vector<std::pair<std::string, Matrix*>> named(LmWeights& w);
std::vector<std::pair<std::string, const Matrix*>> named(const LmWeights& w);
LmWeights zeros_like(const LmWeights& w);

// np.random.seed(seed), then randn in the order of named(), P aside: E as drawn, W_q, W_k, W_v,
// W_o and W_U times 1/sqrt(d); P is the sinusoidal encoding (then learned), b_U zeros (neither
// drawn). Unit-variance embeddings give scores of unit variance from the start: with a tenth of
// that, attention stayed near uniform and the previous-token heads formed at half the pace.
LmWeights init_weights(const LmShape& shape, std::uint32_t seed);

// The word pieces the playground's model reads: its merges are learned from the training text by
// `npm run train-model`, which writes them into the core (model/tiny_lm_merges.cpp) beside the
// weights, so that a sentence becomes tokens before the weights arrive.
const std::vector<std::array<int, 2>>& tiny_lm_merges();
const WordPieces& tiny_lm_pieces();  // built from them once

struct LanguageModel {
  LmShape shape;
  WordPieces pieces;               // its tokens; pieces.names is the vocabulary, in id order
  LmWeights weights;
  nlohmann::json card;             // how it was trained: corpus, steps, losses, head scores
};

struct LmTrace {
  std::vector<std::string> tokens;
  std::vector<int> ids;
  std::vector<SelfTrace<double>> layers;  // each layer's attention, with X its residual stream in
  std::vector<Spec> specs;                // each layer as the self-attention spec it ran (layer_spec)
  Matrix log_probs;                       // (n, V)
};

// Layer l as the playground's self-attention spec: what run_model runs, what a clicked cell of
// the layer is derived from, and what the NumPy program's head pass is written from.
Spec layer_spec(const LanguageModel& model, const std::vector<std::string>& tokens, const Matrix& X, std::size_t l);

// The forward pass with every intermediate. Each layer is the playground's own self-attention
// (run_self of a causal spec with the layer's matrices, X the residual stream into it, and RoPE
// when the model has it), so every view and derivation reads it as it reads any trace. ids: 1 to context tokens below the vocabulary.
Result<LmTrace> run_model(const LanguageModel& model, const std::vector<int>& ids);

}  // namespace attention
