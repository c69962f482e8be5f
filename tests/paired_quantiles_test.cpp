// Paired differences of quantiles and of deadline probabilities (engine/estimators/paired.h):
// recomputed from the documented rule by an implementation of their own (resamples materialized
// and sorted, not walked), from the two models' makespans run apart on the same seed, bit for bit
// on one and two threads, and the intervals' coverage on laws whose differences are known.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "distributions/input_error.h"
#include "engine/estimators/distribution.h"
#include "engine/estimators/paired.h"
#include "engine/kernel/streams.h"
#include "engine/simulate/schedule_comparison.h"
#include "engine/simulate/simulation.h"
#include "engine/sweep/sweep.h"
#include "support.h"

namespace paired_quantiles_test {

using namespace hetstruct;
using namespace hetstruct::engine;
using hetstruct::testing::error_of;

namespace {

// Type 7 written out: h = (n - 1) p, the order statistics floor(h) and the next, interpolated.
double type7(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const double h = (static_cast<double>(x.size()) - 1.0) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const auto hi = std::min(lo + 1, x.size() - 1);
  return x[lo] + (h - static_cast<double>(lo)) * (x[hi] - x[lo]);
}

// floor(x n / 2^63) in 64-bit halves (x < 2^63, n < 2^32): x = xh 2^31 + xl, xh n = ah 2^32 + al,
// so x n = ah 2^63 + al 2^31 + xl n, and the last two sum below 2^64.
std::uint64_t index_of(std::uint64_t x, std::uint64_t n) {
  const std::uint64_t xh = x >> 31, xl = x & ((std::uint64_t{1} << 31) - 1);
  const std::uint64_t wide = xh * n, ah = wide >> 32, al = wide & 0xffffffffu;
  return ah + (((al << 31) + xl * n) >> 63);
}

struct Reference {
  double value, stderr_, low, high;
};

// The documented bootstrap: resample k draws N indices from the stream (seed, k, 0) of domain
// bootstrap, index = floor(x N / 2^63); D_k = Q_p(a*) - Q_p(b*); the interval the D_k's type-7
// quantiles 0.025 and 0.975, the standard error their standard deviation (two passes).
Reference bootstrap_reference(const std::vector<double>& a, const std::vector<double>& b, double p, std::uint64_t seed,
                              std::uint64_t resamples) {
  const std::uint64_t n = a.size();
  std::vector<double> d, ra(n), rb(n);
  for (std::uint64_t k = 0; k < resamples; ++k) {
    ProcessorStream s(seed, k, 0, ProcessorStream::bootstrap);
    for (std::uint64_t j = 0; j < n; ++j) {
      const std::uint64_t x = s();
      const std::uint64_t i = index_of(x, n);
      ra[j] = a[i];
      rb[j] = b[i];
    }
    d.push_back(type7(ra, p) - type7(rb, p));
  }
  double sum = 0.0;
  for (const double v : d) sum += v;
  const double mean = sum / static_cast<double>(resamples);
  double m2 = 0.0;
  for (const double v : d) m2 += (v - mean) * (v - mean);
  return {type7(a, p) - type7(b, p), std::sqrt(m2 / (static_cast<double>(resamples) - 1.0)), type7(d, 0.025), type7(d, 0.975)};
}

// N exponential(1) variates of stream (seed, rep, lane) in the domain of the task times.
std::vector<double> exponentials(std::uint64_t seed, std::uint64_t rep, std::uint64_t lane, std::size_t n) {
  ProcessorStream s(seed, rep, lane);
  std::vector<double> x(n);
  for (auto& v : x) v = -std::log1p(-std::ldexp(static_cast<double>(s()), -63));
  return x;
}

double number(const Record& r, const char* name) { return std::stod(r.text(name)); }

}  // namespace

TEST_CASE("paired quantile differences are the documented bootstrap, recomputed by sorting each resample", "[paired]") {
  // Correlated pairs with ties: b = round(a + noise), so the order statistics repeat.
  const auto x = exponentials(3, 0, 0, 157), y = exponentials(3, 0, 1, 157);
  std::vector<double> a(x.size()), b(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    a[i] = x[i];
    b[i] = std::round(4.0 * (0.7 * x[i] + 0.5 * y[i])) / 4.0;
  }
  DistributionOptions options;
  options.quantile_levels = {0.05, 0.5, 0.95, 0.3};
  RunOptions run;
  run.seed = 11;
  run.threads = 2;
  const PairedDistribution p = describe_paired(a, b, options, run, 300);
  REQUIRE(p.quantiles.size() == 4);
  CHECK(p.reps == 157);
  for (const auto& q : p.quantiles) {
    INFO("level " << q.level);
    const Reference r = bootstrap_reference(a, b, q.level, 11, 300);
    CHECK(q.value == r.value);
    CHECK(q.stderr_ == r.stderr_);
    CHECK(q.ci_low == r.low);
    CHECK(q.ci_high == r.high);
    CHECK(q.ci_low <= q.ci_high);
  }
  // The documented number of resamples, on one thread: the same bits as on two.
  const PairedDistribution full = describe_paired(a, b, options, run);
  run.threads = 1;
  const PairedDistribution one = describe_paired(a, b, options, run);
  CHECK(full.resamples == bootstrap_resamples);
  const Reference r = bootstrap_reference(a, b, 0.5, 11, bootstrap_resamples);
  CHECK(full.quantiles[1].ci_low == r.low);
  CHECK(full.quantiles[1].ci_high == r.high);
  for (std::size_t l = 0; l < 4; ++l) {
    CHECK(one.quantiles[l].ci_low == full.quantiles[l].ci_low);
    CHECK(one.quantiles[l].ci_high == full.quantiles[l].ci_high);
    CHECK(one.quantiles[l].stderr_ == full.quantiles[l].stderr_);
  }
  // Another seed, other resamples; a pair of equal samples, a difference of exactly 0.
  run.seed = 12;
  CHECK(describe_paired(a, b, options, run).quantiles[1].ci_low != full.quantiles[1].ci_low);
  const PairedDistribution same = describe_paired(a, a, options, run, 50);
  for (const auto& q : same.quantiles) CHECK((q.value == 0.0 && q.ci_low == 0.0 && q.ci_high == 0.0 && q.stderr_ == 0.0));
  CHECK_THROWS_AS(describe_paired(a, std::vector<double>(3, 1.0), options, run), std::invalid_argument);
}

TEST_CASE("paired deadline differences: the table's counts and Newcombe's method 10", "[paired]") {
  // 10 pairs miss both, 15 only A, 5 only B, 20 neither (n = 50): the documented formula written
  // apart (Python, double precision) from Wilson's intervals for 25/50 and 15/50 and phi =
  // (10 20 - 15 5) / sqrt(25 25 15 35).
  const auto [low, high] = newcombe_paired_interval(10, 15, 5, 20);
  CHECK(low == Approx(0.030502822901462584).epsilon(1e-12));
  CHECK(high == Approx(0.35283592771870453).epsilon(1e-12));
  // No miss under either: [-u, u] with u Wilson's upper end for 0 of n.
  const auto [l0, u0] = newcombe_paired_interval(0, 0, 0, 100);
  const double z2 = 1.959963984540054 * 1.959963984540054;
  CHECK(u0 == Approx(z2 / (100.0 + z2)).epsilon(1e-12));
  CHECK(l0 == -u0);
  // Every pair missed by A only: the difference 1, its interval's upper end exactly 1.
  const auto [l1, u1] = newcombe_paired_interval(0, 40, 0, 0);
  CHECK(u1 == 1.0);
  CHECK(l1 < 1.0);
  CHECK(l1 > 0.8);

  // From samples: the counts, the value and the paired binomial standard error.
  const std::vector<double> a = {1, 2, 3, 4, 5, 6, 7, 8}, b = {2, 1, 4, 3, 6, 5, 3, 9};
  DistributionOptions options;
  options.deadlines = {4.5};
  RunOptions run;
  const PairedDistribution p = describe_paired(a, b, options, run);
  REQUIRE(p.deadlines.size() == 1);
  const auto& t = p.deadlines[0];
  // Missing 4.5: A at 5..8, B at 6, 5, 9: both {5, 6, 8}, A only {7}, B only none.
  CHECK(t.both == 3);
  CHECK(t.only_a == 1);
  CHECK(t.only_b == 0);
  CHECK(t.neither == 4);
  CHECK(t.value == 0.125);
  CHECK(t.stderr_ == std::sqrt((0.125 - 0.125 * 0.125) / 8.0));
  const auto [nl, nh] = newcombe_paired_interval(3, 1, 0, 4);
  CHECK(t.ci_low == nl);
  CHECK(t.ci_high == nh);
  CHECK(p.quantiles.empty());
  CHECK(p.resamples == 0);  // no quantile: no bootstrap
}

TEST_CASE("schedule comparisons with quantiles: the paired rows from the two schedules run apart", "[paired][schedule]") {
  Model model;
  model.graph = std::string(HETSTRUCT_TEST_DATA) + "/topcuoglu2002_cv30.dot";
  model.task_graph.schedule = structures::ScheduleOptions{};
  RunOptions run;
  run.reps = 700;
  run.seed = 5;
  run.threads = 2;
  DistributionOptions options;
  options.quantile_levels = {0.5, 0.95};
  options.deadlines = {80.0};
  const ScheduleChoice cpop(structures::ScheduleAlgorithm::cpop);
  const auto rows = compare_schedules(model, {cpop}, run, options);
  const auto means = compare_schedules(model, {cpop}, run);
  // heft: mean, 2 quantiles, p_deadline; cpop likewise; difference, ratio, 2 + 1 paired rows.
  REQUIRE(rows.size() == 13);
  CHECK(rows[0].names() == std::vector<std::string>{"graph", "schedule", "against", "planned_makespan", "quantity", "level",
                                                    "deadline", "reps", "seed", "value", "stderr", "ci_low", "ci_high"});
  // The mean, difference and ratio rows keep their bits.
  CHECK(rows[0].text("value") == means[0].text("value"));
  CHECK(rows[4].text("value") == means[1].text("value"));
  CHECK(rows[8].text("quantity") == "difference");
  CHECK(rows[8].text("value") == means[2].text("value"));
  CHECK(rows[9].text("value") == means[3].text("value"));
  CHECK(rows[9].text("ci_low") == means[3].text("ci_low"));
  // Each schedule alone on the same seed: the same replications, so the paired rows are the
  // difference of the two runs' quantiles and the bootstrap of their pairs.
  Model other = model;
  other.task_graph.schedule->algorithm = structures::ScheduleAlgorithm::cpop;
  std::vector<double> a, b;
  run_sampled(prepare(model).plan, run, a);
  run_sampled(prepare(other).plan, run, b);
  CHECK(rows[10].text("quantity") == "quantile_difference");
  CHECK(rows[10].text("level") == "0.5");
  CHECK(number(rows[10], "value") == type7(a, 0.5) - type7(b, 0.5));
  const Reference r = bootstrap_reference(a, b, 0.95, 5, bootstrap_resamples);
  CHECK(number(rows[11], "value") == r.value);
  CHECK(number(rows[11], "ci_low") == r.low);
  CHECK(number(rows[11], "ci_high") == r.high);
  CHECK(number(rows[11], "stderr") == r.stderr_);
  CHECK(rows[12].text("quantity") == "p_deadline_difference");
  CHECK(rows[12].text("deadline") == "80");
  const auto missed = [](const std::vector<double>& x) {
    return static_cast<double>(std::count_if(x.begin(), x.end(), [](double v) { return v > 80.0; }));
  };
  CHECK(number(rows[12], "value") == (missed(a) - missed(b)) / 700.0);
  CHECK(rows[1].text("quantity") == "quantile");
  CHECK(number(rows[1], "value") == type7(a, 0.5));
  // One thread: every row the same bits.
  run.threads = 1;
  const auto one = compare_schedules(model, {cpop}, run, options);
  REQUIRE(one.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) CHECK(csv_line(one[i]) == csv_line(rows[i]));
}

TEST_CASE("compare: the schedules' rows as compare_schedules gives them, each difference flagged by its interval",
          "[paired][schedule][compare]") {
  Model model;
  model.graph = std::string(HETSTRUCT_TEST_DATA) + "/topcuoglu2002_cv30.dot";
  model.task_graph.schedule = structures::ScheduleOptions{};
  RunOptions run;
  run.reps = 600;
  run.seed = 3;
  DistributionOptions options;
  options.sd = true;
  options.quantile_levels = {0.5, 0.95};
  options.deadlines = {85.0};
  const std::vector<ScheduleChoice> others{structures::ScheduleAlgorithm::peft, structures::ScheduleAlgorithm::min_min,
                                           structures::ScheduleAlgorithm::olb};
  const auto plain = compare_schedules(model, others, run, options);
  const auto rows = compare_schedule_set(model, others, run, options);
  REQUIRE(rows.size() == plain.size());
  int flagged = 0, excluding = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& fields = rows[i].fields();
    REQUIRE(fields.size() == plain[i].fields().size() + 1);
    CHECK(fields.back().name == "excludes_0");
    // Every other field the same bits.
    for (std::size_t k = 0; k + 1 < fields.size(); ++k) {
      CHECK(fields[k].name == plain[i].fields()[k].name);
      CHECK(csv_field(rows[i].text(fields[k].name)) == csv_field(plain[i].text(fields[k].name)));
    }
    const std::string quantity = rows[i].text("quantity");
    if (quantity.size() >= 10 && quantity.compare(quantity.size() - 10, 10, "difference") == 0) {
      ++flagged;
      const bool excludes = number(rows[i], "ci_low") > 0.0 || number(rows[i], "ci_high") < 0.0;
      excluding += excludes;
      CHECK(std::get<bool>(fields.back().value) == excludes);
    } else {
      CHECK(std::holds_alternative<std::monostate>(fields.back().value));
    }
  }
  // Three others, each with a difference, two quantile differences and a deadline's.
  CHECK(flagged == 12);
  // heft (80 planned) against olb (111 planned): far apart.
  CHECK(excluding >= 1);
}

