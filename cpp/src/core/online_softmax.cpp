#include "attention/core/online_softmax.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attention {

std::vector<OnlineBlock> online_softmax(const Matrix& logits, const Matrix& visible, const Matrix& values, long block) {
  const long n = logits.rows(), m = logits.cols(), dv = values.cols();
  const double none = -std::numeric_limits<double>::infinity();
  Vector top = Vector::Constant(n, none), l = Vector::Zero(n);
  Matrix o = Matrix::Zero(n, dv);
  std::vector<OnlineBlock> out;
  for (long start = 0; start < m; start += block) {
    const long end = std::min(m, start + block);
    OnlineBlock b;
    b.start = start;
    b.end = end;
    b.rescale = Vector::Ones(n);
    for (long r = 0; r < n; ++r) {
      const auto seen = [&](long j) { return visible.size() == 0 || visible(r, j) != 0.0; };
      double block_top = none;
      for (long j = start; j < end; ++j) {
        if (seen(j)) block_top = std::max(block_top, logits(r, j));
      }
      const double next = std::max(top(r), block_top);
      if (next == none) continue;  // nothing visible yet: m stays empty, l and o zero
      const double rescale = top(r) == none ? 0.0 : std::exp(top(r) - next);
      b.rescale(r) = rescale;
      l(r) *= rescale;
      o.row(r) *= rescale;
      for (long j = start; j < end; ++j) {
        if (!seen(j)) continue;
        const double e = std::exp(logits(r, j) - next);
        l(r) += e;
        o.row(r) += e * values.row(j);
      }
      top(r) = next;
    }
    for (long r = 0; r < n; ++r) b.m.push_back(top(r) == none ? std::nullopt : std::optional<double>(top(r)));
    b.l = l;
    b.o = o;
    b.out = Matrix::Zero(n, dv);
    for (long r = 0; r < n; ++r) {
      if (b.m[static_cast<std::size_t>(r)]) b.out.row(r) = o.row(r) / l(r);
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace attention
