#pragma once
// Every size limit of the core, in one place: the CLI, the wasm module and the page all
// enforce these, and the messages that cite them are built from these constants.
#include <cstddef>
#include <cstdint>

namespace attention::limits {

inline constexpr std::size_t max_tokens = 512;
inline constexpr std::size_t max_token_bytes = 256;          // one token's UTF-8 length
inline constexpr std::size_t max_sentence_bytes = 64 * 1024;
inline constexpr long max_d_model = 1024;
inline constexpr long max_heads = 64;
inline constexpr long max_head_dim = 1024;                    // d_k, d_v, d_a
inline constexpr std::uint64_t max_int_high = 1ull << 31;     // int:N embeddings/weights
// All numbers of one trace together (scores and weights are heads x n x n).
inline constexpr std::size_t max_trace_cells = 8'000'000;

}  // namespace attention::limits
