// Criticality beyond the free port model (engine/simulate/criticality.h): processors of several
// cores and the one-port models. Checked against an independent simulation of the cores' rule
// written here (with its own binders and its own backward walk), replication by replication; on
// constant-time graphs of every port model, against what criticality means there: delaying a
// critical task by a little delays the makespan, delaying another leaves it exactly as it was (the
// engine's own makespans, no binders involved); on hand-computed graphs; a chain's criticalities
// are 1; the same bits on 1 and 2 threads, and the makespan is run()'s.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/law.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/criticality.h"
#include "structures/custom.h"
#include "structures/structure.h"
#include "dag_support.h"

namespace criticality_models_test {

using hetstruct::distributions::Law;
using hetstruct::distributions::parse_law;
using namespace hetstruct::structures;
using namespace hetstruct::engine;

constexpr double minus_infinity = -std::numeric_limits<double>::infinity();

CriticalityRun criticality_of(const Structure& s, std::uint64_t reps, int threads, const CompileOptions& options) {
  return hetstruct::testing::criticality_run(s, 5, reps, threads, options);
}

std::map<std::string, double> criticalities(const CriticalityRun& run) {
  std::map<std::string, double> m;
  for (const auto& t : run.tasks) m[t.task] = t.criticality;
  return m;
}

CompileOptions port_options(Port port, bool overlap, double comm) {
  CompileOptions o;
  o.port = port;
  o.overlap = overlap;
  o.comm_cost = comm;
  return o;
}

// ---- processors of several cores against an independent simulation --------------------------------

// A random DAG on processors of 1 to 4 cores (tasks of 1 to K cores), edges forward, some with a
// message law of their own; tasks in index order, which every order of theirs respects.
CustomDag random_cores_dag(std::uint64_t seed, int size, int width) {
  std::mt19937_64 engine(seed);
  CustomDag dag;
  const std::vector<Law> laws = {parse_law("u(0,1)"), parse_law("u(0.5,2)"), parse_law("u(0.1,0.3)")};
  std::uniform_int_distribution<int> law(0, 1), processor(0, width - 1), machine_cores(1, 4);
  std::bernoulli_distribution linked(0.2), own_law(0.4);
  dag.processor_cores.resize(static_cast<std::size_t>(width));
  for (auto& k : dag.processor_cores) k = machine_cores(engine);
  for (int v = 0; v < size; ++v) {
    const int p = v < width ? v : processor(engine);  // every processor used
    std::uniform_int_distribution<int> takes(1, dag.processor_cores[static_cast<std::size_t>(p)]);
    dag.tasks.push_back({"t" + std::to_string(v), p, dag.law_index(laws[static_cast<std::size_t>(law(engine))]), std::nullopt,
                         takes(engine), {}});
  }
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b)
      if (linked(engine))
        dag.edges.push_back({static_cast<std::size_t>(a), static_cast<std::size_t>(b), own_law(engine) ? dag.law_index(laws[2]) : -1});
  return dag;
}

