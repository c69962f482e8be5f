// Static schedules (structures/schedule.h): HEFT and CPOP on the worked example of Topcuoglu, Hariri
// and Wu (IEEE TPDS 2002) as exact values, their properties on random DAGs, the round trip
// schedule -> mapping file -> simulation at constant times, and unrelated processors (`costs`).
#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/app.h"
#include "engine/simulate/model.h"
#include "engine/simulate/record.h"
#include "engine/simulate/schedule_comparison.h"
#include "engine/simulate/simulation.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "structures/custom.h"
#include "structures/schedule.h"
#include "structures/task_graphs.h"
#include "support.h"

namespace schedule_test {

using namespace hetstruct;
using distributions::Law;
using structures::CustomDag;
using structures::Schedule;
using structures::ScheduleAlgorithm;
using testing::error_of;

namespace {

const std::string paper_graph = std::string(HETSTRUCT_TEST_DATA) + "/topcuoglu2002.dot";

CustomDag paper_dag() { return structures::parse_dot_dag(structures::read_text_file(paper_graph, "graph"), "paper.dot"); }

Schedule paper_schedule(ScheduleAlgorithm algorithm) {
  structures::ScheduleOptions options;
  options.algorithm = algorithm;
  return structures::schedule_dag(paper_dag(), options, "paper.dot");
}

// The makespan the simulator gives a built structure at constant times (every replication the same).
double simulated(const structures::Structure& s, double comm = 0.0) {
  engine::CompileOptions compile;
  compile.comm_cost = comm;
  engine::RunOptions run;
  run.reps = 3;
  run.threads = 1;
  const auto e = engine::run(engine::compile(s, compile), run);
  REQUIRE(e.min == e.max);
  return e.mean;
}

// Builds `dag` with the processors and orders of a mapping file written from `schedule`.
structures::Structure through_mapping_file(CustomDag dag, const Schedule& schedule) {
  std::vector<std::string> names;
  for (const auto& t : dag.tasks) names.push_back(t.name);
  const auto mapping = structures::parse_mapping(structures::mapping_text(schedule, names), "s.map");
  structures::apply_mapping(mapping, dag);
  return structures::build_custom(dag, "dag");
}

// A random DAG of n tasks with constant times: edges i -> j (i < j) with probability `density`;
// unrelated costs on q processors, or one law per task on processors of the given scales.
CustomDag random_dag(std::mt19937_64& rng, std::size_t n, std::size_t q, double density, bool unrelated, bool whole) {
  std::uniform_real_distribution<double> u(1.0, 20.0), coin(0.0, 1.0);
  const auto time = [&] { return whole ? std::floor(u(rng)) : u(rng); };
  CustomDag dag;
  for (std::size_t i = 0; i < n; ++i) {
    structures::CustomTask t;
    t.name = "t" + std::to_string(i);
    if (unrelated) {
      for (std::size_t p = 0; p < q; ++p) t.costs.push_back(dag.law_index(Law::constant(time())));
      t.processor = -1;
    } else {
      t.law = dag.law_index(Law::constant(time()));
    }
    dag.tasks.push_back(t);
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (coin(rng) < density) dag.edges.push_back({i, j, dag.law_index(Law::constant(time()))});
  if (!unrelated)
    for (std::size_t p = 0; p < q; ++p) dag.processor_scale.push_back(p == 0 ? 1.0 : 0.5 + 0.25 * static_cast<double>(p));
  return dag;
}

}  // namespace

TEST_CASE("HEFT reproduces the worked example of Topcuoglu, Hariri and Wu (2002): makespan 80", "[schedule]") {
  const Schedule s = paper_schedule(ScheduleAlgorithm::heft);
  CHECK(s.makespan == 80.0);
  // The paper's Fig. 4(a), processors P1, P2, P3 numbered 0, 1, 2: (processor, start, finish) of n1..n10.
  const std::vector<std::tuple<int, double, double>> expected = {
      {2, 0, 9}, {0, 27, 40}, {2, 9, 28}, {1, 18, 26}, {2, 28, 38},
      {1, 26, 42}, {2, 38, 49}, {0, 57, 62}, {1, 56, 68}, {1, 73, 80}};
  REQUIRE(s.tasks.size() == expected.size());
  for (std::size_t v = 0; v < expected.size(); ++v) {
    INFO("task n" << v + 1);
    CHECK(s.tasks[v].processor == std::get<0>(expected[v]));
    CHECK(s.tasks[v].start == std::get<1>(expected[v]));
    CHECK(s.tasks[v].finish == std::get<2>(expected[v]));
  }
  // The paper's upward ranks (its Table 1, to three decimals).
  const std::vector<double> ranks = {108.000, 77.000, 80.000, 80.000, 69.000, 63.333, 42.667, 35.667, 44.333, 14.667};
  for (std::size_t v = 0; v < ranks.size(); ++v) CHECK(s.upward_rank[v] == Approx(ranks[v]).margin(5e-4));
}

TEST_CASE("CPOP reproduces the worked example of Topcuoglu, Hariri and Wu (2002): makespan 86", "[schedule]") {
  const Schedule s = paper_schedule(ScheduleAlgorithm::cpop);
  CHECK(s.makespan == 86.0);
  // The critical path n1, n2, n9, n10 (|CP| = 108), all on P2 (index 1): 16 + 19 + 12 + 7 = 54 there.
  const std::vector<bool> critical = {true, true, false, false, false, false, false, false, true, true};
  CHECK(s.critical == critical);
  for (const std::size_t v : {0, 1, 8, 9}) CHECK(s.tasks[v].processor == 1);
  const auto down = structures::downward_ranks(structures::scheduling_problem(paper_dag(), {}, "paper.dot"));
  CHECK(down[0] == 0.0);
  CHECK(down[9] == Approx(93.333).margin(5e-4));  // rank_u + rank_d of the exit is |CP| = 108
}

TEST_CASE("A paper schedule through a mapping file simulates to its makespan bit for bit", "[schedule]") {
  for (const auto algorithm : {ScheduleAlgorithm::heft, ScheduleAlgorithm::cpop, ScheduleAlgorithm::heft_sd}) {
    INFO(structures::to_string(algorithm));
    const Schedule s = paper_schedule(algorithm);
    CHECK(simulated(through_mapping_file(paper_dag(), s)) == s.makespan);
  }
  // The same through the model, computed on the fly (simulate --schedule).
  engine::Model model;
  model.graph = paper_graph;
  model.task_graph.schedule = structures::ScheduleOptions{};
  const auto s = model.build();
  REQUIRE(s.schedule);
  CHECK(s.unrelated);
  CHECK(s.width == 3);
  CHECK(simulated(s) == 80.0);
}

TEST_CASE("Schedules of random DAGs respect precedences and orders, and replay and simulate to their makespan", "[schedule]") {
  std::mt19937_64 rng(20260127);
  for (int round = 0; round < 40; ++round) {
    const bool unrelated = round % 2 == 0, whole = round % 4 < 2;
    const std::size_t n = 5 + static_cast<std::size_t>(round), q = 1 + static_cast<std::size_t>(round % 4);
    const CustomDag dag = random_dag(rng, n, q, round % 3 == 0 ? 0.5 : 0.15, unrelated, whole);
    for (const auto algorithm : {ScheduleAlgorithm::heft, ScheduleAlgorithm::cpop}) {
      INFO("round " << round << ", " << structures::to_string(algorithm));
      structures::ScheduleOptions options;
      options.algorithm = algorithm;
      const auto problem = structures::scheduling_problem(dag, options, "random");
      const Schedule s = structures::schedule(problem, algorithm);
      // Every precedence: the message, if the processors differ, arrives before the start.
      for (const auto& e : problem.edges) {
        const auto &a = s.tasks[e.from], &b = s.tasks[e.to];
        CHECK(b.start >= a.finish + (a.processor == b.processor ? 0.0 : e.comm));
      }
      // Each processor runs one task at a time, in its order; each task's finish is its start plus its time.
      std::size_t placed = 0;
      for (std::size_t p = 0; p < s.order.size(); ++p)
        for (std::size_t k = 0; k < s.order[p].size(); ++k) {
          const auto v = s.order[p][k];
          ++placed;
          CHECK(s.tasks[v].processor == static_cast<int>(p));
          CHECK(s.tasks[v].finish == s.tasks[v].start + problem.cost[v][p]);
          if (k > 0) CHECK(s.tasks[v].start >= s.tasks[s.order[p][k - 1]].finish);
        }
      CHECK(placed == n);
      // As soon as possible in the schedule's orders gives the schedule's own times (insertion leaves
      // no gap a task could have started in), and so does the simulator at constant times.
      const Schedule again = structures::replay(s, problem);
      for (std::size_t v = 0; v < n; ++v) CHECK(again.tasks[v].start == s.tasks[v].start);
      CHECK(again.makespan == s.makespan);
      CHECK(simulated(through_mapping_file(dag, s)) == s.makespan);
    }
  }
}

TEST_CASE("HEFT on one processor runs the tasks back to back in decreasing upward rank", "[schedule]") {
  structures::SchedulingProblem p;
  p.processors = 1;
  p.cost = {{2.0}, {3.0}, {4.0}};
  p.edges = {{0, 1, 5.0}, {0, 2, 5.0}};
  const Schedule s = structures::heft(p);
  CHECK(s.makespan == 9.0);  // no message on one processor
  CHECK(s.order[0] == std::vector<std::size_t>{0, 2, 1});
}

TEST_CASE("heft-sd schedules on mean + k sd and reports the mean times", "[schedule]") {
  // a varies (mean 1, sd 0.577), b does not; c needs both. With k = 3, a counts as 2.73.
  CustomDag dag;
  dag.tasks.push_back({"a", 0, dag.law_index(Law::uniform(0.0, 2.0)), std::nullopt, 1, {}});
  dag.tasks.push_back({"b", 0, dag.law_index(Law::constant(1.0)), std::nullopt, 1, {}});
  dag.tasks.push_back({"c", 1, dag.law_index(Law::constant(1.0)), std::nullopt, 1, {}});
  dag.edges.push_back({0, 2, -1});
  dag.edges.push_back({1, 2, -1});
  structures::ScheduleOptions options;
  options.algorithm = ScheduleAlgorithm::heft_sd;
  options.sd_weight = 3.0;  // a counts as 1 + 3 sqrt(1/3) = 2.73: ranked first
  options.comm_cost = 0.5;
  const Schedule s = structures::schedule_dag(dag, options, "d");
  CHECK(s.algorithm == ScheduleAlgorithm::heft_sd);
  CHECK(s.tasks[0].start == 0.0);
  CHECK(s.tasks[0].finish == 1.0);  // the mean time, not mean + k sd
  CHECK(s.tasks[2].processor == 0);
  CHECK(s.makespan == 2.5);         // c after a on its processor, b's message 0.5 after b
  options.sd_weight = -1.0;
  CHECK(error_of([&] { structures::schedule_dag(dag, options, "d"); }).find("sd_weight") == 0);
}

TEST_CASE("costs give each task its time on each processor, and bad costs are refused with file, line and token", "[schedule][dot]") {
  const auto dot = [](const std::string& text) { return structures::parse_dot(text, "c.dot"); };
  // A task's law is its processor's entry: b on processor 1 takes n(5,1)'s mean, not c(20).
  const auto s = dot("digraph { a [costs=\"2,4\", processor=0]; b [costs=\"c(20),n(5,1)\", processor=1]; a -> b [comm=1]; }");
  CHECK(s.unrelated);
  CHECK(s.width == 2);
  CHECK(s.laws[static_cast<std::size_t>(s.graph()[1].law)] == Law::normal(5.0, 1.0));
  // The machine has as many processors as the costs, idle ones too.
  CHECK(dot("digraph { a [costs=\"1,2,3\", processor=0]; }").width == 3);
  CHECK(error_of([&] { dot("digraph {\n a [costs=\"1,2,3\", processor=0];\n b [costs=\"1,2\", processor=0];\n a -> b; }"); }) ==
        "c.dot:3: vertex 'b': costs '1,2' gives 2 times, but vertex 'a' gives 3 (give every vertex one time per processor)");
  CHECK(error_of([&] { dot("digraph {\n a [costs=\"1,x(2),3\", processor=0];\n}"); })
            .find("c.dot:2: vertex 'a': costs '1,x(2),3': 'x(2)': ") == 0);
  CHECK(error_of([&] { dot("digraph {\n a [costs=\"1,-2\", processor=0];\n}"); }).find("c.dot:2: vertex 'a': costs '1,-2': '-2' is not a time >= 0") == 0);
  CHECK(error_of([&] { dot("digraph {\n a [costs=\"1,2\", law=\"c(1)\", processor=0];\n}"); }).find("c.dot:2: vertex 'a': gives both law and costs") == 0);
  CHECK(error_of([&] { dot("digraph {\n a [costs=\"1,2\", processor=2];\n}"); })
            .find("c.dot:2: vertex 'a': processor 2 is not one of the 2 processors its costs give") == 0);
  CHECK(error_of([&] { dot("digraph {\n a [costs=\"1,2\", processor=0];\n b [law=\"c(1)\", processor=0];\n}"); })
            .find("c.dot:3: vertex 'b': has no costs, but vertex 'a' gives them") == 0);
  CHECK(error_of([&] { dot("digraph {\n graph [processor_scale=\"1,2\"];\n a [costs=\"1,2\", processor=0];\n}"); })
            .find("c.dot:2: processor_scale does not apply beside costs") == 0);
  CHECK(error_of([&] { structures::schedule_dag(structures::parse_dot_dag("digraph { a [costs=\"1\"]; b [costs=\"2\"]; a -> b -> a; }", "y.dot"), {}, "y.dot"); }) ==
        "y.dot: the graph has a cycle: 'a' -> 'b' -> 'a' (a precedence graph must be acyclic)");
  // A problem built by hand with a cycle is a programming error, not bad input.
  structures::SchedulingProblem looped;
  looped.processors = 1;
  looped.cost = {{1.0}, {1.0}};
  looped.edges = {{0, 1, 0.0}, {1, 0, 0.0}};
  CHECK_THROWS_AS(structures::heft(looped), std::logic_error);
  CHECK(error_of([&] { dot("digraph {\n a [costs=\"1,2\"];\n}"); }) ==
        "c.dot: task 'a': has no processor (give processor=, a mapping file (mapping) or a schedule)");
  // Processor scales on top of costs are refused by the model, with or without a schedule.
  testing::TempDir dir;
  const std::string mapped = (dir.path / "mapped.dot").string();
  {
    std::ofstream out(mapped);
    out << "digraph { a [costs=\"1,2\", processor=0]; b [costs=\"3,4\", processor=1]; a -> b; }\n";
  }
  engine::Model model;
  model.graph = mapped;
  model.processor_scales = hetstruct::engine::parse_processor_scales("1,1");
  CHECK(error_of([&] { model.build(); }) ==
        "processor_scale: does not apply to a graph whose vertices give costs (each vertex's costs give its time on each processor)");
  model.processor_scales.clear();
  model.fast_count = 1;
  CHECK(error_of([&] { model.build(); }).find("fast_count: does not apply to a graph whose vertices give costs") == 0);
  model.task_graph.schedule = structures::ScheduleOptions{};
  CHECK(error_of([&] { model.build(); }).find("fast_count: a schedule takes the machine the graph file") == 0);
  model.fast_count = 0;
  model.processor_scales = hetstruct::engine::parse_processor_scales("1,1");
  CHECK(error_of([&] { model.build(); }).find("processor_scale: does not apply to a graph whose vertices give costs") == 0);
  model.processor_scales.clear();
  CHECK(model.build().schedule->makespan == 4.0);  // a on 0, b on 0: 1 + 3, no message
}

TEST_CASE("A schedule of related processors: a task's time is its law's mean times the processor's scale", "[schedule]") {
  // Two tasks of mean 4 joined by a message of 10: the fast processor (scale 1/2) takes both, 2 + 2.
  const CustomDag dag = structures::parse_dot_dag(
      "digraph { graph [processor_scale=\"1,1/2\"]; a [law=\"u(3,5)\", processor=0]; b [law=\"c(4)\", processor=0]; "
      "a -> b [comm=10]; }",
      "r.dot");
  const Schedule s = structures::schedule_dag(dag, {}, "r.dot");
  CHECK(s.makespan == 4.0);
  CHECK(s.tasks[0].processor == 1);
  CHECK(s.tasks[1].processor == 1);
  // --scales give the machine instead of the file's: three equal processors.
  structures::ScheduleOptions options;
  options.scales = {1.0, 1.0, 1.0};
  CHECK(structures::schedule_dag(dag, options, "r.dot").makespan == 8.0);
}

TEST_CASE("hetstruct schedule writes a mapping file that simulate --mapping reads back to the same makespan", "[schedule][cli]") {
  testing::TempDir dir;
  const std::string map = (dir.path / "heft.map").string(), out = (dir.path / "rows.csv").string();
  const auto run = [](std::vector<std::string> args) {
    args.insert(args.begin(), "hetstruct");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    return cli::run(static_cast<int>(argv.size()), argv.data());
  };
  for (const std::string algorithm : {"heft", "cpop"}) {
    INFO(algorithm);
    REQUIRE(run({"schedule", "--graph", paper_graph, "--algorithm", algorithm, "--output-mapping", map, "--out", out}) == 0);
    const auto rows = engine::records_of_csv(structures::read_text_file(out, "rows"));
    REQUIRE(rows.size() == 10);
    const std::string makespan = algorithm == "heft" ? "80" : "86";
    for (const auto& r : rows) CHECK(r.text("makespan") == makespan);
    REQUIRE(run({"simulate", "--graph", paper_graph, "--mapping", map, "--reps", "4", "--format", "csv", "--out", out}) == 0);
    const auto simulated = engine::records_of_csv(structures::read_text_file(out, "simulate"));
    REQUIRE(simulated.size() == 1);
    CHECK(simulated[0].text("mean") == makespan);
    CHECK(simulated[0].text("min") == makespan);
    CHECK(simulated[0].text("max") == makespan);
  }
}

TEST_CASE("Schedules compared on common random numbers: exact at constant times, paired under noise", "[schedule]") {
  engine::Model model;
  model.graph = paper_graph;
  model.task_graph.schedule = structures::ScheduleOptions{};
  engine::RunOptions run;
  run.reps = 200;
  run.threads = 2;
  const auto rows = engine::compare_schedules(model, {ScheduleAlgorithm::cpop}, run);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].text("schedule") == "heft");
  CHECK(rows[0].text("value") == "80");
  CHECK(rows[1].text("value") == "86");
  CHECK(rows[2].text("quantity") == "difference");
  CHECK(rows[2].text("value") == "-6");
  CHECK(rows[2].text("stderr") == "0");
  CHECK(rows[3].text("quantity") == "ratio");
  CHECK(std::stod(rows[3].text("value")) == Approx(80.0 / 86.0).epsilon(1e-15));
  // Normal times: the paired difference is the difference of the two means (the same draws), with
  // a standard error below the unpaired one; the same bits on one thread.
  model.graph = std::string(HETSTRUCT_TEST_DATA) + "/topcuoglu2002_cv30.dot";
  run.reps = 2000;
  const auto noisy = engine::compare_schedules(model, {ScheduleAlgorithm::cpop}, run);
  const double a = std::stod(noisy[0].text("value")), b = std::stod(noisy[1].text("value"));
  const double sa = std::stod(noisy[0].text("stderr")), sb = std::stod(noisy[1].text("stderr"));
  CHECK(std::stod(noisy[2].text("value")) == Approx(a - b).epsilon(1e-12));
  CHECK(std::stod(noisy[2].text("stderr")) < 0.8 * std::sqrt(sa * sa + sb * sb));
  run.threads = 1;
  const auto one = engine::compare_schedules(model, {ScheduleAlgorithm::cpop}, run);
  for (std::size_t i = 0; i < noisy.size(); ++i) CHECK(engine::csv_line(one[i]) == engine::csv_line(noisy[i]));
  CHECK(error_of([&] { engine::compare_schedules(model, {ScheduleAlgorithm::heft}, run); }).find("compare_to: compares the schedule heft with itself") == 0);
}

