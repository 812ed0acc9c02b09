#include "attention/model/language_model.hpp"

#include <cmath>
#include <memory>

#include "attention/core/rng.hpp"
#include "attention/io/int8_rows.hpp"
#include "attention/io/json_read.hpp"
#include "attention/io/spec.hpp"

namespace attention {

namespace {
constexpr const char* kFormat = "attention-playground language model 5";

template <class M, class W>
std::vector<std::pair<std::string, M*>> tensors(W& w) {
  std::vector<std::pair<std::string, M*>> out = {{"E", &w.E}, {"P", &w.P}};
  for (std::size_t l = 0; l < w.layers.size(); ++l) {
    const std::string prefix = "layers." + std::to_string(l) + ".";
    auto& layer = w.layers[l];
    out.insert(out.end(), {{prefix + "W_q", &layer.W_q}, {prefix + "W_k", &layer.W_k},
                           {prefix + "W_v", &layer.W_v}, {prefix + "W_o", &layer.W_o}});
  }
  out.insert(out.end(), {{"W_U", &w.W_U}, {"b_U", &w.b_U}});
  return out;
}

// The weights of a model of shape s, all 0: what the file's numbers are read into (drawing them
// at random instead took 8 ms, most of reading the file).
LmWeights zeros_of(const LmShape& s) {
  LmWeights w;
  w.E = Matrix::Zero(s.vocabulary, s.d_model);
  w.P = Matrix::Zero(s.context, s.d_model);
  w.layers.resize(static_cast<std::size_t>(s.layers));
  for (LmLayer& layer : w.layers) {
    for (Matrix* m : {&layer.W_q, &layer.W_k, &layer.W_v, &layer.W_o}) *m = Matrix::Zero(s.d_model, s.d_model);
  }
  w.W_U = Matrix::Zero(s.d_model, s.vocabulary);
  w.b_U = Matrix::Zero(1, s.vocabulary);
  return w;
}

#ifdef ATTENTION_FIRST_HEATMAP
// The header without its card, for the first heatmap's module, whose JSON reader refuses the
// card's numbers (17 digits, more than it rounds exactly) and which has no use for it. The card
// is the header's first key (write_model's dump sorts them); its value is skipped as text:
// strings (with their escapes) and nesting followed to its end. Anything else gives nothing.
std::optional<nlohmann::json> read_header(const std::string& text) {
  const std::string key = "{\"card\":";
  if (text.compare(0, key.size(), key) != 0) return json_read::read_json(text);
  int depth = 0;
  for (std::size_t i = key.size(); i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) i += text[i] == '\\';
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      if (i + 1 >= text.size() || text[i + 1] != ',') return std::nullopt;
      return json_read::read_json("{" + text.substr(i + 2));
    } else if (depth == 0) {
      return std::nullopt;  // a card that is not an object or a list
    }
  }
  return std::nullopt;
}
#else
std::optional<nlohmann::json> read_header(const std::string& text) { return json_read::read_json(text); }
#endif

}  // namespace

std::vector<std::pair<std::string, Matrix*>> named(LmWeights& w) { return tensors<Matrix>(w); }
std::vector<std::pair<std::string, const Matrix*>> named(const LmWeights& w) { return tensors<const Matrix>(w); }

LmWeights zeros_like(const LmWeights& w) {
  LmWeights z = w;
  for (auto& entry : named(z)) entry.second->setZero();
  return z;
}

LmWeights init_weights(const LmShape& s, std::uint32_t seed) {
  NumpyRandom rng(seed);
  const long d = s.d_model;
  const double w_scale = 1.0 / std::sqrt(static_cast<double>(d));
  LmWeights w;
  w.E = rng.randn(s.vocabulary, d);
  w.P = sinusoidal_encoding(s.context, d);
  for (long l = 0; l < s.layers; ++l) {
    LmLayer layer;
    for (Matrix* m : {&layer.W_q, &layer.W_k, &layer.W_v, &layer.W_o}) *m = rng.randn(d, d) * w_scale;
    w.layers.push_back(std::move(layer));
  }
  w.W_U = rng.randn(d, s.vocabulary) * w_scale;
  w.b_U = Matrix::Zero(1, s.vocabulary);
  return w;
}

