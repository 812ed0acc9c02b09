#include "attention/parameters.hpp"

#include <unordered_map>

#include "attention/rng.hpp"
#include "attention/word_seed.hpp"

namespace attention {

std::vector<std::string> vocabulary(const std::vector<std::string>& tokens) {
  std::vector<std::string> words;
  std::unordered_map<std::string, int> seen;
  for (const auto& t : tokens) {
    if (seen.emplace(t, 0).second) words.push_back(t);
  }
  return words;
}

namespace {

Matrix draw(NumpyRandom& rng, const InitSpec& init, long rows, long cols) {
  switch (init.kind) {
    case Init::uniform: return rng.rand(rows, cols);
    case Init::normal: return rng.randn(rows, cols);
    case Init::integer: return rng.randint(init.high, rows, cols);
    case Init::per_word: break;  // drawn word by word, from streams of their own
  }
  return Matrix();
}

// Draws a matrix whether or not the spec gives it, so one explicit matrix never shifts the
// stream of the others.
Matrix draw_or(NumpyRandom& rng, const InitSpec& init, long rows, long cols, const std::optional<Matrix>& given) {
  Matrix m = draw(rng, init, rows, cols);
  return given ? *given : m;
}

}  // namespace

Parameters draw_parameters(const Spec& s) {
  NumpyRandom rng(s.seed);
  Parameters p;
  std::vector<std::string> all = s.tokens;  // cross: one vocabulary over both sentences
  all.insert(all.end(), s.source_tokens.begin(), s.source_tokens.end());
  p.vocabulary = vocabulary(all);
  const long d = s.d_model, h = s.heads;
  const bool ed = s.mode == Mode::encoder_decoder;

  if (!ed) {
    p.W_q = draw_or(rng, s.weight_init, d, h * s.d_k, s.W_q);
    p.W_k = draw_or(rng, s.weight_init, d, s.kv_heads * s.d_k, s.W_k);
    p.W_v = draw_or(rng, s.weight_init, d, s.kv_heads * s.d_v, s.W_v);
    if (h > 1) p.W_o = draw_or(rng, s.weight_init, h * s.d_v, d, s.W_o);
    else if (s.W_o) p.W_o = *s.W_o;
  } else {
    p.W_c = draw_or(rng, s.weight_init, 2 * d, d, s.W_c);
  }

  // One vector per distinct word, so a repeated word is the same vector (seed 004).
  const std::optional<Matrix>& given = ed ? s.annotations : s.X;
  std::unordered_map<std::string, long> row_of_word;
  Matrix words(static_cast<long>(p.vocabulary.size()), d);
  for (long w = 0; w < words.rows(); ++w) {
    const std::string& word = p.vocabulary[static_cast<std::size_t>(w)];
    if (s.embedding_init.kind == Init::per_word) {
      NumpyRandom own(word_seed(s.seed, word));
      words.row(w) = own.rand(1, d);
    } else {
      words.row(w) = draw(rng, s.embedding_init, 1, d);
    }
    row_of_word[word] = w;
  }
  const auto rows_of = [&](const std::vector<std::string>& tokens) {
    Matrix x(static_cast<long>(tokens.size()), d);
    for (long i = 0; i < x.rows(); ++i) x.row(i) = words.row(row_of_word[tokens[static_cast<std::size_t>(i)]]);
    return x;
  };
  p.X = given ? *given : rows_of(s.tokens);
  if (s.mode == Mode::cross) p.X_source = s.X_source ? *s.X_source : rows_of(s.source_tokens);
  if (ed) p.decoder_state = draw_or(rng, s.embedding_init, 1, d, s.decoder_state);

  if (s.score == ScoreKind::general) {
    p.W_a = draw_or(rng, s.weight_init, s.d_k, s.d_k, s.W_a);
  } else if (s.score == ScoreKind::additive) {
    p.W_1 = draw_or(rng, s.weight_init, s.d_k, s.d_a, s.W_1);
    p.W_2 = draw_or(rng, s.weight_init, s.d_k, s.d_a, s.W_2);
    p.v_a = draw_or(rng, s.weight_init, 1, s.d_a, s.v_a);
  }
  return p;
}

}  // namespace attention
