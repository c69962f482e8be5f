// Compiled plans: the generic plan against a direct Boost.Graph longest path, specialised plans
// against generic ones and against the recurrences of docs/semantics.md, hand-computed cases.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <queue>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <boost/graph/topological_sort.hpp>
#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "distributions/law.h"
#include "distributions/sampler.h"
#include "engine/kernel/plan.h"
#include "engine/kernel/streams.h"
#include "structures/structure.h"

namespace plan_test {

namespace {

using hetstruct::InputError;
using hetstruct::distributions::Law;
using hetstruct::distributions::Sampler;
using namespace hetstruct::structures;
using namespace hetstruct::engine;

const std::string data_dir = HETSTRUCT_TEST_DATA;
constexpr double minus_infinity = -std::numeric_limits<double>::infinity();

// The generic DAG plan for any structure (set field by field: CompileOptions grows).
CompileOptions generic_options() {
  CompileOptions options;
  options.generic = true;
  return options;
}

bool zero_time(const Task& t) { return t.kind != TaskKind::compute; }

// The generic plan's documented task order: Kahn's algorithm, smallest vertex index first.
std::vector<Vertex> kahn_order(const PrecedenceGraph& g) {
  std::vector<std::size_t> indegree(boost::num_vertices(g));
  for (std::size_t v = 0; v < indegree.size(); ++v) indegree[v] = boost::in_degree(v, g);
  std::priority_queue<Vertex, std::vector<Vertex>, std::greater<>> ready;
  for (Vertex v = 0; v < indegree.size(); ++v)
    if (indegree[v] == 0) ready.push(v);
  std::vector<Vertex> order;
  while (!ready.empty()) {
    const Vertex v = ready.top();
    ready.pop();
    order.push_back(v);
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g)))
      if (--indegree[boost::target(e, g)] == 0) ready.push(boost::target(e, g));
  }
  REQUIRE(order.size() == boost::num_vertices(g));
  return order;
}

// Longest path straight on the Boost.Graph: vertex v takes weight[v] (0 for zero-time vertices),
// starts at the max of its predecessors' finish times (sources at 0); makespan over the sinks.
double boost_longest_path(const PrecedenceGraph& g, const std::vector<double>& weight, std::vector<double>& finish) {
  std::vector<Vertex> reversed;
  boost::topological_sort(g, std::back_inserter(reversed));
  finish.assign(boost::num_vertices(g), 0.0);
  for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) {
    const Vertex v = *it;
    double start = boost::in_degree(v, g) == 0 ? 0.0 : minus_infinity;
    for (const auto e : boost::make_iterator_range(boost::in_edges(v, g)))
      start = std::max(start, finish[boost::source(e, g)]);
    finish[v] = start + (zero_time(g[v]) ? 0.0 : weight[v]);
  }
  double makespan = minus_infinity;
  for (const auto v : boost::make_iterator_range(boost::vertices(g)))
    if (boost::out_degree(v, g) == 0) makespan = std::max(makespan, finish[v]);
  return makespan;
}

