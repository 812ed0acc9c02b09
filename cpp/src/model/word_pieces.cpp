#include "attention/model/word_pieces.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>

namespace attention {

namespace {
bool space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }  // Python's \s for bytes
int kind(unsigned char c) {  // the runs a word is made of: letters, digits, any other byte but whitespace
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) return 0;
  return c >= '0' && c <= '9' ? 1 : 2;
}

std::uint64_t pair_key(int a, int b) { return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b); }

// Every adjacent (a, b) in ids becomes `into`, left to right, without overlaps.
void merge(std::vector<int>& ids, int a, int b, int into) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < ids.size(); ++out) {
    if (i + 1 < ids.size() && ids[i] == a && ids[i + 1] == b) {
      ids[out] = into;
      i += 2;
    } else {
      ids[out] = ids[i++];
    }
  }
  ids.resize(out);
}

std::vector<int> byte_ids(const std::string& word) {
  std::vector<int> ids;
  for (const char c : word) ids.push_back(static_cast<unsigned char>(c));
  return ids;
}
}  // namespace

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  const std::size_t n = text.size();
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  for (std::size_t i = 0; i < n;) {
    std::size_t end = i;
    if (!space(at(i)) || (at(i) == ' ' && i + 1 < n && !space(at(i + 1)))) {
      const std::size_t first = at(i) == ' ' ? i + 1 : i;  // a leading space, then one kind's run
      end = first;
      while (end < n && !space(at(end)) && kind(at(end)) == kind(at(first))) ++end;
    } else {
      while (end < n && space(at(end))) ++end;
      // Before a word, the run gives up its last byte (the word's space, or a whitespace word of one).
      if (end < n && end - i > 1) --end;
    }
    words.push_back(text.substr(i, end - i));
    i = end;
  }
  return words;
}

std::string piece_name(const std::string& bytes) {
  static const char* hex = "0123456789ABCDEF";
  std::string name;
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= ' ' && c <= '~') || c == '\n') {
      name += ch;
    } else {
      name += {'<', '0', 'x', hex[c >> 4], hex[c & 15], '>'};
    }
  }
  return name;
}

WordPieces word_pieces(std::vector<std::array<int, 2>> merges) {
  WordPieces pieces;
  for (int b = 0; b < kByteTokens; ++b) pieces.bytes.emplace_back(1, static_cast<char>(b));
  for (const auto& [a, b] : merges) pieces.bytes.push_back(pieces.bytes[a] + pieces.bytes[b]);
  for (const std::string& bytes : pieces.bytes) {
    pieces.ids.emplace(piece_name(bytes), static_cast<int>(pieces.names.size()));
    pieces.names.push_back(piece_name(bytes));
  }
  for (std::size_t r = 0; r < merges.size(); ++r) pieces.rank.emplace(pair_key(merges[r][0], merges[r][1]), static_cast<int>(r));
  pieces.merges = std::move(merges);
  return pieces;
}

WordPieces learn_word_pieces(const std::string& corpus, long vocabulary) {
  std::map<std::string, long> counts;  // each distinct word, how often
  for (const std::string& word : split_words(corpus)) ++counts[word];
  std::vector<std::pair<std::vector<int>, long>> words;
  for (const auto& [word, count] : counts) words.emplace_back(byte_ids(word), count);

  std::vector<std::array<int, 2>> merges;
  std::vector<std::string> bytes;
  std::set<std::string> names;
  for (int b = 0; b < kByteTokens; ++b) {
    bytes.emplace_back(1, static_cast<char>(b));
    names.insert(piece_name(bytes.back()));
  }
  std::set<std::uint64_t> passed_over;
  while (static_cast<long>(bytes.size()) < vocabulary) {
    std::unordered_map<std::uint64_t, long> pairs;
    for (const auto& [ids, count] : words) {
      for (std::size_t i = 0; i + 1 < ids.size(); ++i) pairs[pair_key(ids[i], ids[i + 1])] += count;
    }
    std::uint64_t best = 0;
    long most = 1;  // a pair seen once is not worth a token
    for (const auto& [key, count] : pairs) {
      if ((count > most || (count == most && key < best)) && !passed_over.count(key)) {
        best = key;
        most = count;
      }
    }
    if (most < 2) break;
    const int a = static_cast<int>(best >> 32), b = static_cast<int>(best & 0xFFFFFFFFu);
    if (!names.insert(piece_name(bytes[a] + bytes[b])).second) {
      passed_over.insert(best);
      continue;
    }
    const int into = static_cast<int>(bytes.size());
    bytes.push_back(bytes[a] + bytes[b]);
    merges.push_back({a, b});
    for (auto& word : words) merge(word.first, a, b, into);
  }
  return word_pieces(std::move(merges));
}

std::vector<int> encode_pieces(const WordPieces& pieces, const std::string& text) {
  std::unordered_map<std::string, std::vector<int>> seen;  // a word that repeats is merged once
  std::vector<int> out;
  for (const std::string& word : split_words(text)) {
    auto [it, fresh] = seen.try_emplace(word);
    if (fresh) {
      std::vector<int> ids = byte_ids(word);
      for (;;) {  // the earliest-learned merge among the adjacent pairs, until none applies
        int first = -1;
        for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
          const auto r = pieces.rank.find(pair_key(ids[i], ids[i + 1]));
          if (r != pieces.rank.end() && (first < 0 || r->second < first)) first = r->second;
        }
        if (first < 0) break;
        merge(ids, pieces.merges[first][0], pieces.merges[first][1], kByteTokens + first);
      }
      it->second = std::move(ids);
    }
    out.insert(out.end(), it->second.begin(), it->second.end());
  }
  return out;
}

std::vector<int> piece_ids(const WordPieces& pieces, const std::vector<std::string>& names) {
  std::vector<int> out;
  for (const std::string& name : names) {
    const auto it = pieces.ids.find(name);
    out.push_back(it == pieces.ids.end() ? -1 : it->second);
  }
  return out;
}

std::vector<int> printable_pieces(const WordPieces& pieces) {
  std::vector<int> out;
  for (std::size_t id = 0; id < pieces.bytes.size(); ++id) {
    const std::string& b = pieces.bytes[id];
    if (std::all_of(b.begin(), b.end(), [](char c) { return c >= ' ' && c <= '~'; })) out.push_back(static_cast<int>(id));
  }
  return out;
}

}  // namespace attention
