#include "attention/core/parameters.hpp"

#include "attention/core/rng.hpp"
#include "attention/io/spec.hpp"
#include "support.hpp"

using attention::Matrix;

namespace {

// What NumPy draws for a spec of d_model 8 and 2 heads, seed 5: W_q, W_k, W_v, W_o, then one
// uniform row per distinct word.
struct Expected {
  Matrix W_q, W_k, W_v, W_o, words;
  explicit Expected(long distinct_words) {
    attention::NumpyRandom rng(5);
    W_q = rng.randn(8, 8), W_k = rng.randn(8, 8), W_v = rng.randn(8, 8), W_o = rng.randn(8, 8);
    words = rng.rand(distinct_words, 8);
  }
};

attention::Spec spec_of(const std::string& sentence, std::uint32_t seed = 5) {
  return attention::parse_spec(nlohmann::json{{"sentence", sentence}, {"seed", seed}, {"d_model", 8}, {"heads", 2},
                                              {"weight_init", "normal"}, {"embedding_init", "uniform"}})
      .value();
}

}  // namespace

// The weights of the last run are kept for the next one with the same seed and shapes; the
// stream after them must be where a fresh draw leaves it, whatever ran in between.
TEST_CASE("weights kept between runs are the ones a fresh stream draws", "[parameters]") {
  attention::KeptDraw kept;
  for (const char* sentence : {"a b", "a b", "a b c", "x", "x y z w"}) {
    const auto spec = spec_of(sentence);
    const attention::Parameters p = attention::draw_parameters(spec, &kept);
    const Expected e(static_cast<long>(p.vocabulary.size()));
    INFO(sentence);
    CHECK(*p.W_q == e.W_q);
    CHECK(*p.W_k == e.W_k);
    CHECK(*p.W_v == e.W_v);
    CHECK(*p.W_o == e.W_o);
    CHECK(p.X.row(0) == e.words.row(0));
    CHECK(p.X.bottomRows(1) == e.words.bottomRows(1));
    REQUIRE(kept.after);
    CHECK(kept.drawn.front() == e.W_q);  // what the next run with this key starts from
    attention::draw_parameters(spec_of(sentence, 6), &kept);  // another seed in between
    CHECK(kept.drawn.front() != e.W_q);
  }
}

TEST_CASE("a given weight replaces its draw and shifts no other, kept or not", "[parameters]") {
  const Expected e(2);
  attention::KeptDraw kept;
  attention::draw_parameters(spec_of("a b"), &kept);  // the same key is kept
  attention::Spec spec = spec_of("a b");
  spec.W_q = Matrix::Constant(8, 8, 0.5);
  for (attention::KeptDraw* with : {&kept, static_cast<attention::KeptDraw*>(nullptr)}) {
    const attention::Parameters p = attention::draw_parameters(spec, with);
    CHECK(*p.W_q == *spec.W_q);
    CHECK(*p.W_k == e.W_k);
    CHECK(p.X == e.words);
  }
}
