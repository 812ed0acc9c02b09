#include "attention/core/entropy.hpp"

#include <cmath>
#include <string>

#include "attention/core/rng.hpp"
#include "attention/core/softmax.hpp"

namespace attention {

namespace {

double mean_row_entropy(const Matrix& w) {  // (n, n), rows sum to 1
  double total = 0;
  for (long i = 0; i < w.rows(); ++i) {
    for (long j = 0; j < w.cols(); ++j) {
      if (w(i, j) > 0) total -= w(i, j) * std::log(w(i, j));
    }
  }
  return total / static_cast<double>(w.rows());
}

}  // namespace

Result<nlohmann::json> entropy_curve(const Spec& spec, const std::vector<long>& widths) {
  if (widths.empty() || widths.size() > 16) return error_at("widths", "give from 1 to 16 widths");
  const long n = static_cast<long>(spec.tokens.size());
  nlohmann::json out = {{"d_k", nlohmann::json::array()}, {"dot", nlohmann::json::array()},
                        {"scaled_dot", nlohmann::json::array()}, {"uniform", std::log(static_cast<double>(n))}};
  for (const long w : widths) {
    if (w < 1 || w > 1024) return error_at("widths", "each width must be from 1 to 1024, got " + std::to_string(w));
    NumpyRandom rng(spec.seed);
    const Matrix Q = rng.randn(n, w), K = rng.randn(n, w);
    const Matrix scores = Q * K.transpose() / spec.temperature;  // (n, n)
    out["d_k"].push_back(w);
    out["dot"].push_back(mean_row_entropy(softmax_rows<double>(scores, Matrix(), nullptr)));
    out["scaled_dot"].push_back(mean_row_entropy(softmax_rows<double>(scores / std::sqrt(static_cast<double>(w)), Matrix(), nullptr)));
  }
  return out;
}

}  // namespace attention
