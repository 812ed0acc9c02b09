#include "attention/core/attention.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "attention/core/alibi.hpp"
#include "attention/core/rope.hpp"

namespace attention {

Matrix sinusoidal_encoding(long n, long d) {
  Matrix pe(n, d);
  for (long pos = 0; pos < n; ++pos) {
    for (long i = 0; i < d; ++i) {
      const double angle = static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(2 * (i / 2)) / static_cast<double>(d));
      pe(pos, i) = (i % 2 == 0) ? std::sin(angle) : std::cos(angle);
    }
  }
  return pe;
}

template <class T>
MatrixT<T> layer_norm_rows(const MatrixT<T>& x) {
  MatrixT<T> y(x.rows(), x.cols());
  for (long i = 0; i < x.rows(); ++i) {
    // (x - mean) / sqrt(var + eps) is unchanged when x and sqrt(eps) are divided by the same m;
    // dividing a row of large values by its largest one keeps its sum and squares finite.
    const T m = std::max(T(1), x.row(i).cwiseAbs().maxCoeff());
    const auto row = (x.row(i).array() / m).eval();
    const auto centred = (row - row.mean()).eval();
    const T var = centred.square().mean();
    const T spread = std::sqrt(var + T(1e-5) / m / m);  // 0 only for a constant row of huge values
    if (spread > 0) y.row(i) = centred / spread;
    else y.row(i).setZero();
  }
  return y;
}

template <class T>
MatrixT<T> visibility(const Spec& s, long n, long m) {
  switch (s.mask) {
    case MaskKind::none: return MatrixT<T>();
    case MaskKind::matrix: return s.mask_matrix.cast<T>();
    case MaskKind::causal:
    case MaskKind::window:
    case MaskKind::causal_window: {
      MatrixT<T> v(n, m);
      for (long i = 0; i < n; ++i) {
        for (long j = 0; j < m; ++j) {
          const bool seen = s.mask == MaskKind::causal   ? j <= i
                            : s.mask == MaskKind::window ? std::abs(i - j) <= s.window
                                                         : j <= i && i - j <= s.window;
          v(i, j) = seen ? T(1) : T(0);
        }
      }
      return v;
    }
  }
  return MatrixT<T>();
}

