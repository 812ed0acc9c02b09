#pragma once
// Generation with a KV cache: the layer run position by position, as a decoder generates.
// Each step projects only the new token, appends one row per key/value head to the cache,
// and scores one query row over the cache. Step t reproduces row t of the full causal
// computation; what the cache saves is counted in multiply-adds.
#include <cstdint>
#include <vector>

#include "attention/core/error.hpp"
#include "attention/core/parameters.hpp"
#include "attention/core/scalar.hpp"
#include "attention/core/spec.hpp"

namespace attention {

struct DecodeStep {
  long t = 0;
  Matrix k_cache;  // (t+1, kv_heads*d_k): every key so far (rotated, with rope)
  Matrix v_cache;  // (t+1, kv_heads*d_v)
  Matrix scores;   // (heads, t+1): the logits of the new query over the cache
  Matrix weights;  // (heads, t+1)
  Matrix output;   // (1, width): this position's output row, after W_o
};

struct DecodeCost {
  std::uint64_t with_cache = 0;     // multiply-adds of all steps, keys and values cached
  std::uint64_t without_cache = 0;  // the same, projecting every key and value again at each step
  std::vector<std::uint64_t> with_so_far, without_so_far;  // n: the same after each step
};

struct Decode {
  std::vector<DecodeStep> steps;
  DecodeCost cost;
};

Result<Decode> run_decode(const Spec& spec, const Parameters& parameters);

}  // namespace attention
