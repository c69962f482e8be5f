// Nearest-neighbour communication protocols (engine/kernel/protocols/neighbor.cpp): hand-computed cases
// with constant task times, their zero-communication limits, the per-replication lower bound of
// Eq. 12, thread independence and one cell of Wilson's Table 4.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/law.h"
#include "distributions/sampler.h"
#include "engine/kernel/communication.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/kernel/streams.h"
#include "structures/structure.h"

namespace neighbor_protocol_test {

namespace {

using hetstruct::distributions::Law;
using hetstruct::distributions::Sampler;
using namespace hetstruct::structures;
using namespace hetstruct::engine;

const std::vector<std::string> protocols = {"event-available", "event-commit", "sequential", "plain"};

CompileOptions comm(double c, const std::string& protocol) {
  CompileOptions options;
  options.comm_cost = c;
  if (!protocol.empty()) options.protocol = &find_protocol(StructureKind::nearest_neighbor, protocol);
  return options;
}

// A nearest-neighbour structure whose processor i always takes times[i] (constant laws).
Structure constant_nn(const std::vector<double>& times, int levels) {
  Processors procs{static_cast<int>(times.size()), 0, Law::constant(times[0]), Law::constant(times[0])};
  Structure s = nearest_neighbor(procs, levels);
  for (std::size_t i = 0; i < times.size(); ++i) s.laws.at(i) = Law::constant(times[i]);
  return s;
}

double makespan(const Structure& s, double c, const std::string& protocol) {
  const Plan plan = compile(s, comm(c, protocol));
  REQUIRE(plan.kind == PlanKind::protocol);
  Workspace ws(plan);
  return evaluate(plan, 1, 0, ws);
}

// Per-replication makespans of a plan.
std::vector<double> makespans(const Plan& plan, int reps, std::uint64_t seed = 7) {
  Workspace ws(plan);
  std::vector<double> out;
  for (int r = 0; r < reps; ++r) out.push_back(evaluate(plan, seed, r, ws));
  return out;
}

// An independent, deliberately naive event-commit: the task times drawn up front (processor i's
// k-th task takes its stream's k-th variate, as in every plan), each processor's state in plain
// arrays, the next event found by a linear scan in (clock, early, processor) order.
double reference_event_commit(const std::vector<std::vector<double>>& x, double c) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const int n = static_cast<int>(x.size()), p = static_cast<int>(x[0].size());
  enum { computing, exchanging, waiting, finished };
  std::vector<int> state(n, computing), task(n, 0), partner(n, -1);
  std::vector<double> finish(n), since(n), at(n), when(n);  // at: algebraic, when: clock
  std::vector<bool> early(n, false), need_left(n), need_right(n);
  for (int i = 0; i < n; ++i) finish[i] = at[i] = when[i] = x[i][0];
  double clock = -inf, makespan = -inf;
  auto schedule = [&](int i, double t) {
    early[i] = t < clock;
    at[i] = t;
    when[i] = std::max(t, clock);
  };
  for (;;) {
    int i = -1;
    for (int j = 0; j < n; ++j) {
      if (when[j] == inf) continue;
      if (i < 0 || when[j] < when[i] || (when[j] == when[i] && !early[j] && early[i])) i = j;
    }
    if (i < 0) break;
    clock = when[i];
    const double t = at[i];
    when[i] = inf;
    if (state[i] == computing) {
      if (task[i] == p - 1) {
        state[i] = finished;
        makespan = std::max(makespan, t);
        continue;
      }
      need_left[i] = i > 0;
      need_right[i] = i < n - 1;
    }
    if (!need_left[i] && !need_right[i]) {
      ++task[i];
      finish[i] = t + x[i][task[i]];
      state[i] = computing;
      schedule(i, finish[i]);
      continue;
    }
    int j = -1;
    if (need_left[i] && state[i - 1] == waiting && partner[i - 1] == i) j = i - 1;
    else if (need_right[i] && state[i + 1] == waiting && partner[i + 1] == i) j = i + 1;
    if (j >= 0) {
      const double end = std::max(t, since[j]) + 2 * c;
      state[i] = state[j] = exchanging;
      (j < i ? need_left[i] : need_right[i]) = false;
      (j < i ? need_right[j] : need_left[j]) = false;
      schedule(i, end);
      schedule(j, end);
      continue;
    }
    auto key = [&](int k) { return task[k] == task[i] ? finish[k] : inf; };
    state[i] = waiting;
    since[i] = t;
    partner[i] = need_left[i] && need_right[i] ? (key(i + 1) < key(i - 1) ? i + 1 : i - 1)
                                               : (need_left[i] ? i - 1 : i + 1);
  }
  return makespan;
}

}  // namespace

