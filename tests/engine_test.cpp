// The Monte Carlo driver, its streams and its statistics.
#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include "bounds/closed_forms.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "structures/structure.h"

namespace engine_test {

using namespace hetstruct;
using distributions::Law;

namespace {

engine::Estimate simulate(const structures::Structure& s, std::uint64_t reps, std::uint64_t seed, int threads) {
  engine::RunOptions options;
  options.reps = reps;
  options.seed = seed;
  options.threads = threads;
  return engine::run(engine::compile(s), options);
}

void require_identical(const engine::Estimate& a, const engine::Estimate& b) {
  REQUIRE(a.reps == b.reps);
  REQUIRE(a.mean == b.mean);
  REQUIRE(a.stderr_ == b.stderr_);
  REQUIRE(a.ci_low == b.ci_low);
  REQUIRE(a.ci_high == b.ci_high);
  REQUIRE(a.min == b.min);
  REQUIRE(a.max == b.max);
}

}  // namespace

TEST_CASE("streams are functions of (seed, replication, processor)", "[engine]") {
  engine::ProcessorStream a(7, 3, 2), b(7, 3, 2), other_proc(7, 3, 1), other_rep(7, 4, 2), other_seed(8, 3, 2);
  bool differs_proc = false, differs_rep = false, differs_seed = false;
  for (int i = 0; i < 100; ++i) {
    const auto x = a();
    REQUIRE(x == b());
    REQUIRE(x <= engine::ProcessorStream::max());
    differs_proc |= x != other_proc();
    differs_rep |= x != other_rep();
    differs_seed |= x != other_seed();
  }
  REQUIRE(differs_proc);
  REQUIRE(differs_rep);
  REQUIRE(differs_seed);
}

TEST_CASE("the same seed gives bit-identical results on 1, 2 and 3 threads", "[engine]") {
  const auto procs = structures::heterogeneous(5, 2, 0.5, Law::paper_normal());
  // 1000 replications = 16 blocks (the last one partial): every thread gets several.
  for (const auto& s : {structures::asynchronous(procs, 50), structures::synchronous(procs, 50),
                        structures::nearest_neighbor(procs, 50), structures::master_slave(procs, 50)}) {
    INFO(s.name);
    const auto one = simulate(s, 1000, 42, 1);
    require_identical(one, simulate(s, 1000, 42, 2));
    require_identical(one, simulate(s, 1000, 42, 3));
    require_identical(one, simulate(s, 1000, 42, 0));
    REQUIRE(one.mean != simulate(s, 1000, 43, 2).mean);  // and the seed matters
  }
}

TEST_CASE("one replication has an undefined standard error", "[engine]") {
  const auto s = structures::synchronous(structures::heterogeneous(3, 0, 1.0, Law::paper_uniform()), 10);
  const auto e = simulate(s, 1, 1, 1);
  REQUIRE(e.reps == 1);
  REQUIRE_FALSE(e.has_error());
  REQUIRE(std::isnan(e.stderr_));
  REQUIRE(e.min == e.mean);
  REQUIRE(e.max == e.mean);
}

TEST_CASE("accumulators merged block by block agree with one pass", "[engine]") {
  engine::Accumulator whole, left, right;
  std::vector<double> xs;
  for (int i = 0; i < 1000; ++i) xs.push_back(500.0 + std::sin(i) * 10.0);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    whole.add(xs[i]);
    (i < 357 ? left : right).add(xs[i]);
  }
  left.merge(right);
  REQUIRE(left.count == whole.count);
  REQUIRE(left.mean == Approx(whole.mean).epsilon(1e-14));
  REQUIRE(left.m2 == Approx(whole.m2).epsilon(1e-10));
  REQUIRE(left.min == whole.min);
  REQUIRE(left.max == whole.max);

  // Student t with 1 degree of freedom: the 97.5% quantile is 12.7062047...
  engine::Accumulator two;
  two.add(1.0);
  two.add(3.0);
  const auto e = engine::summarize(two);
  REQUIRE(e.stderr_ == Approx(1.0));
  REQUIRE(e.ci_high - e.mean == Approx(12.706204736174698).epsilon(1e-12));
}