TEST_CASE("A schedule compared with none, the file's own placement: an STG file's longest path", "[schedule]") {
  engine::Model model;
  model.graph = std::string(HETSTRUCT_TEST_DATA) + "/sample.stg";
  model.processor_scales = hetstruct::engine::parse_processor_scales("1,1/2");
  model.task_graph.schedule = structures::ScheduleOptions{};
  engine::RunOptions run;
  run.reps = 50;
  run.threads = 2;
  // Constant times: HEFT on processors of scales 1 and 1/2 takes 6.5; each task on a processor of
  // its own at scale 1 is the critical path 1 -> 2 -> 4, 3 + 4 + 6 = 13.
  const auto rows = engine::compare_schedules(model, {engine::ScheduleChoice(engine::ScheduleChoice::Placement::none)}, run);
  REQUIRE(rows.size() == 4);
  CHECK(rows[1].text("schedule") == "none");
  CHECK(rows[1].text("planned_makespan").empty());
  CHECK(rows[1].text("value") == "13");
  CHECK(rows[2].text("against") == "none");
  CHECK(rows[2].text("value") == "-6.5");
  CHECK(rows[2].text("stderr") == "0");
  // Normal times at 30%: none's mean is the plain simulation's of the graph without a schedule and
  // scales, bit for bit, and the paired difference the difference of the two means.
  model.task_graph.law = {structures::TaskLawShape::normal, 0.3};
  run.reps = 2000;
  const auto noisy = engine::compare_schedules(model, {ScheduleAlgorithm::cpop, engine::ScheduleChoice(engine::ScheduleChoice::Placement::none)}, run);
  REQUIRE(noisy.size() == 7);
  engine::Model plain = model;
  plain.task_graph.schedule.reset();
  plain.processor_scales.clear();
  const engine::Estimate e = engine::run(engine::prepare(plain).plan, run);
  CHECK(noisy[2].text("value") == engine::Record().add("v", e.mean).text("v"));
  const double a = std::stod(noisy[0].text("value")), c = std::stod(noisy[2].text("value"));
  CHECK(std::stod(noisy[5].text("value")) == Approx(a - c).epsilon(1e-12));
  CHECK(engine::parse_schedule_choice("none").name() == "none");
  CHECK(engine::parse_schedule_choice("one-per-task").name() == "one-per-task");
  CHECK(engine::parse_schedule_choice("cpop") == engine::ScheduleChoice(ScheduleAlgorithm::cpop));
  CHECK(error_of([&] { (void)engine::parse_schedule_choice("one"); }).find("schedule: unknown algorithm 'one'") == 0);
}