// The generic plan is the graph in Kahn order: same samplers, processors, predecessors, sinks.
void require_plan_matches_graph(const Plan& plan, const Structure& s, const std::vector<Vertex>& order) {
  const auto& g = s.graph();
  REQUIRE(plan.kind == PlanKind::dag);
  REQUIRE(plan.task_sampler.size() == order.size());
  REQUIRE(plan.task_processor.size() == order.size());
  REQUIRE(plan.pred_begin.size() == order.size() + 1);
  REQUIRE(plan.samplers.size() == s.laws.size());
  std::vector<std::uint32_t> position(order.size());
  for (std::size_t t = 0; t < order.size(); ++t) position[order[t]] = static_cast<std::uint32_t>(t);
  std::vector<std::uint32_t> sinks;
  for (std::size_t t = 0; t < order.size(); ++t) {
    const Task& task = g[order[t]];
    REQUIRE(plan.task_sampler[t] == (zero_time(task) ? -1 : task.law));
    REQUIRE(plan.task_processor[t] == std::max(task.processor, 0));
    std::vector<std::uint32_t> preds;
    for (const auto e : boost::make_iterator_range(boost::in_edges(order[t], g)))
      preds.push_back(position[boost::source(e, g)]);
    std::sort(preds.begin(), preds.end());
    const std::vector<std::uint32_t> planned(plan.preds.begin() + plan.pred_begin[t],
                                             plan.preds.begin() + plan.pred_begin[t + 1]);
    REQUIRE(planned == preds);
    for (const auto p : planned) REQUIRE(p < t);
    if (boost::out_degree(order[t], g) == 0) sinks.push_back(static_cast<std::uint32_t>(t));
  }
  REQUIRE(plan.sinks == sinks);
}

// Random vertex weights (normal, so negative ones occur); the plan's durations are the same
// weights in plan order, with junk for zero-time tasks, which the plan must ignore.
void require_longest_paths_agree(const Structure& s, std::uint64_t seed) {
  CAPTURE(s.name, seed);
  const Plan plan = compile(s, generic_options());
  const auto order = kahn_order(s.graph());
  require_plan_matches_graph(plan, s, order);
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal(0.5, 1.0);
  for (int round = 0; round < 5; ++round) {
    std::vector<double> weight(boost::num_vertices(s.graph()));
    for (auto& w : weight) w = normal(engine);
    std::vector<double> durations(order.size());
    for (std::size_t t = 0; t < order.size(); ++t) durations[t] = zero_time(s.graph()[order[t]]) ? 1e6 : weight[order[t]];
    std::vector<double> finish(order.size());
    const double planned = longest_path(plan, durations, finish);
    std::vector<double> graph_finish;
    const double direct = boost_longest_path(s.graph(), weight, graph_finish);
    // The same additions (start + weight) and exact maxima: the results are equal bit for bit.
    REQUIRE(planned == direct);
    for (std::size_t t = 0; t < order.size(); ++t) REQUIRE(finish[t] == graph_finish[order[t]]);
  }
}

// A random DAG of `size` tasks on `width` processors, its vertices declared in a shuffled order so
// that file order and topological order differ.
std::string random_dag_text(std::uint64_t seed, int size, int width) {
  std::mt19937_64 engine(seed);
  // Vertices are listed by rank (a processor runs its tasks in the file's order, which must follow
  // the precedences), named in shuffled order so that names and ranks differ.
  std::vector<int> name(size);
  for (int i = 0; i < size; ++i) name[i] = i;
  std::shuffle(name.begin(), name.end(), engine);
  const char* laws[] = {"u(0,1)", "n(0.5,1/12)", "0.5*u(0,1)", "c(0.3)", "mix(0.5:u(0,1),0.5:n(1,1/4))"};
  std::uniform_int_distribution<int> law(0, 4), processor(0, width - 1);
  std::bernoulli_distribution linked(0.12);
  std::ostringstream out;
  out << "digraph random {\n";
  for (const int v : name)
    out << "  v" << v << " [processor=" << processor(engine) << ", law=\"" << laws[law(engine)] << "\"];\n";
  // Edges go from lower to higher rank: acyclic.
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b)
      if (linked(engine)) out << "  v" << name[a] << " -> v" << name[b] << ";\n";
  out << "}\n";
  return out.str();
}

struct Config {
  int n, m;
  double a;
  int p;
};

const std::vector<Config> configs = {{1, 0, 0.5, 1}, {1, 1, 0.8, 5}, {2, 1, 0.5, 3}, {3, 0, 0.5, 4},
                                     {4, 1, 0.5, 6}, {5, 5, 0.8, 2}, {8, 3, 0.8, 7}, {16, 8, 0.5, 4},
                                     {40, 10, 0.5, 3}};  // wide: the task pool may switch to a heap

