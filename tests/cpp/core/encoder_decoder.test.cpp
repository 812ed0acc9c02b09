#include "attention/core/encoder_decoder.hpp"

#include "attention/io/trace_json.hpp"
#include "support.hpp"
#include "tolerance.hpp"

using nlohmann::json;

namespace {
attention::EncoderDecoderTrace<double> ed_of(const std::string& spec) {
  const auto s = attention::parse_spec_text(spec);
  REQUIRE(s.ok());
  auto t = attention::run_encoder_decoder<double>(s.value());
  REQUIRE(t.ok());
  return t.value();
}
const char* kSeed000 = R"({"mode": "encoder_decoder", "score": "dot", "decoder_state": [5,1,20],
                           "annotations": [[3,12,45],[59,2,5],[1,43,5],[4,3,45.3]]})";
}  // namespace

TEST_CASE("seed 000: decoder state 5,1,20 scores 927 against 3,12,45", "[encoder_decoder][seed000]") {
  const auto fixture = support::load_fixture("attention.json");
  const auto& quoted = fixture["articles"]["seed000_single_score"];
  const auto t = ed_of(kSeed000);
  CHECK(t.scores(0) == quoted["score"].get<double>());
  CHECK(t.scores(0) == 927.0);
  CHECK(t.scores(3) == Approx(929.0).epsilon(tol::last_bits));  // 4*5 + 3*1 + 45.3*20
}

TEST_CASE("seed 000: the last annotation dominates and the context follows it", "[encoder_decoder][seed000]") {
  const auto t = ed_of(kSeed000);
  CHECK(t.weights.sum() == Approx(1));
  CHECK(t.weights(3) > 0.88);
  CHECK(t.weights(1) < 1e-200);  // "nearly wiped out"
  CHECK(t.context(2) > 45.0);
  CHECK(t.output.cwiseAbs().maxCoeff() <= 1.0);
}

TEST_CASE("encoder-decoder defaults draw annotations from the sentence", "[encoder_decoder]") {
  const auto t = ed_of(R"({"mode": "encoder_decoder", "sentence": "je suis je", "d_model": 3})");
  CHECK(t.parameters.X.rows() == 3);
  CHECK(t.parameters.X.row(0) == t.parameters.X.row(2));
  CHECK(t.parameters.W_c->rows() == 6);
  CHECK(t.weighted.rows() == 3);
}
