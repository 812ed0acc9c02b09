#include "attention/model/lm_training.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <type_traits>

#include "attention/core/rope.hpp"
#include "attention/io/json_read.hpp"
#include "attention/train/trainer.hpp"
#include "attention/kernel/small_product.hpp"
#include "attention/kernel/softmax_numerators.hpp"

namespace attention {

namespace {

// RoPE on a batch, as rope_rotate turns one sequence (the same sums, so the same numbers): row
// e n + i is at position i, and pair k of every head's columns (2k, 2k + 1) turns by the angle
// i theta_k. direction -1 turns back: the transpose, which carries a gradient to the unturned rows.
struct Turns {
  Matrix cos, sin;  // (n, d_k/2)
  Turns(const LmShape& s, long n) {
    const Matrix angles = rope_angles(n, s.d_model / s.heads, s.rope_base);
    cos = angles.array().cos();
    sin = angles.array().sin();
  }
  void apply(Matrix& x, double direction) const {
    const long n = cos.rows(), half = cos.cols(), dk = 2 * half;
    for (long r = 0; r < x.rows(); ++r) {
      for (long k = 0; k < half; ++k) {
        const double c = cos(r % n, k), s = direction * sin(r % n, k);
        for (long block = 0; block < x.cols(); block += dk) {
          const double u = x(r, block + 2 * k), v = x(r, block + 2 * k + 1);
          x(r, block + 2 * k) = u * c - v * s;
          x(r, block + 2 * k + 1) = u * s + v * c;
        }
      }
    }
  }
};

}  // namespace

// Every product goes through multiply_small, whose order of sums is fixed: a step natively and
// in wasm gives the same numbers (Eigen's GEMM blocks by the machine's vector width), and in
// wasm it was the faster.
LmBatchPass lm_forward(const LmShape& s, const LmWeights& w, const std::vector<std::vector<int>>& windows) {
  const long B = static_cast<long>(windows.size()), n = static_cast<long>(windows.front().size()) - 1;
  const long d = s.d_model, h = s.heads, dk = d / h, V = s.vocabulary;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  LmBatchPass f;
  const Turns turns(s, n);
  Matrix x(B * n, d);
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < n; ++i) x.row(e * n + i) = w.E.row(windows[static_cast<std::size_t>(e)][static_cast<std::size_t>(i)]) + w.P.row(i);
  }
  for (const LmLayer& layer : w.layers) {
    f.x.push_back(x);
    const Matrix& X = f.x.back();
    f.Q.push_back(multiply_small(X, layer.W_q));
    f.K.push_back(multiply_small(X, layer.W_k));
    turns.apply(f.Q.back(), 1);
    turns.apply(f.K.back(), 1);
    f.V.push_back(multiply_small(X, layer.W_v));
    Matrix concat(B * n, d);
    std::vector<Matrix> attention;
    attention.reserve(static_cast<std::size_t>(B * h));
    for (long e = 0; e < B; ++e) {
      for (long i = 0; i < h; ++i) {
        Matrix& a = attention.emplace_back(n, n);  // the scores, then their causal softmax
        multiply_small(f.Q.back().block(e * n, i * dk, n, dk), f.K.back().block(e * n, i * dk, n, dk).transpose(), a);
        for (long r = 0; r < n; ++r) {
          a.row(r).head(r + 1) /= softmax_numerators(a.row(r).data(), r + 1, scale);
          a.row(r).tail(n - r - 1).setZero();
        }
        multiply_small(a, f.V.back().block(e * n, i * dk, n, dk), concat.block(e * n, i * dk, n, dk));
      }
    }
    multiply_small(concat, layer.W_o, x, true);
    f.attention.push_back(std::move(attention));
    f.concat.push_back(std::move(concat));
  }
  f.x.push_back(x);
  f.probabilities = multiply_small(x, w.W_U);
  f.probabilities.rowwise() += w.b_U.row(0);
  double total = 0;
  f.losses.reserve(static_cast<std::size_t>(B * n));
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < n; ++i) {
      const long r = e * n + i;
      const double top = f.probabilities.row(r).maxCoeff();
      const int y = windows[static_cast<std::size_t>(e)][static_cast<std::size_t>(i + 1)];
      const double logit = f.probabilities(r, y);
      const double sum = softmax_numerators(f.probabilities.row(r).data(), V, 1.0);  // of exp(logit - top)
      f.probabilities.row(r) /= sum;
      f.losses.push_back(top + std::log(sum) - logit);  // -log softmax, stays finite when the probability underflows
      total += f.losses.back();
    }
  }
  f.loss = total / static_cast<double>(B * n);
  return f;
}

