// Wilson's Section 5 bounds against the simulated protocols, where the paper says they hold.
#include <cmath>

#include <catch2/catch.hpp>

#include "bounds/closed_forms.h"
#include "bounds/communication_bounds.h"
#include "engine/driver/monte_carlo.h"
#include <tuple>
#include <utility>
#include "structures/structure.h"

namespace protocol_bounds_test {

using namespace hetstruct;
using distributions::Law;

namespace {

constexpr int levels = 200;

engine::Estimate simulate(const structures::Structure& s, double comm, std::uint64_t reps = 200,
                          const std::string& protocol = "") {
  engine::CompileOptions c;
  c.comm_cost = comm;
  if (!protocol.empty()) c.protocol = &engine::find_protocol(s.kind, protocol);
  engine::RunOptions options;
  options.reps = reps;
  options.seed = 3;
  return engine::run(engine::compile(s, c), options);
}

}  // namespace

TEST_CASE("nearest-neighbour and master-slave means lie between their bounds", "[protocol-bounds]") {
  // Figures 6, 7, 9, 10: the simulated curves of nn and ms run between the bound curves. The
  // margins are tens of standard errors wide, so no tolerance is needed.
  for (const auto& [n, m] : {std::pair{8, 3}, std::pair{16, 8}})
    for (const double c : {0.025, 0.1, 0.25}) {
      INFO("(" << n << "," << m << ") C=" << c);
      const auto procs = structures::heterogeneous(n, m, 0.5, Law::paper_normal());
      const auto nn = structures::nearest_neighbor(procs, levels);
      const double nn_zero = simulate(nn, 0.0).mean;
      const auto nn_bounds = bounds::neighbor_bounds(nn_zero, n, levels, c);
      const auto e = simulate(nn, c);
      CHECK(nn_bounds.lower < e.mean);
      CHECK(e.mean < nn_bounds.upper);

      const auto ms = structures::master_slave(procs, levels);
      const auto ms_bounds = bounds::master_slave_bounds(ms.laws, m, levels, c);
      const auto f = simulate(ms, c);
      CHECK(ms_bounds.lower < f.mean);
      CHECK(f.mean < ms_bounds.upper);
    }
}

TEST_CASE("synchronous means follow Eq. 11", "[protocol-bounds]") {
  // The coordinator is Eq. 11's upper bound exactly, per level: its mean is the upper bound up
  // to the Monte Carlo error of E(synch) (4 standard errors). The
  // default reading stays above the lower bound; near C = .25 it overshoots the upper bound by
  // up to 0.5% (the paper's numbers do not: a known residual of the reading).
  const auto procs = structures::heterogeneous(8, 3, 0.5, Law::paper_normal());
  const auto s = structures::synchronous(procs, levels);
  const double zero = bounds::synchronous_mean(s.laws, levels);
  for (const double c : {0.025, 0.1, 0.25}) {
    INFO("C=" << c);
    const auto b = bounds::synchronous_bounds(zero, 8, levels, c);
    engine::CompileOptions coordinator;
    coordinator.comm_cost = c;
    coordinator.protocol = &engine::find_protocol(structures::StructureKind::synchronous, "coordinator");
    engine::RunOptions options;
    options.reps = 200;
    options.seed = 3;
    const auto e = engine::run(engine::compile(s, coordinator), options);
    CHECK(std::abs(e.mean - b.upper) <= 4.0 * e.stderr_);  // b.upper is on the exact E(synch)
    // On the same draws the coordinator is the zero-communication makespan plus (n+1)C a level,
    // exactly: only the rounding of the sums differs.
    CHECK(e.mean == Approx(simulate(s, 0.0).mean + 9.0 * levels * c).epsilon(1e-12));
    const auto d = simulate(s, c);
    CHECK(b.lower < d.mean);
    CHECK(d.mean < b.upper * 1.005);
  }
  // The initiator-collector reading's own values at seed 3, 200 replications (printed with %.17g
  // by this configuration when written): any change to the protocol shows, however small.
  CHECK(simulate(s, 0.025, 200, "initiator-collector").mean == Approx(203.22390074663301).epsilon(1e-9));
  CHECK(simulate(s, 0.1, 200, "initiator-collector").mean == Approx(325.49669601521413).epsilon(1e-9));
  CHECK(simulate(s, 0.25, 200, "initiator-collector").mean == Approx(615.0685493235834).epsilon(1e-9));
}

TEST_CASE("communication-bound master-slave cells equal np 2C up to the last task", "[protocol-bounds]") {
  // Tables 5 and 8 at large C: the master's 2C per task serialises everything, so the makespan is
  // n p 2C minus what the end saves: the last results still queued are not counted. The saving
  // does not grow with p: the paper reads 7997 against 8000 for (16,8) and (16,0), C = .25.
  // The reading's own values at seed 3, 50 replications (printed with %.17g by this
  // configuration when written): standard errors near 0.04, so the paper's rounding (7997: a
  // saving of 3 +- 0.5) is the looser check and these the tight one.
  for (const auto& [n, m, own] : {std::tuple{16, 8, 1596.7124758717139}, std::tuple{16, 0, 1596.8052679801749}}) {
    const auto ms = structures::master_slave(structures::heterogeneous(n, m, 0.5, Law::paper_uniform()), levels);
    const double c = 0.25, serial = n * levels * 2.0 * c;
    const auto e = simulate(ms, c, 50);
    INFO("(" << n << "," << m << "): " << e.mean << " +- " << e.stderr_ << " against " << serial);
    CHECK(serial - e.mean == Approx(3.0).margin(0.5));
    CHECK(e.mean == Approx(own).epsilon(1e-9));
  }
}

TEST_CASE("balanced quotas weigh each task's 2C, proportional ones do not", "[protocol-bounds]") {
  // Two processors of constant task times 1 (the master) and 2, 12 tasks, C = 1. proportional:
  // shares 12 (1 : 1/2) = 8 and 4, busy 8*1 + 4*2 = 16. balanced (Eq. 15): weights 1/(1+2) and
  // 1/(2+2), shares 6.86 and 5.14, quotas 7 and 5, busy 7*1 + 5*2 = 17. With constant times the
  // busy total is exact: P_deg times the makespan.
  structures::Processors procs{2, 1, Law::constant(2.0), Law::constant(1.0)};
  const auto s = structures::master_slave(procs, 6);
  engine::RunOptions options;
  options.reps = 2;
  for (const auto& [policy, busy] : {std::pair{"proportional", 16.0}, std::pair{"balanced", 17.0}}) {
    engine::CompileOptions c;
    c.comm_cost = 1.0;
    c.policy = engine::parse_policy(policy);
    const auto m = engine::run_with_metrics(engine::compile(s, c), options, {1.0, 0.5});
    INFO(policy);
    REQUIRE(m.parallelism_degree.mean * m.makespan.mean == Approx(busy).epsilon(1e-12));
  }
}

}  // namespace protocol_bounds_test
