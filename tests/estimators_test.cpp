// The estimators beside plain Monte Carlo (engine/estimators/estimators.h): controls on the evaluators' own
// draws, the regression's algebra, antithetic twins, exactness where it exists, determinism, the
// stopping rule, and calibration of the intervals over 400 seeds.
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <catch2/catch.hpp>

#include "bounds/closed_forms.h"
#include "engine/estimators/estimators.h"
#include "engine/simulate/simulation.h"

namespace estimators_test {

using namespace hetstruct;
using engine::Estimator;
using structures::StructureKind;

namespace {

engine::Simulation prepared(StructureKind kind, int n, int m, const char* law, int levels, double comm = 0.0) {
  return engine::prepare(engine::Model::wilson(kind, n, m, "1/2", law, levels, comm));
}

engine::RunOptions options(std::uint64_t reps, std::uint64_t seed, int threads = 1) {
  engine::RunOptions o;
  o.reps = reps;
  o.seed = seed;
  o.threads = threads;
  return o;
}

engine::EstimatorResult estimate(const engine::Simulation& sim, Estimator e, std::uint64_t reps, std::uint64_t seed,
                                 int threads = 1, engine::StopRule stop = {}) {
  return engine::run_estimator(sim.plan, sim.estimators, e, options(reps, seed, threads), stop);
}

// Controls [first, first + count) of `sim` over 4,000 replications of evaluate_controls: each
// sample mean is within 5 standard errors of its exact mean (for 10 controls, a false alarm about
// once in 10^5 runs). `each`, when given, also sees every replication's controls and task times.
void check_control_means(const engine::Simulation& sim, std::size_t first, std::size_t count, std::uint64_t seed,
                         const std::function<void(std::uint64_t, const double*, const double*)>& each = {}) {
  const auto& spec = sim.estimators.controls;
  REQUIRE(spec.size() == sim.estimators.control_means.size());
  engine::Workspace ws(sim.plan);
  std::vector<double> k(spec.size()), rows(static_cast<std::size_t>(sim.plan.width) * sim.plan.levels);
  std::vector<engine::Accumulator> sample(count);
  for (std::uint64_t r = 0; r < 4000; ++r) {
    engine::evaluate_controls(sim.plan, spec, seed, r, ws, k.data(), rows.data());
    if (each) each(r, k.data(), rows.data());
    for (std::size_t j = 0; j < count; ++j) sample[j].add(k[first + j]);
  }
  for (std::size_t j = 0; j < count; ++j) {
    const auto e = engine::summarize(sample[j]);
    INFO("control " << first + j << ": " << e.mean << " +- " << e.stderr_ << ", exact "
                    << sim.estimators.control_means[first + j]);
    CHECK(std::abs(e.mean - sim.estimators.control_means[first + j]) < 5 * e.stderr_);
  }
}

bool same_bits(const engine::Estimate& a, const engine::Estimate& b) {
  auto eq = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
  return a.reps == b.reps && eq(a.mean, b.mean) && eq(a.stderr_, b.stderr_) && eq(a.ci_low, b.ci_low) &&
         eq(a.ci_high, b.ci_high) && eq(a.min, b.min) && eq(a.max, b.max) && eq(a.stddev, b.stddev);
}

}  // namespace

TEST_CASE("evaluate_controls gives evaluate's makespan bit for bit, and the controls it states", "[estimators]") {
  struct Case {
    StructureKind kind;
    const char* law;
    double comm;
  };
  const Case cases[] = {
      {StructureKind::asynchronous, "uniform", 0.0}, {StructureKind::asynchronous, "normal", 0.0},
      {StructureKind::synchronous, "uniform", 0.0},  {StructureKind::synchronous, "mix(0.5:u(0,1),0.5:n(1,1/4))", 0.0},
      {StructureKind::nearest_neighbor, "normal", 0.0}, {StructureKind::master_slave, "uniform", 0.0},
      {StructureKind::synchronous, "normal", 0.1},   {StructureKind::nearest_neighbor, "uniform", 0.1},
      {StructureKind::master_slave, "normal", 0.1},
  };
  for (const auto& c : cases) {
    const auto sim = prepared(c.kind, 5, 2, c.law, 30, c.comm);
    INFO(structures::to_string(c.kind) << " " << c.law << " C = " << c.comm);
    const auto& spec = sim.estimators.controls;
    REQUIRE(spec.size() == sim.estimators.control_means.size());
    engine::Workspace a(sim.plan), b(sim.plan);
    std::vector<double> k(spec.size());
    for (std::uint64_t r = 0; r < 20; ++r) {
      const double y = engine::evaluate(sim.plan, 3, r, a);
      CHECK(engine::evaluate_controls(sim.plan, spec, 3, r, b, k.data()) == y);
      if (c.kind == StructureKind::asynchronous) {  // the makespan is the largest processor sum
        double largest = -INFINITY;
        for (int i = 0; i < 5; ++i) largest = std::max(largest, k[i]);
        CHECK(largest == y);
      }
      if (c.kind == StructureKind::synchronous && c.comm == 0.0) CHECK(k.back() == y);  // the level-max sum is Y
    }
  }
}

TEST_CASE("a graph's busy-time controls have their stated means on scaled processors, and cv agrees with mc", "[estimators]") {
  // Processor 0 at scale 1/2 (the file's processor_scale, then --m 1 --a 1/4): the busy time adds
  // scaled task times, so its mean is the scaled sum. Stated unscaled, cv moved the mean from 2.789
  // to 3.108 (exit 0).
  for (const bool wilson : {false, true}) {
    engine::Model model;
    model.graph = std::string(HETSTRUCT_TEST_DATA) + "/two_speeds.dot";
    if (wilson) {
      model.fast_count = 1;
      model.scale = engine::parse_scale("1/4");
    }
    const auto sim = engine::prepare(model);
    const auto& spec = sim.estimators.controls;
    REQUIRE(spec.size() == 2);
    engine::Workspace ws(sim.plan);
    std::vector<double> k(spec.size());
    std::vector<engine::Accumulator> sample(spec.size());
    for (std::uint64_t r = 0; r < 4000; ++r) {
      engine::evaluate_controls(sim.plan, spec, 5, r, ws, k.data());
      for (std::size_t j = 0; j < k.size(); ++j) sample[j].add(k[j]);
    }
    for (std::size_t j = 0; j < k.size(); ++j) {
      const auto e = engine::summarize(sample[j]);
      INFO("wilson " << wilson << " control " << j << ": " << e.mean << " +- " << e.stderr_ << ", stated "
                     << sim.estimators.control_means[j]);
      CHECK(std::abs(e.mean - sim.estimators.control_means[j]) < 5 * e.stderr_);
    }
    const auto mc = estimate(sim, Estimator::mc, 20000, 3);
    const auto cv = estimate(sim, Estimator::cv, 20000, 3);
    INFO("mc " << mc.estimate.mean << " +- " << mc.estimate.stderr_ << ", cv " << cv.estimate.mean << " +- " << cv.estimate.stderr_);
    CHECK(std::abs(mc.estimate.mean - cv.estimate.mean) < 5 * std::hypot(mc.estimate.stderr_, cv.estimate.stderr_));
  }
}

TEST_CASE("the regression recovers an exact linear relation and falls back without controls", "[estimators]") {
  // Y = 3 + 2 K1 - K2 exactly: zero residual, the estimate is 3 + 2 mu1 - mu2.
  engine::CoMoments total;
  for (int r = 0; r < 50; ++r) {
    const double k1 = std::sin(r * 1.3), k2 = std::cos(r * 0.7) + 0.1 * r;
    const double z[] = {3.0 + 2.0 * k1 - k2, k1, k2};
    engine::CoMoments block;
    block.add(z, 3);
    block.single.add(z[0]);
    total.merge(block);
  }
  const auto e = engine::summarize_regression(total, {0.25, 1.5}, false);
  CHECK(e.estimate.mean == Approx(3.0 + 0.5 - 1.5).margin(1e-9));
  CHECK(e.estimate.stderr_ < 1e-6);
  CHECK(e.controls == 2);
  // A constant control is dropped, not solved against.
  engine::CoMoments constant;
  for (int r = 0; r < 30; ++r) {
    const double z[] = {static_cast<double>(r % 7), 4.0};
    constant.add(z, 2);
    constant.single.add(z[0]);
  }
  const auto c = engine::summarize_regression(constant, {4.0}, false);
  CHECK(c.controls == 0);
  CHECK(c.estimate.mean == Approx(constant.single.mean));
}

TEST_CASE("antithetic twins reflect every draw about its mean", "[estimators]") {
  // One processor, one level: the makespan is the draw itself, its twin 2 mu - x.
  for (const char* law : {"u(0,1)", "n(0.5,1/12)", "3*u(1,2)", "mix(0.3:u(0,1),0.7:n(2,1))", "c(0.4)"}) {
    INFO(law);
    engine::Model model = engine::Model::wilson(StructureKind::asynchronous, 1, 0, "1", law, 1);
    const auto sim = engine::prepare(model);
    REQUIRE(sim.estimators.twin);
    engine::Workspace a(sim.plan), b(*sim.estimators.twin);
    const auto l = distributions::parse_law(law);
    if (l.is_leaf()) {
      for (std::uint64_t r = 0; r < 20; ++r)
        CHECK(engine::evaluate(sim.plan, 1, r, a) + engine::evaluate(*sim.estimators.twin, 1, r, b) ==
              Approx(2 * l.mean()).margin(1e-12));
    }
  }
  const auto truncated = engine::prepare(engine::Model::wilson(StructureKind::synchronous, 3, 1, "1/2", "tn(0.5,1/12)", 5));
  CHECK_FALSE(truncated.estimators.twin);
  CHECK_THROWS_WITH(engine::resolve_estimator(Estimator::antithetic, truncated.estimators, 1000),
                    Catch::Contains("truncated normal"));
}

TEST_CASE("auto takes exact, then controls, then mc, and plain mc is engine::run bit for bit", "[estimators]") {
  const auto sync = prepared(StructureKind::synchronous, 4, 1, "uniform", 20);
  const auto async_normal = prepared(StructureKind::asynchronous, 4, 1, "normal", 20);
  const auto async_uniform = prepared(StructureKind::asynchronous, 4, 1, "uniform", 20);
  // A mixture with a truncated normal has no exact sum here (the normal approximation only); one of
  // uniform and normal laws has (its characteristic function inverted).
  const auto async_mixture = prepared(StructureKind::asynchronous, 4, 1, "mix(0.5:u(0,1),0.5:tn(1,1/4))", 20);
  const auto async_inverted = prepared(StructureKind::asynchronous, 4, 1, "mix(0.5:u(0,1),0.5:n(1,1/4))", 20);
  CHECK(engine::resolve_estimator(Estimator::automatic, async_inverted.estimators, 1000) == Estimator::exact);
  CHECK(async_inverted.estimators.exact_method == "cf_inversion");
  const auto inverted_mc = estimate(async_inverted, Estimator::mc, 20000, 3);
  CHECK(std::abs(inverted_mc.estimate.mean - *async_inverted.estimators.exact) < 4.0 * inverted_mc.estimate.stderr_);
  const auto ms = prepared(StructureKind::master_slave, 4, 1, "uniform", 20, 0.1);
  CHECK(engine::resolve_estimator(Estimator::automatic, sync.estimators, 1000) == Estimator::exact);
  CHECK(engine::resolve_estimator(Estimator::automatic, async_normal.estimators, 1000) == Estimator::exact);
  CHECK(engine::resolve_estimator(Estimator::automatic, async_uniform.estimators, 1000) == Estimator::exact);
  CHECK(engine::resolve_estimator(Estimator::automatic, async_mixture.estimators, 1000) == Estimator::cv);
  CHECK(engine::resolve_estimator(Estimator::automatic, async_mixture.estimators, 50) == Estimator::mc);
  CHECK(engine::resolve_estimator(Estimator::automatic, ms.estimators, 1000) == Estimator::antithetic_cv);
  CHECK_THROWS_WITH(engine::resolve_estimator(Estimator::exact, async_mixture.estimators, 1000),
                    Catch::Contains("no exact expectation"));
  // One control per processor: a wide model's co-moment blocks would not fit; auto runs mc.
  const auto wide = prepared(StructureKind::nearest_neighbor, 100, 0, "uniform", 5);
  CHECK(engine::resolve_estimator(Estimator::automatic, wide.estimators, 100000) == Estimator::mc);
  CHECK_THROWS_WITH(engine::resolve_estimator(Estimator::cv, wide.estimators, 100000), Catch::Contains("101 control"));
  const auto exact = estimate(sync, Estimator::exact, 1000, 1);
  CHECK(exact.estimate.mean == bounds::synchronous_uniform_mean(4, 1, 0.5, 20));
  CHECK(exact.estimate.stderr_ == 0.0);
  CHECK(exact.estimate.reps == 0);
  const auto mc = estimate(async_uniform, Estimator::mc, 1000, 5);
  CHECK(same_bits(mc.estimate, engine::run(async_uniform.plan, options(1000, 5))));
  CHECK(mc.variance_factor == 1.0);
}

TEST_CASE("auto on master-slave: antithetic pairs or the controls alone, as a pilot shows they pay", "[estimators]") {
  // Processor-bound: the slaves' task times drive the makespan, and reflected twins cancel them.
  const auto slaves = prepared(StructureKind::master_slave, 3, 1, "normal", 20, 0.05);
  CHECK(engine::choose_automatic(slaves.plan, slaves.estimators, options(1000, 1)) == Estimator::antithetic_cv);
  // Master-bound: 15 slaves at C = 0.15 wait on the master's dealing; a twin gains nothing, the
  // last tasks dealt set the makespan (the last-draw controls).
  const auto master = prepared(StructureKind::master_slave, 16, 8, "uniform", 20, 0.15);
  CHECK(engine::choose_automatic(master.plan, master.estimators, options(1000, 1)) == Estimator::cv);
  // The pilot is deterministic: the same answer on another thread count.
  CHECK(engine::choose_automatic(master.plan, master.estimators, options(1000, 1, 2)) == Estimator::cv);
  // Without the last draws and the dealing controls, the controls are the sums alone, and plain
  // mc wins.
  auto sums_only = master;
  sums_only.estimators.controls.last_draws = 0;
  sums_only.estimators.controls.dealing_draws = 0;
  sums_only.estimators.control_means.resize(sums_only.estimators.controls.size());
  CHECK(engine::choose_automatic(sums_only.plan, sums_only.estimators, options(1000, 1)) == Estimator::mc);
}

// Controls first .. first + count - 1 of `sim`, whose stated means must be 0, over 20,000
// replications (seed 9), each accumulated; the makespans must be evaluate()'s, bit for bit (the
// protocol's log changes none).
std::vector<engine::Accumulator> zero_mean_family(const engine::Simulation& sim, std::size_t first, std::size_t count) {
  const auto& spec = sim.estimators.controls;
  for (std::size_t j = first; j < first + count; ++j) CHECK(sim.estimators.control_means.at(j) == 0.0);
  engine::Workspace ws(sim.plan), plain(sim.plan);
  std::vector<double> k(spec.size());
  std::vector<engine::Accumulator> family(count);
  int differ = 0;
  for (std::uint64_t r = 0; r < 20000; ++r) {
    differ += engine::evaluate_controls(sim.plan, spec, 9, r, ws, k.data()) != engine::evaluate(sim.plan, 9, r, plain);
    for (std::size_t j = 0; j < count; ++j) family[j].add(k[first + j]);
  }
  CHECK(differ == 0);
  return family;
}

TEST_CASE("the last-draw controls of a master-slave protocol have mean 0 and explain a master-bound makespan",
          "[estimators]") {
  const auto master = prepared(StructureKind::master_slave, 16, 8, "uniform", 20, 0.15);
  const auto& spec = master.estimators.controls;
  REQUIRE(spec.last_draws == engine::last_draw_controls);
  // Each control is a deviation of a u(0,1) or u(0,1/2) draw from its mean: over
  // 20,000 replications its mean is within 4 standard errors of 0 (the draw's processor is chosen
  // before its value is drawn; a control that peeked at the value, such as the draw that finishes
  // last, would be biased upwards by far more).
  for (const auto& a : zero_mean_family(master, spec.last_draws_at(), spec.last_draws)) {
    const auto e = engine::summarize(a);
    INFO("mean " << e.mean << " +- " << e.stderr_);
    CHECK(std::abs(e.mean) < 4 * e.stderr_);
    CHECK(e.stddev > 0.1);  // a real draw (u(0,1) or u(0,1/2): sd 0.29 or 0.14), not the 0 of a missing one
  }
  // They carry the variance plain sums cannot: measured 3.21 on this cell (2,000 replications,
  // whose factor is known to about 3%, without the dealing controls); the sums alone give about 1.
  auto last_only = master;
  last_only.estimators.controls.dealing_draws = 0;
  last_only.estimators.control_means.resize(last_only.estimators.controls.size());
  const auto cv = estimate(last_only, Estimator::cv, 2000, 1);
  CHECK(cv.variance_factor > 2.5);
}

TEST_CASE("the dealing controls of a master-slave protocol have mean 0 and explain a master-bound makespan",
          "[estimators]") {
  const auto master = prepared(StructureKind::master_slave, 16, 8, "uniform", 20, 0.15);
  const auto& spec = master.estimators.controls;
  REQUIRE(spec.dealing_draws == engine::dealing_controls);
  const auto dealt = zero_mean_family(master, spec.dealing_at(), spec.dealing_draws);
  for (std::size_t j = 0; j < spec.dealing_draws; ++j) {
    const auto e = engine::summarize(dealt[j]);
    INFO("draw N-1-" << j << ": mean " << e.mean << " +- " << e.stderr_ << ", sd " << e.stddev);
    // Draws N-5 .. N-12 change nothing the prediction sees but in pieces rarer than 1e-3 (which
    // take their neighbours' values): exactly 0, and the regression drops them.
    if (j >= 4 && j <= 11) CHECK(e.stddev == 0.0);
    else CHECK(std::abs(e.mean) < 4 * e.stderr_);
  }
  // The last four draws carry most of it here: draw N-1 spreads 0.2 (measured 0.198).
  CHECK(engine::summarize(dealt[0]).stddev > 0.15);
  // With them, the factor on this cell is 6.6 (2,000 replications, whose cap merges pieces rarer
  // than 5e-3), against 3.2 with the last draws' deviations alone.
  const auto cv = estimate(master, Estimator::cv, 2000, 1);
  CHECK(cv.variance_factor > 6.0);
}

TEST_CASE("fit_controls trims the dealing controls to a wide machine and to a small cap", "[estimators]") {
  // (16,8): 16 sums, 4 last draws, 16 dealing draws: 36 controls need 148 replications. A cap of
  // 120 fits 29 (4 * 30 = 120): 9 dealing draws, the latest ones.
  auto narrow = prepared(StructureKind::master_slave, 16, 8, "uniform", 20, 0.1);
  REQUIRE(narrow.estimators.controls.size() == 36);
  engine::fit_controls(narrow.estimators, 120);
  CHECK(narrow.estimators.controls.dealing_draws == 9);
  CHECK(narrow.estimators.control_means.size() == 29);
  CHECK(engine::resolve_estimator(Estimator::automatic, narrow.estimators, 120) != Estimator::mc);
  // (50,10): 50 sums and 4 last draws leave 11 of the 65 controls a regression holds.
  const auto wide = prepared(StructureKind::master_slave, 50, 10, "uniform", 20, 0.1);
  CHECK(wide.estimators.controls.dealing_draws == 11);
  CHECK(wide.estimators.controls.size() == engine::max_controls);
  // A cap the sums and last draws alone need: no dealing controls, and none of their tables.
  auto small = prepared(StructureKind::master_slave, 16, 8, "uniform", 20, 0.1);
  engine::fit_controls(small.estimators, 100);
  CHECK(small.estimators.controls.dealing_draws == 4);  // 24 controls: 100 replications
  engine::fit_controls(small.estimators, 80);  // below regression_min_reps(20) = 100: all go
  CHECK(small.estimators.controls.dealing_draws == 0);
  CHECK(!small.estimators.controls.dealing);
}

TEST_CASE("the dealing controls leave no bias where rare places in line carry large deviations", "[estimators]") {
  // Normal laws at Table 5's (5,0), C = 0.25: the drawn time reaches far places in line with
  // tiny probabilities. Without merging the pieces of V~ rarer than 1e-4 into their neighbours
  // (bounds/dealing_controls.cpp), cv read 2499.482 +- 0.0014 here against plain sampling's
  // 2499.530 +- 0.0021 (40,000 replications each). 20,000 each, seeds apart: within 4 standard
  // errors of their difference.
  const auto normal = prepared(StructureKind::master_slave, 5, 0, "normal", 1000, 0.25);
  REQUIRE(normal.estimators.controls.dealing_draws > 0);
  const auto cv = estimate(normal, Estimator::cv, 20000, 1);
  const auto mc = estimate(normal, Estimator::mc, 20000, 2);
  INFO("cv " << cv.estimate.mean << " +- " << cv.estimate.stderr_ << ", mc " << mc.estimate.mean << " +- " << mc.estimate.stderr_);
  CHECK(std::abs(cv.estimate.mean - mc.estimate.mean) <= 4 * std::hypot(cv.estimate.stderr_, mc.estimate.stderr_));
}

TEST_CASE("the power controls of a levelled protocol have the means bounds states, and pay", "[estimators]") {
  struct Case {
    StructureKind kind;
    const char* law;
  };
  // Symmetric laws (third central moment 0) and a skewed mixture (an exponential component).
  const Case cases[] = {{StructureKind::synchronous, "normal"},
                        {StructureKind::nearest_neighbor, "uniform"},
                        {StructureKind::synchronous, "mix(0.5:u(0,1),0.5:exp(1/2))"}};
  for (const auto& c : cases) {
    INFO(structures::to_string(c.kind) << " " << c.law);
    const auto sim = prepared(c.kind, 5, 2, c.law, 30, 0.1);
    const auto& spec = sim.estimators.controls;
    REQUIRE(spec.max_power == 3);
    REQUIRE(spec.powers() == 10);
    check_control_means(sim, spec.powers_at(), spec.powers(), 11);
  }
  // On sync (8,3) uniform at C = 0.1 the squares and cubes take the variance factor from about 3.1
  // to about 5.4 (measured at 1000 levels, 3,000 replications); here at 100 levels, 2,000
  // replications (factors known to about 3%; measured 5.11 against 3.09): at least 1.3 times the
  // sums and level maxima alone.
  auto sim = prepared(StructureKind::synchronous, 8, 3, "uniform", 100, 0.1);
  const auto with = estimate(sim, Estimator::cv, 2000, 1);
  sim.estimators.controls.max_power = 0;
  sim.estimators.control_means.resize(sim.estimators.controls.size());
  const auto without = estimate(sim, Estimator::cv, 2000, 1);
  INFO("variance factor with powers " << with.variance_factor << ", without " << without.variance_factor);
  CHECK(with.variance_factor > 1.3 * without.variance_factor);
}

TEST_CASE("the neighbours' level maxima of an nn protocol are what they say, with the means bounds states", "[estimators]") {
  const auto sim = prepared(StructureKind::nearest_neighbor, 5, 2, "uniform", 30, 0.1);
  const auto& spec = sim.estimators.controls;
  REQUIRE(spec.neighbor_max);
  REQUIRE(spec.neighbor_maxima() == 4 + 3);  // 4 pairs, 3 triples
  REQUIRE(spec.size() == sim.estimators.control_means.size());
  const std::size_t first = spec.neighbors_at();
  const int levels = sim.plan.levels;
  // Each is the sum over levels of the largest of 2 or 3 neighbours' task times (checked on the
  // first replications), and its mean is levels * E max.
  check_control_means(sim, first, spec.neighbor_maxima(), 13, [&](std::uint64_t r, const double* k, const double* rows) {
    if (r >= 3) return;
    for (int span : {2, 3})
      for (int i = 0; i + span <= 5; ++i) {
        double sum = 0.0;
        for (int l = 0; l < levels; ++l) {
          double m = rows[i * levels + l];
          for (int j = 1; j < span; ++j) m = std::max(m, rows[(i + j) * levels + l]);
          sum += m;
        }
        CHECK(k[first + static_cast<std::size_t>(span == 2 ? i : 4 + i)] == Approx(sum).epsilon(1e-12));
      }
  });
  // Where the regression would hold more than max_controls, the cubes go first: nn at n = 16 keeps
  // 16 sums, the level maxima, 16 squares and 15 + 14 neighbours' maxima: 62, 63 with the surrogate.
  const auto wide = prepared(StructureKind::nearest_neighbor, 16, 8, "uniform", 10, 0.1);
  CHECK(wide.estimators.controls.max_power == 2);
  CHECK(wide.estimators.controls.neighbor_max);
  CHECK(wide.estimators.controls.size() == 62);
  // A run capped at 200 replications fits its controls to the cap (4 (J + 1) <= 200): the
  // neighbours' maxima go too, the squares stay (16 + 1 + 16 and the surrogate), the means in step,
  // and auto still takes cv.
  auto capped = wide.estimators;
  engine::fit_controls(capped, 200);
  CHECK(capped.controls.max_power == 2);
  CHECK_FALSE(capped.controls.neighbor_max);
  REQUIRE(capped.controls.size() == 33);
  REQUIRE(capped.control_means.size() == 33);
  for (std::size_t j = 0; j < 33; ++j) CHECK(capped.control_means[j] == wide.estimators.control_means[j]);
  CHECK(engine::resolve_estimator(Estimator::automatic, capped, 200) == Estimator::cv);
  CHECK(engine::resolve_estimator(Estimator::automatic, wide.estimators, 200) == Estimator::mc);
}

TEST_CASE("the surrogate's mean stops on the run's target, tightened to its share of the variance", "[estimators]") {
  const auto nn = prepared(StructureKind::nearest_neighbor, 4, 1, "uniform", 20, 0.05);
  REQUIRE(nn.estimators.surrogate);
  engine::StopRule stop;
  stop.target_reps = 10000;
  const auto s = engine::estimate_surrogate(nn.estimators, options(10000, 1), stop);
  // Its standard error is within that of 10,000 / surrogate_share plain replications of itself,
  // reached before the cap (4 x 10,000) since its own controls pay about 10 times here.
  CHECK(s.stderr_ <= s.stddev / std::sqrt(10000 / engine::surrogate_share));
  CHECK(s.reps < engine::surrogate_reps(10000));
  CHECK(same_bits(s, engine::estimate_surrogate(nn.estimators, options(10000, 1, 2), stop)));
  // Without a target it takes the whole cap.
  CHECK(engine::estimate_surrogate(nn.estimators, options(1000, 1)).reps == engine::surrogate_reps(1000));
}

TEST_CASE("every estimator and the stopping rule give the same bits on 1 and 2 threads", "[estimators]") {
  const auto nn = prepared(StructureKind::nearest_neighbor, 4, 1, "uniform", 20, 0.1);
  const auto ms = prepared(StructureKind::master_slave, 4, 1, "normal", 20);
  for (const auto* sim : {&nn, &ms}) {
    for (const Estimator e : {Estimator::mc, Estimator::cv, Estimator::antithetic, Estimator::antithetic_cv}) {
      INFO(engine::to_string(e));
      const auto one = estimate(*sim, e, 1000, 9, 1), two = estimate(*sim, e, 1000, 9, 2);
      CHECK(same_bits(one.estimate, two.estimate));
      CHECK(one.variance_factor == two.variance_factor);
      const engine::StopRule stop{0.0, 0.002};
      const auto s1 = estimate(*sim, e, 20000, 9, 1, stop), s2 = estimate(*sim, e, 20000, 9, 2, stop);
      CHECK(same_bits(s1.estimate, s2.estimate));
      CHECK(s1.estimate.reps < 20000 * (e == Estimator::mc || e == Estimator::cv ? 1 : 2));
      CHECK((s1.estimate.ci_high - s1.estimate.ci_low) / 2 <= 0.002 * s1.estimate.mean);
    }
  }
}

TEST_CASE("stopping on a target standard error is a prefix of the full run", "[estimators]") {
  const auto nn = prepared(StructureKind::nearest_neighbor, 4, 1, "normal", 20);
  const auto stopped = estimate(nn, Estimator::mc, 100000, 4, 2, {0.05, 0.0});
  CHECK(stopped.estimate.stderr_ <= 0.05);
  CHECK(stopped.estimate.reps % engine::block_size == 0);
  CHECK(stopped.estimate.reps < 100000);
  // The same blocks folded the same way: a plain run of that many replications.
  CHECK(same_bits(stopped.estimate, engine::run(nn.plan, options(stopped.estimate.reps, 4, 1))));
  // The cap wins over an unreachable target.
  const auto capped = estimate(nn, Estimator::cv, 300, 4, 2, {1e-9, 0.0});
  CHECK(capped.estimate.reps == 300);
}

TEST_CASE("a standard error floor meets the targets at that standard error", "[estimators]") {
  const auto nn = prepared(StructureKind::nearest_neighbor, 4, 1, "normal", 20);
  // The makespans' sd here is about 1: 10,000 plain replications' se is about 0.01, so the floor
  // 0.05 is the binding target at every check and the run is the one a target se of 0.05 makes.
  const engine::StopRule paper{0.0, 0.0, 10000}, floored{0.0, 0.0, 10000, 0.05};
  for (const Estimator e : {Estimator::mc, Estimator::cv}) {
    INFO(engine::to_string(e));
    const auto fine = estimate(nn, e, 100000, 4, 2, paper), coarse = estimate(nn, e, 100000, 4, 2, floored);
    REQUIRE(fine.estimate.stddev < 5.0);
    CHECK(coarse.estimate.stderr_ <= 0.05);
    CHECK(coarse.estimate.reps * 4 < fine.estimate.reps);
    CHECK(same_bits(coarse.estimate, estimate(nn, e, 100000, 4, 2, {0.05, 0.0}).estimate));
    CHECK(same_bits(coarse.estimate, estimate(nn, e, 100000, 4, 1, floored).estimate));
    // A floor below the targets changes nothing; alone, it is the target.
    CHECK(same_bits(fine.estimate, estimate(nn, e, 100000, 4, 2, {0.0, 0.0, 10000, 1e-6}).estimate));
    CHECK(same_bits(coarse.estimate, estimate(nn, e, 100000, 4, 2, {0.0, 0.0, 0, 0.05}).estimate));
  }
}

// A run with a target says whether it met it (target_met in its record); without a target the
// record has no such field. Before, a run the cap stopped first looked like one that met its target.
TEST_CASE("a run with a target says whether it met it before the cap", "[estimators]") {
  for (const Estimator e : {Estimator::mc, Estimator::cv}) {
    INFO(engine::to_string(e));
    const auto nn = prepared(StructureKind::nearest_neighbor, 4, 1, "normal", 20);
    const auto capped = estimate(nn, e, 300, 4, 2, {1e-9, 0.0});
    REQUIRE(capped.target_met.has_value());
    CHECK_FALSE(*capped.target_met);
    const auto met = estimate(nn, e, 100000, 4, 2, {0.05, 0.0});
    REQUIRE(met.target_met.has_value());
    CHECK(*met.target_met);
    CHECK_FALSE(estimate(nn, e, 300, 4, 2, {}).target_met.has_value());
  }
  engine::Model model = engine::Model::wilson(StructureKind::nearest_neighbor, 4, 1, "1/2", "normal", 20);
  const engine::RunOptions run_options = options(300, 1);
  for (const double target : {1e-9, 10.0}) {
    engine::Simulation sim = engine::prepare(model);
    engine::run(sim, run_options, false, Estimator::mc, {target, 0.0});
    CHECK(engine::simulation_record(sim, 1).text("target_met") == (target > 1.0 ? "true" : "false"));
  }
  engine::Simulation plain = engine::prepare(model);
  engine::run(plain, run_options, false, Estimator::mc);
  const auto names = engine::simulation_record(plain, 1).names();
  CHECK(std::find(names.begin(), names.end(), "target_met") == names.end());
}

namespace {

// 400 independent runs of `reps` replications (pairs) each, seeds 5000...: how many 95% intervals
// cover `reference` (widened by the reference's own standard error, in quadrature), and the ratio
// of the mean reported standard error to the spread of the 400 estimates.
struct Coverage {
  int covered = 0;
  double se_over_spread = 0.0;
  double factor = 0.0;  // mean variance factor
};

// `surrogate`: each run estimates the multi-fidelity surrogate's mean on its own seed first, as
// engine::run(Simulation&) does.
Coverage coverage(const engine::Simulation& sim, Estimator e, std::uint64_t reps, double reference,
                  double reference_se = 0.0, bool surrogate = false) {
  Coverage c;
  engine::Accumulator estimates;
  double se_sum = 0.0;
  for (std::uint64_t k = 0; k < 400; ++k) {
    engine::EstimatorSetup setup = sim.estimators;
    if (surrogate) setup.surrogate_mean = engine::estimate_surrogate(setup, options(reps, 5000 + k));
    else setup.surrogate_mean.reset();
    const auto r = engine::run_estimator(sim.plan, setup, e, options(reps, 5000 + k));
    const double t = (r.estimate.ci_high - r.estimate.ci_low) / 2 / r.estimate.stderr_;
    const double half = t * std::hypot(r.estimate.stderr_, reference_se);
    c.covered += std::abs(r.estimate.mean - reference) <= half;
    estimates.add(r.estimate.mean);
    se_sum += r.estimate.stderr_;
    c.factor += r.variance_factor / 400;
  }
  c.se_over_spread = (se_sum / 400) / std::sqrt(estimates.m2 / 399);
  return c;
}

// Binomial(400, 0.95): mean 380, sd 4.36; accept 380 +- 4 sd. The spread of 400 estimates has a
// relative error of about 1/sqrt(800) = 3.5%: accept the ratio within 15%.
void check(const Coverage& c) {
  INFO("covered " << c.covered << "/400, se/spread " << c.se_over_spread << ", variance factor " << c.factor);
  CHECK(c.covered >= 363);
  CHECK(c.covered <= 397);
  CHECK(c.se_over_spread == Approx(1.0).epsilon(0.15));
  CHECK(c.factor > 1.0);
}

}  // namespace

TEST_CASE("control-variate and antithetic intervals cover exact expectations 95% of the time", "[estimators][calibration]") {
  SECTION("async normal: cv, antithetic, antithetic-cv against the exact mean") {
    const auto sim = prepared(StructureKind::asynchronous, 6, 2, "normal", 20);
    const double exact = *sim.estimators.exact;
    check(coverage(sim, Estimator::cv, 100, exact));
    check(coverage(sim, Estimator::antithetic, 100, exact));
    check(coverage(sim, Estimator::antithetic_cv, 100, exact));
  }
  SECTION("sync at C = 0 with the processor sums alone (the level-max sum is the makespan itself)") {
    auto sim = prepared(StructureKind::synchronous, 5, 2, "uniform", 20);
    sim.estimators.controls.level_max = false;
    sim.estimators.control_means.pop_back();
    const double exact = *sim.estimators.exact;
    check(coverage(sim, Estimator::cv, 100, exact));
    check(coverage(sim, Estimator::antithetic_cv, 100, exact));
  }
  SECTION("sync, nn and ms with C > 0, against a long plain run with its own error counted") {
    // No exact mean exists with communication: the reference is 400,000 plain replications on
    // another seed, its standard error widening every interval in quadrature.
    const auto sync = prepared(StructureKind::synchronous, 4, 1, "uniform", 20, 0.1);
    const auto nn = prepared(StructureKind::nearest_neighbor, 4, 1, "uniform", 20, 0.1);
    const auto ms = prepared(StructureKind::master_slave, 3, 1, "normal", 20, 0.05);
    for (const auto* sim : {&sync, &nn, &ms}) {
      const auto reference = engine::run(sim->plan, options(400000, 77, 0));
      check(coverage(*sim, Estimator::cv, 100, reference.mean, reference.stderr_));
      check(coverage(*sim, Estimator::antithetic_cv, 100, reference.mean, reference.stderr_));
    }
  }
  SECTION("master-bound ms: the sums, the last draws and the dealing controls") {
    // 36 controls: 400 replications a run, so that the regression's residual degrees of freedom
    // (363) keep its standard error sound (at 100 it reads 0.68 of the spread).
    const auto master = prepared(StructureKind::master_slave, 16, 8, "uniform", 20, 0.15);
    REQUIRE(master.estimators.controls.size() == 36);
    const auto reference = engine::run(master.plan, options(400000, 77, 0));
    check(coverage(master, Estimator::cv, 400, reference.mean, reference.stderr_));
  }
  SECTION("nn with C > 0 and the multi-fidelity control, its estimated mean's error counted") {
    const auto nn = prepared(StructureKind::nearest_neighbor, 4, 1, "uniform", 20, 0.05);
    REQUIRE(nn.estimators.surrogate);
    const auto reference = engine::run(nn.plan, options(400000, 77, 0));
    const auto with = coverage(nn, Estimator::cv, 100, reference.mean, reference.stderr_, true);
    check(with);
    // The surrogate tracks the protocol at small C: it must beat the sums and level maxima alone
    // (measured on 20 seeds: 11.7 against 8.3; 400 runs pin each factor to about 2%).
    const auto without = coverage(nn, Estimator::cv, 100, reference.mean, reference.stderr_, false);
    INFO("variance factor with the surrogate " << with.factor << ", without " << without.factor);
    CHECK(with.factor > 1.2 * without.factor);
  }
}

}  // namespace estimators_test
