// Correlated slowdowns (engine/kernel/plan.h): a constant machine factor of 2 doubles every makespan
// exactly (every plan kind, the protocols with their C doubled too), a factor of 1 changes no bit,
// per-processor factors on async against an independent simulation written from the rules, one
// processor's p constant tasks take p t F (the makespan's mean and sd those of the law of F), the
// spread of the makespan grows with the factors', the same bits on 1 and 2 threads, and the
// refusals of everything that assumes independent times.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/law.h"
#include "distributions/sampler.h"
#include "engine/simulate/dag_model.h"
#include "engine/estimators/distribution.h"
#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/simulation.h"
#include "engine/kernel/streams.h"
#include "structures/structure.h"
#include "support.h"

namespace slowdown_test {

namespace {

using hetstruct::distributions::parse_law;
using hetstruct::distributions::Sampler;
using hetstruct::testing::error_of;
using namespace hetstruct::structures;
using namespace hetstruct::engine;

std::vector<Model> models() {
  std::vector<Model> m;
  for (const auto kind : {StructureKind::asynchronous, StructureKind::synchronous, StructureKind::nearest_neighbor,
                          StructureKind::master_slave})
    m.push_back(Model::wilson(kind, 5, 2, "1/2", "uniform", 6));
  m.push_back(Model::wilson(StructureKind::synchronous, 4, 1, "1/2", "normal", 5));
  return m;
}

TEST_CASE("slowdown: a machine factor c(2) doubles every makespan exactly, c(1) changes no bit", "[slowdown]") {
  std::vector<Model> all = models();
  Model graph;
  graph.graph = std::string(HETSTRUCT_TEST_DATA) + "/stencil4x4.dot";
  graph.comm = parse_comm_cost("0");
  all.push_back(graph);
  for (const Model& base : all) {
    Model doubled = base, same = base;
    doubled.machine_slowdown = parse_law_of("machine_slowdown", "c(2)");
    same.slowdown = parse_slowdown("c(1)");
    const Simulation a = prepare(base), b = prepare(doubled), c = prepare(same);
    Workspace wa(a.plan), wb(b.plan), wc(c.plan);
    INFO(a.structure.name << " " << to_string(a.plan.kind));
    for (std::uint64_t r = 0; r < 50; ++r) {
      const double x = evaluate(a.plan, 7, r, wa);
      REQUIRE(evaluate(b.plan, 7, r, wb) == 2.0 * x);
      REQUIRE(evaluate(c.plan, 7, r, wc) == x);
    }
  }
  // The protocols: the messages are not slowed, so 2x the times and 2C double the makespan exactly.
  for (const auto kind : {StructureKind::synchronous, StructureKind::nearest_neighbor, StructureKind::master_slave}) {
    const Model base = Model::wilson(kind, 4, 1, "1/2", "uniform", 5, 0.125);
    Model doubled = Model::wilson(kind, 4, 1, "1/2", "uniform", 5, 0.25);
    doubled.machine_slowdown = parse_law_of("machine_slowdown", "c(2)");
    const Simulation a = prepare(base), b = prepare(doubled);
    REQUIRE(a.plan.kind == PlanKind::protocol);
    Workspace wa(a.plan), wb(b.plan);
    for (std::uint64_t r = 0; r < 50; ++r) REQUIRE(evaluate(b.plan, 3, r, wb) == 2.0 * evaluate(a.plan, 3, r, wa));
  }
}

// The rules on async: factors from the stream (seed, r, 0) of domain slowdown, the machine's
// first, then processor 0, 1, ..., processor i's from factor_laws[i] (one law: every processor's);
// processor i's k-th task time is (M * F_i) times the k-th variate of its stream (seed, r, i); the
// makespan is the largest processor's sum. Checked against the plan on 200 replications.
void check_async_slowdowns(const Simulation& sim, const std::vector<std::string>& factor_laws,
                           const std::string& machine_law, int levels, std::uint64_t seed) {
  Workspace ws(sim.plan);
  const Sampler machine_factor(parse_law(machine_law));
  std::vector<Sampler> factors;
  for (const auto& t : factor_laws) factors.emplace_back(parse_law(t));
  for (std::uint64_t r = 0; r < 200; ++r) {
    ProcessorStream f(seed, r, 0, ProcessorStream::slowdown);
    const double machine = machine_factor(f);
    double expected = -1.0;
    for (int i = 0; i < sim.plan.width; ++i) {
      const double factor = machine * factors[factors.size() == 1 ? 0 : static_cast<std::size_t>(i)](f);
      ProcessorStream times(seed, r, i);
      const Sampler law(sim.structure.laws[i]);
      double sum = 0.0;
      for (int k = 0; k < levels; ++k) sum += factor * law(times);
      expected = std::max(expected, sum);
    }
    REQUIRE(evaluate(sim.plan, seed, r, ws) == expected);
  }
}

TEST_CASE("slowdown: per-processor factors on async against an independent simulation", "[slowdown]") {
  const int levels = 9;
  Model model = Model::wilson(StructureKind::asynchronous, 4, 2, "1/2", "uniform", levels);
  model.slowdown = parse_slowdown("u(1,3)");
  model.machine_slowdown = parse_law_of("machine_slowdown", "gamma(4,0.25)");
  check_async_slowdowns(prepare(model), {"u(1,3)"}, "gamma(4,0.25)", levels, 5);
}

TEST_CASE("slowdown: one law per processor, processor i's factor from law i, on async against the rules", "[slowdown]") {
  // The same rules with law i for processor i: the factors drawn in the same order from the same
  // stream, each from its processor's own law.
  const int levels = 5;
  const std::vector<std::string> texts{"c(1)", "mix(0.9:c(1),0.1:c(2))", "u(1,3)", "gamma(4,0.25)"};
  Model model = Model::wilson(StructureKind::asynchronous, 4, 2, "1/2", "uniform", levels);
  model.slowdown = parse_slowdown(texts[0] + "," + texts[1] + "," + texts[2] + "," + texts[3]);
  REQUIRE(model.slowdown->value.size() == 4);
  model.machine_slowdown = parse_law_of("machine_slowdown", "u(1,2)");
  const Simulation sim = prepare(model);
  CHECK(sim.plan.slowdown.processor_text() == "c(1),mix(0.9:c(1),0.1:c(2)),u(1,3),gamma(4,0.25)");
  check_async_slowdowns(sim, texts, "u(1,2)", levels, 9);
}

TEST_CASE("slowdown: a list of one law is that law, and a list of the wrong length is refused", "[slowdown]") {
  Model one = Model::wilson(StructureKind::synchronous, 3, 1, "1/2", "uniform", 4), listed = one;
  one.slowdown = parse_slowdown("u(1,2)");
  listed.slowdown = parse_slowdown("u(1,2),u(1,2),u(1,2)");
  const Simulation a = prepare(one), b = prepare(listed);
  Workspace wa(a.plan), wb(b.plan);
  for (std::uint64_t r = 0; r < 50; ++r) REQUIRE(evaluate(a.plan, 3, r, wa) == evaluate(b.plan, 3, r, wb));
  Model wrong = one;
  wrong.slowdown = parse_slowdown("c(1),c(2)");
  CHECK(error_of([&] { prepare(wrong); }) ==
        "slowdown: gives 2 laws, one per processor, but the model has 3 processors (give one law for every processor, "
        "or exactly one law per processor)");
  CHECK(error_of([&] { parse_slowdown("c(1),,c(2)"); }) ==
        "slowdown: 'c(1),,c(2)': law 2 of 3 is empty (give one law, or one law per processor separated by commas)");
  CHECK(error_of([&] { parse_slowdown("c(1),u(-1,1)"); }).empty());  // parsed; refused at compile:
  Model negative = one;
  negative.slowdown = parse_slowdown("c(1),c(1),u(-1,1)");
  CHECK(error_of([&] { prepare(negative); }).rfind("slowdown: the law u(-1,1) draws a negative factor", 0) == 0);
}

TEST_CASE("slowdown: one processor's p constant tasks take p t F, with the mean and sd of F's law", "[slowdown]") {
  // Four tasks of time 1.5 on one processor, F ~ u(1,3): makespan 6 F, mean 12, sd 6 * 2 / sqrt(12).
  const Structure s = parse_dot(
      "digraph { a [processor=0, law=\"c(1.5)\"]; b [processor=0, law=\"c(1.5)\"]; c [processor=0, law=\"c(1.5)\"]; "
      "d [processor=0, law=\"c(1.5)\"]; a -> b -> c -> d; }",
      "one.dot");
  CompileOptions options;
  options.slowdown.processor = {parse_law("u(1,3)")};
  const Plan plan = compile(s, options);
  Workspace ws(plan);
  const Sampler factor(parse_law("u(1,3)"));
  std::vector<double> makespans;
  for (std::uint64_t r = 0; r < 20000; ++r) {
    ProcessorStream f(9, r, 0, ProcessorStream::slowdown);
    const double F = factor(f);
    const double x = evaluate(plan, 9, r, ws);
    REQUIRE(std::abs(x - 6.0 * F) <= 1e-12 * x);  // ((F 1.5 + F 1.5) + F 1.5) + F 1.5
    makespans.push_back(x);
  }
  DistributionOptions asked;
  asked.sd = true;
  const Distribution d = describe_distribution(makespans, asked);
  const double sd = 12.0 / std::sqrt(12.0);
  CHECK(std::abs(d.mean - 12.0) < 4.0 * sd / std::sqrt(20000.0));
  CHECK(std::abs(d.sd.value - sd) < 4.0 * d.sd.stderr_);
}

TEST_CASE("slowdown: the makespan's spread grows with the factors' spread", "[slowdown]") {
  RunOptions run;
  run.reps = 4000;
  run.threads = 2;
  double previous = 0.0;
  for (const char* law : {"", "u(0.9,1.1)", "u(0.5,1.5)", "u(0,2)"}) {
    Model model = Model::wilson(StructureKind::synchronous, 8, 3, "1/2", "uniform", 20);
    if (*law) model.machine_slowdown = parse_law_of("machine_slowdown", law);
    const Estimate e = hetstruct::engine::run(prepare(model).plan, run);
    INFO(law);
    CHECK(e.stddev > previous);
    previous = e.stddev;
  }
}

TEST_CASE("slowdown: the same bits on 1 and 2 threads", "[slowdown]") {
  for (Model model : models()) {
    model.slowdown = parse_slowdown("lognormal(0,0.3)");
    model.machine_slowdown = parse_law_of("machine_slowdown", "u(1,2)");
    const Plan plan = prepare(model).plan;
    RunOptions run;
    run.reps = 500;
    run.threads = 1;
    const Estimate one = hetstruct::engine::run(plan, run);
    run.threads = 2;
    const Estimate two = hetstruct::engine::run(plan, run);
    CHECK(one.mean == two.mean);
    CHECK(one.stddev == two.stddev);
  }
}

TEST_CASE("slowdown: closed forms, estimates, controls and measures refused", "[slowdown]") {
  Model model = Model::wilson(StructureKind::synchronous, 4, 1, "1/2", "uniform", 5);
  model.slowdown = parse_slowdown("u(1,2)");
  Simulation sim = prepare(model);
  CHECK_FALSE(sim.closed_form);
  CHECK_FALSE(sim.estimators.exact);
  CHECK(sim.estimators.controls.size() == 0);
  RunOptions run;
  run.reps = 100;
  CHECK(error_of([&] { (void)check_run(sim, run, false, Estimator::cv); }).find("independent") != std::string::npos);
  CHECK(error_of([&] { (void)check_run(sim, run, true, Estimator::mc); }).find("metrics") != std::string::npos);
  CHECK(check_run(sim, run, false, Estimator::automatic) == Estimator::mc);
  CHECK(error_of([&] { (void)stochastic_dag(sim); }).find("slowdown") != std::string::npos);
  CHECK(histogram_marks(sim, {}).empty());
  const Record r = simulation_record(sim, 1);
  CHECK(r.text("slowdown") == "u(1,2)");
  model.slowdown = parse_slowdown("u(-1,2)");
  CHECK(error_of([&] { (void)prepare(model); }).find("negative factor") != std::string::npos);
  CHECK(error_of([&] { (void)parse_slowdown("u(1,"); }).rfind("slowdown", 0) == 0);
  // Without slowdowns the record has no such column.
  model.slowdown.reset();
  CHECK(simulation_record(prepare(model), 1).text("slowdown").empty());
}

}  // namespace

}  // namespace slowdown_test