std::vector<Structure> regular_structures(const Processors& procs, int p) {
  return {asynchronous(procs, p), synchronous(procs, p), nearest_neighbor(procs, p, NeighborExchange::sequential),
          nearest_neighbor(procs, p, NeighborExchange::plain)};
}

// Draws x[i][k]: processor i's k-th task time, the k-th variate of processor i's stream.
std::vector<std::vector<double>> draws(const Structure& s, std::uint64_t seed, std::uint64_t rep, int count) {
  std::vector<std::vector<double>> x(s.width);
  for (int i = 0; i < s.width; ++i) {
    const Sampler sampler(s.laws[i]);
    ProcessorStream stream(seed, rep, static_cast<std::uint64_t>(i));
    for (int k = 0; k < count; ++k) x[i].push_back(sampler(stream));
  }
  return x;
}

// Durations by (level, processor) for a generic plan of a regular structure, in plan order.
std::vector<double> durations_by_cell(const Structure& s, const std::vector<std::vector<double>>& cell) {
  const auto order = kahn_order(s.graph());
  std::vector<double> d;
  for (const Vertex v : order) {
    const Task& t = s.graph()[v];
    d.push_back(zero_time(t) ? 0.0 : cell.at(t.level).at(t.processor));
  }
  return d;
}

}  // namespace

TEST_CASE("generic plan: longest path equals Boost.Graph's on every structure", "[plan]") {
  std::uint64_t seed = 1;
  for (const auto [n, m, a, p] : configs) {
    CAPTURE(n, m, a, p);
    const auto procs = heterogeneous(n, m, a, Law::paper_normal());
    for (const auto& s : regular_structures(procs, p)) require_longest_paths_agree(s, seed++);
  }
  require_longest_paths_agree(read_dot(data_dir + "/diamond.dot"), 101);
  require_longest_paths_agree(read_dot(data_dir + "/fork_join.dot"), 102);
  require_longest_paths_agree(read_dot(data_dir + "/same_processor.dot"), 103);
  for (std::uint64_t g = 0; g < 4; ++g) require_longest_paths_agree(parse_dot(random_dag_text(g, 40, 4), "random"), 200 + g);
}

TEST_CASE("generic plan: the task order is Kahn's, smallest vertex first", "[plan]") {
  // same_processor.dot: a=0, b=1, c=2, e=3 with c -> a and the chain a -> b -> e.
  const auto s = read_dot(data_dir + "/same_processor.dot");
  const Plan plan = compile(s);
  REQUIRE(plan.kind == PlanKind::dag);
  require_plan_matches_graph(plan, s, {2, 0, 1, 3});
  REQUIRE(plan.task_processor == std::vector<int>{2, 0, 0, 0});
  REQUIRE(plan.width == 3);
  REQUIRE(plan.sinks == std::vector<std::uint32_t>{3});
}

TEST_CASE("specialised plans equal generic plans bit for bit", "[plan]") {
  for (const Law& law : {Law::paper_uniform(), Law::paper_normal()}) {
    for (const auto [n, m, a, p] : configs) {
      CAPTURE(law.to_string(), n, m, a, p);
      const auto procs = heterogeneous(n, m, a, law);
      for (const auto& s : regular_structures(procs, p)) {
        const Plan special = compile(s);
        const Plan generic = compile(s, generic_options());
        CAPTURE(to_string(special.kind));
        REQUIRE(special.kind != PlanKind::dag);
        REQUIRE(generic.kind == PlanKind::dag);
        Workspace ws(special), ws2(generic);
        for (std::uint64_t rep = 0; rep < 6; ++rep) {
          const double x = evaluate(special, 7, rep, ws);
          const double y = evaluate(generic, 7, rep, ws2);
          REQUIRE(x == y);
        }
      }
    }
  }
}