LmWeights lm_backward(const LmShape& s, const LmWeights& w, const std::vector<std::vector<int>>& windows, const LmBatchPass& f) {
  const long B = static_cast<long>(windows.size()), n = static_cast<long>(windows.front().size()) - 1;
  const long d = s.d_model, h = s.heads, dk = d / h;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dk));
  LmWeights g = zeros_like(w);
  const Turns turns(s, n);

  // Cross-entropy through softmax: d logits = (probabilities - one_hot(next token)) / (B n).
  Matrix d_logits = f.probabilities / static_cast<double>(B * n);  // (B*n, V)
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < n; ++i) d_logits(e * n + i, windows[static_cast<std::size_t>(e)][static_cast<std::size_t>(i + 1)]) -= 1.0 / static_cast<double>(B * n);
  }
  g.W_U = multiply_small(f.x.back().transpose(), d_logits);
  g.b_U = d_logits.colwise().sum();
  Matrix d_x = multiply_small(d_logits, w.W_U.transpose());  // (B*n, d): the gradient of the residual stream

  Matrix d_Q(B * n, d), d_K(B * n, d), d_V(B * n, d);
  Matrix d_a(n, n), d_scores(n, n);
  Vector row_dot(n);
  for (long l = static_cast<long>(w.layers.size()) - 1; l >= 0; --l) {
    const auto L = static_cast<std::size_t>(l);
    const LmLayer& layer = w.layers[L];
    LmLayer& grad = g.layers[L];
    grad.W_o = multiply_small(f.concat[L].transpose(), d_x);
    const Matrix d_concat = multiply_small(d_x, layer.W_o.transpose());  // (B*n, d)
    for (long e = 0; e < B; ++e) {
      for (long i = 0; i < h; ++i) {
        const Matrix& a = f.attention[L][static_cast<std::size_t>(e * h + i)];  // (n, n)
        const auto d_out = d_concat.block(e * n, i * dk, n, dk);               // (n, dk)
        multiply_small(d_out, f.V[L].block(e * n, i * dk, n, dk).transpose(), d_a);
        multiply_small(a.transpose(), d_out, d_V.block(e * n, i * dk, n, dk));
        // Through the row softmax: dS = A o (dA - rowsum(dA o A)), then the 1/sqrt(d_k); a
        // hidden key has A = 0, so its score gets no gradient.
        row_dot = d_a.cwiseProduct(a).rowwise().sum();
        d_scores = (a.array() * (d_a.array().colwise() - row_dot.array())).matrix() * scale;
        multiply_small(d_scores, f.K[L].block(e * n, i * dk, n, dk), d_Q.block(e * n, i * dk, n, dk));
        multiply_small(d_scores.transpose(), f.Q[L].block(e * n, i * dk, n, dk), d_K.block(e * n, i * dk, n, dk));
      }
    }
    turns.apply(d_Q, -1);  // so far the gradients of the turned rows
    turns.apply(d_K, -1);
    grad.W_q = multiply_small(f.x[L].transpose(), d_Q);
    grad.W_k = multiply_small(f.x[L].transpose(), d_K);
    grad.W_v = multiply_small(f.x[L].transpose(), d_V);
    // x_{l+1} = x_l + attention(x_l): the stream's gradient passes on, plus what flows through Q, K, V.
    multiply_small(d_Q, layer.W_q.transpose(), d_x, true);
    multiply_small(d_K, layer.W_k.transpose(), d_x, true);
    multiply_small(d_V, layer.W_v.transpose(), d_x, true);
  }
  for (long e = 0; e < B; ++e) {
    for (long i = 0; i < n; ++i) {
      g.E.row(windows[static_cast<std::size_t>(e)][static_cast<std::size_t>(i)]) += d_x.row(e * n + i);
      g.P.row(i) += d_x.row(e * n + i);
    }
  }
  return g;
}

