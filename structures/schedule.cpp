// HEFT, CPOP, heft-sd and PEFT (structures/schedule.h), and their schedules as mappings.
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
#include "structures/schedule_registry.h"

namespace hetstruct::structures {

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

// The idle gaps of a processor of one core, in a max segment tree over its order: leaf k holds the
// gap before its k-th task (its start minus the previous task's finish), widened by 1e-12 of the
// start so that it is never below what the exact fit test `finish + w <= start` accepts. The
// search for the first gap from position lo that could hold a task of time w descends the tree
// (O(log m)); each candidate is then checked by the exact test, so that the schedule is the scan's
// bit for bit. An insertion at position k rewrites the leaves from k on, as the order's vector
// moves its tail (appends, HEFT's common case, cost O(log m)).
class GapTree {
 public:
  template <class Slots>
  void update_from(const Slots& slots, std::size_t from) {
    const std::size_t m = slots.size();
    if (m > cap_) {
      while (cap_ < m) cap_ = cap_ == 0 ? 64 : 2 * cap_;
      t_.assign(2 * cap_, -inf);
      from = 0;
    }
    for (std::size_t k = from; k < m; ++k)
      t_[cap_ + k] = k == 0 ? -inf : slots[k].start - slots[k - 1].finish + 1e-12 * std::abs(slots[k].start);
    for (std::size_t l = (cap_ + from) / 2, r = (cap_ + m - 1) / 2; l >= 1; l /= 2, r /= 2)
      for (std::size_t v = l; v <= r; ++v) t_[v] = std::max(t_[2 * v], t_[2 * v + 1]);
  }

  // The first position k in [lo, m) whose gap holds w by the exact test, else m.
  template <class Slots>
  std::size_t first_fit(const Slots& slots, std::size_t lo, double w) const {
    const std::size_t m = slots.size();
    for (std::size_t k = find(1, 0, cap_, lo, w); k < m; k = find(1, 0, cap_, k + 1, w))
      if (!(slots[k - 1].finish + w > slots[k].start)) return k;
    return m;
  }

 private:
  static constexpr double inf = std::numeric_limits<double>::infinity();
  // The first leaf >= lo under node v (leaves [nl, nr)) of value >= w, else cap_.
  std::size_t find(std::size_t v, std::size_t nl, std::size_t nr, std::size_t lo, double w) const {
    if (cap_ == 0 || nr <= lo || t_[v] < w) return cap_;
    if (nr - nl == 1) return nl;
    const std::size_t mid = (nl + nr) / 2;
    const std::size_t k = find(2 * v, nl, mid, lo, w);
    return k != cap_ ? k : find(2 * v + 1, mid, nr, lo, w);
  }
  std::size_t cap_ = 0;
  std::vector<double> t_;
};

// Each processor's tasks in the order they start, with what the simulator's rule of ordered
// dispatch needs to know about them (docs/schedule.md, "Processors of several cores"). A processor
// of K cores runs its order this way: task j starts at the latest of its data's arrival, the
// start of the task before it and the c_j-th earliest free time of the K cores, and holds the c_j
// cores that free earliest until it finishes. A task is placed at a position of that order and a
// start t such that the rule, run over the order, gives it t and every task placed before it the
// start it already has. HEFT's insertion rule is the case K = 1.
//
// Why a placement keeps the others' starts, and what it must check. In an order of starts that
// never decrease, the tasks before j that run past start_j (finish > start_j) hold exactly the
// cores whose free times are after start_j: a task running at start_j is the last to hold its
// cores, since a task after it on the same core would start after it finishes. So j gets its
// start from the rule iff (1) start_j is the latest of its data, the previous start and the c_j-th
// earliest free time, and (2) the tasks before j running past start_j hold at most K - c_j cores
// (its `slack`, K - c_j - those cores, is >= 0). Inserting v at position i with start t changes
// nothing before i, adds v's c cores to (2) for each task after it that starts while v runs
// (start < t + w) and nothing for the others, and moves no later task's (1) up (t is at most the
// next start, and a free time that grows by v is still at most the start it bounds, by (2)). So v
// may go at position i iff t is position i's start by (1) and is at most start_i, and every task
// after it that starts before t + w has a slack of at least c. The starts of positions grow with
// the position: the first position that qualifies gives the earliest start.
class Timeline {
 public:
  explicit Timeline(const SchedulingProblem& problem) : lines_(problem.processors) {
    for (std::size_t p = 0; p < lines_.size(); ++p) lines_[p].cores = problem.cores_of(p);
  }

