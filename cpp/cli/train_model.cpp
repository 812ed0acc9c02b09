// attention-train-model: trains the playground's language model on the fortunes of a Debian
// package and writes its weights file, with the model card in the file's header, and the word
// pieces' merges as the core's source (MERGES_CPP), learned from the same training text.
//   attention-train-model CORPUS_DIR VERSION OUT MERGES_CPP [STEPS [SETTINGS]]
// SETTINGS: a JSON object of lm_training_settings()'s keys (the defaults are the shipped recipe).
// CORPUS_DIR holds the fortune files (one fortune after another, separated by lines "%");
// every tenth fortune is held out, never trained on. Writes OUT and, beside it, the texts as the
// model read them (OUT's stem + -train.txt and -held-out.txt). Deterministic: the same corpus
// and steps give the same files.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "attention/io/model_file.hpp"
#include "attention/model/language_model.hpp"
#include "attention/model/lm_training.hpp"

namespace {

// English prose and verse of the package; its ASCII art, definitions lists and program
// listings would teach the model to draw and indent rather than to write.
const std::vector<std::string> kFiles = {"fortunes", "literature", "wisdom", "people", "riddles", "humorists",
                                         "science", "work", "food", "education", "platitudes", "love",
                                         "magic", "miscellaneous", "pets", "sports"};

// A fortune as the model reads it: overstrikes ("_\bx", bold and underline on terminals) taken
// back to the letter, tabs as spaces, other control characters dropped.
std::string clean(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\b') {
      if (!out.empty()) out.pop_back();
    } else if (c == '\t') {
      out += ' ';
    } else if (c == '\n' || static_cast<unsigned char>(c) >= 32) {
      out += c;
    }
  }
  return out;
}

