// HEFT, CPOP and heft-sd (structures/schedule.h), and their schedules as mappings.
//
// Ranks are kept as sums over the processors (q times the paper's mean-based ranks) while the
// lists are ordered: with whole-number times these sums are exact, so that the paper's ties (two
// tasks of equal rank) stay ties instead of being ordered by rounding. They are divided by q once,
// for the caller.
#include "structures/schedule.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <set>
#include <stdexcept>
#include <tuple>

#include "distributions/format.h"
#include "distributions/input_error.h"
#include "structures/custom.h"

namespace hetstruct::structures {

ScheduleAlgorithm parse_schedule_algorithm(const std::string& name) {
  if (name == "heft") return ScheduleAlgorithm::heft;
  if (name == "cpop") return ScheduleAlgorithm::cpop;
  if (name == "heft-sd") return ScheduleAlgorithm::heft_sd;
  throw InputError("schedule", "unknown algorithm '" + name + "'", "choose heft, cpop or heft-sd");
}

const char* to_string(ScheduleAlgorithm algorithm) {
  switch (algorithm) {
    case ScheduleAlgorithm::heft: return "heft";
    case ScheduleAlgorithm::cpop: return "cpop";
    case ScheduleAlgorithm::heft_sd: return "heft-sd";
  }
  return "heft";
}

namespace {

struct Adjacency {
  std::vector<std::vector<std::pair<std::size_t, double>>> succ, pred;  // (task, message time)
};

Adjacency adjacency(const SchedulingProblem& problem) {
  Adjacency a;
  const std::size_t n = problem.cost.size();
  a.succ.resize(n);
  a.pred.resize(n);
  for (const auto& e : problem.edges) {
    a.succ[e.from].emplace_back(e.to, e.comm);
    a.pred[e.to].emplace_back(e.from, e.comm);
  }
  return a;
}

// Kahn's algorithm, smallest index first (the file's order among ready tasks).
std::vector<std::size_t> topological(const Adjacency& a) {
  const std::size_t n = a.succ.size();
  std::vector<std::size_t> indegree(n), order;
  for (std::size_t v = 0; v < n; ++v) indegree[v] = a.pred[v].size();
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (indegree[v] == 0) ready.push(v);
  while (!ready.empty()) {
    const std::size_t v = ready.top();
    ready.pop();
    order.push_back(v);
    for (const auto& [w, c] : a.succ[v])
      if (--indegree[w] == 0) ready.push(w);
  }
  // Internal: scheduling_problem refuses a cycle, naming its tasks (an InputError), before any
  // algorithm runs; only a problem built by hand with a cycle gets here.
  if (order.size() != n) throw std::logic_error("schedule: the problem's edges close a cycle (scheduling_problem refuses that)");
  return order;
}

double cost_sum(const SchedulingProblem& problem, std::size_t task) {
  double sum = 0.0;
  for (const double w : problem.cost[task]) sum += w;
  return sum;
}

// q * rank_u and q * rank_d: sums over the processors, exact for whole numbers.
std::vector<double> scaled_upward(const SchedulingProblem& problem, const Adjacency& a, const std::vector<std::size_t>& topo) {
  const double q = static_cast<double>(problem.processors);
  std::vector<double> rank(a.succ.size(), 0.0);
  for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
    double longest = 0.0;
    for (const auto& [w, c] : a.succ[*it]) longest = std::max(longest, q * c + rank[w]);
    rank[*it] = cost_sum(problem, *it) + longest;
  }
  return rank;
}

std::vector<double> scaled_downward(const SchedulingProblem& problem, const Adjacency& a, const std::vector<std::size_t>& topo) {
  const double q = static_cast<double>(problem.processors);
  std::vector<double> rank(a.succ.size(), 0.0);
  for (const std::size_t v : topo)
    for (const auto& [u, c] : a.pred[v]) rank[v] = std::max(rank[v], rank[u] + cost_sum(problem, u) + q * c);
  return rank;
}

// Each processor's busy intervals, by start; the insertion rule finds the first idle interval
// [finish of one task, start of the next) where the task fits whole after its data is ready.
class Timeline {
 public:
  explicit Timeline(std::size_t processors) : busy_(processors) {}

