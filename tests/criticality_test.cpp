// Criticality and slack (engine/simulate/criticality.h): exact values on constant-time graphs (a chain, two
// branches, Wilson's async with fast and slow processors), a two-branch graph against P(one branch
// is longer) computed exactly, an independent brute-force simulation (every path enumerated) on
// small random DAGs with messages, replication by replication, the makespan the same bits as
// run()'s, the same bits on 1 and 2 threads, and the refusals.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/law.h"
#include "distributions/sampler.h"
#include "engine/simulate/criticality.h"
#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/simulation.h"
#include "engine/kernel/streams.h"
#include "structures/structure.h"
#include "dag_support.h"
#include "support.h"

namespace criticality_test {

namespace {

using hetstruct::distributions::parse_law;
using hetstruct::distributions::Sampler;
using hetstruct::testing::error_of;
using namespace hetstruct::structures;
using namespace hetstruct::engine;

CriticalityRun criticality_of(const Structure& s, std::uint64_t reps, int threads = 1, const CompileOptions& options = {}) {
  return hetstruct::testing::criticality_run(s, 11, reps, threads, options);
}

std::map<std::string, const TaskCriticality*> by_name(const CriticalityRun& run) {
  std::map<std::string, const TaskCriticality*> m;
  for (const auto& t : run.tasks) m[t.task] = &t;
  return m;
}
// The map points into the run: a temporary run would leave it dangling.
std::map<std::string, const TaskCriticality*> by_name(CriticalityRun&&) = delete;

TEST_CASE("criticality: every task of a chain is critical, with no slack", "[criticality]") {
  const Structure s = parse_dot(
      "digraph { a [processor=0, law=\"c(1)\"]; b [processor=1, law=\"c(2)\"]; c [processor=0, law=\"u(0,1)\"]; "
      "a -> b [comm=\"c(0.5)\"]; b -> c [comm=\"u(0,1)\"]; }",
      "chain.dot");
  const auto run = criticality_of(s, 300);
  REQUIRE(run.tasks.size() == 3);
  for (const auto& t : run.tasks) {
    CHECK(t.criticality == 1.0);
    CHECK(t.criticality_stderr == 0.0);
    CHECK(t.slack.mean == 0.0);
  }
  CHECK(run.tasks[0].task == "a");  // the file's order
  CHECK(run.tasks[2].task == "c");
}

TEST_CASE("criticality: of two constant branches only the longer is critical, the other has their difference as slack",
          "[criticality]") {
  const Structure s = parse_dot(
      "digraph { a [processor=0, law=\"c(1)\"]; long [processor=1, law=\"c(5)\"]; short [processor=2, law=\"c(3)\"]; "
      "d [processor=3, law=\"c(1)\"]; a -> long; a -> short; long -> d; short -> d; }",
      "branches.dot");
  const auto run = criticality_of(s, 100);
  const auto t = by_name(run);
  CHECK(t.at("a")->criticality == 1.0);
  CHECK(t.at("long")->criticality == 1.0);
  CHECK(t.at("short")->criticality == 0.0);
  CHECK(t.at("d")->criticality == 1.0);
  CHECK(t.at("short")->slack.mean == 2.0);
  CHECK(t.at("long")->slack.mean == 0.0);
  CHECK(run.makespan.mean == 7.0);
}

TEST_CASE("criticality: equal branches are both critical (ties count)", "[criticality]") {
  const Structure s = parse_dot(
      "digraph { a [processor=0, law=\"c(1)\"]; x [processor=1, law=\"c(3)\"]; y [processor=2, law=\"c(3)\"]; "
      "d [processor=3, law=\"c(1)\"]; a -> x; a -> y; x -> d; y -> d; }",
      "ties.dot");
  const auto run = criticality_of(s, 50);  // by_name points into it
  const auto t = by_name(run);
  CHECK(t.at("x")->criticality == 1.0);
  CHECK(t.at("y")->criticality == 1.0);
}

TEST_CASE("criticality: a random branch against P(it is the longer) computed exactly", "[criticality]") {
  // x ~ u(0,2), y ~ u(0,1), independent: P(x > y) = 1 - P(x <= y) = 1 - 1/4 = 3/4.
  const Structure s = parse_dot(
      "digraph { a [processor=0, law=\"c(1)\"]; x [processor=1, law=\"u(0,2)\"]; y [processor=2, law=\"u(0,1)\"]; "
      "d [processor=3, law=\"c(1)\"]; a -> x; a -> y; x -> d; y -> d; }",
      "random-branches.dot");
  const auto run = criticality_of(s, 20000, 2);  // by_name points into it
  const auto t = by_name(run);
  const auto& x = *t.at("x");
  const auto& y = *t.at("y");
  CHECK(std::abs(x.criticality - 0.75) < 4.0 * x.criticality_stderr);
  CHECK(std::abs(y.criticality - 0.25) < 4.0 * y.criticality_stderr);
  CHECK(x.critical + y.critical == 20000);  // continuous laws: no tie
  // The estimate p of 3/4 is within 4 standard errors (0.012), which moves sqrt(p(1-p)/n) by 5e-5.
  CHECK(std::abs(x.criticality_stderr - std::sqrt(0.75 * 0.25 / 20000)) < 1e-4);
  // E slack(y) = E (x - y)^+ = integral over y of E(x - y)^+ = 1/2 int_0^1 (2 - y)^2 / 2 dy = 7/12.
  CHECK(std::abs(y.slack.mean - 7.0 / 12.0) < 4.0 * y.slack.stderr_);
}

TEST_CASE("criticality: Wilson's async at constant times, the slow processors' tasks only", "[criticality]") {
  Model model = Model::wilson(StructureKind::asynchronous, 4, 1, "1/2", "c(1)", 3);
  const Simulation sim = prepare(model);
  const Plan plan = criticality_plan(sim.structure, sim.plan, model.compile_options());
  RunOptions run;
  run.reps = 10;
  run.threads = 1;
  const auto result = run_criticality(sim.structure, plan, run);
  REQUIRE(result.tasks.size() == 12);
  for (const auto& t : result.tasks) {
    const bool fast = t.task.rfind("p0_", 0) == 0;
    CHECK(t.criticality == (fast ? 0.0 : 1.0));
    CHECK(t.slack.mean == (fast ? 1.5 : 0.0));
  }
  CHECK(result.makespan.mean == 3.0);
}

// Random DAG of `size` tasks on `width` processors (each processor's tasks chained in vertex order),
// with messages of their own law on some crossing edges.
Structure random_dag(std::uint64_t seed, int size, int width) {
  std::mt19937_64 engine(seed);
  Structure s;
  s.kind = StructureKind::custom;
  s.name = "random";
  s.laws = {parse_law("u(0,1)"), parse_law("0.5*u(0,1)"), parse_law("u(0.2,0.8)"), parse_law("u(0,0.4)")};
  std::bernoulli_distribution linked(0.3), message(0.5);
  hetstruct::testing::add_random_tasks(engine, s, size, width, 3);
  PrecedenceGraph& g = s.custom_graph();
  std::uint32_t index = 0;
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b)
      if (linked(engine)) {
        Precedence e{g[a].processor != g[b].processor};
        if (e.crosses_processors && message(engine)) e.comm_law = 3;
        e.file_index = index++;
        boost::add_edge(a, b, e, g);
      }
  hetstruct::testing::chain_processors(s);
  s.levels = 1;
  return s;
}

// The stated rules by brute force: the task times from the one stream (domain dag_tasks) in vertex
// order, each message's from the messages stream in the file's edge order; every path from a
// source to a sink summed left to right (finish, then message, then the next finish); the
// makespan is the longest; a task is critical when it lies on a path of that length; its latest
// finish is the makespan less the longest path after its finish (messages and tasks).
struct BruteForce {
  std::vector<std::uint8_t> critical;
  std::vector<double> slack;
  double makespan;
};

BruteForce brute_force(const Structure& s, std::uint64_t seed, std::uint64_t rep) {
  const auto& g = s.graph();
  const std::size_t n = boost::num_vertices(g);
  std::vector<double> d(n);
  ProcessorStream tasks(seed, rep, 0, ProcessorStream::dag_tasks);
  for (std::size_t v = 0; v < n; ++v) d[v] = Sampler(s.laws[g[v].law])(tasks);
  std::vector<std::pair<std::uint32_t, PrecedenceGraph::edge_descriptor>> carried;
  for (const auto e : boost::make_iterator_range(boost::edges(g)))
    if (g[e].comm_law >= 0) carried.emplace_back(g[e].file_index, e);
  std::sort(carried.begin(), carried.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::map<std::pair<std::size_t, std::size_t>, double> c;
  ProcessorStream messages(seed, rep, 0, ProcessorStream::messages);
  for (const auto& [index, e] : carried)
    c[{boost::source(e, g), boost::target(e, g)}] = Sampler(s.laws[g[e].comm_law])(messages);
  const auto comm = [&](std::size_t u, std::size_t v) {
    const auto it = c.find({u, v});
    return it == c.end() ? 0.0 : it->second;
  };
  std::vector<std::vector<std::size_t>> paths;
  std::vector<std::size_t> path;
  std::function<void(std::size_t)> walk = [&](std::size_t v) {
    path.push_back(v);
    if (boost::out_degree(v, g) == 0) paths.push_back(path);
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) walk(boost::target(e, g));
    path.pop_back();
  };
  for (std::size_t v = 0; v < n; ++v)
    if (boost::in_degree(v, g) == 0) walk(v);
  BruteForce out{std::vector<std::uint8_t>(n, 0), std::vector<double>(n), -std::numeric_limits<double>::infinity()};
  std::vector<double> lengths;
  for (const auto& p : paths) {
    double t = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) t = (i ? t + comm(p[i - 1], p[i]) : t) + d[p[i]];
    lengths.push_back(t);
    out.makespan = std::max(out.makespan, t);
  }
  std::vector<double> tail(n, -std::numeric_limits<double>::infinity());  // longest time after v's finish
  for (std::size_t k = 0; k < paths.size(); ++k) {
    const auto& p = paths[k];
    if (lengths[k] == out.makespan)
      for (const auto v : p) out.critical[v] = 1;
    double after = 0.0;
    for (std::size_t i = p.size(); i-- > 0;) {
      tail[p[i]] = std::max(tail[p[i]], after);
      if (i) after += d[p[i]] + comm(p[i - 1], p[i]);
    }
  }
  // Finish times by the longest path into each vertex (over the paths through it).
  std::vector<double> finish(n, -std::numeric_limits<double>::infinity());
  for (const auto& p : paths) {
    double t = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      t = (i ? t + comm(p[i - 1], p[i]) : t) + d[p[i]];
      finish[p[i]] = std::max(finish[p[i]], t);
    }
  }
  for (std::size_t v = 0; v < n; ++v) out.slack[v] = out.makespan - tail[v] - finish[v];
  return out;
}