  struct Place {
    double start;
    std::size_t at;  // its position in the processor's order
  };

  // The earliest start of a task of time w and c cores on p, data ready at `ready`, and where it
  // goes in p's order.
  Place earliest(std::size_t p, double ready, double w, int c) const {
    const Line& line = lines_[p];
    const auto& slots = line.slots;
    const std::size_t m = slots.size();
    // A position before a task that starts before the data is ready cannot hold a start >= ready.
    std::size_t i = static_cast<std::size_t>(
        std::lower_bound(slots.begin(), slots.end(), ready, [](const Slot& s, double t) { return s.start < t; }) - slots.begin());
    // Not before a task that ends by the time the data is ready: with zero times such a task may be
    // a predecessor's, [t, t) with the data ready at t.
    for (std::size_t k = i; k < m && slots[k].start == ready; ++k)
      if (slots[k].finish <= ready) i = k + 1;
    // One core: the quick pass below (HEFT's scan) found by the gap tree instead, from position i
    // (whose start is at least `ready`, so that later positions' bounds are the previous finishes).
    if (line.cores == 1 && i < m && (i > 0 ? start_bound(slots[i - 1], ready, c) : ready) + w > slots[i].start)
      i = line.gaps.first_fit(slots, i + 1, w);
    for (;;) {
      // A quick pass first: position i is out when slot i spares fewer than c cores and starts
      // before the task could end, started at the earliest at a bound of position i's start (the
      // ready time, the previous start, and the previous task's soonest finish when it leaves
      // fewer than c cores free; a later start only ends later). With one core this is HEFT's
      // scan, and the full check below runs only where the task fits.
      for (double bound = i > 0 ? start_bound(slots[i - 1], ready, c) : ready;
           i < m && slots[i].slack < c && bound + w > slots[i].start; ++i)
        bound = start_bound(slots[i], ready, c);
      double start = ready;
      if (i > 0) start = std::max({start, slots[i - 1].start, free_from(line, i - 1, c)});
      if (i == m) return {start, m};
      if (start > slots[i].start) {
        ++i;
        continue;
      }
      const double finish = start + w;
      std::size_t j = i;
      while (j < m && slots[j].start < finish && slots[j].slack >= c) ++j;
      if (j < m && slots[j].start < finish) {
        i = j + 1;  // every position up to j has j among the tasks it would delay
        continue;
      }
      return {start, i};
    }
  }

  void place(std::size_t p, Place place, std::size_t task, double w, int c) {
    Line& line = lines_[p];
    auto& slots = line.slots;
    Slot v{place.start, place.start + w, 0, line.cores, 0, 0.0, task};
    std::vector<std::pair<double, int>> running;
    if (place.at > 0)
      for (const auto& r : line.running[place.at - 1])
        if (r.first > v.start) {
          running.push_back(r);
          v.free -= r.second;
        }
    v.slack = v.free - c;
    if (v.finish > v.start) {
      hold(running, v.finish, c);
      v.free -= c;
      for (std::size_t j = place.at; j < slots.size() && slots[j].start < v.finish; ++j) {
        slots[j].slack -= c;
        slots[j].free -= c;
        hold(line.running[j], v.finish, c);
        soonest(slots[j], line.running[j]);
      }
    }
    soonest(v, running);
    slots.insert(slots.begin() + static_cast<std::ptrdiff_t>(place.at), v);
    if (line.cores == 1) line.gaps.update_from(slots, place.at);
    line.running.insert(line.running.begin() + static_cast<std::ptrdiff_t>(place.at), std::move(running));
  }