  // The earliest start of a task of time w on p, data ready at `ready`, and where it goes.
  std::pair<double, std::size_t> earliest(std::size_t p, double ready, double w) const {
    const auto& slots = busy_[p];
    double free_from = 0.0;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      const double start = std::max(ready, free_from);
      // Not before a slot that ends by the time the data is ready: with zero times such a slot
      // may be a predecessor's, [t, t) with the data ready at t.
      if (start + w <= slots[k].start && slots[k].finish > ready) return {start, k};
      free_from = slots[k].finish;
    }
    return {std::max(ready, free_from), slots.size()};
  }

  void place(std::size_t p, std::size_t at, std::size_t task, double start, double finish) {
    busy_[p].insert(busy_[p].begin() + static_cast<std::ptrdiff_t>(at), {start, finish, task});
  }

  std::vector<std::vector<std::size_t>> order() const {
    std::vector<std::vector<std::size_t>> out(busy_.size());
    for (std::size_t p = 0; p < busy_.size(); ++p)
      for (const auto& s : busy_[p]) out[p].push_back(s.task);
    return out;
  }

 private:
  struct Busy {
    double start, finish;
    std::size_t task;
  };
  std::vector<std::vector<Busy>> busy_;
};

// The list scheduler both algorithms share: ready tasks by decreasing priority (ties: the task the
// file lists first), each on the processor `choose` names (none: the least earliest finish time,
// ties to the lowest index), inserted in the first idle interval it fits.
template <class Fixed>
Schedule list_schedule(const SchedulingProblem& problem, const Adjacency& a, const std::vector<double>& priority,
                       Fixed fixed_processor) {
  const std::size_t n = problem.cost.size(), q = problem.processors;
  Schedule s;
  s.tasks.resize(n);
  Timeline timeline(q);
  std::vector<std::size_t> waiting(n);
  using Key = std::pair<double, std::size_t>;  // (priority, index): largest priority, then smallest index
  const auto later = [](const Key& x, const Key& y) { return x.first < y.first || (x.first == y.first && x.second > y.second); };
  std::priority_queue<Key, std::vector<Key>, decltype(later)> ready(later);
  for (std::size_t v = 0; v < n; ++v) {
    waiting[v] = a.pred[v].size();
    if (waiting[v] == 0) ready.push({priority[v], v});
  }
  while (!ready.empty()) {
    const std::size_t v = ready.top().second;
    ready.pop();
    const auto data_ready = [&](std::size_t p) {
      double t = 0.0;
      for (const auto& [u, c] : a.pred[v])
        t = std::max(t, s.tasks[u].finish + (static_cast<std::size_t>(s.tasks[u].processor) == p ? 0.0 : c));
      return t;
    };
    std::size_t best = q, best_at = 0;
    double best_start = 0.0, best_finish = std::numeric_limits<double>::infinity();
    const auto consider = [&](std::size_t p) {
      const double w = problem.cost[v][p];
      const auto [start, at] = timeline.earliest(p, data_ready(p), w);
      if (best == q || start + w < best_finish) {
        best = p;
        best_at = at;
        best_start = start;
        best_finish = start + w;
      }
    };
    const int fixed = fixed_processor(v);
    if (fixed >= 0) consider(static_cast<std::size_t>(fixed));
    else
      for (std::size_t p = 0; p < q; ++p) consider(p);
    timeline.place(best, best_at, v, best_start, best_finish);
    s.tasks[v] = {static_cast<int>(best), best_start, best_finish};
    s.makespan = std::max(s.makespan, best_finish);
    for (const auto& [w, c] : a.succ[v])
      if (--waiting[w] == 0) ready.push({priority[w], w});
  }
  s.order = timeline.order();
  return s;
}

