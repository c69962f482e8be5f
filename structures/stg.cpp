// Standard Task Graph Set files (Kasahara lab, www.kasahara.cs.waseda.ac.jp/schedule/format_e.html):
//
//       3                    the number of tasks n (the dummies aside)
//       0   0   0            id, cost, number of predecessors, predecessor ids: the dummy entry
//       1  10   1   0
//       2   7   1   1
//       3   5   1   0
//       4   0   2   2   3    the dummy exit, n + 1
//   # comments (the information part), from a '#' to the end of its line
//
// The numbers are read as a stream of whitespace-separated fields, so a record may wrap.
#include <cmath>
#include <limits>
#include <sstream>

#include "distributions/input_error.h"
#include "structures/custom.h"
#include "structures/task_graphs.h"

namespace hetstruct::structures {

namespace {

struct Field {
  std::string text;
  std::size_t line;
};

class Fields {
 public:
  Fields(const std::string& text, std::string source) : source_(std::move(source)) {
    std::istringstream in(text);
    std::string line;
    std::size_t number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
      std::istringstream words(line);
      std::string word;
      while (words >> word) fields_.push_back({word, number});
    }
  }
  std::string where() const {
    const std::size_t line = next_ < fields_.size() ? fields_[next_].line : (fields_.empty() ? 1 : fields_.back().line);
    return source_ + ":" + std::to_string(line);
  }
  // The next field as a non-negative integer up to `limit`.
  std::size_t integer(const std::string& what, std::size_t limit) {
    const Field& f = take(what);
    std::size_t used = 0;
    unsigned long long value = 0;
    try {
      if (f.text.empty() || f.text[0] == '-' || f.text[0] == '+') throw std::invalid_argument("sign");
      value = std::stoull(f.text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != f.text.size() || f.text.empty())
      throw InputError(at(f), what + " '" + f.text + "' is not a non-negative integer");
    if (value > limit) throw InputError(at(f), what + " " + f.text + " is more than " + std::to_string(limit));
    return static_cast<std::size_t>(value);
  }
  // The next field as a finite number >= 0 (costs are integers in the STG, decimals do no harm).
  double cost(const std::string& what) {
    const Field& f = take(what);
    std::size_t used = 0;
    double value = -1;
    try {
      value = std::stod(f.text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != f.text.size() || !(value >= 0.0) || !std::isfinite(value))
      throw InputError(at(f), what + " '" + f.text + "' is not a number >= 0");
    return value;
  }
  std::string at(const Field& f) const { return source_ + ":" + std::to_string(f.line); }
  const Field* peek() const { return next_ < fields_.size() ? &fields_[next_] : nullptr; }

 private:
  const Field& take(const std::string& what) {
    if (next_ >= fields_.size()) throw InputError(where(), "the file ends where " + what + " was expected",
                                                  "an STG file lists n + 2 tasks: id, cost, predecessor count, predecessors");
    return fields_[next_++];
  }
  std::string source_;
  std::vector<Field> fields_;
  std::size_t next_ = 0;
};

// Tasks are allocated as the file lists them, so a huge n in a short file fails on the missing
// tasks, not on memory; ids stop where a vector of them would.
constexpr std::size_t max_tasks = 100'000'000;

}  // namespace

Structure parse_stg(const std::string& text, const std::string& source, const TaskGraphOptions& options) {
  validate(options.law);
  if (options.bandwidth)
    throw InputError("bandwidth", "applies to WfFormat files only", "an STG file gives no message sizes; give the communication cost (comm_cost)");
  Fields fields(text, source);
  if (!fields.peek()) throw InputError(source, "the file is empty", "an STG file starts with its number of tasks");
  const std::string first_line = fields.where();
  const std::size_t n = fields.integer("the number of tasks", max_tasks);
  // Like an empty DOT file: the two dummies frame nothing.
  if (n == 0) throw InputError(first_line, "the number of tasks is 0: the graph has no vertices", "n counts the tasks between the dummies");
  const std::size_t count = n + 2, exit = n + 1;
  struct Record {
    double cost;
    std::vector<std::size_t> predecessors;
    std::size_t line;
  };
  std::vector<Record> records;
  for (std::size_t id = 0; id < count; ++id) {
    const std::string what = "task " + std::to_string(id);
    const std::size_t line = fields.peek() ? fields.peek()->line : 0;
    const std::size_t given = fields.integer("the id of " + what, max_tasks + 1);
    if (given != id)
      throw InputError(source + ":" + std::to_string(line), "task " + std::to_string(given) + " where task " +
                                                                 std::to_string(id) + " was expected",
                       "an STG file lists its tasks 0 to n + 1 in order");
    Record r{fields.cost("the cost of " + what), {}, line};
    const std::size_t k = fields.integer("the predecessor count of " + what, count);
    for (std::size_t j = 0; j < k; ++j) {
      const Field* f = fields.peek();
      const std::size_t p = fields.integer("a predecessor of " + what, max_tasks + 1);
      if (p >= count)
        throw InputError(fields.at(*f), "task " + std::to_string(id) + " has predecessor " + std::to_string(p) +
                                             ", which is not a task", "ids run from 0 to n + 1 = " + std::to_string(exit));
      r.predecessors.push_back(p);
    }
    records.push_back(std::move(r));
  }
  if (const Field* extra = fields.peek())
    throw InputError(fields.at(*extra), "unexpected '" + extra->text + "' after the " + std::to_string(count) + " tasks",
                     "the first line gives n, the tasks between the dummies; comments start with '#'");

  // The dummy entry and exit, of cost 0, only frame the graph: drop them (when they are dummies).
  // A dummy with a cost (or with predecessors, or a successor) is kept as a task: the file's
  // numbers are never dropped silently.
  std::vector<bool> is_predecessor(count, false);
  for (const auto& r : records)
    for (const auto p : r.predecessors) is_predecessor[p] = true;
  std::vector<bool> dropped(count, false);
  dropped[0] = records[0].cost == 0.0 && records[0].predecessors.empty();
  dropped[exit] = records[exit].cost == 0.0 && !is_predecessor[exit];

  CustomDag dag;
  std::vector<std::size_t> index(count, 0);
  std::vector<std::string> dropped_names;
  for (std::size_t id = 0; id < count; ++id) {
    if (dropped[id]) {
      dropped_names.push_back(std::to_string(id));
      continue;
    }
    index[id] = dag.tasks.size();
    CustomTask t;
    t.name = std::to_string(id);
    t.processor = static_cast<int>(std::min(dag.tasks.size(), static_cast<std::size_t>(max_made_processors)));
    try {
      t.law = dag.law_index(task_law(records[id].cost, options.law));
    } catch (const InputError& e) {
      throw InputError(source + ":" + std::to_string(records[id].line), e.what());
    }
    dag.tasks.push_back(t);
  }
  for (std::size_t id = 0; id < count; ++id)
    for (const auto p : records[id].predecessors)
      if (!dropped[id] && !dropped[p]) dag.edges.push_back({index[p], index[id], -1});
  if (!options.mapping.empty() || options.schedule || options.one_per_task) {
    return build_placed(std::move(dag), options, source, dropped_names, false);
  } else if (dag.tasks.size() > static_cast<std::size_t>(max_made_processors)) {
    throw InputError(source, std::to_string(dag.tasks.size()) + " tasks, one per processor, are more than " +
                                 std::to_string(max_made_processors) + " processors",
                     "give a mapping file");
  }
  dag.dispatch = options.dispatch;
  return build_custom(dag, source);
}

Structure read_stg(const std::string& path, const TaskGraphOptions& options) {
  Structure s = parse_stg(read_text_file(path, "graph file"), path, options);
  s.name = path;
  return s;
}

}  // namespace hetstruct::structures
