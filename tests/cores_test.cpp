// Processors of several cores (engine/kernel/plan.h): a processor of K cores starts its tasks in its
// order, each once its inputs are in, the task before it has started and the cores it takes are
// free. Checked on hand-computed graphs, against an independent simulation written here from that
// rule on random DAGs (replication by replication, with random times and messages), and at the
// limit of one core each, which is today's chain bit for bit.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "distributions/law.h"
#include "engine/simulate/dag_model.h"
#include "engine/simulate/model.h"
#include "engine/kernel/plan.h"
#include "structures/custom.h"
#include "structures/structure.h"
#include "dag_support.h"
#include "support.h"

namespace cores_test {

namespace {

using hetstruct::distributions::Law;
using hetstruct::distributions::parse_law;
using hetstruct::testing::error_of;
using namespace hetstruct::structures;
using namespace hetstruct::engine;

constexpr double minus_infinity = -std::numeric_limits<double>::infinity();

double evaluate_once(const Structure& s, std::uint64_t rep = 0, CompileOptions options = {}) {
  const Plan plan = compile(s, options);
  Workspace ws(plan);
  return evaluate(plan, 1, rep, ws);
}

// Tasks given as (processor, constant time, cores); edges as pairs.
CustomDag constant_dag(const std::vector<std::tuple<int, double, int>>& tasks, const std::vector<std::pair<int, int>>& edges,
                       std::vector<int> cores) {
  CustomDag dag;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const auto& [p, time, c] = tasks[i];
    dag.tasks.push_back({"t" + std::to_string(i), p, dag.law_index(Law::constant(time)), std::nullopt, c, {}});
  }
  for (const auto& [a, b] : edges) dag.edges.push_back({static_cast<std::size_t>(a), static_cast<std::size_t>(b), -1});
  dag.processor_cores = std::move(cores);
  return dag;
}

TEST_CASE("Cores: two independent 5 s tasks on a 4-core machine take 5, on one core 10", "[cores]") {
  auto dag = constant_dag({{0, 5, 1}, {0, 5, 1}}, {}, {4});
  CHECK(evaluate_once(build_custom(dag, "two.dot")) == 5.0);
  dag.processor_cores = {1};
  CHECK(evaluate_once(build_custom(dag, "two.dot")) == 10.0);
  dag.processor_cores.clear();
  CHECK(evaluate_once(build_custom(dag, "two.dot")) == 10.0);
}

TEST_CASE("Cores: hand-computed starts with tasks of several cores, in order, never overtaking", "[cores]") {
  // One processor of 4 cores, file order a, b, c, d, e:
  //   a: 3 cores, 10 s  -> [0, 10), 1 core left
  //   b: 2 cores, 1 s   -> needs 2: waits for a, [10, 11)
  //   c: 1 core, 1 s    -> starts no earlier than b started (10): [10, 11) on a third core
  //   d: 4 cores, 2 s   -> all four free at 11: [11, 13)
  //   e: 1 core, 1 s, after x on processor 1 (x: 20 s) -> [20, 21)
  auto dag = constant_dag({{0, 10, 3}, {0, 1, 2}, {0, 1, 1}, {0, 2, 4}, {0, 1, 1}, {1, 20, 1}}, {{5, 4}}, {4, 1});
  const Structure s = build_custom(dag, "hand.dot");
  CHECK(evaluate_once(s) == 21.0);
  // Without x's edge, e may start once d has started (11), but d holds all four cores until 13.
  auto free_e = constant_dag({{0, 10, 3}, {0, 1, 2}, {0, 1, 1}, {0, 2, 4}, {0, 1, 1}, {1, 20, 1}}, {}, {4, 1});
  const Plan plan = compile(build_custom(free_e, "hand.dot"));
  Workspace ws(plan);
  CHECK(evaluate(plan, 1, 0, ws) == 20.0);  // x alone ends last
  // The starts, in plan order (tasks are in file order here): a 0, b 10, c 10, d 11, e 13.
  const std::vector<double> starts(ws.starts.begin(), ws.starts.begin() + 5);
  CHECK(starts == std::vector<double>{0, 10, 10, 11, 13});
}

TEST_CASE("Cores: a task's start order on its processor still has to agree with the precedences", "[cores]") {
  // b listed before a on a 2-core processor while a -> b: b would wait for a to finish and a for b
  // to start.
  CustomDag dag = constant_dag({{0, 1, 1}, {0, 1, 1}}, {{1, 0}}, {2});
  CHECK_THAT(error_of([&] { build_custom(dag, "order.dot"); }),
             Catch::Contains("the order of the tasks on processor 0 contradicts the precedences"));
}

TEST_CASE("Cores: bad counts are refused, naming the processor or task", "[cores]") {
  CHECK(error_of([] { build_custom(constant_dag({{0, 1, 1}}, {}, {0}), "bad.dot"); }) ==
        "bad.dot: processor 0: has 0 cores (a processor has 1 to 65536 cores)");
  CHECK(error_of([] { build_custom(constant_dag({{0, 1, 3}}, {}, {2}), "bad.dot"); }) ==
        "bad.dot: task 't0': takes 3 cores, but its processor 0 has 2 (map it to a processor with enough cores, or give "
        "its processor more)");
  CHECK(error_of([] { build_custom(constant_dag({{0, 1, 0}}, {}, {}), "bad.dot"); }) ==
        "bad.dot: task 't0': takes 0 cores (a task takes at least 1 core)");
  CHECK(error_of([] { build_custom(constant_dag({{0, 1, 1}}, {}, {2, 2}), "bad.dot"); }) ==
        "bad.dot: the processors' cores are given for 2 processors, but the tasks use processors 0 to 0 (give one core "
        "count per processor)");
}

TEST_CASE("Cores: the one-port models and the analytic estimates refuse processors of several cores", "[cores]") {
  const Structure s = build_custom(constant_dag({{0, 1, 1}, {1, 1, 1}}, {{0, 1}}, {2, 1}), "two.dot");
  CompileOptions one_port;
  one_port.port = Port::one_port;
  one_port.comm_cost = 0.5;
  CHECK_THAT(error_of([&] { compile(s, one_port); }), Catch::Contains("the one-port models take processors of one core"));
  const Plan plan = compile(s);
  CHECK_THAT(error_of([&] { stochastic_dag(plan); }), Catch::Contains("processors of one core"));
}

// ---- against an independent simulation -----------------------------------------------------------

struct RandomCase {
  CustomDag dag;
  double comm = 0.0;
};

// A random DAG: edges from lower to higher task, random processors and cores, some edges with a
// message law of their own, the file's order shuffled within the precedences' reach (tasks stay in
// index order, which every order of theirs respects).
RandomCase random_case(std::uint64_t seed, int size, int width) {
  std::mt19937_64 engine(seed);
  RandomCase c;
  auto& dag = c.dag;
  const std::vector<Law> laws = {parse_law("u(0,1)"), parse_law("n(1,0.04)"), parse_law("u(0.5,2)"), parse_law("c(0.7)")};
  std::uniform_int_distribution<int> law(0, 2), processor(0, width - 1), machine_cores(1, 4);
  std::bernoulli_distribution linked(0.2), own_law(0.3);
  dag.processor_cores.resize(static_cast<std::size_t>(width));
  for (auto& k : dag.processor_cores) k = machine_cores(engine);
  for (int v = 0; v < size; ++v) {
    const int p = processor(engine);
    std::uniform_int_distribution<int> takes(1, dag.processor_cores[static_cast<std::size_t>(p)]);
    dag.tasks.push_back({"t" + std::to_string(v), p, dag.law_index(laws[static_cast<std::size_t>(law(engine))]), std::nullopt,
                         takes(engine), {}});
  }
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b)
      if (linked(engine)) dag.edges.push_back({static_cast<std::size_t>(a), static_cast<std::size_t>(b), own_law(engine) ? dag.law_index(laws[3]) : -1});
  c.comm = std::uniform_real_distribution<double>(0.0, 0.5)(engine);
  // Every processor used, so the core list has one count per processor.
  for (int p = 0; p < width; ++p) dag.tasks[static_cast<std::size_t>(p)].processor = p;
  for (int p = 0; p < width; ++p)
    dag.tasks[static_cast<std::size_t>(p)].cores = std::min(dag.tasks[static_cast<std::size_t>(p)].cores, dag.processor_cores[static_cast<std::size_t>(p)]);
  return c;
}

