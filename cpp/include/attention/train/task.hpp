#pragma once
// The synthetic tasks a tiny attention model learns in front of the learner. Each
// task is a rule simple enough for ONE attention layer, and each example is drawn from a
// NumPy-compatible stream, so a seed names the same examples everywhere.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "attention/core/error.hpp"
#include "attention/core/rng.hpp"

namespace attention {

enum class TaskKind { copy, earlier, sort, reverse };

// One row of the task menu: what the page lists and the trainer validates `length` against.
struct TaskInfo {
  TaskKind kind;
  const char* name;
  const char* title;        // a few words for the menu
  const char* explanation;  // one paragraph: the rule, and why attention is the natural solution
  long default_length;      // items per example (digits or letters), not counting a query token
  long min_length;
  long max_length;
  bool needs_positions;     // unlearnable with positional none (the page may say so)
};
const std::vector<TaskInfo>& task_catalog();

// Index of a task by name in task_catalog(); -1 when there is none.
int find_task(const std::string& name);

struct Example {
  std::vector<int> tokens;   // (n) ids into Task::vocabulary
  std::vector<int> targets;  // (n) ids into Task::classes; -1 where the position is not scored
};

struct Task {
  TaskKind kind = TaskKind::copy;
  std::string name;
  long length = 0;                   // items per example
  long sequence_length = 0;          // n: tokens per example (copy adds its "?")
  std::vector<std::string> vocabulary;  // input tokens, for display
  std::vector<std::string> classes;     // answers, for display

  // Consumes the stream in the order documented in task.cpp.
  Example generate(NumpyRandom& rng) const;
};

// Errors name `task` or `length` (the trainer's setting keys).
Result<Task> make_task(const std::string& name, long length);

// The menu as JSON: [{name, title, explanation, length: {default, min, max}, needs_positions}].
nlohmann::json tasks_json();

}  // namespace attention