TEST_CASE("a model's comparisons with quantiles and deadlines: the paired rows from the target run apart",
          "[paired][sweep]") {
  const Model model = Model::wilson(structures::StructureKind::synchronous, 4, 1, "1/2", "exp(1)", 6);
  Model target = model;
  target.fast_count = 0;
  RunOptions run;
  run.reps = 500;
  run.seed = 9;
  run.threads = 2;
  DistributionOptions options;
  options.quantile_levels = {0.9};
  options.deadlines = {5.0};
  const auto all = model_sweep_records(model, {Comparison("m=0")}, run, std::nullopt, options);
  // After the closed form and bounds: difference, ratio, quantile_difference,
  // p_deadline_difference, quantile, p_deadline, mean.
  const auto first = std::find_if(all.begin(), all.end(), [](const Record& r) { return r.text("estimator") == "difference"; });
  const std::vector<Record> rows(first, all.end());
  REQUIRE(rows.size() == 7);
  CHECK(rows[2].text("estimator") == "quantile_difference");
  CHECK(rows[2].text("method") == "0.9");
  CHECK(rows[2].text("compare_to") == "m=0");
  CHECK(rows[3].text("estimator") == "p_deadline_difference");
  CHECK(rows[3].text("method") == "5");
  CHECK(rows[4].text("estimator") == "quantile");
  CHECK(rows[6].text("estimator") == "mc");
  std::vector<double> a, b;
  run_sampled(prepare(model).plan, run, a);
  run_sampled(prepare(target).plan, run, b);
  const Reference r = bootstrap_reference(a, b, 0.9, 9, bootstrap_resamples);
  CHECK(number(rows[2], "value") == r.value);
  CHECK(number(rows[2], "ci_low") == r.low);
  CHECK(number(rows[2], "ci_high") == r.high);
  CHECK(number(rows[4], "value") == type7(a, 0.9));
  DistributionOptions deadline_only;
  deadline_only.deadlines = {5.0};
  const auto t = describe_paired(a, b, deadline_only, run).deadlines.at(0);
  CHECK(number(rows[3], "value") == t.value);
  CHECK(number(rows[3], "ci_low") == t.ci_low);
  CHECK(number(rows[3], "ci_high") == t.ci_high);
  // Without quantiles or deadlines, the rows are today's: no paired row.
  const auto means = model_sweep_records(model, {Comparison("m=0")}, run);
  REQUIRE(means.size() == all.size() - 4);
  for (std::size_t i = 0; i + 1 < means.size(); ++i) CHECK(csv_line(means[i]) == csv_line(all[i]));
  CHECK(csv_line(means.back()) == csv_line(all.back()));
  run.threads = 1;
  const auto one = model_sweep_records(model, {Comparison("m=0")}, run, std::nullopt, options);
  REQUIRE(one.size() == all.size());
  for (std::size_t i = 0; i < all.size(); ++i) CHECK(csv_line(one[i]) == csv_line(all[i]));
}