std::string architecture(const LmShape& shape) {
  const auto n = [](long v) { return std::to_string(v); };
  return "attention-only decoder: " + n(shape.layers) + " layers of " + n(shape.heads) + " causal heads with RoPE, d_model " +
         n(shape.d_model) + ", learned positions, context " + n(shape.context) + ", " + n(shape.vocabulary) + " word pieces";
}

const WordPieces& tiny_lm_pieces() {
  static const WordPieces pieces = word_pieces(tiny_lm_merges());
  return pieces;
}

std::string write_model(const LanguageModel& model) {
  nlohmann::json header = {{"format", kFormat},
                           {"shape",
                            {{"vocabulary", model.shape.vocabulary},
                             {"context", model.shape.context},
                             {"d_model", model.shape.d_model},
                             {"heads", model.shape.heads},
                             {"layers", model.shape.layers},
                             {"rope_base", model.shape.rope_base}}},
                           {"merges", model.pieces.merges},
                           {"vocab", model.pieces.names},
                           {"card", model.card}};
  nlohmann::json shapes = nlohmann::json::array();
  std::string data;
  for (const auto& [name, m] : named(model.weights)) {
    shapes.push_back({name, {m->rows(), m->cols()}});
    append_int8_rows(data, *m);
  }
  header["tensors"] = shapes;
  return header.dump() + "\n" + data;
}

Result<LanguageModel> read_model(const std::string& bytes) {
  const auto bad = [](const std::string& what) { return error_at("model", "the weights file " + what); };
  const std::size_t end = bytes.find('\n');
  if (end == std::string::npos) return bad("has no header line");
  const auto read = read_header(bytes.substr(0, end));
  const nlohmann::json header = read ? *read : nlohmann::json();
  if (!header.is_object() || !header.contains("format") || header["format"] != kFormat) return bad("is not in this version's format");
  // Read without exceptions (the wasm build has none): every field checked before it is taken.
  const auto whole = [&](const char* key, long& out) {
    const auto& shape = header.contains("shape") ? header["shape"] : nlohmann::json();
    if (!shape.is_object() || !shape.contains(key) || !shape[key].is_number_integer()) return false;
    out = shape[key].get<long>();
    return true;
  };
  LanguageModel model;
  LmShape& shape = model.shape;
  if (!whole("vocabulary", shape.vocabulary) || !whole("context", shape.context) || !whole("d_model", shape.d_model) ||
      !whole("heads", shape.heads) || !whole("layers", shape.layers) || !header.contains("vocab") || !header["vocab"].is_array() ||
      !header.contains("merges") || !header["merges"].is_array()) {
    return bad("has a header without its shape, merges or vocabulary");
  }
  const auto& rope = header["shape"].contains("rope_base") ? header["shape"]["rope_base"] : nlohmann::json();
  if (!rope.is_number() || !(rope.get<double>() > 0) || !(rope.get<double>() < 1e12)) return bad("has no RoPE base");
  shape.rope_base = rope.get<double>();
  std::vector<std::array<int, 2>> merges;
  for (const auto& m : header["merges"]) {
    const int into = kByteTokens + static_cast<int>(merges.size());  // a merge joins tokens made before it
    if (!m.is_array() || m.size() != 2 || !m[0].is_number_integer() || !m[1].is_number_integer() || m[0].get<long>() < 0 ||
        m[0].get<long>() >= into || m[1].get<long>() < 0 || m[1].get<long>() >= into) {
      return bad("has a merge that is not two earlier tokens");
    }
    merges.push_back({m[0].get<int>(), m[1].get<int>()});
  }
  model.pieces = word_pieces(std::move(merges));
  if (header["vocab"] != model.pieces.names) return bad("has a vocabulary that is not its merges' tokens");
  if (header.contains("card")) model.card = header["card"];
  const LmShape& s = model.shape;
  if (s.vocabulary != static_cast<long>(model.pieces.names.size()) || s.context < 1 ||
      s.context > 4096 || s.d_model < 1 || s.d_model > 1024 || s.heads < 1 || s.d_model % s.heads != 0 || s.layers < 1 ||
      (s.d_model / s.heads) % 2 != 0 ||
      s.layers > 16) {
    return bad("has a shape or vocabulary this version cannot read");
  }
  model.weights = zeros_of(s);  // every number is replaced below
  std::size_t at = end + 1;
  const auto shapes = header.contains("tensors") ? header["tensors"] : nlohmann::json();
  const auto tensors = named(model.weights);
  if (!shapes.is_array() || shapes.size() != tensors.size()) return bad("lists other tensors than the model's");
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    Matrix& m = *tensors[t].second;
    if (shapes[t] != nlohmann::json{tensors[t].first, {m.rows(), m.cols()}}) return bad("has " + tensors[t].first + " in another shape");
    const std::size_t count = static_cast<std::size_t>(m.rows() * (m.cols() + 4));  // the rows' scales, then one byte a number
    if (bytes.size() - at < count) return bad("ends before " + tensors[t].first);
    m = int8_rows_at(bytes, at, m.rows(), m.cols());
    if (!m.allFinite()) return bad("has a number that is not finite in " + tensors[t].first);
    at += count;
  }
  if (at != bytes.size()) return bad("has bytes after its last tensor");
  return model;
}