const std::vector<Setting>& lm_training_settings() {
  static const LmTrainingSettings d;
  static const std::string seed = std::to_string(d.seed), batch = std::to_string(d.batch_size), rate = nlohmann::json(d.learning_rate).dump(),
                           share = nlohmann::json(d.repeat_share).dump(), text = nlohmann::json(d.text_repeats).dump(), sentences = nlohmann::json(d.sentence_share).dump(), from = std::to_string(d.sentences_from), steps_run = std::to_string(d.steps), decay = std::to_string(d.decay_steps), steps = std::to_string(d.short_steps), windows = std::to_string(d.eval_windows);
  static const std::vector<Setting> table = {
      {"seed", "integer", seed.c_str(), "Seed of the initial weights and of the batches (which windows of the text, which of them hold a repeated span): the same seed gives the same run.",
       {}, 0, 4294967295LL},
      {"learning_rate", "number", rate.c_str(), "Adam's step size: larger learns faster at first, and too large diverges.", {}, 0, 1},
      {"batch_size", "integer", batch.c_str(), "Windows of text per step: more make a step slower and its gradient less noisy.", {}, 1, 64},
      {"repeat_share", "share", share.c_str(),
       "The share of windows in which a span is written twice in a row: repeated text is what an induction head is for, and on plain text the heads form much later.",
       {}, 0, 1},
      {"text_repeats", "share", text.c_str(),
       "The share of the repeated spans that are the text itself written again rather than random tokens: random spans make the heads form soonest, and text teaches them to copy words.",
       {}, 0, 1},
      {"sentence_share", "share", sentences.c_str(),
       "From step sentences_from on, the share of windows that begin with one of the text's sentences (2 to 16 tokens) said twice: what a learner types and repeats, and the heads learn to copy it.",
       {}, 0, 1},
      {"sentences_from", "integer", from.c_str(),
       "The step from which windows may begin with a sentence said twice: later, the induction heads form sooner (on the repeated spans); sooner, they copy a learner's sentence said twice better.",
       {}, 0, 1000000},
      {"short_steps", "integer", steps.c_str(),
       "The first steps read windows of 32 tokens, then 128: the heads form several times sooner on short windows, and RoPE carries them to every distance.",
       {}, 0, 1000000},
      {"steps", "integer", steps_run.c_str(), "The run's length: the learning rate's decay ends at its last step.", {}, 1, 1000000},
      {"decay_steps", "integer", decay.c_str(),
       "Over the run's last decay_steps steps the learning rate falls linearly to 1/decay_steps of itself (0: a constant rate): the model then guesses a copied word more often, and its held-out loss ends lower.",
       {}, 0, 1000000},
      {"eval_windows", "integer", windows.c_str(), "Held-out windows of 129 tokens the held-out loss is the mean over.", {}, 1, 64},
  };
  return table;
}

Result<LmTrainingSettings> parse_lm_training(const nlohmann::json& j) {
  if (!j.is_object()) return error_at("", "the settings must be a JSON object, got " + json_read::show(j));
  if (auto bad = json_read::unknown_key(j, lm_training_settings(), "language-model training")) return *bad;
  for (const Setting& row : lm_training_settings()) {
    if (j.contains(row.key)) {
      if (auto bad = refused(j, row)) return *bad;
    }
  }
  LmTrainingSettings s;
  const auto whole = [&](const char* k, auto& out) {
    if (j.contains(k)) out = static_cast<std::remove_reference_t<decltype(out)>>(j.at(k).get<std::int64_t>());
  };
  whole("seed", s.seed);
  whole("batch_size", s.batch_size);
  whole("short_steps", s.short_steps);
  whole("sentences_from", s.sentences_from);
  whole("steps", s.steps);
  whole("decay_steps", s.decay_steps);
  whole("eval_windows", s.eval_windows);
  if (j.contains("learning_rate")) s.learning_rate = j.at("learning_rate").get<double>();
  if (j.contains("repeat_share")) s.repeat_share = j.at("repeat_share").get<double>();
  if (j.contains("text_repeats")) s.text_repeats = j.at("text_repeats").get<double>();
  if (j.contains("sentence_share")) s.sentence_share = j.at("sentence_share").get<double>();
  return s;
}