TEST_CASE("a sweep's schedule=B comparison: each graph's schedule against B, refused without a schedule", "[paired][sweep]") {
  const std::string graph = std::string(HETSTRUCT_TEST_DATA) + "/topcuoglu2002_cv30.dot";
  GraphSettings settings;
  settings.task_graph.schedule = structures::ScheduleOptions{};
  const Comparison cmp("schedule=cpop");
  CHECK(cmp.label() == "schedule=cpop");
  REQUIRE(cmp.schedule());
  std::array<std::vector<std::string>, SweepDim::count> texts;
  const auto grids = make_grids(texts, {graph}, {}, 10);
  SweepEntries valid = build_entries(grids, {cmp}, false, settings);
  REQUIRE(valid.entries.size() == 1);
  const auto runs = plan_runs(valid.entries);
  SweepShare share;
  share.pieces = deal_blocks(run_work(runs, 300), 1).front();
  RunOptions run;
  run.reps = 300;
  run.threads = 2;
  std::vector<Record> rows;
  share.entry_done = [&](const Entry& entry, const Job& job) {
    rows = config_records(entry, job, {cmp}, share.estimates, run.seed, share.extras);
  };
  share.compute(valid.entries, runs, 1, run);
  // The same difference as simulate --compare-to schedule=cpop's (the same paired run).
  Model model;
  model.graph = graph;
  model.task_graph.schedule = structures::ScheduleOptions{};
  const auto schedules = compare_schedules(model, {ScheduleChoice(structures::ScheduleAlgorithm::cpop)}, run);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].text("compare_to") == "schedule=cpop");
  CHECK(rows[0].text("value") == schedules[2].text("value"));
  CHECK(rows[0].text("stderr") == schedules[2].text("stderr"));
  CHECK(rows[1].text("value") == schedules[3].text("value"));
  // Refusals: no schedule set, the schedule against itself, beside other options, no graph.
  CHECK(error_of([&] { build_entries(grids, {cmp}, false, GraphSettings{}); }).find("no schedule is set") != std::string::npos);
  CHECK(error_of([&] { build_entries(grids, {Comparison("schedule=heft")}, false, settings); }).find("with itself") != std::string::npos);
  CHECK(error_of([] { Comparison("schedule=cpop,m=0"); }).find("beside other options") != std::string::npos);
  CHECK(error_of([] { Comparison("schedule=fast"); }).find("compare_to") == 0);
  texts[SweepDim::structure] = {"sync"};
  texts[SweepDim::n] = {"4"};
  CHECK(error_of([&] { build_entries(make_grids(texts, {}, {}, 10), {cmp}, false, settings); })
            .find("no configuration is a graph") != std::string::npos);
}