TEST_CASE("criticality: a brute-force simulation of every path on random DAGs with messages", "[criticality]") {
  for (std::uint64_t graph = 0; graph < 12; ++graph) {
    const Structure s = random_dag(500 + graph, 8 + static_cast<int>(graph % 5), 2 + static_cast<int>(graph % 3));
    const Plan plan = compile(s);
    const Plan used = criticality_plan(s, plan, {});
    Workspace ws(used), plain(plan);
    ReplicationSchedule schedule;
    for (std::uint64_t rep = 0; rep < 40; ++rep) {
      schedule_replication(used, 3, rep, ws, schedule);
      const BruteForce expected = brute_force(s, 3, rep);
      INFO("graph " << graph << " replication " << rep);
      REQUIRE(schedule.makespan == expected.makespan);
      REQUIRE(schedule.makespan == evaluate(plan, 3, rep, plain));
      for (std::uint32_t t = 0; t < used.task_sampler.size(); ++t) {
        const auto v = used.task_vertex[t];
        INFO("task " << s.graph()[v].name);
        CHECK(schedule.critical[t] == expected.critical[v]);
        CHECK(std::abs((schedule.latest_finish[t] - schedule.trace.finish[t]) - expected.slack[v]) < 1e-12);
        if (expected.critical[v]) CHECK(schedule.slack(t) == 0.0);
      }
    }
  }
}

