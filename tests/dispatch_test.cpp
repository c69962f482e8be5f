// Ready dispatch (engine/kernel/plan.h, docs/graphs.md "Dispatch"): a processor's tasks join its
// queue when their inputs are in, ties in the file's listing order, and the queue's head starts
// whenever it fits in the free cores. Checked on hand-computed graphs, against an independent
// simulation written here from the documented rule (a scan over pending events, not a heap) on
// random DAGs with ties, zero-time tasks, messages and cores, beside ordered processors in the same
// graph; and for what it refuses.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "distributions/law.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/dag_model.h"
#include "engine/simulate/model.h"
#include "structures/custom.h"
#include "structures/structure.h"
#include "structures/task_graphs.h"
#include "dag_support.h"
#include "support.h"

namespace dispatch_test {

namespace {

using hetstruct::distributions::Law;
using hetstruct::distributions::parse_law;
using hetstruct::testing::error_of;
using namespace hetstruct::structures;
using namespace hetstruct::engine;

double evaluate_once(const Structure& s, std::uint64_t rep = 0, CompileOptions options = {}) {
  const Plan plan = compile(s, options);
  Workspace ws(plan);
  return evaluate(plan, 1, rep, ws);
}

// Tasks as (processor, constant time, cores), edges as pairs, no order stated: a trace's machines.
CustomDag unordered_dag(const std::vector<std::tuple<int, double, int>>& tasks, const std::vector<std::pair<int, int>>& edges,
                        std::vector<int> cores = {}) {
  CustomDag dag;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const auto& [p, time, c] = tasks[i];
    dag.tasks.push_back({"t" + std::to_string(i), p, dag.law_index(Law::constant(time)), std::nullopt, c, {}});
  }
  for (const auto& [a, b] : edges) dag.edges.push_back({static_cast<std::size_t>(a), static_cast<std::size_t>(b), -1});
  dag.processor_cores = std::move(cores);
  dag.listing_is_order = false;
  return dag;
}

TEST_CASE("Dispatch: a ready task is not held back by one listed before it", "[dispatch]") {
  // t0 (10 s, processor 0) feeds t1 (1 s, processor 1); t2 (5 s, processor 1) is independent and
  // listed after t1. Ordered: t1 then t2 on processor 1, 10 + 1 + 5 = 16. Ready: t2 at 0, t1 at 10.
  auto dag = unordered_dag({{0, 10, 1}, {1, 1, 1}, {1, 5, 1}}, {{0, 1}});
  const Structure ready = build_custom(dag, "overtake.json");
  CHECK(ready.dispatch == std::vector<Dispatch>{Dispatch::ready, Dispatch::ready});
  CHECK(ready.dispatch_reason == "the input gives no order");
  CHECK(evaluate_once(ready) == 11.0);
  dag.dispatch = Dispatch::ordered;
  const Structure ordered = build_custom(dag, "overtake.json");
  CHECK(ordered.dispatch.empty());
  CHECK(evaluate_once(ordered) == 16.0);
  // A listing that is an order (a DOT file's) is ordered by default, and ready on request.
  dag.dispatch.reset();
  dag.listing_is_order = true;
  CHECK(evaluate_once(build_custom(dag, "overtake.dot")) == 16.0);
  dag.dispatch = Dispatch::ready;
  CHECK(evaluate_once(build_custom(dag, "overtake.dot")) == 11.0);
}

TEST_CASE("Dispatch: first come first served on cores, the head never overtaken", "[dispatch]") {
  // One processor of 4 cores. t0: 3 cores, 10 s, [0, 10). t1: 4 cores, 2 s, ready at 0 but needs
  // all four: [10, 12). t2: 1 core, 1 s, ready at 0, queued behind t1 although a core is free from
  // 0: [12, 13). Overtaking the head, t2 would run [0, 1) and the makespan be 12.
  const Plan plan = compile(build_custom(unordered_dag({{0, 10, 3}, {0, 2, 4}, {0, 1, 1}}, {}, {4}), "fifo.json"));
  Workspace ws(plan);
  CHECK(evaluate(plan, 1, 0, ws) == 13.0);
  DagTrace trace;
  CHECK(trace_dag(plan, 1, 0, ws, trace) == 13.0);
  CHECK(trace.start == std::vector<double>{0.0, 10.0, 12.0});
  // t1's start is bound by t0's finish (each of the three cores it freed), t2's by t1's finish.
  using Binders = std::vector<std::pair<DagTrace::Bound, std::uint32_t>>;
  const auto binders = [&](std::size_t t) {
    Binders out;
    for (auto i = trace.task_binders[t].begin; i < trace.task_binders[t].end; ++i) out.emplace_back(trace.binders[i].bound, trace.binders[i].item);
    return out;
  };
  CHECK(binders(1) == Binders(3, {DagTrace::Bound::finish, 0}));
  CHECK(binders(2) == Binders{{DagTrace::Bound::finish, 1}});
  // Listed the other way, the 1-core task runs beside t0 at once and the 4-core one waits for t0.
  const Plan swapped = compile(build_custom(unordered_dag({{0, 10, 3}, {0, 1, 1}, {0, 2, 4}}, {}, {4}), "fifo.json"));
  Workspace ws2(swapped);
  CHECK(evaluate(swapped, 1, 0, ws2) == 12.0);
  // Two tasks ready together behind a head that waits: both start with it when the cores free,
  // the second bound by the head's start as well as by the cores.
  const Plan behind = compile(build_custom(unordered_dag({{0, 10, 2}, {0, 1, 2}, {0, 1, 1}, {0, 1, 1}}, {}, {2}), "behind.json"));
  Workspace ws3(behind);
  DagTrace trace3;
  CHECK(trace_dag(behind, 1, 0, ws3, trace3) == 12.0);
  CHECK(trace3.start == std::vector<double>{0.0, 10.0, 11.0, 11.0});
}

TEST_CASE("Dispatch: ties at one instant in listing order, a zero-time task's successors after them", "[dispatch]") {
  // Tasks by listing index: 1 (processor 0, 2 s) feeds 2 (processor 0, 0 s), 3 and 4 (processor 1,
  // 1 s each); 2 feeds 0 (processor 1, 1 s), listed first of all. Instant 2: 1's finish makes 2, 3
  // and 4 ready (queued by listing); 2 starts and ends at a later event of instant 2, making 0
  // ready behind 3 and 4 on processor 1 although it is listed first: 3 [2, 3), 4 [3, 4), 0 [4, 5).
  CustomDag dag = unordered_dag({{1, 1, 1}, {0, 2, 1}, {0, 0, 1}, {1, 1, 1}, {1, 1, 1}}, {{1, 3}, {1, 4}, {1, 2}, {2, 0}});
  const Plan plan = compile(build_custom(dag, "ties.json"));
  Workspace ws(plan);
  DagTrace trace;
  CHECK(trace_dag(plan, 1, 0, ws, trace) == 5.0);
  std::vector<double> start_of_task(5);
  for (std::size_t pos = 0; pos < 5; ++pos) start_of_task[plan.task_vertex[pos]] = trace.start[pos];
  CHECK(start_of_task == std::vector<double>{4.0, 0.0, 2.0, 2.0, 3.0});
  CHECK(evaluate(plan, 1, 0, ws) == 5.0);
}

// ---- against an independent simulation -----------------------------------------------------------

struct RandomCase {
  CustomDag dag;
  double comm = 0.0;
};

// A random DAG whose listing is not a topological order: a random permutation is the topological
// order, edges go forward in it. Times of several laws, among them 0 and equal constants (ties),
// random cores; processor 0 ordered (its tasks given orders in the topological order) when
// `mixed`, every other processor ready.
RandomCase random_case(std::uint64_t seed, int size, int width, bool mixed) {
  std::mt19937_64 engine(seed);
  RandomCase c;
  auto& dag = c.dag;
  dag.listing_is_order = false;
  const std::vector<Law> laws = {parse_law("u(0,1)"), parse_law("c(1)"), parse_law("c(0)"), parse_law("c(2)"), parse_law("u(0.5,2)")};
  std::uniform_int_distribution<int> law(0, 4), processor(0, width - 1), machine_cores(1, 4);
  std::bernoulli_distribution linked(0.15), own_law(0.3);
  dag.processor_cores.resize(static_cast<std::size_t>(width));
  for (auto& k : dag.processor_cores) k = machine_cores(engine);
  std::vector<int> topo(static_cast<std::size_t>(size));
  std::iota(topo.begin(), topo.end(), 0);
  std::shuffle(topo.begin(), topo.end(), engine);
  for (int v = 0; v < size; ++v) {
    const int p = v < width ? v : processor(engine);  // every processor used
    std::uniform_int_distribution<int> takes(1, dag.processor_cores[static_cast<std::size_t>(p)]);
    dag.tasks.push_back({"t" + std::to_string(v), p, dag.law_index(laws[static_cast<std::size_t>(law(engine))]), std::nullopt,
                         takes(engine), {}});
  }
  for (int i = 0; i < size; ++i)
    for (int j = i + 1; j < size; ++j)
      if (linked(engine))
        dag.edges.push_back({static_cast<std::size_t>(topo[static_cast<std::size_t>(i)]), static_cast<std::size_t>(topo[static_cast<std::size_t>(j)]),
                             own_law(engine) ? dag.law_index(parse_law("c(0.25)")) : -1});
  c.comm = std::bernoulli_distribution(0.5)(engine) ? 0.0 : 0.5;
  if (mixed)
    for (std::size_t i = 0; i < topo.size(); ++i)
      if (dag.tasks[static_cast<std::size_t>(topo[i])].processor == 0) dag.tasks[static_cast<std::size_t>(topo[i])].order = static_cast<double>(i);
  return c;
}

// The rule as docs/graphs.md states it, simulated with a list of pending events scanned for the
// earliest (no heap, no counts of missing inputs kept between instants): at each instant, the
// events present when it begins are taken in together; tasks whose inputs are all in join their
// processor's queue in listing order; then each processor starts its queue's head while it fits.
// An ordered processor of one core queues its next task once the one before it finished, one of
// several cores once it started. Times here are >= 0.
double reference_makespan(const RandomCase& c, const std::vector<double>& duration, const std::vector<double>& message_of_edge) {
  const auto& dag = c.dag;
  const std::size_t n = dag.tasks.size(), width = dag.processor_cores.size();
  std::vector<std::vector<std::size_t>> order(width);  // ordered processors: their tasks by order
  for (std::size_t v = 0; v < n; ++v)
    if (dag.tasks[v].order) order[static_cast<std::size_t>(dag.tasks[v].processor)].push_back(v);
  for (auto& o : order) std::sort(o.begin(), o.end(), [&](std::size_t a, std::size_t b) { return *dag.tasks[a].order < *dag.tasks[b].order; });
  std::vector<std::optional<std::size_t>> before(n);  // the task before, on an ordered processor
  for (const auto& o : order)
    for (std::size_t i = 1; i < o.size(); ++i) before[o[i]] = o[i - 1];
  std::vector<bool> started(n, false), done(n, false), queued(n, false);
  std::vector<std::size_t> inputs_in(n, 0), inputs(n, 0);
  for (const auto& e : dag.edges) ++inputs[e.to];
  struct Pending {
    double time;
    bool finish;
    std::size_t item;  // a task (finish) or an edge (arrival)
  };
  std::vector<Pending> pending;
  std::vector<int> free(dag.processor_cores.begin(), dag.processor_cores.end());
  std::vector<std::vector<std::size_t>> queue(width);
  std::vector<double> finish(n, 0.0);
  const auto cores_of = [&](std::size_t p) { return dag.processor_cores[p]; };
  const auto can_queue = [&](std::size_t v) -> bool {
    if (queued[v] || inputs_in[v] < inputs[v]) return false;
    if (!before[v]) return true;
    return cores_of(static_cast<std::size_t>(dag.tasks[v].processor)) == 1 ? done[*before[v]] : started[*before[v]];
  };
  const auto queue_ready = [&] {
    for (std::size_t v = 0; v < n; ++v)  // listing order
      if (can_queue(v)) {
        queued[v] = true;
        queue[static_cast<std::size_t>(dag.tasks[v].processor)].push_back(v);
      }
  };
  const auto start_heads = [&](double now) {
    bool any = true;
    while (any) {  // a start on an ordered processor of several cores may queue the next task
      any = false;
      for (std::size_t p = 0; p < width; ++p)
        while (!queue[p].empty() && free[p] >= dag.tasks[queue[p].front()].cores) {
          const std::size_t v = queue[p].front();
          queue[p].erase(queue[p].begin());
          free[p] -= dag.tasks[v].cores;
          started[v] = true;
          finish[v] = now + duration[v];
          pending.push_back({finish[v], true, v});
          any = true;
          queue_ready();
        }
    }
  };
  queue_ready();
  start_heads(0.0);
  while (!pending.empty()) {
    double now = pending.front().time;
    for (const auto& e : pending) now = std::min(now, e.time);
    std::vector<Pending> taken, left;
    for (const auto& e : pending) (e.time == now ? taken : left).push_back(e);
    pending = left;
    for (const auto& e : taken) {
      if (!e.finish) {
        ++inputs_in[dag.edges[e.item].to];
        continue;
      }
      done[e.item] = true;
      free[static_cast<std::size_t>(dag.tasks[e.item].processor)] += dag.tasks[e.item].cores;
      for (std::size_t k = 0; k < dag.edges.size(); ++k) {
        if (dag.edges[k].from != e.item) continue;
        const double arrival = finish[e.item] + message_of_edge[k];
        if (arrival == now) ++inputs_in[dag.edges[k].to];
        else pending.push_back({arrival, false, k});
      }
    }
    queue_ready();
    start_heads(now);
  }
  return *std::max_element(finish.begin(), finish.end());
}

void check_against_reference(bool mixed) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const auto c = random_case(seed, 30, 4, mixed);
    const Structure s = build_custom(c.dag, "random.json");
    REQUIRE(!s.dispatch.empty());
    CHECK((s.dispatch[0] == Dispatch::ordered) == mixed);
    CompileOptions options;
    options.comm_cost = c.comm;
    const Plan plan = compile(s, options);
    Workspace ws(plan);
    DagTrace trace;
    for (std::uint64_t rep = 0; rep < 4; ++rep) {
      const double makespan = evaluate(plan, 7, rep, ws);
      std::vector<double> duration(c.dag.tasks.size());
      for (std::size_t pos = 0; pos < duration.size(); ++pos) duration[plan.task_vertex[pos]] = ws.durations[pos];
      // Throws where the edges' rule and the plan name different messages.
      const std::vector<double> message_of_edge = hetstruct::testing::messages_by_edge(c.dag, c.comm, ws);
      INFO("seed " << seed << " rep " << rep);
      REQUIRE(makespan == reference_makespan(c, duration, message_of_edge));
      // The traced run is the same simulation: the same bits.
      REQUIRE(trace_dag(plan, 7, rep, ws, trace) == makespan);
    }
  }
}

