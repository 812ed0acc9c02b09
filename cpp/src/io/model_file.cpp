#include "attention/io/model_file.hpp"

#include <array>
#include <optional>

#include "attention/io/int8_rows.hpp"
#include "attention/io/json_read.hpp"

namespace attention {

namespace {
constexpr const char* kFormat = "attention-playground language model 5";

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

}  // namespace attention