TEST_CASE("the paired intervals cover known differences: exp(1) against c exp(1)", "[paired][coverage]") {
  // A's makespan X ~ exp(1), B's c Y with Y ~ exp(1): independent (Y its own draw) or comonotone
  // (Y = X). Either way Q_p(A) - Q_p(B) = (1 - c)(-ln(1 - p)) and P(A > T) - P(B > T) =
  // e^-T - e^(-T/c). Over 200 seeds of 300 pairs, the 95% intervals cover them within the
  // binomial error of 200 trials (3 sd: 0.904 to 0.996).
  const double c = 1.5, T = 1.0;
  DistributionOptions options;
  options.quantile_levels = {0.5, 0.9};
  options.deadlines = {T};
  const double truth_q[] = {(1.0 - c) * -std::log(0.5), (1.0 - c) * -std::log(0.1)};
  const double truth_p = std::exp(-T) - std::exp(-T / c);
  for (const bool comonotone : {false, true}) {
    int covered_q[2] = {0, 0}, covered_p = 0;
    const int seeds = 200;
    for (int seed = 1; seed <= seeds; ++seed) {
      const auto x = exponentials(static_cast<std::uint64_t>(seed), 0, 0, 300);
      auto y = comonotone ? x : exponentials(static_cast<std::uint64_t>(seed), 0, 1, 300);
      for (auto& v : y) v *= c;
      RunOptions run;
      run.seed = static_cast<std::uint64_t>(seed);
      run.threads = 2;
      const PairedDistribution p = describe_paired(x, y, options, run);
      for (int l = 0; l < 2; ++l) covered_q[l] += p.quantiles[l].ci_low <= truth_q[l] && truth_q[l] <= p.quantiles[l].ci_high;
      covered_p += p.deadlines[0].ci_low <= truth_p && truth_p <= p.deadlines[0].ci_high;
    }
    INFO((comonotone ? "comonotone" : "independent") << ": " << covered_q[0] << ", " << covered_q[1] << ", " << covered_p);
    for (const int k : {covered_q[0], covered_q[1], covered_p}) {
      CHECK(k >= 181);
      CHECK(k <= 199);
    }
  }
}

}  // namespace paired_quantiles_test
