#include "attention/io/spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "attention/io/json_read.hpp"
#include "attention/io/json_text.hpp"
#include "attention/core/limits.hpp"
#include "attention/core/parameters.hpp"
#include "attention/io/tokenize.hpp"
#include "attention/model/language_model.hpp"

namespace attention {

using nlohmann::json;

namespace {

using json_read::clip;
using json_read::get_bool;
using json_read::get_int;
using json_read::get_number;
using json_read::get_string;
using json_read::integral;
using json_read::show;



std::string in_quotes(const std::string& s) { return "\"" + clip(s, 40) + "\""; }

// A whole number or a choice, checked against its row of the settings table.
Result<std::int64_t> table_int(const json& j, const char* key) {
  const Setting& row = setting(key);
  std::int64_t v;
  if (!integral(j.at(key), row.min, row.max, v)) {
    return error_at(key, "must be a whole number from " + std::to_string(row.min) + " to " + std::to_string(row.max) +
                             ", got " + show(j.at(key)));
  }
  return v;
}

// A matrix is a non-empty array of equally long, non-empty arrays of finite numbers; a vector
// is a flat array of numbers (read as one row).
Result<Matrix> get_matrix(const json& v, const std::string& key, bool vector) {
  if (!v.is_array() || v.empty()) {
    return error_at(key, std::string("must be a non-empty array") + (vector ? " of numbers" : " of rows"));
  }
  if (vector) {
    if (v.size() > static_cast<std::size_t>(limits::max_vector)) {
      return error_at(key, "has " + std::to_string(v.size()) + " entries; the limit is " +
                               std::to_string(limits::max_vector));
    }
    Matrix m(1, static_cast<long>(v.size()));
    for (std::size_t c = 0; c < v.size(); ++c) {
      if (!v[c].is_number()) return error_at(key, "entry " + std::to_string(c) + " is not a number");
      const double d = v[c].get<double>();
      if (!std::isfinite(d)) return error_at(key, "entry " + std::to_string(c) + " is not finite");
      m(0, static_cast<long>(c)) = d;
    }
    return m;
  }
  const std::size_t rows = v.size();
  if (!v[0].is_array() || v[0].empty()) return error_at(key, "row 0 must be a non-empty array of numbers");
  const std::size_t cols = v[0].size();
  if (rows * cols > limits::max_trace_cells) {
    return error_at(key, "is " + std::to_string(rows) + " x " + std::to_string(cols) +
                             "; the limit is " + std::to_string(limits::max_trace_cells) + " numbers");
  }
  Matrix m(static_cast<long>(rows), static_cast<long>(cols));
  for (std::size_t r = 0; r < rows; ++r) {
    const json& row = v[r];
    if (!row.is_array()) return error_at(key, "row " + std::to_string(r) + " is not an array");
    if (row.size() != cols) {
      return error_at(key, "is ragged: row " + std::to_string(r) + " has " + std::to_string(row.size()) +
                               " numbers, row 0 has " + std::to_string(cols));
    }
    for (std::size_t c = 0; c < cols; ++c) {
      if (!row[c].is_number()) {
        return error_at(key, "entry [" + std::to_string(r) + "][" + std::to_string(c) + "] is not a number");
      }
      const double d = row[c].get<double>();
      if (!std::isfinite(d)) {
        return error_at(key, "entry [" + std::to_string(r) + "][" + std::to_string(c) + "] is not finite");
      }
      m(static_cast<long>(r), static_cast<long>(c)) = d;
    }
  }
  return m;
}

// The value of a run of decimal digits its caller has checked, at most 19 (std::stoull would
// also bring the C library's printf, for the message of an exception that cannot come).
std::uint64_t decimal(const std::string& digits) {
  std::uint64_t v = 0;
  for (const char c : digits) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  return v;
}

Result<InitSpec> parse_init(const std::string& s, const char* key) {
  const bool embeddings = std::string(key) == "embedding_init";
  if (s == "uniform") return InitSpec{Init::uniform, 0};
  if (s == "per_word") {
    if (embeddings) return InitSpec{Init::per_word, 0};
    return error_at(key, "per_word applies to embedding_init only, got \"per_word\"");
  }
  if (s == "normal") return InitSpec{Init::normal, 0};
  if (s.rfind("int:", 0) == 0) {
    const std::string n = s.substr(4);
    bool digits = !n.empty() && n.size() <= 10;
    for (char c : n) digits = digits && c >= '0' && c <= '9';
    if (digits) {
      const std::uint64_t high = decimal(n);
      if (high >= 1 && high <= limits::max_int_high) return InitSpec{Init::integer, high};
    }
    return error_at(key, "int:N needs N from 1 to " + std::to_string(limits::max_int_high) + ", got " + in_quotes(s));
  }
  return error_at(key, std::string("must be uniform, normal") + (embeddings ? ", int:N or per_word" : " or int:N") + ", got " + in_quotes(s));
}

std::string init_name(const InitSpec& i) {
  switch (i.kind) {
    case Init::uniform: return "uniform";
    case Init::normal: return "normal";
    case Init::integer: return "int:" + std::to_string(i.high);
    case Init::per_word: return "per_word";
  }
  return "";
}

// Tokens given one by one (`tokens`, `source_tokens`): non-empty, valid UTF-8 strings of
// printable text (a token is shown, exported and written into programs: no line breaks, no
// terminal codes).
Result<std::vector<std::string>> token_list(const json& t, const char* key) {
  if (!t.is_array()) return error_at(key, "must be an array of strings");
  if (t.size() > limits::max_tokens) {
    return error_at(key, "has " + std::to_string(t.size()) + " tokens; the limit is " + std::to_string(limits::max_tokens));
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!t[i].is_string() || t[i].get<std::string>().empty()) {
      return error_at(key, "entry " + std::to_string(i) + " must be a non-empty string");
    }
    const auto one = tokenize(t[i].get<std::string>(), key);  // validates UTF-8 and length
    if (!one) return one.error();
    if (const auto c = control_character(t[i].get<std::string>())) {
      return error_at(key, "entry " + std::to_string(i) + " holds the control character U+" + hex4(*c, true) +
                               "; tokens are printable text");
    }
    out.push_back(t[i].get<std::string>());
  }
  return out;
}

// One name map per enum: parsing, printing, the table's choices and its messages all read it.
template <class E>
using Names = std::vector<std::pair<std::string, E>>;

const Names<ModelKind> kModels = {{"random", ModelKind::random}, {"tiny-lm", ModelKind::tiny_lm}};
const Names<Mode> kModes = {{"self", Mode::self}, {"encoder_decoder", Mode::encoder_decoder}, {"cross", Mode::cross}};
const Names<ScoreKind> kScores = {
    {"dot", ScoreKind::dot}, {"scaled_dot", ScoreKind::scaled_dot}, {"general", ScoreKind::general}, {"additive", ScoreKind::additive}};
// learned positions are the trainer's: a spec's X has no trained table to add.
const Names<Positional> kPositionals = {{"none", Positional::none}, {"sinusoidal", Positional::sinusoidal},
                                        {"rope", Positional::rope}, {"alibi", Positional::alibi}, {"learned", Positional::learned}};
const Names<RopeStyle> kRopeStyles = {{"interleaved", RopeStyle::interleaved}, {"halves", RopeStyle::halves}};
const Names<bool> kAttention = {{"soft", false}, {"hard", true}};

template <class E>
std::vector<std::string> names_of(const Names<E>& names, const std::vector<E>& except = {}) {
  std::vector<std::string> out;
  for (const auto& [name, e] : names) {
    if (std::find(except.begin(), except.end(), e) == except.end()) out.push_back(name);
  }
  return out;
}

template <class E>
const std::string& name_in(const Names<E>& names, E e) {
  for (const auto& [name, v] : names) {
    if (v == e) return name;
  }
  return names.front().first;  // every value is named
}

// The writers of to_json: some settings are echoed only where they mean something.
using Shown = bool (*)(const Spec&);
bool always(const Spec&) { return true; }
bool with_rope(const Spec& s) { return s.positional == Positional::rope; }
bool trained(const Spec& s) { return s.model == ModelKind::tiny_lm; }

template <auto at, const auto& names, Shown shown = always>
SpecField choice() {
  return {[](const json& v, const Setting& row, Spec& s) -> std::optional<Error> {
            auto c = json_read::get_choice(v, row.key, row.choices);
            if (!c) return c.error();
            for (const auto& [name, e] : names) {
              if (name == c.value()) s.*at = e;
            }
            return std::nullopt;
          },
          [](const Spec& s) -> json { return shown(s) ? json(name_in(names, s.*at)) : json(); }};
}

// true, or (echoed only when on) a switch that is off unless asked for.
template <bool Spec::*at, bool echo_off = true>
SpecField flag() {
  return {[](const json& v, const Setting& row, Spec& s) -> std::optional<Error> {
            auto b = json_read::get_bool(v, row.key);
            if (!b) return b.error();
            s.*at = b.value();
            return std::nullopt;
          },
          [](const Spec& s) -> json { return s.*at || echo_off ? json(s.*at) : json(); }};
}

// A finite number; `positive`: greater than 0.
template <auto at, bool positive, Shown shown = always>
SpecField number() {
  return {[](const json& v, const Setting& row, Spec& s) -> std::optional<Error> {
            auto d = json_read::get_number(v, row.key);
            if (!d) return d.error();
            if (positive && !(d.value() > 0)) return error_at(row.key, "must be greater than 0, got " + json_read::show(v.at(row.key)));
            s.*at = d.value();
            return std::nullopt;
          },
          [](const Spec& s) -> json {
            const auto& x = s.*at;
            if constexpr (std::is_same_v<std::decay_t<decltype(x)>, double>) return shown(s) ? json(x) : json();
            else return x && shown(s) ? json(*x) : json();
          }};
}

// A whole number in the row's range; 0 is not echoed where it means off.
template <auto at, bool echo_zero = true>
SpecField whole() {
  return {[](const json& v, const Setting& row, Spec& s) -> std::optional<Error> {
            std::int64_t x;
            if (!json_read::integral(v.at(row.key), row.min, row.max, x)) {
              return error_at(row.key, "must be a whole number from " + std::to_string(row.min) + " to " + std::to_string(row.max) +
                                           ", got " + json_read::show(v.at(row.key)));
            }
            s.*at = static_cast<std::decay_t<decltype(s.*at)>>(x);
            return std::nullopt;
          },
          [](const Spec& s) -> json { return s.*at || echo_zero ? json(s.*at) : json(); }};
}

template <InitSpec Spec::*at>
SpecField init() {
  return {[](const json& v, const Setting& row, Spec& s) -> std::optional<Error> {
            auto text = json_read::get_string(v, row.key);
            if (!text) return text.error();
            auto i = parse_init(text.value(), row.key);
            if (!i) return i.error();
            s.*at = i.value();
            return std::nullopt;
          },
          [](const Spec& s) -> json { return init_name(s.*at); }};
}

// A matrix the spec gives (a "vector" row: one row); not given, the seed draws it. Its shape is
// checked once the sizes are known.
template <std::optional<Matrix> Spec::*at>
SpecField matrix() {
  return {[](const json& v, const Setting& row, Spec& s) -> std::optional<Error> {
    auto m = get_matrix(v.at(row.key), row.key, std::string_view(row.kind) == "vector");
    if (!m) return m.error();
    s.*at = std::move(m).value();
    return std::nullopt;
  }};
}

// none, causal, window:D, causal_window:D, or a matrix of 0/1 (its shape is checked once the
// tokens are known).
SpecField mask_field() {
  return {[](const json& v, const Setting& row, Spec& s) -> std::optional<Error> {
            const json& m = v.at(row.key);
            if (m.is_array()) {
              auto mm = get_matrix(m, row.key, false);
              if (!mm) return mm.error();
              for (long i = 0; i < mm.value().size(); ++i) {
                const double x = mm.value().data()[i];
                if (x != 0.0 && x != 1.0) return error_at(row.key, "entries must be 0 (hidden) or 1 (visible)");
              }
              s.mask = MaskKind::matrix;
              s.mask_matrix = std::move(mm).value();
              return std::nullopt;
            }
            auto text = json_read::get_string(v, row.key);
            if (!text) return text.error();
            const std::string& str = text.value();
            if (str == "none") s.mask = MaskKind::none;
            else if (str == "causal") s.mask = MaskKind::causal;
            else if (str.rfind("window:", 0) == 0 || str.rfind("causal_window:", 0) == 0) {
              const bool causal = str[0] == 'c';
              const std::string d = str.substr(causal ? 14 : 7);
              bool digits = !d.empty() && d.size() <= 9;
              for (char c : d) digits = digits && c >= '0' && c <= '9';
              if (!digits || decimal(d) > static_cast<std::uint64_t>(limits::max_window)) {
                return error_at(row.key, std::string(causal ? "causal_window" : "window") + ":D needs a whole number D from 0 to " +
                                             std::to_string(limits::max_window) + ", got " + in_quotes(str));
              }
              s.mask = causal ? MaskKind::causal_window : MaskKind::window;
              s.window = static_cast<long>(decimal(d));
            } else {
              return error_at(row.key, "must be none, causal, window:D, causal_window:D or an n x n matrix of 0/1, got " + in_quotes(str));
            }
            return std::nullopt;
          },
          [](const Spec& s) -> json {
            switch (s.mask) {
              case MaskKind::none: return "none";
              case MaskKind::causal: return "causal";
              case MaskKind::window: return "window:" + std::to_string(s.window);
              case MaskKind::causal_window: return "causal_window:" + std::to_string(s.window);
              case MaskKind::matrix: break;
            }
            json rows = json::array();
            for (long r = 0; r < s.mask_matrix.rows(); ++r) {
              json row = json::array();
              for (long c = 0; c < s.mask_matrix.cols(); ++c) row.push_back(static_cast<int>(s.mask_matrix(r, c)));
              rows.push_back(row);
            }
            return rows;
          }};
}

}  // namespace