void check_problem(const SchedulingProblem& problem) {
  if (problem.processors == 0) throw std::logic_error("schedule: a machine of no processors");
  for (const auto& row : problem.cost)
    if (row.size() != problem.processors) throw std::logic_error("schedule: a cost row of the wrong length");
}

}  // namespace

std::vector<double> upward_ranks(const SchedulingProblem& problem) {
  check_problem(problem);
  const auto a = adjacency(problem);
  auto rank = scaled_upward(problem, a, topological(a));
  for (double& r : rank) r /= static_cast<double>(problem.processors);
  return rank;
}

std::vector<double> downward_ranks(const SchedulingProblem& problem) {
  check_problem(problem);
  const auto a = adjacency(problem);
  auto rank = scaled_downward(problem, a, topological(a));
  for (double& r : rank) r /= static_cast<double>(problem.processors);
  return rank;
}

Schedule heft(const SchedulingProblem& problem) {
  check_problem(problem);
  const auto a = adjacency(problem);
  const auto up = scaled_upward(problem, a, topological(a));
  Schedule s = list_schedule(problem, a, up, [](std::size_t) { return -1; });
  s.algorithm = ScheduleAlgorithm::heft;
  s.upward_rank = up;
  for (double& r : s.upward_rank) r /= static_cast<double>(problem.processors);
  return s;
}

Schedule cpop(const SchedulingProblem& problem) {
  check_problem(problem);
  const auto a = adjacency(problem);
  const auto topo = topological(a);
  const auto up = scaled_upward(problem, a, topo), down = scaled_downward(problem, a, topo);
  const std::size_t n = problem.cost.size();
  std::vector<double> priority(n);
  for (std::size_t v = 0; v < n; ++v) priority[v] = up[v] + down[v];
  // |CP|: the entry's priority (of several entries, the largest). Sums of other numbers than
  // whole ones may round differently along two paths of one length: equal within 1e-9 relative.
  std::size_t entry = n;
  for (std::size_t v = 0; v < n; ++v)
    if (a.pred[v].empty() && (entry == n || priority[v] > priority[entry])) entry = v;
  const double cp = priority[entry];
  const auto on_cp = [&](std::size_t v) { return std::abs(priority[v] - cp) <= 1e-9 * std::abs(cp); };
  std::vector<bool> critical(n, false);
  // From the entry, a successor on the critical path (the first the file lists) to an exit.
  for (std::size_t v = entry;;) {
    critical[v] = true;
    std::size_t next = n;
    for (const auto& [w, c] : a.succ[v])
      if (on_cp(w) && (next == n || w < next)) next = w;
    if (next == n) break;
    v = next;
  }
  // The critical-path processor: the least total time of the critical tasks (ties: lowest index).
  std::size_t cp_processor = 0;
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t p = 0; p < problem.processors; ++p) {
    double sum = 0.0;
    for (std::size_t v = 0; v < n; ++v)
      if (critical[v]) sum += problem.cost[v][p];
    if (sum < least) {
      least = sum;
      cp_processor = p;
    }
  }
  Schedule s = list_schedule(problem, a, priority,
                             [&](std::size_t v) { return critical[v] ? static_cast<int>(cp_processor) : -1; });
  s.algorithm = ScheduleAlgorithm::cpop;
  s.upward_rank = up;
  for (double& r : s.upward_rank) r /= static_cast<double>(problem.processors);
  s.critical = std::move(critical);
  return s;
}

Schedule schedule(const SchedulingProblem& problem, ScheduleAlgorithm algorithm) {
  Schedule s = algorithm == ScheduleAlgorithm::cpop ? cpop(problem) : heft(problem);
  s.algorithm = algorithm;
  return s;
}

