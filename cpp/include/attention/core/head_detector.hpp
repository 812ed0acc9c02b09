#pragma once
// What a head does, as a number: how much of its attention falls where a known pattern says,
// with the patterns of TransformerLens's head detector. previous-token: key j = i - 1;
// duplicate-token: an earlier key holding the same token as query i; induction: the key right
// after an earlier copy of token i (Olsson et al.'s prefix matching); first-token: key 0, for
// queries i >= 1; current-token: key j = i, the token itself (a head that mostly looks at its
// own token, which TransformerLens's detector does not name). A score is the attention on the
// pattern, summed over the rows where the pattern has a 1, divided by all the attention of those rows: 1 is a perfect head, and a row
// the pattern says nothing of neither helps nor hurts (TransformerLens divides by every row).
// A pattern no row has (no token repeats: no duplicate or induction rows) scores 0, as it
// would over every row.
#include <string>
#include <vector>

#include "attention/core/scalar.hpp"

namespace attention {

struct HeadScores {
  double previous_token = 0, duplicate_token = 0, induction = 0, first_token = 0, current_token = 0;
};

// Each pattern's name (in the trace, the model's card and the page's HeadScores type, which the
// build writes from this list) and its score, in this order.
struct HeadPattern {
  const char* name;
  double HeadScores::*score;
};
const std::vector<HeadPattern>& head_patterns();

// weights: one head's (n, n), rows the queries; tokens: the n tokens.
HeadScores head_scores(const Matrix& weights, const std::vector<std::string>& tokens);

}  // namespace attention