// The rule, written directly: the cores as a list of free times, not kept sorted; a task takes the
// c cores that free earliest, once its inputs are in and its processor's previous task started.
// Tasks in index order (every edge and every processor's order goes from lower to higher index).
double reference_makespan(const RandomCase& c, const std::vector<double>& duration, const std::vector<double>& message_of_edge) {
  const auto& dag = c.dag;
  const std::size_t n = dag.tasks.size();
  std::vector<double> start(n), finish(n);
  std::vector<std::vector<double>> cores(dag.processor_cores.size());
  for (std::size_t p = 0; p < cores.size(); ++p) cores[p].assign(static_cast<std::size_t>(dag.processor_cores[p]), minus_infinity);
  std::vector<std::optional<double>> last_start(cores.size());
  std::vector<std::optional<double>> last_finish(cores.size());
  for (std::size_t v = 0; v < n; ++v) {
    const auto& task = dag.tasks[v];
    const auto p = static_cast<std::size_t>(task.processor);
    bool has_input = false;
    double ready = minus_infinity;
    for (std::size_t e = 0; e < dag.edges.size(); ++e) {
      if (dag.edges[e].to != v) continue;
      has_input = true;
      const std::size_t u = dag.edges[e].from;
      const bool crosses = dag.tasks[u].processor != task.processor;
      ready = std::max(ready, finish[u] + (crosses ? message_of_edge[e] : 0.0));
    }
    if (dag.processor_cores[p] == 1) {
      // One core: the chain, a precedence on the task before.
      if (last_finish[p]) { has_input = true; ready = std::max(ready, *last_finish[p]); }
      start[v] = has_input ? ready : 0.0;
    } else {
      if (last_start[p]) { has_input = true; ready = std::max(ready, *last_start[p]); }
      ready = has_input ? ready : 0.0;
      auto free = cores[p];
      std::sort(free.begin(), free.end());
      start[v] = std::max(ready, free[static_cast<std::size_t>(task.cores) - 1]);
    }
    finish[v] = start[v] + duration[v];
    if (dag.processor_cores[p] > 1) {
      // Take the task.cores cores that free earliest, one at a time: each pick is a core free by
      // the start, never one just given the finish (times here are >= 0).
      for (int k = 0; k < task.cores; ++k) *std::min_element(cores[p].begin(), cores[p].end()) = finish[v];
    }
    last_start[p] = start[v];
    last_finish[p] = finish[v];
  }
  return *std::max_element(finish.begin(), finish.end());
}