  std::vector<std::vector<std::size_t>> order() const {
    std::vector<std::vector<std::size_t>> out(lines_.size());
    for (std::size_t p = 0; p < lines_.size(); ++p)
      for (const auto& s : lines_[p].slots) out[p].push_back(s.task);
    return out;
  }

 private:
  // What the scan reads, kept small (the scan runs over many of them).
  struct Slot {
    double start, finish;
    // Its processor's cores that are still free at its start once it has taken its own, counting
    // the tasks before it in the order: K - its cores - the cores of those running past its start.
    int slack;
    // The cores free just after its start: K - the cores of the tasks up to it (itself included)
    // running past its start (its slack, or its slack + its cores for a task of time 0).
    int free;
    // The first of those tasks to finish: its cores and its finish (running's first entry, kept here
    // so that the scan seldom reads the list).
    int soonest_cores;
    double soonest;
    std::size_t task;
  };
  struct Line {
    int cores = 1;
    std::vector<Slot> slots;
    // running[k]: the tasks up to slots[k] in the order (itself included) that run past its
    // start, (finish, cores) by finish. Their cores are the ones not free at its start.
    std::vector<std::vector<std::pair<double, int>>> running;
    GapTree gaps;  // one core only
  };

  // The earliest time from which c of the processor's cores are free after the tasks up to
  // slots[k] (-infinity when they are free at its start): the c-th earliest core free time, for a
  // start after slots[k]'s.
  static double free_from(const Line& line, std::size_t k, int c) {
    const Slot& s = line.slots[k];
    int free = s.free;
    if (free >= c) return -std::numeric_limits<double>::infinity();
    if (free + s.soonest_cores >= c) return s.soonest;
    for (const auto& r : line.running[k]) {
      free += r.second;
      if (free >= c) return r.first;
    }
    throw std::logic_error("schedule: a task takes more cores than its processor has");
  }

  // At most the start of a task of c cores placed right after s, its data ready at `ready`.
  static double start_bound(const Slot& s, double ready, int c) {
    const double bound = std::max(ready, s.start);
    return s.free < c ? std::max(bound, s.soonest) : bound;
  }

  static void soonest(Slot& s, const std::vector<std::pair<double, int>>& running) {
    if (running.empty()) return;
    s.soonest_cores = running.front().second;
    s.soonest = running.front().first;
  }

  static void hold(std::vector<std::pair<double, int>>& running, double finish, int c) {
    const auto at = std::upper_bound(running.begin(), running.end(), finish,
                                     [](double f, const std::pair<double, int>& r) { return f < r.first; });
    running.insert(at, {finish, c});
  }

