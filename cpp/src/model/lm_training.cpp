#include "attention/model/lm_training.hpp"

#include <algorithm>
#include <cmath>

#include "attention/kernel/small_product.hpp"
#include "attention/kernel/softmax_numerators.hpp"

namespace attention {

// Every product goes through multiply_small, whose order of sums is fixed: a step natively and
// in wasm gives the same numbers (Eigen's GEMM blocks by the machine's vector width), and in
// wasm it was the faster.
LmBatchPass lm_forward(const LmShape& s, const LmWeights& w, const std::vector<std::vector<int>>& windows) {
  const long B = static_cast<long>(windows.size()), n = static_cast<long>(windows.front().size()) - 1;
  const long d = s.d_model, h = s.heads, dk = d / h, V = s.vocabulary;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  LmBatchPass f;
  Matrix x(B * n, d);
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < n; ++i) x.row(e * n + i) = w.E.row(windows[static_cast<std::size_t>(e)][static_cast<std::size_t>(i)]) + w.P.row(i);
  }
  for (const LmLayer& layer : w.layers) {
    f.x.push_back(x);
    const Matrix& X = f.x.back();
    f.Q.push_back(multiply_small(X, layer.W_q));
    f.K.push_back(multiply_small(X, layer.W_k));
    f.V.push_back(multiply_small(X, layer.W_v));
    Matrix concat(B * n, d);
    std::vector<Matrix> attention;
    attention.reserve(static_cast<std::size_t>(B * h));
    for (long e = 0; e < B; ++e) {
      for (long i = 0; i < h; ++i) {
        Matrix& a = attention.emplace_back(n, n);  // the scores, then their causal softmax
        multiply_small(f.Q.back().block(e * n, i * dk, n, dk), f.K.back().block(e * n, i * dk, n, dk).transpose(), a);
        for (long r = 0; r < n; ++r) {
          a.row(r).head(r + 1) /= softmax_numerators(a.row(r).data(), r + 1, scale);
          a.row(r).tail(n - r - 1).setZero();
        }
        multiply_small(a, f.V.back().block(e * n, i * dk, n, dk), concat.block(e * n, i * dk, n, dk));
      }
    }
    multiply_small(concat, layer.W_o, x, true);
    f.attention.push_back(std::move(attention));
    f.concat.push_back(std::move(concat));
  }
  f.x.push_back(x);
  f.probabilities = multiply_small(x, w.W_U);
  f.probabilities.rowwise() += w.b_U.row(0);
  double total = 0;
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < n; ++i) {
      const long r = e * n + i;
      const double top = f.probabilities.row(r).maxCoeff();
      const int y = windows[static_cast<std::size_t>(e)][static_cast<std::size_t>(i + 1)];
      const double logit = f.probabilities(r, y);
      const double sum = softmax_numerators(f.probabilities.row(r).data(), V, 1.0);  // of exp(logit - top)
      f.probabilities.row(r) /= sum;
      total += top + std::log(sum) - logit;  // -log softmax, stays finite when the probability underflows
    }
  }
  f.loss = total / static_cast<double>(B * n);
  return f;
}

LmWeights lm_backward(const LmShape& s, const LmWeights& w, const std::vector<std::vector<int>>& windows, const LmBatchPass& f) {
  const long B = static_cast<long>(windows.size()), n = static_cast<long>(windows.front().size()) - 1;
  const long d = s.d_model, h = s.heads, dk = d / h;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  LmWeights g = zeros_like(w);

  // Cross-entropy through softmax: d logits = (probabilities - one_hot(next token)) / (B n).
  Matrix d_logits = f.probabilities / static_cast<double>(B * n);  // (B*n, V)
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < n; ++i) d_logits(e * n + i, windows[static_cast<std::size_t>(e)][static_cast<std::size_t>(i + 1)]) -= 1.0 / static_cast<double>(B * n);
  }
  g.W_U = multiply_small(f.x.back().transpose(), d_logits);
  g.b_U = d_logits.colwise().sum();
  Matrix d_x = multiply_small(d_logits, w.W_U.transpose());  // (B*n, d): the gradient of the residual stream

  Matrix d_Q(B * n, d), d_K(B * n, d), d_V(B * n, d);
  Matrix d_a(n, n), d_scores(n, n);
  Vector row_dot(n);
  for (long l = static_cast<long>(w.layers.size()) - 1; l >= 0; --l) {
    const auto L = static_cast<std::size_t>(l);
    const LmLayer& layer = w.layers[L];
    LmLayer& grad = g.layers[L];
    grad.W_o = multiply_small(f.concat[L].transpose(), d_x);
    const Matrix d_concat = multiply_small(d_x, layer.W_o.transpose());  // (B*n, d)
    for (long e = 0; e < B; ++e) {
      for (long i = 0; i < h; ++i) {
        const Matrix& a = f.attention[L][static_cast<std::size_t>(e * h + i)];  // (n, n)
        const auto d_out = d_concat.block(e * n, i * dk, n, dk);               // (n, dk)
        multiply_small(d_out, f.V[L].block(e * n, i * dk, n, dk).transpose(), d_a);
        multiply_small(a.transpose(), d_out, d_V.block(e * n, i * dk, n, dk));
        // Through the row softmax: dS = A o (dA - rowsum(dA o A)), then the 1/sqrt(d_k); a
        // hidden key has A = 0, so its score gets no gradient.
        row_dot = d_a.cwiseProduct(a).rowwise().sum();
        d_scores = (a.array() * (d_a.array().colwise() - row_dot.array())).matrix() * scale;
        multiply_small(d_scores, f.K[L].block(e * n, i * dk, n, dk), d_Q.block(e * n, i * dk, n, dk));
        multiply_small(d_scores.transpose(), f.Q[L].block(e * n, i * dk, n, dk), d_K.block(e * n, i * dk, n, dk));
      }
    }
    grad.W_q = multiply_small(f.x[L].transpose(), d_Q);
    grad.W_k = multiply_small(f.x[L].transpose(), d_K);
    grad.W_v = multiply_small(f.x[L].transpose(), d_V);
    // x_{l+1} = x_l + attention(x_l): the stream's gradient passes on, plus what flows through Q, K, V.
    multiply_small(d_Q, layer.W_q.transpose(), d_x, true);
    multiply_small(d_K, layer.W_k.transpose(), d_x, true);
    multiply_small(d_V, layer.W_v.transpose(), d_x, true);
  }
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < n; ++i) {
      g.E.row(windows[static_cast<std::size_t>(e)][static_cast<std::size_t>(i)]) += d_x.row(e * n + i);
      g.P.row(i) += d_x.row(e * n + i);
    }
  }
  return g;
}

