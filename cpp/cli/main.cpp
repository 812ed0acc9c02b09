// attention-cli: the core on the command line, for tests, course scripts and notebooks.
// Every failure is one line on stderr and exit status 2.
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "attention/io/json_read.hpp"
#include "attention/core/limits.hpp"
#include "attention/io/numpy_emit.hpp"
#include "attention/core/rng.hpp"
#include "attention/io/spec.hpp"
#include "attention/io/trace_json.hpp"
#include "attention/model/lm_training.hpp"
#include "attention/train/trainer.hpp"
#include "built_in_model.hpp"

namespace {

using attention::json_read::clip;
using attention::limits::max_spec_bytes;

std::string usage() {
  std::string text =
      "usage:\n"
      "  attention-cli random --seed S --dist uniform|normal|int:HIGH --shape R,C\n"
      "      print NumPy's np.random.seed(S); rand / randn / randint(HIGH, size=(R, C))\n"
      "  attention-cli run FILE|-      read a spec (JSON), print the trace (JSON)\n"
      "  attention-cli numpy FILE|-    print a NumPy program that rebuilds the trace\n"
      "  attention-cli train FILE|- [--steps N] [--every K] [--time]\n"
      "      read training settings (JSON), train, print the metrics every K steps (JSON lines);\n"
      "      --time adds the seconds the steps took\n"
      "\nspec keys (all optional):\n";
  for (const auto& s : attention::settings()) {
    char key[64];
    std::snprintf(key, sizeof key, "  %-15s %-9s ", s.key, s.kind);
    text += std::string(key) + s.help + (*s.fallback ? " Default: " : "") + s.fallback;
    if (s.min != 0 || s.max != 0) text += " (" + std::to_string(s.min) + " to " + std::to_string(s.max) + ")";
    if (*s.modes) text += std::string(" [") + s.modes + "]";
    text += "\n";
  }
  return text;
}

int fail(const std::string& line) {
  std::fprintf(stderr, "attention-cli: %s\n", line.c_str());
  return 2;
}

// A reader that goes away (`| head`) is an error like any other: one line and exit 2, not a
// SIGPIPE (main ignores it, so a failed write reports EPIPE here).
int emit(const std::string& text) {
  if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
    return fail(std::string("cannot write the output: ") + std::strerror(errno));
  }
  return 0;
}

bool read_input(const std::string& path, std::string& text, std::string& err) {
  FILE* in = stdin;
  const std::string name = path == "-" ? "standard input" : clip(path, 200);
  if (path != "-") {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      err = "cannot read " + name + ": it is a directory";
      return false;
    }
    in = std::fopen(path.c_str(), "rb");
    if (!in) {
      err = "cannot open " + name + ": " + std::strerror(errno);
      return false;
    }
  }
  char buf[65536];
  std::size_t got;
  bool ok = true;
  while ((got = std::fread(buf, 1, sizeof buf, in)) > 0) {
    text.append(buf, got);
    if (text.size() > max_spec_bytes) {
      err = "the spec is larger than " + std::to_string(max_spec_bytes / (1024 * 1024)) + " MiB";
      ok = false;
      break;
    }
  }
  // A read that failed is said as such, not parsed as the end of the input.
  if (ok && std::ferror(in)) {
    err = "cannot read " + name + ": " + std::strerror(errno);
    ok = false;
  }
  if (in != stdin) std::fclose(in);
  return ok;
}

bool parse_count(const std::string& s, unsigned long long max, unsigned long long& out) {
  if (s.empty() || s.size() > 20) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  errno = 0;
  out = std::strtoull(s.c_str(), nullptr, 10);
  return errno == 0 && out <= max;
}

