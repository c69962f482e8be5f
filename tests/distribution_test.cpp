// The makespan's distribution (engine/estimators/distribution.h) against exact distributions, the coverage of
// its intervals over many seeds, its bits on any thread count, and the paired ratio of means
// (engine/estimators/paired.h) against known ratios.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/binomial.hpp>
#include <boost/math/special_functions/factorials.hpp>
#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "engine/estimators/distribution.h"
#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/estimators/paired.h"
#include "engine/simulate/simulation.h"
#include "engine/sweep/sweep.h"
#include "cli/plot.h"

namespace distribution_test {

using namespace hetstruct;
using namespace hetstruct::engine;
using structures::StructureKind;

namespace {

// The Irwin-Hall law: the sum of k independent u(0,1).
double irwin_hall_cdf(int k, double x) {
  if (x <= 0) return 0.0;
  if (x >= k) return 1.0;
  double s = 0.0;
  for (int j = 0; j <= static_cast<int>(std::floor(x)); ++j)
    s += (j % 2 ? -1.0 : 1.0) * boost::math::binomial_coefficient<double>(k, j) * std::pow(x - j, k);
  return s / boost::math::factorial<double>(k);
}
double irwin_hall_pdf(int k, double x) {
  if (x <= 0 || x >= k) return 0.0;
  double s = 0.0;
  for (int j = 0; j <= static_cast<int>(std::floor(x)); ++j)
    s += (j % 2 ? -1.0 : 1.0) * boost::math::binomial_coefficient<double>(k, j) * std::pow(x - j, k - 1);
  return s / boost::math::factorial<double>(k - 1);
}

// The p quantile of a continuous cdf on [lo, hi], by bisection.
double invert(const std::function<double(double)>& cdf, double p, double lo, double hi) {
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (cdf(mid) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

struct Exact {
  std::function<double(double)> cdf, pdf;
  double lo, hi, sd;
};

Simulation simulated(const Model& model, std::uint64_t reps, std::uint64_t seed, const DistributionOptions& d,
                     int threads = 2) {
  Simulation sim = prepare(model);
  sim.distribution_options = d;
  RunOptions options;
  options.reps = reps;
  options.seed = seed;
  options.threads = threads;
  run(sim, options, false);
  return sim;
}

// Every estimate of the distribution within 4 of its standard errors of the exact law's value;
// the quantiles within 4 asymptotic standard errors sqrt(p (1-p) / N) / f(q) and inside their
// intervals' ranks' reach; the histogram's counts within 4.5 binomial standard errors.
void check_against(const Distribution& d, const Exact& law) {
  const double n = static_cast<double>(d.reps);
  INFO("reps " << d.reps);
  CHECK(std::abs(d.sd.value - law.sd) <= 4 * d.sd.stderr_);
  for (const auto& q : d.quantiles) {
    const double exact = invert(law.cdf, q.level, law.lo, law.hi);
    const double se = std::sqrt(q.level * (1 - q.level) / n) / law.pdf(exact);
    INFO("quantile " << q.level << ": " << q.value << " exact " << exact << " se " << se);
    CHECK(std::abs(q.value - exact) <= 4 * se);
    CHECK(q.ci_low <= q.value);
    CHECK(q.value <= q.ci_high);
    // The interval's width is about 2 * 1.96 se.
    CHECK((q.ci_high - q.ci_low) / (2 * 1.96 * se) == Approx(1.0).margin(0.25));
  }
  for (const auto& t : d.deadlines) {
    const double p = 1.0 - law.cdf(t.deadline);
    INFO("deadline " << t.deadline << ": " << t.p << " exact " << p);
    CHECK(std::abs(t.p - p) <= 4 * std::sqrt(p * (1 - p) / n));
    CHECK(t.ci_low <= t.p);
    CHECK(t.p <= t.ci_high);
  }
  std::uint64_t total = 0;
  for (const auto& b : d.histogram) {
    const double p = law.cdf(b.high) - law.cdf(b.low);
    INFO("bin [" << b.low << ", " << b.high << "): " << b.count << " expected " << n * p);
    CHECK(std::abs(static_cast<double>(b.count) - n * p) <= 4.5 * std::sqrt(n * p * (1 - p)) + 1);
    total += b.count;
    CHECK(b.density == Approx(static_cast<double>(b.count) / (n * (b.high - b.low))).epsilon(1e-12));
    CHECK(b.cdf == Approx(static_cast<double>(total) / n).epsilon(1e-15));
  }
  if (!d.histogram.empty()) CHECK(total == d.reps);
}

DistributionOptions everything(std::vector<double> deadlines) {
  DistributionOptions o;
  o.sd = true;
  o.quantile_levels = {0.05, 0.25, 0.5, 0.75, 0.95};
  o.deadlines = std::move(deadlines);
  o.histogram_bins = 12;
  return o;
}

}  // namespace

TEST_CASE("order-statistic ranks, Clopper-Pearson and the quantile names against exact values", "[distribution]") {
  // The median of 10: [x_(2), x_(9)] (P(B <= 1) = 11/1024 <= 2.5% < P(B <= 2) = 56/1024; P(B <= 7) =
  // 968/1024 < 97.5% <= P(B <= 8) = 1013/1024), 0-based ranks 1 and 8.
  CHECK(quantile_ci_ranks(10, 0.5) == std::pair<std::int64_t, std::int64_t>{1, 8});
  // Too few values for a tail: none below (P(B <= 0) = 0.95^5 > 2.5%), none above.
  CHECK(quantile_ci_ranks(5, 0.05).first == -1);
  CHECK(quantile_ci_ranks(5, 0.95).second == 5);
  // 0 successes of 10: [0, 1 - 0.025^(1/10)]; 10 of 10: [0.025^(1/10), 1].
  CHECK(clopper_pearson(0, 10).first == 0.0);
  CHECK(clopper_pearson(0, 10).second == Approx(1 - std::pow(0.025, 0.1)).epsilon(1e-12));
  CHECK(clopper_pearson(10, 10).first == Approx(std::pow(0.025, 0.1)).epsilon(1e-12));
  CHECK(clopper_pearson(10, 10).second == 1.0);
  CHECK(quantile_name(0.05) == "q05");
  CHECK(quantile_name(0.5) == "q50");
  CHECK(quantile_name(0.95) == "q95");
  CHECK(quantile_name(0.025) == "q025");
  CHECK(quantile_name(0.999) == "q999");
  // Levels in exponent notation keep it (both were "q00": two columns of one name).
  CHECK(quantile_name(1e-300) == "q1e-300");
  CHECK(quantile_name(1e-5) == "q1e-05");
  CHECK(quantile_name(0.0025) == "q0025");
  CHECK(quantile_name(0.0001) == "q0001");  // as before the exact names: no column renamed
  // Every digit the level needs (issue 38): %.15g gave both of these q333333333333333 and
  // 0.9999999999999999 q00.
  CHECK(quantile_name(0.333333333333333) == "q333333333333333");
  CHECK(quantile_name(0.3333333333333333) == "q3333333333333333");
  CHECK(quantile_name(0.9999999999999999) == "q9999999999999999");
  CHECK(quantile_name(0.1 + 0.2) == "q30000000000000004");
  CHECK(quantile_name(std::nextafter(1e-4, 0.0)) == "q9.999999999999999e-05");
  const std::vector<double> sorted = {1, 2, 3, 4};
  CHECK(quantile_sorted(sorted, 0.5) == 2.5);  // type 7
  CHECK(quantile_sorted(sorted, 1.0) == 4.0);
}

TEST_CASE("bad distribution options are InputError naming them", "[distribution]") {
  DistributionOptions o;
  o.quantile_levels = {0.5, 1.0};
  CHECK_THROWS_AS(o.validate(), InputError);
  o.quantile_levels = {0.5, 0.5};
  CHECK_THROWS_WITH(o.validate(), Catch::Contains("twice"));
  // Levels that once printed alike are two columns now (issue 38); none of one name passes.
  o.quantile_levels = {0.333333333333333, 0.3333333333333333, 0.9999999999999999, 1e-5, 0.0001};
  CHECK_NOTHROW(o.validate());
  o.quantile_levels = {};
  o.deadlines = {std::nan("")};
  CHECK_THROWS_WITH(o.validate(), Catch::StartsWith("deadline"));
  CHECK_THROWS_WITH(check_stored_makespans(max_stored_makespans + 1, 1.0, false), Catch::StartsWith("reps"));
}

TEST_CASE("async n = 1 with uniform tasks: the Irwin-Hall law", "[distribution]") {
  const int k = 4;  // tasks: the makespan is the sum of 4 u(0,1)
  const Simulation sim = simulated(Model::wilson(StructureKind::asynchronous, 1, 0, "1/2", "uniform", k), 20000, 3,
                                   everything({1.5, 2.0, 3.2}));
  REQUIRE(sim.distribution);
  const Exact law{[](double x) { return irwin_hall_cdf(k, x); }, [](double x) { return irwin_hall_pdf(k, x); }, 0.0,
                  double(k), std::sqrt(k / 12.0)};
  check_against(*sim.distribution, law);
  // The distribution's sample is the run's: the same mean up to rounding, the same count.
  CHECK(sim.distribution->reps == sim.estimate.reps);
  CHECK(sim.distribution->mean == Approx(sim.estimate.mean).epsilon(1e-12));
}

TEST_CASE("async n = 1 with normal tasks: an exact normal law", "[distribution]") {
  // 5 tasks of n(0.5, 1/12): N(2.5, 5/12).
  const Simulation sim = simulated(Model::wilson(StructureKind::asynchronous, 1, 0, "1/2", "normal", 5), 20000, 5,
                                   everything({2.0, 3.5}));
  const boost::math::normal_distribution<double> normal(2.5, std::sqrt(5.0 / 12.0));
  const Exact law{[&](double x) { return boost::math::cdf(normal, x); }, [&](double x) { return boost::math::pdf(normal, x); },
                  -10.0, 15.0, std::sqrt(5.0 / 12.0)};
  check_against(*sim.distribution, law);
  // For a normal law Var(s) ~ sigma^2 / (2 (N - 1)): the fourth moment's standard error says so.
  CHECK(sim.distribution->sd.stderr_ == Approx(law.sd / std::sqrt(2.0 * 19999)).epsilon(0.05));
}

TEST_CASE("sync at C = 0 with one level: the max of independent laws", "[distribution]") {
  // 2 fast processors of u(0, 1/2) and 3 of u(0,1): F(x) = min(2x, 1)^2 * x^3 on [0, 1].
  const Simulation sim = simulated(Model::wilson(StructureKind::synchronous, 5, 2, "1/2", "uniform", 1), 20000, 11,
                                   everything({0.6, 0.9}));
  const auto cdf = [](double x) { return x <= 0 ? 0.0 : x >= 1 ? 1.0 : std::pow(std::min(2 * x, 1.0), 2) * std::pow(x, 3); };
  const auto pdf = [](double x) { return x <= 0 || x >= 1 ? 0.0 : x < 0.5 ? 20 * std::pow(x, 4) : 3 * x * x; };
  // sd by quadrature of the exact law (midpoint rule, far finer than the check).
  double m1 = 0, m2 = 0;
  const int steps = 200000;
  for (int i = 0; i < steps; ++i) {
    const double x = (i + 0.5) / steps;
    m1 += x * pdf(x) / steps;
    m2 += x * x * pdf(x) / steps;
  }
  check_against(*sim.distribution, Exact{cdf, pdf, 0.0, 1.0, std::sqrt(m2 - m1 * m1)});
}

TEST_CASE("the intervals of a quantile and of a deadline probability cover as often as they claim", "[distribution]") {
  // async n = 1, 2 tasks of u(0,1): the triangle law on [0, 2]; F(x) = x^2/2 below 1.
  // q_0.2 = sqrt(0.4); P(makespan > 1.5) = 0.125. 200 seeds of 200 replications each: each 95%
  // interval covers in Binomial(200, >= 0.95) seeds (the order-statistic and Clopper-Pearson
  // intervals are conservative): within 3 standard deviations of 95% of 200.
  const double exact_q = std::sqrt(0.4), exact_p = 0.125;
  DistributionOptions o;
  o.quantile_levels = {0.2};
  o.deadlines = {1.5};
  const Plan plan = compile(Model::wilson(StructureKind::asynchronous, 1, 0, "1/2", "uniform", 2).build());
  const int seeds = 200;
  int q_covers = 0, p_covers = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    RunOptions options;
    options.reps = 200;
    options.seed = static_cast<std::uint64_t>(seed);
    options.threads = 1;
    std::vector<double> sample;
    run_sampled(plan, options, sample);
    const Distribution d = describe_distribution(sample, o);
    q_covers += d.quantiles[0].ci_low <= exact_q && exact_q <= d.quantiles[0].ci_high;
    p_covers += d.deadlines[0].ci_low <= exact_p && exact_p <= d.deadlines[0].ci_high;
  }
  const double sigma = std::sqrt(seeds * 0.95 * 0.05);
  CHECK(std::abs(q_covers - 0.95 * seeds) <= 3 * sigma);
  CHECK(std::abs(p_covers - 0.95 * seeds) <= 3 * sigma);
}

TEST_CASE("the distribution has the same bits on 1 and 2 threads, and the mean is run()'s", "[distribution]") {
  const Model model = Model::wilson(StructureKind::synchronous, 6, 2, "1/2", "normal", 20);
  const Simulation one = simulated(model, 5000, 9, everything({10.0}), 1);
  const Simulation two = simulated(model, 5000, 9, everything({10.0}), 2);
  const Record a = simulation_record(one, 9), b = simulation_record(two, 9);
  CHECK(render(std::span(&a, 1), Format::csv) == render(std::span(&b, 1), Format::csv));
  CHECK(render(histogram_records(*one.distribution), Format::csv) ==
        render(histogram_records(*two.distribution), Format::csv));
  // Keeping the makespans moves no bit of the mean.
  RunOptions options;
  options.reps = 5000;
  options.seed = 9;
  const Estimate plain = run(one.plan, options);
  CHECK(plain.mean == one.estimate.mean);
  CHECK(plain.stderr_ == one.estimate.stderr_);
  // Nor does --metrics, which keeps them through its own fold.
  Simulation with_metrics = prepare(model);
  with_metrics.distribution_options = everything({10.0});
  run(with_metrics, options, true);
  CHECK(with_metrics.estimate.mean == plain.mean);
  const Record c = simulation_record(with_metrics, 9);
  CHECK(c.text("q50") == a.text("q50"));
  CHECK(c.text("sd_stderr") == a.text("sd_stderr"));
}

TEST_CASE("the paired ratio of means: exact for proportional makespans, and its delta-method error", "[distribution][ratio]") {
  RunOptions options;
  options.reps = 2000;
  options.seed = 4;
  // 2*u(0,1) against u(0,1), draw for draw: every makespan is exactly twice the other's.
  const Plan twice = compile(Model::wilson(StructureKind::asynchronous, 3, 0, "1/2", "2*u(0,1)", 10).build());
  const Plan once = compile(Model::wilson(StructureKind::asynchronous, 3, 0, "1/2", "uniform", 10).build());
  const PairedRun r = run_paired(twice, once, options);
  CHECK(r.ratio.value == Approx(2.0).epsilon(1e-14));
  CHECK(r.ratio.stderr_ < 1e-6);
  // The difference is run_difference()'s, bit for bit.
  const Estimate d = run_difference(twice, once, options);
  CHECK(r.difference.mean == d.mean);
  CHECK(r.difference.stderr_ == d.stderr_);

  // max(U1, U2) against U1 (processor 0 draws the same in both): E = 2/3 over 1/2, R = 4/3.
  const Plan two = compile(Model::wilson(StructureKind::asynchronous, 2, 0, "1/2", "uniform", 1).build());
  const Plan one = compile(Model::wilson(StructureKind::asynchronous, 1, 0, "1/2", "uniform", 1).build());
  const PairedRun big = run_paired(two, one, options);
  CHECK(std::abs(big.ratio.value - 4.0 / 3.0) <= 4 * big.ratio.stderr_);
  // The delta method's standard error against the spread of the ratio over 200 seeds of 200
  // replications (the sd of 200 values is within 5% of its own value: 20% is 4 of its errors).
  std::vector<double> ratios;
  double mean_se = 0;
  options.reps = 200;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    options.seed = seed;
    const PairedRun p = run_paired(two, one, options);
    ratios.push_back(p.ratio.value);
    mean_se += p.ratio.stderr_ / 200;
  }
  Accumulator spread;
  for (const double x : ratios) spread.add(x);
  CHECK(std::sqrt(spread.m2 / 199) == Approx(mean_se).epsilon(0.2));
  CHECK(std::abs(spread.mean - 4.0 / 3.0) <= 4 * mean_se / std::sqrt(200.0));
}

namespace {

// A sweep's CSV rows, its runs' pieces dealt to `workers` and folded (as MPI does), or computed by
// one SweepShare (one process) when workers is 0.
std::string sweep_rows(int workers, const DistributionOptions& distribution) {
  RunOptions options;
  options.seed = 7;
  options.reps = 700;  // 11 blocks, the last one short
  options.threads = 2;
  const std::vector<Comparison> comparisons = {Comparison("m=0")};
  auto valid = build_entries(make_grid({{{"sync", "async"}, {}, {}, {"4"}, {"2"}, {}, {"5"}, {}, {}, {}, {}}}, 100),
                             comparisons, false);
  const auto runs = plan_runs(valid.entries);
  std::string text;
  if (workers == 0) {
    SweepShare share;
    share.pieces = deal_blocks(run_work(runs, options.reps), 1)[0];
    share.distribution = distribution;
    share.entry_done = [&](const Entry& entry, const Job& job) {
      for (const auto& r : config_records(entry, job, comparisons, share.estimates, options.seed, share.extras))
        text += csv_line(r);
    };
    share.compute(valid.entries, runs, comparisons.size(), options);
    return text;
  }
  std::vector<BlockPiece> pieces;
  for (const auto& share : deal_blocks(run_work(runs, options.reps), workers))
    for (const auto& piece : share) {
      const Entry& entry = valid.entries[runs[piece.run].entry];
      Job job(entry.c, comparisons.size());
      // A difference run keeps its pairs for the paired rows (quantiles or deadlines), as SweepShare.
      const bool keep = runs[piece.run].kind == RunKind::difference ? keeps_pairs(distribution) : distribution.any();
      pieces.push_back(compute_piece(piece, runs[piece.run], entry, job, options, keep));
    }
  std::vector<RunExtras> extras;
  const auto estimates = fold_pieces(pieces, runs, options.reps, &extras, distribution, &options);
  for (const auto& entry : valid.entries)
    for (const auto& r : config_records(entry, Job(entry.c, comparisons.size()), comparisons, estimates, options.seed, extras))
      text += csv_line(r);
  return text;
}

}  // namespace

TEST_CASE("a sweep's distribution and ratio rows: the same bits from pieces dealt to 1, 2 or 3 workers", "[distribution][sweep]") {
  DistributionOptions d;
  d.sd = true;
  d.quantile_levels = {0.1, 0.5};
  d.deadlines = {2.5};
  const std::string one = sweep_rows(0, d);
  CHECK(sweep_rows(2, d) == one);
  CHECK(sweep_rows(3, d) == one);
  // Per configuration: ..., difference, ratio, the paired quantile and deadline differences, sd,
  // quantile 0.1, quantile 0.5, p_deadline, mc.
  const auto records = records_of_csv(csv_header(sweep_columns()) + one);
  std::vector<std::string> estimators;
  for (const auto& r : records)
    if (r.text("structure") == "async") estimators.push_back(r.text("estimator") + ":" + r.text("method"));
  CHECK(estimators == std::vector<std::string>{"closed_form:cf_inversion", "difference:paired", "ratio:paired_delta",
                                               "quantile_difference:0.1", "quantile_difference:0.5",
                                               "p_deadline_difference:2.5", "sd:sample", "quantile:0.1", "quantile:0.5",
                                               "p_deadline:2.5", "mc:asynchronous"});
  // A difference run that kept its pairs needs the bootstrap's seed to be folded.
  {
    RunOptions options;
    options.reps = 100;
    const std::vector<Comparison> comparisons = {Comparison("m=0")};
    auto valid = build_entries(make_grid({{{"sync"}, {}, {}, {"4"}, {"2"}, {}, {"5"}, {}, {}, {}, {}}}, 100), comparisons, false);
    const auto runs = plan_runs(valid.entries);
    std::vector<BlockPiece> pieces;
    Job job(valid.entries[0].c, 1);
    const auto dealt = deal_blocks(run_work(runs, options.reps), 1);
    for (const auto& piece : dealt[0])
      pieces.push_back(compute_piece(piece, runs[piece.run], valid.entries[0], job, options, true));
    std::vector<RunExtras> extras;
    CHECK_THROWS_AS(fold_pieces(pieces, runs, options.reps, &extras, d), std::logic_error);
  }
  // Without distribution options nothing is kept, and the ratio rows stay.
  const std::string plain = sweep_rows(0, {});
  CHECK(plain.find(",sd,") == std::string::npos);
  CHECK(plain.find(",ratio,") != std::string::npos);
  CHECK(sweep_rows(3, {}) == plain);
}

TEST_CASE("plot draws a histogram CSV: the density with the Normal fit, and the empirical CDF", "[distribution][plot]") {
  std::vector<double> sample;
  for (int i = 0; i < 100; ++i) sample.push_back(i % 10);  // 10 of each of 0..9
  DistributionOptions o;
  o.histogram_bins = 3;
  const Distribution d = describe_distribution(sample, o);
  REQUIRE(d.histogram.size() == 3);
  // [0, 3), [3, 6), [6, 9]: 30, 30, 40.
  CHECK(d.histogram[0].count == 30);
  CHECK(d.histogram[1].count == 30);
  CHECK(d.histogram[2].count == 40);
  CHECK(d.histogram[2].cdf == 1.0);
  const std::string csv = render(histogram_records(d), Format::csv);
  CHECK(csv.rfind("bin_low,bin_high,count,density,cdf,normal_density,normal_cdf\n0,3,30,0.1,0.3,", 0) == 0);
  cli::PlotCommand plot;
  plot.csv_path = "h.csv";
  const std::string script = cli::plot_script(plot, csv, "h.svg", "h.png");
  CHECK(script.find("$bins << EOD\n0 3 0.1 ") != std::string::npos);
  CHECK(script.find("$cdf << EOD\n0 0 NaN\n3 0.3 ") != std::string::npos);
  CHECK(script.find("with boxes") != std::string::npos);
  CHECK(script.find("title 'Normal fit (mean, sd)'") != std::string::npos);
  // Any other CSV still needs --x.
  CHECK_THROWS_WITH(cli::plot_script(plot, "a,b\n1,2\n", "h.svg", "h.png"), Catch::StartsWith("--x"));
}

}  // namespace distribution_test
