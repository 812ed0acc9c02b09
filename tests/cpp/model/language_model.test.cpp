// The language model's forward pass, weights file, characters and shipped weights, against
// PyTorch and NumPy (tests/fixtures/make_lm_fixtures.py writes lm_small.json and lm_shipped.json).
#include "attention/io/model_file.hpp"
#include "attention/model/language_model.hpp"
#include "attention/model/lm_training.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "attention/core/limits.hpp"
#include "attention/core/word_seed.hpp"
#include "attention/io/int8_rows.hpp"
#include "attention/io/spec.hpp"
#include "attention/io/trace_json.hpp"
#include "built_in_model.hpp"
#include "support.hpp"
#include "tolerance.hpp"

// The bytes of models/tiny-lm.bin as built into attention-model (cmake/embed.cmake).
extern const unsigned char tiny_lm_weights[];
extern const std::size_t tiny_lm_weights_size;

using attention::LanguageModel;
using attention::LmShape;
using attention::Matrix;
using nlohmann::json;

namespace {

// Parsed once: several test cases read each file.
const json& small_fixture() {
  static const json f = support::load_fixture("lm_small.json");
  return f;
}
const json& shipped_fixture() {
  static const json f = support::load_fixture("lm_shipped.json");
  return f;
}

LmShape shape_of(const json& j) {
  return LmShape{j["vocabulary"].get<long>(), j["context"].get<long>(), j["d_model"].get<long>(), j["heads"].get<long>(),
                 j["layers"].get<long>(), j["rope_base"].get<double>()};
}

LanguageModel small_model() {
  const json& f = small_fixture();
  const LmShape s = shape_of(f["shape"]);
  return LanguageModel{s, attention::word_pieces(f["merges"].get<std::vector<std::array<int, 2>>>()),
                       attention::init_weights(s, f["seed"].get<std::uint32_t>()), {}};
}

json stack_json(const std::vector<Matrix>& ms) {
  json out = json::array();
  for (const auto& m : ms) out.push_back(attention::matrix_json(m));
  return out;
}

json scores_json(const std::vector<std::vector<attention::HeadScores>>& layers) {
  json out = json::array();
  for (const auto& heads : layers) {
    json row = json::array();
    for (const auto& h : heads) {
      row.push_back({{"previous_token", h.previous_token}, {"duplicate_token", h.duplicate_token},
                     {"induction", h.induction}, {"first_token", h.first_token}, {"current_token", h.current_token}});
    }
    out.push_back(row);
  }
  return out;
}

std::string built_in_bytes() { return std::string(reinterpret_cast<const char*>(tiny_lm_weights), tiny_lm_weights_size); }

// Every later check on the shipped model would fail confusingly on a retrained file.
void require_fresh_fixture() {
  const json& f = shipped_fixture();
  const std::string bytes = built_in_bytes();
  const bool fresh = bytes.size() == f["bytes"].get<std::size_t>() && attention::crc32(bytes) == f["crc32"].get<std::uint32_t>();
  if (!fresh) {
    FAIL("tests/fixtures/lm_shipped.json is stale: it describes models/tiny-lm.bin of " << f["bytes"].get<std::size_t>()
         << " bytes with sha256 " << f["sha256"].get<std::string>() << ", the built-in weights have " << bytes.size()
         << " bytes; re-run /usr/bin/python3 tests/fixtures/make_lm_fixtures.py");
  }
}

}  // namespace

TEST_CASE("init_weights draws NumPy's stream in the documented order", "[model][fixtures]") {
  const json& f = small_fixture();
  const LanguageModel m = small_model();
  const auto tensors = attention::named(m.weights);
  REQUIRE(tensors.size() == f["weights"].size());
  CHECK(tensors.size() == 12u);  // E, P, 2 x 4 per layer, W_U, b_U
  for (const auto& [name, t] : tensors) {
    INFO(name);
    REQUIRE(f["weights"].contains(name));
    CHECK_CLOSE_JSON(attention::matrix_json(*t), f["weights"][name], tol::exact);  // the draw order, bit for bit
  }
  CHECK(m.weights.b_U.isZero());
}

