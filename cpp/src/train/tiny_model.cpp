#include "attention/train/tiny_model.hpp"

#include <cmath>

#include "attention/core/attention.hpp"
#include "attention/core/rng.hpp"
#include "attention/kernel/small_product.hpp"
#include "attention/kernel/softmax_numerators.hpp"

namespace attention {

namespace {
// Each row of m (n, c) = softmax(row * scale), in place, with the kernel's vector exp: the
// scalar exp of every number took 32 us of a training step's 229 natively, and 33 in Chromium.
void softmax_rows_in_place(Matrix& m, double scale) {
  for (long i = 0; i < m.rows(); ++i) {
    m.row(i) /= softmax_numerators(m.row(i).data(), m.cols(), scale);  // of finite scores a sum >= 1: the top entry is 1
  }
}

// One list for both constnesses: W is Weights or const Weights, M is Matrix or const Matrix.
template <class M, class W>
std::vector<std::pair<std::string, M*>> tensors(W& w) {
  std::vector<std::pair<std::string, M*>> out = {{"E", &w.E}};
  if (w.P.size() > 0) out.emplace_back("P", &w.P);
  out.insert(out.end(), {{"W_q", &w.W_q}, {"W_k", &w.W_k}, {"W_v", &w.W_v}, {"W_o", &w.W_o},
                         {"W_r", &w.W_r}, {"b", &w.b}});
  return out;
}
}  // namespace

std::vector<std::pair<std::string, Matrix*>> named(Weights& w) { return tensors<Matrix>(w); }
std::vector<std::pair<std::string, const Matrix*>> named(const Weights& w) { return tensors<const Matrix>(w); }

Weights zeros_like(const Weights& w) {
  const auto zero = [](const Matrix& m) -> Matrix { return Matrix::Zero(m.rows(), m.cols()); };
  return Weights{zero(w.E), zero(w.P), zero(w.W_q), zero(w.W_k), zero(w.W_v), zero(w.W_o), zero(w.W_r), zero(w.b)};
}

Weights init_weights(const ModelShape& s, std::uint32_t seed) {
  NumpyRandom rng(seed);
  const long d = s.d_model;
  const double w_scale = 1.0 / std::sqrt(static_cast<double>(d));
  Weights w;
  w.E = rng.randn(s.vocabulary, d);
  if (s.positional == Positional::learned) w.P = rng.randn(s.length, d);
  w.W_q = rng.randn(d, d) * w_scale;
  w.W_k = rng.randn(d, d) * w_scale;
  w.W_v = rng.randn(d, d) * w_scale;
  w.W_o = rng.randn(d, d) * w_scale;
  w.W_r = rng.randn(d, s.classes) * w_scale;
  w.b = Matrix::Zero(1, s.classes);
  return w;
}

ForwardPass forward(const ModelShape& s, const Weights& w, const std::vector<Example>& batch) {
  const long B = static_cast<long>(batch.size()), n = s.length, d = s.d_model, h = s.heads, dk = d / h;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  ForwardPass f;

  Matrix positions;  // (n, d)
  if (s.positional == Positional::sinusoidal) positions = sinusoidal_encoding(n, d);
  if (s.positional == Positional::learned) positions = w.P;
  f.X.resize(B * n, d);
  for (long e = 0; e < B; ++e) {
    const auto& tokens = batch[static_cast<std::size_t>(e)].tokens;
    for (long i = 0; i < n; ++i) {
      f.X.row(e * n + i) = w.E.row(tokens[static_cast<std::size_t>(i)]);
      if (positions.size() > 0) f.X.row(e * n + i) += positions.row(i);
    }
  }
  // One product for the whole batch; only the (n, n) attention is per example.
  f.Q = multiply_small(f.X, w.W_q);
  f.K = multiply_small(f.X, w.W_k);
  f.V = multiply_small(f.X, w.W_v);
  f.concat.resize(B * n, d);
  f.attention.reserve(static_cast<std::size_t>(B * h));
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < h; ++i) {
      Matrix& a = f.attention.emplace_back(n, n);  // the scores, then their softmax
      multiply_small(f.Q.block(e * n, i * dk, n, dk), f.K.block(e * n, i * dk, n, dk).transpose(), a);
      softmax_rows_in_place(a, scale);
      multiply_small(a, f.V.block(e * n, i * dk, n, dk), f.concat.block(e * n, i * dk, n, dk));
    }
  }
  f.H = multiply_small(f.concat, w.W_o);
  if (s.residual) f.H += f.X;
  f.logits = multiply_small(f.H, w.W_r);
  f.logits.rowwise() += w.b.row(0);
  f.probabilities = f.logits;

  f.predictions.assign(static_cast<std::size_t>(B * n), 0);
  double total = 0;
  for (long e = 0; e < B; ++e) {
    const auto& targets = batch[static_cast<std::size_t>(e)].targets;
    for (long i = 0; i < n; ++i) {
      const long r = e * n + i;
      Eigen::Index best;
      const double top = f.logits.row(r).maxCoeff(&best);
      f.predictions[static_cast<std::size_t>(r)] = static_cast<int>(best);
      const double sum = softmax_numerators(f.probabilities.row(r).data(), f.probabilities.cols(), 1.0);  // of exp(logit - top)
      f.probabilities.row(r) /= sum;
      const int y = targets[static_cast<std::size_t>(i)];
      if (y < 0) continue;
      // -log softmax from the logits (log-sum-exp), not log(probability): stays finite when
      // the probability underflows to 0.
      total += top + std::log(sum) - f.logits(r, y);
      ++f.scored;
      if (best == y) ++f.correct;
    }
  }
  f.loss = f.scored > 0 ? total / static_cast<double>(f.scored) : 0.0;
  return f;
}

