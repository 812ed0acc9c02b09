#include "attention/train/task.hpp"

#include <algorithm>
#include <set>

#include "support.hpp"

using attention::Example;
using attention::NumpyRandom;
using attention::Task;

namespace {
Task task_of(const std::string& name, long length) {
  const auto t = attention::make_task(name, length);
  REQUIRE(t.ok());
  return t.value();
}

std::string error_of(const std::string& name, long length) {
  const auto t = attention::make_task(name, length);
  return t.ok() ? "(accepted)" : t.error().message;
}

// The rule of each task, checked from the tokens alone.
void check_rule(const Task& t, const Example& e) {
  const auto L = static_cast<std::size_t>(t.length);
  switch (t.kind) {
    case attention::TaskKind::copy: {
      REQUIRE(e.tokens.back() == 20);  // "?"
      long starred = 0;
      for (std::size_t i = 0; i < L; ++i) {
        if (e.tokens[i] >= 10) {
          ++starred;
          CHECK(e.targets[L] == e.tokens[i] - 10);
        }
        CHECK(e.tokens[i] < 20);
        CHECK(e.targets[i] == -1);
      }
      CHECK(starred == 1);
      break;
    }
    case attention::TaskKind::earlier: {
      const std::set<int> first(e.tokens.begin(), e.tokens.end() - 1);
      CHECK(first.size() == L - 1);  // different letters before the last
      const int at = e.targets[L - 1];
      REQUIRE(at >= 0);
      CHECK(e.tokens[static_cast<std::size_t>(at)] == e.tokens[L - 1]);
      CHECK(std::count(e.targets.begin(), e.targets.end(), -1) == static_cast<long>(L) - 1);
      break;
    }
    case attention::TaskKind::sort: {
      auto sorted = e.tokens;
      std::sort(sorted.begin(), sorted.end());
      CHECK(e.targets == sorted);
      break;
    }
    case attention::TaskKind::reverse: {
      CHECK(std::equal(e.tokens.rbegin(), e.tokens.rend(), e.targets.begin()));
      break;
    }
  }
}
}  // namespace

TEST_CASE("the menu lists four tasks, each explained, with a sane length range", "[task]") {
  const auto& catalog = attention::task_catalog();
  REQUIRE(catalog.size() == 4);
  std::vector<std::string> names;
  for (const auto& t : catalog) {
    names.emplace_back(t.name);
    CHECK(std::string(t.explanation).size() > 200);
    CHECK(std::string(t.explanation).find('\n') == std::string::npos);
    CHECK(t.min_length <= t.default_length);
    CHECK(t.default_length <= t.max_length);
    CHECK(attention::find_task(t.name) == static_cast<int>(&t - catalog.data()));
  }
  CHECK(names == std::vector<std::string>{"copy", "earlier", "sort", "reverse"});
  CHECK(attention::find_task("nope") == -1);
  const auto menu = attention::tasks_json();
  REQUIRE(menu.size() == 4);
  CHECK(menu[1]["name"] == "earlier");
  CHECK(menu[1]["needs_positions"] == true);
  CHECK(menu[0]["needs_positions"] == false);
  CHECK(menu[2]["length"]["default"] == 5);
}

TEST_CASE("every task generates valid examples at every length", "[task]") {
  for (const auto& info : attention::task_catalog()) {
    for (long length = info.min_length; length <= info.max_length; ++length) {
      DYNAMIC_SECTION(info.name << " length " << length) {
        const Task t = task_of(info.name, length);
        CHECK(t.sequence_length == (t.kind == attention::TaskKind::copy ? length + 1 : length));
        NumpyRandom rng(static_cast<std::uint32_t>(length));
        for (int k = 0; k < 200; ++k) {
          const Example e = t.generate(rng);
          REQUIRE(e.tokens.size() == static_cast<std::size_t>(t.sequence_length));
          REQUIRE(e.targets.size() == e.tokens.size());
          long scored = 0;
          for (std::size_t i = 0; i < e.tokens.size(); ++i) {
            REQUIRE(e.tokens[i] >= 0);
            REQUIRE(e.tokens[i] < static_cast<int>(t.vocabulary.size()));
            REQUIRE(e.targets[i] >= -1);
            REQUIRE(e.targets[i] < static_cast<int>(t.classes.size()));
            scored += e.targets[i] >= 0;
          }
          CHECK(scored > 0);
          check_rule(t, e);
        }
      }
    }
  }
}

TEST_CASE("examples follow the documented NumPy draw order", "[task][rng]") {
  // np.random.seed(42); [randint(10) for 6 digits]; randint(6) -> [6, 3, 7, 4, 6, 9], 2
  NumpyRandom a(42);
  const Example copy = task_of("copy", 6).generate(a);
  CHECK(copy.tokens == std::vector<int>{6, 3, 17, 4, 6, 9, 20});
  CHECK(copy.targets == std::vector<int>{-1, -1, -1, -1, -1, -1, 7});
  // np.random.seed(7); partial Fisher-Yates of range(16) with randint(16 - i); randint(5)
  // -> [15, 5, 11, 9, 7], 3
  NumpyRandom b(7);
  const Example earlier = task_of("earlier", 6).generate(b);
  CHECK(earlier.tokens == std::vector<int>{15, 5, 11, 9, 7, 9});
  CHECK(earlier.targets == std::vector<int>{-1, -1, -1, -1, -1, 3});
}

TEST_CASE("the same stream gives the same examples", "[task]") {
  const Task t = task_of("reverse", 7);
  NumpyRandom a(5), b(5);
  for (int k = 0; k < 20; ++k) {
    const Example x = t.generate(a), y = t.generate(b);
    CHECK(x.tokens == y.tokens);
    CHECK(x.targets == y.targets);
  }
}

TEST_CASE("vocabularies and answers are named for display", "[task]") {
  const Task copy = task_of("copy", 4);
  CHECK(copy.vocabulary.size() == 21);
  CHECK(copy.vocabulary[13] == "3*");
  CHECK(copy.vocabulary[20] == "?");
  CHECK(copy.classes.size() == 10);
  const Task earlier = task_of("earlier", 5);
  CHECK(earlier.vocabulary.front() == "a");
  CHECK(earlier.classes == std::vector<std::string>{"0", "1", "2", "3"});  // positions
}

TEST_CASE("a bad task or length is one line naming the setting", "[task][errors]") {
  CHECK(error_of("shuffle", 4) == "task: must be one of copy, earlier, sort, reverse, got \"shuffle\"");
  CHECK(error_of("sort", 9) == "length: must be a whole number from 2 to 8 for task sort, got 9");
  CHECK(error_of("earlier", 2) == "length: must be a whole number from 3 to 12 for task earlier, got 2");
  CHECK(error_of("copy", 12) == "(accepted)");
}