// Rows in the order the page shows its controls. A row with a `field` is read by the parser's
// loop; the others by its named checks.
const std::vector<Setting>& settings() {
  using limits::max_head_dim;
  static const long max_tokens = static_cast<long>(limits::max_tokens);
  static const std::vector<Setting> table = {
      {"model", "enum", "\"random\"",
       "random (seeded weights, shaped by the settings below) or tiny-lm (the small language model this project trained; it reads word pieces).",
       names_of(kModels), 0, 0, "", "Model", choice<&Spec::model, kModels, trained>()},
      {"mode", "enum", "\"self\"",
       "self (each token attends over all), encoder_decoder (a decoder state attends over annotations) or cross (the sentence attends over the source).",
       names_of(kModes), 0, 0, "", "Mode", choice<&Spec::mode, kModes>()},
      {"sentence", "string", "\"the cat sat on the mat\"", "The text to attend over; split into words and punctuation.", {}, 0, 0, "", "Sentence"},
      {"tokens", "string[]", "", "Tokens given one by one instead of a sentence."},
      {"source", "string", "", "cross: the sentence the keys and values come from.", {}, 0, 0, "cross", "Source"},
      {"source_tokens", "string[]", "", "cross: the source given token by token.", {}, 0, 0, "cross"},
      {"seed", "integer", "42", "Seed of NumPy's legacy random stream.", {}, 0, 4294967295LL, "", "Seed", whole<&Spec::seed>()},
      {"d_model", "integer", "4", "Width of each embedding; defaults to the width of an explicit X.", {}, 1, limits::max_d_model, "", "d_model"},
      {"heads", "integer", "1", "Number of attention heads.", {}, 1, limits::max_heads, "", "Heads"},
      {"kv_heads", "integer", "", "Key/value heads (grouped-query attention; 1 is multi-query); must divide heads. Default heads.",
       {}, 1, limits::max_heads, "self,cross", "Key/value heads"},
      {"d_k", "integer", "", "Width of a query/key per head; default d_model / heads.", {}, 1, max_head_dim, "self,cross", "d_k"},
      {"d_v", "integer", "", "Width of a value per head; default d_k.", {}, 1, max_head_dim, "self,cross"},
      {"d_a", "integer", "", "Hidden width of additive scoring; default d_k.", {}, 1, max_head_dim},
      {"embedding_init", "init", "\"uniform\"",
       "How embeddings are drawn: uniform (rand), normal (randn), int:N (randint(N)), or per_word (each word from its own seed, the same in any sentence).",
       {"uniform", "normal", "int:N", "per_word"}, 0, 0, "", "Embeddings", init<&Spec::embedding_init>()},
      {"weight_init", "init", "\"normal\"", "How weight matrices are drawn: uniform, normal or int:N.", {"uniform", "normal", "int:N"}, 0, 0, "",
       "Weights", init<&Spec::weight_init>()},
      {"score", "enum", "\"scaled_dot\"", "Score function: dot, scaled_dot, general (q W_a k) or additive (v_a . tanh(q W_1 + k W_2)).",
       names_of(kScores), 0, 0, "", "Score", choice<&Spec::score, kScores>()},
      {"scale", "number", "", "Multiplies the scores; default 1/sqrt(d_k) for scaled_dot, 1 otherwise.", {}, 0, 0, "", "Scale",
       number<&Spec::scale, false>()},
      {"temperature", "number", "1", "Divides the scores before the softmax; must be positive.", {}, 0, 0, "", "Temperature",
       number<&Spec::temperature, true>()},
      {"softcap", "number", "", "Caps the logits at +-softcap: softcap * tanh(logits / softcap), as Gemma 2; off by default.", {}, 0, 0,
       "self,cross", "Softcap", number<&Spec::softcap, true>()},
      {"mask", "mask", "\"none\"", "none, causal, window:D (attend within D positions), causal_window:D (causal, at most D back), or an n x n matrix of 0/1.",
       {"none", "causal", "window:D", "causal_window:D"}, 0, 0, "self,cross", "Mask", mask_field()},
      {"qk_norm", "boolean", "false",
       "Divide each head's query and key rows by their root mean square, q / sqrt(mean(q^2) + 1e-6), before RoPE and the scores (as Qwen3, OLMo 2 and Gemma 3).",
       {}, 0, 0, "self,cross", "QK-norm", flag<&Spec::qk_norm>()},
      {"positional", "enum", "\"none\"",
       "Positions: none, sinusoidal (added to X), rope (rotates each head's queries and keys) or alibi (a bias of -m_h |i - j| on the logits).",
       names_of(kPositionals, {Positional::learned}), 0, 0, "self,cross", "Positional encoding", choice<&Spec::positional, kPositionals>()},
      {"rope_style", "enum", "\"interleaved\"", "rope: rotate column pairs (2i, 2i+1) (interleaved, Llama) or (i, i + d_k/2) (halves, GPT-NeoX).",
       names_of(kRopeStyles), 0, 0, "self", "RoPE pairs", choice<&Spec::rope_style, kRopeStyles, with_rope>()},
      {"rope_base", "number", "10000", "rope: pair i turns by position x rope_base^(-2i/d_k); must be positive.", {}, 0, 0, "self", "RoPE base",
       number<&Spec::rope_base, true, with_rope>()},
      {"attention", "enum", "\"soft\"", "soft (softmax) or hard (one-hot on the highest score, first on ties).", names_of(kAttention), 0, 0, "",
       "Attention", choice<&Spec::hard, kAttention>()},
      {"residual", "boolean", "false", "Add X to the attention output (the Transformer's residual connection).", {}, 0, 0, "self,cross", "Residual",
       flag<&Spec::residual>()},
      {"layer_norm", "boolean", "false", "Normalise each output row to mean 0, variance 1 (eps 1e-5).", {}, 0, 0, "self,cross", "",
       flag<&Spec::layer_norm>()},
      {"decode", "boolean", "false", "Also generate position by position with a KV cache (needs a causal mask).", {}, 0, 0, "self",
       "Decode with a KV cache", flag<&Spec::decode, false>()},
      {"online_block", "integer", "", "Also run FlashAttention's online softmax over blocks of this many keys.", {}, 1, max_tokens, "self,cross",
       "Online softmax block", whole<&Spec::online_block, false>()},
      {"X", "matrix", "", "Embeddings, one row per token (n x d_model).", {}, 0, 0, "self,cross", "", matrix<&Spec::X>()},
      {"W_q", "matrix", "", "Query weights (d_model x heads*d_k).", {}, 0, 0, "self,cross", "", matrix<&Spec::W_q>()},
      {"W_k", "matrix", "", "Key weights (d_model x kv_heads*d_k).", {}, 0, 0, "self,cross", "", matrix<&Spec::W_k>()},
      {"W_v", "matrix", "", "Value weights (d_model x kv_heads*d_v).", {}, 0, 0, "self,cross", "", matrix<&Spec::W_v>()},
      {"W_o", "matrix", "", "Output weights after concatenating the heads (heads*d_v x d_model).", {}, 0, 0, "self,cross", "", matrix<&Spec::W_o>()},
      {"W_a", "matrix", "", "Bilinear weights of general scoring (d_k x d_k).", {}, 0, 0, "", "", matrix<&Spec::W_a>()},
      {"W_1", "matrix", "", "Query weights of additive scoring (d_k x d_a).", {}, 0, 0, "", "", matrix<&Spec::W_1>()},
      {"W_2", "matrix", "", "Key weights of additive scoring (d_k x d_a).", {}, 0, 0, "", "", matrix<&Spec::W_2>()},
      {"v_a", "vector", "", "Output vector of additive scoring (d_a).", {}, 0, 0, "", "", matrix<&Spec::v_a>()},
      {"decoder_state", "vector", "", "encoder_decoder: the decoder's hidden state (d).", {}, 0, 0, "encoder_decoder", "", matrix<&Spec::decoder_state>()},
      {"annotations", "matrix", "", "encoder_decoder: the encoder's hidden states, one row each (m x d).", {}, 0, 0, "encoder_decoder", "", matrix<&Spec::annotations>()},
      {"W_c", "matrix", "", "encoder_decoder: output layer weights, tanh([context, h] W_c) (2d x d).", {}, 0, 0, "encoder_decoder", "", matrix<&Spec::W_c>()},
      {"X_source", "matrix", "", "cross: the source's embeddings, one row per source token (m x d_model).", {}, 0, 0, "cross", "", matrix<&Spec::X_source>()},
  };
  return table;
}

