// Wilson's Section 5 bounds (Eq. 10-17), against values worked by hand.
#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include "bounds/closed_forms.h"
#include "bounds/communication_bounds.h"
#include "distributions/input_error.h"

namespace comm_bounds_test {

using namespace hetstruct;
using distributions::Law;

TEST_CASE("Eq. 11: synchronous bounds add 2pC and (n+1)pC", "[comm-bounds]") {
  const auto b = bounds::synchronous_bounds(834.2, 8, 1000, 0.1);
  REQUIRE(b.lower == Approx(834.2 + 200.0).epsilon(1e-15));
  REQUIRE(b.upper == Approx(834.2 + 900.0).epsilon(1e-15));
  const auto zero = bounds::synchronous_bounds(834.2, 8, 1000, 0.0);
  REQUIRE(zero.lower == 834.2);
  REQUIRE(zero.upper == 834.2);
}

TEST_CASE("Eq. 12: nearest-neighbour bounds add 2pC and C(2n + 6(p-1))", "[comm-bounds]") {
  const auto b = bounds::neighbor_bounds(813.0, 8, 1000, 0.1);
  REQUIRE(b.lower == Approx(813.0 + 200.0).epsilon(1e-15));
  REQUIRE(b.upper == Approx(813.0 + 0.1 * (16 + 6 * 999)).epsilon(1e-15));
}

TEST_CASE("Eq. 14-16: the speed-proportional split with its ceilings", "[comm-bounds]") {
  // (8,3), means 1/2 and 1/4, C = 1/4: y = ceil((8000/5)(1) / ((3/5)(1) + 3/4)) = ceil(1185.19) = 1186,
  // x = ceil((8000 - 3*1186)/5) = ceil(888.4) = 889.
  const auto s = bounds::proportional_split(8, 3, 1000, 0.5, 0.25, 0.25);
  REQUIRE(s.fast_tasks == 1186);
  REQUIRE(s.slow_tasks == 889);
  REQUIRE((8 - 3) * s.slow_tasks + 3 * s.fast_tasks >= 8000);  // every task is placed
  REQUIRE_THROWS_AS(bounds::proportional_split(8, 0, 1000, 0.5, 0.25, 0.25), InputError);
}

TEST_CASE("Eq. 13 and 17: master-slave bounds", "[comm-bounds]") {
  const Law slow = Law::paper_normal(), fast = Law::scaled(0.5, slow);
  std::vector<Law> laws(3, fast);
  laws.resize(8, slow);
  const auto b = bounds::master_slave_bounds(laws, 3, 1000, 0.25);
  // Eq. 17 with the split above: max(889 (1/2 + 1/2), 1186 (1/4 + 1/2)) = max(889, 889.5).
  REQUIRE(b.lower == Approx(889.5).epsilon(1e-15));
  // Eq. 13: n' = 7 slaves, p' = ceil(8000/7) = 1143 tasks each; E(asynch') over the slow law by the
  // normal approximation: 1143/2 + sqrt(1143/12) E[max of 7 standard normals]; plus 2 n' p' C.
  const double e7 = bounds::expected_max(std::vector<Law>(7, Law::normal(0.0, 1.0)));
  REQUIRE(e7 == Approx(1.3521783756).epsilon(1e-9));  // tabulated expected maximum of 7 normals
  REQUIRE(b.upper == Approx(1143 * 0.5 + std::sqrt(1143 / 12.0) * e7 + 2 * 7 * 1143 * 0.25).epsilon(1e-10));

  // One speed (m = 0): Eq. 13's lower bound, E(asynch) + 2pC.
  const auto h = bounds::master_slave_bounds(std::vector<Law>(4, slow), 0, 1000, 0.1);
  REQUIRE(h.lower == Approx(bounds::asynchronous_mean(std::vector<Law>(4, slow), 1000).value + 200.0).epsilon(1e-12));
  REQUIRE_THROWS_AS(bounds::master_slave_bounds({slow}, 0, 1000, 0.1), InputError);
}

}  // namespace comm_bounds_test
