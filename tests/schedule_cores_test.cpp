// Static schedules on processors of several cores (structures/schedule.h, docs/schedule.md
// "Processors of several cores"): hand-worked schedules on a processor of 2 cores beside one of 1,
// a task of 2 cores, HEFT on one core each against the old insertion rule written out here, and
// random DAGs on random cores whose planned makespan is the simulator's at constant times, with
// every core running one task at a time by an independent pass of the documented core rule.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <queue>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/schedule_command.h"
#include "distributions/law.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/schedule_records.h"
#include "structures/custom.h"
#include "structures/schedule.h"
#include "support.h"

namespace schedule_cores_test {

using namespace hetstruct;
using distributions::Law;
using structures::CustomDag;
using structures::Schedule;
using structures::ScheduleAlgorithm;
using structures::SchedulingProblem;
using testing::error_of;

namespace {

// (processor, start, finish, core) of each task, in the problem's order.
using Expected = std::vector<std::tuple<int, double, double, int>>;

void check_slots(const Schedule& s, const Expected& expected) {
  REQUIRE(s.tasks.size() == expected.size());
  for (std::size_t v = 0; v < expected.size(); ++v) {
    INFO("task " << v);
    CHECK(s.tasks[v].processor == std::get<0>(expected[v]));
    CHECK(s.tasks[v].start == std::get<1>(expected[v]));
    CHECK(s.tasks[v].finish == std::get<2>(expected[v]));
    CHECK(s.tasks[v].core == std::get<3>(expected[v]));
  }
}

// The makespan the simulator gives the DAG placed by the schedule, in one replication (its laws
// are constants: every replication is the same).
double simulated(CustomDag dag, const Schedule& s, double comm = 0.0) {
  structures::apply_schedule(s, dag);
  engine::CompileOptions options;
  options.comm_cost = comm;
  const engine::Plan plan = engine::compile(structures::build_custom(dag, "random.dot"), options);
  engine::Workspace ws(plan);
  return engine::evaluate(plan, 1, 0, ws);
}

// The cores each task holds, from the rule as docs/schedule.md states it, independently of the
// scheduler: each processor's tasks in their order, each taking the c cores that free earliest
// (equal free times: the lowest index), which must be free by its start.
std::vector<std::vector<int>> cores_by_rule(const Schedule& s, const SchedulingProblem& problem) {
  std::vector<std::vector<int>> held(s.tasks.size());
  for (std::size_t p = 0; p < s.order.size(); ++p) {
    std::vector<double> free(static_cast<std::size_t>(problem.cores_of(p)), -std::numeric_limits<double>::infinity());
    for (const std::size_t v : s.order[p]) {
      std::vector<int> pick(free.size());
      std::iota(pick.begin(), pick.end(), 0);
      std::stable_sort(pick.begin(), pick.end(), [&](int a, int b) { return free[static_cast<std::size_t>(a)] < free[static_cast<std::size_t>(b)]; });
      pick.resize(static_cast<std::size_t>(problem.cores_of_task(v)));
      for (const int k : pick) {
        REQUIRE(free[static_cast<std::size_t>(k)] <= s.tasks[v].start);
        free[static_cast<std::size_t>(k)] = s.tasks[v].finish;
      }
      std::sort(pick.begin(), pick.end());
      held[v] = pick;
    }
  }
  return held;
}

// HEFT as it was before processors had cores (one task at a time on a processor, the first idle
// interval it fits, not before a slot that ends by the data's ready time), written out again.
std::vector<std::tuple<int, double, double>> one_core_heft(const SchedulingProblem& problem) {
  const std::size_t n = problem.cost.size(), q = problem.processors;
  std::vector<std::vector<std::pair<std::size_t, double>>> succ(n), pred(n);
  for (const auto& e : problem.edges) {
    succ[e.from].emplace_back(e.to, e.comm);
    pred[e.to].emplace_back(e.from, e.comm);
  }
  // Ranks as sums over the processors, from the exits back (indices are topological here).
  std::vector<double> rank(n, 0.0);
  for (std::size_t v = n; v-- > 0;) {
    double longest = 0.0;
    for (const auto& [w, c] : succ[v]) longest = std::max(longest, static_cast<double>(q) * c + rank[w]);
    rank[v] = std::accumulate(problem.cost[v].begin(), problem.cost[v].end(), 0.0) + longest;
  }
  struct Busy {
    double start, finish;
  };
  std::vector<std::vector<Busy>> busy(q);
  std::vector<std::tuple<int, double, double>> out(n, {-1, 0.0, 0.0});
  std::vector<std::size_t> waiting(n);
  std::vector<std::size_t> ready;
  for (std::size_t v = 0; v < n; ++v)
    if ((waiting[v] = pred[v].size()) == 0) ready.push_back(v);
  while (!ready.empty()) {
    const auto it = std::min_element(ready.begin(), ready.end(), [&](std::size_t a, std::size_t b) {
      return rank[a] > rank[b] || (rank[a] == rank[b] && a < b);
    });
    const std::size_t v = *it;
    ready.erase(it);
    std::size_t best = q, best_at = 0;
    double best_start = 0.0, best_finish = 0.0;
    for (std::size_t p = 0; p < q; ++p) {
      double data = 0.0;
      for (const auto& [u, c] : pred[v])
        data = std::max(data, std::get<2>(out[u]) + (static_cast<std::size_t>(std::get<0>(out[u])) == p ? 0.0 : c));
      const double w = problem.cost[v][p];
      double free_from = 0.0, start = 0.0;
      std::size_t at = busy[p].size();
      for (std::size_t k = 0; k < busy[p].size(); ++k) {
        start = std::max(data, free_from);
        if (start + w <= busy[p][k].start && busy[p][k].finish > data) {
          at = k;
          break;
        }
        free_from = busy[p][k].finish;
      }
      if (at == busy[p].size()) start = std::max(data, free_from);
      if (best == q || start + w < best_finish) {
        best = p;
        best_at = at;
        best_start = start;
        best_finish = start + w;
      }
    }
    busy[best].insert(busy[best].begin() + static_cast<std::ptrdiff_t>(best_at), {best_start, best_finish});
    out[v] = {static_cast<int>(best), best_start, best_finish};
    for (const auto& [w, c] : succ[v])
      if (--waiting[w] == 0) ready.push_back(w);
  }
  return out;
}

// A random problem of n tasks on q processors: whole or real costs, some of them zero, edges i -> j
// (i < j) with probability `density`, the given cores.
SchedulingProblem random_problem(std::mt19937_64& rng, std::size_t n, std::size_t q, double density, bool whole, double zeros) {
  std::uniform_real_distribution<double> u(1.0, 20.0), coin(0.0, 1.0);
  const auto time = [&] { return coin(rng) < zeros ? 0.0 : whole ? std::floor(u(rng)) : u(rng); };
  SchedulingProblem p;
  p.processors = q;
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<double> row;
    for (std::size_t k = 0; k < q; ++k) row.push_back(time());
    p.cost.push_back(row);
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (coin(rng) < density) p.edges.push_back({i, j, coin(rng) < 0.3 ? 0.0 : time()});
  return p;
}

// The problem as a DAG of constant laws (unrelated processors), for the simulator.
CustomDag dag_of(const SchedulingProblem& p) {
  CustomDag dag;
  for (std::size_t v = 0; v < p.cost.size(); ++v) {
    structures::CustomTask t;
    t.name = "t" + std::to_string(v);
    t.processor = -1;
    t.cores = p.cores_of_task(v);
    for (const double w : p.cost[v]) t.costs.push_back(dag.law_index(Law::constant(w)));
    dag.tasks.push_back(t);
  }
  for (const auto& e : p.edges) dag.edges.push_back({e.from, e.to, dag.law_index(Law::constant(e.comm))});
  dag.processor_cores = p.cores;
  return dag;
}

}  // namespace

TEST_CASE("Schedule cores: a hand-worked HEFT schedule on a processor of 2 cores and one of 1", "[schedule][cores]") {
  // Costs (processor 0 of 2 cores, processor 1 of 1 core), messages of 0: s -> x -> b1, s -> b0,
  // b0 -> t, b1 -> t, and v alone. Upward ranks as sums over the 2 processors: t 2, b0 and b1
  // 102 + 2 = 104, x 10 + 104 = 114, s 4 + 114 = 118, v 20.5. The ready list takes s, x, b0, b1
  // (b0 listed first of the two 104s), v, then t.
  //  s: 0 + 3 on processor 0, 0 + 1 on 1: processor 1, [0, 1).
  //  x: ready 1; [1, 7) on 0, after s [1, 5) on 1: processor 1.
  //  b0: ready 1; [1, 3) on 0 (one core of two), 1 cannot start before 5 and takes 100.
  //  b1: ready 5; on 0 after b0, with a core free (b0 has finished): [5, 7).
  //  v: ready 0; on 0 at position 0, start 0 (both cores free), while it runs b0 and b1 start, each
  //     with the other core free (slack 1): [0, 10); on 1 it waits for x: [5, 15.5). Processor 0.
  //  t: ready 7 (b1); on 0 in its order v, b0, b1, the latest of 7, b1's start 5 and the first
  //     core free (b1's, at 7): [7, 8); on 1 also [7, 8): the lower index, processor 0.
  // Cores, in processor 0's order v, b0, b1, t: v core 0 (both free, the lower index), b0 core 1,
  // b1 the core that frees first (b0's, core 1, at 3), t the core that frees first (b1's, at 7).
  SchedulingProblem p;
  p.processors = 2;
  p.cores = {2, 1};
  //        s          x          b0           b1           v             t
  p.cost = {{3.0, 1.0}, {6.0, 4.0}, {2.0, 100.0}, {2.0, 100.0}, {10.0, 10.5}, {1.0, 1.0}};
  p.edges = {{0, 1, 0.0}, {0, 2, 0.0}, {1, 3, 0.0}, {2, 5, 0.0}, {3, 5, 0.0}};
  const Schedule s = structures::heft(p);
  check_slots(s, {{1, 0, 1, 0}, {1, 1, 5, 0}, {0, 1, 3, 1}, {0, 5, 7, 1}, {0, 0, 10, 0}, {0, 7, 8, 1}});
  CHECK(s.makespan == 10.0);
  CHECK(s.order[0] == std::vector<std::size_t>{4, 2, 3, 5});
  CHECK(s.order[1] == std::vector<std::size_t>{0, 1});
  CHECK(s.multicore());
  // The same at the simulator's constant times.
  CHECK(simulated(dag_of(p), s) == 10.0);
  // The records name each task's core, and the chart has a row per core: processor 0's cores on
  // rows 0 and 1, processor 1's on row 2.
  const std::vector<std::string> names = {"s", "x", "b0", "b1", "v", "t"};
  const auto records = engine::schedule_records("h.dot", s, names);
  CHECK(records.front().names() == std::vector<std::string>{"graph", "algorithm", "task", "processor", "core", "start", "finish",
                                                            "makespan", "upward_rank"});
  CHECK(engine::csv_line(records[3]) == "h.dot,heft,b1,0,1,5,7,10,52\n");
  const std::string chart = cli::gantt_script("h.dot", s, names, "h.svg", "h.png");
  CHECK(chart.find("\"s\" 2 0 1\n\"x\" 2 1 5\n\"b0\" 1 1 3\n\"b1\" 1 5 7\n\"v\" 0 0 10\n\"t\" 1 7 8\n") != std::string::npos);
  CHECK(chart.find("set ytics (\"0:0\" 0, \"1:0\" 2)\n") != std::string::npos);
  CHECK(chart.find("set yrange [-0.6:3-0.4]") != std::string::npos);
  // One core on processor 0: v no longer runs beside b0 and b1 and goes to processor 1 after x,
  // [5, 15.5); t then starts at 7 on processor 0 after b1.
  p.cores = {1, 1};
  const Schedule one = structures::heft(p);
  check_slots(one, {{1, 0, 1, 0}, {1, 1, 5, 0}, {0, 1, 3, 0}, {0, 5, 7, 0}, {1, 5, 15.5, 0}, {0, 7, 8, 0}});
  CHECK(!one.multicore());
  CHECK(engine::schedule_records("h.dot", one, names).front().names() ==
        std::vector<std::string>{"graph", "algorithm", "task", "processor", "start", "finish", "makespan", "upward_rank"});
  CHECK(cli::gantt_script("h.dot", one, names, "h.svg", "h.png").find("\"v\" 1 5 15.5\n") != std::string::npos);
}

TEST_CASE("Schedule cores: a task of 2 cores waits for both, and never goes to a processor of 1", "[schedule][cores]") {
  // a (4 on processor 0, 40 on 1), b (2, 20), w of 2 cores (3, 1) after b, messages of 0. Ranks:
  // w 4, b 22 + 4 = 26, a 44: a, b, w. a: [0, 4) on 0. b: on 0 at position 0 with a's other core
  // free, [0, 2) (order b, a). w: ready 2; processor 1 has 1 core, so processor 0 only, where both
  // cores are free from 4 (a's finish), although b's core frees at 2: [4, 7). w holds cores 0 and
  // 1 (core 0 first); b took core 0, a core 1.
  SchedulingProblem p;
  p.processors = 2;
  p.cores = {2, 1};
  p.task_cores = {1, 1, 2};
  p.cost = {{4.0, 40.0}, {2.0, 20.0}, {3.0, 1.0}};
  p.edges = {{1, 2, 0.0}};
  for (const auto algorithm : {ScheduleAlgorithm::heft, ScheduleAlgorithm::cpop}) {
    INFO(structures::to_string(algorithm));
    const Schedule s = structures::schedule(p, algorithm);
    check_slots(s, {{0, 0, 4, 1}, {0, 0, 2, 0}, {0, 4, 7, 0}});
    CHECK(s.order[0] == std::vector<std::size_t>{1, 0, 2});
    CHECK(s.makespan == 7.0);
    CHECK(simulated(dag_of(p), s) == 7.0);
  }
  // Of 1 core, w would start at 2 on b's core: [2, 5), or on processor 1 at 2: [2, 3).
  p.task_cores = {1, 1, 1};
  CHECK(structures::heft(p).tasks[2].processor == 1);
  CHECK(structures::heft(p).makespan == 4.0);
  // A task wider than every processor is refused, naming it and its cores.
  CustomDag dag = dag_of(p);
  dag.tasks[2].cores = 3;
  CHECK(error_of([&] { structures::scheduling_problem(dag, {}, "w.dot"); }) ==
        "w.dot: task 't2': takes 3 cores, but no processor of the schedule's machine has that many (the most is 2) "
        "(give a processor at least that many cores)");
  // The options' cores: one count for every processor, or one per processor.
  structures::ScheduleOptions options;
  options.cores = {3};
  CHECK(structures::scheduling_problem(dag, options, "w.dot").cores == std::vector<int>{3, 3});
  options.cores = {1, 3};
  CHECK(structures::scheduling_problem(dag, options, "w.dot").cores == std::vector<int>{1, 3});
  options.cores = {1, 3, 8};  // a processor beyond the machine's runs nothing
  CHECK(structures::scheduling_problem(dag, options, "w.dot").cores == std::vector<int>{1, 3});
  dag.tasks[2].cores = 1;
  dag.processor_cores.clear();  // the graph gives none: 1 each
  CHECK(structures::scheduling_problem(dag, {}, "w.dot").cores == std::vector<int>{1, 1});
  dag.processor_cores = {2};  // a list shorter than the machine: 1 beyond it
  CHECK(structures::scheduling_problem(dag, {}, "w.dot").cores == std::vector<int>{2, 1});
}

TEST_CASE("Schedule cores: HEFT on one core each is the old insertion rule, bit for bit", "[schedule][cores]") {
  std::mt19937_64 rng(38);
  for (int round = 0; round < 60; ++round) {
    INFO("round " << round);
    const std::size_t q = 1 + static_cast<std::size_t>(round % 4);
    const SchedulingProblem p = random_problem(rng, 8 + static_cast<std::size_t>(round), q, round % 3 == 0 ? 0.4 : 0.12,
                                               round % 2 == 0, round % 5 == 0 ? 0.5 : 0.05);
    const Schedule s = structures::heft(p);
    const auto old = one_core_heft(p);
    for (std::size_t v = 0; v < p.cost.size(); ++v) {
      CHECK(s.tasks[v].processor == std::get<0>(old[v]));
      CHECK(s.tasks[v].start == std::get<1>(old[v]));
      CHECK(s.tasks[v].finish == std::get<2>(old[v]));
      CHECK(s.tasks[v].core == 0);
    }
  }
}

TEST_CASE("Schedule cores: random DAGs on random cores simulate to their planned makespan, one task a core at a time",
          "[schedule][cores]") {
  std::mt19937_64 rng(20261202);
  std::uniform_int_distribution<int> cores(1, 4);
  int multicore_rounds = 0;
  for (int round = 0; round < 100; ++round) {
    const std::size_t q = 1 + static_cast<std::size_t>(round % 3);
    SchedulingProblem p = random_problem(rng, 6 + static_cast<std::size_t>(round % 25), q, round % 4 == 0 ? 0.35 : 0.12,
                                         round % 2 == 0, round % 6 == 0 ? 0.4 : 0.05);
    for (std::size_t k = 0; k < q; ++k) p.cores.push_back(cores(rng));
    const int most = *std::max_element(p.cores.begin(), p.cores.end());
    for (std::size_t v = 0; v < p.cost.size(); ++v) p.task_cores.push_back(std::min(most, round % 3 == 0 ? cores(rng) : 1));
    multicore_rounds += most > 1;
    for (const auto algorithm : {ScheduleAlgorithm::heft, ScheduleAlgorithm::cpop}) {
      INFO("round " << round << ", " << structures::to_string(algorithm));
      const Schedule s = structures::schedule(p, algorithm);
      // Every precedence, every task on a processor of cores enough, its time its cost there.
      for (const auto& e : p.edges) {
        const auto &a = s.tasks[e.from], &b = s.tasks[e.to];
        CHECK(b.start >= a.finish + (a.processor == b.processor ? 0.0 : e.comm));
      }
      for (std::size_t v = 0; v < p.cost.size(); ++v) {
        const auto& slot = s.tasks[v];
        REQUIRE(p.task_cores[v] <= p.cores[static_cast<std::size_t>(slot.processor)]);
        CHECK(slot.finish == slot.start + p.cost[v][static_cast<std::size_t>(slot.processor)]);
      }
      // Each processor's order is by start; the cores the rule gives are the slots' (the lowest of
      // them), and no core runs two tasks at once.
      const auto held = cores_by_rule(s, p);
      for (std::size_t proc = 0; proc < q; ++proc) {
        const auto& order = s.order[proc];
        for (std::size_t k = 1; k < order.size(); ++k) CHECK(s.tasks[order[k - 1]].start <= s.tasks[order[k]].start);
        std::vector<std::vector<std::pair<double, double>>> on_core(static_cast<std::size_t>(p.cores[proc]));
        for (const std::size_t v : order) {
          CHECK(s.tasks[v].core == held[v].front());
          for (const int c : held[v]) on_core[static_cast<std::size_t>(c)].push_back({s.tasks[v].start, s.tasks[v].finish});
        }
        for (auto& intervals : on_core) {
          std::sort(intervals.begin(), intervals.end());
          for (std::size_t k = 1; k < intervals.size(); ++k) CHECK(intervals[k].first >= intervals[k - 1].second);
        }
      }
      // The simulator's rule replays the schedule to its own times, and the simulator itself gives
      // its makespan at constant times.
      const Schedule again = structures::replay(s, p);
      for (std::size_t v = 0; v < p.cost.size(); ++v) {
        CHECK(again.tasks[v].start == s.tasks[v].start);
        CHECK(again.tasks[v].core == s.tasks[v].core);
      }
      CHECK(simulated(dag_of(p), s) == s.makespan);
    }
  }
  CHECK(multicore_rounds > 80);
}

TEST_CASE("Schedule cores: heft-sd on several cores replays at the means to the simulator's makespan", "[schedule][cores]") {
  // Uniform laws: heft-sd schedules on mean + sd, then its orders run at the means; the simulator at
  // the means (constant laws of the same means) gives that makespan.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.5, 10.0), coin(0.0, 1.0);
  std::uniform_int_distribution<int> cores(1, 4);
  for (int round = 0; round < 20; ++round) {
    INFO("round " << round);
    CustomDag dag, means;
    const std::size_t n = 10 + static_cast<std::size_t>(round), q = 1 + static_cast<std::size_t>(round % 3);
    for (std::size_t k = 0; k < q; ++k) dag.processor_cores.push_back(cores(rng));
    const int most = *std::max_element(dag.processor_cores.begin(), dag.processor_cores.end());
    for (std::size_t v = 0; v < n; ++v) {
      structures::CustomTask t, m;
      t.name = m.name = "t" + std::to_string(v);
      t.processor = m.processor = -1;
      t.cores = m.cores = std::min(most, coin(rng) < 0.3 ? 2 : 1);
      for (std::size_t k = 0; k < q; ++k) {
        const double lo = u(rng), width = u(rng);
        t.costs.push_back(dag.law_index(Law::uniform(lo, lo + width)));
        m.costs.push_back(means.law_index(Law::constant(Law::uniform(lo, lo + width).mean())));
      }
      dag.tasks.push_back(t);
      means.tasks.push_back(m);
    }
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        if (coin(rng) < 0.15) {
          const double c = u(rng);
          dag.edges.push_back({i, j, dag.law_index(Law::constant(c))});
          means.edges.push_back({i, j, means.law_index(Law::constant(c))});
        }
    means.processor_cores = dag.processor_cores;
    structures::ScheduleOptions options;
    options.algorithm = ScheduleAlgorithm::heft_sd;
    const Schedule s = structures::schedule_dag(dag, options, "sd.dot");
    CHECK(simulated(means, s) == s.makespan);
  }
}

}  // namespace schedule_cores_test