template <class T>
Result<SelfTrace<T>> run_self(const Spec& s, KeptDraw* kept) {
  SelfTrace<T> t;
  t.tokens = s.tokens;
  t.parameters = draw_parameters(s, kept);
  const Parameters& p = t.parameters;
  const bool cross = s.mode == Mode::cross;
  const long n = static_cast<long>(s.tokens.size()), h = s.heads, dk = s.d_k, dv = s.d_v;
  const long m = cross ? static_cast<long>(s.source_tokens.size()) : n;

  MatrixT<T> X_in = p.X.cast<T>(), X_source_in = p.X_source.cast<T>();  // (n, d), (m, d)
  if (s.positional == Positional::sinusoidal) {
    t.positional = sinusoidal_encoding(n, s.d_model).cast<T>();
    t.X_in = X_in += *t.positional;
    if (cross) {
      t.positional_source = sinusoidal_encoding(m, s.d_model).cast<T>();
      t.X_source_in = X_source_in += *t.positional_source;
    }
  }
  const MatrixT<T>& source = cross ? X_source_in : X_in;  // what keys and values come from
  t.Q = X_in * p.W_q->cast<T>();
  t.K = source * p.W_k->cast<T>();
  t.V = source * p.W_v->cast<T>();
  // Every number the learner sees is finite: a projection may overflow before any score does.
  for (const MatrixT<T>* x : std::initializer_list<const MatrixT<T>*>{&X_in, &source, &t.Q, &t.K, &t.V}) {
    if (!x->allFinite()) return error_at("X", "the projections Q, K, V overflow; use smaller values in X or the weights");
  }
  if (s.positional == Positional::rope) t.rope_angles = rope_angles(std::max(n, m), dk, s.rope_base);
  const ScoredRows<T> queries = scored_rows<T>(s, t.Q), keys = scored_rows<T>(s, t.K);
  t.Q_norm = queries.norm;
  t.K_norm = keys.norm;
  t.Q_rope = queries.rope;
  t.K_rope = keys.rope;
  const MatrixT<T>& Q = queries.last(t.Q);
  const MatrixT<T>& K = keys.last(t.K);
  if (s.positional == Positional::alibi) {
    t.alibi_slopes = alibi_slopes(h);
    for (const double slope : t.alibi_slopes) t.bias.push_back(alibi_bias(slope, n, m));
  }
  t.scale = effective_scale(s);
  t.mask = visibility<T>(s, n, m);

  const long group = h / s.kv_heads;  // query heads per key/value head, as repeat_interleave
  t.concat.resize(n, h * dv);
  for (long i = 0; i < h; ++i) {
    const long g = i / group;
    t.kv_group.push_back(g);
    std::vector<long> empty;
    ATTENTION_TRY(pass, head_pass<T>(s, p, Q.middleCols(i * dk, dk), K.middleCols(g * dk, dk), t.V.middleCols(g * dv, dv),
                                     t.bias.empty() ? Matrix() : t.bias[static_cast<std::size_t>(i)], t.mask, i, &empty));
    if (i == 0) t.empty_rows = empty;
    t.concat.middleCols(i * dv, dv) = pass.out;
    if (keeps_raw_scores(s)) t.raw_scores.push_back(std::move(pass.raw));
    t.scores.push_back(std::move(pass.logits));
    t.weights.push_back(std::move(pass.weights));
    t.heads.push_back(std::move(pass.out));
  }
  t.output = after_heads<T>(p, t.concat);
  for (const long kv : {h, s.kv_heads, 1L}) {
    if (!t.kv_costs.empty() && t.kv_costs.back().kv_heads == kv) continue;  // MHA or MQA is this spec's
    const auto u = [](long v) { return static_cast<std::uint64_t>(v); };
    const std::uint64_t d = u(s.d_model);
    t.kv_costs.push_back({kv, d * u(h * dk) + d * u(kv * dk) + d * u(kv * dv) + (p.W_o ? u(h * dv) * d : 0), u(kv * (dk + dv))});
  }
  if (!t.concat.allFinite() || !t.output.allFinite()) return error_at("X", "the attention output overflows; use smaller values");

  if (s.residual || s.layer_norm) {
    MatrixT<T> sum = s.residual ? MatrixT<T>(X_in + t.output) : t.output;
    if (!sum.allFinite()) return error_at("residual", "the residual sum overflows; use smaller values");
    if (s.residual) t.residual_sum = sum;
    if (s.layer_norm) t.normalized = layer_norm_rows<T>(sum);  // finite for every finite sum
  }
  if constexpr (std::is_same_v<T, double>) {  // the steppers' numbers and head scores are shown in double only
    if (!cross) {
      for (const auto& w : t.weights) t.head_scores.push_back(head_scores(w, s.tokens));
    }
#ifdef ATTENTION_FIRST_HEATMAP
    if (s.online_block > 0) return needs_whole_core("the online softmax's blocks");
    if (s.decode) return needs_whole_core("decoding with a KV cache");
#else
    if (s.online_block > 0) {
      for (long i = 0; i < h; ++i) {
        const long g = t.kv_group[static_cast<std::size_t>(i)];
        t.online.push_back(online_softmax(t.scores[static_cast<std::size_t>(i)], t.mask, t.V.middleCols(g * dv, dv), s.online_block));
      }
    }
    if (s.decode) {
      auto d = run_decode(s, p);
      if (!d) return d.error();
      t.decode = std::move(d.value().steps);
      t.decode_cost = d.value().cost;
    }
#endif
  }
  return t;
}

template Result<SelfTrace<double>> run_self(const Spec&, KeptDraw*);
template Result<SelfTrace<float>> run_self(const Spec&, KeptDraw*);
template MatrixT<double> visibility(const Spec&, long, long);
template MatrixT<float> visibility(const Spec&, long, long);
template MatrixT<double> layer_norm_rows(const MatrixT<double>&);
template MatrixT<float> layer_norm_rows(const MatrixT<float>&);

}  // namespace attention