TEST_CASE("run_model's log-probabilities, attention and layer outputs agree with PyTorch", "[model][fixtures][torch]") {
  const json& f = small_fixture();
  const LanguageModel m = small_model();
  const std::vector<int> ids = attention::encode_pieces(m.pieces, f["text"].get<std::string>());
  REQUIRE(ids == f["ids"].get<std::vector<int>>());

  const auto run = attention::run_model(m, ids);
  REQUIRE(run.ok());
  const attention::LmTrace& t = run.value();
  CHECK(t.ids == ids);
  REQUIRE(t.tokens.size() == ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) CHECK(t.tokens[i] == m.pieces.names[static_cast<std::size_t>(ids[i])]);
  CHECK(t.tokens[3] == "cat");                          // a merge of merges
  CHECK(t.tokens[4] + t.tokens[5] == "<0xC3><0xA9>");  // the é, as its two bytes

  CHECK_CLOSE_JSON(attention::matrix_json(t.log_probs), f["log_probs"], tol::against_torch);
  REQUIRE(t.layers.size() == f["layers"].size());
  for (std::size_t l = 0; l < t.layers.size(); ++l) {
    INFO("layer " << l);
    const json& expect = f["layers"][l];
    CHECK_CLOSE_JSON(attention::matrix_json(t.layers[l].parameters.X), expect["X"], tol::against_torch);  // the residual stream in
    CHECK_CLOSE_JSON(stack_json(t.layers[l].weights), expect["weights"], tol::against_torch);
    CHECK_CLOSE_JSON(attention::matrix_json(t.layers[l].output), expect["output"], tol::against_torch);
  }
}

TEST_CASE("the weights file keeps every number as its row's int8 step, and the card", "[model]") {
  LanguageModel m = small_model();
  m.card = {{"corpus", "a test"}, {"held_out_loss", 2.5}, {"steps", {1, 2, 3}}};
  const std::string bytes = attention::write_model(m);
  const auto read = attention::read_model(bytes);
  REQUIRE(read.ok());
  const LanguageModel& r = read.value();
  CHECK(r.shape.vocabulary == m.shape.vocabulary);
  CHECK(r.shape.context == m.shape.context);
  CHECK(r.shape.d_model == m.shape.d_model);
  CHECK(r.shape.heads == m.shape.heads);
  CHECK(r.shape.layers == m.shape.layers);
  CHECK(r.pieces.merges == m.pieces.merges);
  CHECK(r.pieces.names == m.pieces.names);
  CHECK(r.card == m.card);
  const auto written = attention::named(m.weights);
  const auto back = attention::named(r.weights);
  REQUIRE(back.size() == written.size());
  bool rounded = false;  // the draws are doubles: some must have lost digits, or the test tests nothing
  for (std::size_t t = 0; t < back.size(); ++t) {
    INFO(back[t].first);
    CHECK(back[t].first == written[t].first);
    CHECK(*back[t].second == attention::int8_rounded(*written[t].second));
    rounded = rounded || *back[t].second != *written[t].second;
  }
  CHECK(rounded);
  CHECK(attention::write_model(r) == bytes);  // rounded numbers survive a second trip unchanged
  // each row: its scale's four bytes, then a byte a number
  CHECK(bytes.size() == bytes.find('\n') + 1 + 260 * (8 + 4) + 16 * (8 + 4) + 2 * 4 * 8 * (8 + 4) + 8 * (260 + 4) + 1 * (260 + 4));
}