std::vector<std::vector<HeadScores>> probe_head_scores(const LanguageModel& model, long length, std::uint32_t seed) {
  if (length < 1 || 2 * length > model.shape.context) return {};
  NumpyRandom rng(seed);
  const Matrix draws = rng.randint(static_cast<std::uint64_t>(model.shape.vocabulary - 2), 1, length);  // printable characters
  std::vector<int> ids;
  std::vector<std::string> tokens;
  for (int copy = 0; copy < 2; ++copy) {
    for (long i = 0; i < length; ++i) {
      ids.push_back(2 + static_cast<int>(draws(0, i)));
      tokens.push_back(model.vocab[static_cast<std::size_t>(ids.back())]);
    }
  }
  ids.push_back(0);  // a target for the last position: the loss is not read
  const LmBatchPass f = lm_forward(model.shape, model.weights, {ids});
  std::vector<std::vector<HeadScores>> out;
  for (const auto& layer : f.attention) {
    std::vector<HeadScores>& scores = out.emplace_back();
    for (const Matrix& head : layer) scores.push_back(head_scores(head, tokens));
  }
  return out;
}

double unigram_loss(const std::vector<int>& train, const std::vector<int>& held_out, long vocabulary) {
  std::vector<double> counts(static_cast<std::size_t>(vocabulary), 1.0);
  for (const int id : train) counts[static_cast<std::size_t>(id)] += 1;
  const double total = static_cast<double>(train.size() + static_cast<std::size_t>(vocabulary));
  double loss = 0;
  for (const int id : held_out) loss -= std::log(counts[static_cast<std::size_t>(id)] / total);
  return loss / static_cast<double>(held_out.size());
}

LmTrainer::LmTrainer(const LmTrainingSettings& settings, std::vector<int> train, std::vector<int> held_out)
    : settings_(settings),
      train_(std::move(train)),
      held_out_(std::move(held_out)),
      weights_(init_weights(settings.shape, settings.seed)),
      optimizer_(OptimizerSettings{OptimizerKind::adam, settings.learning_rate}, tensors_of(named(std::as_const(weights_)))),
      batches_(settings.seed + 1) {}

double LmTrainer::step() {
  const long n = settings_.shape.context;
  const auto span = [&](long length) {
    const long start = static_cast<long>(batches_.randint(train_.size() - static_cast<std::size_t>(length)));
    return std::vector<int>(train_.begin() + start, train_.begin() + start + length);
  };
  std::vector<std::vector<int>> windows;
  for (long b = 0; b < settings_.batch_size; ++b) {
    std::vector<int> w = span(n + 1);
    if (batches_.uniform() < settings_.repeat_share) {
      const long longest = std::min<long>(64, (n + 1) / 2);  // a span and its copy fit in the n + 1 tokens
      const long shortest = std::min<long>(8, longest);
      const long length = shortest + static_cast<long>(batches_.randint(static_cast<std::uint64_t>(longest - shortest + 1)));
      const long at = static_cast<long>(batches_.randint(static_cast<std::uint64_t>(n + 2 - 2 * length)));  // 0 to n + 1 - 2 length
      for (long i = 0; i < length; ++i) {
        w[static_cast<std::size_t>(at + i)] = w[static_cast<std::size_t>(at + length + i)] = 2 + static_cast<int>(batches_.randint(95));
      }
    }
    windows.push_back(std::move(w));
  }
  const LmBatchPass f = lm_forward(settings_.shape, weights_, windows);
  const LmWeights g = lm_backward(settings_.shape, weights_, windows, f);
  optimizer_.step(tensors_of(named(weights_)), tensors_of(named(g)));
  return f.loss;
}

double text_loss(const LmShape& s, const LmWeights& w, const std::vector<int>& text, long count) {
  const std::size_t length = static_cast<std::size_t>(s.context + 1);
  std::vector<std::vector<int>> windows;
  for (std::size_t start = 0; start + length <= text.size() && static_cast<long>(windows.size()) < count; start += length) {
    windows.emplace_back(text.begin() + static_cast<long>(start), text.begin() + static_cast<long>(start + length));
  }
  return lm_forward(s, w, windows).loss;
}

double LmTrainer::held_out_loss() const { return text_loss(settings_.shape, weights_, held_out_, settings_.eval_windows); }

}  // namespace attention
