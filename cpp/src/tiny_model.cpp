#include "attention/tiny_model.hpp"

#include <cmath>

#include "attention/attention.hpp"
#include "attention/rng.hpp"
#include "attention/softmax.hpp"

namespace attention {

namespace {
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
  f.Q = f.X * w.W_q;
  f.K = f.X * w.W_k;
  f.V = f.X * w.W_v;
  f.concat.resize(B * n, d);
  f.attention.reserve(static_cast<std::size_t>(B * h));
  const Matrix all_visible;
  Matrix scores(n, n);  // reused: allocations, not flops, dominate at these sizes (and under ASan)
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < h; ++i) {
      scores.noalias() = f.Q.block(e * n, i * dk, n, dk) * f.K.block(e * n, i * dk, n, dk).transpose();
      scores *= scale;
      Matrix a = softmax_rows<double>(scores, all_visible, nullptr);  // (n, n)
      f.concat.block(e * n, i * dk, n, dk).noalias() = a * f.V.block(e * n, i * dk, n, dk);
      f.attention.push_back(std::move(a));
    }
  }
  f.H = f.concat * w.W_o;
  if (s.residual) f.H += f.X;
  f.logits = f.H * w.W_r;
  f.logits.rowwise() += w.b.row(0);
  f.probabilities = softmax_rows<double>(f.logits, all_visible, nullptr);

  f.predictions.assign(static_cast<std::size_t>(B * n), 0);
  double total = 0;
  for (long e = 0; e < B; ++e) {
    const auto& targets = batch[static_cast<std::size_t>(e)].targets;
    for (long i = 0; i < n; ++i) {
      const long r = e * n + i;
      Eigen::Index best;
      f.logits.row(r).maxCoeff(&best);
      f.predictions[static_cast<std::size_t>(r)] = static_cast<int>(best);
      const int y = targets[static_cast<std::size_t>(i)];
      if (y < 0) continue;
      // -log softmax from the logits (log-sum-exp), not log(probability): stays finite when
      // the probability underflows to 0.
      const double top = f.logits.row(r).maxCoeff();
      total += top + std::log((f.logits.row(r).array() - top).exp().sum()) - f.logits(r, y);
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
  g.W_r = f.H.transpose() * d_logits;
  g.b = d_logits.colwise().sum();
  const Matrix d_H = d_logits * w.W_r.transpose();  // (B*n, d)
  g.W_o = f.concat.transpose() * d_H;
  const Matrix d_concat = d_H * w.W_o.transpose();  // (B*n, d)

  Matrix d_Q(B * n, d), d_K(B * n, d), d_V(B * n, d);
  Matrix d_a(n, n), d_scores(n, n);  // reused for every example and head
  Vector row_dot(n);
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < h; ++i) {
      const Matrix& a = f.attention[static_cast<std::size_t>(e * h + i)];  // (n, n)
      const auto d_out = d_concat.block(e * n, i * dk, n, dk);             // (n, dk)
      d_a.noalias() = d_out * f.V.block(e * n, i * dk, n, dk).transpose();
      d_V.block(e * n, i * dk, n, dk).noalias() = a.transpose() * d_out;
      // Through the row softmax: dS = A o (dA - rowsum(dA o A)), then the 1/sqrt(d_k).
      row_dot = d_a.cwiseProduct(a).rowwise().sum();
      d_scores = (a.array() * (d_a.array().colwise() - row_dot.array())).matrix() * scale;
      d_Q.block(e * n, i * dk, n, dk).noalias() = d_scores * f.K.block(e * n, i * dk, n, dk);
      d_K.block(e * n, i * dk, n, dk).noalias() = d_scores.transpose() * f.Q.block(e * n, i * dk, n, dk);
    }
  }
  g.W_q = f.X.transpose() * d_Q;
  g.W_k = f.X.transpose() * d_K;
  g.W_v = f.X.transpose() * d_V;
  Matrix d_X = d_Q * w.W_q.transpose() + d_K * w.W_k.transpose() + d_V * w.W_v.transpose();  // (B*n, d)
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
