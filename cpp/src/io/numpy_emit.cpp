#include "attention/io/numpy_emit.hpp"

#include "attention/model/language_model.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "attention/core/attention.hpp"
#include "attention/core/parameters.hpp"
#include "attention/io/python_source.hpp"

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

std::string literal(const Matrix& m, bool vector) {
  Text o;
  o << "np.array(";
  if (!vector) o << "[";
  for (long r = 0; r < m.rows(); ++r) {
    o << (r ? ", [" : "[");
    for (long c = 0; c < m.cols(); ++c) o << (c ? ", " : "") << python_number(m(r, c));
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
    case Init::per_word: break;  // not from the shared stream: see the embeddings below
  }
  return "";
}

// One matrix the seed draws, in the order NumPy's stream gives them out.
struct Draw {
  std::string kept;     // the lines that draw it
  std::string skip;     // the lines that only take its numbers from the stream
  bool given;           // the spec gives it: `literal` instead of `kept`
  std::string literal;  // the lines that write what the spec gives
  bool from_stream = true;  // false: drawn from a stream of its own, so never skipped
};

std::string given_line(const std::string& name, const std::optional<Matrix>& m, bool vector) {
  return m ? name + " = " + literal(*m, vector) + "  # given in the spec\n" : "";
}

Draw plain(const std::string& name, const std::string& code, const std::string& shape,
           const std::optional<Matrix>& given, bool vector) {
  return {name + " = " + code + "  # " + shape + "\n", code + "  # the numbers " + name + " would take, skipped as the trace does\n",
          given.has_value(), given_line(name, given, vector)};
}

// Each draw, kept; a matrix the spec gives is written as its literal instead. Its numbers are
// still taken from the stream when a later draw needs the stream aligned with the trace's
// (the trace draws every matrix), and not drawn at all otherwise.
void emit_draws(Text& o, const std::vector<Draw>& draws) {
  std::size_t needed = 0;  // one past the last draw the program keeps
  for (std::size_t i = 0; i < draws.size(); ++i) {
    if (!draws[i].given && draws[i].from_stream) needed = i + 1;
  }
  for (std::size_t i = 0; i < draws.size(); ++i) {
    const Draw& d = draws[i];
    if (!d.given) {
      o << d.kept;
      continue;
    }
    if (i < needed && d.from_stream) o << d.skip;
    o << d.literal;
  }
}

void emit_scores(Text& o, const Spec& s) {
  switch (s.score) {
    case ScoreKind::dot:
    case ScoreKind::scaled_dot: o << "q @ k.T"; break;
    case ScoreKind::general: o << "q @ W_a @ k.T"; break;
    case ScoreKind::additive: o << "np.tanh((q @ W_1)[:, None, :] + (k @ W_2)[None, :, :]) @ v_a"; break;
  }
}

void emit_scale(Text& o, const Spec& s) {
  if (s.scale) o << "scale = " << python_number(*s.scale) << "  # given in the spec\n";
  else if (s.score == ScoreKind::scaled_dot) o << "scale = 1 / np.sqrt(d_k)\n";
  else o << "scale = 1.0\n";
  o << "temperature = " << python_number(s.temperature) << "\n";
}

void emit_weights(Text& o, const Spec& s) {
  o << "    masked = np.where(visible, logits, -np.inf)\n";
  if (s.hard) {
    o << "    weights = np.eye(masked.shape[-1])[masked.argmax(axis=-1)]  # first index on ties\n"
      << "    weights[~visible.any(axis=-1)] = 0.0\n";
  } else {
    o << "    top = masked.max(axis=-1, keepdims=True)\n"
      << "    top = np.where(np.isfinite(top), top, 0.0)  # a fully masked row gets zeros, not NaN\n"
      << "    e = np.where(visible, np.exp(masked - top), 0.0)\n"
      << "    total = e.sum(axis=-1, keepdims=True)\n"
      << "    weights = np.divide(e, total, out=np.zeros_like(e), where=total > 0)\n";
  }
}

// The logits of one head from its raw scores: softcap(raw * scale + bias) / temperature.
void emit_logits(Text& o, const Spec& s) {
  if (s.positional != Positional::alibi && !s.softcap) {
    o << "    logits = raw * (scale / temperature)\n";
    return;
  }
  o << "    x = raw * scale\n";
  if (s.positional == Positional::alibi) o << "    x = x + bias  # ALiBi\n";
  if (s.softcap) o << "    x = softcap * np.tanh(x / softcap)  # the logits capped at +-softcap\n";
  o << "    logits = x / temperature\n";
}