int cmd_random(int argc, char** argv) {
  std::string seed_s, dist, shape;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    std::string* target = a == "--seed" ? &seed_s : a == "--dist" ? &dist : a == "--shape" ? &shape : nullptr;
    if (!target) return fail("random: unknown option " + clip(a, 60));
    if (i + 1 >= argc) return fail("random: " + a + " needs a value");
    *target = argv[++i];
  }
  unsigned long long seed;
  if (!parse_count(seed_s, 4294967295ull, seed)) return fail("random: --seed must be a whole number from 0 to 4294967295");
  const auto comma = shape.find(',');
  unsigned long long rows, cols;
  if (comma == std::string::npos || !parse_count(shape.substr(0, comma), 1u << 20, rows) ||
      !parse_count(shape.substr(comma + 1), 1u << 20, cols) || rows == 0 || cols == 0 ||
      rows * cols > attention::limits::max_trace_cells) {
    return fail("random: --shape must be R,C with R*C from 1 to " + std::to_string(attention::limits::max_trace_cells));
  }
  attention::NumpyRandom rng(static_cast<std::uint32_t>(seed));
  attention::Matrix m;
  bool integers = false;
  if (dist == "uniform") {
    m = rng.rand(static_cast<long>(rows), static_cast<long>(cols));
  } else if (dist == "normal") {
    m = rng.randn(static_cast<long>(rows), static_cast<long>(cols));
  } else if (unsigned long long high; dist.rfind("int:", 0) == 0 &&
                                      parse_count(dist.substr(4), attention::limits::max_int_high, high) && high >= 1) {
    m = rng.randint(high, static_cast<long>(rows), static_cast<long>(cols));
    integers = true;
  } else {
    return fail("random: --dist must be uniform, normal or int:HIGH (HIGH from 1 to " +
                std::to_string(attention::limits::max_int_high) + ")");
  }
  std::string out = "[";
  char buf[40];
  for (long r = 0; r < m.rows(); ++r) {
    out += r ? ",\n [" : "[";
    for (long c = 0; c < m.cols(); ++c) {
      std::snprintf(buf, sizeof buf, integers ? "%.0f" : "%.17g", m(r, c));
      out += (c ? ", " : "");
      out += buf;
    }
    out += "]";
  }
  out += "]\n";
  return emit(out);
}

int cmd_train(int argc, char** argv) {
  std::string path;
  unsigned long long steps = 1000, every = 0;
  bool timed = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--time") { timed = true; continue; }
    if (a == "--steps" || a == "--every") {
      if (i + 1 >= argc) return fail("train: " + a + " needs a value");
      if (!parse_count(argv[++i], 1'000'000, a == "--steps" ? steps : every)) return fail("train: " + a + " must be a whole number from 0 to 1000000");
      continue;
    }
    if (!path.empty() || (a.size() > 1 && a[0] == '-')) return fail("train: unknown option " + clip(a, 60));
    path = a;
  }
  if (path.empty()) return fail("train: give one settings file, or - for standard input");
  if (every == 0) every = steps >= 10 ? steps / 10 : 1;
  std::string text, err;
  if (!read_input(path, text, err)) return fail(err);
  const auto settings = attention::parse_training_text(text);
  if (!settings) return fail(settings.error().line());
  auto trainer = attention::make_trainer(settings.value());
  if (!trainer) return fail(trainer.error().line());
  auto& t = trainer.value();
  if (emit(attention::metrics_json(t.metrics()).dump() + "\n")) return 2;
  const auto start = std::chrono::steady_clock::now();
  const auto per_call = static_cast<unsigned long long>(attention::limits::max_train_steps_per_call);
  for (unsigned long long done = 0; done < steps;) {
    const unsigned long long next = std::min(steps, done + every);
    attention::Result<attention::Metrics> m = t.metrics();
    for (; done < next; done += std::min(per_call, next - done)) {
      m = t.step(static_cast<long>(std::min(per_call, next - done)));
      if (!m) return fail(m.error().line());
    }
    auto line = attention::metrics_json(m.value());
    if (timed) line["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (emit(line.dump() + "\n")) return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  if (argc < 2) {
    std::fputs(usage().c_str(), stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") return emit(usage());
  if (cmd == "random") return cmd_random(argc, argv);
  if (cmd == "train") return cmd_train(argc, argv);
  if (cmd != "run" && cmd != "numpy") return fail("unknown command \"" + clip(cmd, 60) + "\" (run, numpy, random, train, --help)");
  if (argc != 3) return fail(cmd + ": give one spec file, or - for standard input");

  std::string text, err;
  if (!read_input(argv[2], text, err)) return fail(err);
  auto spec = attention::parse_spec_text(text);
  if (!spec) return fail(spec.error().line());
  std::optional<attention::LanguageModel> model;
  std::vector<std::vector<attention::HeadScores>> probe;
  if (spec.value().model == attention::ModelKind::tiny_lm) model = attention::built_in_model();
  if (cmd == "numpy") return emit(attention::numpy_program(spec.value(), model ? &*model : nullptr));
  if (model) probe = attention::probe_head_scores(*model);  // (the trace shows them; the program does not)
  auto trace = attention::run_trace(spec.value(), nullptr, {model ? &*model : nullptr, &probe});
  if (!trace) return fail(trace.error().line());
  return emit(trace.value().dump() + "\n");
}
