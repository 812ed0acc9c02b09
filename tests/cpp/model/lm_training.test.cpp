// Training the language model: the batch loss and its analytic gradients against PyTorch
// autograd and central differences, Adam against torch.optim, the trainer's documented batches
// and its determinism (tests/fixtures/make_lm_fixtures.py writes lm_small.json).
#include "attention/model/lm_training.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <utility>

#include "attention/core/rng.hpp"
#include "attention/io/trace_json.hpp"
#include "built_in_model.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using attention::LmShape;
using attention::LmWeights;
using attention::Matrix;
using attention::Vector;
using nlohmann::json;

namespace {

const json& fixture() {
  static const json f = support::load_fixture("lm_small.json");
  return f;
}

LmShape small_shape() {
  const json& j = fixture()["shape"];
  return LmShape{j["vocabulary"].get<long>(), j["context"].get<long>(), j["d_model"].get<long>(), j["heads"].get<long>(),
                 j["layers"].get<long>(), j["rope_base"].get<double>()};
}

LmWeights small_weights() { return attention::init_weights(small_shape(), fixture()["seed"].get<std::uint32_t>()); }

std::vector<std::vector<int>> fixture_windows() { return fixture()["windows"].get<std::vector<std::vector<int>>>(); }

LmWeights gradients(const LmShape& s, const LmWeights& w, const std::vector<std::vector<int>>& windows) {
  return attention::lm_backward(s, w, windows, attention::lm_forward(s, w, windows));
}

// Text with repeats a small model can learn from in a few steps.
const std::string kSentences =
    "the cat sat on the mat. the dog sat on the log.\n"
    "a cat and a dog sat on a mat and a log.\n"
    "The Cat Sat! the dog ran; the cat sat?\n";
const std::string kHeldOut = "the dog sat on the mat and the cat sat on the log.\n";

// A text as one id per byte (word pieces without merges): ids below 256 for the small shapes here.
std::vector<int> bytes(const std::string& text) { return attention::encode_pieces(attention::word_pieces({}), text); }

// The small shapes' tokens: bytes; random spans draw from the printable ones.
const attention::WordPieces kBytes = attention::word_pieces({});
std::vector<int> printable() { return attention::printable_pieces(kBytes); }

std::string times(const std::string& text, int count) {
  std::string out;
  for (int k = 0; k < count; ++k) out += text;
  return out;
}

// Context 128, as the shipped model: a repeated span is up to 64 tokens written twice
// (lm_training.hpp). d_model 8 keeps a step to a fraction of a millisecond.
attention::LmTrainingSettings tiny_settings(std::uint32_t seed) {
  attention::LmTrainingSettings s;
  s.shape = LmShape{256, 128, 8, 2, 2};
  s.seed = seed;
  s.batch_size = 4;
  s.repeat_share = 0.5;
  s.sentence_share = 0.5;
  s.sentences_from = 2;  // step 2 on
  s.steps = 3;           // the rate falls over the last 2 of 3 steps: x 1, x 1, x 1/2, then stays
  s.decay_steps = 2;
  s.eval_windows = 2;
  s.short_steps = 2;  // steps 0 and 1 read windows of short_context tokens
  return s;
}

bool same_weights(const LmWeights& a, const LmWeights& b) {
  const auto x = attention::named(a), y = attention::named(b);
  if (x.size() != y.size()) return false;
  for (std::size_t t = 0; t < x.size(); ++t) {
    if (x[t].first != y[t].first || *x[t].second != *y[t].second) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("lm_forward's loss and lm_backward's gradients agree with PyTorch autograd", "[model][fixtures][torch]") {
  const LmShape s = small_shape();
  const LmWeights w = small_weights();
  const auto windows = fixture_windows();
  REQUIRE(windows.size() == 3u);
  const auto f = attention::lm_forward(s, w, windows);
  const double loss = fixture()["loss"].get<double>();
  INFO("loss " << f.loss << ", torch " << loss);
  CHECK(std::fabs(f.loss - loss) <= tol::against_torch * std::max(1.0, std::fabs(loss)));

  const LmWeights g = attention::lm_backward(s, w, windows, f);
  const auto named = attention::named(g);
  CHECK(named.size() == fixture()["gradients"].size());
  for (const auto& [name, m] : named) {
    INFO("gradient " << name);
    REQUIRE(fixture()["gradients"].contains(name));
    CHECK(m->norm() > 0);  // every tensor takes part
    CHECK_CLOSE_JSON(attention::matrix_json(*m), fixture()["gradients"][name], tol::against_torch_gradients);
  }
}

TEST_CASE("lm_forward computes what run_model shows", "[model]") {
  // The trainer's batched pass and the viewer's pass through run_self are separate code: the
  // attention a learner sees must be the attention that was trained.
  const LmShape s = small_shape();
  const attention::LanguageModel model{s, attention::word_pieces(fixture()["merges"].get<std::vector<std::array<int, 2>>>()), small_weights(), {}};
  const auto windows = fixture_windows();
  const auto f = attention::lm_forward(s, model.weights, windows);
  const long n = static_cast<long>(windows[0].size()) - 1;
  for (std::size_t e = 0; e < windows.size(); ++e) {
    INFO("window " << e);
    const auto run = attention::run_model(model, std::vector<int>(windows[e].begin(), windows[e].end() - 1));
    REQUIRE(run.ok());
    const auto& t = run.value();
    const long row = static_cast<long>(e) * n;
    for (std::size_t l = 0; l < t.layers.size(); ++l) {
      INFO("layer " << l);
      CHECK((f.x[l].middleRows(row, n) - t.layers[l].parameters.X).cwiseAbs().maxCoeff() <= tol::reordered);
      for (long i = 0; i < s.heads; ++i) {
        const Matrix& a = f.attention[l][static_cast<std::size_t>(static_cast<long>(e) * s.heads + i)];
        CHECK((a - t.layers[l].weights[static_cast<std::size_t>(i)]).cwiseAbs().maxCoeff() <= tol::reordered);
      }
    }
    const Matrix log_p = f.probabilities.middleRows(row, n).array().log().matrix();
    CHECK((log_p - t.log_probs).cwiseAbs().maxCoeff() <= tol::reordered);
  }
}

TEST_CASE("lm_backward agrees with central differences", "[model][gradients]") {
  const LmShape s = small_shape();
  LmWeights w = small_weights();
  // At the initial scale the scores are nearly flat, the loss hardly moves with W_q and W_k,
  // and their differences would sink into the loss's rounding; sharper scores lift them.
  for (auto& layer : w.layers) {
    layer.W_q *= 4;
    layer.W_k *= 4;
  }
  const auto windows = fixture_windows();
  const LmWeights g = gradients(s, w, windows);
  auto params = attention::named(w);
  const auto grads = attention::named(g);
  for (std::size_t t = 0; t < params.size(); ++t) {
    Matrix& m = *params[t].second;
    const Matrix& analytic = *grads[t].second;
    // Each tensor's three largest entries: the ones a wrong formula could not hide in.
    std::vector<long> at(static_cast<std::size_t>(analytic.size()));
    for (long i = 0; i < analytic.size(); ++i) at[static_cast<std::size_t>(i)] = i;
    std::partial_sort(at.begin(), at.begin() + 3, at.end(),
                      [&](long a, long b) { return std::fabs(analytic.data()[a]) > std::fabs(analytic.data()[b]); });
    at.resize(3);
    Vector exact(3), numeric(3);
    const double h = 1e-5;
    for (std::size_t k = 0; k < at.size(); ++k) {
      double& entry = m.data()[at[k]];
      const double keep = entry;
      entry = keep + h;
      const double up = attention::lm_forward(s, w, windows).loss;
      entry = keep - h;
      const double down = attention::lm_forward(s, w, windows).loss;
      entry = keep;
      numeric(static_cast<long>(k)) = (up - down) / (2 * h);
      exact(static_cast<long>(k)) = analytic.data()[at[k]];
    }
    INFO(params[t].first << ": analytic " << exact.transpose() << ", numeric " << numeric.transpose());
    CHECK(exact.norm() > 1e-4);
    CHECK((numeric - exact).norm() / exact.norm() < tol::finite_difference);
  }
}

TEST_CASE("three Adam steps on lm_backward's gradients are torch.optim.Adam's", "[model][optimizer][fixtures][torch]") {
  const LmShape s = small_shape();
  LmWeights w = small_weights();
  const auto windows = fixture_windows();
  const json& expect = fixture()["adam"];
  attention::Optimizer opt({attention::OptimizerKind::adam, expect["learning_rate"].get<double>()},
                           attention::tensors_of(attention::named(std::as_const(w))));
  for (int k = 0; k < expect["steps"].get<int>(); ++k) {
    const LmWeights g = gradients(s, w, windows);
    opt.step(attention::tensors_of(attention::named(w)), attention::tensors_of(attention::named(g)));
  }
  CHECK(opt.steps() == 3);
  for (const auto& [name, m] : attention::named(w)) {
    INFO("Adam " << name);
    CHECK_CLOSE_JSON(attention::matrix_json(*m), expect["weights"][name], tol::against_torch_gradients);
  }
}

TEST_CASE("LmTrainer draws its batches and steps as its header documents", "[model]") {
  const auto settings = tiny_settings(5);
  const std::vector<int> train = bytes(times(kSentences, 4)), held_out = bytes(times(kHeldOut, 3));
  attention::LmTrainer trainer(settings, train, held_out, kBytes);
  LmWeights w = attention::init_weights(settings.shape, settings.seed);
  CHECK(same_weights(trainer.weights(), w));

  // The header's recipe, written out again: one stream from seed + 1; per window of n + 1 tokens
  // (n = 32 for the short steps, then 128) a start (randint), u = rand(), and when u <
  // repeat_share a span of 8 + randint(9) tokens (8 + randint(57) at n = 128) at a place
  // (randint); then v = rand(), and when v < text_repeats the span's text is written again after
  // it, else the span becomes random printable tokens (randint over the trainer's random ids), written twice.
  // From step 2 on (sentences_from), before u, w = rand(), and when w < sentence_share the window is instead a sentence
  // of 2 to 16 tokens (randint over them, in the text's order) said twice and the text after it.
  std::vector<std::pair<std::size_t, std::size_t>> sentences;
  for (std::size_t i = 0, start = 0; i < train.size(); ++i) {
    const char last = static_cast<char>(train[i]);
    if (last != '.' && last != '!' && last != '?' && last != '\n') continue;
    if (i + 1 - start >= 2 && i + 1 - start <= 16 && start + 129 - (i + 1 - start) <= train.size()) sentences.emplace_back(start, i + 1 - start);
    start = i + 1;
  }
  REQUIRE(sentences.size() > 1);
  attention::NumpyRandom rng(settings.seed + 1);
  attention::Optimizer opt({attention::OptimizerKind::adam, settings.learning_rate},
                           attention::tensors_of(attention::named(std::as_const(w))));
  long repeated = 0, texts = 0, said_twice = 0;
  for (int step = 0; step < 3; ++step) {
    const long n = step < 2 ? 32 : 128;
    std::vector<std::vector<int>> windows;
    for (long b = 0; b < settings.batch_size; ++b) {
      const auto start = static_cast<long>(rng.randint(train.size() - static_cast<std::size_t>(n + 1)));
      std::vector<int> window(train.begin() + start, train.begin() + start + n + 1);
      if (step >= 2 && rng.uniform() < settings.sentence_share) {
        const auto [at, length] = sentences[rng.randint(sentences.size())];
        window.assign(train.begin() + static_cast<long>(at), train.begin() + static_cast<long>(at + length));
        window.insert(window.end(), train.begin() + static_cast<long>(at), train.begin() + static_cast<long>(at + 129 - length));
        ++said_twice;
      } else if (rng.uniform() < settings.repeat_share) {
        const auto length = static_cast<long>(8 + rng.randint(n == 32 ? 9 : 57));
        const auto at = static_cast<long>(rng.randint(static_cast<std::uint64_t>(n + 2 - 2 * length)));
        const bool text = rng.uniform() < settings.text_repeats;
        for (long i = 0; i < length; ++i) {
          if (!text) window[static_cast<std::size_t>(at + i)] = printable()[rng.randint(printable().size())];
          window[static_cast<std::size_t>(at + length + i)] = window[static_cast<std::size_t>(at + i)];
        }
        ++repeated;
        texts += text;
      }
      windows.push_back(window);
    }
    const auto f = attention::lm_forward(settings.shape, w, windows);
    const LmWeights g = attention::lm_backward(settings.shape, w, windows, f);
    opt.set_learning_rate(settings.learning_rate * (step < 2 ? 1.0 : 0.5));
    opt.step(attention::tensors_of(attention::named(w)), attention::tensors_of(attention::named(g)));
    INFO("step " << step);
    CHECK(trainer.step() == f.loss);
    CHECK(same_weights(trainer.weights(), w));
  }
  CHECK(trainer.steps() == 3);
  CHECK(repeated > 0);  // both kinds of window were drawn
  CHECK(repeated < 3 * settings.batch_size);
  CHECK(texts > 0);  // both kinds of span were drawn
  CHECK(texts < repeated);
  CHECK(said_twice > 0);  // the last step's windows: sentences said twice and the others
  CHECK(said_twice < settings.batch_size);
  CHECK(trainer.held_out_loss() == attention::text_loss(settings.shape, w, held_out, settings.eval_windows));
}

TEST_CASE("LmTrainer gives the same weights for the same settings and text", "[model]") {
  const std::vector<int> train = bytes(times(kSentences, 4)), held_out = bytes(times(kHeldOut, 3));
  attention::LmTrainer a(tiny_settings(9), train, held_out, kBytes), b(tiny_settings(9), train, held_out, kBytes);
  for (int k = 0; k < 5; ++k) CHECK(a.step() == b.step());
  CHECK(a.steps() == 5);
  CHECK(same_weights(a.weights(), b.weights()));  // bit for bit
  CHECK(a.held_out_loss() == b.held_out_loss());
  CHECK(std::isfinite(a.held_out_loss()));
  CHECK_FALSE(same_weights(a.weights(), attention::init_weights(tiny_settings(9).shape, 9)));  // it moved

  attention::LmTrainer other(tiny_settings(10), train, held_out, kBytes);
  for (int k = 0; k < 5; ++k) other.step();
  CHECK_FALSE(same_weights(a.weights(), other.weights()));
}

TEST_CASE("the training settings come from their table: defaults, ranges, and every key refused by name", "[model]") {
  const auto parsed = attention::parse_lm_training(json::object());
  REQUIRE(parsed);
  const attention::LmTrainingSettings defaults;
  CHECK(parsed.value().learning_rate == defaults.learning_rate);
  CHECK(parsed.value().short_steps == defaults.short_steps);
  for (const auto& row : attention::lm_training_settings()) {
    INFO(row.key);
    CHECK(!json::parse(row.fallback).is_null());  // every row says its default
  }
  const auto read = attention::parse_lm_training(
      json{{"seed", 7}, {"learning_rate", 0.02}, {"batch_size", 16}, {"repeat_share", 0}, {"short_steps", 0}, {"eval_windows", 3}});
  REQUIRE(read);
  CHECK(read.value().seed == 7u);
  CHECK(read.value().learning_rate == 0.02);
  CHECK(read.value().batch_size == 16);
  CHECK(read.value().repeat_share == 0);
  CHECK(read.value().short_steps == 0);
  CHECK(read.value().eval_windows == 3);
  const auto message = [](const json& j) { return attention::parse_lm_training(j).error().message; };
  CHECK(message(json{{"learning_rate", 0}}) == "learning_rate: must be a number greater than 0 and at most 1, got 0");
  CHECK(message(json{{"batch_size", 65}}) == "batch_size: must be a whole number from 1 to 64, got 65");
  CHECK(message(json{{"repeat_share", 1.5}}) == "repeat_share: must be a number from 0 to 1, got 1.5");
  CHECK(message(json{{"seed", -1}}).rfind("seed: must be a whole number from 0 to 4294967295", 0) == 0);
  CHECK(message(json{{"short_steps", "many"}}).rfind("short_steps:", 0) == 0);
  CHECK(message(json{{"d_model", 8}}).find("d_model") != std::string::npos);
  CHECK(message(json::array()).find("JSON object") != std::string::npos);
}

TEST_CASE("unigram_loss is the add-one unigram cross-entropy", "[model]") {
  // counts over V = 5 with one added to each: id 2 -> 3, id 3 -> 2, the rest 1; total 3 + 5
  const double expected = -(std::log(3.0 / 8) + std::log(1.0 / 8)) / 2;
  const double loss = attention::unigram_loss({2, 2, 3}, {2, 4}, 5);
  CHECK(std::fabs(loss - expected) <= tol::few_roundings * expected);
  // Knowing nothing is the uniform distribution: log V per token.
  CHECK(std::fabs(attention::unigram_loss({}, {0, 1, 2}, 5) - std::log(5.0)) <= tol::few_roundings);
}

TEST_CASE("in_context_score is a span's loss after another span minus after itself, from run_model's log_probs", "[model]") {
  // Counted here from the viewer's forward pass (run_model), not the trainer's batched one.
  const LmShape s{256, 16, 8, 2, 2, 10000};
  const attention::LanguageModel model{s, attention::word_pieces({}), attention::init_weights(s, 2), {}};
  const std::vector<int> text = bytes(kSentences);  // 14 spans of 8 and the id after each
  // the loss of span k's tokens 1..7 (and the id after them) read after the span `before` (8 ids)
  const auto loss = [&](long before, long k) {
    std::vector<int> ids(text.begin() + 9 * before, text.begin() + 9 * before + 8);
    ids.insert(ids.end(), text.begin() + 9 * k, text.begin() + 9 * k + 9);
    const auto run = attention::run_model(model, std::vector<int>(ids.begin(), ids.end() - 1));
    REQUIRE(run.ok());
    double sum = 0;
    for (long i = 8; i < 15; ++i) sum -= run.value().log_probs(i, ids[static_cast<std::size_t>(i + 1)]);
    return sum;
  };
  const long spans = 3;
  double expected = 0;
  for (long k = 0; k < spans; ++k) expected += loss(k + 1, k) - loss(k, k);
  CHECK(attention::in_context_score(s, model.weights, text, spans) == Approx(expected / (spans * 7)).epsilon(tol::reordered));
  CHECK(attention::in_context_score(s, model.weights, text, 100) == attention::in_context_score(s, model.weights, text, 13));  // as many as fit
}

TEST_CASE("the shipped model reads a text it has just read far more cheaply, and untrained weights do not", "[model]") {
  const attention::LanguageModel built_in = attention::built_in_model();
  const attention::LanguageModel* m = &built_in;
  // Fortunes it never trained on: 2 spans of 64 tokens and the id after each, and one more to read first.
  std::ifstream in(std::string(ATTENTION_FIXTURES) + "/../../models/tiny-lm-held-out.txt", std::ios::binary);
  std::string held_out(4000, '\0');
  in.read(held_out.data(), static_cast<std::streamsize>(held_out.size()));
  REQUIRE(in.good());
  const std::vector<int> text = attention::encode_pieces(m->pieces, held_out);
  REQUIRE(text.size() >= 3 * 65u);
  CHECK(attention::in_context_score(m->shape, m->weights, text, 2) > 0.5);
  CHECK(std::abs(attention::in_context_score(m->shape, attention::init_weights(m->shape, 1), text, 2)) < 0.2);
}

TEST_CASE("text_loss is the loss of windows of context + 1 tokens side by side", "[model]") {
  const LmShape s{256, 16, 8, 2, 2, 10000};
  const LmWeights w = attention::init_weights(s, 2);
  const std::vector<int> text = bytes(kSentences);  // 130 ids: 7 whole windows of 17
  REQUIRE(text.size() >= 7 * 17u);
  const auto window = [&](long k) { return std::vector<int>(text.begin() + 17 * k, text.begin() + 17 * (k + 1)); };
  CHECK(attention::text_loss(s, w, text, 2) == attention::lm_forward(s, w, {window(0), window(1)}).loss);
  std::vector<std::vector<int>> all;
  for (long k = 0; k < static_cast<long>(text.size()) / 17; ++k) all.push_back(window(k));
  CHECK(attention::text_loss(s, w, text, 100) == attention::lm_forward(s, w, all).loss);  // as many as fit
}