Schedule replay(const Schedule& schedule, const SchedulingProblem& problem) {
  check_problem(problem);
  const std::size_t n = problem.cost.size();
  Schedule out = schedule;
  out.makespan = 0.0;
  // The graph's edges and each processor's order, as the simulator runs them.
  std::vector<std::vector<std::pair<std::size_t, double>>> pred(n);
  std::vector<std::vector<std::size_t>> succ(n);
  for (const auto& e : problem.edges) {
    const bool apart = schedule.tasks[e.from].processor != schedule.tasks[e.to].processor;
    pred[e.to].emplace_back(e.from, apart ? e.comm : 0.0);
    succ[e.from].push_back(e.to);
  }
  for (const auto& tasks : schedule.order)
    for (std::size_t k = 1; k < tasks.size(); ++k) {
      pred[tasks[k]].emplace_back(tasks[k - 1], 0.0);
      succ[tasks[k - 1]].push_back(tasks[k]);
    }
  std::vector<std::size_t> waiting(n);
  std::vector<std::size_t> ready;
  for (std::size_t v = 0; v < n; ++v)
    if ((waiting[v] = pred[v].size()) == 0) ready.push_back(v);
  std::size_t done = 0;
  while (!ready.empty()) {
    const std::size_t v = ready.back();
    ready.pop_back();
    ++done;
    double start = 0.0;
    for (const auto& [u, c] : pred[v]) start = std::max(start, out.tasks[u].finish + c);
    const auto p = static_cast<std::size_t>(schedule.tasks[v].processor);
    out.tasks[v].start = start;
    out.tasks[v].finish = start + problem.cost[v][p];
    out.makespan = std::max(out.makespan, out.tasks[v].finish);
    for (const std::size_t w : succ[v])
      if (--waiting[w] == 0) ready.push_back(w);
  }
  if (done != n) throw std::logic_error("schedule: a processor's order contradicts the precedences");
  return out;
}

SchedulingProblem scheduling_problem(const CustomDag& dag, const ScheduleOptions& options, const std::string& source) {
  const double k = options.algorithm == ScheduleAlgorithm::heft_sd ? options.sd_weight : 0.0;
  if (!(k >= 0.0) || !std::isfinite(k))
    throw InputError("sd_weight", "the weight of the standard deviation must be a finite number >= 0");
  if (dag.tasks.empty()) throw InputError(source, "the graph has no vertices");
  const auto time_of = [&](const distributions::Law& law) {
    return k == 0.0 ? law.mean() : law.mean() + k * std::sqrt(law.variance());
  };
  SchedulingProblem problem;
  const bool unrelated = !dag.tasks.front().costs.empty();
  std::vector<double> scales;
  if (unrelated) {
    if (!options.scales.empty())
      throw InputError("processor_scale", "does not apply to a graph whose vertices give costs",
                       "each vertex's costs give its time on each processor");
    problem.processors = dag.tasks.front().costs.size();
  } else {
    scales = !options.scales.empty() ? options.scales : dag.processor_scale;
    if (scales.empty()) {
      int width = 0;
      for (const auto& t : dag.tasks) width = std::max(width, t.processor + 1);
      scales.assign(static_cast<std::size_t>(std::max(width, 1)), 1.0);
    }
    problem.processors = scales.size();
  }
  for (std::size_t p = 0; p < dag.processor_cores.size(); ++p)
    if (dag.processor_cores[p] > 1)
      throw InputError(source + ": processor " + std::to_string(p),
                       "has " + std::to_string(dag.processor_cores[p]) + " cores: a schedule runs one task at a time on a processor");
  problem.cost.reserve(dag.tasks.size());
  for (const auto& t : dag.tasks) {
    if (t.cores > 1)
      throw InputError(source + ": task '" + t.name + "'", "takes " + std::to_string(t.cores) + " cores: a schedule runs one task at a time on a processor");
    if (t.costs.size() != (unrelated ? problem.processors : 0))
      throw InputError(source + ": task '" + t.name + "'", "gives its costs for " + std::to_string(t.costs.size()) +
                                                               " processors, but the machine has " + std::to_string(problem.processors));
    std::vector<double> row(problem.processors);
    for (std::size_t p = 0; p < problem.processors; ++p) {
      row[p] = unrelated ? time_of(dag.laws.at(static_cast<std::size_t>(t.costs[p])))
                         : scales[p] * time_of(dag.laws.at(static_cast<std::size_t>(t.law)));
      if (!std::isfinite(row[p]) || row[p] < 0.0)
        throw InputError(source + ": task '" + t.name + "'",
                         "its mean time on processor " + std::to_string(p) + " is not a finite number >= 0",
                         "a schedule is computed from mean times >= 0");
    }
    problem.cost.push_back(std::move(row));
  }
  std::vector<std::pair<std::size_t, std::size_t>> arcs;
  for (const auto& e : dag.edges) {
    if (e.from >= dag.tasks.size() || e.to >= dag.tasks.size()) throw InputError(source, "an edge names a task that does not exist");
    arcs.emplace_back(e.from, e.to);
  }
  check_acyclic(dag, arcs, source);  // the readers' check comes after the schedule: name the cycle's tasks here too
  for (const auto& e : dag.edges) {
    const double c = e.comm_law < 0 ? options.comm_cost : time_of(dag.laws.at(static_cast<std::size_t>(e.comm_law)));
    if (!std::isfinite(c) || c < 0.0)
      throw InputError(source + ": edge '" + dag.tasks[e.from].name + "' -> '" + dag.tasks[e.to].name + "'",
                       "its message time is not a finite number >= 0");
    problem.edges.push_back({e.from, e.to, c});
  }
  return problem;
}

