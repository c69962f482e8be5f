// Engine speed against the speed of light: for each structure and law, the compiled plan beside a
// hand-written loop that draws the same variates from the same streams with the same Boost.Random
// distributions and does the same max/sum. Counters: time_per_task and reps_per_second.
//
//   ./build/hetstruct_bench --benchmark_counters_tabular=true
#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include "tests/reference/reference_protocols.h"
#include "engine/kernel/plan.h"
#include "structures/schedule.h"
#include "structures/structure.h"

namespace {

using namespace hetstruct;

constexpr int width = 8, fast_count = 3, levels = 1000;
constexpr double scale = 0.5;
constexpr std::uint64_t seed = 1;

structures::Processors processors(bool normal) {
  return structures::heterogeneous(width, fast_count, scale,
                                   normal ? distributions::Law::paper_normal() : distributions::Law::paper_uniform());
}

void set_counters(benchmark::State& state, double tasks = static_cast<double>(width) * levels) {
  // kInvert turns tasks per second into seconds per task (printed with an SI prefix: 4.2n = 4.2 ns).
  state.counters["time_per_task"] = benchmark::Counter(tasks, benchmark::Counter::kIsIterationInvariantRate |
                                                                  benchmark::Counter::kInvert);
  state.counters["reps_per_second"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}

// One replication per iteration of `plan`, with the counters of `tasks` tasks a replication.
void replications(benchmark::State& state, const engine::Plan& plan, engine::Workspace& ws, double tasks) {
  std::uint64_t rep = 0;
  for (auto _ : state) benchmark::DoNotOptimize(engine::evaluate(plan, seed, rep++, ws));
  set_counters(state, tasks);
}

// The engine: one replication per iteration of a plan compiled once.
void engine_plan(benchmark::State& state, structures::Structure (*build)(const structures::Processors&, int),
                 bool normal, bool generic) {
  const auto s = build(processors(normal), levels);
  engine::CompileOptions options;
  options.generic = generic;
  const auto plan = engine::compile(s, options);
  engine::Workspace ws(plan);
  std::uint64_t rep = 0;
  for (auto _ : state) benchmark::DoNotOptimize(engine::evaluate(plan, seed, rep++, ws));
  set_counters(state);
}

structures::Structure nn(const structures::Processors& p, int l) { return structures::nearest_neighbor(p, l); }

// The speed of light: the same draws (one stream per processor, the fast ones scaled by a) with
// the distribution objects used directly and the recurrence written out by hand.
template <class Dist>
struct Reference {
  Dist slow, fast;
  double draw(int i, engine::ProcessorStream& s) { return i < fast_count ? scale * fast(s) : slow(s); }
};

template <class Dist>
void reference_loop(benchmark::State& state, Dist dist, int kind) {
  Reference<Dist> ref{dist, dist};
  std::vector<engine::ProcessorStream> streams(width);
  std::vector<double> f(width), start(width), idle(width);
  std::uint64_t rep = 0;
  for (auto _ : state) {
    for (int i = 0; i < width; ++i) streams[i].reset(seed, rep, i);
    double result = 0.0;
    if (kind == 0) {  // asynchronous
      result = -std::numeric_limits<double>::infinity();
      for (int i = 0; i < width; ++i) {
        double sum = 0.0;
        for (int k = 0; k < levels; ++k) sum += ref.draw(i, streams[i]);
        result = std::max(result, sum);
      }
    } else if (kind == 1) {  // synchronous
      for (int k = 0; k < levels; ++k) {
        double longest = -std::numeric_limits<double>::infinity();
        for (int i = 0; i < width; ++i) longest = std::max(longest, ref.draw(i, streams[i]));
        result += longest;
      }
    } else if (kind == 2) {  // nearest neighbour, sequential exchanges
      std::fill(start.begin(), start.end(), 0.0);
      for (int k = 0; k < levels; ++k) {
        for (int i = 0; i < width; ++i) f[i] = start[i] + ref.draw(i, streams[i]);
        double e = f[0];
        for (int i = 0; i + 1 < width; ++i) start[i] = e = std::max(e, f[i + 1]);
        start[width - 1] = e;
      }
      result = *std::max_element(f.begin(), f.end());
    } else {  // task pool: earliest idle processor, linear scan
      std::fill(idle.begin(), idle.end(), 0.0);
      for (int t = 0; t < width * levels; ++t) {
        const int p = static_cast<int>(std::min_element(idle.begin(), idle.end()) - idle.begin());
        idle[p] += ref.draw(p, streams[p]);
      }
      result = *std::max_element(idle.begin(), idle.end());
    }
    benchmark::DoNotOptimize(result);
    ++rep;
  }
  set_counters(state);
}

void reference_uniform(benchmark::State& state, int kind) {
  reference_loop(state, boost::random::uniform_real_distribution<double>(0.0, 1.0), kind);
}
void reference_normal(benchmark::State& state, int kind) {
  reference_loop(state, boost::random::normal_distribution<double>(0.5, std::sqrt(1.0 / 12.0)), kind);
}

}  // namespace

BENCHMARK_CAPTURE(engine_plan, async_uniform, structures::asynchronous, false, false);
BENCHMARK_CAPTURE(reference_uniform, async, 0);
BENCHMARK_CAPTURE(engine_plan, async_normal, structures::asynchronous, true, false);
BENCHMARK_CAPTURE(reference_normal, async, 0);
BENCHMARK_CAPTURE(engine_plan, sync_uniform, structures::synchronous, false, false);
BENCHMARK_CAPTURE(reference_uniform, sync, 1);
BENCHMARK_CAPTURE(engine_plan, sync_normal, structures::synchronous, true, false);
BENCHMARK_CAPTURE(reference_normal, sync, 1);
BENCHMARK_CAPTURE(engine_plan, nn_uniform, nn, false, false);
BENCHMARK_CAPTURE(reference_uniform, nn, 2);
BENCHMARK_CAPTURE(engine_plan, nn_normal, nn, true, false);
BENCHMARK_CAPTURE(reference_normal, nn, 2);
BENCHMARK_CAPTURE(engine_plan, ms_uniform, structures::master_slave, false, false);
BENCHMARK_CAPTURE(reference_uniform, ms, 3);
BENCHMARK_CAPTURE(engine_plan, ms_normal, structures::master_slave, true, false);
BENCHMARK_CAPTURE(reference_normal, ms, 3);
// The generic DAG plan on the same structures: the price of not specialising.
BENCHMARK_CAPTURE(engine_plan, sync_uniform_generic_dag, structures::synchronous, false, true);
BENCHMARK_CAPTURE(engine_plan, nn_uniform_generic_dag, nn, false, true);

// Communication protocols (Wilson Section 5) at C = 0.1, one replication per iteration.
void protocol_plan(benchmark::State& state, structures::Structure (*build)(const structures::Processors&, int),
                   int n, int m) {
  const auto s = build(structures::heterogeneous(n, m, scale, distributions::Law::paper_normal()), levels);
  engine::CompileOptions options;
  options.comm_cost = 0.1;
  const auto plan = engine::compile(s, options);
  engine::Workspace ws(plan);
  replications(state, plan, ws, static_cast<double>(n) * levels);
}

BENCHMARK_CAPTURE(protocol_plan, sync_initiator_collector_8_3, structures::synchronous, 8, 3);
BENCHMARK_CAPTURE(protocol_plan, nn_default_8_3, nn, 8, 3);
BENCHMARK_CAPTURE(protocol_plan, ms_master_computes_8_3, structures::master_slave, 8, 3);
BENCHMARK_CAPTURE(protocol_plan, sync_initiator_collector_16_8, structures::synchronous, 16, 8);
BENCHMARK_CAPTURE(protocol_plan, nn_default_16_8, nn, 16, 8);
BENCHMARK_CAPTURE(protocol_plan, ms_master_computes_16_8, structures::master_slave, 16, 8);

// The protocols made faster in issue 11 against their frozen implementations
// (tests/reference/reference_protocols.cpp), in the same run: protocol/<structure>/<name>/<n>_<m>/<law>/C_0.1
// then /current or /reference. Wilson's Tables 4 and 7 (nn), 3 and 6 (sync) run at these widths.
// Reading 4 (sync initiator-collector-release*) came later: its /reference differs only in drawing
// through TaskTimes::next, so its /current stands beside the other synchronous protocols.
//
//   ./build/hetstruct_bench --benchmark_filter='^protocol/' --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
void protocol_version(benchmark::State& state, std::string structure, std::string name, int n, int m, bool normal,
                      bool reference) {
  const auto procs = structures::heterogeneous(n, m, scale, normal ? distributions::Law::paper_normal()
                                                                    : distributions::Law::paper_uniform());
  const auto s = structure == "nn"     ? structures::nearest_neighbor(procs, levels)
                 : structure == "sync" ? structures::synchronous(procs, levels)
                                       : structures::master_slave(procs, levels);
  engine::CompileOptions options;
  options.comm_cost = 0.1;
  options.protocol = &engine::find_protocol(s.kind, name);
  const auto plan = engine::compile(s, options);
  engine::Workspace ws(plan);
  if (reference) ws.protocol = engine::make_reference_protocol(structure, name, plan.comm);
  replications(state, plan, ws, static_cast<double>(n) * levels);
}

const bool protocol_versions_registered = [] {
  for (const char* structure : {"nn", "sync", "ms"})
    for (const auto& name : engine::reference_protocol_names(structure))
      for (const auto& [n, m] : {std::pair{8, 3}, std::pair{16, 8}})
        for (const bool normal : {true, false})
          for (const bool reference : {false, true}) {
            const std::string label = std::string("protocol/") + structure + "/" + name + "/" + std::to_string(n) +
                                      "_" + std::to_string(m) + (normal ? "/normal" : "/uniform") + "/C_0.1/" +
                                      (reference ? "reference" : "current");
            benchmark::RegisterBenchmark(label.c_str(), protocol_version, structure, name, n, m, normal, reference);
          }
  return true;
}();

// A custom DAG of `tasks` tasks on `width` processors (each task i on processor i % width; edges
// i -> i+1..i+3 and each processor's tasks chained), u(0,1) or n(1/2,1/12) tasks. `per_processor`
// forces the streams of the plan before one stream per replication (one Philox block per
// processor per replication): the "before" of the speed-up. `comm`: messages of that time.
structures::Structure layered_dag(int tasks, int width, bool normal) {
  structures::Structure s;
  s.kind = structures::StructureKind::custom;
  s.name = "bench";
  s.laws = {normal ? distributions::Law::paper_normal() : distributions::Law::paper_uniform()};
  auto& g = s.custom_graph();
  for (int v = 0; v < tasks; ++v) boost::add_vertex(structures::Task{structures::TaskKind::compute, v % width, 0, 0, ""}, g);
  for (int v = 0; v < tasks; ++v)
    for (int d = 1; d <= 3 && v + d < tasks; ++d)
      boost::add_edge(v, v + d, structures::Precedence{v % width != (v + d) % width, -1}, g);
  for (int v = width; v < tasks; ++v)
    if (!boost::edge(v - width, v, g).second) boost::add_edge(v - width, v, structures::Precedence{}, g);
  s.width = width;
  s.levels = 1;
  return s;
}

void dag_plan(benchmark::State& state, int tasks, int width, bool normal, bool per_processor, double comm, bool one_port) {
  const auto s = layered_dag(tasks, width, normal);
  engine::CompileOptions options;
  options.comm_cost = comm;
  if (one_port) options.port = engine::Port::one_port;
  auto plan = engine::compile(s, options);
  if (per_processor) plan.task_streams = engine::TaskStreams::per_processor;
  engine::Workspace ws(plan);
  std::uint64_t rep = 0;
  for (auto _ : state) benchmark::DoNotOptimize(engine::evaluate(plan, seed, rep++, ws));
  state.counters["time_per_task"] =
      benchmark::Counter(tasks, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// One task per processor (400 tasks, 400 processors) and many (400 tasks on 8 processors).
BENCHMARK_CAPTURE(dag_plan, one_per_processor_uniform_before, 400, 400, false, true, 0.0, false);
BENCHMARK_CAPTURE(dag_plan, one_per_processor_uniform, 400, 400, false, false, 0.0, false);
BENCHMARK_CAPTURE(dag_plan, one_per_processor_normal_before, 400, 400, true, true, 0.0, false);
BENCHMARK_CAPTURE(dag_plan, one_per_processor_normal, 400, 400, true, false, 0.0, false);
BENCHMARK_CAPTURE(dag_plan, many_per_processor_uniform_before, 400, 8, false, true, 0.0, false);
BENCHMARK_CAPTURE(dag_plan, many_per_processor_uniform, 400, 8, false, false, 0.0, false);
BENCHMARK_CAPTURE(dag_plan, one_per_processor_uniform_free_comm, 400, 400, false, false, 0.1, false);
BENCHMARK_CAPTURE(dag_plan, one_per_processor_uniform_one_port, 400, 400, false, false, 0.1, true);

// A 400-task layered DAG's plan, evaluated replication after replication.
void evaluate_400(benchmark::State& state, const structures::Structure& s) {
  const auto plan = engine::compile(s);
  engine::Workspace ws(plan);
  std::uint64_t rep = 0;
  for (auto _ : state) benchmark::DoNotOptimize(engine::evaluate(plan, seed, rep++, ws));
  state.counters["time_per_task"] =
      benchmark::Counter(400, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The same 400 tasks on 8 processors of `cores` cores each: each processor's chain a start order.
void dag_cores_plan(benchmark::State& state, int cores) {
  auto s = layered_dag(400, 8, false);
  auto& g = s.custom_graph();
  for (const auto e : boost::make_iterator_range(boost::edges(g)))
    if (!g[e].crosses_processors && boost::target(e, g) - boost::source(e, g) == 8) g[e].start_order = true;
  s.processor_cores.assign(8, cores);
  evaluate_400(state, s);
}
BENCHMARK_CAPTURE(dag_cores_plan, many_per_processor_uniform_4_cores, 4);
BENCHMARK_CAPTURE(dag_cores_plan, many_per_processor_uniform_32_cores, 32);

// The same 400 tasks on 8 processors of `cores` cores under ready dispatch (engine/kernel/plan.h):
// no chain, each processor's queue filled as the tasks' inputs come in, an event per finish.
void dag_ready_plan(benchmark::State& state, int cores) {
  auto s = layered_dag(400, 8, false);
  auto& g = s.custom_graph();
  std::vector<boost::graph_traits<structures::PrecedenceGraph>::edge_descriptor> chain;
  for (const auto e : boost::make_iterator_range(boost::edges(g)))
    if (!g[e].crosses_processors && boost::target(e, g) - boost::source(e, g) == 8) chain.push_back(e);
  for (const auto e : chain) boost::remove_edge(e, g);
  s.processor_cores.assign(8, cores);
  s.dispatch.assign(8, structures::Dispatch::ready);
  for (int v = 0; v < 400; ++v) g[static_cast<std::size_t>(v)].name = "t" + std::to_string(v);
  evaluate_400(state, s);
}
BENCHMARK_CAPTURE(dag_ready_plan, many_per_processor_uniform_1_core, 1);
BENCHMARK_CAPTURE(dag_ready_plan, many_per_processor_uniform_4_cores, 4);
BENCHMARK_CAPTURE(dag_ready_plan, many_per_processor_uniform_32_cores, 32);


// Static schedules (structures/schedule.h) of random DAGs of n tasks on q unrelated processors
// (8 unless a second argument): each task up to 3 predecessors among the `window` before it (all
// of them with window 0: wide graphs whose data is ready early, so that insertion searches long
// processor timelines), whole-number times 1-50, messages 1-30. Reported per task (items: tasks):
//
//   ./build/hetstruct_bench --benchmark_filter='^schedule'
structures::SchedulingProblem random_schedule_problem(std::size_t n, std::size_t q, std::size_t window) {
  boost::random::mt19937_64 rng(n);
  boost::random::uniform_int_distribution<int> time(1, 50), comm(1, 30), preds(1, 3);
  structures::SchedulingProblem problem;
  problem.processors = q;
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<double> row(q);
    for (auto& w : row) w = time(rng);
    problem.cost.push_back(row);
    if (j == 0) continue;
    boost::random::uniform_int_distribution<std::size_t> pick(window > 0 && j > window ? j - window : 0, j - 1);
    std::vector<std::size_t> from;
    for (int k = preds(rng); k > 0; --k) from.push_back(pick(rng));
    std::sort(from.begin(), from.end());
    from.erase(std::unique(from.begin(), from.end()), from.end());
    for (const auto i : from) problem.edges.push_back({i, j, static_cast<double>(comm(rng))});
  }
  return problem;
}

void schedule(benchmark::State& state, structures::ScheduleAlgorithm algorithm) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto problem = random_schedule_problem(n, 8, 50);
  for (auto _ : state) benchmark::DoNotOptimize(structures::schedule(problem, algorithm).makespan);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}

// HEFT on 16 processors, the window 50 or the whole past (the insertion search's worst case here).
void schedule_heft16(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto problem = random_schedule_problem(n, 16, static_cast<std::size_t>(state.range(1)));
  for (auto _ : state) benchmark::DoNotOptimize(structures::heft(problem).makespan);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}

BENCHMARK_CAPTURE(schedule, heft, structures::ScheduleAlgorithm::heft)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(schedule_heft16)->ArgsProduct({{1000, 10000, 100000}, {50, 0}})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(schedule, cpop, structures::ScheduleAlgorithm::cpop)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