TEST_CASE("event-commit agrees with a naive reference simulation, bit for bit", "[nn-protocol]") {
  const int levels = 60;
  for (const auto& law : {Law::paper_uniform(), Law::paper_normal(), Law::normal(0.5, 4.0)}) {
    for (const auto& [n, m] : std::vector<std::pair<int, int>>{{4, 1}, {16, 0}, {37, 5}}) {
      const auto procs = heterogeneous(n, m, 0.5, law);
      for (const double c : {0.0, 0.1}) {
        INFO("n = " << n << ", m = " << m << ", C = " << c);
        const auto plan = compile(nearest_neighbor(procs, levels), comm(c, "event-commit"));
        Workspace ws(plan);
        for (std::uint64_t rep = 0; rep < 8; ++rep) {
          std::vector<std::vector<double>> x(n);
          for (int i = 0; i < n; ++i) {
            ProcessorStream stream(5, rep, i);
            const Sampler sampler(procs.law_of(i));
            for (int k = 0; k < levels; ++k) x[i].push_back(sampler(stream));
          }
          REQUIRE(evaluate(plan, 5, rep, ws) == reference_event_commit(x, c));
        }
      }
    }
  }
}

TEST_CASE("nearest-neighbour protocol names: event-available is the default", "[nn-protocol]") {
  const auto names = neighbor_protocol_names();
  REQUIRE(names == protocols);
  REQUIRE(protocol_names(StructureKind::nearest_neighbor).front() == "event-available");
  const auto s = nearest_neighbor(heterogeneous(4, 1, 0.5, Law::paper_uniform()), 5);
  REQUIRE(compile(s, comm(0.1, "")).protocol->name == std::string("event-available"));
  REQUIRE_THROWS(compile(s, comm(0.1, "nonsense")));
}

TEST_CASE("nn protocols: one processor and two processors by hand", "[nn-protocol]") {
  // n = 1: no neighbour, no exchange: 4 tasks of 1.5.
  for (const auto& name : protocols)
    REQUIRE(makespan(constant_nn({1.5}, 4), 0.1, name) == Approx(6.0).margin(1e-12));
  // n = 2, p = 2, C = 0.1, times (1, 2). P0 finishes at 1 and waits for P1; P1 finishes at 2 and
  // they exchange over [2, 2.2]; both start task 2 at 2.2: P0 ends at 3.2, P1 at 4.2. One pair
  // has one reading only: every protocol gives 4.2.
  for (const auto& name : protocols) {
    INFO(name);
    REQUIRE(makespan(constant_nn({1.0, 2.0}, 2), 0.1, name) == Approx(4.2).margin(1e-12));
  }
}

TEST_CASE("nn protocols: three processors by hand", "[nn-protocol]") {
  // n = 3, p = 2, C = 0.1, times (1, 2, 1.5).
  // event-commit: P0 (done at 1) and P2 (done at 1.5) wait for P1, their only neighbour. P1 is
  // done at 2, finds both waiting and takes the left first: P0-P1 over [2, 2.2], P1-P2 over
  // [2.2, 2.4]. Task 2 starts at 2.2 (P0), 2.4 (P1), 2.4 (P2) and ends at 3.2, 4.4, 3.9: 4.4.
  // sequential: e(0,1) = max(1, 2) + 0.2 = 2.2, e(1,2) = max(2.2, 1.5) + 0.2 = 2.4: the same starts.
  // plain: P0 max(1, 2) + 0.2 = 2.2, P1 max(1, 2, 1.5) + 0.4 = 2.4, P2 max(2, 1.5) + 0.2 = 2.2;
  // ends 3.2, 4.4, 3.7: 4.4. (With constant times the slowest processor sets the pace in every
  // reading: it finishes last, so all its exchanges follow its own finish.)
  for (const auto& name : protocols) {
    INFO(name);
    REQUIRE(makespan(constant_nn({1.0, 2.0, 1.5}, 2), 0.1, name) == Approx(4.4).margin(1e-12));
  }
}

