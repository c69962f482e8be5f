// The registry's static schedulers (structures/schedule_registry.h): each makespan on the worked
// example of Topcuoglu, Hariri and Wu (IEEE TPDS 2002) as an exact value (the values from
// the rules of docs/schedule.md), each schedule simulated at constant times to its planned
// makespan, the registry's names, and the append schedulers' refusal of several cores. The
// comparison with an independent implementation on random DAGs is tests/reference/schedulers.py.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/model.h"
#include "structures/custom.h"
#include "structures/schedule.h"
#include "structures/schedule_registry.h"
#include "structures/task_graphs.h"
#include "support.h"

namespace schedulers_test {

using namespace hetstruct;
using structures::ScheduleAlgorithm;

namespace {

const std::string paper_graph = std::string(HETSTRUCT_TEST_DATA) + "/topcuoglu2002.dot";

structures::Schedule paper_schedule(ScheduleAlgorithm algorithm, std::vector<int> cores = {}) {
  structures::ScheduleOptions options;
  options.algorithm = algorithm;
  options.cores = std::move(cores);
  const auto dag = structures::parse_dot_dag(structures::read_text_file(paper_graph, "graph"), "paper.dot");
  return structures::schedule_dag(dag, options, "paper.dot");
}

}  // namespace

TEST_CASE("Every scheduler's makespan on the 2002 paper's example", "[schedule][schedulers]") {
  const std::vector<std::pair<std::string, double>> expected = {
      {"heft", 80}, {"cpop", 86}, {"peft", 85}, {"etf", 99}, {"min-min", 80}, {"max-min", 102},
      {"sufferage", 89}, {"mct", 80}, {"met", 80}, {"olb", 111}};
  for (const auto& [name, makespan] : expected) {
    INFO(name);
    const auto s = paper_schedule(structures::parse_schedule_algorithm(name));
    CHECK(s.makespan == makespan);
    CHECK(std::string(structures::to_string(s.algorithm)) == name);
  }
}

TEST_CASE("PEFT's optimistic cost table on the 2002 example", "[schedule][schedulers]") {
  const auto dag = structures::parse_dot_dag(structures::read_text_file(paper_graph, "graph"), "paper.dot");
  const auto problem = structures::scheduling_problem(dag, {}, "paper.dot");
  const auto oct = structures::optimistic_cost_table(problem);
  // Exit n10 (times 21, 7, 16): 0. n7 (only successor n10, c = 17): on processor 0, min(21, 7 + 17,
  // 16 + 17) = 21; on 1, min(21 + 17, 7, 16 + 17) = 7; on 2, min(38, 24, 16) = 16.
  CHECK(oct[9] == std::vector<double>{0, 0, 0});
  CHECK(oct[6] == std::vector<double>{21, 7, 16});
  // n8 (successor n10, c = 11): min(21, 18, 27) = 18 on P1; min(32, 7, 27) = 7; min(32, 18, 16) = 16.
  CHECK(oct[7] == std::vector<double>{18, 7, 16});
}

TEST_CASE("Every scheduler's schedule simulates at constant times to its planned makespan", "[schedule][schedulers]") {
  for (const auto& info : structures::schedulers()) {
    INFO(info.name);
    engine::Model model;
    model.graph = paper_graph;
    model.task_graph.schedule = structures::ScheduleOptions{};
    model.task_graph.schedule->algorithm = info.algorithm;
    const auto s = model.build();
    REQUIRE(s.schedule);
    engine::RunOptions run;
    run.reps = 3;
    run.threads = 1;
    const auto e = engine::run(engine::compile(s, {}), run);
    CHECK(e.min == e.max);
    CHECK(e.mean == paper_schedule(info.algorithm).makespan);
  }
}

TEST_CASE("The registry names each scheduler once and parses its names back", "[schedule][schedulers]") {
  CHECK(structures::schedule_names() == "heft, cpop, heft-sd, peft, etf, min-min, max-min, sufferage, mct, met or olb");
  CHECK(structures::schedule_names("|", "|") == "heft|cpop|heft-sd|peft|etf|min-min|max-min|sufferage|mct|met|olb");
  for (const auto& info : structures::schedulers()) CHECK(structures::parse_schedule_algorithm(info.name) == info.algorithm);
  CHECK(testing::error_of([] { structures::parse_schedule_algorithm("minmin"); }).find("choose heft, cpop") != std::string::npos);
}

TEST_CASE("Append schedulers refuse processors of several cores, PEFT takes them", "[schedule][schedulers]") {
  for (const auto& info : structures::schedulers()) {
    INFO(info.name);
    if (info.insertion) {
      CHECK(paper_schedule(info.algorithm, {2}).makespan > 0.0);
    } else {
      const std::string error = testing::error_of([&] { paper_schedule(info.algorithm, {2}); });
      CHECK(error.find("appends tasks to processors of one core") != std::string::npos);
      CHECK(error.find("processor_cores") != std::string::npos);
    }
  }
}

}  // namespace schedulers_test
