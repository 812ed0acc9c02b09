#pragma once
// The spec: the plain settings of one attention computation, as the core reads them. Read from
// JSON (and refused, with the key at fault) by io/spec.hpp, whose settings table gives the
// defaults of the fields below that have no initialiser.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attention/core/scalar.hpp"

namespace attention {

// per_word (embeddings only): each word's vector from a stream of its own (word_seed.hpp),
// uniform like np.random.rand; the spec's stream then draws the weights alone.
enum class Init { uniform, normal, integer, per_word };
struct InitSpec {
  Init kind = Init::normal;
  std::uint64_t high = 0;  // for integer: draws in [0, high)
};

enum class ScoreKind { dot, scaled_dot, general, additive };
enum class MaskKind { none, causal, window, causal_window, matrix };
enum class Mode { self, encoder_decoder, cross };
// random: seeded weights, shaped by the settings; tiny_lm: the trained language model
// (model/language_model.hpp), which takes a sentence or tokens and nothing else.
enum class ModelKind { random, tiny_lm };
// Positions: added to X (sinusoidal; learned in the trainer only), rotating each head's
// queries and keys (rope), or a bias on the logits (alibi).
enum class Positional { none, sinusoidal, learned, rope, alibi };
enum class RopeStyle { interleaved, halves };  // pairs (2i, 2i+1), as RoFormer and Llama; or (i, i + d_k/2), as GPT-NeoX

// Fields read by the settings table's loop have no initialiser here: their defaults are the
// table's (io/spec.cpp), written once.
struct Spec {
  ModelKind model{};
  std::vector<std::string> tokens;  // tiny_lm: entries of the model's vocabulary
  std::uint32_t seed{};
  long d_model = 4;  // sizes: resolved by the parser's named checks, from explicit matrices too
  long heads = 1;
  long d_k = 0;  // per head; 0 until resolved
  long d_v = 0;
  long d_a = 0;  // hidden width of additive scoring
  InitSpec embedding_init{Init::uniform, 0};
  InitSpec weight_init{Init::normal, 0};
  ScoreKind score{};
  std::optional<double> scale;  // multiplies the scores; default 1/sqrt(d_k) for scaled_dot
  double temperature{};
  MaskKind mask = MaskKind::none;
  long window = 0;     // window:D and causal_window:D
  Matrix mask_matrix;  // (n, m) of 0/1 when mask is given as a matrix
  bool qk_norm{};  // each head's query and key rows over their root mean square
  Positional positional{};
  RopeStyle rope_style{};
  double rope_base{};
  long kv_heads = 0;             // key/value heads (grouped-query attention); 0 until resolved to heads
  std::optional<double> softcap;  // logits -> softcap * tanh(logits / softcap)
  bool decode{};                 // also generate position by position with a KV cache
  long online_block = 0;         // also run FlashAttention's online softmax over blocks of keys; 0: off
  bool hard{};
  bool residual{};
  bool layer_norm{};
  Mode mode{};

  // Explicit matrices: when present they replace what the seed generates (the seed's
  // stream is still drawn in full, so editing one matrix leaves the others unchanged).
  std::optional<Matrix> X, W_q, W_k, W_v, W_o, W_a, W_1, W_2, v_a, W_c;
  std::optional<Matrix> decoder_state, annotations;  // (1, d) and (m, d)
  std::vector<std::string> source_tokens;            // cross: what the keys and values come from
  std::optional<Matrix> X_source;                    // cross: (m, d)
};

const char* positional_name(Positional p);

}  // namespace attention