// The rule written directly (tasks in index order): a task starts at the max of its inputs (a
// predecessor's finish, plus its message's time across processors), on a processor of one core its
// previous task's finish, on one of several the previous task's start and the free times of the
// c cores that free earliest (the lowest index among equal times). Each of these that equals the
// start binds it; critical are the tasks whose finish lies on a chain of binders back from the
// last finish (a previous task's start passes the chain on without making that task critical).
std::vector<std::uint8_t> reference_critical(const CustomDag& dag, const std::vector<double>& d,
                                             const std::vector<double>& message_of_edge) {
  enum Kind { finish_of, start_of, message_on };
  struct Node {
    Kind kind;
    std::size_t id;  // a task, or an edge for a message
  };
  const std::size_t n = dag.tasks.size();
  std::vector<double> start(n), finish(n);
  std::vector<std::vector<Node>> binds(n), message_binds(dag.edges.size());
  std::vector<std::vector<double>> core_free(dag.processor_cores.size());
  std::vector<std::vector<std::optional<std::size_t>>> holder(dag.processor_cores.size());
  for (std::size_t p = 0; p < core_free.size(); ++p) {
    core_free[p].assign(static_cast<std::size_t>(dag.processor_cores[p]), minus_infinity);
    holder[p].assign(core_free[p].size(), std::nullopt);
  }
  std::vector<std::optional<std::size_t>> previous(dag.processor_cores.size());
  for (std::size_t v = 0; v < n; ++v) {
    const auto p = static_cast<std::size_t>(dag.tasks[v].processor);
    const bool one_core = dag.processor_cores[p] == 1;
    std::vector<std::pair<double, Node>> candidates;
    bool has_input = false;
    for (std::size_t e = 0; e < dag.edges.size(); ++e) {
      if (dag.edges[e].to != v) continue;
      const std::size_t u = dag.edges[e].from;
      has_input = true;
      if (dag.tasks[u].processor != dag.tasks[v].processor && message_of_edge[e] > 0.0) {
        candidates.push_back({finish[u] + message_of_edge[e], {message_on, e}});
        message_binds[e] = {{finish_of, u}};
      } else {
        candidates.push_back({finish[u], {finish_of, u}});
      }
    }
    if (previous[p] && one_core) has_input = true;
    if (previous[p]) candidates.push_back(one_core ? std::pair{finish[*previous[p]], Node{finish_of, *previous[p]}}
                                                   : std::pair{start[*previous[p]], Node{start_of, *previous[p]}});
    std::vector<std::size_t> taken;
    if (!one_core) {
      for (int k = 0; k < dag.tasks[v].cores; ++k) {
        std::size_t best = 0;
        for (std::size_t i = 1; i < core_free[p].size(); ++i)
          if (std::find(taken.begin(), taken.end(), i) == taken.end() &&
              (std::find(taken.begin(), taken.end(), best) != taken.end() || core_free[p][i] < core_free[p][best]))
            best = i;
        taken.push_back(best);
        if (holder[p][best]) candidates.push_back({core_free[p][best], {finish_of, *holder[p][best]}});
        else candidates.push_back({core_free[p][best], {start_of, n}});  // never free before: binds nothing
      }
    }
    double s = has_input ? minus_infinity : 0.0;  // sources at 0
    for (const auto& c : candidates) s = std::max(s, c.first);
    start[v] = s;
    finish[v] = s + d[v];
    for (const auto& c : candidates)
      if (c.first == s && !(c.second.kind == start_of && c.second.id == n))
        binds[v].push_back(c.second);
    for (const auto i : taken) {
      core_free[p][i] = finish[v];
      holder[p][i] = v;
    }
    previous[p] = v;
  }
  const double makespan = *std::max_element(finish.begin(), finish.end());
  std::vector<std::uint8_t> critical(n, 0), followed(n, 0), message_followed(dag.edges.size(), 0);
  std::vector<Node> chain;
  for (std::size_t v = 0; v < n; ++v)
    if (finish[v] == makespan) chain.push_back({finish_of, v});
  while (!chain.empty()) {
    const Node x = chain.back();
    chain.pop_back();
    if (x.kind == message_on) {
      if (message_followed[x.id]++) continue;
      chain.insert(chain.end(), message_binds[x.id].begin(), message_binds[x.id].end());
      continue;
    }
    if (x.kind == finish_of) critical[x.id] = 1;
    if (followed[x.id]++) continue;
    chain.insert(chain.end(), binds[x.id].begin(), binds[x.id].end());
  }
  return critical;
}

