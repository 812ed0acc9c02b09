// The head detector's scores on heads built to do one thing, and on one that does nothing.
#include "attention/core/head_detector.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "support.hpp"
#include "tolerance.hpp"

using attention::Matrix;

namespace {
const std::vector<std::string> kRepeated = {"a", "b", "c", "a", "b", "c"};

// Row i puts all its weight on key j(i).
template <class F>
Matrix one_hot(long n, F key) {
  Matrix w = Matrix::Zero(n, n);
  for (long i = 0; i < n; ++i) w(i, key(i)) = 1;
  return w;
}
}  // namespace

TEST_CASE("a head that does one thing scores 1 on it", "[head_detector]") {
  const auto previous = attention::head_scores(one_hot(6, [](long i) { return std::max(0L, i - 1); }), kRepeated);
  CHECK(previous.previous_token == 1.0);
  CHECK(previous.first_token == Approx(1.0 / 5));  // only row 1's previous token is the first
  // induction: from each token of the second copy to the one after its earlier copy (i - 2)
  const auto induction = attention::head_scores(one_hot(6, [](long i) { return i >= 3 ? i - 2 : 0; }), kRepeated);
  CHECK(induction.induction == 1.0);
  CHECK(induction.duplicate_token == 0.0);
  const auto duplicate = attention::head_scores(one_hot(6, [](long i) { return i >= 3 ? i - 3 : i; }), kRepeated);
  CHECK(duplicate.duplicate_token == 1.0);
  CHECK(duplicate.induction == 0.0);
  const auto first = attention::head_scores(one_hot(6, [](long) { return 0L; }), kRepeated);
  CHECK(first.first_token == 1.0);
  CHECK(first.current_token == Approx(1.0 / 6));  // only row 0's first token is itself
  const auto current = attention::head_scores(one_hot(6, [](long i) { return i; }), kRepeated);
  CHECK(current.current_token == 1.0);
  CHECK(current.previous_token == 0.0);
}

TEST_CASE("a uniform head scores the share its pattern covers; a pattern no row has scores 0", "[head_detector]") {
  Matrix w = Matrix::Zero(4, 4);
  for (long i = 0; i < 4; ++i) w.row(i).head(i + 1).setConstant(1.0 / static_cast<double>(i + 1));  // causal, uniform
  const auto s = attention::head_scores(w, {"w", "x", "y", "z"});
  // rows 1..3 put 1/2, 1/3, 1/4 on their previous token, out of 1 each
  CHECK(s.previous_token == Approx((1.0 / 2 + 1.0 / 3 + 1.0 / 4) / 3).epsilon(tol::reordered));
  CHECK(s.duplicate_token == 0.0);  // no token repeats
  CHECK(s.induction == 0.0);
  // every row has its diagonal: 1 + 1/2 + 1/3 + 1/4 of 4
  CHECK(s.current_token == Approx((1 + 1.0 / 2 + 1.0 / 3 + 1.0 / 4) / 4).epsilon(tol::reordered));
}

TEST_CASE("every pattern is named once, and every score of a head is one of them", "[head_detector]") {
  std::set<std::string> names;
  std::vector<double attention::HeadScores::*> scores;  // (pointers to members compare only by ==)
  for (const auto& p : attention::head_patterns()) {
    CHECK(names.insert(p.name).second);
    CHECK(std::find(scores.begin(), scores.end(), p.score) == scores.end());
    scores.push_back(p.score);
  }
  CHECK(sizeof(attention::HeadScores) == scores.size() * sizeof(double));  // a field with no name would be left out of the trace
}