const Setting& setting(const std::string& key) {
  for (const auto& s : settings()) {
    if (key == s.key) return s;
  }
  std::abort();  // a key the core's own code names; never one from input
}

const char* positional_name(Positional p) { return name_in(kPositionals, p).c_str(); }

namespace {

const std::string& mode_name(Mode m) { return name_in(kModes, m); }

// A setting given where its mode does not read it: "applies to self and cross modes", or
// "belongs to mode cross (mode is self)".
Error outside_its_modes(const Setting& row, Mode mode) {
  std::vector<std::string> modes;
  for (std::size_t at = 0, comma; at <= std::strlen(row.modes); at = comma + 1) {
    comma = std::string(row.modes).find(',', at);
    if (comma == std::string::npos) comma = std::strlen(row.modes);
    modes.push_back(std::string(row.modes).substr(at, comma - at));
  }
  if (modes.size() == 1) return error_at(row.key, "belongs to mode " + modes[0] + " (mode is " + mode_name(mode) + ")");
  std::string list;
  for (std::size_t i = 0; i < modes.size(); ++i) list += (i == 0 ? "" : i + 1 == modes.size() ? " and " : ", ") + modes[i];
  return error_at(row.key, "applies to " + list + " modes");
}

bool applies_in(const Setting& row, Mode mode) {
  if (!*row.modes) return true;
  const std::string modes = std::string(",") + row.modes + ",";
  return modes.find("," + mode_name(mode) + ",") != std::string::npos;
}

// Every row's default, as the spec JSON would give it: what the loop reads a key not given from.
const json& defaults_json() {
  static const json d = [] {
    json j = json::object();
    for (const auto& row : settings()) {
      if (*row.fallback) j[row.key] = *json_read::read_json(row.fallback);  // the table's own JSON
    }
    return j;
  }();
  return d;
}


Error shape_error(const std::string& key, const Matrix& m, long rows, long cols, const std::string& why) {
  return error_at(key, "is " + std::to_string(m.rows()) + " x " + std::to_string(m.cols()) + ", expected " +
                           std::to_string(rows) + " x " + std::to_string(cols) + " (" + why + ")");
}

// The trained model's spec: a sentence (read character by character) or tokens (entries of its
// vocabulary), and nothing that would shape or give weights: those are learned.
Result<Spec> parse_trained(const json& j, Spec s) {
  for (const auto& [key, value] : j.items()) {
    if (value.is_null() || key == "model" || key == "sentence" || key == "tokens") continue;
    return error_at(key, "does not apply to the trained model (model is tiny-lm): its sizes and weights are learned, not set");
  }
  const auto has = [&](const char* k) { return j.contains(k) && !j.at(k).is_null(); };
  if (has("sentence") && has("tokens")) return error_at("tokens", "give either sentence or tokens, not both");
  const char* key = has("tokens") ? "tokens" : "sentence";
  if (has("tokens")) {
    // Entries of the vocabulary, the newline among them (which a word token may not hold).
    const json& given = j.at("tokens");
    if (!given.is_array()) return error_at("tokens", "must be a list of the model's vocabulary entries, got " + show(given));
    if (given.size() > limits::max_tokens) return error_at("tokens", "has " + std::to_string(given.size()) + " tokens; the trained model reads at most " + std::to_string(LmShape{}.context));
    std::vector<std::string> tokens;
    for (std::size_t i = 0; i < given.size(); ++i) {
      const json& t = given[i];
      if (!t.is_string() || tiny_lm_pieces().ids.count(t.get<std::string>()) == 0) {
        return error_at("tokens", "entry " + std::to_string(i) + ", " + show(t) +
                                      ", is not in the model's vocabulary (its word pieces: \" the\", \"ing\", one byte as \"a\" or <0xE2>)");
      }
      tokens.push_back(t.get<std::string>());
    }
    s.tokens = std::move(tokens);
  } else {
    std::string sentence = defaults_json().at("sentence").get<std::string>();
    if (has("sentence")) {
      ATTENTION_TRY(given, get_string(j, "sentence"));
      sentence = std::move(given);
    }
    if (auto bad = too_long(sentence, "sentence")) return *bad;
    for (const int id : encode_pieces(tiny_lm_pieces(), sentence)) s.tokens.push_back(tiny_lm_pieces().names[static_cast<std::size_t>(id)]);
  }
  if (s.tokens.empty()) return error_at(key, "has no tokens; type at least one character");
  const long context = LmShape{}.context;
  if (static_cast<long>(s.tokens.size()) > context) {
    return error_at(key, "has " + std::to_string(s.tokens.size()) + " tokens; the trained model reads at most " + std::to_string(context));
  }
  return s;
}

#ifdef ATTENTION_FIRST_HEATMAP
// The trained model's specs, read by a first heatmap's module that asks for them (first_wasm.cpp
// built for posts on the trained model); in the other, nothing refers to parse_trained, and the
// linker leaves it and the word pieces out (12 KB gzip).
Result<Spec> (*trained_specs)(const json&, Spec) = nullptr;
#endif

// Every check of a spec; the work limit only when `bounded` (a caller that draws the parameters
// and runs nothing has no attention to bound). The first heatmap's module refuses, under "core",
// what only the whole core computes as soon as the spec says it: it keeps none of its checks.
Result<Spec> parse(const json& j, bool bounded) {
  if (!j.is_object()) return error_at("", "the spec must be a JSON object, got " + show(j));
  if (auto bad = json_read::unknown_key(j, settings(), "spec", " (see `attention-cli --help` for the keys)")) return *bad;
  Spec s;
  const auto has = [&](const char* k) { return j.contains(k) && !j.at(k).is_null(); };
  if (has("model")) {
    if (auto bad = setting("model").field.read(j, setting("model"), s)) return *bad;
#ifdef ATTENTION_FIRST_HEATMAP
    if (s.model == ModelKind::tiny_lm) return trained_specs ? trained_specs(j, std::move(s)) : needs_whole_core("the trained model");
#else
    if (s.model == ModelKind::tiny_lm) return parse_trained(j, std::move(s));
#endif
  }

  // The table's loop: each plain setting read from the spec or from its default (mode first, so
  // every later row is checked against it), and every key given where its mode does not read it
  // refused, unless it says what the default says.
  for (const Setting& row : settings()) {
    const bool given = has(row.key);
    if (given && !applies_in(row, s.mode) && !(*row.fallback && j.at(row.key) == defaults_json().at(row.key))) {
      return outside_its_modes(row, s.mode);
    }
    if (!row.field.read || !(given || *row.fallback)) continue;
    if (auto bad = row.field.read(given ? j : defaults_json(), row, s)) return *bad;
  }
#ifdef ATTENTION_FIRST_HEATMAP
  if (s.mode == Mode::encoder_decoder) return needs_whole_core("the encoder-decoder");
#endif
  const bool ed = s.mode == Mode::encoder_decoder;
  const bool cross = s.mode == Mode::cross;

  // The matrices given (read by the table's loop) decide the default sizes.
  const std::optional<Matrix>& inputs = ed ? s.annotations : s.X;
  const char* inputs_key = ed ? "annotations" : "X";

  // Tokens.
  if (has("sentence") && has("tokens")) return error_at("tokens", "give either sentence or tokens, not both");
  if (has("tokens")) {
    ATTENTION_TRY(tokens, token_list(j.at("tokens"), "tokens"));
    s.tokens = std::move(tokens);
  } else if (has("sentence")) {
    ATTENTION_TRY(sentence, get_string(j, "sentence"));
    ATTENTION_TRY(tokens, tokenize(sentence));
    s.tokens = std::move(tokens);
  } else if (inputs) {
    for (long i = 0; i < inputs->rows(); ++i) s.tokens.push_back((ed ? "a" : "t") + std::to_string(i + 1));
  } else {
    s.tokens = tokenize(defaults_json().at("sentence").get<std::string>()).value();
  }
  const char* tokens_key = has("tokens") ? "tokens" : "sentence";
  if (s.tokens.empty()) return error_at(tokens_key, "has no tokens; type at least one word");
  if (s.tokens.size() > limits::max_tokens) {
    return error_at(inputs_key, "has " + std::to_string(s.tokens.size()) + " rows; the limit is " +
                                    std::to_string(limits::max_tokens) + " tokens");
  }
  const long n = static_cast<long>(s.tokens.size());
  if (inputs && inputs->rows() != n) {
    return error_at(inputs_key, "has " + std::to_string(inputs->rows()) + " rows but there are " +
                                    std::to_string(n) + " tokens");
  }

  // Cross-attention's source: what the keys and values come from.
  if (cross) {
    if (has("source") && has("source_tokens")) return error_at("source_tokens", "give either source or source_tokens, not both");
    if (has("source_tokens")) {
      ATTENTION_TRY(tokens, token_list(j.at("source_tokens"), "source_tokens"));
      s.source_tokens = std::move(tokens);
    } else if (has("source")) {
      ATTENTION_TRY(source, get_string(j, "source"));
      ATTENTION_TRY(tokens, tokenize(source, "source"));
      s.source_tokens = std::move(tokens);
    } else if (s.X_source) {
      for (long i = 0; i < s.X_source->rows(); ++i) s.source_tokens.push_back("s" + std::to_string(i + 1));
    } else {
      return error_at("source", "cross mode needs a source: give source, source_tokens or X_source");
    }
    const char* source_key = has("source_tokens") ? "source_tokens" : "source";
    if (s.source_tokens.empty()) return error_at(source_key, "has no tokens; type at least one word");
    if (s.source_tokens.size() > limits::max_tokens) {
      return error_at("X_source", "has " + std::to_string(s.source_tokens.size()) + " rows; the limit is " +
                                      std::to_string(limits::max_tokens) + " tokens");
    }
    if (s.X_source && s.X_source->rows() != static_cast<long>(s.source_tokens.size())) {
      return error_at("X_source", "has " + std::to_string(s.X_source->rows()) + " rows but the source has " +
                                      std::to_string(s.source_tokens.size()) + " tokens");
    }
  }
  const long keys = cross ? static_cast<long>(s.source_tokens.size()) : n;  // what queries attend over

  // Sizes.
  if (has("d_model")) {
    ATTENTION_TRY(d, table_int(j, "d_model"));
    s.d_model = d;
    if (inputs && inputs->cols() != d) {
      return error_at(inputs_key, "has " + std::to_string(inputs->cols()) + " columns but d_model is " + std::to_string(d));
    }
  } else if (inputs) {
    s.d_model = inputs->cols();
  } else if (s.X_source) {
    s.d_model = s.X_source->cols();
  } else if (ed && s.decoder_state) {
    s.d_model = s.decoder_state->cols();
  }
  if (s.d_model > limits::max_d_model) {
    return error_at(inputs_key, "is " + std::to_string(s.d_model) + " wide; the limit of d_model is " +
                                    std::to_string(limits::max_d_model));
  }
  if (has("heads")) {
    ATTENTION_TRY(h, table_int(j, "heads"));
    s.heads = h;
  }
  if (ed && s.heads != 1) return error_at("heads", "encoder_decoder mode has one head");
  if (s.X_source && s.X_source->cols() != s.d_model) {
    return error_at("X_source", "has " + std::to_string(s.X_source->cols()) + " columns but d_model is " + std::to_string(s.d_model));
  }
  s.kv_heads = s.heads;
  if (has("kv_heads")) {
    ATTENTION_TRY(kv, table_int(j, "kv_heads"));
    if (kv > s.heads || s.heads % kv != 0) {
      return error_at("kv_heads", std::to_string(kv) + " key/value heads do not divide " + std::to_string(s.heads) +
                                      " query heads; choose a divisor of heads");
    }
    s.kv_heads = kv;
  }
  if (has("d_k")) {
    ATTENTION_TRY(dk, table_int(j, "d_k"));
    s.d_k = dk;
  } else if (ed) {
    s.d_k = s.d_model;
  } else if (s.W_q) {
    // The query projection is the one matrix whose width is heads*d_k for every kv_heads, so it
    // alone may set the head width; W_k (kv_heads*d_k) is then checked against it, never read for it.
    const long cols = s.W_q->cols();
    if (cols % s.heads != 0) {
      return error_at("W_q", "has " + std::to_string(cols) + " columns, not a multiple of heads (" + std::to_string(s.heads) + ")");
    }
    s.d_k = cols / s.heads;
  } else {
    if (s.d_model % s.heads != 0) {
      return error_at("heads", std::to_string(s.heads) + " heads do not divide d_model " + std::to_string(s.d_model) +
                                   "; choose a divisor or set d_k");
    }
    s.d_k = s.d_model / s.heads;
  }
  if (has("d_v")) {
    ATTENTION_TRY(dv, table_int(j, "d_v"));
    s.d_v = dv;
  } else if (s.W_v && !ed) {
    if (s.W_v->cols() % s.kv_heads != 0) {
      return error_at("W_v", "has " + std::to_string(s.W_v->cols()) + " columns, not a multiple of kv_heads (" +
                                 std::to_string(s.kv_heads) + ")");
    }
    s.d_v = s.W_v->cols() / s.kv_heads;
  } else {
    s.d_v = ed ? s.d_model : s.d_k;
  }
  if (has("d_a")) {
    ATTENTION_TRY(da, table_int(j, "d_a"));
    s.d_a = da;
  } else if (s.v_a) {
    s.d_a = s.v_a->cols();
  } else {
    s.d_a = s.d_k;
  }

  // Named checks: what one setting asks of another.
  if (ed && s.embedding_init.kind == Init::per_word) return error_at("embedding_init", "per_word applies to self and cross modes");
  if (s.score != ScoreKind::general && s.W_a) return error_at("W_a", "is used by score general only");
  if (s.score != ScoreKind::additive) {
    for (const char* k : {"W_1", "W_2", "v_a", "d_a"}) {
      if (has(k)) return error_at(k, "is used by score additive only");
    }
  }
  if (s.mask == MaskKind::matrix && (s.mask_matrix.rows() != n || s.mask_matrix.cols() != keys)) {
    return shape_error("mask", s.mask_matrix, n, keys, cross ? "one row per token, one column per source token" : "one row and column per token");
  }
  if (cross && s.mask != MaskKind::none && s.mask != MaskKind::matrix) {
    return error_at("mask", "cross-attention takes none or an n x m matrix of 0/1 (the source has no future)");
  }
  if (cross && (s.positional == Positional::rope || s.positional == Positional::alibi)) {
    return error_at("positional", positional_name(s.positional) + std::string(" relates positions within one sequence; cross-attention takes none or sinusoidal"));
  }
  if (s.positional == Positional::rope && s.d_k % 2 != 0) {
    return error_at("d_k", "rope turns pairs of columns, so d_k must be even, got " + std::to_string(s.d_k));
  }
  if (s.decode && s.mask != MaskKind::causal && s.mask != MaskKind::causal_window) {
    return error_at("decode", "generation sees only the past: it needs mask causal or causal_window:D");
  }
  if (s.online_block > 0 && s.hard) return error_at("online_block", "the online softmax is for soft attention (attention is hard)");

  // Shapes of explicit matrices against the resolved sizes.
  const long d = s.d_model, h = s.heads, dv = s.d_v;
  const bool w_o = h > 1 || s.W_o.has_value();
  for (const auto& m : parameter_shapes(s)) {
    const std::optional<Matrix>& given = s.*(m.given);
    if (given && (given->rows() != m.rows || given->cols() != m.cols)) return shape_error(m.name, *given, m.rows, m.cols, m.why);
  }

  if (s.residual && !ed) {
    const long out = w_o ? d : h * dv;
    if (out != d) {
      return error_at("residual", "needs the attention output width (" + std::to_string(out) +
                                      ") to equal d_model (" + std::to_string(d) + ")");
    }
  }

  // Bounded work: every spec is measured against the limit before any arithmetic.
  if (!bounded) return s;
  const Work work = work_of(s);
  const std::size_t cells = work.cells();
  if (cells > limits::max_trace_cells) {
    const char* typed = has("tokens") || has("sentence") || !inputs ? tokens_key : inputs_key;
    return error_at(work.pairs > work.by_size ? typed : "d_model",
                    "this spec would work through about " + std::to_string(cells) + " numbers; the limit is " +
                        std::to_string(limits::max_trace_cells) + " (fewer tokens, heads or a smaller d_model)");
  }
  return s;
}

}  // namespace