const char* kRope = R"(def rope(x, positions):
    """Each block of d_k columns of x turned pair by pair: pair i of the row at position p by p * theta_i."""
    theta = rope_base ** (-2 * np.arange(d_k // 2) / d_k)
    angle = positions[:, None] * theta[None, :]  # (rows, d_k/2)
    c, s = np.cos(angle), np.sin(angle)
    first = 2 * np.arange(d_k // 2) if interleaved else np.arange(d_k // 2)
    second = first + 1 if interleaved else first + d_k // 2
    y = x.copy()
    for b in range(0, x.shape[1], d_k):
        u, w = x[:, b + first], x[:, b + second]
        y[:, b + first], y[:, b + second] = u * c - w * s, u * s + w * c
    return y
)";

const char* kAlibi = R"(def slopes_of(h):
    """ALiBi's slopes, as the paper's reference code computes them."""
    def power_of_two(p):
        start = 2 ** (-8 / p)
        return [start ** (i + 1) for i in range(p)]
    p = 2 ** int(np.floor(np.log2(h)))
    return power_of_two(p) if p == h else power_of_two(p) + slopes_of(2 * p)[0::2][:h - p]
)";

}  // namespace

std::string numpy_head_pass(const Spec& s) {
  Text o;
  emit_scale(o, s);
  if (s.softcap) o << "softcap = " << python_number(*s.softcap) << "\n";
  o << "\n"
    << "def head_pass(q, k, v, bias, visible):\n"
    << "    \"\"\"One head's attention in the playground's stages: q (rows, d_k), k (m, d_k), v (m, d_v), bias\n"
    << "    (rows, m) or None, visible (rows, m) of bools. Returns the raw scores, the logits (the trace's\n"
    << "    scores), the weights, and the weighted sum of the values.\"\"\"\n"
    << "    raw = ";
  emit_scores(o, s);
  o << "\n";
  emit_logits(o, s);
  emit_weights(o, s);
  o << "    return raw, logits, weights, weights @ v\n";
  return o.str();
}

std::string numpy_rope(const Spec& s) {
  return "rope_base, interleaved = " + python_number(s.rope_base) + ", " + (s.rope_style == RopeStyle::interleaved ? "True" : "False") + "\n" + kRope;
}