TEST_CASE("criticality on processors of several cores: an independent simulation of the rule, replication by replication",
          "[criticality][cores]") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const CustomDag dag = random_cores_dag(seed, 14, 3);
    const Structure s = build_custom(dag, "random.dot");
    CompileOptions options;
    options.comm_cost = 0.0;  // messages only on the edges of a law of their own
    const Plan plan = compile(s, options);
    REQUIRE(plan.multicore());
    const Plan used = criticality_plan(s, plan, options);
    CHECK_FALSE(has_slack(used));
    Workspace ws(used), plain(plan);
    ReplicationSchedule schedule;
    for (std::uint64_t rep = 0; rep < 8; ++rep) {
      schedule_replication(used, 9, rep, ws, schedule);
      REQUIRE(schedule.makespan == evaluate(plan, 9, rep, plain));
      // The engine's draws read back: tasks by plan position (index order here), messages in the
      // file's edge order.
      std::vector<double> d(dag.tasks.size()), message_of_edge(dag.edges.size(), 0.0);
      for (std::size_t t = 0; t < d.size(); ++t) d[used.task_vertex[t]] = ws.durations[t];
      std::size_t m = 0;
      for (std::size_t e = 0; e < dag.edges.size(); ++e)
        if (dag.edges[e].comm_law >= 0 && dag.tasks[dag.edges[e].from].processor != dag.tasks[dag.edges[e].to].processor)
          message_of_edge[e] = ws.message_times[m++];
      REQUIRE(m == used.messages.size());
      const auto expected = reference_critical(dag, d, message_of_edge);
      INFO("seed " << seed << " replication " << rep);
      for (std::size_t t = 0; t < d.size(); ++t) {
        INFO("task " << dag.tasks[used.task_vertex[t]].name);
        CHECK(schedule.critical[t] == expected[used.task_vertex[t]]);
      }
    }
  }
}

TEST_CASE("criticality on processors of several cores: hand-computed, a start order passes the chain on", "[criticality][cores]") {
  // Processor 0 of 3 cores runs a, b, c in that order (one core each); x runs on processor 1.
  //   a: 10 s, [0, 10)            x: 5 s, [0, 5)
  //   b: 1 s, after x: [5, 6)      (its start bound by x's finish)
  //   c: 20 s, [5, 25)             (a core is free since 0: bound by b's start only)
  // The makespan 25 is c's; c's start is b's, whose start is x's finish: c and x are critical, b
  // is not (delaying b's finish delays nothing), nor a.
  CustomDag dag;
  for (const auto& [name, p, time] : std::vector<std::tuple<const char*, int, double>>{{"a", 0, 10}, {"b", 0, 1}, {"c", 0, 20}, {"x", 1, 5}})
    dag.tasks.push_back({name, p, dag.law_index(Law::constant(time)), std::nullopt, 1, {}});
  dag.edges.push_back({3, 1, -1});
  dag.processor_cores = {3, 1};
  const Structure s = build_custom(dag, "hand.dot");
  const auto run = criticality_of(s, 3, 1, {});
  CHECK(run.makespan.mean == 25.0);
  CHECK_FALSE(run.slack);
  CHECK(criticalities(run) == std::map<std::string, double>{{"a", 0.0}, {"b", 0.0}, {"c", 1.0}, {"x", 1.0}});
}

// ---- the one-port models ---------------------------------------------------------------------------

TEST_CASE("criticality under one-port: hand-computed, a message's port binds a task of the sender", "[criticality][port]") {
  // a (2 s) on processor 0 sends c (processor 1) a message of 4 s, and b (3 s) follows a on
  // processor 0. Without overlap the message takes processor 0's send port and both processors
  // over [2, 6): b waits for it, [6, 9), and ends last: a and b are critical (b through the port,
  // a through the message's data), c [6, 7) is not. Under the free model, or with overlap, b runs
  // [2, 5) and c [6, 7) ends last: a and c are critical.
  const Structure s = parse_dot(
      "digraph { a [processor=0, law=\"c(2)\"]; b [processor=0, law=\"c(3)\"]; c [processor=1, law=\"c(1)\"];"
      " a -> b; a -> c [comm=\"c(4)\"]; }",
      "port.dot");
  const std::map<std::string, double> port_bound{{"a", 1.0}, {"b", 1.0}, {"c", 0.0}};
  const std::map<std::string, double> message_bound{{"a", 1.0}, {"b", 0.0}, {"c", 1.0}};
  for (const auto port : {Port::one_port, Port::one_port_greedy}) {
    INFO(to_string(port));
    const auto blocking = criticality_of(s, 2, 1, port_options(port, false, 0.0));
    CHECK(blocking.makespan.mean == 9.0);
    CHECK(criticalities(blocking) == port_bound);
    CHECK_FALSE(blocking.slack);
    const auto overlapping = criticality_of(s, 2, 1, port_options(port, true, 0.0));
    CHECK(overlapping.makespan.mean == 7.0);
    CHECK(criticalities(overlapping) == message_bound);
  }
  const auto free = criticality_of(s, 2, 1, {});
  CHECK(free.makespan.mean == 7.0);
  CHECK(criticalities(free) == message_bound);
  CHECK(free.slack);
}

