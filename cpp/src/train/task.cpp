#include "attention/train/task.hpp"

#include <algorithm>
#include <numeric>

#include <nlohmann/json.hpp>

namespace attention {

// Draw order of one example (each draw is NumpyRandom::randint, as np.random.randint(high)):
//   copy:    L digits randint(10), then the starred position randint(L)
//   earlier: L-1 distinct letters by a partial Fisher-Yates shuffle of the 16 letters
//            (for i in 0..L-2: swap i with i + randint(16 - i)), then the repeated position randint(L-1)
//   sort:    L digits randint(10) (repeats allowed)
//   reverse: L digits randint(10)

const std::vector<TaskInfo>& task_catalog() {
  static const std::vector<TaskInfo> table = {
      {TaskKind::copy, "copy", "Copy the starred digit",
       "Each example is a row of digits in which exactly one digit wears a star, followed by a question mark; "
       "at the question mark the model must answer which digit was starred. Attention is made for this: the "
       "question mark's query only has to match a 'starred' feature that every starred token's key can share, "
       "wherever it stands, and the value it then fetches carries the digit itself, which the read-out names. "
       "Positions play no part, so one head learns it even without a positional encoding.",
       6, 2, 12, false},
      {TaskKind::earlier, "earlier", "Where did the last letter appear before?",
       "Each example is a row of different letters whose last letter repeats one of the earlier ones; at the "
       "last position the model must answer where the earlier copy stands (counting from 0). This is the "
       "looking-back half of an induction head: the last token's query must match the key of the same letter, "
       "and pass over its own position, which also holds that letter. What the matched value brings back must "
       "say where it came from, and only a positional encoding can put that in a value: with positional none "
       "the model can do no better than guessing a position.",
       6, 3, 12, true},
      {TaskKind::sort, "sort", "Sort the digits",
       "Each example is a few digits in random order, repeats allowed; at position i the model must output "
       "the i-th smallest of them. No single key holds the answer: the i-th smallest depends on all the digits "
       "together. What one layer can do is tilt each position's attention, by its query, towards small digits "
       "near the start and large digits near the end, so that the blend of values it gathers summarises which "
       "digits are present with an emphasis that depends on the position; the read-out turns that summary into "
       "a digit. It is an approximation learned from examples rather than a sorting procedure: the first and "
       "last positions (the smallest and the largest) are learned first, the middle ranks later, and a few "
       "answers stay wrong, so expect a slightly lower accuracy than on the other tasks.",
       5, 2, 8, true},
      {TaskKind::reverse, "reverse", "Reverse the digits",
       "Each example is a row of digits; at position i the model must output the digit at position L-1-i. The "
       "rule is about places, not digits: the query of position i must match the key of position L-1-i, "
       "whatever digits stand there, so the weights form an anti-diagonal. Without a positional encoding every "
       "position looks alike to attention and the model can only guess among the digits it sees; with one, "
       "it is a clean lookup by place.",
       6, 2, 12, true},
  };
  return table;
}

int find_task(const std::string& name) {
  const auto& t = task_catalog();
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (name == t[i].name) return static_cast<int>(i);
  }
  return -1;
}