TEST_CASE("Cores: the engine against an independent simulation of the rule on random DAGs", "[cores]") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto c = random_case(seed, 24, 3);
    const Structure s = build_custom(c.dag, "random.dot");
    CompileOptions options;
    options.comm_cost = c.comm;
    const Plan plan = compile(s, options);
    Workspace ws(plan);
    for (std::uint64_t rep = 0; rep < 5; ++rep) {
      const double makespan = evaluate(plan, 7, rep, ws);
      // The engine's draws, read back: task times by plan position (file order here, since every
      // edge goes forward and Kahn takes the smallest first), messages in file edge order.
      std::vector<double> duration(ws.durations.begin(), ws.durations.end());
      // Throws where the edges' rule and the plan name different messages.
      const std::vector<double> message_of_edge = hetstruct::testing::messages_by_edge(c.dag, c.comm, ws);
      INFO("seed " << seed << " rep " << rep);
      REQUIRE(makespan == reference_makespan(c, duration, message_of_edge));
    }
  }
}

TEST_CASE("Cores: one core each is the chain bit for bit, and with many cores only the start order holds back", "[cores]") {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto c = random_case(seed, 30, 3);
    auto chained = c.dag;
    chained.processor_cores.clear();
    auto ones = c.dag;
    ones.processor_cores.assign(3, 1);
    RandomCase wide = c;
    wide.dag.processor_cores.assign(3, 64);
    for (auto* d : {&chained, &ones}) {
      for (auto& t : d->tasks) t.cores = 1;
      for (auto& e : d->edges) e.comm_law = -1;
    }
    for (auto& e : wide.dag.edges) e.comm_law = -1;
    const Plan plan = compile(build_custom(wide.dag, "r.dot"));
    Workspace ws(plan);
    for (std::uint64_t rep = 0; rep < 4; ++rep) {
      CHECK(evaluate_once(build_custom(ones, "r.dot"), rep) == evaluate_once(build_custom(chained, "r.dot"), rep));
      // 64 cores never run out here: a task starts at its inputs or its predecessor's start.
      const double makespan = evaluate(plan, 1, rep, ws);
      const std::vector<double> duration(ws.durations.begin(), ws.durations.end());
      CHECK(makespan == reference_makespan(wide, duration, std::vector<double>(wide.dag.edges.size(), 0.0)));
    }
  }
}

TEST_CASE("Cores: --cores on a graph, one count for all or a list, refused on Wilson's structures", "[cores]") {
  CHECK(parse_processor_cores("4") == std::vector<int>{4});
  CHECK(parse_processor_cores("4, 2,1") == std::vector<int>{4, 2, 1});
  CHECK(error_of([] { parse_processor_cores("2x"); }) ==
        "processor_cores: '2x' is not a core count (a whole number from 1 to 65536 per processor, such as 4,4,1)");
  CHECK(error_of([] { parse_processor_cores("0"); }) ==
        "processor_cores: '0' is not a core count (a whole number from 1 to 65536 per processor, such as 4,4,1)");
  Structure s = build_custom(constant_dag({{0, 5, 1}, {0, 5, 1}, {1, 1, 1}}, {}, {}), "two.dot");
  set_processor_cores(s, {2, 1}, "processor_cores");
  CHECK(evaluate_once(s) == 5.0);
  set_processor_cores(s, {1, 1}, "processor_cores");
  CHECK(evaluate_once(s) == 10.0);
  // A processor beyond the tasks' runs nothing: its cores are taken and change nothing (issue 38).
  CHECK(error_of([&] { set_processor_cores(s, {1, 1, 4}, "processor_cores"); }) == "");
  CHECK(s.processor_cores == std::vector<int>{1, 1});
  CHECK(evaluate_once(s) == 10.0);
  // One count stands for every processor of the graph.
  Model graph;
  graph.graph = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  graph.processor_cores = {3};
  const Structure built = graph.build();
  CHECK(built.processor_cores == std::vector<int>(static_cast<std::size_t>(built.width), 3));
  Model wilson = Model::wilson(StructureKind::synchronous, 4, 0, "1", "uniform", 10);
  wilson.processor_cores = {2};
  CHECK(error_of([&] { wilson.build(); }) == "processor_cores: applies to a graph (Wilson's processors have one core each)");
}

}  // namespace

}  // namespace cores_test