  std::vector<Line> lines_;
};

// The list scheduler HEFT, CPOP and PEFT share: ready tasks by decreasing priority (ties: the task
// the file lists first), each on the processor `fixed_processor` names (none: the one `prefer`
// prefers, by default the least earliest finish time, ties to the lowest index, among the
// processors with cores enough), inserted at the earliest start its processor's order allows.
const auto earliest_finish = [](std::size_t, std::size_t, double finish, std::size_t, double best_finish) {
  return finish < best_finish;
};

template <class Fixed, class Prefer = decltype(earliest_finish)>
Schedule list_schedule(const SchedulingProblem& problem, const Adjacency& a, const std::vector<double>& priority,
                       Fixed fixed_processor, Prefer prefer = earliest_finish) {
  const std::size_t n = problem.cost.size(), q = problem.processors;
  Schedule s;
  s.tasks.resize(n);
  Timeline timeline(problem);
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
    const int c = problem.cores_of_task(v);
    const auto data_ready = [&](std::size_t p) {
      double t = 0.0;
      for (const auto& [u, m] : a.pred[v])
        t = std::max(t, s.tasks[u].finish + (static_cast<std::size_t>(s.tasks[u].processor) == p ? 0.0 : m));
      return t;
    };
    std::size_t best = q;
    Timeline::Place best_place{0.0, 0};
    double best_finish = std::numeric_limits<double>::infinity();
    const auto consider = [&](std::size_t p) {
      if (c > problem.cores_of(p)) return;
      const double w = problem.cost[v][p];
      const auto place = timeline.earliest(p, data_ready(p), w, c);
      if (best == q || prefer(v, p, place.start + w, best, best_finish)) {
        best = p;
        best_place = place;
        best_finish = place.start + w;
      }
    };
    const int fixed = fixed_processor(v);
    if (fixed >= 0) consider(static_cast<std::size_t>(fixed));
    else
      for (std::size_t p = 0; p < q; ++p) consider(p);
    // Internal: scheduling_problem refuses a task that takes more cores than every processor has.
    if (best == q) throw std::logic_error("schedule: a task fits no processor");
    timeline.place(best, best_place, v, problem.cost[v][best], c);
    s.tasks[v] = {static_cast<int>(best), best_place.start, best_finish, 0};
    s.makespan = std::max(s.makespan, best_finish);
    for (const auto& [w, m] : a.succ[v])
      if (--waiting[w] == 0) ready.push({priority[w], w});
  }
  s.order = timeline.order();
  s.processor_cores.resize(q);
  for (std::size_t p = 0; p < q; ++p) s.processor_cores[p] = problem.cores_of(p);
  return s;
}

void check_problem(const SchedulingProblem& problem) {
  if (problem.processors == 0) throw std::logic_error("schedule: a machine of no processors");
  for (const auto& row : problem.cost)
    if (row.size() != problem.processors) throw std::logic_error("schedule: a cost row of the wrong length");
  if (!problem.cores.empty() && problem.cores.size() != problem.processors)
    throw std::logic_error("schedule: a core list of the wrong length");
  for (const int k : problem.cores)
    if (k < 1) throw std::logic_error("schedule: a processor of no cores");
  if (!problem.task_cores.empty() && problem.task_cores.size() != problem.cost.size())
    throw std::logic_error("schedule: a task core list of the wrong length");
  for (const int k : problem.task_cores)
    if (k < 1) throw std::logic_error("schedule: a task of no cores");
}

// A list schedule's cores: its orders run by the simulator's rule (replay), which must give every
// task the start the scheduler gave it (the rule the timeline keeps; an internal error otherwise).
Schedule with_cores(Schedule s, const SchedulingProblem& problem) {
  const Schedule ran = replay(s, problem);
  for (std::size_t v = 0; v < s.tasks.size(); ++v) {
    if (ran.tasks[v].start != s.tasks[v].start || ran.tasks[v].finish != s.tasks[v].finish)
      throw std::logic_error("schedule: the simulator's rule moves a scheduled task");
    s.tasks[v].core = ran.tasks[v].core;
  }
  return s;
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
  Schedule s = with_cores(list_schedule(problem, a, up, [](std::size_t) { return -1; }), problem);
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
  // The critical-path processor: the least total time of the critical tasks (ties: lowest index),
  // among the processors with cores enough for each of them (none: each goes where it finishes
  // first, as the others).
  int widest = 1;
  for (std::size_t v = 0; v < n; ++v)
    if (critical[v]) widest = std::max(widest, problem.cores_of_task(v));
  int cp_processor = -1;
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t p = 0; p < problem.processors; ++p) {
    if (problem.cores_of(p) < widest) continue;
    double sum = 0.0;
    for (std::size_t v = 0; v < n; ++v)
      if (critical[v]) sum += problem.cost[v][p];
    if (cp_processor < 0 || sum < least) {
      least = sum;
      cp_processor = static_cast<int>(p);
    }
  }
  Schedule s = with_cores(list_schedule(problem, a, priority, [&](std::size_t v) { return critical[v] ? cp_processor : -1; }),
                          problem);
  s.algorithm = ScheduleAlgorithm::cpop;
  s.upward_rank = up;
  for (double& r : s.upward_rank) r /= static_cast<double>(problem.processors);
  s.critical = std::move(critical);
  return s;
}