TEST_CASE("a damaged weights file is refused, naming the model", "[model]") {
  const std::string bytes = attention::write_model(small_model());
  const std::size_t header = bytes.find('\n');
  REQUIRE(header != std::string::npos);
  const auto refused = [](const std::string& b, const std::string& why) {
    const auto r = attention::read_model(b);
    REQUIRE_FALSE(r.ok());
    INFO(r.error().message);
    CHECK(r.error().field == "model");
    CHECK(r.error().message.rfind("model: ", 0) == 0);
    CHECK(r.error().message.find(why) != std::string::npos);
  };
  SECTION("truncated") {
    refused(bytes.substr(0, bytes.size() - 1), "ends before b_U");
    refused(bytes.substr(0, header + 1), "ends before E");
    refused(bytes.substr(0, header + 1 + 260 * (8 + 4) + 3), "ends before P");
    refused(bytes.substr(0, header / 2), "no header line");
    refused("", "no header line");
  }
  SECTION("corrupted") {
    refused(bytes + "x", "bytes after its last tensor");
    std::string garbled = bytes;
    garbled[0] = '[';
    refused(garbled, "format");
    std::string nan = bytes;
    const std::size_t at = header + 1 + 260 * (8 + 4) + 4 * 5;  // the scale of P's sixth row
    nan.replace(at, 4, std::string("\x00\x00\xC0\x7F", 4));  // a quiet NaN, little-endian
    refused(nan, "not finite in P");
  }
  SECTION("a header that disagrees with the model") {
    json h = json::parse(bytes.substr(0, header));
    json other = h;
    other["tensors"][2][1] = {8, 7};
    refused(other.dump() + bytes.substr(header), "layers.0.W_q in another shape");
    other = h;
    other["tensors"].erase(other["tensors"].size() - 1);
    refused(other.dump() + bytes.substr(header), "other tensors");
    other = h;
    other["shape"]["heads"] = 3;  // does not divide d_model 8
    refused(other.dump() + bytes.substr(header), "shape or vocabulary");
    other = h;
    other["vocab"][5] = "x";
    refused(other.dump() + bytes.substr(header), "not its merges' tokens");
    other = h;
    other["shape"]["vocabulary"] = 261;
    refused(other.dump() + bytes.substr(header), "shape or vocabulary");
    for (const json& merge : {json{1, 260}, json{-1, 2}, json{1}, json("ab"), json{1.5, 2}}) {
      other = h;
      other["merges"][3] = merge;  // 260 is not made before the fourth merge
      refused(other.dump() + bytes.substr(header), "not two earlier tokens");
    }
    other = h;
    other.erase("merges");
    refused(other.dump() + bytes.substr(header), "without its shape, merges");
    other = h;
    other.erase("shape");
    refused(other.dump() + bytes.substr(header), "without its shape");
    other = h;
    other["shape"]["d_model"] = 8.5;
    refused(other.dump() + bytes.substr(header), "without its shape");
    other = h;
    other["vocab"][5] = 5;
    refused(other.dump() + bytes.substr(header), "not its merges' tokens");
    for (const json& base : {json(), json(0), json(-1), json("10000")}) {
      other = h;
      if (base.is_null()) other["shape"].erase("rope_base");
      else other["shape"]["rope_base"] = base;
      refused(other.dump() + bytes.substr(header), "no RoPE base");
    }
    other = h;
    other["shape"]["heads"] = 8;  // d_k 1: RoPE turns pairs of columns
    refused(other.dump() + bytes.substr(header), "shape or vocabulary");
  }
}

TEST_CASE("the model's word pieces are built into the core and read every text", "[model]") {
  const attention::WordPieces& p = attention::tiny_lm_pieces();
  REQUIRE(static_cast<long>(p.names.size()) == LmShape{}.vocabulary);
  REQUIRE(p.merges == attention::tiny_lm_merges());
  CHECK(p.names[' '] == " ");
  CHECK(p.ids.at(" the") >= attention::kByteTokens);  // the commonest word is one token
  CHECK(attention::piece_ids(p, {" the", "A", "<0x00>", "<unk>", "ab\t"}) ==
        std::vector<int>{p.ids.at(" the"), 'A', 0, -1, -1});
  // Every text encodes, and its tokens' bytes give it back: no unknown token.
  for (const std::string& text : std::vector<std::string>{"The cat sat on the mat.", "a\xC3\xA9" "b\t\r\n", "\xE6\x97\xA5\xF0\x9F\x99\x82z", "x\xC3", std::string("\0<b>", 4)}) {
    std::string back;
    for (const int id : attention::encode_pieces(p, text)) back += p.bytes[static_cast<std::size_t>(id)];
    CHECK(back == text);
  }
  const std::vector<int> printable = attention::printable_pieces(p);
  CHECK(printable.front() == ' ');
  CHECK(std::find(printable.begin(), printable.end(), p.ids.at(" the")) != printable.end());
  CHECK(std::find(printable.begin(), printable.end(), '\n') == printable.end());
}

TEST_CASE("a sentence for the trained model past the sentence limit is refused before it is read into word pieces", "[model]") {
  const std::string limit = std::to_string(attention::limits::max_sentence_bytes);
  const auto huge = attention::parse_spec(json{{"model", "tiny-lm"}, {"sentence", std::string(attention::limits::max_sentence_bytes + 1, 'x')}});
  REQUIRE_FALSE(huge);
  CHECK(huge.error().field == "sentence");
  CHECK(huge.error().message == "sentence: is " + std::to_string(attention::limits::max_sentence_bytes + 1) + " bytes long; the limit is " + limit + " bytes");
  // at the limit it is read, and refused for its tokens
  const auto at = attention::parse_spec(json{{"model", "tiny-lm"}, {"sentence", std::string(attention::limits::max_sentence_bytes, 'x')}});
  REQUIRE_FALSE(at);
  CHECK(at.error().message.find("tokens; the trained model reads at most 128") != std::string::npos);
}

