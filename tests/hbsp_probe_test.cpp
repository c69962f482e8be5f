// `hbsp probe` without MPI: the command's options (cli/hbsp/probe.h), and the library's kernel and
// machine file and r_j trace made from timings (engine/hbsp/probe.h), which must read back through
// the HBSP parsers and replay.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "tests/support.h"

#include "bounds/hbsp/model.h"
#include "cli/hbsp/probe.h"
#include "engine/hbsp/probe.h"
#include "distributions/input_error.h"
#include "engine/hbsp/replay.h"

namespace hbsp_probe_test {

using namespace hetstruct;
namespace model = bounds::hbsp;
namespace rp = engine::hbsp;

namespace {

using testing::error_of;

cli::ProbeOptions options() {
  cli::ProbeOptions o;
  o.machine_path = "m.txt";
  o.trace_path = "t.txt";
  return o;
}

// Three ranks over three rounds, in seconds. Rank 1 sends fastest in rounds 0 and 2, rank 2 in
// round 1; rank 2 computes slowest. Medians over the rounds: send 300, 100, 200 us; kernel 4000,
// 2000, 8000 us; barriers 0.1, 2, 3 us.
rp::ProbeMeasurements three_ranks() {
  rp::ProbeMeasurements m;
  m.names = {"a:0", "a:1", "b:2"};
  m.rounds = {
      {0.0, {300e-6, 100e-6, 200e-6}, {4000e-6, 2000e-6, 8000e-6}, {0.1e-6, 2e-6, 3e-6}},
      {0.5, {330e-6, 150e-6, 120e-6}, {4100e-6, 1900e-6, 8100e-6}, {0.2e-6, 2.5e-6, 3.5e-6}},
      {1.25, {290e-6, 90e-6, 250e-6}, {3900e-6, 2100e-6, 7900e-6}, {0.05e-6, 1.5e-6, 2.5e-6}},
  };
  return m;
}

rp::ProbePlan plan(bool time_clock = true) {
  cli::ProbeOptions o = options();
  // Move-assigned: GCC 12 warns (-Wrestrict, a false positive) on assigning the literals here.
  o.rounds = std::string("3");
  o.message_kb = std::string("1");
  if (!time_clock) o.clock = std::string("superstep");
  return cli::validate_probe(o);
}

model::Machine machine_of(const std::string& text) {
  std::istringstream in(text);
  return model::parse_machine(in, "probe.txt");
}

rp::Trace trace_of(const std::string& text, const model::Machine& m) {
  std::istringstream in(text);
  return rp::parse_trace(in, "probe-trace.txt", m);
}

}  // namespace

TEST_CASE("hbsp probe: options are checked", "[hbsp][probe]") {
  const auto p = cli::validate_probe(options());
  CHECK(p.rounds == 10);
  CHECK(p.repeats == 5);
  CHECK(p.message_bytes == 1024u * 1024u);
  CHECK(p.interval == 1.0);
  CHECK(p.time_clock);

  auto with = [](auto change) {
    auto o = options();
    change(o);
    return error_of([&] { cli::validate_probe(o); });
  };
  CHECK(with([](auto& o) { o.rounds = "0"; }) == "--rounds: must be at least 1");
  CHECK(with([](auto& o) { o.rounds = "-1"; }).rfind("--rounds: '-1' is not a whole number", 0) == 0);
  CHECK(with([](auto& o) { o.repeats = "0"; }) == "--repeats: must be at least 1");
  CHECK(with([](auto& o) { o.message_kb = "0"; }).rfind("--message-kb: must be at least 1", 0) == 0);
  CHECK(with([](auto& o) { o.message_kb = "262145"; }) == "--message-kb: 262145 is more than the limit 262144");
  CHECK(with([](auto& o) { o.message_kb = "262144"; }).empty());
  for (const char* bad : {"-1", "nan", "inf", "1e9", "", "2s"})
    CHECK(with([&](auto& o) { o.interval = bad; }).rfind("--interval: '" + std::string(bad) + "' is not a number", 0) == 0);
  CHECK(with([](auto& o) { o.interval = "0"; }).empty());
  CHECK(with([](auto& o) { o.interval = "0.25"; }).empty());
  CHECK(with([](auto& o) { o.clock = "wall"; }) == "--clock: 'wall' is not time or superstep");
  CHECK(with([](auto& o) { o.clock = "superstep"; }).empty());
  CHECK(with([](auto& o) { o.machine_path.clear(); }).rfind("--machine:", 0) == 0);
  CHECK(with([](auto& o) { o.trace_path.clear(); }).rfind("--trace:", 0) == 0);
  CHECK(with([](auto& o) { o.trace_path = "./m.txt"; }) == "--trace: is the same file as --machine (give two paths)");
}

TEST_CASE("hbsp probe: output folders must exist", "[hbsp][probe]") {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("hetstruct-probe-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto p = plan();
  p.machine_path = (dir / "m.txt").string();
  p.trace_path = (dir / "t.txt").string();
  CHECK(error_of([&] { cli::check_probe_outputs(p); }).empty());
  p.trace_path = (dir / "missing" / "t.txt").string();
  CHECK(error_of([&] { cli::check_probe_outputs(p); }).find("the folder '" + (dir / "missing").string() + "' does not exist") !=
        std::string::npos);
  p.trace_path = dir.string();
  CHECK(error_of([&] { cli::check_probe_outputs(p); }).find("is a folder") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("hbsp probe: the kernel is the same work every time", "[hbsp][probe]") {
  std::vector<std::uint32_t> a, b;
  const auto x = rp::probe_kernel(a);
  CHECK(a.size() == rp::probe_kernel_items);
  CHECK(std::is_sorted(a.begin(), a.end()));
  CHECK(rp::probe_kernel(b) == x);
  CHECK(rp::probe_kernel(a) == x);  // a reused, already sorted buffer is refilled first
}

TEST_CASE("hbsp probe: processor names are hostname:rank, safe for the formats", "[hbsp][probe]") {
  CHECK(rp::probe_processor_name("node7", 3) == "node7:3");
  CHECK(rp::probe_processor_name("a b#c=d", 0) == "a_b_c_d:0");
  CHECK(rp::probe_processor_name("", 1) == "rank:1");
}

TEST_CASE("hbsp probe: r_j, c_j, g and L from the timings", "[hbsp][probe]") {
  const auto m = three_ranks();
  const auto s = rp::summarise_probe(plan(), m);
  // Medians over the rounds, in us.
  CHECK(s.send == std::vector<double>{300, 100, 200});
  CHECK(s.kernel[0] == Approx(4000));
  CHECK(s.kernel[1] == Approx(2000));
  CHECK(s.kernel[2] == Approx(8000));
  CHECK(s.latency[0] == Approx(0.1));
  CHECK(s.latency[1] == Approx(2));
  CHECK(s.latency[2] == Approx(3));
  CHECK(s.fastest_sender == 1);
  CHECK(s.r[1] == 1.0);  // exactly
  CHECK(s.r[0] == Approx(3));
  CHECK(s.r[2] == Approx(2));
  // Speed relative to the slowest (rank 2) and the share of the data (HBSP^1's c_j).
  CHECK(s.index[2] == 1.0);
  CHECK(s.index[0] == Approx(2));
  CHECK(s.index[1] == Approx(4));
  CHECK(s.share[1] == Approx(4.0 / 7));
  CHECK(std::accumulate(s.share.begin(), s.share.end(), 0.0) == Approx(1));
  CHECK(s.g == Approx(100.0 / 1024));  // us per byte of a 1 KB message

  const auto r = rp::probe_trace_r(m);
  REQUIRE(r.size() == 3);
  for (const auto& round : r) {
    CHECK(*std::min_element(round.begin(), round.end()) == 1.0);
    for (const double x : round) CHECK(x >= 1.0);
  }
  CHECK(r[1][2] == 1.0);
  CHECK(r[1][1] == Approx(1.25));
}

TEST_CASE("hbsp probe: bad timings are refused", "[hbsp][probe]") {
  auto m = three_ranks();
  m.rounds[1].send[2] = 0.0;
  CHECK(error_of([&] { rp::summarise_probe(plan(), m); }) == "measurements: sending from b:2 took 0 s, not a positive time");
  m = three_ranks();
  m.rounds[2].barrier.pop_back();
  CHECK(error_of([&] { rp::summarise_probe(plan(), m); }) == "measurements: round 3 does not measure 3 ranks");
  m.rounds.clear();
  CHECK(error_of([&] { rp::summarise_probe(plan(), m); }) == "measurements: no rank or no round was measured");
}

TEST_CASE("hbsp probe: the machine file and the trace read back and replay", "[hbsp][probe]") {
  const auto m = three_ranks();
  const auto s = rp::summarise_probe(plan(), m);
  const auto machine = machine_of(rp::probe_machine_text(plan(), m, "test"));
  REQUIRE(machine.size() == 3);
  CHECK(machine.speed_field == "index");
  CHECK(machine.time_unit == "us");
  CHECK(machine.packet_unit == "byte");
  CHECK(machine.g == Approx(s.g).epsilon(1e-5));
  for (int j = 0; j < 3; ++j) {
    CHECK(machine.processors[j].name == m.names[j]);
    CHECK(machine.processors[j].r == Approx(s.r[j]).epsilon(1e-5));
    CHECK(machine.share(j, 3) == Approx(s.share[j]).epsilon(1e-5));
    CHECK(machine.latency(j + 1) == Approx(s.latency[j]).epsilon(1e-5));
  }
  CHECK(machine.processors[1].r == 1.0);
  CHECK(machine.fastest(3) == 1);
  CHECK(machine.slowest(3) == 2);

  for (const bool time_clock : {true, false}) {
    const auto text = rp::probe_trace_text(plan(time_clock), m, "test");
    const auto trace = trace_of(text, machine);
    CHECK(trace.clock == (time_clock ? rp::Clock::time : rp::Clock::superstep));
    const std::vector<double> at = time_clock ? std::vector<double>{0, 500000, 1250000} : std::vector<double>{0, 1, 2};
    const auto r = rp::probe_trace_r(m);
    for (int j = 0; j < 3; ++j) {
      REQUIRE(trace.traces(j));
      CHECK(trace.processors[j]->at == at);
      for (int k = 0; k < 3; ++k) CHECK(trace.processors[j]->r[k] == Approx(r[k][j]).epsilon(1e-5));
    }

    model::AlgorithmParams a;
    a.algorithm = model::Algorithm::broadcast_two_phase;
    a.p = 3;
    a.n = 1024 * 1024;
    a.form = model::CostForm::hbsp1;
    const auto program = rp::generate(machine, a);
    const auto replayed = rp::replay(machine, program, a.form, &trace);
    CHECK(replayed.total > 0.0);
    CHECK(std::isfinite(replayed.total));
    rp::BootstrapOptions b;
    b.reps = 200;
    b.threads = 1;
    CHECK(rp::monte_carlo_replay(machine, program, a.form, trace, b).total.mean > 0.0);
  }
}

TEST_CASE("hbsp probe: trace clocks stay strictly increasing, one rank gives r = 1", "[hbsp][probe]") {
  rp::ProbeMeasurements m;
  m.names = {"solo:0"};
  m.rounds = {{0.0, {50e-6}, {1e-3}, {1e-8}}, {1e-9, {60e-6}, {1e-3}, {1e-8}}, {1e-9, {55e-6}, {1e-3}, {1e-8}}};
  const auto text = rp::probe_machine_text(plan(), m, "test");
  CHECK(text.find("One rank: g is MPI's copy") != std::string::npos);
  const auto machine = machine_of(text);
  CHECK(machine.processors[0].r == 1.0);
  CHECK(machine.processors[0].speed == 1.0);
  CHECK(machine.latency(1) > 0.0);
  const auto trace = trace_of(rp::probe_trace_text(plan(), m, "test"), machine);
  CHECK(trace.processors[0]->at == std::vector<double>{0, 0.1, 0.2});  // starts closer than 0.1 us apart
  CHECK(trace.processors[0]->r == std::vector<double>{1, 1, 1});
}

}  // namespace hbsp_probe_test
