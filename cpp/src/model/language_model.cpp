#include "attention/model/language_model.hpp"

#include <cmath>

#include "attention/core/rng.hpp"

namespace attention {

namespace {
template <class M, class W>
std::vector<std::pair<std::string, M*>> tensors(W& w) {
  std::vector<std::pair<std::string, M*>> out = {{"E", &w.E}, {"P", &w.P}};
  for (std::size_t l = 0; l < w.layers.size(); ++l) {
    const std::string prefix = "layers." + std::to_string(l) + ".";
    auto& layer = w.layers[l];
    out.insert(out.end(), {{prefix + "W_q", &layer.W_q}, {prefix + "W_k", &layer.W_k},
                           {prefix + "W_v", &layer.W_v}, {prefix + "W_o", &layer.W_o}});
  }
  out.insert(out.end(), {{"W_U", &w.W_U}, {"b_U", &w.b_U}});
  return out;
}

}  // namespace

std::vector<std::pair<std::string, Matrix*>> named(LmWeights& w) { return tensors<Matrix>(w); }
std::vector<std::pair<std::string, const Matrix*>> named(const LmWeights& w) { return tensors<const Matrix>(w); }

LmWeights zeros_like(const LmWeights& w) {
  LmWeights z = w;
  for (auto& entry : named(z)) entry.second->setZero();
  return z;
}

LmWeights init_weights(const LmShape& s, std::uint32_t seed) {
  NumpyRandom rng(seed);
  const long d = s.d_model;
  const double w_scale = 1.0 / std::sqrt(static_cast<double>(d));
  LmWeights w;
  w.E = rng.randn(s.vocabulary, d);
  w.P = sinusoidal_encoding(s.context, d);
  for (long l = 0; l < s.layers; ++l) {
    LmLayer layer;
    for (Matrix* m : {&layer.W_q, &layer.W_k, &layer.W_v, &layer.W_o}) *m = rng.randn(d, d) * w_scale;
    w.layers.push_back(std::move(layer));
  }
  w.W_U = rng.randn(d, s.vocabulary) * w_scale;
  w.b_U = Matrix::Zero(1, s.vocabulary);
  return w;
}

std::string architecture(const LmShape& shape) {
  const auto n = [](long v) { return std::to_string(v); };
  return "attention-only decoder: " + n(shape.layers) + " layers of " + n(shape.heads) + " causal heads with RoPE, d_model " +
         n(shape.d_model) + ", learned positions, context " + n(shape.context) + ", " + n(shape.vocabulary) + " word pieces";
}

const WordPieces& tiny_lm_pieces() {
  static const WordPieces pieces = word_pieces(tiny_lm_merges());
  return pieces;
}

Spec layer_spec(const LanguageModel& model, const std::vector<std::string>& tokens, const Matrix& X, std::size_t l) {
  const LmShape& shape = model.shape;
  const LmLayer& layer = model.weights.layers[l];
  Spec spec;  // the architecture, said in full (every matrix is the model's: no seed draws any)
  spec.tokens = tokens;
  spec.d_model = shape.d_model;
  spec.heads = spec.kv_heads = shape.heads;
  spec.d_k = spec.d_v = spec.d_a = shape.d_model / shape.heads;
  spec.score = ScoreKind::scaled_dot;
  spec.temperature = 1;
  spec.mask = MaskKind::causal;
  spec.positional = Positional::rope;
  spec.rope_style = RopeStyle::interleaved;
  spec.rope_base = shape.rope_base;
  spec.X = X;
  spec.W_q = layer.W_q;
  spec.W_k = layer.W_k;
  spec.W_v = layer.W_v;
  spec.W_o = layer.W_o;
  return spec;
}


Result<LmTrace> run_model(const LanguageModel& model, const std::vector<int>& ids) {
  const LmShape& s = model.shape;
  const long n = static_cast<long>(ids.size());
  if (n < 1 || n > s.context) return error_at("sentence", "has " + std::to_string(n) + " tokens; the model reads 1 to " + std::to_string(s.context));
  const LmWeights& w = model.weights;
  LmTrace t;
  t.ids = ids;
  Matrix x(n, s.d_model);  // the residual stream
  for (long i = 0; i < n; ++i) {
    const int id = ids[static_cast<std::size_t>(i)];
    if (id < 0 || id >= s.vocabulary) return error_at("tokens", "has an id outside the vocabulary");
    t.tokens.push_back(model.pieces.names[static_cast<std::size_t>(id)]);
    x.row(i) = w.E.row(id) + w.P.row(i);
  }
  for (std::size_t l = 0; l < w.layers.size(); ++l) {
    Spec spec = layer_spec(model, t.tokens, x, l);
    ATTENTION_TRY(trace, run_self<double>(spec));
    x += trace.output;
    t.layers.push_back(std::move(trace));
    t.specs.push_back(std::move(spec));
  }
  Matrix logits = x * w.W_U;  // (n, V)
  logits.rowwise() += w.b_U.row(0);
  t.log_probs.resize(n, s.vocabulary);
  for (long i = 0; i < n; ++i) {
    const double top = logits.row(i).maxCoeff();
    const double sum = (logits.row(i).array() - top).exp().sum();
    t.log_probs.row(i) = logits.row(i).array() - top - std::log(sum);
  }
  return t;
}

}  // namespace attention
