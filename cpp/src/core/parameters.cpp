#include "attention/core/parameters.hpp"

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "attention/core/rng.hpp"
#include "attention/core/word_seed.hpp"

namespace attention {

std::vector<std::string> vocabulary(const std::vector<std::string>& tokens) {
  std::vector<std::string> words;
  std::unordered_map<std::string, int> seen;
  for (const auto& t : tokens) {
    if (seen.emplace(t, 0).second) words.push_back(t);
  }
  return words;
}

std::vector<ParameterShape> parameter_shapes(const Spec& s) {
  const long d = s.d_model, h = s.heads, kvh = s.kv_heads, dk = s.d_k, dv = s.d_v, da = s.d_a;
  std::vector<ParameterShape> out;
  if (s.mode != Mode::encoder_decoder) {
    const bool grouped = kvh != h;
    out.push_back({"W_q", d, h * dk, "d_model x heads*d_k", &Spec::W_q, &Parameters::W_q});
    out.push_back({"W_k", d, kvh * dk, grouped ? "d_model x kv_heads*d_k" : "d_model x heads*d_k", &Spec::W_k, &Parameters::W_k});
    out.push_back({"W_v", d, kvh * dv, grouped ? "d_model x kv_heads*d_v" : "d_model x heads*d_v", &Spec::W_v, &Parameters::W_v});
    out.push_back({"W_o", h * dv, d, "heads*d_v x d_model", &Spec::W_o, &Parameters::W_o, h > 1});
  } else {
    out.push_back({"W_c", 2 * d, d, "2d x d: [context, state] to d", &Spec::W_c, &Parameters::W_c});
    out.push_back({"decoder_state", 1, d, "one number per annotation column", &Spec::decoder_state,
                   &Parameters::decoder_state, true, true, true, true});
  }
  if (s.score == ScoreKind::general) {
    out.push_back({"W_a", dk, dk, "d_k x d_k", &Spec::W_a, &Parameters::W_a, true, false, false, true});
  } else if (s.score == ScoreKind::additive) {
    out.push_back({"W_1", dk, da, "d_k x d_a", &Spec::W_1, &Parameters::W_1, true, false, false, true});
    out.push_back({"W_2", dk, da, "d_k x d_a", &Spec::W_2, &Parameters::W_2, true, false, false, true});
    out.push_back({"v_a", 1, da, "d_a numbers", &Spec::v_a, &Parameters::v_a, true, true, false, true});
  }
  return out;
}

std::size_t drawn_numbers(const Spec& s) {
  const auto z = [](long v) { return static_cast<std::size_t>(v); };
  std::size_t total = 0;
  for (const auto& m : parameter_shapes(s)) total += z(m.rows) * z(m.cols);
  const std::size_t rows = s.tokens.size() + s.source_tokens.size();  // the inputs' rows, and as many words at most
  return total + 2 * rows * z(s.d_model);
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

// One parameter's matrix from the stream, with its init.
Matrix draw_shape(NumpyRandom& rng, const Spec& s, const ParameterShape& m) {
  return draw(rng, m.embedding ? s.embedding_init : s.weight_init, m.rows, m.cols);
}

// A KeptDraw holds at most kMaxKeptNumbers (8 MB).
constexpr long kMaxKeptNumbers = 1L << 20;

std::vector<Matrix> draw_weights(const Spec& s, const std::vector<ParameterShape>& shapes, NumpyRandom& rng, KeptDraw* kept) {
  std::vector<std::uint64_t> key = {s.seed, static_cast<std::uint64_t>(s.weight_init.kind), s.weight_init.high,
                                    static_cast<std::uint64_t>(s.embedding_init.kind), s.embedding_init.high};
  for (const auto& m : shapes) {
    if (m.after_embeddings) continue;
    key.insert(key.end(), {static_cast<std::uint64_t>(m.rows), static_cast<std::uint64_t>(m.cols), m.drawn, m.embedding});
  }
  if (kept && kept->after && kept->key == key) {
    rng = *kept->after;
    return kept->drawn;
  }
  std::vector<Matrix> drawn;
  long numbers = 0;
  for (const auto& m : shapes) {
    if (m.after_embeddings || !m.drawn) continue;
    drawn.push_back(draw_shape(rng, s, m));
    numbers += m.rows * m.cols;
  }
  if (kept) *kept = numbers <= kMaxKeptNumbers ? KeptDraw{std::move(key), drawn, rng} : KeptDraw{};
  return drawn;
}

}  // namespace

Parameters draw_parameters(const Spec& s, KeptDraw* kept) {
  NumpyRandom rng(s.seed);
  Parameters p;
  std::vector<std::string> all = s.tokens;  // cross: one vocabulary over both sentences
  all.insert(all.end(), s.source_tokens.begin(), s.source_tokens.end());
  p.vocabulary = vocabulary(all);
  const long d = s.d_model;
  const bool ed = s.mode == Mode::encoder_decoder;

  // A matrix is drawn whether or not the spec gives it, so one explicit matrix never shifts
  // the stream of the others.
  const std::vector<ParameterShape> shapes = parameter_shapes(s);
  std::vector<Matrix> weights = draw_weights(s, shapes, rng, kept);
  const auto place = [&](const ParameterShape& m, Matrix* drawn) {
    if (s.*(m.given)) p.*(m.kept) = s.*(m.given);
    else if (drawn) p.*(m.kept) = std::move(*drawn);
  };
  std::size_t next_weight = 0;
  for (const auto& m : shapes) {
    if (!m.after_embeddings) place(m, m.drawn ? &weights[next_weight++] : nullptr);
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
  for (const auto& m : shapes) {
    if (!m.after_embeddings) continue;
    Matrix drawn = m.drawn ? draw_shape(rng, s, m) : Matrix();
    place(m, m.drawn ? &drawn : nullptr);
  }
  return p;
}

}  // namespace attention
