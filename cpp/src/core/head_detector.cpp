#include "attention/core/head_detector.hpp"

#include <unordered_map>

namespace attention {

const std::vector<HeadPattern>& head_patterns() {
  static const std::vector<HeadPattern> patterns = {{"previous_token", &HeadScores::previous_token},
                                                    {"duplicate_token", &HeadScores::duplicate_token},
                                                    {"induction", &HeadScores::induction},
                                                    {"first_token", &HeadScores::first_token},
                                                    {"current_token", &HeadScores::current_token}};
  return patterns;
}

namespace {

// The attention on a pattern over the rows it covers, divided by those rows' attention.
template <class Pattern>
double score(const Matrix& w, Pattern on) {
  double hit = 0, rows = 0;
  for (long i = 0; i < w.rows(); ++i) {
    double row_hit = 0;
    bool covered = false;
    for (long j = 0; j < w.cols(); ++j) {
      if (on(i, j)) {
        covered = true;
        row_hit += w(i, j);
      }
    }
    if (!covered) continue;
    hit += row_hit;
    rows += w.row(i).sum();
  }
  return rows == 0 ? 0.0 : hit / rows;  // 0: no row has the pattern, or every such row is masked out
}

}  // namespace

HeadScores head_scores(const Matrix& w, const std::vector<std::string>& t) {
  // Each token as a number (its first position), so the n x n comparisons compare integers.
  std::unordered_map<std::string, long> first;
  std::vector<long> id;
  for (const auto& token : t) id.push_back(first.emplace(token, static_cast<long>(first.size())).first->second);
  const auto same = [&](long a, long b) { return id[static_cast<std::size_t>(a)] == id[static_cast<std::size_t>(b)]; };
  HeadScores s;
  s.previous_token = score(w, [](long i, long j) { return j == i - 1; });
  s.duplicate_token = score(w, [&](long i, long j) { return j < i && same(i, j); });
  s.induction = score(w, [&](long i, long j) { return j >= 1 && j <= i && same(i, j - 1); });
  s.first_token = score(w, [](long i, long j) { return i >= 1 && j == 0; });
  s.current_token = score(w, [](long i, long j) { return j == i; });
  return s;
}

}  // namespace attention