TEST_CASE("specialised plans follow the recurrences of docs/semantics.md", "[plan]") {
  // Independent of the graphs: the rules written out over the same draws, in the same
  // arithmetic order, so the results are exact.
  const std::uint64_t seed = 20240611;
  for (const Law& law : {Law::paper_uniform(), Law::paper_normal()}) {
    for (const auto& config : configs) {
      const int n = config.n, m = config.m, p = config.p;
      const double a = config.a;
      CAPTURE(law.to_string(), n, m, a, p);
      const auto procs = heterogeneous(n, m, a, law);
      for (std::uint64_t rep = 0; rep < 3; ++rep) {
        const auto s = asynchronous(procs, p);
        const auto x = draws(s, seed, rep, p);
        // Asynchronous: max over processors of the sum of its task times.
        double async = minus_infinity;
        for (int i = 0; i < n; ++i) {
          double sum = 0.0;
          for (int k = 0; k < p; ++k) sum += x[i][k];
          async = std::max(async, sum);
        }
        // Synchronous: sum over levels of the level's max.
        double sync = 0.0;
        for (int k = 0; k < p; ++k) {
          double top = minus_infinity;
          for (int i = 0; i < n; ++i) top = std::max(top, x[i][k]);
          sync += top;
        }
        // Nearest neighbour: task k+1 on i starts at max(f_0..f_{i+1}) (sequential) or at
        // max(f_{i-1}, f_i, f_{i+1}) (plain).
        auto neighbor = [&](bool sequential) {
          std::vector<double> start(n, 0.0), finish(n);
          for (int k = 0; k < p; ++k) {
            for (int i = 0; i < n; ++i) finish[i] = start[i] + x[i][k];
            for (int i = 0; i < n; ++i) {
              const int lo = sequential ? 0 : std::max(i - 1, 0);
              start[i] = *std::max_element(finish.begin() + lo, finish.begin() + std::min(i + 2, n));
            }
          }
          return *std::max_element(finish.begin(), finish.end());
        };
        // Task pool: n*p tasks, each to the earliest idle processor (lowest index on ties), which
        // draws its next variate.
        const auto y = draws(s, seed, rep, n * p);
        std::vector<double> idle(n, 0.0);
        std::vector<int> used(n, 0);
        for (int t = 0; t < n * p; ++t) {
          int best = 0;
          for (int i = 1; i < n; ++i)
            if (idle[i] < idle[best]) best = i;
          idle[best] += y[best][used[best]++];
        }
        const double pool = *std::max_element(idle.begin(), idle.end());

        auto run = [&](const Structure& st) {
          const Plan plan = compile(st);
          Workspace ws(plan);
          return evaluate(plan, seed, rep, ws);
        };
        REQUIRE(run(s) == async);
        REQUIRE(run(synchronous(procs, p)) == sync);
        REQUIRE(run(nearest_neighbor(procs, p, NeighborExchange::sequential)) == neighbor(true));
        REQUIRE(run(nearest_neighbor(procs, p, NeighborExchange::plain)) == neighbor(false));
        REQUIRE(run(master_slave(procs, p)) == pool);
      }
    }
  }
}