// A random DAG of constant task times (distinct reals: no ties) on `width` processors of one core.
CustomDag constant_dag(std::uint64_t seed, int size, int width, const std::vector<double>& times) {
  std::mt19937_64 engine(seed);
  CustomDag dag;
  std::uniform_int_distribution<int> processor(0, width - 1);
  std::bernoulli_distribution linked(0.25);
  std::uniform_real_distribution<double> comm(0.2, 2.0);
  for (int v = 0; v < size; ++v) {
    // Laws pushed as they are (law_index would share laws by their text).
    dag.laws.push_back(Law::constant(times[static_cast<std::size_t>(v)]));
    dag.tasks.push_back({"t" + std::to_string(v), v < width ? v : processor(engine), static_cast<int>(dag.laws.size() - 1),
                         std::nullopt, 1, {}});
  }
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b)
      if (linked(engine)) dag.edges.push_back({static_cast<std::size_t>(a), static_cast<std::size_t>(b), dag.law_index(Law::constant(comm(engine)))});
  return dag;
}

TEST_CASE("criticality under every port model and on several cores: a critical task's delay delays the makespan, another's not",
          "[criticality][port][cores]") {
  // At constant times a replication is the schedule itself: task v is critical when lengthening it
  // by a little (1e-7, far below the gaps between distinct times) lengthens the makespan, and not
  // when the makespan stays the same bits. Both sides are the engine's makespans only.
  struct Case {
    Port port;
    bool overlap;
    bool cores;
  };
  const std::vector<Case> cases = {{Port::free, false, false},          {Port::one_port, false, false},
                                   {Port::one_port, true, false},       {Port::one_port_greedy, false, false},
                                   {Port::one_port_greedy, true, false}, {Port::free, false, true}};
  constexpr double delay = 1e-7;
  int critical_seen = 0, other_seen = 0;
  for (const auto& c : cases)
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      std::mt19937_64 engine(seed * 31 + 7);
      std::uniform_real_distribution<double> time(1.0, 5.0);
      std::vector<double> times(12);
      for (auto& x : times) x = time(engine);
      const CustomDag dag = constant_dag(seed, 12, 3, times);
      const auto with_cores = [&](CustomDag d) {
        if (c.cores) {
          d.processor_cores = {2, 3, 1};
          for (std::size_t v = 0; v < d.tasks.size(); ++v)
            d.tasks[v].cores = 1 + static_cast<int>(v % static_cast<std::size_t>(d.processor_cores[static_cast<std::size_t>(d.tasks[v].processor)]));
        }
        return build_custom(d, "constant.dot");
      };
      const CompileOptions options = port_options(c.port, c.overlap, 0.0);
      const Structure s = with_cores(dag);
      const Plan plan = compile(s, options);
      const Plan used = criticality_plan(s, plan, options);
      Workspace ws(used);
      ReplicationSchedule schedule;
      schedule_replication(used, 1, 0, ws, schedule);
      INFO(to_string(c.port) << (c.overlap ? " overlap" : "") << (c.cores ? " cores" : "") << " seed " << seed);
      for (std::size_t t = 0; t < used.task_vertex.size(); ++t) {
        const auto v = used.task_vertex[t];
        CustomDag later = dag;
        later.laws[static_cast<std::size_t>(later.tasks[v].law)] = Law::constant(times[v] + delay);
        const Structure s2 = with_cores(later);
        const Plan p2 = compile(s2, options);
        Workspace w2(p2);
        const double delayed = evaluate(p2, 1, 0, w2);
        INFO("task " << dag.tasks[v].name);
        if (schedule.critical[t]) {
          CHECK(delayed > schedule.makespan);
          ++critical_seen;
        } else {
          CHECK(delayed == schedule.makespan);
          ++other_seen;
        }
      }
    }
  // Both kinds occur often enough for the check to mean something.
  CHECK(critical_seen > 100);
  CHECK(other_seen > 100);
}