std::vector<std::vector<HeadScores>> probe_head_scores(const LanguageModel& model, long length, std::uint32_t seed) {
  if (length < 1 || 2 * length > model.shape.context) return {};
  NumpyRandom rng(seed);
  const std::vector<int> printable = printable_pieces(model.pieces);
  const Matrix draws = rng.randint(static_cast<std::uint64_t>(printable.size()), 1, length);  // indices into printable
  std::vector<int> ids;
  std::vector<std::string> tokens;
  for (int copy = 0; copy < 2; ++copy) {
    for (long i = 0; i < length; ++i) {
      ids.push_back(printable[static_cast<std::size_t>(draws(0, i))]);
      tokens.push_back(model.pieces.names[static_cast<std::size_t>(ids.back())]);
    }
  }
  ids.push_back(0);  // a target for the last position: the loss is not read
  const LmBatchPass f = lm_forward(model.shape, model.weights, {ids});
  std::vector<std::vector<HeadScores>> out;
  for (const auto& layer : f.attention) {
    std::vector<HeadScores>& scores = out.emplace_back();
    for (const Matrix& head : layer) scores.push_back(head_scores(head, tokens));
  }
  return out;
}

double unigram_loss(const std::vector<int>& train, const std::vector<int>& held_out, long vocabulary) {
  std::vector<double> counts(static_cast<std::size_t>(vocabulary), 1.0);
  for (const int id : train) counts[static_cast<std::size_t>(id)] += 1;
  const double total = static_cast<double>(train.size() + static_cast<std::size_t>(vocabulary));
  double loss = 0;
  for (const int id : held_out) loss -= std::log(counts[static_cast<std::size_t>(id)] / total);
  return loss / static_cast<double>(held_out.size());
}

double unigram_loss_per_character(const std::vector<int>& train, const std::vector<int>& held_out, const std::string& held_out_text,
                                  long vocabulary) {
  return unigram_loss(train, held_out, vocabulary) * static_cast<double>(held_out.size()) / static_cast<double>(characters(held_out_text));
}

LmTrainer::LmTrainer(const LmTrainingSettings& settings, std::vector<int> train, std::vector<int> held_out, const WordPieces& pieces)
    : settings_(settings),
      train_(std::move(train)),
      held_out_(std::move(held_out)),
      random_(printable_pieces(pieces)),
      weights_(init_weights(settings.shape, settings.seed)),
      optimizer_(OptimizerSettings{OptimizerKind::adam, settings.learning_rate}, tensors_of(named(std::as_const(weights_)))),
      batches_(settings.seed + 1) {
  const std::size_t window = static_cast<std::size_t>(settings.shape.context + 1);
  std::size_t start = 0;
  for (std::size_t i = 0; i < train_.size(); ++i) {
    const std::string& piece = pieces.bytes[static_cast<std::size_t>(train_[i])];
    if (piece.empty() || std::string_view(".!?\n").find(piece.back()) == std::string_view::npos) continue;
    const std::size_t length = i + 1 - start;
    // the sentence, its copy and the text after it fill a window
    if (length >= 2 && length <= 16 && start + window - length <= train_.size()) sentences_.emplace_back(start, length);
    start = i + 1;
  }
}

