// attention-cli: the core on the command line, for tests, course scripts and notebooks.
// Every failure is one line on stderr and exit status 2.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "attention/limits.hpp"
#include "attention/numpy_emit.hpp"
#include "attention/rng.hpp"
#include "attention/spec.hpp"
#include "attention/trace_json.hpp"

namespace {

constexpr std::size_t kMaxSpecBytes = 64 * 1024 * 1024;

void usage(std::FILE* to) {
  std::fputs(
      "usage:\n"
      "  attention-cli random --seed S --dist uniform|normal|int:HIGH --shape R,C\n"
      "      print NumPy's np.random.seed(S); rand / randn / randint(HIGH, size=(R, C))\n"
      "  attention-cli run FILE|-      read a spec (JSON), print the trace (JSON)\n"
      "  attention-cli numpy FILE|-    print a NumPy program that rebuilds the trace\n"
      "\nspec keys (all optional):\n",
      to);
  for (const auto& s : attention::settings()) {
    std::fprintf(to, "  %-15s %-9s %s%s%s\n", s.key, s.kind, s.help, *s.fallback ? " Default: " : "", s.fallback);
  }
}

int fail(const std::string& line) {
  std::fprintf(stderr, "attention-cli: %s\n", line.c_str());
  return 2;
}

bool read_input(const std::string& path, std::string& text, std::string& err) {
  std::istream* in = &std::cin;
  std::ifstream file;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) {
      err = "cannot open " + path + ": " + std::strerror(errno);
      return false;
    }
    in = &file;
  }
  char buf[65536];
  while (in->read(buf, sizeof buf) || in->gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in->gcount()));
    if (text.size() > kMaxSpecBytes) {
      err = "the spec is larger than " + std::to_string(kMaxSpecBytes / (1024 * 1024)) + " MiB";
      return false;
    }
  }
  return true;
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
    if (!target) return fail("random: unknown option " + a);
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
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    usage(stdout);
    return 0;
  }
  if (cmd == "random") return cmd_random(argc, argv);
  if (cmd != "run" && cmd != "numpy") return fail("unknown command \"" + cmd + "\" (run, numpy, random, --help)");
  if (argc != 3) return fail(cmd + ": give one spec file, or - for standard input");

  std::string text, err;
  if (!read_input(argv[2], text, err)) return fail(err);
  auto spec = attention::parse_spec_text(text);
  if (!spec) return fail(spec.error().line());
  if (cmd == "numpy") {
    std::fputs(attention::numpy_program(spec.value()).c_str(), stdout);
    return 0;
  }
  auto trace = attention::run_trace(spec.value());
  if (!trace) return fail(trace.error().line());
  std::string out = trace.value().dump();
  out += "\n";
  std::fputs(out.c_str(), stdout);
  return 0;
}