Result<Spec> layer_spec(const LanguageModel& model, const std::vector<std::string>& tokens, const Matrix& X, std::size_t l) {
  // The spec parser fills every other setting with its default (the scaled dot product); none
  // of these settings depends on the tokens, so one stands for them while they are parsed.
  nlohmann::json settings{{"tokens", {"t"}},
                          {"d_model", model.shape.d_model}, {"heads", model.shape.heads}, {"mask", "causal"},
                          {"positional", "rope"}, {"rope_base", model.shape.rope_base}};
  ATTENTION_TRY(spec, parse_spec(settings));
  const LmLayer& layer = model.weights.layers[l];
  spec.tokens = tokens;
  spec.X = X;
  spec.W_q = layer.W_q;
  spec.W_k = layer.W_k;
  spec.W_v = layer.W_v;
  spec.W_o = layer.W_o;
  return spec;
}


Result<LmTrace> run_model(const LanguageModel& model, const std::vector<int>& ids) {
  const LmShape& s = model.shape;
  const long n = static_cast<long>(ids.size());
  if (n < 1 || n > s.context) return error_at("sentence", "has " + std::to_string(n) + " tokens; the model reads 1 to " + std::to_string(s.context));
  const LmWeights& w = model.weights;
  LmTrace t;
  t.ids = ids;
  Matrix x(n, s.d_model);  // the residual stream
  for (long i = 0; i < n; ++i) {
    const int id = ids[static_cast<std::size_t>(i)];
    if (id < 0 || id >= s.vocabulary) return error_at("tokens", "has an id outside the vocabulary");
    t.tokens.push_back(model.pieces.names[static_cast<std::size_t>(id)]);
    x.row(i) = w.E.row(id) + w.P.row(i);
  }
  for (std::size_t l = 0; l < w.layers.size(); ++l) {
    ATTENTION_TRY(spec, layer_spec(model, t.tokens, x, l));
    ATTENTION_TRY(trace, run_self<double>(spec));
    x += trace.output;
    t.layers.push_back(std::move(trace));
    t.specs.push_back(std::move(spec));
  }
  Matrix logits = x * w.W_U;  // (n, V)
  logits.rowwise() += w.b_U.row(0);
  t.log_probs.resize(n, s.vocabulary);
  for (long i = 0; i < n; ++i) {
    const double top = logits.row(i).maxCoeff();
    const double sum = (logits.row(i).array() - top).exp().sum();
    t.log_probs.row(i) = logits.row(i).array() - top - std::log(sum);
  }
  return t;
}

namespace {
std::unique_ptr<LanguageModel>& installed() {
  static std::unique_ptr<LanguageModel> model;
  return model;
}
long generation = 0;
}  // namespace

void install_model(LanguageModel model) {
  installed() = std::make_unique<LanguageModel>(std::move(model));
  ++generation;
}
const LanguageModel* installed_model() { return installed().get(); }
long installed_generation() { return generation; }

}  // namespace attention