Result<Task> make_task(const std::string& name, long length) {
  const int index = find_task(name);
  if (index < 0) {
    std::string names;
    for (const auto& t : task_catalog()) names += (names.empty() ? "" : ", ") + std::string(t.name);
    // As JSON, ASCII only: a message stays one line of valid UTF-8 whatever the name holds.
    std::string shown = nlohmann::json(name).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    if (shown.size() > 40) shown = shown.substr(0, 36) + "...\"";
    return error_at("task", "must be one of " + names + ", got " + shown);
  }
  const TaskInfo& info = task_catalog()[static_cast<std::size_t>(index)];
  if (length < info.min_length || length > info.max_length) {
    return error_at("length", "must be a whole number from " + std::to_string(info.min_length) + " to " +
                                  std::to_string(info.max_length) + " for task " + info.name + ", got " +
                                  std::to_string(length));
  }
  Task t;
  t.kind = info.kind;
  t.name = info.name;
  t.length = length;
  t.sequence_length = length;
  const auto digits = [] {
    std::vector<std::string> d;
    for (int i = 0; i < 10; ++i) d.push_back(std::to_string(i));
    return d;
  };
  switch (t.kind) {
    case TaskKind::copy:
      t.vocabulary = digits();                                       // 0..9: plain digits
      for (int i = 0; i < 10; ++i) t.vocabulary.push_back(std::to_string(i) + "*");  // 10..19: starred
      t.vocabulary.push_back("?");                                   // 20: the query
      t.classes = digits();
      t.sequence_length = length + 1;
      break;
    case TaskKind::earlier:
      for (char c = 'a'; c <= 'p'; ++c) t.vocabulary.push_back(std::string(1, c));
      for (long i = 0; i + 1 < length; ++i) t.classes.push_back(std::to_string(i));  // positions
      break;
    case TaskKind::sort:
    case TaskKind::reverse:
      t.vocabulary = digits();
      t.classes = digits();
      break;
  }
  return t;
}

namespace {
// The first k entries of a partial Fisher-Yates shuffle of 0..n-1: k different values.
std::vector<int> distinct(NumpyRandom& rng, int n, long k) {
  std::vector<int> pool(static_cast<std::size_t>(n));
  std::iota(pool.begin(), pool.end(), 0);
  for (long i = 0; i < k; ++i) {
    const auto j = static_cast<std::size_t>(i) + rng.randint(static_cast<std::uint64_t>(n - i));
    std::swap(pool[static_cast<std::size_t>(i)], pool[j]);
  }
  pool.resize(static_cast<std::size_t>(k));
  return pool;
}
}  // namespace

Example Task::generate(NumpyRandom& rng) const {
  const auto L = static_cast<std::size_t>(length);
  Example e;
  e.tokens.assign(static_cast<std::size_t>(sequence_length), 0);
  e.targets.assign(static_cast<std::size_t>(sequence_length), -1);
  switch (kind) {
    case TaskKind::copy: {
      for (std::size_t i = 0; i < L; ++i) e.tokens[i] = static_cast<int>(rng.randint(10));
      const auto starred = static_cast<std::size_t>(rng.randint(L));
      e.targets[L] = e.tokens[starred];
      e.tokens[starred] += 10;
      e.tokens[L] = 20;
      break;
    }
    case TaskKind::earlier: {
      const auto letters = distinct(rng, 16, length - 1);
      std::copy(letters.begin(), letters.end(), e.tokens.begin());
      const auto repeated = static_cast<std::size_t>(rng.randint(L - 1));
      e.tokens[L - 1] = e.tokens[repeated];
      e.targets[L - 1] = static_cast<int>(repeated);
      break;
    }
    case TaskKind::sort: {
      for (std::size_t i = 0; i < L; ++i) e.tokens[i] = static_cast<int>(rng.randint(10));
      e.targets = e.tokens;  // sorted below
      std::sort(e.targets.begin(), e.targets.end());
      break;
    }
    case TaskKind::reverse: {
      for (std::size_t i = 0; i < L; ++i) e.tokens[i] = static_cast<int>(rng.randint(10));
      for (std::size_t i = 0; i < L; ++i) e.targets[i] = e.tokens[L - 1 - i];
      break;
    }
  }
  return e;
}

nlohmann::json tasks_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& t : task_catalog()) {
    out.push_back({{"name", t.name},
                   {"title", t.title},
                   {"explanation", t.explanation},
                   {"length", {{"default", t.default_length}, {"min", t.min_length}, {"max", t.max_length}}},
                   {"needs_positions", t.needs_positions}});
  }
  return out;
}

}  // namespace attention
