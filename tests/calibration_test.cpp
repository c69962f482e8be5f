// Do the error bars mean what they say? Many independent runs against exact expectations.
#include <cmath>

#include <catch2/catch.hpp>

#include "bounds/closed_forms.h"
#include "engine/driver/monte_carlo.h"
#include "structures/structure.h"

namespace calibration_test {

using namespace hetstruct;
using distributions::Law;

namespace {

engine::Estimate simulate(const structures::Structure& s, std::uint64_t reps, std::uint64_t seed) {
  engine::RunOptions options;
  options.reps = reps;
  options.seed = seed;
  return engine::run(engine::compile(s), options);
}

}  // namespace

TEST_CASE("95% confidence intervals cover exact expectations 95% of the time", "[calibration]") {
  // 400 independent seeds of 100 replications each. Under a calibrated interval the number of
  // covering runs is Binomial(400, 0.95): mean 380, sd 4.36; accept 380 +- 4 sd = [363, 397].
  const int levels = 20;
  struct Case {
    const char* name;
    structures::Structure s;
    double exact;
  };
  const auto uniform = structures::heterogeneous(4, 1, 0.5, Law::paper_uniform());
  const auto normal = structures::heterogeneous(5, 2, 0.8, Law::paper_normal());
  const auto async_normal = structures::heterogeneous(6, 2, 0.5, Law::paper_normal());
  const auto async_s = structures::asynchronous(async_normal, levels);
  const auto sync_normal = structures::synchronous(normal, levels);
  const Case cases[] = {
      {"sync uniform, Eq. 6", structures::synchronous(uniform, levels), bounds::synchronous_uniform_mean(4, 1, 0.5, levels)},
      {"sync normal, quadrature", sync_normal, bounds::synchronous_mean(sync_normal.laws, levels)},
      {"async normal, exact normal sums", async_s, bounds::asynchronous_mean(async_s.laws, levels).value},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    int covered = 0;
    for (std::uint64_t k = 0; k < 400; ++k) {
      const auto e = simulate(c.s, 100, 1000 + k);
      covered += e.ci_low <= c.exact && c.exact <= e.ci_high;
    }
    CHECK(covered >= 363);
    CHECK(covered <= 397);
  }
}

TEST_CASE("the standard error shrinks as 1/sqrt(reps)", "[calibration]") {
  // Four times the replications, half the standard error. The estimated sd at 2000 and 8000
  // replications has a relative error near 1.6% and 0.8%, so the ratio is 2 within about 2%;
  // +-10% is five of those.
  const auto s = structures::synchronous(structures::heterogeneous(4, 1, 0.5, Law::paper_uniform()), 20);
  const auto small = simulate(s, 2000, 7), large = simulate(s, 8000, 8);
  REQUIRE(small.stderr_ / large.stderr_ == Approx(2.0).epsilon(0.10));
}

}  // namespace calibration_test
