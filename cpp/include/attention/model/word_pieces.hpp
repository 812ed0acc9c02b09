#pragma once
// Word pieces: byte-level byte-pair encoding (Sennrich et al. 2016, as GPT-2 uses it). A token is
// a run of bytes; the first 256 are the bytes themselves, so every text encodes (an emoji the
// corpus never held is read as its four bytes) and the tokens' bytes, joined, give the text back.
// Each learned merge joins the two tokens whose pair was most frequent in the corpus at its turn;
// encoding replays the merges in the order they were learned.
//
// Merges never cross a word: the text is first cut into words as GPT-2's pattern cuts it, without
// its contractions (in Python, re.findall(rb" ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+",
// text)): an optional leading space and a run of letters, of digits or of other bytes; a run of
// whitespace is a word of its own, except that the last space before a word joins that word.
// So " the" is one token and a leading space is part of the word it leads.
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace attention {

inline constexpr int kByteTokens = 256;

std::vector<std::string> split_words(const std::string& text);

struct WordPieces {
  std::vector<std::array<int, 2>> merges;  // merge r makes token 256 + r from two earlier tokens
  std::vector<std::string> bytes;          // each token's bytes, by id: 256 + merges.size() of them
  std::vector<std::string> names;          // each token as the vocabulary and the trace write it (piece_name)
  std::unordered_map<std::uint64_t, int> rank;  // (a << 32 | b) -> r, the merge that joins a and b: built once, read by every encoding
  std::unordered_map<std::string, int> ids;     // name -> id: what a list of tokens is read by
};

// The pieces from the merges alone (each merge's ids below its own): what a file's merges rebuild.
WordPieces word_pieces(std::vector<std::array<int, 2>> merges);

// Merges learned from corpus until there are `vocabulary` tokens, or no pair occurs twice. A tie
// in frequency goes to the pair of lower ids. A merge whose name would repeat an existing one
// (a corpus that writes "<0x00>" out) is passed over, so that every name is one token.
WordPieces learn_word_pieces(const std::string& corpus, long vocabulary);

std::vector<int> encode_pieces(const WordPieces& pieces, const std::string& text);  // token ids, in order

// Each name's id, -1 for a string that names no token.
std::vector<int> piece_ids(const WordPieces& pieces, const std::vector<std::string>& names);

// The tokens whose bytes are all printable ASCII (space to tilde), by id: what random text is drawn
// from (the probe of the heads, the trainer's random spans), so that it reads as text on the page.
std::vector<int> printable_pieces(const WordPieces& pieces);

// How a token is written: printable ASCII and the newline as themselves, any other byte as
// <0xNN> (two upper-case hex digits), so that every name is valid UTF-8 and says its bytes.
std::string piece_name(const std::string& bytes);

}  // namespace attention
