#include "attention/core/encoder_decoder.hpp"

#include "attention/core/attention.hpp"

namespace attention {

template <class T>
Result<EncoderDecoderTrace<T>> run_encoder_decoder(const Spec& s, KeptDraw* kept) {
  EncoderDecoderTrace<T> t;
  t.tokens = s.tokens;
  t.parameters = draw_parameters(s, kept);
  const Parameters& p = t.parameters;
  const MatrixT<T> annotations = p.X.cast<T>();          // (m, d)
  const MatrixT<T> state = p.decoder_state->cast<T>();   // (1, d)
  t.scale = effective_scale(s);

  // One head, one query: the state over the annotations, which are the keys and the values.
  ATTENTION_TRY(pass, head_pass<T>(s, p, state, annotations, annotations, Matrix(), MatrixT<T>(), std::nullopt));
  t.scores = pass.logits.row(0).transpose();
  t.weights = pass.weights.row(0).transpose();
  t.weighted = annotations.array().colwise() * t.weights.array();
  t.context = pass.out.row(0).transpose();
  if (!t.weighted.allFinite() || !t.context.allFinite()) return error_at("annotations", "the context vector overflows; use smaller annotations");

  const long d = s.d_model;
  MatrixT<T> joined(1, 2 * d);  // [context, state]
  joined << t.context.transpose(), state;
  t.output = (joined * p.W_c->cast<T>()).array().tanh().transpose();
  if (!t.output.allFinite()) return error_at("W_c", "the output overflows; use smaller values");
  return t;
}

template Result<EncoderDecoderTrace<double>> run_encoder_decoder(const Spec&, KeptDraw*);
template Result<EncoderDecoderTrace<float>> run_encoder_decoder(const Spec&, KeptDraw*);

}  // namespace attention
