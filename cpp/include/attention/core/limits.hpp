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
inline constexpr long max_vector = 2 * max_head_dim;           // v_a, decoder_state
inline constexpr long max_window = 9999;                      // mask window:D
inline constexpr std::uint64_t max_int_high = 1ull << 31;     // int:N embeddings/weights
// Arrays and objects inside one another in any JSON the core reads (a spec matrix needs 3).
inline constexpr std::size_t max_json_depth = 32;
inline constexpr std::size_t max_spec_bytes = 64 * 1024 * 1024;  // a spec file read by the CLI
// All numbers of one trace together (scores and weights are heads x n x n).
inline constexpr std::size_t max_trace_cells = 8'000'000;

// Training (trainer.hpp): small enough that a step stays a few milliseconds in the page's
// Web Worker, and that one call to step() cannot freeze it for long.
inline constexpr long max_train_d_model = 64;
inline constexpr long max_train_heads = 4;
inline constexpr long max_train_batch = 256;
inline constexpr long max_train_eval = 1024;                  // held-out examples
inline constexpr long max_train_steps_per_call = 1'000;
inline constexpr double max_learning_rate = 10.0;
inline constexpr std::size_t max_train_history = 512;         // points kept; older ones merged in pairs

}  // namespace attention::limits
