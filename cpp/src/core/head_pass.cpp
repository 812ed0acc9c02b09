#include "attention/core/head_pass.hpp"

#include <algorithm>
#include <cmath>

#include "attention/core/rope.hpp"
#include "attention/core/softmax.hpp"

namespace attention {

template <class T>
ScoredRows<T> scored_rows(const Spec& s, const MatrixT<T>& projected, long first) {
  ScoredRows<T> r;
  if (s.qk_norm) {
    // q / sqrt(mean(q^2) + eps) per head, as torch.nn.functional.rms_norm with unit weights. The
    // row is divided by its largest value first (and eps by its square) so q^2 stays finite.
    const long dk = s.d_k;
    r.norm = MatrixT<T>(projected.rows(), projected.cols());
    for (long i = 0; i < projected.rows(); ++i) {
      for (long c = 0; c < projected.cols(); c += dk) {
        const auto x = projected.row(i).segment(c, dk);
        const T m = std::max(T(1), x.cwiseAbs().maxCoeff());
        const T rms = std::sqrt((x.array() / m).square().mean() + T(1e-6) / m / m);
        r.norm->row(i).segment(c, dk) = (x.array() / m / rms).matrix();
      }
    }
  }
  const MatrixT<T>& turned = r.norm ? *r.norm : projected;
  if (s.positional == Positional::rope) r.rope = rope_rotate<T>(turned, s.d_k, s.rope_base, s.rope_style, first);
  return r;
}

template <class T>
MatrixT<T> score_matrix(const Spec& s, const Parameters& p, const MatrixT<T>& q, const MatrixT<T>& k) {
  switch (s.score) {
    case ScoreKind::dot:
    case ScoreKind::scaled_dot:
      return q * k.transpose();
    case ScoreKind::general:
      return q * p.W_a->template cast<T>() * k.transpose();
    case ScoreKind::additive: {
      const MatrixT<T> a = q * p.W_1->template cast<T>();  // (n, d_a)
      const MatrixT<T> b = k * p.W_2->template cast<T>();  // (m, d_a)
      const auto v = p.v_a->template cast<T>().row(0).eval();
      MatrixT<T> out(q.rows(), k.rows());
      for (long i = 0; i < q.rows(); ++i) {
        for (long j = 0; j < k.rows(); ++j) {
          out(i, j) = ((a.row(i) + b.row(j)).array().tanh() * v.array()).sum();
        }
      }
      return out;
    }
  }
  return MatrixT<T>();
}

double effective_scale(const Spec& s) {
  if (s.scale) return *s.scale;
  return s.score == ScoreKind::scaled_dot ? 1.0 / std::sqrt(static_cast<double>(s.d_k)) : 1.0;
}

bool keeps_raw_scores(const Spec& s) { return s.positional == Positional::alibi || s.softcap.has_value(); }

template <class T>
MatrixT<T> logits_of(const Spec& s, const MatrixT<T>& raw, const Matrix& bias) {
  if (bias.size() == 0 && !s.softcap) return raw * static_cast<T>(effective_scale(s) / s.temperature);
  MatrixT<T> x = raw * static_cast<T>(effective_scale(s));
  if (bias.size() != 0) x += bias.cast<T>();
  if (s.softcap) {
    const T cap = static_cast<T>(*s.softcap);
    x = ((x.array() / cap).tanh() * cap).matrix();
  }
  return x / static_cast<T>(s.temperature);
}

template <class T>
MatrixT<T> normalise(const Spec& s, const MatrixT<T>& logits, const MatrixT<T>& visible, std::vector<long>* empty_rows) {
  return s.hard ? hardmax_rows<T>(logits, visible, empty_rows) : softmax_rows<T>(logits, visible, empty_rows);
}

template <class T>
Result<HeadPass<T>> head_pass(const Spec& s, const Parameters& p, const MatrixT<T>& q, const MatrixT<T>& k, const MatrixT<T>& v,
                              const Matrix& bias, const MatrixT<T>& visible, std::optional<long> head, std::vector<long>* empty_rows) {
  HeadPass<T> r;
  r.raw = score_matrix<T>(s, p, q, k);
  r.logits = logits_of<T>(s, r.raw, bias);
  if (!r.logits.allFinite()) {
    return error_at(score_overflow_field(s, r.raw.allFinite()), "the scores" + (head ? " of head " + std::to_string(*head) : std::string()) +
                                                                    " overflow; use smaller values, a smaller scale or a higher temperature");
  }
  r.weights = normalise<T>(s, r.logits, visible, empty_rows);
  r.out = r.weights * v;
  return r;
}

template <class T>
MatrixT<T> after_heads(const Parameters& p, const MatrixT<T>& concat) {
  return p.W_o ? MatrixT<T>(concat * p.W_o->template cast<T>()) : concat;
}

std::string score_overflow_field(const Spec& s, bool unscaled_finite) {
  if (unscaled_finite) {  // the factor did it: the larger of its two parts
    const double scale = std::abs(effective_scale(s)), cold = 1.0 / s.temperature;
    if (cold > 1 && cold >= scale) return "temperature";
    if (scale > 1) return "scale";
  }
  return s.mode == Mode::encoder_decoder ? "annotations" : "X";
}

template ScoredRows<double> scored_rows(const Spec&, const MatrixT<double>&, long);
template MatrixT<double> score_matrix(const Spec&, const Parameters&, const MatrixT<double>&, const MatrixT<double>&);
template MatrixT<double> logits_of(const Spec&, const MatrixT<double>&, const Matrix&);
template MatrixT<double> normalise(const Spec&, const MatrixT<double>&, const MatrixT<double>&, std::vector<long>*);
template Result<HeadPass<double>> head_pass(const Spec&, const Parameters&, const MatrixT<double>&, const MatrixT<double>&, const MatrixT<double>&, const Matrix&,
                                            const MatrixT<double>&, std::optional<long>, std::vector<long>*);
template MatrixT<double> after_heads(const Parameters&, const MatrixT<double>&);
template ScoredRows<float> scored_rows(const Spec&, const MatrixT<float>&, long);
template MatrixT<float> score_matrix(const Spec&, const Parameters&, const MatrixT<float>&, const MatrixT<float>&);
template MatrixT<float> logits_of(const Spec&, const MatrixT<float>&, const Matrix&);
template MatrixT<float> normalise(const Spec&, const MatrixT<float>&, const MatrixT<float>&, std::vector<long>*);
template Result<HeadPass<float>> head_pass(const Spec&, const Parameters&, const MatrixT<float>&, const MatrixT<float>&, const MatrixT<float>&, const Matrix&,
                                            const MatrixT<float>&, std::optional<long>, std::vector<long>*);
template MatrixT<float> after_heads(const Parameters&, const MatrixT<float>&);

}  // namespace attention
