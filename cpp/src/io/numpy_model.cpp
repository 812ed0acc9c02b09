// The NumPy program of the trained model: its weights written into the program (base64 of the
// weights file's numbers), then the forward pass, so that every number of the trace is rebuilt by NumPy
// alone, with no file and no download.
#include "attention/io/numpy_emit.hpp"

#include "attention/io/int8_rows.hpp"
#include "attention/io/python_source.hpp"
#include "attention/model/language_model.hpp"

namespace attention {

namespace {
std::string base64(const std::string& bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8 |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += {digits[v >> 18], digits[v >> 12 & 63], digits[v >> 6 & 63], digits[v & 63]};
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 | (two ? static_cast<unsigned char>(bytes[i + 1]) << 8 : 0u);
    out += {digits[v >> 18], digits[v >> 12 & 63], two ? digits[v >> 6 & 63] : '=', '='};
  }
  return out;
}

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + python_string(items[i]);
  return out + "]";
}
}  // namespace

std::string numpy_model_program(const Spec& s, const LanguageModel& model) {
  const LmShape& m = model.shape;
  const Spec layer = layer_spec(model, s.tokens, Matrix(), 0);  // what its layers have in common
  std::string tensors, data;
  for (const auto& [name, t] : named(model.weights)) {
    tensors += "    (" + python_string(name) + ", (" + std::to_string(t->rows()) + ", " + std::to_string(t->cols()) + ")),\n";
    append_int8_rows(data, *t);
  }
  return "# -*- coding: utf-8 -*-\n"
         "# Rebuilds the Attention Playground trace of the trained model (tiny-lm) with NumPy alone.\n"
         "# Its variables: tokens, vocab, layers (one dict per layer: X, Q, K, V, scores, weights,\n"
         "# heads, output, Q_rope, K_rope) and log_probs (n x vocab: the log of the next-token\n"
         "# distribution).\n"
         "import base64\nimport numpy as np\n\n"
         "vocab = " + list(model.pieces.names) + "\n"
         "tokens = " + list(s.tokens) + "\n"
         "ids = np.array([vocab.index(t) for t in tokens])\n"
         "n, d_model, heads, d_k = len(ids), " + std::to_string(m.d_model) + ", " + std::to_string(m.heads) + ", " +
         std::to_string(m.d_model / m.heads) + "\n\n"
         "# The weights, in this order (the model's file without its header): each matrix as its rows'\n"
         "# scales (float32, little-endian), then its numbers (int8, row by row); a number is q * scale.\n"
         "_shapes = [\n" + tensors + "]\n"
         "_bytes = base64.b64decode(" + python_string(base64(data)) + ")\n"
         "W, _at = {}, 0\n"
         "for _name, _shape in _shapes:\n"
         "    _rows, _cols = _shape\n"
         "    _scales = np.frombuffer(_bytes, '<f4', _rows, _at).astype(np.float64)\n"
         "    _q = np.frombuffer(_bytes, 'i1', _rows * _cols, _at + 4 * _rows).astype(np.float64).reshape(_shape)\n"
         "    W[_name] = _q * _scales[:, None]\n"
         "    _at += _rows * (_cols + 4)\n\n"
         "# Each layer is the playground's self-attention: causal, RoPE on each head's queries and keys,\n"
         "# and every head's pass as below (the same code as the random weights' program).\n" +
         numpy_rope(layer) + "\n" + numpy_head_pass(layer) + "\n" +
         "x = W['E'][ids] + W['P'][:n]  # the residual stream: token embeddings plus learned positions (and RoPE in each layer)\n"
         "visible = np.tril(np.ones((n, n), dtype=bool))  # causal: position i sees positions 0..i\n"
         "layers = []\n"
         "for l in range(" + std::to_string(m.layers) + "):\n"
         "    W_q, W_k, W_v, W_o = (W['layers.%d.%s' % (l, k)] for k in ('W_q', 'W_k', 'W_v', 'W_o'))\n"
         "    Q, K, V = x @ W_q, x @ W_k, x @ W_v\n"
         "    Q_rope, K_rope = rope(Q, np.arange(n)), rope(K, np.arange(n))\n"
         "    scores, weights, head_outputs = np.zeros((heads, n, n)), np.zeros((heads, n, n)), np.zeros((heads, n, d_k))\n"
         "    for i in range(heads):\n"
         "        c = slice(i * d_k, (i + 1) * d_k)\n"
         "        _, scores[i], weights[i], head_outputs[i] = head_pass(Q_rope[:, c], K_rope[:, c], V[:, c], None, visible)\n"
         "    output = np.concatenate(list(head_outputs), axis=1) @ W_o\n"
         "    layers.append(dict(X=x, Q=Q, K=K, V=V, scores=scores, weights=weights, heads=head_outputs, output=output, Q_rope=Q_rope, K_rope=K_rope))\n"
         "    x = x + output  # each layer adds to the residual stream\n\n"
         "logits = x @ W['W_U'] + W['b_U'][0]\n"
         "log_probs = logits - logits.max(axis=1, keepdims=True)\n"
         "log_probs -= np.log(np.exp(log_probs).sum(axis=1, keepdims=True))\n"
         "top = np.argsort(-log_probs[-1])[:5]\n"
         "print('after', repr(''.join(tokens)), 'the model expects:', ', '.join('%r %.3f' % (vocab[i], np.exp(log_probs[-1][i])) for i in top))\n";
}

}  // namespace attention