std::string numpy_program(const Spec& s, const LanguageModel* model) {
  if (s.model == ModelKind::tiny_lm) {
    return model ? numpy_model_program(s, *model) : "raise SystemExit(\"the trained model's weights are not loaded\")\n";
  }
  Text o;
  const long d = s.d_model, h = s.heads, dk = s.d_k, dv = s.d_v, da = s.d_a;
  const long n = static_cast<long>(s.tokens.size());
  const auto D = [](long v) { return std::to_string(v); };
  // Line 1 fixes the encoding (Python reads a declaration on line 1 or 2 only), and nothing
  // below it is anything but ASCII.
  o << "# -*- coding: utf-8 -*-\n"
    << "# Rebuilds the Attention Playground trace of this spec with NumPy alone, and prints it.\n"
    << python_comment("Spec: " + to_json(s).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace)) << "\n"
    << "import numpy as np\n\n"
    << "tokens = [";
  for (std::size_t i = 0; i < s.tokens.size(); ++i) o << (i ? ", " : "") << python_string(s.tokens[i]);
  o << "]\n"
    << "n, d_model = " << n << ", " << d << "\n";
  const bool cross = s.mode == Mode::cross;
  if (cross) {
    o << "source_tokens = [";
    for (std::size_t i = 0; i < s.source_tokens.size(); ++i) o << (i ? ", " : "") << python_string(s.source_tokens[i]);
    o << "]\nm = len(source_tokens)  # keys and values come from the source\n";
  }
  if (s.mode != Mode::encoder_decoder) {
    o << "heads, d_k, d_v = " << h << ", " << dk << ", " << dv << "\n"
      << "kv_heads = " << s.kv_heads << "  # key/value heads; query head i reads kv_group[i]\n";
    if (!cross) o << "m = n\n";
  } else {
    o << "d_k = d_model\n";
  }
  if (s.score == ScoreKind::additive) o << "d_a = " << da << "\n";

  const bool ed = s.mode == Mode::encoder_decoder;
  const char* inputs = ed ? "annotations" : "X";
  // The table's matrices in the stream's order, the embeddings among them.
  const std::vector<ParameterShape> shapes = parameter_shapes(s);
  std::vector<Draw> draws, after;
  std::string given_only;  // used when given, never drawn (W_o with one head)
  for (const auto& m : shapes) {
    const std::optional<Matrix>& given = s.*(m.given);
    if (!m.drawn) {
      given_only += given_line(m.name, given, m.vector);
      continue;
    }
    const std::string shape = m.vector ? D(m.cols) : D(m.rows) + ", " + D(m.cols);
    (m.after_embeddings ? after : draws).push_back(
        plain(m.name, draw(m.embedding ? s.embedding_init : s.weight_init, shape), "(" + std::string(m.why) + ")", given, m.vector));
  }
  // The embeddings: every row of the inputs (and in cross mode of the source) from one vocabulary.
  const bool per_word = s.embedding_init.kind == Init::per_word;
  const std::string word = per_word ? "np.random.RandomState(seed ^ zlib.crc32(word.encode('utf-8'))).rand(" + D(d) + ")"
                                    : draw(s.embedding_init, D(d));
  const std::string all = cross ? "tokens + source_tokens" : "tokens";
  const std::optional<Matrix>& given_inputs = ed ? s.annotations : s.X;
  const bool embeddings_given = given_inputs.has_value() && (!cross || s.X_source.has_value());
  const std::string given_lines = given_line(inputs, given_inputs, false) + given_line("X_source", s.X_source, false);
  std::string rows = given_inputs ? "" : std::string(inputs) + " = np.array([embedding[t] for t in tokens])  # (n, d_model): a repeated word shares its vector\n";
  if (cross && !s.X_source) rows += "X_source = np.array([embedding[t] for t in source_tokens])  # (m, d_model)\n";
  draws.push_back(Draw{"vocabulary = list(dict.fromkeys(" + all + "))  # each distinct word once, in order of first appearance\n"
                   "embedding = {word: " + word + " for word in vocabulary}\n" + rows + given_lines,
                   "for word in dict.fromkeys(" + all + "):\n    " + word + "  # the numbers of the embeddings, skipped as the trace does\n",
                   embeddings_given, given_lines, !per_word});
  draws.insert(draws.end(), after.begin(), after.end());
  const bool any_drawn = std::any_of(draws.begin(), draws.end(), [](const Draw& x) { return !x.given && x.from_stream; });
  o << "\n";
  if (per_word && !embeddings_given) o << "import zlib\nseed = " << s.seed << "  # each word's vector comes from RandomState(seed ^ crc32 of the word)\n";
  if (any_drawn) o << "# What the spec does not give comes from NumPy's legacy stream, in this order.\nnp.random.seed(" << s.seed << ")\n";
  emit_draws(o, draws);
  o << given_only;
  o << "\n" << numpy_head_pass(s) << "\n";

  std::vector<std::string> shown;  // printed at the end, in the order of the computation
  if (ed) {
    o << "# One query: the decoder state over the annotations, which are the keys and the values.\n"
      << "_, scores, weights, context = head_pass(decoder_state[None, :], annotations, annotations, None, np.ones((1, n), dtype=bool))\n"
      << "scores, weights, context = scores[0], weights[0], context[0]  # (n,), (n,), (d_model,)\n"
      << "weighted = weights[:, None] * annotations  # (n, d_model): context is their sum\n"
      << "output = np.tanh(np.concatenate([context, decoder_state]) @ W_c)  # (d_model,)\n";
    shown = {"annotations", "decoder_state", "scores", "weights", "context", "output"};
  } else {
    const bool sinusoidal = s.positional == Positional::sinusoidal, rope = s.positional == Positional::rope;
    if (sinusoidal) {
      o << "def sinusoidal(rows):\n"
        << "    angle = np.arange(rows)[:, None] / np.power(10000.0, (2 * (np.arange(d_model)[None, :] // 2)) / d_model)\n"
        << "    return np.where(np.arange(d_model)[None, :] % 2 == 0, np.sin(angle), np.cos(angle))\n"
        << "positional = sinusoidal(n)  # (n, d_model)\n"
        << "X_in = X + positional\n";
      if (cross) o << "positional_source = sinusoidal(m)\nX_source_in = X_source + positional_source\n";
    }
    const std::string x = sinusoidal ? "X_in" : "X";
    const std::string source = cross ? (sinusoidal ? "X_source_in" : "X_source") : x;
    o << "Q = " << x << " @ W_q  # (n, heads*d_k)\n"
      << "K = " << source << " @ W_k  # (m, kv_heads*d_k)\n"
      << "V = " << source << " @ W_v  # (m, kv_heads*d_v)\n"
      << "kv_group = [i // (heads // kv_heads) for i in range(heads)]  # as torch.repeat_interleave\n";
    // The rows the scores read: each stage made from the one before (QK-norm, then RoPE).
    std::string Q = "Q", K = "K";
    if (s.qk_norm) {
      o << "\n# QK-norm: each head's query and key rows over their root mean square (rms_norm, unit weights).\n"
        << "def rms_heads(x):\n"
        << "    r = x.reshape(len(x), -1, d_k)\n"
        << "    return (r / np.sqrt((r ** 2).mean(axis=2, keepdims=True) + 1e-6)).reshape(len(x), -1)\n"
        << "Q_norm = rms_heads(Q)\n"
        << "K_norm = rms_heads(K)\n";
      Q = "Q_norm", K = "K_norm";
    }
    if (rope) {
      o << "\n# Rotary positions: each pair of a head's query and key columns turns by position x theta_i.\n"
        << numpy_rope(s)
        << "rope_angles = np.arange(max(n, m))[:, None] * (rope_base ** (-2 * np.arange(d_k // 2) / d_k))[None, :]\n"
        << "Q_rope = rope(" << Q << ", np.arange(n))\n"
        << "K_rope = rope(" << K << ", np.arange(m))\n";
      Q = "Q_rope", K = "K_rope";
    }
    if (s.positional == Positional::alibi) {
      o << "\n# ALiBi: head i's logits get -slope_i * |i - j|.\n" << kAlibi
        << "alibi_slopes = np.array(slopes_of(heads))\n"
        << "bias = -alibi_slopes[:, None, None] * np.abs(np.arange(n)[:, None] - np.arange(m)[None, :])  # (heads, n, m)\n";
    }
    switch (s.mask) {
      case MaskKind::none: o << "visible = np.ones((n, m), dtype=bool)\n"; break;
      case MaskKind::causal: o << "visible = np.tril(np.ones((n, n), dtype=bool))  # no look at the future\n"; break;
      case MaskKind::window:
        o << "visible = np.abs(np.arange(n)[:, None] - np.arange(n)[None, :]) <= " << s.window << "  # local window\n";
        break;
      case MaskKind::causal_window:
        o << "back = np.arange(n)[:, None] - np.arange(n)[None, :]\n"
          << "visible = (back >= 0) & (back <= " << s.window << ")  # causal, at most " << s.window << " back\n";
        break;
      case MaskKind::matrix: o << "visible = " << literal(s.mask_matrix, false) << " == 1\n"; break;
    }
    if (s.mask != MaskKind::none) o << "mask = visible.astype(float)\n";
    const bool keep_raw = keeps_raw_scores(s), alibi = s.positional == Positional::alibi;
    if (keep_raw) o << "raw_scores = np.zeros((heads, n, m))  # the score function alone: no multiple of the scores here\n";
    o << "scores = np.zeros((heads, n, m))\n"
      << "weights = np.zeros((heads, n, m))\n"
      << "heads_out = np.zeros((heads, n, d_v))\n"
      << "for i in range(heads):\n"
      << "    g = kv_group[i]\n"
      << "    q, k, v = " << Q << "[:, i*d_k:(i+1)*d_k], " << K << "[:, g*d_k:(g+1)*d_k], V[:, g*d_v:(g+1)*d_v]\n"
      << "    raw, scores[i], weights[i], heads_out[i] = head_pass(q, k, v, " << (alibi ? "bias[i]" : "None") << ", visible)\n";
    if (keep_raw) o << "    raw_scores[i] = raw\n";
    o << "concat = np.concatenate(list(heads_out), axis=1)  # (n, heads*d_v)\n"
      << "output = " << (h > 1 || s.W_o ? "concat @ W_o" : "concat") << "\n";
    if (s.residual) o << "residual_sum = " << x << " + output\n";
    if (s.layer_norm) {
      const char* in = s.residual ? "residual_sum" : "output";
      o << "normalized = (" << in << " - " << in << ".mean(axis=1, keepdims=True)) / np.sqrt(" << in
        << ".var(axis=1, keepdims=True) + 1e-5)\n";
    }
    if (s.decode) {
      o << "\n# Generation with a KV cache: one position at a time, projecting only the new token.\n"
        << "decode = []\n"
        << "k_cache, v_cache = np.zeros((0, kv_heads * d_k)), np.zeros((0, kv_heads * d_v))\n"
        << "for t in range(n):\n"
        << "    x = " << x << "[t:t+1]\n"
        << "    q_t, k_t, v_t = x @ W_q, x @ W_k, x @ W_v\n";
      if (s.qk_norm) o << "    q_t, k_t = rms_heads(q_t), rms_heads(k_t)\n";
      if (rope) o << "    q_t, k_t = rope(q_t, np.array([t])), rope(k_t, np.array([t]))\n";
      o << "    k_cache, v_cache = np.vstack([k_cache, k_t]), np.vstack([v_cache, v_t])\n"
        << "    step_scores, step_weights = np.zeros((heads, t + 1)), np.zeros((heads, t + 1))\n"
        << "    out = np.zeros((1, heads * d_v))\n"
        << "    seen = visible[t:t+1, :t+1]\n"
        << "    for i in range(heads):\n"
        << "        g = kv_group[i]\n"
        << "        q, k, v = q_t[:, i*d_k:(i+1)*d_k], k_cache[:, g*d_k:(g+1)*d_k], v_cache[:, g*d_v:(g+1)*d_v]\n"
        << "        _, step_scores[i:i+1], step_weights[i:i+1], out[:, i*d_v:(i+1)*d_v] = head_pass(q, k, v, "
        << (alibi ? "bias[i, t:t+1, :t+1]" : "None") << ", seen)\n"
        << "    decode.append({'t': t, 'k_cache': k_cache, 'v_cache': v_cache, 'scores': step_scores,\n"
        << "                   'weights': step_weights, 'output': (" << (h > 1 || s.W_o ? "out @ W_o" : "out") << ")[0]})\n";
    }
    if (s.online_block > 0) {
      o << "\n# FlashAttention's online softmax: keys in blocks, a running max, sum and output per row.\n"
        << "online_block = " << s.online_block << "\n"
        << "online = []\n"
        << "for i in range(heads):\n"
        << "    v = V[:, kv_group[i]*d_v:(kv_group[i]+1)*d_v]\n"
        << "    top, l, o = np.full(n, -np.inf), np.zeros(n), np.zeros((n, d_v))\n"
        << "    blocks = []\n"
        << "    for start in range(0, m, online_block):\n"
        << "        end = min(m, start + online_block)\n"
        << "        seen = visible[:, start:end]\n"
        << "        new = np.maximum(top, np.where(seen, scores[i][:, start:end], -np.inf).max(axis=1))\n"
        << "        with np.errstate(invalid='ignore'):\n"
        << "            rescale = np.where(np.isinf(new), 1.0, np.where(np.isinf(top), 0.0, np.exp(top - new)))\n"
        << "        e = np.where(seen, np.exp(scores[i][:, start:end] - np.where(np.isinf(new), 0.0, new)[:, None]), 0.0)\n"
        << "        l, o, top = l * rescale + e.sum(axis=1), o * rescale[:, None] + e @ v[start:end], new\n"
        << "        blocks.append({'keys': [start, end], 'm': [None if np.isinf(x) else x for x in top],\n"
        << "                       'l': l, 'rescale': rescale, 'o': o,\n"
        << "                       'out': np.where(np.isinf(top)[:, None], 0.0, o / np.where(np.isinf(top), 1.0, l)[:, None])})\n"
        << "    online.append(blocks)\n";
    }
    o << "heads = heads_out  # the trace's name for the per-head outputs\n";
    shown = {"X", "Q", "K", "V", "scores", "weights", "output"};
    if (s.layer_norm) shown.push_back("normalized");
  }

  o << "\nnp.set_printoptions(precision=4, suppress=True, linewidth=120)\n"
    << "print('tokens:', tokens)\n";
  for (const auto& name : shown) o << "print('\\n" << name << "', np.shape(" << name << "), '=')\nprint(" << name << ")\n";
  return o.str();
}

}  // namespace attention
