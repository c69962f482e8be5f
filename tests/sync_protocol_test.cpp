// Communication protocols of the synchronous structure (engine/kernel/protocols/synchronous.cpp):
// hand-computed levels, the C = 0 reduction, determinism across threads, and the fit to Table 3.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "engine/kernel/communication.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "structures/structure.h"

namespace sync_protocol_test {

using namespace hetstruct;
using distributions::Law;

namespace {

// A synchronous structure of width times.size() whose processor i always takes times[i]; the
// first `fast` processors count as the fast ones (they matter only to the fixed orders).
structures::Structure constant_sync(const std::vector<double>& times, int fast, int levels) {
  const int n = static_cast<int>(times.size());
  auto s = structures::synchronous(structures::Processors{n, fast, Law::constant(1.0), Law::constant(1.0)}, levels);
  for (int i = 0; i < n; ++i) s.laws[i] = Law::constant(times[i]);
  return s;
}

// Set field by field (CompileOptions grows; designated initializers would warn of the rest).
engine::CompileOptions with_comm(double comm, const std::string& protocol = {}) {
  engine::CompileOptions options;
  options.comm_cost = comm;
  if (!protocol.empty()) options.protocol = &engine::find_protocol(structures::StructureKind::synchronous, protocol);
  return options;
}

double makespan(const structures::Structure& s, double comm, const std::string& protocol, std::uint64_t rep = 0) {
  const auto plan = engine::compile(s, with_comm(comm, protocol));
  engine::Workspace ws(plan);
  return engine::evaluate(plan, 1, rep, ws);
}

constexpr double tight = 1e-12;

}  // namespace

TEST_CASE("synchronous protocol names: reading 4, initiator-collector-release, is the default", "[sync-protocol]") {
  const auto names = engine::synchronous_protocol_names();
  REQUIRE(names.front() == "initiator-collector-release");
  for (const char* name : {"initiator-collector", "initiator-collector-slow-first", "initiator-collector-fast-first", "initiator-collector-blocking",
                           "initiator-collector-always-release", "initiator-collector-self", "initiator-collector-release",
                           "initiator-collector-release-whole", "coordinator",
                           "coordinator-fcfs", "coordinator-slow-first"})
    REQUIRE(std::find(names.begin(), names.end(), name) != names.end());
  const auto s = constant_sync({0.5, 0.5, 0.5}, 0, 2);
  REQUIRE(engine::compile(s, with_comm(0.1)).protocol->name == std::string("initiator-collector-release"));
  REQUIRE_THROWS(engine::compile(s, with_comm(0.1, "no-such-protocol")));
}

TEST_CASE("coordinator protocols on hand-computed levels", "[sync-protocol]") {
  // n = 3, C = 0.1, processor times 0.3, 0.5, 0.2 (processor 0 fast), two identical levels.
  const auto s = constant_sync({0.3, 0.5, 0.2}, 1, 2);
  // coordinator (order 0, 1, 2): starts .1, .2, .3; finishes .4, .7, .5;
  //   d1 = .4 + .1 = .5, d2 = max(.5, .7) + .1 = .8, d3 = max(.8, .5) + .1 = .9 = (n+1)C + max X.
  REQUIRE(makespan(s, 0.1, "coordinator") == Approx(1.8).margin(tight));
  // coordinator-slow-first (order 1, 2, 0): starts .1, .2, .3; finishes .6, .4, .6;
  //   d = .7, max(.7, .4) + .1 = .8, max(.8, .6) + .1 = .9: the same (n+1)C + max X.
  REQUIRE(makespan(s, 0.1, "coordinator-slow-first") == Approx(1.8).margin(tight));
  // coordinator-fcfs: finishes .4, .7, .5 taken in the order .4, .5, .7:
  //   d = .5, max(.5, .5) + .1 = .6, max(.6, .7) + .1 = .8.
  REQUIRE(makespan(s, 0.1, "coordinator-fcfs") == Approx(1.6).margin(tight));

  // Times 0.6, 0.2, 0.3: starts .1, .2, .3, finishes .7, .4, .6.
  const auto t = constant_sync({0.6, 0.2, 0.3}, 1, 1);
  // coordinator: (n+1)C + max X = .4 + .6 = 1.0; fcfs: .4 -> .5, .6 -> .7, .7 -> .8.
  REQUIRE(makespan(t, 0.1, "coordinator") == Approx(1.0).margin(tight));
  REQUIRE(makespan(t, 0.1, "coordinator-fcfs") == Approx(0.8).margin(tight));
}

TEST_CASE("initiator-collector with a fixed order on hand-computed levels", "[sync-protocol]") {
  SECTION("the collector finishing last sends the release") {
    // fast-first: position j = processor j. Initiator X0 = .3, collector X1 = .5, position 2 X2 = .2.
    // Initiations: collector [0, .1], position 2 [.1, .2]; the initiator computes from .2.
    // Ready: position 2 at .2 + .2 = .4, initiator at .2 + .3 = .5. Collector computes .1 -> E = .6.
    // Receipts: position 2 [.4, .5] starts before E: E = .7; initiator [.5, .6] starts before E:
    // E = .8. The last message is the initiator's, but the collector's own completion (.8) comes
    // after it: release [.8, .9]. Level .9; two levels 1.8.
    const auto s = constant_sync({0.3, 0.5, 0.2}, 1, 2);
    REQUIRE(makespan(s, 0.1, "initiator-collector-fast-first") == Approx(1.8).margin(tight));
    // slow-first (positions = processors 1, 2, 0): initiator X0 = .5, collector X1 = .2, X2 = .3.
    // E = .1 + .2 = .3; ready: position 2 at .2 + .3 = .5, initiator at .2 + .5 = .7.
    // Receipts [.5, .6] and [.7, .8], both after E: the initiator's is the last completion, no
    // release. Level .8; two levels 1.6.
    REQUIRE(makespan(s, 0.1, "initiator-collector-slow-first") == Approx(1.6).margin(tight));
  }
  SECTION("the initiator's completion last: no release") {
    // fast-first, X = .6, .2, .3: E = .3; ready: position 2 at .5, initiator at .2 + .6 = .8.
    // Receipts [.5, .6] and [.8, .9]; the initiator's is last and after E: level .9.
    REQUIRE(makespan(constant_sync({0.6, 0.2, 0.3}, 1, 1), 0.1, "initiator-collector-fast-first") ==
            Approx(0.9).margin(tight));
  }
  SECTION("waiting messages go lowest position first") {
    // n = 4, fast-first, X = .45, .1, .55, .4. Initiations end at .1, .2, .3; E = .1 + .1 = .2.
    // Ready: position 2 at .2 + .55 = .75, position 3 at .3 + .4 = .7, initiator at .3 + .45 = .75.
    // Receipts: position 3 [.7, .8]; at .8 the initiator and position 2 both wait: the initiator
    // (position 0) goes first [.8, .9], position 2 last [.9, 1.0]; release [1.0, 1.1].
    // (First come first served would end with the initiator at 1.0 and skip the release.)
    REQUIRE(makespan(constant_sync({0.45, 0.1, 0.55, 0.4}, 2, 1), 0.1, "initiator-collector-fast-first") ==
            Approx(1.1).margin(tight));
  }
}

TEST_CASE("initiator-collector-self (reading 3) on hand-computed levels", "[sync-protocol]") {
  const char* self = "initiator-collector-self";
  SECTION("equal task times: x + (n+1)C per level") {
    // n = 3, x = 1, C = .1 (m = 0: the order is the processors'). Initiations: collector [0, .1],
    // position 2 [.1, .2]; self-message [.2, .3]; the initiator computes [.3, 1.3]. The collector
    // computes [.1, 1.1]. Ready: position 2 at .2 + 1 = 1.2, the initiator at 1.3. Receipts
    // [1.2, 1.3], [1.3, 1.4]: the initiator's is last, no release. Level 1.4; two levels 2.8.
    REQUIRE(makespan(constant_sync({1.0, 1.0, 1.0}, 0, 2), 0.1, self) == Approx(2.8).margin(tight));
    // n = 4: initiations end at .1, .2, .3, self [.3, .4], initiator [.4, 1.4]; E = 1.1. Ready 1.2,
    // 1.3, 1.4 (positions 2, 3, initiator): receipts [1.2, 1.3], [1.3, 1.4], [1.4, 1.5]. Level 1.5.
    REQUIRE(makespan(constant_sync({1.0, 1.0, 1.0, 1.0}, 0, 2), 0.1, self) == Approx(3.0).margin(tight));
    // The same with m = 1 (the order changes, not the times) and at C = 1/8, where every sum is
    // exact: x + 4C = 1.5 and x + 5C = 1.625 per level.
    REQUIRE(makespan(constant_sync({1.0, 1.0, 1.0}, 1, 2), 0.1, self) == Approx(2.8).margin(tight));
    REQUIRE(makespan(constant_sync({1.0, 1.0, 1.0}, 1, 2), 0.125, self) == 3.0);
    REQUIRE(makespan(constant_sync({1.0, 1.0, 1.0, 1.0}, 1, 2), 0.125, self) == 3.25);
  }
  // Below, C = 1/8 and dyadic times: every sum is exact, so ties are exact and asserted with ==.
  constexpr double c8 = 0.125;
  SECTION("slow first; waiting messages go lowest position first; the release") {
    // n = 3, m = 1: positions = processors 1, 2, 0. Times by processor .25 (fast), .125, .75:
    // initiator X = .125, collector X = .75, position 2 X = .25.
    // Initiations: collector [0, .125], position 2 [.125, .25]; self [.25, .375]; the initiator
    // computes [.375, .5]: ready .5. Position 2 computes [.25, .5]: ready .5. E = .125 + .75 = .875.
    // At .875 both wait: the initiator (position 0) first [.875, 1], position 2 [1, 1.125]; the
    // last completion is not the initiator's: release [1.125, 1.25]. Level 1.25; two levels 2.5.
    // (Position 2 first would end with the initiator at 1.125, no release.)
    REQUIRE(makespan(constant_sync({0.25, 0.125, 0.75}, 1, 2), c8, self) == 2.5);
  }
  SECTION("n = 4: the initiator last, no release") {
    // m = 1: positions = processors 1, 2, 3, 0. Times .25 (fast), .75, .125, .5: initiator X = .75,
    // collector X = .125, position 2 X = .5, position 3 X = .25. Initiations end at .125, .25,
    // .375; self [.375, .5]; the initiator computes [.5, 1.25]. E = .25. Ready: position 2 at
    // .25 + .5 = .75, position 3 at .375 + .25 = .625, the initiator at 1.25.
    // Receipts: position 3 [.625, .75], position 2 [.75, .875], the initiator [1.25, 1.375]: last,
    // no release. Level 1.375.
    REQUIRE(makespan(constant_sync({0.25, 0.75, 0.125, 0.5}, 1, 1), c8, self) == 1.375);
  }
  SECTION("n = 4: the blocking collector takes waiting messages by position, not by ready time") {
    // m = 1: positions = processors 1, 2, 3, 0. Times .25 (fast), .5, 1, .125: initiator X = .5,
    // collector X = 1, position 2 X = .125, position 3 X = .25. Ready: the initiator at .5 + .5 = 1,
    // position 2 at .25 + .125 = .375, position 3 at .375 + .25 = .625; E = .125 + 1 = 1.125.
    // At E all three wait: initiator [1.125, 1.25], position 2 [1.25, 1.375], position 3
    // [1.375, 1.5]; release [1.5, 1.625]. Level 1.625. (By ready time the initiator would come
    // last, at 1.5, with no release.)
    REQUIRE(makespan(constant_sync({0.25, 0.5, 1.0, 0.125}, 1, 1), c8, self) == 1.625);
  }
  SECTION("n = 2 and n = 1") {
    // n = 2, times .5 (processor 0), .25 (processor 1). m = 0: initiator 0, collector 1: the
    // initiator is initiated by itself [.125, .25] after initiating the collector [0, .125]:
    // ready .25 + .5 = .75; E = .125 + .25 = .375; receipt [.75, .875]. Level .875.
    REQUIRE(makespan(constant_sync({0.5, 0.25}, 0, 1), c8, self) == 0.875);
    // m = 1: slow first, initiator 1 (X = .25), collector 0 (X = .5): ready .5, E = .625;
    // receipt [.625, .75]. Level .75.
    REQUIRE(makespan(constant_sync({0.5, 0.25}, 1, 1), c8, self) == 0.75);
    // n = 1: nobody to talk to; the level is the task.
    REQUIRE(makespan(constant_sync({0.75}, 0, 3), c8, self) == 2.25);
  }
}

TEST_CASE("random-order initiator-collector protocols on equal task times", "[sync-protocol]") {
  // With equal times the random order cannot matter. n = 3, x = .5, C = .1: E = .6; ready:
  // position 2 at .2 + .5 = .7 and the initiator at .2 + .5 = .7. Both wait at .7: the initiator
  // first [.7, .8], position 2 [.8, .9]; release [.9, 1.0]. Level 1.0 = x + 5C, for the
  // pre-emptible and the blocking collector alike (no receipt starts before E).
  // n = 4: ready .7 (position 2), .8 (position 3 and initiator): [.7, .8], initiator [.8, .9],
  // position 3 [.9, 1.0], release: 1.1 = x + 6C.
  for (const char* name : {"initiator-collector", "initiator-collector-blocking", "initiator-collector-always-release"}) {
    INFO(name);
    for (std::uint64_t rep = 0; rep < 5; ++rep) {
      REQUIRE(makespan(constant_sync({0.5, 0.5, 0.5}, 0, 3), 0.1, name, rep) == Approx(3.0).margin(tight));
      REQUIRE(makespan(constant_sync({0.5, 0.5, 0.5, 0.5}, 0, 2), 0.1, name, rep) == Approx(2.2).margin(tight));
    }
  }
}

TEST_CASE("initiator-collector at widths 1 and 2", "[sync-protocol]") {
  // n = 1: no messages at any C, the level is the task.
  REQUIRE(makespan(constant_sync({0.7}, 0, 3), 0.1, "initiator-collector") == Approx(2.1).margin(tight));
  // n = 2, X = .5 (processor 0), .2 (processor 1), C = .1.
  // Processor 0 initiates: E = .1 + .2 = .3; its completion ready at .1 + .5 = .6, received
  // [.6, .7] after E: the initiator's is last, level .7.
  // Processor 1 initiates: E = .1 + .5 = .6; its completion ready at .1 + .2 = .3 is received at
  // once [.3, .4] and moves E to .7, which is then the last completion: release, level .8.
  // The random order gives both; the blocking collector waits for E and gives .7 either way.
  const auto s = constant_sync({0.5, 0.2}, 0, 1);
  std::set<double> seen;
  for (std::uint64_t rep = 0; rep < 40; ++rep) {
    const double pre = makespan(s, 0.1, "initiator-collector", rep);
    REQUIRE((pre == Approx(0.7).margin(tight) || pre == Approx(0.8).margin(tight)));
    seen.insert(std::round(pre * 10.0) / 10.0);
    REQUIRE(makespan(s, 0.1, "initiator-collector-blocking", rep) == Approx(0.7).margin(tight));
    // Always releasing: .7 + .1 after the first order, .8 after the second.
    REQUIRE(makespan(s, 0.1, "initiator-collector-always-release", rep) == Approx(0.8).margin(tight));
  }
  REQUIRE(seen.size() == 2);
}

TEST_CASE("every synchronous protocol at C = 0 is the zero-communication recurrence, bit for bit", "[sync-protocol]") {
  // Normal laws, untruncated: negative task times occur. n(0, 1) makes a level with ALL times
  // negative common (1/8 of the levels at n = 3), so nothing may clip at the level's start.
  const std::vector<structures::Structure> cases = {
      structures::synchronous(structures::heterogeneous(5, 2, 0.5, Law::paper_normal()), 200),
      structures::synchronous(structures::heterogeneous(3, 1, 0.8, Law::normal(0.0, 1.0)), 200),
      structures::synchronous(structures::heterogeneous(2, 0, 0.5, Law::normal(0.0, 1.0)), 100),
      structures::synchronous(structures::heterogeneous(1, 0, 0.5, Law::paper_normal()), 100),
      structures::synchronous(structures::heterogeneous(8, 3, 0.5, Law::paper_uniform()), 100),
  };
  for (const auto& s : cases) {
    const auto zero = engine::compile(s);
    REQUIRE(zero.kind == engine::PlanKind::synchronous);
    engine::Workspace wz(zero);
    for (const auto& name : engine::synchronous_protocol_names()) {
      INFO(s.width << " processors, " << name);
      const auto plan = engine::compile(s, with_comm(0.0, name));
      REQUIRE(plan.kind == engine::PlanKind::protocol);
      engine::Workspace wp(plan);
      for (std::uint64_t rep = 0; rep < 20; ++rep) REQUIRE(engine::evaluate(plan, 3, rep, wp) == engine::evaluate(zero, 3, rep, wz));
    }
  }
}

TEST_CASE("synchronous protocols respect Eq. 11's lower bound draw for draw", "[sync-protocol]") {
  // Common random numbers: replication r of a protocol draws the same task times as replication r
  // of the zero-communication plan, so with nonnegative times each makespan is at least the
  // zero-communication one plus 2pC (every level takes at least 2C + max X), and the coordinators
  // at most plus (n+1)pC (coordinator exactly).
  const int levels = 100, n = 5;
  const double c = 0.1;
  const auto s = structures::synchronous(structures::heterogeneous(n, 2, 0.5, Law::paper_uniform()), levels);
  const auto zero = engine::compile(s);
  engine::Workspace wz(zero);
  for (const auto& name : engine::synchronous_protocol_names()) {
    INFO(name);
    const auto plan = engine::compile(s, with_comm(c, name));
    engine::Workspace wp(plan);
    for (std::uint64_t rep = 0; rep < 20; ++rep) {
      const double base = engine::evaluate(zero, 5, rep, wz), x = engine::evaluate(plan, 5, rep, wp);
      REQUIRE(x >= base + 2.0 * levels * c - 1e-9);
      if (name.rfind("coordinator", 0) == 0) REQUIRE(x <= base + (n + 1) * levels * c + 1e-9);
      if (name == "coordinator") REQUIRE(x == Approx(base + (n + 1) * levels * c).margin(1e-9));
    }
  }
}

TEST_CASE("synchronous protocols give bit-identical results on 1 and 2 threads", "[sync-protocol]") {
  const auto s = structures::synchronous(structures::heterogeneous(6, 2, 0.5, Law::paper_normal()), 100);
  for (const auto& name : engine::synchronous_protocol_names()) {
    INFO(name);
    const auto plan = engine::compile(s, with_comm(0.05, name));
    engine::RunOptions options;
    options.reps = 300;  // 5 blocks: both threads get some
    options.seed = 11;
    options.threads = 1;
    const auto one = engine::run(plan, options);
    options.threads = 2;
    const auto two = engine::run(plan, options);
    REQUIRE(one.mean == two.mean);
    REQUIRE(one.stderr_ == two.stderr_);
    REQUIRE(one.min == two.min);
    REQUIRE(one.max == two.max);
  }
}

TEST_CASE("initiator-collector fits Table 3 at (8,3), a = 1/2, C = .10", "[sync-protocol]") {
  // docs/semantics.md: the initiator-collector reading is within 2.7% of every cell of Tables 3
  // and 6; this cell (paper: 1610) comes out about 0.9% high. The coordinator (Eq. 11's upper
  // bound) is about 8% high here.
  const auto s = structures::synchronous(structures::heterogeneous(8, 3, 0.5, Law::paper_normal()), 1000);
  engine::RunOptions options;
  options.reps = 1000;
  options.seed = 1;
  const auto e = engine::run(engine::compile(s, with_comm(0.10, "initiator-collector")), options);
  // Within the documented fit plus 4 standard errors (0.18), and pinned at seed 1.
  REQUIRE(std::abs(e.mean - 1610.0) < 0.0270 * 1610.0 + 4.0 * e.stderr_);
  REQUIRE(e.mean == Approx(1628.200181948737).epsilon(1e-9));
  const auto upper = engine::run(engine::compile(s, with_comm(0.10, "coordinator")), options);
  REQUIRE(upper.mean > e.mean);
}

TEST_CASE("initiator-collector-self fits Table 3 at (8,3), a = 1/2, C = .10", "[sync-protocol]") {
  // Documented fit (docs/semantics.md, reading 3; tests/benchmarks/score_sync_protocols): within
  // 2.03% of every cell of Tables 3 and 6. At this cell (paper: 1610) the score program's 1000
  // replications (seed 1) give 1615.75 (stderr .19), +0.36%; the default initiator-collector gives
  // 1628.2, +1.13%. An independent run (seed 2, 300 replications) must be within the documented
  // fit plus 4 standard errors, and agree with 1615.75 within 4 combined standard errors.
  const auto s = structures::synchronous(structures::heterogeneous(8, 3, 0.5, Law::paper_normal()), 1000);
  engine::RunOptions options;
  options.reps = 300;
  options.seed = 2;
  const auto e = engine::run(engine::compile(s, with_comm(0.10, "initiator-collector-self")), options);
  REQUIRE(std::abs(e.mean - 1610.0) < 0.0203 * 1610.0 + 4.0 * e.stderr_);
  REQUIRE(e.mean == Approx(1615.75).margin(4.0 * std::sqrt(e.stderr_ * e.stderr_ + 0.19 * 0.19)));
}

}  // namespace sync_protocol_test