double LmTrainer::step() {
  if (settings_.decay_steps > 0) {
    const long left = std::max<long>(1, settings_.steps - optimizer_.steps());
    optimizer_.set_learning_rate(settings_.learning_rate * std::min(1.0, static_cast<double>(left) / static_cast<double>(settings_.decay_steps)));
  }
  const long n = optimizer_.steps() < settings_.short_steps ? std::min(settings_.short_context, settings_.shape.context) : settings_.shape.context;
  const auto span = [&](long length) {
    const long start = static_cast<long>(batches_.randint(train_.size() - static_cast<std::size_t>(length)));
    return std::vector<int>(train_.begin() + start, train_.begin() + start + length);
  };
  std::vector<std::vector<int>> windows;
  for (long b = 0; b < settings_.batch_size; ++b) {
    std::vector<int> w = span(n + 1);
    if (n == settings_.shape.context && optimizer_.steps() >= settings_.sentences_from && !sentences_.empty() &&
        batches_.uniform() < settings_.sentence_share) {
      const auto [at, length] = sentences_[batches_.randint(sentences_.size())];
      for (std::size_t i = 0; i < w.size(); ++i) w[i] = train_[at + (i < length ? i : i - length)];
    } else if (batches_.uniform() < settings_.repeat_share) {
      const long longest = std::min<long>(64, (n + 1) / 2);  // a span and its copy fit in the n + 1 tokens
      const long shortest = std::min<long>(8, longest);
      const long length = shortest + static_cast<long>(batches_.randint(static_cast<std::uint64_t>(longest - shortest + 1)));
      const long at = static_cast<long>(batches_.randint(static_cast<std::uint64_t>(n + 2 - 2 * length)));  // 0 to n + 1 - 2 length
      const bool text = batches_.uniform() < settings_.text_repeats;
      for (long i = 0; i < length; ++i) {
        auto& first = w[static_cast<std::size_t>(at + i)];
        if (!text) first = random_[batches_.randint(random_.size())];
        w[static_cast<std::size_t>(at + length + i)] = first;
      }
    }
    windows.push_back(std::move(w));
  }
  const LmBatchPass f = lm_forward(settings_.shape, weights_, windows);
  const LmWeights g = lm_backward(settings_.shape, weights_, windows, f);
  optimizer_.step(tensors_of(named(weights_)), tensors_of(named(g)));
  return f.loss;
}

double text_loss(const LmShape& s, const LmWeights& w, const std::vector<int>& text, long count) {
  const std::size_t length = static_cast<std::size_t>(s.context + 1);
  std::vector<std::vector<int>> windows;
  for (std::size_t start = 0; start + length <= text.size() && static_cast<long>(windows.size()) < count; start += length) {
    windows.emplace_back(text.begin() + static_cast<long>(start), text.begin() + static_cast<long>(start + length));
  }
  return lm_forward(s, w, windows).loss;
}

double characters_per_token(const WordPieces& pieces, const std::vector<int>& text, long context, long count) {
  const std::size_t length = static_cast<std::size_t>(context + 1);
  long tokens = 0, count_of = 0;
  for (std::size_t start = 0; start + length <= text.size() && tokens < count * context; start += length) {
    for (std::size_t i = start + 1; i < start + length; ++i, ++tokens) count_of += characters(pieces.bytes[static_cast<std::size_t>(text[i])]);
  }
  return tokens ? static_cast<double>(count_of) / static_cast<double>(tokens) : 1;
}

long characters(const std::string& utf8) {
  long n = 0;
  for (const char c : utf8) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

double in_context_score(const LmShape& s, const LmWeights& w, const std::vector<int>& text, long count) {
  const std::size_t half = static_cast<std::size_t>(s.context / 2), step = half + 1;  // a span and the token after it
  const auto span = [&](std::size_t k, std::size_t length) {
    return std::vector<int>(text.begin() + static_cast<long>(k * step), text.begin() + static_cast<long>(k * step + length));
  };
  std::vector<std::vector<int>> windows;  // per span: after the next span, then after itself
  for (std::size_t k = 0; (k + 2) * step <= text.size() && static_cast<long>(k) < count; ++k) {
    const std::vector<int> read = span(k, step);
    for (const std::size_t before : {k + 1, k}) {
      std::vector<int>& window = windows.emplace_back(span(before, half));
      window.insert(window.end(), read.begin(), read.end());
    }
  }
  if (windows.empty() || half < 2) return 0;
  const LmBatchPass f = lm_forward(s, w, windows);
  // positions half .. 2 half - 2 predict tokens 1 .. half - 1 of the span read second
  const std::size_t n = 2 * half;
  double apart = 0, copied = 0;
  for (std::size_t e = 0; e < windows.size(); e += 2) {
    for (std::size_t i = half; i + 1 < n; ++i) {
      apart += f.losses[e * n + i];
      copied += f.losses[(e + 1) * n + i];
    }
  }
  return (apart - copied) / static_cast<double>(windows.size() / 2 * (half - 1));
}

double LmTrainer::held_out_loss() const { return text_loss(settings_.shape, weights_, held_out_, settings_.eval_windows); }
double LmTrainer::in_context() const { return in_context_score(settings_.shape, weights_, held_out_, (settings_.eval_windows + 1) / 2); }

}  // namespace attention
