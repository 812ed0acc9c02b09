#pragma once
// Every matrix a spec needs, drawn from the seed in one documented order, then replaced by
// any explicit matrix the spec gives. The order (the NumPy emitter prints the same):
//   self, cross:     W_q, W_k (d x kv_heads*d_k), W_v (d x kv_heads*d_v), [W_o if heads > 1],
//                    one embedding per vocabulary word (in order of first appearance; in cross
//                    mode the sentence's words, then the source's new ones), [W_a | W_1, W_2, v_a]
//   encoder_decoder: W_c, one annotation per vocabulary word, decoder_state, [W_a | W_1, W_2, v_a]
// Weights use weight_init, embeddings/annotations/decoder_state use embedding_init. Seed 42
// with int:3 weights therefore gives seed 004's W_Query, W_Key, W_Value.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attention/core/rng.hpp"
#include "attention/core/scalar.hpp"
#include "attention/core/spec.hpp"

namespace attention {

struct Parameters {
  std::vector<std::string> vocabulary;  // distinct tokens, in order of first appearance
  Matrix X;                             // (n, d) embeddings, or annotations in encoder_decoder
  Matrix X_source;                      // (m, d) cross: the source's embeddings
  std::optional<Matrix> W_q, W_k, W_v;  // (d, h*d_k), (d, kv_heads*d_k), (d, kv_heads*d_v)
  std::optional<Matrix> W_o;            // (h*d_v, d)
  std::optional<Matrix> W_a;            // (d_k, d_k)
  std::optional<Matrix> W_1, W_2;       // (d_k, d_a)
  std::optional<Matrix> v_a;            // (1, d_a)
  std::optional<Matrix> decoder_state;  // (1, d)
  std::optional<Matrix> W_c;            // (2d, d)
};

// One matrix of a spec besides the embeddings: its shape at the spec's resolved sizes, in the
// order the seed's stream draws it. The one table of shapes: the parser checks explicit
// matrices against it, draw_parameters() draws from it, the NumPy program writes it.
struct ParameterShape {
  const char* name;
  long rows, cols;
  const char* why;                          // the shape in words: "d_model x heads*d_k"
  std::optional<Matrix> Spec::*given;       // where the spec may give it
  std::optional<Matrix> Parameters::*kept;  // where the trace keeps it
  bool drawn = true;                        // false: used only when given (W_o with one head)
  bool vector = false;                      // a flat array in the spec and the trace
  bool embedding = false;                   // drawn with embedding_init, else weight_init
  bool after_embeddings = false;            // drawn after the vocabulary's vectors
};
std::vector<ParameterShape> parameter_shapes(const Spec& spec);

std::vector<std::string> vocabulary(const std::vector<std::string>& tokens);

// The weights a caller's last spec drew (the matrices drawn before the vocabulary's vectors,
// which depend on the seed, the inits and the shapes alone, never on the sentence), with the
// stream just after them. A caller that runs spec after spec (the page's core while a learner
// types) keeps one and lends it to each run: a run with the same key starts from there. At
// d_model 512 drawing them was three quarters of a run. A draw of more than 8 MB is not kept,
// so the heap stays small between runs.
struct KeptDraw {
  std::vector<std::uint64_t> key;  // seed, inits, then rows, cols, drawn, embedding per shape
  std::vector<Matrix> drawn;       // the drawn shapes' matrices, in order
  std::optional<NumpyRandom> after;
};
Parameters draw_parameters(const Spec& spec, KeptDraw* kept = nullptr);

// How many numbers draw_parameters(spec) makes: every shape of the table, the vocabulary's
// vectors and the rows of the inputs (and of the source). Counted before drawing.
std::size_t drawn_numbers(const Spec& spec);

}  // namespace attention