TEST_CASE("synchronous uniform simulation agrees with Eq. 6", "[engine]") {
  // 4 standard errors: over these 14 configurations a false alarm has probability < 0.1%, and a
  // wrong recurrence or law is off by many more (the (n,m) and (n-m,0) values differ by > 10 SE).
  const int levels = 100;
  const std::uint64_t reps = 2000;
  struct Case { int n, m; double a; };
  for (const auto c : {Case{1, 0, 0.5}, Case{1, 1, 0.5}, Case{3, 0, 0.5}, Case{4, 1, 0.5}, Case{4, 4, 0.8},
                       Case{5, 1, 2.0 / 3.0}, Case{8, 3, 0.5}, Case{8, 3, 0.8}, Case{16, 8, 0.5}, Case{16, 8, 0.8},
                       Case{6, 2, 1.0}, Case{6, 3, 0.01}, Case{7, 2, 1.5}, Case{32, 5, 0.9}}) {
    INFO("n=" << c.n << " m=" << c.m << " a=" << c.a);
    const auto s = structures::synchronous(structures::heterogeneous(c.n, c.m, c.a, Law::paper_uniform()), levels);
    const auto e = simulate(s, reps, 11, 0);
    const double exact = bounds::synchronous_uniform_mean(c.n, c.m, c.a, levels);
    REQUIRE(std::abs(e.mean - exact) <= 4.0 * e.stderr_);
  }
}

TEST_CASE("synchronous and asynchronous simulations agree with quadrature and the exact uniform sums", "[engine]") {
  const int levels = 100;
  for (const auto& law : {Law::paper_normal(), Law::mixture({{0.3, Law::uniform(0, 1)}, {0.7, Law::paper_normal()}})}) {
    const auto procs = structures::heterogeneous(8, 3, 0.5, law);
    const auto sync = structures::synchronous(procs, levels);
    const auto e = simulate(sync, 2000, 5, 0);
    REQUIRE(std::abs(e.mean - bounds::synchronous_mean(sync.laws, levels)) <= 4.0 * e.stderr_);
  }
  // Sums of normals are normal: the asynchronous expectation is exact.
  const auto async = structures::asynchronous(structures::heterogeneous(8, 3, 0.5, Law::paper_normal()), levels);
  const auto exact = bounds::asynchronous_mean(async.laws, levels);
  REQUIRE(exact.exact);
  const auto e = simulate(async, 4000, 5, 0);
  REQUIRE(std::abs(e.mean - exact.value) <= 4.0 * e.stderr_);

  // Sums of uniforms: exact by the Irwin-Hall formula (10 levels) and by inverting the
  // characteristic function (40 levels). At 10 levels the simulation tells the exact value from
  // the normal approximation (5.77450 against 5.77255, 5.7 standard errors apart).
  for (const int depth : {10, 40}) {
    INFO("levels " << depth);
    const auto uniform = structures::asynchronous(structures::heterogeneous(4, 1, 0.5, Law::paper_uniform()), depth);
    const auto cf = bounds::asynchronous_mean(uniform.laws, depth);
    REQUIRE(cf.method == "cf_inversion");
    const auto u = simulate(uniform, depth == 10 ? 4000000 : 1000000, 5, 0);
    REQUIRE(std::abs(u.mean - cf.value) <= 4.0 * u.stderr_);
    if (depth == 10) REQUIRE(std::abs(cf.value - 5.77255022929595) > 5.0 * u.stderr_);  // normal_approx's value
  }
}