TEST_CASE("hand-computed makespans with given task times", "[plan]") {
  // n = 4, p = 3; times[k][i] is task k on processor i.
  const std::vector<std::vector<double>> times = {{3, 4, 1, 1}, {1, 1, 3, 4}, {4, 3, 3, 1}};
  // Asynchronous: sums 8, 8, 7, 6 -> 8.
  // Synchronous: 4 + 4 + 4 = 12.
  // Sequential: f = 3 4 1 1; starts max(f_0..f_{i+1}) = 4 4 4 4; f = 5 5 7 8;
  //             starts 5 7 8 8; f = 9 10 11 9 -> 11.
  // Plain:      f = 3 4 1 1; starts 4 4 4 1; f = 5 5 7 5; starts 5 7 7 7; f = 9 10 10 8 -> 10.
  const auto procs = heterogeneous(4, 0, 1.0, Law::paper_uniform());
  const std::vector<std::pair<Structure, double>> cases = {
      {asynchronous(procs, 3), 8.0},
      {synchronous(procs, 3), 12.0},
      {nearest_neighbor(procs, 3, NeighborExchange::sequential), 11.0},
      {nearest_neighbor(procs, 3, NeighborExchange::plain), 10.0},
  };
  for (const auto& [s, expected] : cases) {
    CAPTURE(s.name, s.exchange == NeighborExchange::plain);
    const Plan plan = compile(s, generic_options());
    const auto d = durations_by_cell(s, times);
    std::vector<double> finish(d.size());
    REQUIRE(longest_path(plan, d, finish) == expected);
  }
}

TEST_CASE("hand-computed makespans with constant laws", "[plan]") {
  // With one constant time per processor every path of p tasks takes at most p * max c, and
  // staying on the slowest processor takes exactly that: all four Figure 1a-c structures give
  // p * max c. (Distinguishing them needs times that vary by level: see the case above.)
  auto with_constants = [](Structure s, const std::vector<double>& c) {
    s.laws.clear();
    for (const double v : c) s.laws.push_back(Law::constant(v));
    return s;
  };
  const auto procs = heterogeneous(3, 0, 1.0, Law::paper_uniform());
  for (const int p : {1, 2, 5}) {
    for (const auto& s : regular_structures(procs, p)) {
      CAPTURE(p, s.name);
      const auto st = with_constants(s, {1, 2, 3});
      for (const bool generic : {false, true}) {
        const Plan plan = compile(st, generic ? generic_options() : CompileOptions{});
        Workspace ws(plan);
        REQUIRE(evaluate(plan, 1, 0, ws) == 3.0 * p);
      }
      // Negative constants are not clipped: c(-1), c(-2), c(-1) give p * (-1).
      const auto neg = with_constants(s, {-1, -2, -1});
      const Plan plan = compile(neg);
      Workspace ws(plan);
      REQUIRE(evaluate(plan, 1, 0, ws) == -1.0 * p);
    }
  }
}

TEST_CASE("task pool: hand-computed dealing with constant laws", "[plan]") {
  auto pool = [](const std::vector<double>& c, int p) {
    auto s = master_slave(heterogeneous(static_cast<int>(c.size()), 0, 1.0, Law::paper_uniform()), p);
    s.laws.clear();
    for (const double v : c) s.laws.push_back(Law::constant(v));
    const Plan plan = compile(s);
    REQUIRE(plan.kind == PlanKind::task_pool);
    Workspace ws(plan);
    return evaluate(plan, 3, 0, ws);
  };
  // c = 1, 2; p = 3: idle (0,0) -> p0:1, p1:2, p0:2, tie -> p0:3, p1:4, p0:4. Makespan 4.
  REQUIRE(pool({1, 2}, 3) == 4.0);
  // p = 2: p0:1, p1:2, p0:2, tie at 2 -> p0:3. Makespan 3 (4 if ties went to the higher index).
  REQUIRE(pool({1, 2}, 2) == 3.0);
  // c = 4, 1; p = 3: p0:4, p1:1, p1:2, p1:3, p1:4, tie at 4 -> p0:8. Makespan 8 (5 otherwise).
  REQUIRE(pool({4, 1}, 3) == 8.0);
  // c = 1, 1, 3; p = 3: 1 1 3, 2 2 3, 3 3 3, tie -> p0:4, then p1:4. Makespan 4 (6 otherwise).
  REQUIRE(pool({1, 1, 3}, 3) == 4.0);
  // n = 1: p tasks in a row.
  REQUIRE(pool({2.5}, 4) == 10.0);
  // Wide, so that a heap may deal: c(2) on processor 0, c(1) on 1..33, p = 2 (68 tasks). Round
  // one gives each processor a task (p0 at 2, the rest at 1); 33 tasks bring p1..p33 to 2; the
  // last one goes to p0 on the 34-way tie: makespan 4 (3 if ties went to the higher index).
  std::vector<double> wide(34, 1.0);
  wide[0] = 2.0;
  REQUIRE(pool(wide, 2) == 4.0);
  // And c(1) on 0..32, c(2) on 33: the last task goes to p0 at 2 -> 3 (4 if to p33).
  std::vector<double> wide2(34, 1.0);
  wide2[33] = 2.0;
  REQUIRE(pool(wide2, 2) == 3.0);

  // Through the builder: heterogeneous(2, 1, 0.5, c(2)) puts c(1) on processor 0, c(2) on 1.
  const auto s = master_slave(heterogeneous(2, 1, 0.5, Law::constant(2)), 2);
  const Plan plan = compile(s);
  Workspace ws(plan);
  REQUIRE(evaluate(plan, 9, 4, ws) == 3.0);
}