TEST_CASE("run_model reads 1 to context tokens of the vocabulary", "[model]") {
  const LanguageModel m = small_model();
  const auto empty = attention::run_model(m, {});
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().field == "sentence");
  CHECK(empty.error().message == "sentence: has 0 tokens; the model reads 1 to 16");
  const auto too_long = attention::run_model(m, std::vector<int>(17, 5));
  REQUIRE_FALSE(too_long.ok());
  CHECK(too_long.error().field == "sentence");
  CHECK(too_long.error().message.find("17 tokens") != std::string::npos);
  CHECK(attention::run_model(m, std::vector<int>(16, 5)).ok());
  CHECK(attention::run_model(m, {3}).ok());
  for (const int bad : {-1, 260}) {
    const auto r = attention::run_model(m, {3, bad});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().field == "tokens");
  }
}

TEST_CASE("the shipped model runs as PyTorch runs it", "[model][fixtures][torch]") {
  require_fresh_fixture();
  const LanguageModel built_in = attention::built_in_model();
  const LanguageModel* m = &built_in;
  const json& f = shipped_fixture();
  CHECK(m->shape.context == f["shape"]["context"].get<long>());
  CHECK(m->shape.d_model == f["shape"]["d_model"].get<long>());
  CHECK(m->shape.heads == f["shape"]["heads"].get<long>());
  CHECK(m->shape.layers == f["shape"]["layers"].get<long>());
  CHECK(attention::write_model(*m) == built_in_bytes());  // nothing in the file is lost on reading

  CHECK(m->pieces.merges == attention::tiny_lm_merges());  // the core splits a sentence as the file's merges do
  const std::vector<int> ids = attention::encode_pieces(m->pieces, f["sentence"].get<std::string>());
  REQUIRE(ids == f["ids"].get<std::vector<int>>());
  const auto run = attention::run_model(*m, ids);
  REQUIRE(run.ok());
  CHECK_CLOSE_JSON(attention::matrix_json(run.value().log_probs), f["log_probs"], tol::against_torch);
  REQUIRE(run.value().layers.size() == f["layers"].size());
  for (std::size_t l = 0; l < f["layers"].size(); ++l) {
    INFO("layer " << l);
    CHECK_CLOSE_JSON(stack_json(run.value().layers[l].weights), f["layers"][l]["weights"], tol::against_torch);
  }
}

TEST_CASE("the probe's head scores are NumPy's head detector on PyTorch's attention", "[model][fixtures][torch]") {
  require_fresh_fixture();
  const LanguageModel built_in = attention::built_in_model();
  const LanguageModel* m = &built_in;
  const json& f = shipped_fixture();
  const auto scores = attention::probe_head_scores(*m, 50, 0);
  CHECK_CLOSE_JSON(scores_json(scores), f["head_scores"], tol::against_torch);

  // The card the trainer wrote describes these weights (the same probe, so the same scores).
  json card = json::array();
  for (const auto& entry : m->card.at("head_scores")) {
    const auto layer = entry.at("layer").get<std::size_t>();
    if (card.size() <= layer) card.push_back(json::array());
    card[layer].push_back({{"previous_token", entry["previous_token"]}, {"duplicate_token", entry["duplicate_token"]},
                           {"induction", entry["induction"]}, {"first_token", entry["first_token"]},
                           {"current_token", entry["current_token"]}});
  }
  CHECK_CLOSE_JSON(scores_json(scores), card, tol::reordered);
  // ... and says the shape it was built with in the words every card uses (a model trained on the page's too).
  CHECK(m->card.at("architecture") == attention::architecture(m->shape));
  CHECK(attention::architecture(m->shape).find("4 causal heads with RoPE") != std::string::npos);

  // A probe longer than half the context does not fit twice: no scores rather than a failure.
  CHECK(attention::probe_head_scores(*m, m->shape.context / 2 + 1, 0).empty());
}