TEST_CASE("criticality: the same bits on 1 and 2 threads, and its makespan is run()'s", "[criticality]") {
  const Structure s = random_dag(42, 30, 4);
  const auto one = criticality_of(s, 700, 1);
  const auto two = criticality_of(s, 700, 2);
  REQUIRE(one.tasks.size() == two.tasks.size());
  for (std::size_t i = 0; i < one.tasks.size(); ++i) {
    CHECK(one.tasks[i].critical == two.tasks[i].critical);
    CHECK(one.tasks[i].slack.mean == two.tasks[i].slack.mean);
    CHECK(one.tasks[i].slack.stderr_ == two.tasks[i].slack.stderr_);
  }
  RunOptions run;
  run.seed = 11;
  run.reps = 700;
  run.threads = 2;
  const Estimate plain = hetstruct::engine::run(compile(s), run);
  CHECK(one.makespan.mean == plain.mean);
  CHECK(one.makespan.stderr_ == plain.stderr_);
  // Wilson's structures through their generic plans: the same makespans as their own plans.
  for (const auto kind : {StructureKind::asynchronous, StructureKind::synchronous, StructureKind::nearest_neighbor})
    for (const char* slowdown : {"", "u(1,2)"}) {
      Model model = Model::wilson(kind, 5, 2, "1/2", "uniform", 7);
      if (*slowdown) model.slowdown = parse_slowdown(slowdown);  // the factors reach the generic plan's times too
      const Simulation sim = prepare(model);
      const Plan generic = criticality_plan(sim.structure, sim.plan, model.compile_options());
      run.reps = 300;
      const auto c = run_criticality(sim.structure, generic, run);
      const Estimate own = hetstruct::engine::run(sim.plan, run);
      INFO(to_string(sim.plan.kind) << " slowdown " << slowdown);
      CHECK(c.makespan.mean == own.mean);
      CHECK(c.makespan.max == own.max);
    }
  // A graph's slowdowns too.
  CompileOptions slowed;
  slowed.slowdown.machine = parse_law("u(1,2)");
  slowed.slowdown.processor = {parse_law("gamma(4,0.25)")};
  const auto c = criticality_of(s, 300, 2, slowed);
  run.reps = 300;
  CHECK(c.makespan.mean == hetstruct::engine::run(compile(s, slowed), run).mean);
}

TEST_CASE("criticality: refused where the rules do not apply", "[criticality]") {
  const auto refusal = [](Model model) {
    return error_of([&] {
      const Simulation sim = prepare(model);
      (void)criticality_plan(sim.structure, sim.plan, model.compile_options());
    });
  };
  CHECK(refusal(Model::wilson(StructureKind::master_slave, 4, 1, "1/2", "uniform", 5)).find("criticality") !=
        std::string::npos);
  CHECK(refusal(Model::wilson(StructureKind::synchronous, 4, 1, "1/2", "uniform", 5, 0.1)).find("protocols") !=
        std::string::npos);
  const Structure s = parse_dot(
      "digraph { a [processor=0, law=\"c(1)\"]; b [processor=1, law=\"c(1)\"]; a -> b [comm=\"c(1)\"]; }", "two.dot");
  CompileOptions one_port;
  one_port.port = Port::one_port;
  const Plan plan = compile(s, one_port);
  // The one-port models are no longer refused (tests/criticality_models_test.cpp).
  CHECK(error_of([&] { (void)criticality_plan(s, plan, one_port); }).empty());
}

}  // namespace

}  // namespace criticality_test
