#pragma once
// Encoder-decoder attention (seeds 000 and 003): one decoder hidden state scores every
// encoder annotation; the softmax weights mix the annotations into a context vector, and an
// output layer tanh([context, state] W_c) gives the step's result.
#include <vector>

#include "attention/error.hpp"
#include "attention/parameters.hpp"
#include "attention/scalar.hpp"
#include "attention/spec.hpp"

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

template <class T>
Result<EncoderDecoderTrace<T>> run_encoder_decoder(const Spec& spec);

}  // namespace attention