TEST_CASE("plan kinds, compute tasks and errors", "[plan]") {
  const auto procs = heterogeneous(5, 2, 0.5, Law::paper_uniform());
  const int p = 7;
  REQUIRE(compile(asynchronous(procs, p)).kind == PlanKind::asynchronous);
  REQUIRE(compile(synchronous(procs, p)).kind == PlanKind::synchronous);
  REQUIRE(compile(nearest_neighbor(procs, p)).kind == PlanKind::neighbor_sequential);
  REQUIRE(compile(nearest_neighbor(procs, p, NeighborExchange::plain)).kind == PlanKind::neighbor_plain);
  REQUIRE(compile(master_slave(procs, p)).kind == PlanKind::task_pool);
  REQUIRE(compile(read_dot(data_dir + "/diamond.dot")).kind == PlanKind::dag);

  for (const auto& s : regular_structures(procs, p)) {
    CAPTURE(s.name);
    REQUIRE(compile(s).compute_tasks() == 35u);
    REQUIRE(compile(s, generic_options()).compute_tasks() == 35u);
  }
  REQUIRE(compile(master_slave(procs, p)).compute_tasks() == 35u);
  REQUIRE(compile(read_dot(data_dir + "/diamond.dot")).compute_tasks() == 4u);
  REQUIRE(compile(parse_dot(random_dag_text(5, 40, 4), "random")).compute_tasks() == 40u);
  // Generic plans keep the zero-time vertices as tasks but do not count them.
  const Plan sync = compile(synchronous(procs, p), generic_options());
  REQUIRE(sync.task_sampler.size() == 35u + 6u);
  const Plan nn = compile(nearest_neighbor(procs, p), generic_options());
  REQUIRE(nn.task_sampler.size() == 35u + 4u * 6u);

  REQUIRE_THROWS_AS(compile(master_slave(procs, p), generic_options()), InputError);
}

TEST_CASE("evaluation is deterministic and workspaces are reusable", "[plan]") {
  const auto procs = heterogeneous(6, 2, 0.5, Law::paper_normal());
  std::vector<Structure> all = regular_structures(procs, 20);
  all.push_back(master_slave(procs, 20));
  all.push_back(parse_dot(random_dag_text(11, 30, 3), "random"));
  for (const auto& s : all) {
    CAPTURE(s.name);
    const Plan plan = compile(s);
    Workspace ws(plan), fresh(plan);
    const double first = evaluate(plan, 42, 3, ws);
    const double other = evaluate(plan, 42, 5, ws);
    REQUIRE(evaluate(plan, 42, 3, ws) == first);
    REQUIRE(evaluate(plan, 42, 3, fresh) == first);
    // Different replications and seeds give different draws.
    REQUIRE(other != first);
    REQUIRE(evaluate(plan, 43, 3, ws) != first);
  }
}

}  // namespace plan_test
