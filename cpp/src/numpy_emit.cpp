#include "attention/numpy_emit.hpp"

#include <cstdio>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "attention/attention.hpp"

namespace attention {

namespace {

// A program being written. Not Text: iostreams bring C++ locales along, a
// fifth of the wasm module's size.
class Text {
 public:
  Text& operator<<(const std::string& v) { s_ += v; return *this; }
  Text& operator<<(const char* v) { s_ += v; return *this; }
  template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
  Text& operator<<(T v) { s_ += std::to_string(v); return *this; }
  const std::string& str() const { return s_; }

 private:
  std::string s_;
};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string literal(const Matrix& m, bool vector) {
  Text o;
  o << "np.array(";
  if (!vector) o << "[";
  for (long r = 0; r < m.rows(); ++r) {
    o << (r ? ", [" : "[");
    for (long c = 0; c < m.cols(); ++c) o << (c ? ", " : "") << num(m(r, c));
    o << "]";
  }
  if (!vector) o << "]";
  o << ", dtype=float)";
  return o.str();
}

std::string draw(const InitSpec& init, const std::string& shape) {
  switch (init.kind) {
    case Init::uniform: return "np.random.rand(" + shape + ")";
    case Init::normal: return "np.random.randn(" + shape + ")";
    case Init::integer: return "np.random.randint(" + std::to_string(init.high) + ", size=(" + shape + ")).astype(float)";
  }
  return "";
}

// `name = <draw>`, then the explicit value when the spec gives one: the draw still happens
// so the stream stays aligned with the trace.
void emit_drawn(Text& o, const char* name, const InitSpec& init, const std::string& shape,
                const std::optional<Matrix>& given, bool vector, const char* comment) {
  o << name << " = " << draw(init, shape) << "  # " << comment << "\n";
  if (given) o << name << " = " << literal(*given, vector) << "  # given in the spec\n";
}

void emit_scores(Text& o, const Spec& s, const std::string& q, const std::string& k, bool one_query) {
  switch (s.score) {
    case ScoreKind::dot:
    case ScoreKind::scaled_dot:
      o << (one_query ? k + " @ " + q : q + " @ " + k + ".T");
      break;
    case ScoreKind::general:
      o << (one_query ? k + " @ (" + q + " @ W_a)" : q + " @ W_a @ " + k + ".T");
      break;
    case ScoreKind::additive:
      o << (one_query ? "np.tanh(" + q + " @ W_1 + " + k + " @ W_2) @ v_a"
                      : "np.tanh((" + q + " @ W_1)[:, None, :] + (" + k + " @ W_2)[None, :, :]) @ v_a");
      break;
  }
}

void emit_scale(Text& o, const Spec& s) {
  if (s.scale) o << "scale = " << num(*s.scale) << "  # given in the spec\n";
  else if (s.score == ScoreKind::scaled_dot) o << "scale = 1 / np.sqrt(d_k)\n";
  else o << "scale = 1.0\n";
  o << "temperature = " << num(s.temperature) << "\n";
}

void emit_weights(Text& o, const Spec& s, const std::string& indent, const std::string& target,
                  const std::string& logits) {
  if (s.hard) {
    o << indent << "masked = np.where(visible, " << logits << ", -np.inf)\n"
      << indent << target << " = np.eye(masked.shape[-1])[masked.argmax(axis=-1)]  # first index on ties\n"
      << indent << target << "[~visible.any(axis=-1)] = 0.0\n";
  } else {
    o << indent << "masked = np.where(visible, " << logits << ", -np.inf)\n"
      << indent << "top = masked.max(axis=-1, keepdims=True)\n"
      << indent << "top = np.where(np.isfinite(top), top, 0.0)  # a fully masked row gets zeros, not NaN\n"
      << indent << "e = np.where(visible, np.exp(masked - top), 0.0)\n"
      << indent << "total = e.sum(axis=-1, keepdims=True)\n"
      << indent << target << " = np.divide(e, total, out=np.zeros_like(e), where=total > 0)\n";
  }
}

}  // namespace

std::string numpy_program(const Spec& s) {
  Text o;
  const long d = s.d_model, h = s.heads, dk = s.d_k, dv = s.d_v, da = s.d_a;
  const long n = static_cast<long>(s.tokens.size());
  const auto D = [](long v) { return std::to_string(v); };
  o << "# Rebuilds the Attention Playground trace of this spec with NumPy alone.\n"
    << "# Spec: " << to_json(s).dump() << "\n"
    << "import numpy as np\n\n"
    << "tokens = " << nlohmann::json(s.tokens).dump() << "\n"
    << "n, d_model = " << n << ", " << d << "\n";
  if (s.mode == Mode::self) o << "heads, d_k, d_v = " << h << ", " << dk << ", " << dv << "\n";
  else o << "d_k = d_model\n";
  if (s.score == ScoreKind::additive) o << "d_a = " << da << "\n";
  o << "\n# Every matrix comes from NumPy's legacy stream, in this order.\n"
    << "np.random.seed(" << s.seed << ")\n";

  const bool ed = s.mode == Mode::encoder_decoder;
  if (!ed) {
    emit_drawn(o, "W_q", s.weight_init, D(d) + ", " + D(h * dk), s.W_q, false, "(d_model, heads*d_k)");
    emit_drawn(o, "W_k", s.weight_init, D(d) + ", " + D(h * dk), s.W_k, false, "(d_model, heads*d_k)");
    emit_drawn(o, "W_v", s.weight_init, D(d) + ", " + D(h * dv), s.W_v, false, "(d_model, heads*d_v)");
    if (h > 1) emit_drawn(o, "W_o", s.weight_init, D(h * dv) + ", " + D(d), s.W_o, false, "(heads*d_v, d_model)");
    else if (s.W_o) o << "W_o = " << literal(*s.W_o, false) << "  # given in the spec\n";
  } else {
    emit_drawn(o, "W_c", s.weight_init, D(2 * d) + ", " + D(d), s.W_c, false, "(2*d_model, d_model)");
  }
  const char* inputs = ed ? "annotations" : "X";
  o << "vocabulary = list(dict.fromkeys(tokens))  # each distinct word once, in order of first appearance\n"
    << "embedding = {word: " << draw(s.embedding_init, D(d)) << " for word in vocabulary}\n"
    << inputs << " = np.array([embedding[t] for t in tokens])  # (n, d_model): a repeated word shares its vector\n";
  const std::optional<Matrix>& given = ed ? s.annotations : s.X;
  if (given) o << inputs << " = " << literal(*given, false) << "  # given in the spec\n";
  if (ed) emit_drawn(o, "decoder_state", s.embedding_init, D(d), s.decoder_state, true, "(d_model,)");
  if (s.score == ScoreKind::general) {
    emit_drawn(o, "W_a", s.weight_init, D(dk) + ", " + D(dk), s.W_a, false, "(d_k, d_k)");
  } else if (s.score == ScoreKind::additive) {
    emit_drawn(o, "W_1", s.weight_init, D(dk) + ", " + D(da), s.W_1, false, "(d_k, d_a)");
    emit_drawn(o, "W_2", s.weight_init, D(dk) + ", " + D(da), s.W_2, false, "(d_k, d_a)");
    emit_drawn(o, "v_a", s.weight_init, D(da), s.v_a, true, "(d_a,)");
  }
  o << "\n";
  emit_scale(o, s);

  if (ed) {
    o << "visible = np.ones(n, dtype=bool)\n"
      << "scores = (";
    emit_scores(o, s, "decoder_state", "annotations", true);
    o << ") * (scale / temperature)  # (n,)\n";
    emit_weights(o, s, "", "weights", "scores");
    o << "weighted = weights[:, None] * annotations  # (n, d_model)\n"
      << "context = weighted.sum(axis=0)  # (d_model,)\n"
      << "output = np.tanh(np.concatenate([context, decoder_state]) @ W_c)  # (d_model,)\n";
    return o.str();
  }

  if (s.positional) {
    o << "position = np.arange(n)[:, None]\n"
      << "column = np.arange(d_model)[None, :]\n"
      << "angle = position / np.power(10000.0, (2 * (column // 2)) / d_model)\n"
      << "positional = np.where(column % 2 == 0, np.sin(angle), np.cos(angle))  # (n, d_model)\n"
      << "X_in = X + positional\n";
  }
  const std::string x = s.positional ? "X_in" : "X";
  o << "Q = " << x << " @ W_q  # (n, heads*d_k)\n"
    << "K = " << x << " @ W_k  # (n, heads*d_k)\n"
    << "V = " << x << " @ W_v  # (n, heads*d_v)\n";
  switch (s.mask) {
    case MaskKind::none: o << "visible = np.ones((n, n), dtype=bool)\n"; break;
    case MaskKind::causal: o << "visible = np.tril(np.ones((n, n), dtype=bool))  # no look at the future\n"; break;
    case MaskKind::window:
      o << "visible = np.abs(np.arange(n)[:, None] - np.arange(n)[None, :]) <= " << s.window << "  # local window\n";
      break;
    case MaskKind::matrix: o << "visible = " << literal(s.mask_matrix, false) << " == 1\n"; break;
  }
  if (s.mask != MaskKind::none) o << "mask = visible.astype(float)\n";
  o << "scores = np.zeros((heads, n, n))\n"
    << "weights = np.zeros((heads, n, n))\n"
    << "heads_out = np.zeros((heads, n, d_v))\n"
    << "for i in range(heads):\n"
    << "    q, k, v = Q[:, i*d_k:(i+1)*d_k], K[:, i*d_k:(i+1)*d_k], V[:, i*d_v:(i+1)*d_v]\n"
    << "    scores[i] = (";
  emit_scores(o, s, "q", "k", false);
  o << ") * (scale / temperature)\n";
  emit_weights(o, s, "    ", "weights[i]", "scores[i]");
  o << "    heads_out[i] = weights[i] @ v\n"
    << "concat = np.concatenate(list(heads_out), axis=1)  # (n, heads*d_v)\n"
    << "output = " << (h > 1 || s.W_o ? "concat @ W_o" : "concat") << "\n";
  if (s.residual) o << "residual_sum = " << x << " + output\n";
  if (s.layer_norm) {
    const char* in = s.residual ? "residual_sum" : "output";
    o << "normalized = (" << in << " - " << in << ".mean(axis=1, keepdims=True)) / np.sqrt(" << in
      << ".var(axis=1, keepdims=True) + 1e-5)\n";
  }
  o << "heads = heads_out  # the trace's name for the per-head outputs\n";
  return o.str();
}

}  // namespace attention