TEST_CASE("A schedule compared with one processor per task: every edge's message, whatever the file names", "[schedule]") {
  // a (2) -> b (3) and a -> c (1) with a message of 1, all on processor 0 in the file. HEFT on that
  // one processor runs them in turn: 6. One processor per task: b after a, c after a's message:
  // max(2 + 3, 2 + 1 + 1) = 5. The file's own placement (none) is HEFT's here: 6.
  testing::TempDir dir;
  const std::string path = (dir.path / "three.dot").string();
  std::ofstream(path) << "digraph { a [processor=0, law=\"c(2)\"]; b [processor=0, law=\"c(3)\"]; c [processor=0, law=\"c(1)\"];"
                         " a -> b; a -> c [comm=1]; }";
  engine::Model model;
  model.graph = path;
  model.task_graph.schedule = structures::ScheduleOptions{};
  engine::RunOptions run;
  run.reps = 20;
  const auto rows = engine::compare_schedules(
      model, {engine::parse_schedule_choice("one-per-task"), engine::parse_schedule_choice("none")}, run);
  REQUIRE(rows.size() == 7);
  CHECK(rows[0].text("value") == "6");
  CHECK(rows[1].text("schedule") == "one-per-task");
  CHECK(rows[1].text("value") == "5");
  CHECK(rows[2].text("value") == "6");
  CHECK(rows[3].text("against") == "one-per-task");
  CHECK(rows[3].text("value") == "1");
  CHECK(rows[5].text("value") == "0");
  // A graph of costs has only its costs' processors.
  model.graph = paper_graph;
  CHECK(error_of([&] { engine::compare_schedules(model, {engine::parse_schedule_choice("one-per-task")}, run); })
            .find("is not one of the 3 processors its costs give") != std::string::npos);
}

