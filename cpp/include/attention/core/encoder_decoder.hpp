#pragma once
// Encoder-decoder attention (seeds 000 and 003): one decoder hidden state scores every
// encoder annotation; the softmax weights mix the annotations into a context vector, and an
// output layer tanh([context, state] W_c) gives the step's result.
#include <vector>

#include "attention/core/attention.hpp"
#include "attention/core/error.hpp"
#include "attention/core/parameters.hpp"
#include "attention/core/scalar.hpp"
#include "attention/core/spec.hpp"

namespace attention {

template <class T>
struct EncoderDecoderTrace {
  std::vector<std::string> tokens;
  Parameters parameters;  // X = annotations, decoder_state, W_c, score weights
  double scale = 1;
  VectorT<T> scores;      // (m) score * scale / temperature
  VectorT<T> weights;     // (m)
  MatrixT<T> weighted;    // (m, d) each annotation times its weight
  VectorT<T> context;     // (d) sum of the weighted annotations
  VectorT<T> output;      // (d) tanh([context, state] W_c)
};

// The entries of an encoder-decoder trace, as self_trace_schema() lists a self-attention one's.
inline const std::vector<TraceEntry<EncoderDecoderTrace<double>>>& encoder_decoder_trace_schema() {
  using E = EncoderDecoderTrace<double>;
  static const std::vector<TraceEntry<E>> rows = {
      {{"tokens", "m", "", "text", "", "the annotations' names", "", "", ""}, &E::tokens},
      {{"spec", "", "", "spec", "", "the spec with every default filled in", "", "", ""}, {}},
      {{"decoder_state", "d_model", "", "signed", "inputs", "the decoder's hidden state", "", "inputs", ""}, &Parameters::decoder_state},
      {{"annotations", "m x d_model", "", "signed", "inputs", "the encoder's hidden states", "tokens", "inputs", ""}, &Parameters::X},
      {{"scores", "m", "", "signed", "score", "score x scale / temperature", "", "", ""}, &E::scores},
      {{"W_a", "d_model x d_model", "score=general", "signed", "score", "bilinear weights", "", "", ""}, &Parameters::W_a},
      {{"W_1", "d_model x d_a", "score=additive", "signed", "score", "additive scoring's state weights", "", "W_12", ""}, &Parameters::W_1},
      {{"W_2", "d_model x d_a", "score=additive", "signed", "score", "additive scoring's annotation weights", "", "W_12", ""}, &Parameters::W_2},
      {{"v_a", "d_a", "score=additive", "signed", "", "additive scoring's output vector", "", "", ""}, &Parameters::v_a},
      {{"scale", "", "", "signed", "", "what the scores are multiplied by", "", "", ""}, &E::scale},
      {{"weights", "m", "", "weights", "softmax", "a distribution over the annotations", "", "", ""}, &E::weights},
      {{"weighted", "m x d_model", "", "signed", "weigh", "each annotation times its weight", "tokens", "weighted", ""}, &E::weighted},
      {{"context", "d_model", "", "signed", "context", "the weighted annotations added up", "", "weighted", ""}, &E::context},
      {{"W_c", "2*d_model x d_model", "", "signed", "output", "output layer weights", "", "", ""}, &Parameters::W_c},
      {{"output", "d_model", "", "signed", "output", "tanh([context, state] W_c)", "", "", ""}, &E::output},
      {{"warnings", "", "", "text", "", "what the learner should know about these numbers", "", "", ""}, {}},
  };
  return rows;
}

template <class T>
Result<EncoderDecoderTrace<T>> run_encoder_decoder(const Spec& spec, KeptDraw* kept = nullptr);

}  // namespace attention
