#pragma once
// Why scaled dot-product attention scales (Vaswani et al., footnote 4): when the components of
// q and k are independent with mean 0 and variance 1, q . k has variance d_k. Unscaled, the
// scores spread as d_k grows, the softmax saturates and each row puts nearly all its weight on
// one key (its entropy falls to 0); divided by sqrt(d_k), the spread, and the entropy, stay put.
#include <vector>

#include <nlohmann/json.hpp>

#include "attention/core/error.hpp"
#include "attention/core/spec.hpp"

namespace attention {

// For each width w: np.random.seed(seed); Q = randn(n, w); K = randn(n, w) with n the spec's
// token count; the weights softmax(Q K^T / temperature) ("dot") and softmax(Q K^T / sqrt(w) /
// temperature) ("scaled_dot"), no mask. Returns {"d_k": [w...], "dot": [H...],
// "scaled_dot": [H...], "uniform": log n}, H the mean entropy of the rows in nats.
Result<nlohmann::json> entropy_curve(const Spec& spec, const std::vector<long>& widths);

}  // namespace attention
