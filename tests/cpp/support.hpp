#pragma once
// Shared by the Catch2 tests: fixture loading, one tolerance-scaled comparison of JSON
// numbers (ggml-style: error relative to max(1, |expected|)), and running the CLI.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace support {

using nlohmann::json;

inline json load_fixture(const std::string& name) {
  std::ifstream in(std::string(ATTENTION_FIXTURES) + "/" + name);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

// Largest normalised difference between two JSON trees of numbers (arrays and objects of
// them, nulls matching nulls); shape mismatches are reported as infinity so they can never pass.
inline double max_error(const json& actual, const json& expected, std::string& where, const std::string& path = "") {
  if (expected.is_number()) {
    if (!actual.is_number()) { where = path; return INFINITY; }
    const double a = actual.get<double>(), e = expected.get<double>();
    const double err = std::fabs(a - e) / std::max(1.0, std::fabs(e));
    if (!(err <= 0) && where.empty()) where = path;
    return std::isnan(err) ? INFINITY : err;
  }
  if (expected.is_array()) {
    if (!actual.is_array() || actual.size() != expected.size()) { where = path + " (shape)"; return INFINITY; }
    double worst = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      std::string w;
      const double e = max_error(actual[i], expected[i], w, path + "[" + std::to_string(i) + "]");
      if (e > worst) { worst = e; where = w; }
    }
    return worst;
  }
  if (expected.is_object()) {  // decode steps, online blocks: key by key
    if (!actual.is_object() || actual.size() != expected.size()) { where = path + " (keys)"; return INFINITY; }
    double worst = 0;
    for (const auto& [key, value] : expected.items()) {
      std::string w;
      const double e = actual.contains(key) ? max_error(actual[key], value, w, path + "." + key) : INFINITY;
      if (e > worst) { worst = e; where = w.empty() ? path + "." + key : w; }
    }
    return worst;
  }
  if (expected.is_null() && actual.is_null()) return 0;  // a running maximum not started yet
  where = path + " (not a number)";
  return INFINITY;
}

// `bound`: a name from tolerance.hpp, or one a fixture carries with its numbers.
#define CHECK_CLOSE_JSON(actual, expected, bound)                                 \
  do {                                                                            \
    std::string where_;                                                           \
    const double err_ = support::max_error((actual), (expected), where_);         \
    INFO("largest error " << err_ << " at " << where_);                           \
    CHECK(err_ <= (bound));                                                       \
  } while (0)

struct Run {
  int status;
  std::string out;
  std::string err;
};

// Runs attention-cli with `args`, feeding `input` on stdin.
inline Run cli(const std::string& args, const std::string& input = "") {
  static int counter = 0;
  const std::string base = "/tmp/attention-cli-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  { std::ofstream(base + ".in") << input; }
  const std::string cmd = std::string(ATTENTION_CLI) + " " + args + " < " + base + ".in > " + base + ".out 2> " + base + ".err";
  const int raw = std::system(cmd.c_str());
  const auto slurp = [](const std::string& p) { std::ifstream f(p); std::stringstream s; s << f.rdbuf(); return s.str(); };
  Run r{WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw), slurp(base + ".out"), slurp(base + ".err")};
  for (const char* ext : {".in", ".out", ".err"}) std::remove((base + ext).c_str());
  return r;
}

}  // namespace support
