// simulate's --compare-to through the library: a model as a one-configuration sweep
// (engine::model_sweep, engine::model_sweep_records), whose rows are the sweep's bit for bit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "distributions/input_error.h"
#include "distributions/law.h"
#include "distributions/sampler.h"
#include "engine/kernel/streams.h"
#include "engine/simulate/simulation.h"
#include "engine/sweep/sweep.h"
#include "support.h"

namespace simulate_compare_test {

using namespace hetstruct;
using namespace hetstruct::engine;

namespace {

// The rows of a sweep of the grid `texts` (one configuration), run as `hetstruct sweep` runs it in
// one process: every run dealt to one worker, computed in order.
std::string sweep_csv(const std::array<std::vector<std::string>, SweepDim::count>& texts,
                      const std::vector<std::string>& graphs, const std::vector<Comparison>& comparisons,
                      const RunOptions& options, const std::optional<MeanEstimator>& mean = std::nullopt,
                      const DistributionOptions& distribution = {}, const SweepSlowdowns& slowdowns = {}) {
  SweepEntries valid = build_entries(make_grids(texts, graphs, {}, 100, slowdowns), comparisons, false);
  REQUIRE(valid.entries.size() == 1);
  const auto runs = plan_runs(valid.entries, mean);
  SweepShare share;
  share.pieces = deal_blocks(run_work(runs, options.reps), 1).front();
  share.distribution = distribution;
  std::string csv;
  share.entry_done = [&](const Entry& entry, const Job& job) {
    for (const auto& r : config_records(entry, job, comparisons, share.estimates, options.seed, share.extras))
      csv += csv_line(r);
  };
  share.compute(valid.entries, runs, comparisons.size(), options);
  return csv;
}

std::string csv_of(const std::vector<Record>& rows) {
  std::string csv;
  for (const auto& r : rows) csv += csv_line(r);
  return csv;
}

double number(const Record& r, const std::string& name) { return std::stod(r.text(name)); }

const Record& row_of(const std::vector<Record>& rows, const std::string& estimator, const std::string& compare_to = "") {
  for (const auto& r : rows)
    if (r.text("estimator") == estimator && r.text("compare_to") == compare_to) return r;
  FAIL("no row " << estimator << " " << compare_to);
  return rows.front();
}

}  // namespace

TEST_CASE("a model's one-configuration sweep is the grid's configuration of the same texts", "[sweep][simulate]") {
  Model m = Model::wilson(structures::StructureKind::nearest_neighbor, 8, 3, "1/2", "normal", 20);
  m.comm = parse_comm_cost("1/40");
  m.exchange = structures::NeighborExchange::plain;
  const SweepConfig c = model_sweep(m).config;
  CHECK(c == SweepConfig{.structure = "nn", .law = "normal", .n = 8, .m = 3, .a = {0.5, "0.5"}, .levels = 20,
                         .comm = {0.025, "0.025"}, .exchange = structures::NeighborExchange::plain});
  CHECK(c.column(SweepDim::a) == "0.5");
  CHECK(c.column(SweepDim::exchange) == "plain");
  CHECK(c == make_grid({{{"nn"}, {"normal"}, {}, {"8"}, {"3"}, {"1/2"}, {"20"}, {"1/40"}, {}, {}, {"plain"}}}, 1).at(0));

  Model g;
  g.graph = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  g.fast_count = 1;
  g.port = Port::one_port;
  g.overlap = true;
  g.comm = parse_comm_cost("0.5");
  const ModelSweep gs = model_sweep(g);
  std::array<std::vector<std::string>, SweepDim::count> texts;
  texts[SweepDim::m] = {"1"};
  texts[SweepDim::comm] = {"0.5"};
  CHECK(gs.config == make_grids(texts, {g.graph}, {"one-port-overlap"}, 10).front().at(0));
  CHECK(to_model(gs.config, gs.graph).overlap);

  // A model that cannot be built fails with its own error, before any mapping.
  Model bad = Model::wilson(structures::StructureKind::synchronous, 2, 3, "1/2", "uniform", 5);
  CHECK(testing::error_of([&] { (void)model_sweep(bad); }).find("fast_count") != std::string::npos);
}

TEST_CASE("simulate's comparisons are the one-configuration sweep's rows bit for bit", "[sweep][simulate]") {
  RunOptions options;
  options.seed = 5;
  options.reps = 700;  // 11 blocks, the last one short
  options.threads = 2;
  const std::vector<Comparison> comparisons = {Comparison("m=0"), Comparison("n=n-m,m=0"), Comparison("comm=0")};
  Model m = Model::wilson(structures::StructureKind::synchronous, 6, 2, "1/2", "uniform", 10);
  m.comm = parse_comm_cost("0.05");
  const auto rows = model_sweep_records(m, comparisons, options);
  const std::string expected =
      sweep_csv({{{"sync"}, {}, {}, {"6"}, {"2"}, {}, {"10"}, {"0.05"}, {}, {}, {}}}, {}, comparisons, options);
  CHECK(csv_of(rows) == expected);
  std::vector<std::string> estimators;
  for (const auto& r : rows) estimators.push_back(r.text("estimator") + ":" + r.text("compare_to"));
  CHECK(estimators == std::vector<std::string>{"lower_bound:", "upper_bound:", "difference:m=0", "ratio:m=0",
                                               "difference:n=n-m,m=0", "ratio:n=n-m,m=0", "difference:comm=0",
                                               "ratio:comm=0", "mc:"});
  // Every Monte Carlo row has its standard error, interval and replications.
  for (const auto& r : rows)
    if (r.text("estimator") == "difference" || r.text("estimator") == "ratio" || r.text("estimator") == "mc") {
      CHECK(number(r, "stderr") > 0);
      CHECK(number(r, "ci_low") < number(r, "ci_high"));
      CHECK(r.text("reps") == "700");
    }
  // The mean row is simulate --estimator mc's mean; the threads change nothing.
  Simulation sim = prepare(m);
  run(sim, options, false, Estimator::mc);
  CHECK(row_of(rows, "mc").text("value") == Record().add("v", sim.estimate.mean).text("v"));
  options.threads = 1;
  CHECK(csv_of(model_sweep_records(m, comparisons, options)) == expected);

  // With the distribution's rows and a mean estimated whole, as the sweep's options give them.
  DistributionOptions distribution;
  distribution.sd = true;
  distribution.quantile_levels = {0.5, 0.9};
  CHECK(csv_of(model_sweep_records(m, {comparisons[0]}, options, std::nullopt, distribution)) ==
        sweep_csv({{{"sync"}, {}, {}, {"6"}, {"2"}, {}, {"10"}, {"0.05"}, {}, {}, {}}}, {}, {comparisons[0]}, options,
                  std::nullopt, distribution));
  const MeanEstimator cv{Estimator::cv, {}};
  CHECK(csv_of(model_sweep_records(m, {comparisons[0]}, options, cv)) ==
        sweep_csv({{{"sync"}, {}, {}, {"6"}, {"2"}, {}, {"10"}, {"0.05"}, {}, {}, {}}}, {}, {comparisons[0]}, options, cv));
}

TEST_CASE("a graph's comparisons are the one-configuration sweep's, and those it has no column for are refused",
          "[sweep][simulate]") {
  RunOptions options;
  options.seed = 9;
  options.reps = 500;
  options.threads = 2;
  Model g;
  g.graph = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  g.fast_count = 1;
  g.comm = parse_comm_cost("0.25");
  const std::vector<Comparison> comparisons = {Comparison("m=0"), Comparison("comm=0,protocol=one-port")};
  std::array<std::vector<std::string>, SweepDim::count> texts;
  texts[SweepDim::m] = {"1"};
  texts[SweepDim::comm] = {"0.25"};
  const auto rows = model_sweep_records(g, comparisons, options);
  CHECK(csv_of(rows) == sweep_csv(texts, {g.graph}, comparisons, options));
  CHECK(rows.size() == 5);  // two differences, two ratios, the mean
  CHECK(row_of(rows, "mc").text("protocol") == "free");
  // A graph's width, laws and levels are its file's: n=... means nothing for it.
  CHECK(testing::error_of([&] { (void)model_sweep_records(g, {Comparison("n=4")}, options); })
            .find("compare_to") != std::string::npos);
  // A target that cannot be built names the comparison.
  try {
    (void)model_sweep_records(g, {Comparison("m=3")}, options);
    FAIL("m = 3 on two processors was built");
  } catch (const InvalidConfiguration& e) {
    CHECK(e.comparison() == "m=3");
  }
}

// Exact cases, where the paired difference is known replication by replication.
// (1) A comparison with the model's own value (comm=0.1 at C = 0.1) runs the same plan on the same
// streams: every difference is 0, the ratio 1, both with standard error 0. (Against comm=0 async,
// which never communicates, would do the same by doing nothing: that comparison is refused.)
// (2) With every processor fast (m = n), a = 1/2 against a = 1 draws the same variates, the first
// scaled by 1/2, which is exact in binary: each makespan is half its target's bit for bit (sums and
// maxima commute with a power of two), so each difference is minus the makespan, the mean difference
// is minus the mean row bit for bit (the same Welford steps, halved), and the ratio is 1/2 with
// standard error 0 (Var A - 2R Cov + R^2 Var B = V/4 - V/2 + V/4, exact).
TEST_CASE("exact comparisons: the model's own value and a power-of-two scale", "[sweep][simulate]") {
  RunOptions options;
  options.seed = 3;
  options.reps = 300;
  options.threads = 2;
  Model async = Model::wilson(structures::StructureKind::asynchronous, 5, 2, "1/2", "normal", 7);
  async.comm = parse_comm_cost("0.1");
  const auto rows = model_sweep_records(async, {Comparison("comm=0.1")}, options);
  CHECK(row_of(rows, "difference", "comm=0.1").text("value") == "0");
  CHECK(row_of(rows, "difference", "comm=0.1").text("stderr") == "0");
  CHECK(row_of(rows, "ratio", "comm=0.1").text("value") == "1");
  CHECK(row_of(rows, "ratio", "comm=0.1").text("stderr") == "0");

  for (const auto kind : {structures::StructureKind::asynchronous, structures::StructureKind::synchronous}) {
    const Model fast = Model::wilson(kind, 4, 4, "1/2", "uniform", 9);
    const auto scaled = model_sweep_records(fast, {Comparison("a=1")}, options);
    const Record& mean = row_of(scaled, "mc");
    const Record& difference = row_of(scaled, "difference", "a=1");
    const Record& ratio = row_of(scaled, "ratio", "a=1");
    INFO(structures::to_string(kind));
    CHECK(number(difference, "value") == -number(mean, "value"));
    CHECK(number(difference, "stderr") == number(mean, "stderr"));
    CHECK(number(ratio, "value") == 0.5);
    CHECK(number(ratio, "stderr") == 0.0);
    CHECK(number(mean, "stderr") > 0.0);
  }
}

// m=0 on a graph compares with equal processors whatever gives its speeds (--m and --a, a list of
// scales, the file's processor_scale): before, a list or the file's speeds were kept at m = 0, and
// every difference was 0 with standard error 0. a=1 says the same; a=1/4 at m = 0 is refused.
TEST_CASE("a graph's m=0 and a=1 compare with equal processors whatever gives its speeds", "[sweep][simulate]") {
  RunOptions options;
  options.seed = 5;
  options.reps = 400;
  options.threads = 2;
  Model wilson;
  wilson.graph = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  wilson.fast_count = 1;  // processor 0 at 1/2
  Model listed;
  listed.graph = wilson.graph;
  listed.processor_scales = parse_processor_scales("1/2,1");
  Model file;
  file.graph = std::string(HETSTRUCT_TEST_DATA) + "/two_speeds.dot";
  const auto reference = model_sweep_records(wilson, {Comparison("m=0")}, options);
  const Record& expected = row_of(reference, "difference", "m=0");
  CHECK(number(expected, "value") < 0.0);
  CHECK(number(expected, "stderr") > 0.0);
  for (const Model* m : {&listed, &file}) {
    INFO(m->graph << " " << m->processor_scales.size() << " scales");
    for (const char* text : {"m=0", "a=1"}) {
      const auto rows = model_sweep_records(*m, {Comparison(text)}, options);
      const Record& difference = row_of(rows, "difference", text);
      CHECK(difference.text("value") == expected.text("value"));
      CHECK(difference.text("stderr") == expected.text("stderr"));
      CHECK(row_of(rows, "ratio", text).text("value") == row_of(reference, "ratio", "m=0").text("value"));
    }
    CHECK(testing::error_of([&] { (void)model_sweep_records(*m, {Comparison("a=1/4")}, options); }).find("m is 0") !=
          std::string::npos);
    // m=1 replaces the speeds too: processor 0 at 1/2 is the machine itself, nothing to compare.
    CHECK(testing::error_of([&] { (void)model_sweep_records(*m, {Comparison("m=1")}, options); })
              .find("would not change the model") != std::string::npos);
    const auto other = model_sweep_records(*m, {Comparison("m=1,a=1/4")}, options);
    CHECK(number(row_of(other, "difference", "m=1,a=0.25"), "value") > 0.0);  // against a faster machine
  }
}

// A comparison that sets an option the model does not use would give a difference of 0 by doing
// nothing: refused in simulate, and in a sweep not made where it has no effect (counted).
TEST_CASE("a comparison that would not change the model is refused", "[sweep][simulate]") {
  RunOptions options;
  options.seed = 2;
  options.reps = 100;
  options.threads = 2;
  const auto refused = [&](const Model& m, const std::string& text) {
    return testing::error_of([&] { (void)model_sweep_records(m, {Comparison(text)}, options); });
  };
  Model sync = Model::wilson(structures::StructureKind::synchronous, 4, 1, "1/2", "uniform", 5);
  CHECK(refused(sync, "exchange=plain").find("would not change the model") != std::string::npos);
  CHECK(refused(sync, "protocol=coordinator").find("would not change the model") != std::string::npos);  // C = 0
  CHECK(refused(sync, "policy=equal").find("policy") != std::string::npos);
  Model equal = Model::wilson(structures::StructureKind::synchronous, 4, 0, "1/2", "uniform", 5);
  CHECK(refused(equal, "a=1/4").find("m is 0") != std::string::npos);
  CHECK(refused(equal, "fast_law=u(0,2)").find("m is 0") != std::string::npos);
  Model async = Model::wilson(structures::StructureKind::asynchronous, 4, 1, "1/2", "uniform", 5);
  async.comm = parse_comm_cost("0.1");
  CHECK(refused(async, "comm=0").find("no communication") != std::string::npos);
  Model nn = Model::wilson(structures::StructureKind::nearest_neighbor, 4, 1, "1/2", "uniform", 5);
  nn.comm = parse_comm_cost("0.1");
  CHECK(refused(nn, "exchange=plain").find("nn at C = 0") != std::string::npos);
  nn.comm = parse_comm_cost("0");
  CHECK(number(row_of(model_sweep_records(nn, {Comparison("exchange=plain")}, options), "difference", "exchange=plain"),
               "stderr") > 0.0);
  // Equal values are a legitimate difference of 0.
  CHECK(row_of(model_sweep_records(async, {Comparison("comm=0.1")}, options), "difference", "comm=0.1").text("value") == "0");

  // A sweep leaves the configurations it has no effect on without a difference row.
  std::array<std::vector<std::string>, SweepDim::count> texts;
  texts[SweepDim::structure] = {"sync"};
  texts[SweepDim::n] = {"4"};
  texts[SweepDim::m] = {"0", "1"};
  texts[SweepDim::levels] = {"5"};
  const SweepEntries valid = build_entries(make_grid(texts, 10), {Comparison("a=1")}, false);
  REQUIRE(valid.entries.size() == 2);
  CHECK_FALSE(valid.entries[0].targets[0].has_value());
  CHECK(valid.entries[1].targets[0].has_value());
  CHECK(valid.no_effect == 1);
}

// ---- correlated slowdowns in sweeps and comparisons (issue 29 item 4) ----------------------------

TEST_CASE("slowdowns: simulate's comparisons are the sweep's rows, and the mean is simulate's, bit for bit",
          "[sweep][simulate][slowdown]") {
  RunOptions options;
  options.seed = 11;
  options.reps = 700;
  options.threads = 2;
  const SweepSlowdowns slowdowns{"u(1,3)", "gamma(4,0.25)"};
  for (const char* structure : {"sync", "nn", "async"}) {
    Model m = Model::wilson(structures::parse_structure_kind(structure), 5, 2, "1/2", "uniform", 6);
    m.comm = parse_comm_cost("0.05");
    m.slowdown = parse_slowdown(slowdowns.processor);
    m.machine_slowdown = parse_law_of("machine_slowdown", slowdowns.machine);
    const std::vector<Comparison> comparisons = {Comparison("m=0")};
    const auto rows = model_sweep_records(m, comparisons, options);
    INFO(structure);
    CHECK(csv_of(rows) == sweep_csv({{{structure}, {}, {}, {"5"}, {"2"}, {}, {"6"}, {"0.05"}, {}, {}, {}}}, {},
                                    comparisons, options, std::nullopt, {}, slowdowns));
    // The mean row is simulate's mean with the same slowdowns.
    Simulation sim = prepare(m);
    REQUIRE(sim.plan.slowed());
    run(sim, options, false, Estimator::automatic);
    CHECK(row_of(rows, "mc").text("value") == Record().add("v", sim.estimate.mean).text("v"));
    // Every row names the laws; the closed forms and bounds say they do not apply, with no value.
    for (const auto& r : rows) {
      CHECK(r.text("slowdown") == "u(1,3)");
      CHECK(r.text("machine_slowdown") == "gamma(4,0.25)");
      const std::string e = r.text("estimator");
      if (e == "closed_form" || e == "lower_bound" || e == "upper_bound") {
        CHECK(r.text("method") == "none_with_slowdowns");
        CHECK(r.text("value").empty());
      }
    }
    const bool said = std::any_of(rows.begin(), rows.end(), [](const Record& r) { return r.text("method") == "none_with_slowdowns"; });
    CHECK((std::string(structure) == "async" || said));
    // The paired difference runs both sides on the same factors: with m = 0 it differs from the
    // independent run's.
    Model independent = m;
    independent.slowdown = std::nullopt;
    independent.machine_slowdown = std::nullopt;
    CHECK(row_of(model_sweep_records(independent, comparisons, options), "difference", "m=0").text("value") !=
          row_of(rows, "difference", "m=0").text("value"));
  }
  // A graph's, likewise.
  Model g;
  g.graph = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  g.fast_count = 1;
  g.slowdown = parse_slowdown("u(1,2)");
  const auto rows = model_sweep_records(g, {Comparison("m=0")}, options);
  Simulation sim = prepare(g);
  run(sim, options, false, Estimator::mc);
  CHECK(row_of(rows, "mc").text("value") == Record().add("v", sim.estimate.mean).text("v"));
  CHECK(row_of(rows, "mc").text("machine_slowdown").empty());
}

TEST_CASE("slowdowns through a sweep: one processor's p constant tasks take p t F", "[sweep][slowdown]") {
  // async on one processor, 4 tasks of c(1.5), F ~ u(1,3): each makespan is 6 F, so the mean row is
  // the mean of 6 F over the same factors (drawn here from the rules), and the sd row F's sd times 6.
  RunOptions options;
  options.seed = 9;
  options.reps = 4000;
  std::array<std::vector<std::string>, SweepDim::count> texts;
  texts[SweepDim::structure] = {"async"};
  texts[SweepDim::law] = {"c(1.5)"};
  texts[SweepDim::n] = {"1"};
  texts[SweepDim::levels] = {"4"};
  DistributionOptions asked;
  asked.sd = true;
  SweepEntries valid = build_entries(make_grids(texts, {}, {}, 10, {"u(1,3)", ""}), {}, false);
  const auto runs = plan_runs(valid.entries);
  SweepShare share;
  share.pieces = deal_blocks(run_work(runs, options.reps), 1).front();
  share.distribution = asked;
  std::vector<Record> rows;
  share.entry_done = [&](const Entry& entry, const Job& job) {
    rows = config_records(entry, job, {}, share.estimates, options.seed, share.extras);
  };
  share.compute(valid.entries, runs, 0, options);
  const distributions::Sampler factor(distributions::parse_law("u(1,3)"));
  double sum = 0.0;
  for (std::uint64_t r = 0; r < options.reps; ++r) {
    ProcessorStream f(options.seed, r, 0, ProcessorStream::slowdown);
    sum += 6.0 * factor(f);
  }
  const double mean = number(row_of(rows, "mc"), "value");
  CHECK(std::abs(mean - sum / static_cast<double>(options.reps)) <= 1e-12 * mean);
  const double sd = 6.0 * 2.0 / std::sqrt(12.0);
  CHECK(std::abs(mean - 12.0) < 4.0 * sd / std::sqrt(static_cast<double>(options.reps)));
  const Record& sd_row = row_of(rows, "sd");
  CHECK(std::abs(number(sd_row, "value") - sd) < 4.0 * number(sd_row, "stderr"));
  // The closed form of async (which assumes independent times) has no value here.
  CHECK(row_of(rows, "closed_form").text("value").empty());
}

TEST_CASE("slowdowns in a sweep: bad laws, estimators that assume independence, resuming another law", "[sweep][slowdown]") {
  std::array<std::vector<std::string>, SweepDim::count> texts;
  texts[SweepDim::structure] = {"sync"};
  texts[SweepDim::n] = {"4"};
  texts[SweepDim::levels] = {"5"};
  const auto where = [&](const SweepSlowdowns& s) {
    try {
      (void)make_grids(texts, {}, {}, 10, s);
    } catch (const InputError& e) {
      return e.where() + ": " + e.problem();
    }
    return std::string("accepted");
  };
  CHECK(where({"u(-1,2)", ""}) == "slowdown: the law u(-1,2) draws a negative factor");
  CHECK(where({"", "n(1,1)"}) == "machine_slowdown: the law n(1,1) draws a negative factor");
  CHECK(where({"u(1,2", ""}).rfind("slowdown: ", 0) == 0);
  CHECK(where({"u(1,2)", "c(1)"}) == "accepted");
  CHECK_THROWS_WITH(mean_estimator(Estimator::cv, {}, false, true), Catch::Contains("assume independent task times"));
  CHECK_THROWS_WITH(mean_estimator(Estimator::antithetic, {}, false, true), Catch::Contains("assume independent"));
  CHECK_FALSE(mean_estimator(Estimator::automatic, {}, false, true).has_value());  // auto: plain mc
  // Resuming: rows of another slowdown law are simulated again, those of the same law kept.
  const SweepEntries valid = build_entries(make_grids(texts, {}, {}, 10, {"u(1,2)", ""}), {}, false);
  const std::string header = csv_header(sweep_columns(false, true));
  const std::string row = "sync,uniform,,4,0,0.5,5,0,,,,mc,synchronous,,1,0.1,0.9,1.1,20,3,1,";
  CHECK(resumed_rows(valid.entries, header + row + "\"u(1,2)\",\n", "f.csv", 20, 3) ==
        std::vector<std::string>{row + "\"u(1,2)\",\n"});
  CHECK(resumed_rows(valid.entries, header + row + "\"u(1,3)\",\n", "f.csv", 20, 3) == std::vector<std::string>{""});
  // A file without the slowdowns' columns is another sweep's.
  CHECK_THROWS_WITH(resumed_rows(valid.entries, csv_header(sweep_columns()) + "x\n", "f.csv", 20, 3),
                    Catch::Contains("another header"));
}

// ---- one model parser (issue 28 item 2) -----------------------------------------------------------

TEST_CASE("parse_model: the texts of a model as the command line, Python and the sweep give them", "[model][sweep]") {
  ModelTexts t;
  t.set("structure", "nn").set("width", "8").set("fast_count", "3").set("scale", "1/2").set("law", "normal");
  t.set("levels", "20").set("comm_cost", "1/40").set("protocol", "event-available");
  const Model m = parse_model(t);
  CHECK(m.structure == structures::StructureKind::nearest_neighbor);
  CHECK(m.width == 8);
  CHECK(m.fast_count == 3);
  CHECK(m.scale == Spelled<double>{0.5, "1/2"});  // the user's spelling, printed back
  CHECK(m.comm == Spelled<double>{0.025, "1/40"});
  CHECK(m.law == Spelled<distributions::Law>{distributions::Law::paper_normal(), "normal"});
  CHECK(m.levels == 20);
  REQUIRE(m.protocol != nullptr);
  CHECK(std::string(m.protocol->name) == "event-available");  // a const char*: compare the text
  // The sweep's configuration of the same texts is the same model (to_model calls parse_model).
  std::array<std::vector<std::string>, SweepDim::count> texts;
  texts[SweepDim::structure] = {"nn"};
  texts[SweepDim::law] = {"normal"};
  texts[SweepDim::n] = {"8"};
  texts[SweepDim::m] = {"3"};
  texts[SweepDim::levels] = {"20"};
  texts[SweepDim::comm] = {"1/40"};
  texts[SweepDim::protocol] = {"event-available"};
  const Model s = to_model(make_grid(texts, 1).at(0));
  CHECK(s.structure == m.structure);
  CHECK(s.width == m.width);
  CHECK(s.fast_count == m.fast_count);
  CHECK(s.scale.value == m.scale.value);
  CHECK(s.comm.value == m.comm.value);
  CHECK(s.protocol == m.protocol);
  CHECK(s.law.value == m.law.value);
  CHECK(s.exchange == m.exchange);

  // Refusals name the parameter, in the papers' words.
  const auto refused = [](ModelTexts texts) {
    try {
      (void)parse_model(texts);
    } catch (const InputError& e) {
      return e.where() + ": " + e.problem();
    }
    return std::string("accepted");
  };
  ModelTexts sync;
  sync.set("structure", "sync").set("width", "4");
  CHECK(refused(sync) == "accepted");
  CHECK(refused(ModelTexts(sync).set("width", "4.5")) == "width: '4.5' is not a whole number");
  CHECK(refused(ModelTexts(sync).set("levels", "many")) == "levels: 'many' is not a whole number");
  CHECK(refused(ModelTexts().set("structure", "sync")) == "width: missing");
  CHECK(refused(ModelTexts(sync).set("structure", "tree")).rfind("structure: ", 0) == 0);
  CHECK(refused(ModelTexts(sync).set("exchange", "plain")) == "exchange: applies to the nearest-neighbour structure (nn) only");
  CHECK(refused(ModelTexts(sync).set("processor_scale", "1,1")) == "processor_scale: applies to a graph only");
  CHECK(refused(ModelTexts(sync).set("task_cv", "0.1")) == "task_cv: applies to a graph file only");
  CHECK(refused(ModelTexts(sync).set("policy", "nosuch")).rfind("policy: unknown", 0) == 0);
  CHECK(refused(ModelTexts(sync).set("overlap", "yes")) == "overlap: 'yes' is not true or false");
  ModelTexts nn = ModelTexts(sync).set("structure", "nn").set("exchange", "plain").set("comm_cost", "0.1");
  CHECK(refused(nn).rfind("exchange: applies to nn at C = 0 only", 0) == 0);
  nn.protocols = false;  // a command that runs no protocol (bounds): the exchange applies
  CHECK(refused(nn) == "accepted");
  ModelTexts graph;
  graph.set("graph", std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot");
  CHECK(refused(ModelTexts(graph).set("width", "3")) == "width: has no effect on a graph");
  CHECK(refused(ModelTexts(graph).set("structure", "sync")) == "graph: give either a structure or a graph, not both");
  CHECK(refused(ModelTexts(graph).set("sd_weight", "2")) == "sd_weight: applies to the heft-sd schedule only");
  CHECK(refused(ModelTexts(graph).set("port", "one-port").set("overlap", "true")) == "accepted");
  // A sweep's configuration carries every column: nothing is refused for doing nothing.
  ModelTexts column = ModelTexts(sync).set("exchange", "sequential");
  column.refuse_unused = false;
  CHECK(refused(column) == "accepted");
}

TEST_CASE("graph_settings: a sweep's settings of every graph parsed as a graph's model", "[model][sweep]") {
  const GraphSettings g = graph_settings(ModelTexts()
                                             .set("task_law", "uniform")
                                             .set("task_cv", "0.3")
                                             .set("schedule", "heft-sd")
                                             .set("sd_weight", "2")
                                             .set("processor_scale", "1,1/2"));
  CHECK(g.task_graph.law.shape == structures::TaskLawShape::uniform);
  CHECK(g.task_graph.law.cv == 0.3);
  REQUIRE(g.task_graph.schedule.has_value());
  CHECK(g.task_graph.schedule->algorithm == structures::ScheduleAlgorithm::heft_sd);
  CHECK(g.task_graph.schedule->sd_weight == 2.0);
  CHECK(g.processor_scales == std::vector<double>{1.0, 0.5});
  CHECK_THROWS_WITH(graph_settings(ModelTexts().set("task_law", "uniform")), Catch::Contains("has no effect without task_cv"));
  CHECK_THROWS_WITH(graph_settings(ModelTexts().set("schedule", "heft").set("sd_weight", "2")),
                    Catch::Contains("applies to the heft-sd schedule only"));
  try {
    (void)graph_settings(ModelTexts().set("schedule", "hefty"));
    FAIL("an unknown schedule was accepted");
  } catch (const InputError& e) {
    CHECK(e.where() == "schedule");
  }
}

}  // namespace simulate_compare_test