TEST_CASE("Schedules of DAGs with zero-time tasks keep every precedence (a chain of zero costs was refused)", "[schedule]") {
  // A zero-time task ready at t went in front of a zero-time predecessor's slot [t, t): the order
  // then contradicted the precedences (25 and 27 of 60 such DAGs under HEFT and CPOP, heft-sd an
  // internal error).
  std::mt19937_64 engine(3);
  for (int round = 0; round < 60; ++round) {
    CustomDag dag;
    const int n = 12;
    std::bernoulli_distribution zero(0.6), linked(0.25);
    std::uniform_int_distribution<int> cost(1, 9);
    for (int v = 0; v < n; ++v) {
      structures::CustomTask t;
      t.name = "t" + std::to_string(v);
      for (int p = 0; p < 3; ++p) t.costs.push_back(dag.law_index(Law::constant(zero(engine) ? 0.0 : cost(engine))));
      dag.tasks.push_back(t);
    }
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        if (linked(engine)) dag.edges.push_back({static_cast<std::size_t>(a), static_cast<std::size_t>(b), dag.law_index(Law::constant(0.0))});
    for (const auto algorithm : {ScheduleAlgorithm::heft, ScheduleAlgorithm::cpop, ScheduleAlgorithm::heft_sd}) {
      structures::ScheduleOptions options;
      options.algorithm = algorithm;
      CAPTURE(round, structures::to_string(algorithm));
      const Schedule schedule = structures::schedule_dag(dag, options, "zero.dot");
      CustomDag placed = dag;
      structures::apply_schedule(schedule, placed);
      REQUIRE(error_of([&] { structures::build_custom(placed, "zero.dot"); }) == "");
      for (const auto& e : dag.edges) REQUIRE(schedule.tasks[e.from].finish <= schedule.tasks[e.to].start);
    }
  }
}

}  // namespace schedule_test
