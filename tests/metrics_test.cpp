// Zhang and Yan's heterogeneity measures: formulas, and busy times measured by the engine.
#include <vector>

#include <catch2/catch.hpp>

#include "bounds/heterogeneity.h"
#include "distributions/input_error.h"
#include "engine/driver/monte_carlo.h"
#include "structures/structure.h"

namespace metrics_test {

using namespace hetstruct;
using distributions::Law;

TEST_CASE("power weights and heterogeneity (Eq. 1-4)", "[metrics]") {
  // The paper's example: 100 workstations, the fastest twice as fast as the 99 others; then the
  // fastest doubles its speed. H = 99 * 0.5 / 100 and 99 * 0.75 / 100 (the paper rounds to 0.5, 0.75).
  std::vector<double> times(100, 2.0);
  times[0] = 1.0;
  const auto w = bounds::power_weights(times);
  REQUIRE(w[0] == 1.0);
  REQUIRE(w[1] == 0.5);
  REQUIRE(bounds::heterogeneity(w) == Approx(0.495).epsilon(1e-15));
  times[0] = 0.5;
  REQUIRE(bounds::heterogeneity(bounds::power_weights(times)) == Approx(0.7425).epsilon(1e-15));
  REQUIRE(bounds::heterogeneity(bounds::power_weights({3.0, 3.0})) == 0.0);  // homogeneous
  REQUIRE(bounds::efficiency(1.5, {1.0, 0.5}) == 1.0);                         // Eq. 14
  REQUIRE(bounds::property_speedup(2.0, 0.25) == 1.5);                          // Eq. 6
  REQUIRE_THROWS_AS(bounds::power_weights({1.0, -0.5}), InputError);
}

TEST_CASE("busy times give P_deg and the speedup by definition", "[metrics]") {
  // Asynchronous, two processors, 3 tasks each of constant times 1 and 2: busy 3 and 6, makespan 6.
  // P_deg = 9/6 = 1.5. On the fastest processor (W = 1, 1/2) the work takes 3 + 6/2 = 6: SP = 1,
  // while Property 1 gives P_deg (1 - H) = 1.5 * 0.75 = 1.125: it assumes equal busy times.
  structures::Processors procs{2, 0, Law::constant(2.0), Law::constant(2.0)};
  procs.fast_count = 1;
  procs.fast_law = Law::constant(1.0);
  const auto plan = engine::compile(structures::asynchronous(procs, 3));
  const std::vector<double> w = bounds::power_weights({1.0, 2.0});
  engine::RunOptions options;
  options.reps = 10;
  const auto m = engine::run_with_metrics(plan, options, w);
  REQUIRE(m.makespan.mean == 6.0);
  REQUIRE(m.parallelism_degree.mean == 1.5);
  REQUIRE(m.speedup.mean == 1.0);
  REQUIRE(bounds::property_speedup(m.parallelism_degree.mean, bounds::heterogeneity(w)) == 1.125);
}

TEST_CASE("measuring busy times leaves the makespan's bits unchanged", "[metrics]") {
  const auto procs = structures::heterogeneous(6, 2, 0.5, Law::paper_normal());
  engine::RunOptions options;
  options.reps = 300;
  options.seed = 5;
  engine::CompileOptions comm;
  comm.comm_cost = 0.05;
  for (const auto& [s, c] : {std::pair{structures::asynchronous(procs, 40), engine::CompileOptions{}},
                             std::pair{structures::nearest_neighbor(procs, 40), engine::CompileOptions{}},
                             std::pair{structures::master_slave(procs, 40), engine::CompileOptions{}},
                             std::pair{structures::synchronous(procs, 40), comm},
                             std::pair{structures::master_slave(procs, 40), comm}}) {
    INFO(s.name);
    const auto plan = engine::compile(s, c);
    const auto w = bounds::power_weights({0.25, 0.25, 0.5, 0.5, 0.5, 0.5});
    const auto m = engine::run_with_metrics(plan, options, w);
    const auto e = engine::run(plan, options);
    REQUIRE(m.makespan.mean == e.mean);
    REQUIRE(m.makespan.stderr_ == e.stderr_);
    // Where each processor runs its 40 tasks, the busy times add up to 2*40/4 + 4*40/2 = 100 on
    // average (a pool's share depends on who is idle); P_deg * makespan is that sum up to the
    // covariance of two means over 300 replications (well within 2%).
    if (s.kind != structures::StructureKind::master_slave)
      REQUIRE(m.parallelism_degree.mean * m.makespan.mean == Approx(2 * 40 * 0.25 + 4 * 40 * 0.5).epsilon(0.02));
  }
}

}  // namespace metrics_test
