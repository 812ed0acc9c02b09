#pragma once
// The seed of one word's own embedding (embedding_init "per_word"): the spec's seed XOR the
// CRC-32 of the word's UTF-8 bytes (zlib's polynomial, as Python's zlib.crc32), so the same
// word has the same vector in any sentence, and NumPy rebuilds it with
// np.random.RandomState(seed ^ zlib.crc32(word.encode())).rand(d_model).
#include <cstdint>
#include <string>

namespace attention {

std::uint32_t crc32(const std::string& bytes);
std::uint32_t word_seed(std::uint32_t seed, const std::string& word);

}  // namespace attention