TEST_CASE("Dispatch: the engine against an independent simulation of the rule on random DAGs", "[dispatch]") {
  check_against_reference(false);
}

TEST_CASE("Dispatch: ready processors beside ordered ones in one graph, against the same simulation", "[dispatch]") {
  check_against_reference(true);
}

TEST_CASE("Dispatch: the one-port models and the analytic estimates refuse it, naming dispatch", "[dispatch]") {
  const Structure s = build_custom(unordered_dag({{0, 1, 1}, {1, 1, 1}, {1, 1, 1}}, {{0, 1}}), "r.json");
  CompileOptions one_port;
  one_port.port = Port::one_port;
  one_port.comm_cost = 0.5;
  CHECK_THAT(error_of([&] { compile(s, one_port); }), Catch::StartsWith("dispatch: the one-port models run"));
  const Plan plan = compile(s);
  CHECK_THAT(error_of([&] { stochastic_dag(plan); }), Catch::StartsWith("dispatch: analytic DAG estimates"));
  CHECK(error_of([] { parse_dispatch("fifo"); }) == "dispatch: unknown rule 'fifo' (choose ready or ordered)");
}

TEST_CASE("Dispatch: WfFormat machines without recorded starts are ready, with starts ordered", "[dispatch]") {
  const Structure s = read_graph(std::string(HETSTRUCT_TEST_DATA) + "/dispatch_overtake.json");
  CHECK(s.dispatch == std::vector<Dispatch>{Dispatch::ready, Dispatch::ready});
  CHECK(s.dispatch_reason == "the trace records no start times");
  CHECK(evaluate_once(s) == 11.0);
  TaskGraphOptions ordered;
  ordered.dispatch = Dispatch::ordered;
  CHECK(evaluate_once(read_graph(std::string(HETSTRUCT_TEST_DATA) + "/dispatch_overtake.json", ordered)) == 16.0);
  // The sample trace records no starts either; its machines run one task each at a time in a
  // fork-join, where both rules agree.
  CHECK(evaluate_once(read_graph(std::string(HETSTRUCT_TEST_DATA) + "/sample_wf.json")) == 45.0);
  // The model's parameter reaches the reader, and is refused without a graph.
  ModelTexts t;
  t.set("graph", std::string(HETSTRUCT_TEST_DATA) + "/dispatch_overtake.json").set("dispatch", "ordered");
  CHECK(parse_model(t).task_graph.dispatch == Dispatch::ordered);
  ModelTexts w;
  w.set("structure", "sync").set("width", "4").set("dispatch", "ready");
  CHECK(error_of([&] { parse_model(w); }) == "dispatch: applies to a graph only (give a graph file)");
}

}  // namespace

}  // namespace dispatch_test