TEST_CASE("nn protocols: five processors by hand tell the readings apart", "[nn-protocol]") {
  // n = 5, p = 2, C = 0.1, times (1, 2, 1, 2, 1): P1 and P3 are slow.
  //
  // event-commit (equal times are processed in processor order):
  //   t = 1:   P0 waits for P1 (its only neighbour). P2 needs P1 and P3, neither waits for it;
  //            both finish task 1 at 2, a tie: it commits to the LEFT one, P1. P4 waits for P3.
  //   t = 2:   P1 finds P0 and P2 waiting for it: left first, P0-P1 over [2, 2.2].
  //            P3 needs P2 and P4; P2 is idle but committed to P1, so only P4 waits for P3:
  //            P3-P4 over [2, 2.2].
  //   t = 2.2: P0 is done with its exchanges: task 2 over [2.2, 3.2]. P1 still needs P2, which
  //            waits for it: P1-P2 over [2.2, 2.4]. P3 needs P2, which is busy: it commits to
  //            P2 and waits. P4: task 2 over [2.2, 3.2].
  //   t = 2.4: P1: task 2 over [2.4, 4.4]. P2 needs P3, which waits for it: P2-P3 over [2.4, 2.6].
  //   t = 2.6: P2: task 2 over [2.6, 3.6]; P3: task 2 over [2.6, 4.6].   Makespan 4.6.
  // (Without the commitment, P3 would have taken P2 at t = 2: the commitment costs P3 0.2.)
  // event-available: P2's two keys are computing neighbours with equal finish times, the same
  //   tie, and every later choice has a single candidate: the same 4.6.
  // sequential: e(0,1) = 2.2, e(1,2) = 2.4, e(2,3) = 2.6, e(3,4) = 2.8; task 2 starts at 2.2,
  //   2.4, 2.6, 2.8, 2.8 and ends at 3.2, 4.4, 3.6, 4.8, 3.8: 4.8.
  // plain: starts max(1,2) + 0.2 = 2.2, max(1,2,1) + 0.4 = 2.4, 2.4, 2.4, 2.2; ends 3.2, 4.4,
  //   3.4, 4.4, 3.2: 4.4.
  const auto s = constant_nn({1.0, 2.0, 1.0, 2.0, 1.0}, 2);
  REQUIRE(makespan(s, 0.1, "event-commit") == Approx(4.6).margin(1e-12));
  REQUIRE(makespan(s, 0.1, "event-available") == Approx(4.6).margin(1e-12));
  REQUIRE(makespan(s, 0.1, "sequential") == Approx(4.8).margin(1e-12));
  REQUIRE(makespan(s, 0.1, "plain") == Approx(4.4).margin(1e-12));
  // At C = 0 every exchange is free: event-commit starts task 2 at 2, 2, 2, 2, 2 (P3's wait for P2
  // costs nothing), the plain recurrence's starts; the sequential rule's are max(f_0..f_{i+1}).
  for (const auto& name : protocols) {
    INFO(name);
    REQUIRE(makespan(s, 0.0, name) == 4.0);
  }
}

TEST_CASE("nn protocols at C = 0 against the zero-communication plans", "[nn-protocol]") {
  const int reps = 64;
  for (const auto& law : {Law::paper_uniform(), Law::paper_normal()}) {
    const bool uniform = law == Law::paper_uniform();
    for (const auto& [n, m] : std::vector<std::pair<int, int>>{{2, 0}, {3, 1}, {3, 0}, {5, 1}, {8, 3}}) {
      INFO("n = " << n << ", m = " << m << (uniform ? ", uniform" : ", normal"));
      const auto procs = heterogeneous(n, m, 0.5, law);
      const auto plain_plan = compile(nearest_neighbor(procs, 200, NeighborExchange::plain));
      const auto sequential_plan = compile(nearest_neighbor(procs, 200, NeighborExchange::sequential));
      REQUIRE(plain_plan.kind == PlanKind::neighbor_plain);
      const auto plain = makespans(plain_plan, reps);
      const auto sequential = makespans(sequential_plan, reps);
      const auto s = nearest_neighbor(procs, 200);
      // `plain` and `sequential` are their zero-communication recurrences, bit for bit.
      REQUIRE(makespans(compile(s, comm(0.0, "plain")), reps) == plain);
      REQUIRE(makespans(compile(s, comm(0.0, "sequential")), reps) == sequential);
      for (const auto* name : {"event-commit", "event-available"}) {
        INFO(name);
        const auto event = makespans(compile(s, comm(0.0, name)), reps);
        if (n <= 3 && uniform) {
          // No two interior processors side by side and no negative task time: the plain
          // recurrence exactly (every start is the same max of the same finish times).
          REQUIRE(event == plain);
        } else {
          // Never below it (every exchange waits for both finishes), a little above it on average
          // (a processor may wait for a neighbour's commitment two processors away).
          double excess = 0.0;
          for (int r = 0; r < reps; ++r) {
            REQUIRE(event[r] >= plain[r]);
            excess += (event[r] - plain[r]) / reps;
          }
          REQUIRE(excess < 0.01 * plain[0]);
        }
      }
    }
  }
}