TEST_CASE("criticality under one-port and on several cores: a chain's tasks are all critical", "[criticality][port][cores]") {
  // A chain across two processors (messages between them): each task's start is its predecessor's
  // finish or its message's arrival, whatever the ports or cores.
  const Structure s = parse_dot(
      "digraph { a [processor=0, law=\"u(1,2)\"]; b [processor=1, law=\"u(1,2)\"]; c [processor=0, law=\"n(3,0.5)\"];"
      " d [processor=1, law=\"u(0,1)\"]; a -> b -> c -> d; }",
      "chain.dot");
  for (const auto port : {Port::one_port, Port::one_port_greedy})
    for (const bool overlap : {false, true}) {
      const auto run = criticality_of(s, 200, 2, port_options(port, overlap, 0.5));
      for (const auto& t : run.tasks) CHECK(t.criticality == 1.0);
    }
  CustomDag dag = parse_dot_dag(
      "digraph { a [processor=0, law=\"u(1,2)\"]; b [processor=1, law=\"u(1,2)\"]; c [processor=0, law=\"n(3,0.5)\"];"
      " d [processor=1, law=\"u(0,1)\"]; a -> b -> c -> d; }",
      "chain.dot");
  dag.processor_cores = {2, 4};
  const auto run = criticality_of(build_custom(dag, "chain.dot"), 200, 2, {});
  for (const auto& t : run.tasks) CHECK(t.criticality == 1.0);
}

TEST_CASE("criticality under one-port and on several cores: the same bits on 1 and 2 threads, the makespan run()'s",
          "[criticality][port][cores]") {
  CustomDag dag = random_cores_dag(77, 30, 4);
  for (const auto& options : {port_options(Port::one_port, false, 0.3), port_options(Port::one_port_greedy, true, 0.3)}) {
    dag.processor_cores.clear();
    for (auto& t : dag.tasks) t.cores = 1;
    const Structure s = build_custom(dag, "random.dot");
    const auto one = criticality_of(s, 500, 1, options);
    const auto two = criticality_of(s, 500, 2, options);
    REQUIRE(one.tasks.size() == two.tasks.size());
    for (std::size_t i = 0; i < one.tasks.size(); ++i) CHECK(one.tasks[i].critical == two.tasks[i].critical);
    RunOptions run;
    run.seed = 5;
    run.reps = 500;
    run.threads = 2;
    const Estimate plain = hetstruct::engine::run(compile(s, options), run);
    CHECK(one.makespan.mean == plain.mean);
    CHECK(one.makespan.stderr_ == plain.stderr_);
    const auto records = criticality_records(one, 5);
    CHECK(records.front().text("slack").empty());
  }
  const CustomDag cores = random_cores_dag(78, 30, 4);
  const Structure s = build_custom(cores, "cores.dot");
  const auto one = criticality_of(s, 500, 1, {});
  const auto two = criticality_of(s, 500, 2, {});
  for (std::size_t i = 0; i < one.tasks.size(); ++i) CHECK(one.tasks[i].critical == two.tasks[i].critical);
  RunOptions run;
  run.seed = 5;
  run.reps = 500;
  run.threads = 1;
  CHECK(one.makespan.mean == hetstruct::engine::run(compile(s), run).mean);
}

}  // namespace criticality_models_test
