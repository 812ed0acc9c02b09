#include "attention/core/decode.hpp"

#include <cmath>

#include "attention/core/alibi.hpp"
#include "attention/core/attention.hpp"

namespace attention {

Result<Decode> run_decode(const Spec& s, const Parameters& p) {
  Decode out;
  const long n = static_cast<long>(s.tokens.size()), d = s.d_model, h = s.heads, kvh = s.kv_heads;
  const long dk = s.d_k, dv = s.d_v, group = h / kvh;
  const Matrix positions = s.positional == Positional::sinusoidal ? sinusoidal_encoding(n, d) : Matrix();
  const std::vector<double> slopes = s.positional == Positional::alibi ? alibi_slopes(h) : std::vector<double>();
  const Matrix visible_all = visibility<double>(s, n, n);  // (n, n): row t is what step t may see
  // The caches hold every row from the start, so a step appends without copying what is there;
  // what a step keeps is its copy of the rows so far (the trace shows the cache at each step).
  Matrix k_cache(n, kvh * dk), v_cache(n, kvh * dv);
  const auto u = [](long v) { return static_cast<std::uint64_t>(v); };
  for (long t = 0; t < n; ++t) {
    Matrix x = p.X.row(t);  // (1, d): only the new token
    if (positions.size()) x += positions.row(t);
    const Matrix q_plain = x * *p.W_q, k_plain = x * *p.W_k, v = x * *p.W_v;  // (1, h*d_k), (1, kvh*d_k), (1, kvh*d_v)
    // The rows the scores read, made as the full run makes them (the cache keeps keys so made).
    const Matrix q = scored_rows<double>(s, q_plain, t).last(q_plain), k = scored_rows<double>(s, k_plain, t).last(k_plain);
    k_cache.row(t) = k;
    v_cache.row(t) = v;
    const auto keys = k_cache.topRows(t + 1);    // (t+1, kvh*d_k)
    const auto values = v_cache.topRows(t + 1);  // (t+1, kvh*d_v)

    DecodeStep step;
    step.t = t;
    step.scores.resize(h, t + 1);
    step.weights.resize(h, t + 1);
    const Matrix visible = visible_all.block(t, 0, 1, t + 1);  // (1, t+1)
    Matrix concat(1, h * dv);
    for (long i = 0; i < h; ++i) {
      const long g = i / group;
      // Only query t's row of the bias: -m_h |t - j| for the t+1 keys so far.
      const Matrix bias = slopes.empty() ? Matrix() : alibi_bias_row(slopes[static_cast<std::size_t>(i)], t, t + 1);
      ATTENTION_TRY(pass, head_pass<double>(s, p, q.middleCols(i * dk, dk), keys.middleCols(g * dk, dk), values.middleCols(g * dv, dv), bias, visible, i));
      step.scores.row(i) = pass.logits;
      step.weights.row(i) = pass.weights;
      concat.middleCols(i * dv, dv) = pass.out;
    }
    step.output = after_heads<double>(p, concat);
    step.k_cache = keys;
    step.v_cache = values;
    out.steps.push_back(std::move(step));

    // Multiply-adds of this step: the projections, every query head over t+1 keys, W_o.
    const std::uint64_t attend = u(h) * u(t + 1) * u(dk + dv) + (p.W_o ? u(h * dv) * u(d) : 0);
    out.cost.with_cache += u(d) * u(h * dk + kvh * (dk + dv)) + attend;
    out.cost.without_cache += u(d) * u(h * dk) + u(t + 1) * u(d) * u(kvh * (dk + dv)) + attend;
    out.cost.with_so_far.push_back(out.cost.with_cache);
    out.cost.without_so_far.push_back(out.cost.without_cache);
  }
  return out;
}

}  // namespace attention