TEST_CASE("nn protocols never beat the Eq. 12 lower bound, replication by replication", "[nn-protocol]") {
  // Each processor exchanges at least once per level, after both partners' finishes, so task k+1
  // starts at least 2C after max(f_{i-1}, f_i, f_{i+1}): the plain recurrence shifted by 2C a
  // level, i.e. the C = 0 plain makespan + 2C(p - 1). Also with a wide normal law (about 40% of
  // the task times negative), where the event protocols run on their monotone clock.
  const int levels = 100, reps = 32;
  const double c = 0.15;
  for (const auto& law : {Law::paper_normal(), Law::normal(0.5, 4.0)}) {
    const auto procs = heterogeneous(6, 2, 0.5, law);
    const auto plain = makespans(compile(nearest_neighbor(procs, levels, NeighborExchange::plain)), reps);
    for (const auto& name : protocols) {
      INFO(name);
      const auto with_comm = makespans(compile(nearest_neighbor(procs, levels), comm(c, name)), reps);
      for (int r = 0; r < reps; ++r) {
        REQUIRE(std::isfinite(with_comm[r]));
        REQUIRE(with_comm[r] >= plain[r] + 2.0 * c * (levels - 1) - 1e-9);
      }
    }
  }
}

TEST_CASE("nn protocols give bit-identical results on 1 and 2 threads", "[nn-protocol]") {
  const auto s = nearest_neighbor(heterogeneous(5, 2, 0.5, Law::paper_normal()), 100);
  for (const auto& name : protocols) {
    INFO(name);
    const auto plan = compile(s, comm(0.1, name));
    RunOptions options;
    options.seed = 11;
    options.reps = 300;  // several blocks of 64
    options.threads = 1;
    const auto one = run(plan, options);
    options.threads = 2;
    const auto two = run(plan, options);
    REQUIRE(one.mean == two.mean);
    REQUIRE(one.stderr_ == two.stderr_);
    REQUIRE(one.min == two.min);
    REQUIRE(one.max == two.max);
  }
}

TEST_CASE("the event-driven readings reproduce Table 4, (8,3), a = 1/2, C = .10", "[nn-protocol]") {
  const auto s = nearest_neighbor(heterogeneous(8, 3, 0.5, Law::paper_normal()), 1000);
  RunOptions options;
  options.reps = 300;
  options.seed = 1;
  // Documented fits (docs/semantics.md): event-available 0.86%, event-commit 1.08% worst over Tables 4 and
  // 7; each within that plus 4 standard errors (0.34 here), and pinned at seed 1 (the values
  // `simulate --format json` prints for this cell).
  const struct { const char* name; double fit, pinned; } readings[] = {
      {"event-available", 0.0086, 1119.9864030285967}, {"event-commit", 0.0108, 1120.575007159111}};
  for (const auto& r : readings) {
    const auto e = run(compile(s, comm(0.10, r.name)), options);
    INFO(r.name << ": mean " << e.mean << " +- " << e.stderr_);
    REQUIRE(std::abs(e.mean - 1122.0) < r.fit * 1122.0 + 4.0 * e.stderr_);
    REQUIRE(e.mean == Approx(r.pinned).epsilon(1e-9));
  }
}

}  // namespace neighbor_protocol_test