Schedule schedule_dag(const CustomDag& dag, const ScheduleOptions& options, const std::string& source) {
  const SchedulingProblem planned = scheduling_problem(dag, options, source);
  const Schedule s = schedule(planned, options.algorithm);
  if (options.algorithm != ScheduleAlgorithm::heft_sd) return s;
  ScheduleOptions means = options;
  means.algorithm = ScheduleAlgorithm::heft;
  return replay(s, scheduling_problem(dag, means, source));
}

void apply_schedule(const Schedule& schedule, CustomDag& dag) {
  if (schedule.tasks.size() != dag.tasks.size()) throw std::logic_error("schedule: not this graph's");
  for (const auto& tasks : schedule.order)
    for (std::size_t k = 0; k < tasks.size(); ++k) {
      auto& t = dag.tasks[tasks[k]];
      t.processor = schedule.tasks[tasks[k]].processor;
      t.order = static_cast<double>(k);
    }
}

std::string mapping_text(const Schedule& schedule, const std::vector<std::string>& names) {
  using Key = std::tuple<double, int, std::size_t>;  // start, processor, place on it
  std::vector<std::pair<Key, std::size_t>> lines;
  for (std::size_t p = 0; p < schedule.order.size(); ++p)
    for (std::size_t k = 0; k < schedule.order[p].size(); ++k) {
      const std::size_t v = schedule.order[p][k];
      lines.push_back({{schedule.tasks[v].start, static_cast<int>(p), k}, v});
    }
  std::sort(lines.begin(), lines.end());
  std::string text = "# " + std::string(to_string(schedule.algorithm)) + " schedule, makespan " +
                     distributions::format_exact(schedule.makespan) + " at the mean times: task processor, in each processor's order\n";
  for (const auto& [key, v] : lines) {
    const std::string& name = names.at(v);
    if (name.empty() || name.find_first_of(" \t\r\n#") != std::string::npos)
      throw InputError("task '" + name + "'", "a mapping file cannot hold this name (a blank or '#')",
                       "rename the task, or simulate with the schedule computed on the fly");
    text += name + " " + std::to_string(std::get<1>(key)) + "\n";
  }
  return text;
}

}  // namespace hetstruct::structures