TEST_CASE("10^6 levels: the closed forms still hold", "[engine]") {
  // 16 replications of 4 x 10^6 tasks; 5 standard errors (Student t, 15 degrees of freedom:
  // a false alarm has probability 2e-4). A regular structure's graph would take ~1 GB here.
  const int levels = 1000000;
  const auto uniform = structures::heterogeneous(4, 1, 0.5, Law::paper_uniform());
  const auto sync_s = structures::synchronous(uniform, levels);
  const auto sync = simulate(sync_s, 16, 3, 0);
  REQUIRE_FALSE(sync_s.graph_built());  // the loop plan never asks for the graph
  const double sync_exact = bounds::synchronous_uniform_mean(4, 1, 0.5, levels);
  REQUIRE(std::abs(sync.mean - sync_exact) <= 5.0 * sync.stderr_);
  REQUIRE(sync.stderr_ < 1e-4 * sync_exact);

  const auto async_s = structures::asynchronous(structures::heterogeneous(4, 1, 0.5, Law::paper_normal()), levels);
  const auto exact = bounds::asynchronous_mean(async_s.laws, levels);
  REQUIRE(exact.exact);
  const auto async = simulate(async_s, 16, 3, 0);
  REQUIRE(std::abs(async.mean - exact.value) <= 5.0 * async.stderr_);
}

TEST_CASE("a tiny scale (a = 1e-9) and a = 1 keep Eq. 6 and the normal sums exact", "[engine]") {
  // 4 standard errors, as above. With m = n every time is scaled: the mean scales exactly.
  const int levels = 100;
  struct Case { int n, m; double a; };
  for (const auto c : {Case{4, 1, 1e-9}, Case{4, 4, 1e-9}, Case{4, 2, 1.0}, Case{1, 1, 1e-9}}) {
    INFO("n=" << c.n << " m=" << c.m << " a=" << c.a);
    const auto procs = structures::heterogeneous(c.n, c.m, c.a, Law::paper_uniform());
    const auto e = simulate(structures::synchronous(procs, levels), 2000, 13, 0);
    const double exact = bounds::synchronous_uniform_mean(c.n, c.m, c.a, levels);
    REQUIRE(e.stderr_ > 0.0);
    REQUIRE(std::abs(e.mean - exact) <= 4.0 * e.stderr_);
  }
  // (4,4) at a = 1e-9 is 1e-9 times (4,0), draw for draw (a*X is a times the draw of X).
  const auto all_fast = simulate(structures::synchronous(structures::heterogeneous(4, 4, 1e-9, Law::paper_uniform()), levels), 500, 13, 0);
  const auto none_fast = simulate(structures::synchronous(structures::heterogeneous(4, 0, 1e-9, Law::paper_uniform()), levels), 500, 13, 0);
  REQUIRE(all_fast.mean == Approx(1e-9 * none_fast.mean).epsilon(1e-12));
  const auto async_s = structures::asynchronous(structures::heterogeneous(4, 1, 1e-9, Law::paper_normal()), levels);
  const auto exact = bounds::asynchronous_mean(async_s.laws, levels);
  const auto e = simulate(async_s, 2000, 13, 0);
  REQUIRE(std::abs(e.mean - exact.value) <= 4.0 * e.stderr_);
}

TEST_CASE("common random numbers pair (n,m) with (n,0) draw for draw", "[engine]") {
  // Replication r of both configurations uses the same streams: the paired difference varies far
  // less than two independent estimates would (for sync it is < 1/4 of the unpaired variance).
  const int levels = 200;
  const auto het = engine::compile(structures::synchronous(structures::heterogeneous(8, 3, 0.8, Law::paper_uniform()), levels));
  const auto hom = engine::compile(structures::synchronous(structures::heterogeneous(8, 0, 0.8, Law::paper_uniform()), levels));
  engine::Workspace w1(het), w2(hom);
  engine::Accumulator a, b, diff;
  for (std::uint64_t r = 0; r < 500; ++r) {
    const double x = engine::evaluate(het, 9, r, w1), y = engine::evaluate(hom, 9, r, w2);
    a.add(x);
    b.add(y);
    diff.add(x - y);
  }
  REQUIRE(diff.m2 < 0.25 * (a.m2 + b.m2));
  // With the same variates a fast processor draws a*x <= x: no level gets longer, ever.
  REQUIRE(diff.max <= 0.0);
  REQUIRE(diff.mean < 0.0);
}

}  // namespace engine_test