std::vector<std::vector<double>> optimistic_cost_table(const SchedulingProblem& problem) {
  check_problem(problem);
  const auto a = adjacency(problem);
  const auto topo = topological(a);
  const std::size_t q = problem.processors;
  std::vector<std::vector<double>> oct(problem.cost.size(), std::vector<double>(q, 0.0));
  for (auto it = topo.rbegin(); it != topo.rend(); ++it)
    for (const auto& [j, c] : a.succ[*it])
      for (std::size_t p = 0; p < q; ++p) {
        double least = std::numeric_limits<double>::infinity();
        for (std::size_t r = 0; r < q; ++r) least = std::min(least, oct[j][r] + problem.cost[j][r] + (r == p ? 0.0 : c));
        oct[*it][p] = std::max(oct[*it][p], least);
      }
  return oct;
}

Schedule peft(const SchedulingProblem& problem) {
  const auto oct = optimistic_cost_table(problem);
  const auto a = adjacency(problem);
  // rank_oct times P: the row's sum, exact for whole numbers (as HEFT's ranks).
  std::vector<double> rank(oct.size(), 0.0);
  for (std::size_t v = 0; v < oct.size(); ++v)
    for (const double o : oct[v]) rank[v] += o;
  // The least O_EFT = EFT + OCT, equal within 1e-9 relative going to the lowest index.
  const auto least_oeft = [&](std::size_t v, std::size_t p, double finish, std::size_t best, double best_finish) {
    const double x = finish + oct[v][p], y = best_finish + oct[v][best];
    return x < y && std::abs(x - y) > 1e-9 * std::max(std::abs(x), std::abs(y));
  };
  Schedule s = with_cores(list_schedule(problem, a, rank, [](std::size_t) { return -1; }, least_oeft), problem);
  s.algorithm = ScheduleAlgorithm::peft;
  s.upward_rank = upward_ranks(problem);
  return s;
}

Schedule schedule(const SchedulingProblem& problem, ScheduleAlgorithm algorithm) {
  Schedule s = scheduler(algorithm).run(problem);
  s.algorithm = algorithm;
  return s;
}