Result<Spec> parse_spec(const json& j) { return parse(j, true); }

Result<Spec> parse_spec_unbounded(const json& j) { return parse(j, false); }

Work work_of(const Spec& s) {
  if (s.model == ModelKind::tiny_lm) {  // per layer: the scores, weights and mask; X, Q, K, V, heads, output; the weights
    const LmShape m;
    const std::size_t n = s.tokens.size(), layers = static_cast<std::size_t>(m.layers), d = static_cast<std::size_t>(m.d_model);
    return {layers * n * n * static_cast<std::size_t>(2 * m.heads + 1),
            layers * (n * d * 7 + 4 * d * d) + n * static_cast<std::size_t>(m.vocabulary)};
  }
  // Counted: the numbers of the trace (scores, weights and raw scores per head, the mask, the matrices with
  // a row per token, the weights, the rotations, biases, decode steps and online blocks) and
  // additive scoring's hidden layer, which is computed but not kept.
  const bool ed = s.mode == Mode::encoder_decoder;
  const long n = static_cast<long>(s.tokens.size()), d = s.d_model, h = s.heads, dk = s.d_k, dv = s.d_v, da = s.d_a;
  const long m = s.mode == Mode::cross ? static_cast<long>(s.source_tokens.size()) : n;  // keys
  const long kvh = ed ? 1 : s.kv_heads;
  const bool w_o = h > 1 || s.W_o.has_value();
  const auto z = [](long v) { return static_cast<std::size_t>(v); };
  const std::size_t pairs = (ed ? 1 : z(n) * z(h)) * z(m);  // self: n x m per head; encoder-decoder: 1 x m
  const std::size_t mask = s.mask == MaskKind::none ? 0 : z(n) * z(m);
  const std::size_t alibi = s.positional == Positional::alibi ? 1 : 0, hidden = s.score == ScoreKind::additive ? z(da) : 0;
  const std::size_t raw = s.positional == Positional::alibi || s.softcap ? 1 : 0;  // raw_scores, kept beside the scores
  const std::size_t per_pair = 2 + hidden + alibi + raw;
  const std::size_t width = w_o ? z(d) : z(h) * z(dv);  // an output row
  // Decode (self mode, m = n): step t works over its t+1 keys, n(n+1)/2 in all. Per key: the copy
  // of both caches the step keeps; per query head, its score and weight, the copy of its
  // key/value head's keys that scoring reads, ALiBi's bias and additive scoring's hidden layer;
  // the visible row. Per step: the new token, its projections and its output row. Once: the
  // caches and the visibility matrix.
  const std::size_t step_keys = z(n) * z(n + 1) / 2;
  const std::size_t decode = !s.decode ? 0
      : step_keys * (z(kvh) * z(dk + dv) + 1 + z(h) * (2 + z(dk) + alibi + hidden)) +
        z(n) * (z(d) + z(h) * z(dk) + 2 * z(kvh) * z(dk + dv) + z(h) * z(dv) + width) + z(n) * z(n);
  // The online softmax, per head: each block keeps m, l and the rescale (one number per query
  // row), o and o / l (n, d_v each); every visible logit is exponentiated once; the head's values
  // are copied.
  const std::size_t blocks = s.online_block > 0 ? (z(m) + z(s.online_block) - 1) / z(s.online_block) : 0;
  const std::size_t online = blocks == 0 ? 0 : z(h) * (blocks * z(n) * z(2 * dv + 3) + z(n) * z(m) + z(m) * z(dv));
  const std::size_t by_token = ed ? z(n) * z(d) * 2
                                  : z(n) * (z(d) * 6 + z(h) * z(2 * dk + 2 * dv)) + (m != n ? z(m) * z(d) * 2 : 0) +
                                        (s.positional == Positional::rope ? z(n + m) * z(dk) * z(h + 1) : 0) +
                                        (s.qk_norm ? z(n) * z(h * dk) + z(m) * z(kvh * dk) : 0) + z(h) * 4;  // + the head scores
  const std::size_t weights = (ed ? z(d) * z(2 * d) : z(d) * z(h * dk + kvh * (dk + dv)) + (w_o ? z(h) * z(dv) * z(d) : 0)) +
                              (s.score == ScoreKind::general ? z(dk) * z(dk) : 0) +
                              (s.score == ScoreKind::additive ? z(dk) * z(da) * 2 + z(da) : 0);
  return {pairs * per_pair + mask + decode + online, by_token + weights};
}

Result<Spec> parse_spec_text(const std::string& text) {
  ATTENTION_TRY(j, json_read::parse_text(text, "the spec is not valid JSON"));
  return parse_spec(j);
}

json to_json(const Spec& s) {
  json j;
  j["tokens"] = s.tokens;
  if (s.model == ModelKind::tiny_lm) {
    j["model"] = name_in(kModels, s.model);
    return j;
  }
  for (const Setting& row : settings()) {
    if (!row.field.write) continue;
    json v = row.field.write(s);
    if (!v.is_null()) j[row.key] = std::move(v);
  }
  // The sizes, as the named checks resolved them.
  j["d_model"] = s.d_model;
  j["heads"] = s.heads;
  if (s.mode != Mode::encoder_decoder) {
    j["d_k"] = s.d_k;
    j["d_v"] = s.d_v;
    j["kv_heads"] = s.kv_heads;
  }
  if (s.score == ScoreKind::additive) j["d_a"] = s.d_a;
  if (s.mode == Mode::cross) j["source_tokens"] = s.source_tokens;
  return j;
}

#ifdef ATTENTION_FIRST_HEATMAP
void read_trained_specs() { trained_specs = &parse_trained; }
#endif

}  // namespace attention