Weights backward(const ModelShape& s, const Weights& w, const std::vector<Example>& batch, const ForwardPass& f) {
  const long B = static_cast<long>(batch.size()), n = s.length, d = s.d_model, h = s.heads, dk = d / h;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  Weights g;

  // Cross-entropy through softmax: d logits = (probabilities - one_hot(target)) / scored.
  Matrix d_logits = Matrix::Zero(B * n, w.W_r.cols());  // (B*n, C)
  if (f.scored > 0) {
    const double per = 1.0 / static_cast<double>(f.scored);
    for (long e = 0; e < B; ++e) {
      const auto& targets = batch[static_cast<std::size_t>(e)].targets;
      for (long i = 0; i < n; ++i) {
        const int y = targets[static_cast<std::size_t>(i)];
        if (y < 0) continue;
        d_logits.row(e * n + i) = f.probabilities.row(e * n + i) * per;
        d_logits(e * n + i, y) -= per;
      }
    }
  }
  g.W_r = multiply_small(f.H.transpose(), d_logits);
  g.b = d_logits.colwise().sum();
  const Matrix d_H = multiply_small(d_logits, w.W_r.transpose());  // (B*n, d)
  g.W_o = multiply_small(f.concat.transpose(), d_H);
  const Matrix d_concat = multiply_small(d_H, w.W_o.transpose());  // (B*n, d)

  Matrix d_Q(B * n, d), d_K(B * n, d), d_V(B * n, d);
  Matrix d_a(n, n), d_scores(n, n);  // reused for every example and head
  Vector row_dot(n);
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < h; ++i) {
      const Matrix& a = f.attention[static_cast<std::size_t>(e * h + i)];  // (n, n)
      const auto d_out = d_concat.block(e * n, i * dk, n, dk);             // (n, dk)
      multiply_small(d_out, f.V.block(e * n, i * dk, n, dk).transpose(), d_a);
      multiply_small(a.transpose(), d_out, d_V.block(e * n, i * dk, n, dk));
      // Through the row softmax: dS = A o (dA - rowsum(dA o A)), then the 1/sqrt(d_k).
      row_dot = d_a.cwiseProduct(a).rowwise().sum();
      d_scores = (a.array() * (d_a.array().colwise() - row_dot.array())).matrix() * scale;
      multiply_small(d_scores, f.K.block(e * n, i * dk, n, dk), d_Q.block(e * n, i * dk, n, dk));
      multiply_small(d_scores.transpose(), f.Q.block(e * n, i * dk, n, dk), d_K.block(e * n, i * dk, n, dk));
    }
  }
  g.W_q = multiply_small(f.X.transpose(), d_Q);
  g.W_k = multiply_small(f.X.transpose(), d_K);
  g.W_v = multiply_small(f.X.transpose(), d_V);
  Matrix d_X = multiply_small(d_Q, w.W_q.transpose());  // (B*n, d)
  multiply_small(d_K, w.W_k.transpose(), d_X, true);
  multiply_small(d_V, w.W_v.transpose(), d_X, true);
  if (s.residual) d_X += d_H;

  g.E = Matrix::Zero(w.E.rows(), d);
  if (s.positional == Positional::learned) g.P = Matrix::Zero(n, d);
  for (long e = 0; e < B; ++e) {
    const auto& tokens = batch[static_cast<std::size_t>(e)].tokens;
    for (long i = 0; i < n; ++i) {
      g.E.row(tokens[static_cast<std::size_t>(i)]) += d_X.row(e * n + i);
      if (s.positional == Positional::learned) g.P.row(i) += d_X.row(e * n + i);
    }
  }
  return g;
}

}  // namespace attention