Schedule replay(const Schedule& schedule, const SchedulingProblem& problem) {
  check_problem(problem);
  const std::size_t n = problem.cost.size(), q = problem.processors;
  if (schedule.order.size() != q) throw std::logic_error("schedule: not this problem's machine");
  Schedule out = schedule;
  out.makespan = 0.0;
  out.processor_cores.resize(q);
  for (std::size_t p = 0; p < q; ++p) out.processor_cores[p] = problem.cores_of(p);
  // The graph's edges (with their messages) and each processor's order, as the simulator runs them.
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<std::vector<std::pair<std::size_t, double>>> pred(n);
  std::vector<std::vector<std::size_t>> succ(n);
  std::vector<std::size_t> previous(n, none);
  for (const auto& e : problem.edges) {
    const bool apart = schedule.tasks[e.from].processor != schedule.tasks[e.to].processor;
    pred[e.to].emplace_back(e.from, apart ? e.comm : 0.0);
    succ[e.from].push_back(e.to);
  }
  for (const auto& tasks : schedule.order)
    for (std::size_t k = 1; k < tasks.size(); ++k) {
      previous[tasks[k]] = tasks[k - 1];
      succ[tasks[k - 1]].push_back(tasks[k]);
    }
  // Each processor's core free times, a min-heap of (free time, core): the c earliest taken, equal
  // times by core index, as the simulator takes them.
  using Core = std::pair<double, int>;
  std::vector<std::vector<Core>> free(q);
  for (std::size_t p = 0; p < q; ++p)
    for (int k = 0; k < problem.cores_of(p); ++k) free[p].push_back({-std::numeric_limits<double>::infinity(), k});
  std::vector<std::size_t> waiting(n);
  std::vector<std::size_t> ready;
  for (std::size_t v = 0; v < n; ++v)
    if ((waiting[v] = pred[v].size() + (previous[v] != none ? 1 : 0)) == 0) ready.push_back(v);
  std::size_t done = 0;
  std::vector<Core> taken;
  while (!ready.empty()) {
    const std::size_t v = ready.back();
    ready.pop_back();
    ++done;
    const auto p = static_cast<std::size_t>(schedule.tasks[v].processor);
    const int c = problem.cores_of_task(v);
    if (c > problem.cores_of(p)) throw std::logic_error("schedule: a task on a processor of fewer cores than it takes");
    double start = 0.0;
    for (const auto& [u, m] : pred[v]) start = std::max(start, out.tasks[u].finish + m);
    if (previous[v] != none) start = std::max(start, out.tasks[previous[v]].start);
    auto& heap = free[p];
    taken.clear();
    for (int i = 0; i < c; ++i) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      taken.push_back(heap.back());
      heap.pop_back();
    }
    start = std::max(start, taken.back().first);
    out.tasks[v].start = start;
    out.tasks[v].finish = start + problem.cost[v][p];
    out.tasks[v].core = taken.front().second;
    for (auto& [f, k] : taken) {
      out.tasks[v].core = std::min(out.tasks[v].core, k);
      heap.push_back({out.tasks[v].finish, k});
      std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }
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
  // The cores: the options' (one count for every processor), else the graph's, 1 beyond its list;
  // counts beyond the machine's processors run nothing.
  const std::size_t q = problem.processors;
  if (!options.cores.empty()) {
    if (options.cores.size() != 1 && options.cores.size() < q)
      throw InputError("processor_cores",
                       "gives " + std::to_string(options.cores.size()) + " core counts, but the schedule's machine has " +
                           std::to_string(q) + " processors",
                       "give one count per processor, or one count for all");
    problem.cores.assign(q, options.cores.front());
    if (options.cores.size() != 1) std::copy_n(options.cores.begin(), q, problem.cores.begin());
  } else {
    problem.cores.assign(q, 1);
    std::copy_n(dag.processor_cores.begin(), std::min(q, dag.processor_cores.size()), problem.cores.begin());
  }
  for (std::size_t p = 0; p < q; ++p)
    if (problem.cores[p] < 1 || problem.cores[p] > max_cores)
      throw InputError(options.cores.empty() ? source + ": processor " + std::to_string(p) : std::string("processor_cores"),
                       "has " + std::to_string(problem.cores[p]) + " cores",
                       "a processor has 1 to " + std::to_string(max_cores) + " cores");
  const int most = *std::max_element(problem.cores.begin(), problem.cores.end());
  problem.cost.reserve(dag.tasks.size());
  for (const auto& t : dag.tasks) {
    if (t.cores < 1)
      throw InputError(source + ": task '" + t.name + "'", "takes " + std::to_string(t.cores) + " cores", "a task takes at least 1 core");
    if (t.cores > most)
      throw InputError(source + ": task '" + t.name + "'",
                       "takes " + std::to_string(t.cores) + " cores, but no processor of the schedule's machine has that many (the most is " +
                           std::to_string(most) + ")",
                       "give a processor at least that many cores");
    problem.task_cores.push_back(t.cores);
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

bool Schedule::multicore() const {
  return std::any_of(processor_cores.begin(), processor_cores.end(), [](int k) { return k > 1; });
}

void apply_schedule(const Schedule& schedule, CustomDag& dag) {
  if (schedule.tasks.size() != dag.tasks.size()) throw std::logic_error("schedule: not this graph's");
  // The machine's cores are the schedule's (the options' or the graph's, one per processor).
  if (schedule.multicore() || !dag.processor_cores.empty()) dag.processor_cores = schedule.processor_cores;
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