std::string json_number(double x) {
  std::ostringstream s;
  s.precision(4);
  s << std::fixed << x;
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace attention;
  if (argc < 5) {
    std::cerr << "usage: attention-train-model CORPUS_DIR VERSION OUT MERGES_CPP [STEPS [SETTINGS_JSON]]\n";
    return 2;
  }
  const std::string dir = argv[1], version = argv[2], out = argv[3], merges_cpp = argv[4];

  std::string train_text, held_out_text;
  long fortunes = 0;
  for (const std::string& name : kFiles) {
    std::ifstream file(dir + "/" + name);
    if (!file) {
      std::cerr << "attention-train-model: cannot read " << dir << "/" << name << "\n";
      return 2;
    }
    std::string line, fortune;
    const auto flush = [&] {
      if (fortune.empty()) return;
      (fortunes++ % 10 == 9 ? held_out_text : train_text) += clean(fortune) + "\n";
      fortune.clear();
    };
    while (std::getline(file, line)) {
      if (line == "%") {
        flush();
      } else {
        fortune += line + "\n";
      }
    }
    flush();
  }
  const auto read = parse_lm_training(nlohmann::json::parse(argc > 6 ? argv[6] : "{}", nullptr, false));
  if (!read) {
    std::cerr << "attention-train-model: " << read.error().message << "\n";
    return 2;
  }
  LmTrainingSettings settings = read.value();
  if (argc > 5) settings.steps = std::stol(argv[5]);  // the learning rate decays towards the run's end
  const long steps = settings.steps;
  const WordPieces pieces = learn_word_pieces(train_text, settings.shape.vocabulary);
  if (static_cast<long>(pieces.names.size()) != settings.shape.vocabulary) {
    std::cerr << "attention-train-model: the corpus gives only " << pieces.names.size() << " word pieces\n";
    return 2;
  }
  const std::vector<int> train = encode_pieces(pieces, train_text), held_out = encode_pieces(pieces, held_out_text);
  LmTrainer trainer(settings, train, held_out, pieces);
  // Losses per character, which compare across tokenizers (the held-out text's characters are its UTF-8 lead bytes).
  const double unigram = unigram_loss_per_character(train, held_out, held_out_text, settings.shape.vocabulary);
  const double per_character = characters_per_token(pieces, held_out, settings.shape.context, settings.eval_windows);
  const auto start = std::chrono::steady_clock::now();
  double recent = 0;
  for (long s = 1; s <= steps; ++s) {
    recent += trainer.step();
    if (s % 250 == 0) {
      double previous = 0, induction = 0;
      for (const auto& layer : probe_head_scores(LanguageModel{settings.shape, pieces, trainer.weights(), {}})) {
        for (const HeadScores& h : layer) {
          previous = std::max(previous, h.previous_token);
          induction = std::max(induction, h.induction);
        }
      }
      std::cerr << "step " << s << ": training loss " << json_number(recent / 250) << ", held-out "
                << json_number(trainer.held_out_loss() / per_character) << " nats per character, in context " << json_number(trainer.in_context())
                << "; best previous-token head "
                << json_number(previous) << ", best induction head " << json_number(induction) << "\n";
      recent = 0;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  LanguageModel model{settings.shape, pieces, trainer.weights(), {}};
  model = read_model(write_model(model)).value();  // the card's figures are those of the weights shipped, rounded as the file keeps them
  const double loss = text_loss(model.shape, model.weights, held_out, settings.eval_windows);
  // The baseline beside the trained heads: the best scores of the same model at step 0.
  nlohmann::json untrained = {{"previous_token", 0.0}, {"induction", 0.0}};
  for (const auto& layer : probe_head_scores(LanguageModel{settings.shape, pieces, init_weights(settings.shape, settings.seed), {}})) {
    for (const HeadScores& h : layer) {
      untrained["previous_token"] = std::max(untrained["previous_token"].get<double>(), h.previous_token);
      untrained["induction"] = std::max(untrained["induction"].get<double>(), h.induction);
    }
  }
  nlohmann::json heads = nlohmann::json::array();
  const auto probe = probe_head_scores(model);
  for (std::size_t l = 0; l < probe.size(); ++l) {
    for (std::size_t h = 0; h < probe[l].size(); ++h) {
      nlohmann::json head = {{"layer", l}, {"head", h}};
      for (const HeadPattern& p : head_patterns()) head[p.name] = probe[l][h].*(p.score);
      heads.push_back(std::move(head));
    }
  }
  model.card = {{"architecture", architecture(settings.shape)},
                {"corpus", {{"package", "fortunes"}, {"version", version}, {"files", kFiles}, {"fortunes", fortunes},
                            {"train_characters", characters(train_text)}, {"held_out_characters", characters(held_out_text)},
                            {"train_tokens", train.size()}, {"held_out_tokens", held_out.size()}}},
                {"training", {{"seed", settings.seed}, {"steps", steps}, {"batch", settings.batch_size},
                              {"learning_rate", settings.learning_rate}, {"repeat_share", settings.repeat_share},
                              {"text_repeats", settings.text_repeats}, {"sentence_share", settings.sentence_share}, {"sentences_from", settings.sentences_from}, {"decay_steps", settings.decay_steps}, {"short_steps", settings.short_steps}, {"short_context", settings.short_context}, {"seconds", seconds}}},
                {"held_out_loss", loss / per_character},
                {"held_out_loss_per_token", loss},
                {"in_context", in_context_score(model.shape, model.weights, held_out, settings.eval_windows)},
                {"unigram_loss", unigram},
                {"probe", "50 random printable word pieces repeated twice, drawn after np.random.seed(0)"},
                {"untrained", untrained},
                {"head_scores", heads}};
  std::ofstream(out, std::ios::binary) << write_model(model);
  std::ofstream merges(merges_cpp, std::ios::binary);
  merges << "// The word pieces' merges of the playground's language model, learned from its training text:\n"
            "// written by `npm run train-model` (cpp/cli/train_model.cpp) with models/tiny-lm.bin, whose\n"
            "// header holds the same list. Do not edit.\n"
            "#include \"attention/model/language_model.hpp\"\n\n"
            "namespace attention {\n\n"
            "const std::vector<std::array<int, 2>>& tiny_lm_merges() {\n"
            "  static const std::vector<std::array<int, 2>> merges = {";
  for (std::size_t r = 0; r < pieces.merges.size(); ++r) {
    merges << (r % 8 == 0 ? "\n     " : "") << " {" << pieces.merges[r][0] << ", " << pieces.merges[r][1] << "},";
  }
  merges << "\n  };\n  return merges;\n}\n\n}  // namespace attention\n";
  // The texts as the model read them, for the page's live language-model task (/learn/).
  const std::string stem = out.substr(0, out.rfind('.'));
  std::ofstream(stem + "-train.txt", std::ios::binary) << train_text;
  std::ofstream(stem + "-held-out.txt", std::ios::binary) << held_out_text;
  std::cout << model.card.dump(2) << "\n";
  return 0;
}
