// HBSP: the machine model and closed forms (bounds/hbsp/), superstep replay and its records
// (engine/hbsp/), and the `hbsp` command (cli/hbsp/command).
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "tests/support.h"

#include "bounds/hbsp/model.h"
#include "bounds/hbsp/predictions.h"
#include "cli/hbsp/command.h"
#include "distributions/input_error.h"
#include "engine/hbsp/records.h"
#include "engine/hbsp/replay.h"
#include "engine/simulate/record.h"

namespace hbsp_test {

using namespace hetstruct;
namespace model = bounds::hbsp;
namespace rp = engine::hbsp;

namespace {

const std::string source_dir = std::string(HETSTRUCT_TEST_DATA) + "/../..";
const std::string cluster_path = source_dir + "/bounds/data/hbsp-cluster-2001.txt";
const std::string example_trace_path = source_dir + "/bounds/data/hbsp-example-trace.txt";
const std::string example_program_path = source_dir + "/bounds/data/hbsp-example-program.csv";

model::Machine machine(const std::string& text, const std::string& name = "m.txt") {
  std::istringstream in(text);
  return model::parse_machine(in, name);
}

rp::Trace trace(const std::string& text, const model::Machine& m, const std::string& name = "t.txt") {
  std::istringstream in(text);
  return rp::parse_trace(in, name, m);
}

rp::Program program(const std::string& text, const model::Machine& m, int p, const std::string& name = "p.csv") {
  std::istringstream in(text);
  return rp::parse_program(in, name, m, p);
}

const model::Machine& cluster() {
  static const model::Machine m = model::load_machine(cluster_path);
  return m;
}

// Three processors: a (r 1, speed 2), b (r 2, speed 1), c (r 3, speed 4); g = 2, L = 10.
const char* const small_machine = R"(# a hand-made machine
g 2
L 10
processor a r=1 index=2
processor b r=2 index=1
processor c r=3 index=4
)";

using testing::error_of;

bool close(double a, double b, double rel = 1e-12) { return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)); }

// Runs `hetstruct <args>` through HbspCommand (as cli::run will once wired) and returns stdout.
std::string run_hbsp(std::vector<std::string> args) {
  CLI::App app("test", "hetstruct");
  cli::HbspCommand command;
  command.add_to(app);
  std::vector<char*> argv;
  std::string name = "hetstruct";
  argv.push_back(name.data());
  for (auto& a : args) argv.push_back(a.data());
  app.parse(static_cast<int>(argv.size()), argv.data());
  REQUIRE(command.parsed());
  return testing::captured_stdout([&] { command.execute(); });
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> f;
  std::string x;
  std::istringstream in(line);
  while (std::getline(in, x, ',')) f.push_back(x);
  if (!line.empty() && line.back() == ',') f.emplace_back();
  return f;
}

const std::vector<int> paper_p = {2, 4, 6, 8, 10};

using testing::TempDir;

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

// ---- the machine and the paper's tables ------------------------------------------------------

TEST_CASE("the shipped cluster is the paper's Tables 2-5", "[hbsp]") {
  const auto& m = cluster();
  REQUIRE(m.size() == 10);
  REQUIRE(m.g == 0.196);
  REQUIRE(m.time_unit == "us");
  REQUIRE(m.packet_unit == "byte");
  // Table 4: the order, the cluster speeds (sums of the integer indices) and L.
  const double speed[] = {5.64, 12.89, 17.48, 22.10, 28.00};
  const double L[] = {9000, 15000, 23000, 30000, 37000};
  const char* added[][2] = {{"gromit", "chromus"}, {"aditi", "dcn_sgi1"}, {"dcn_sgi3", "gradsun1"},
                            {"gradsun3", "sgi1"}, {"sgi3", "sgi7"}};
  for (int i = 0; i < 5; ++i) {
    const int p = paper_p[i];
    double sum = 0;
    for (int j = 0; j < p; ++j) sum += m.processors[j].speed;
    CHECK(sum == Approx(speed[i]).margin(1e-9));
    CHECK(m.latency(p) == L[i]);
    CHECK(m.processors[p - 2].name == added[i][0]);
    CHECK(m.processors[p - 1].name == added[i][1]);
    CHECK(m.processors[m.fastest(p)].name == "gromit");
    CHECK(m.processors[m.slowest(p)].name == "chromus");
    CHECK(m.r_max(p) == 4.08);  // chromus is in every configuration
  }
  // Section 4.4: c_j at p = 2 (.867, .133) and p = 4 (37.9%, 5.8%, 34.5%, 21.7%).
  CHECK(m.share(0, 2) == Approx(0.867).margin(5e-4));
  CHECK(m.share(1, 2) == Approx(0.133).margin(5e-4));
  const double p4[] = {0.379, 0.058, 0.345, 0.217};
  for (int j = 0; j < 4; ++j) CHECK(m.share(j, 4) == Approx(p4[j]).margin(5e-4));
  // Table 5.
  CHECK(m.processors[m.index_of("gromit")].r == 1.00);
  CHECK(m.processors[m.index_of("sgi7")].r == 1.16);
  // No L for odd p: the paper gives none and none is invented.
  CHECK_THROWS_AS(m.latency(3), InputError);
  // The HBSP c_j (relative to the slowest) and c.
  CHECK(m.relative_speed(1, 2) == 1.0);
  CHECK(m.total_relative_speed(2) == Approx(5.64 / 0.75));
}

// ---- one superstep by hand -------------------------------------------------------------------

TEST_CASE("a superstep by hand: w + g*max_j r_j*max(sent_j, received_j) + L in both forms", "[hbsp]") {
  const auto m = machine(small_machine);
  const std::vector<double> work = {5, 3, 1}, sent = {4, 0, 1}, received = {0, 2, 2}, r = {1, 2, 3};
  // h_j*r_j = 4*1, 2*2, 2*3: h = 6 on c; g*h = 12.
  const auto h1 = model::superstep_cost(m, 3, model::CostForm::hbsp1, work, sent, received, r);
  CHECK(h1.h == 6);
  CHECK(h1.gh == 12);
  CHECK(h1.comm_critical == 2);
  CHECK(h1.w == 5);
  CHECK(h1.work_critical == 0);
  CHECK(h1.L == 10);
  CHECK(h1.total == 27);
  // c_j = speed/slowest = 2, 1, 4: w_j/c_j = 2.5, 3, 0.25.
  const auto cj = model::superstep_cost(m, 3, model::CostForm::cj, work, sent, received, r);
  CHECK(cj.w == 3);
  CHECK(cj.work_critical == 1);
  CHECK(cj.total == 25);
  // On 2 processors c drops out: h = max(4*1, 2*2) = 4, a (lowest index) on the tie.
  const auto two = model::superstep_cost(m, 2, model::CostForm::hbsp1, work, sent, received, r);
  CHECK(two.h == 4);
  CHECK(two.comm_critical == 0);
  // Equal loads are ties up to rounding: the lowest index is critical.
  const std::vector<double> balanced = {2.0 / 3.0 * 3.0, 1.0 / 3.0 * 3.0, 4.0 / 3.0 * 3.0};
  CHECK(model::superstep_cost(m, 3, model::CostForm::cj, balanced, sent, received, r).work_critical == 0);
  // Idle superstep: only L, no critical processor.
  const std::vector<double> zero = {0, 0, 0};
  const auto idle = model::superstep_cost(m, 3, model::CostForm::hbsp1, zero, zero, zero, r);
  CHECK(idle.total == 10);
  CHECK(idle.work_critical == -1);
  CHECK(idle.comm_critical == -1);
}

TEST_CASE("a CSV program replays superstep by superstep", "[hbsp]") {
  const auto m = machine(small_machine);
  const auto prog = program(R"(superstep,processor,work,sent,received
# the first superstep
0,a,5,4,0
0,b,3,0,2
0,2,1,1,2
1,b,7,0,0
1,c,0,0,1
)", m, 3);
  REQUIRE(prog.steps.size() == 2);
  const auto r = rp::replay(m, prog, model::CostForm::hbsp1);
  REQUIRE(r.steps.size() == 2);
  CHECK(r.steps[0].cost.total == 27);
  // superstep 1: w = 7 (b), h = 3*1 (c): 7 + 6 + 10 = 23
  CHECK(r.steps[1].cost.total == 23);
  CHECK(r.steps[1].cost.work_critical == 1);
  CHECK(r.steps[1].cost.comm_critical == 2);
  CHECK(r.steps[1].start == 27);
  CHECK(r.total == 50);
  CHECK(r.w == 12);
  CHECK(r.gh == 18);
  CHECK(r.L == 20);
  // The example program parses on the cluster's first 4 processors.
  const auto example = rp::load_program(example_program_path, cluster(), 4);
  CHECK(example.steps.size() == 3);
}

// ---- generated programs against the closed forms ---------------------------------------------

TEST_CASE("each generated algorithm replays to its closed form", "[hbsp]") {
  const auto& m = cluster();
  using A = model::Algorithm;
  for (const A alg : {A::scatter, A::broadcast_one_phase, A::broadcast_two_phase, A::prefix_sums,
                      A::matrix_multiplication, A::sample_sort}) {
    for (const int p : paper_p) {
      for (const auto root : {model::RootChoice::fastest, model::RootChoice::slowest, model::RootChoice::given}) {
        for (const auto workload : {model::Workload::balanced, model::Workload::equal}) {
          for (const auto accounting : {model::Accounting::paper, model::Accounting::exact}) {
            for (const auto form : {model::CostForm::hbsp1, model::CostForm::cj}) {
              model::AlgorithmParams a;
              a.algorithm = alg;
              a.p = p;
              a.n = alg == A::matrix_multiplication ? 300 : 25600;
              a.item_size = 4;
              a.root.kind = root;
              a.root.index = p - 1;
              a.workload = workload;
              a.accounting = accounting;
              a.form = form;
              a.oversampling = 16;
              const auto prog = rp::generate(m, a);
              INFO(model::to_string(alg) << " p=" << p << " root=" << root << " " << model::to_string(workload) << " "
                                         << model::to_string(accounting) << " " << model::to_string(form));
              CHECK(static_cast<int>(prog.steps.size()) == model::superstep_count(alg, p));
              const double replayed = rp::replay(m, prog, form).total;
              const double closed = model::closed_form(m, a);
              CHECK(closed > m.latency(p));
              CHECK(close(replayed, closed));
            }
          }
        }
      }
    }
  }
}

TEST_CASE("the general closed forms reduce to the papers' expressions under their assumptions", "[hbsp]") {
  const auto& m = cluster();
  using A = model::Algorithm;
  model::AlgorithmParams a;  // root fastest, paper accounting, cj form
  a.n = 100 * 1024;
  for (const int p : paper_p) {
    a.p = p;
    // scatter: g*n + L with balanced shares (r_j*c_j <= 1 on this cluster)
    a.algorithm = A::scatter;
    a.workload = model::Workload::balanced;
    CHECK(close(model::closed_form(m, a), model::paper_form(m, a)));
    // the 2000 paper's algorithms, balanced
    for (const A alg : {A::prefix_sums, A::matrix_multiplication, A::sample_sort}) {
      a.algorithm = alg;
      a.n = alg == A::matrix_multiplication ? 500 : 1e6;
      INFO(model::to_string(alg) << " p=" << p);
      CHECK(close(model::closed_form(m, a), model::paper_form(m, a)));
    }
    a.n = 100 * 1024;
    // the broadcasts assume r_s <= p: true from p = 6 on (r_s = 4.08)
    a.workload = model::Workload::equal;
    for (const A alg : {A::broadcast_one_phase, A::broadcast_two_phase}) {
      a.algorithm = alg;
      INFO(model::to_string(alg) << " p=" << p);
      if (p >= 6)
        CHECK(close(model::closed_form(m, a), model::paper_form(m, a)));
      else  // phase 1 is then r_s*n/p > n: the paper's simplification underestimates
        CHECK(model::closed_form(m, a) > model::paper_form(m, a));
    }
  }
}

// ---- the paper's observations ----------------------------------------------------------------

TEST_CASE("scatter with the fastest root is never slower than with the slowest", "[hbsp]") {
  const auto& m = cluster();
  model::AlgorithmParams a;
  a.algorithm = model::Algorithm::scatter;
  for (const int p : paper_p)
    for (int kb = 100; kb <= 1000; kb += 100)
      for (const auto workload : {model::Workload::balanced, model::Workload::equal})
        for (const auto accounting : {model::Accounting::paper, model::Accounting::exact}) {
          a.p = p;
          a.n = kb * 1024.0;
          a.workload = workload;
          a.accounting = accounting;
          a.root.kind = model::RootChoice::fastest;
          const double fast = model::closed_form(m, a);
          a.root.kind = model::RootChoice::slowest;
          const double slow = model::closed_form(m, a);
          INFO("p=" << p << " n=" << kb << "KB " << model::to_string(workload) << " " << model::to_string(accounting));
          CHECK(fast <= slow);
          // and with balanced shares never slower than with equal ones (fastest root)
          a.root.kind = model::RootChoice::fastest;
          if (workload == model::Workload::balanced) {
            model::AlgorithmParams u = a;
            u.workload = model::Workload::equal;
            CHECK(model::closed_form(m, a) <= model::closed_form(m, u));
          }
        }
  // At p = 2 without messages to self the roots tie: each sends n/2 to the other, and the
  // 4.08-times-slower chromus is critical either way (the paper measured T_s < T_f there).
  a.p = 2;
  a.n = 500 * 1024.0;
  a.workload = model::Workload::equal;
  a.accounting = model::Accounting::exact;
  a.root.kind = model::RootChoice::fastest;
  const double fast = model::closed_form(m, a);
  a.root.kind = model::RootChoice::slowest;
  CHECK(close(fast, model::closed_form(m, a)));
}

TEST_CASE("two-phase broadcast beats one-phase exactly when g*n*(p-1-r_s) > L", "[hbsp]") {
  const auto& m = cluster();
  model::AlgorithmParams a;
  a.workload = model::Workload::equal;
  for (const int p : paper_p) {
    for (int kb = 100; kb <= 1000; kb += 100) {
      a.p = p;
      a.n = kb * 1024.0;
      a.algorithm = model::Algorithm::broadcast_two_phase;
      const double two = model::paper_form(m, a);   // g*n*(1+r_s) + 2L
      a.algorithm = model::Algorithm::broadcast_one_phase;
      const double one = model::paper_form(m, a);   // g*n*p + L
      const double g = m.g, n = a.n, L = m.latency(p), r_s = m.r_max(p);
      CHECK(two == Approx(g * n * (1 + r_s) + 2 * L));
      CHECK(one == Approx(g * n * p + L));
      INFO("p=" << p << " n=" << kb << "KB");
      CHECK((two < one) == (g * n * (p - 1 - r_s) > L));
      if (p == 10) CHECK(two < one);   // 0.196 * 102400 * 4.92 = 98,746 us > L = 37,000 us
      if (p == 4) CHECK(!(two < one));  // p - 1 - r_s = 3 - 4.08 < 0
    }
  }
  CHECK(m.r_max(4) == 4.08);
  CHECK(0.196 * 102400 * (10 - 1 - 4.08) == Approx(98746.1).margin(0.1));
}

TEST_CASE("broadcast cannot exploit heterogeneity: balanced shares gain nothing from p = 6 on", "[hbsp]") {
  // HBSP^1 3.2.2: the slowest processor must receive n items, so c_j partitioning is ineffective.
  const auto& m = cluster();
  model::AlgorithmParams a;
  a.algorithm = model::Algorithm::broadcast_two_phase;
  for (const int p : {6, 8, 10}) {
    a.p = p;
    a.n = 300 * 1024.0;
    a.workload = model::Workload::equal;
    const double u = model::closed_form(m, a);
    a.workload = model::Workload::balanced;
    CHECK(close(u, model::closed_form(m, a)));
  }
}

// ---- traces ----------------------------------------------------------------------------------

TEST_CASE("trace step functions, with and without LOOPAFTER", "[hbsp]") {
  rp::ProcessorTrace t;
  t.at = {1, 3};
  t.r = {2, 4};
  CHECK(t.value_at(0, 9) == 9);  // before the first measurement: the machine's r_j
  CHECK(t.value_at(1, 9) == 2);
  CHECK(t.value_at(2.9, 9) == 2);
  CHECK(t.value_at(3, 9) == 4);
  CHECK(t.value_at(100, 9) == 4);
  t.loop_after = 2;  // period 3 + 2 = 5: measurements at 1, 3, 6, 8, 11, 13, ...
  CHECK(t.value_at(0, 9) == 9);
  CHECK(t.value_at(5.9, 9) == 4);
  CHECK(t.value_at(6, 9) == 2);
  CHECK(t.value_at(7.5, 9) == 2);
  CHECK(t.value_at(8, 9) == 4);
  CHECK(t.value_at(11, 9) == 2);
  CHECK(t.value_at(1e6 + 1, 9) == 2);
}

TEST_CASE("a constant trace replays like the static machine", "[hbsp]") {
  const auto& m = cluster();
  model::AlgorithmParams a;
  a.algorithm = model::Algorithm::sample_sort;
  a.p = 10;
  a.n = 1e5;
  const auto prog = rp::generate(m, a);
  std::string text = "clock superstep\n";
  for (const auto& proc : m.processors)
    text += "processor " + proc.name + "\n0 " + std::to_string(proc.r) + "\n2 " + std::to_string(proc.r) + "\nLOOPAFTER 1\n";
  const auto constant = trace(text, m);
  const auto fixed = rp::replay(m, prog, a.form);
  CHECK(fixed.steps[3].cost.work_critical == 0);  // balanced sorting: every c_j*n*lg(n)/c_j ties
  const auto traced = rp::replay(m, prog, a.form, &constant);
  CHECK(traced.total == fixed.total);
  for (std::size_t i = 0; i < fixed.steps.size(); ++i) CHECK(traced.steps[i].cost.total == fixed.steps[i].cost.total);
  // with the time clock too
  const auto timed = trace("clock time\n" + text.substr(text.find('\n') + 1), m);
  CHECK(timed.clock == rp::Clock::time);
  CHECK(rp::replay(m, prog, a.form, &timed).total == fixed.total);
  // and the Monte Carlo replay of one-valued traces has no spread
  rp::BootstrapOptions options;
  options.reps = 100;
  const auto mc = rp::monte_carlo_replay(m, prog, a.form, constant, options);
  CHECK(mc.total.mean == Approx(fixed.total).epsilon(1e-12));
  CHECK(mc.total.min == fixed.total);
  CHECK(mc.total.max == fixed.total);
}

TEST_CASE("a trace changes r_j superstep by superstep, or by start time", "[hbsp]") {
  const auto m = machine(small_machine);
  // c alone communicates 1 packet per superstep, 4 supersteps: cost = 2*r_c + 10.
  const auto prog = program("superstep,processor,work,sent,received\n0,c,0,1,0\n1,c,0,1,0\n2,c,0,1,0\n3,c,0,1,0\n", m, 3);
  const auto by_step = trace("processor c\n1 5\n2 7\nLOOPAFTER 1\n", m);  // period 3: 5 at 1, 7 at 2, 5 at 4
  const auto r = rp::replay(m, prog, model::CostForm::hbsp1, &by_step);
  CHECK(r.steps[0].cost.gh == 2 * 3);  // before the first measurement: the machine's r = 3
  CHECK(r.steps[1].cost.gh == 2 * 5);
  CHECK(r.steps[2].cost.gh == 2 * 7);
  CHECK(r.steps[3].cost.gh == 2 * 7);  // clock 3 = 1 + 2: still the value from 2 (next event at 4)
  // time clock: supersteps start at 0, 16, 32, 44; r = 3 until time 20, then 1
  const auto by_time = trace("clock time\nprocessor c\n20 1\n", m);
  const auto t = rp::replay(m, prog, model::CostForm::hbsp1, &by_time);
  CHECK(t.steps[0].cost.total == 16);  // starts at 0, r = 3
  CHECK(t.steps[1].cost.total == 16);  // starts at 16 < 20, r = 3
  CHECK(t.steps[2].cost.total == 12);  // starts at 32, r = 1
  CHECK(t.total == 16 + 16 + 12 + 12);
  // the example trace parses against the cluster
  const auto example = rp::load_trace(example_trace_path, cluster());
  CHECK(example.traces(cluster().index_of("chromus")));
  CHECK(!example.traces(cluster().index_of("gromit")));
}

// ---- Monte Carlo replay ----------------------------------------------------------------------

TEST_CASE("Monte Carlo replay is bit-identical for 1 and 2 threads and unbiased", "[hbsp]") {
  const auto& m = cluster();
  const auto tr = rp::load_trace(example_trace_path, m);
  model::AlgorithmParams a;
  a.algorithm = model::Algorithm::broadcast_two_phase;
  a.p = 10;
  a.n = 100 * 1024.0;
  const auto prog = rp::generate(m, a);
  rp::BootstrapOptions options;
  options.reps = 1000;  // 16 blocks, the last partial
  options.seed = 42;
  options.threads = 1;
  const auto one = rp::monte_carlo_replay(m, prog, a.form, tr, options);
  options.threads = 2;
  const auto two = rp::monte_carlo_replay(m, prog, a.form, tr, options);
  REQUIRE(one.total.reps == 1000);
  CHECK(one.total.mean == two.total.mean);
  CHECK(one.total.stderr_ == two.total.stderr_);
  CHECK(one.total.ci_low == two.total.ci_low);
  CHECK(one.total.min == two.total.min);
  CHECK(one.total.max == two.total.max);
  CHECK(one.quantiles == two.quantiles);
  for (std::size_t i = 0; i < one.steps.size(); ++i) {
    CHECK(one.steps[i].cost.mean == two.steps[i].cost.mean);
    CHECK(one.steps[i].gh.stderr_ == two.steps[i].gh.stderr_);
    CHECK(one.steps[i].modal_comm_critical == two.steps[i].modal_comm_critical);
  }
  CHECK(one.quantiles.size() == 5);
  CHECK(one.total.min <= one.quantiles.front());
  CHECK(one.quantiles.back() <= one.total.max);
  options.seed = 43;
  CHECK(rp::monte_carlo_replay(m, prog, a.form, tr, options).total.mean != one.total.mean);

  // One superstep in which c alone communicates, its r drawn from {1, 3}: E[cost] = 2*2 + 10.
  const auto small = machine(small_machine);
  const auto single = program("superstep,processor,work,sent,received\n0,c,0,1,0\n", small, 3);
  const auto coin = trace("processor c\n0 1\n1 3\n", small);
  options.reps = 4000;
  const auto e = rp::monte_carlo_replay(small, single, model::CostForm::hbsp1, coin, options);
  CHECK(std::abs(e.total.mean - 14.0) < 4 * e.total.stderr_);
  CHECK(e.total.min == 12);
  CHECK(e.total.max == 16);
  CHECK(e.quantiles[2] >= 12);

  // The library names its parameter (reps), not a flag; refused before any replication runs.
  options.reps = rp::max_bootstrap_reps + 1;
  CHECK(error_of([&] { rp::monte_carlo_replay(small, single, model::CostForm::hbsp1, coin, options); }) ==
        "reps: 10000001 is more than the limit 10000000 (every total is kept for the quantiles)");
}

// ---- bad input -------------------------------------------------------------------------------

TEST_CASE("bad machine files name the file, the line and the field", "[hbsp]") {
  const auto bad = [](const std::string& text) { return error_of([&] { machine(text, "m.txt"); }); };
  CHECK_THAT(bad("g 1\nL 1\nprocessor a r=abc index=1\n"),
             Catch::Contains("m.txt:3") && Catch::Contains("'r'") && Catch::Contains("'abc' is not a number"));
  CHECK_THAT(bad("g 1\nL 1\nprocessor a index=1\n"), Catch::Contains("m.txt:3") && Catch::Contains("'r' is missing"));
  CHECK_THAT(bad("g 1\nL 1\nprocessor a r=-2 index=1\n"), Catch::Contains("m.txt:3") && Catch::Contains("'r'"));
  CHECK_THAT(bad("g 1\nL 1\nprocessor a r=0.5 index=1\n"), Catch::Contains(">= 1"));
  CHECK_THAT(bad("g 1\nL 1\nprocessor a r=1 index=-1\n"), Catch::Contains("m.txt:3") && Catch::Contains("'index'"));
  CHECK_THAT(bad("g 1\nL 1\nprocessor a r=1 c=0\n"), Catch::Contains("'c'") && Catch::Contains("> 0"));
  CHECK_THAT(bad("g 1\nL 1\nprocessor a r=1\n"), Catch::Contains("'index' (or 'c') is missing"));
  CHECK_THAT(bad("g x\n"), Catch::Contains("m.txt:1") && Catch::Contains("'g'"));
  CHECK_THAT(bad("g\n"), Catch::Contains("m.txt:1"));
  CHECK_THAT(bad("L 1\nprocessor a r=1 index=1\n"), Catch::Contains("m.txt") && Catch::Contains("no 'g' line"));
  CHECK_THAT(bad("g 1\nL p=x 4\n"), Catch::Contains("m.txt:2") && Catch::Contains("'p'"));
  CHECK_THAT(bad("g 1\nL -1\n"), Catch::Contains("m.txt:2") && Catch::Contains("'L'"));
  CHECK_THAT(bad("g 1\nprocessor a r=1 index=1\nprocessor a r=1 index=1\n"), Catch::Contains("m.txt:3") && Catch::Contains("twice"));
  CHECK_THAT(bad("g 1\nprocessor a r=1 index=1\nprocessor b r=1 c=1\n"), Catch::Contains("m.txt:3"));
  CHECK_THAT(bad("g 1\nbogus 3\n"), Catch::Contains("m.txt:2") && Catch::Contains("unknown line"));
  CHECK_THAT(bad("g 1\n"), Catch::Contains("no processor lines"));
  CHECK_THAT(error_of([] { model::load_machine("/nonexistent/machine.txt"); }), Catch::Contains("cannot open"));
  // a p without L
  const auto m = machine("g 1\nL p=2 5\nprocessor a r=1 index=1\nprocessor b r=1 index=1\nprocessor c r=1 index=1\n");
  CHECK_THAT(error_of([&] { m.latency(3); }), Catch::Contains("no L for p = 3") && Catch::Contains("p = 2"));
}

TEST_CASE("bad traces name the file, the line and the field", "[hbsp]") {
  const auto m = machine(small_machine);
  const auto bad = [&](const std::string& text) { return error_of([&] { trace(text, m, "t.txt"); }); };
  CHECK_THAT(bad("processor a\n0 1\nprocessor zed\n0 2\n"),
             Catch::Contains("t.txt:3") && Catch::Contains("'zed' is not in the machine"));
  CHECK_THAT(bad("processor a\n0 -1\n"), Catch::Contains("t.txt:2") && Catch::Contains("'r'"));
  CHECK_THAT(bad("processor a\n0 x\n"), Catch::Contains("t.txt:2") && Catch::Contains("'r'") && Catch::Contains("'x'"));
  CHECK_THAT(bad("processor a\n0\n"), Catch::Contains("t.txt:2") && Catch::Contains("'r' is missing"));
  CHECK_THAT(bad("processor a\n3 1\n2 1\n"), Catch::Contains("t.txt:3") && Catch::Contains("out of order"));
  CHECK_THAT(bad("processor a\n-1 1\n"), Catch::Contains("t.txt:2") && Catch::Contains("'superstep'"));
  CHECK_THAT(bad("0 1\n"), Catch::Contains("t.txt:1") && Catch::Contains("before any 'processor'"));
  CHECK_THAT(bad("processor a\n0 1\nLOOPAFTER 0\n"), Catch::Contains("t.txt:3"));
  CHECK_THAT(bad("processor a\n0 1\nLOOPAFTER 1\n2 1\n"), Catch::Contains("t.txt:4"));
  CHECK_THAT(bad("processor a\nprocessor b\n0 1\n"), Catch::Contains("t.txt:1") && Catch::Contains("no measurements"));
  CHECK_THAT(bad("processor a\n0 1\nclock time\n"), Catch::Contains("t.txt:3"));
  CHECK_THAT(bad("# nothing\n"), Catch::Contains("no 'processor' section"));
}

TEST_CASE("bad program CSV names the file, the line and the field", "[hbsp]") {
  const auto m = machine(small_machine);
  const auto bad = [&](const std::string& text, int p = 3) { return error_of([&] { program(text, m, p, "p.csv"); }); };
  const std::string head = "superstep,processor,work,sent,received\n";
  CHECK_THAT(bad(head + "0,a,1,1,1\n1,a,1,1,1\n0,b,1,1,1\n"), Catch::Contains("p.csv:4") && Catch::Contains("out of order"));
  CHECK_THAT(bad(head + "0,a,1,1,1\n2,a,1,1,1\n"), Catch::Contains("p.csv:3") && Catch::Contains("superstep 1 is missing"));
  CHECK_THAT(bad(head + "0,a,1,1\n"), Catch::Contains("p.csv:2") && Catch::Contains("has 4 fields"));
  CHECK_THAT(bad(head + "0,a,x,1,1\n"), Catch::Contains("p.csv:2") && Catch::Contains("'work'"));
  CHECK_THAT(bad(head + "0,a,1,,1\n"), Catch::Contains("p.csv:2") && Catch::Contains("'sent' is empty"));
  CHECK_THAT(bad(head + "0,a,1,1,-3\n"), Catch::Contains("p.csv:2") && Catch::Contains("'received'"));
  CHECK_THAT(bad(head + "0.5,a,1,1,1\n"), Catch::Contains("p.csv:2") && Catch::Contains("'superstep'"));
  CHECK_THAT(bad(head + "0,zed,1,1,1\n"), Catch::Contains("p.csv:2") && Catch::Contains("'zed'"));
  CHECK_THAT(bad(head + "0,c,1,1,1\n", 2), Catch::Contains("p.csv:2") && Catch::Contains("first p = 2"));
  CHECK_THAT(bad(head + "0,a,1,1,1\n0,0,1,1,1\n"), Catch::Contains("p.csv:3") && Catch::Contains("second row"));
  CHECK_THAT(bad("superstep,processor,work,sent\n"), Catch::Contains("p.csv:1") && Catch::Contains("'received'"));
  CHECK_THAT(bad("superstep,processor,work,sent,received,extra\n"), Catch::Contains("p.csv:1") && Catch::Contains("'extra'"));
  CHECK_THAT(bad(head), Catch::Contains("no supersteps"));
}

TEST_CASE("bad algorithm parameters", "[hbsp]") {
  const auto& m = cluster();
  model::AlgorithmParams a;
  a.algorithm = model::Algorithm::scatter;
  a.n = 100;
  a.p = 3;  // no L for p = 3 in the paper
  CHECK_THAT(error_of([&] { model::closed_form(m, a); }), Catch::Contains("no L for p = 3"));
  a.p = 12;
  // The library names the parameter in the papers' words, not an option of the command line.
  CHECK(error_of([&] { model::closed_form(m, a); }) ==
        "processors: p = 12 is not between 1 and the 10 processors of " + cluster_path);
  a.p = 1;
  CHECK(error_of([&] { model::closed_form(m, a); }) == "processors: the built-in algorithms need at least 2 processors");
  a.p = 4;
  a.n = -5;
  CHECK(error_of([&] { rp::generate(m, a); }) == "size: the problem size must be > 0, got -5");
  CHECK_THAT(error_of([&] { model::parse_root(m, 4, "sgi7"); }), Catch::Contains("first p = 4"));
  CHECK(model::parse_root(m, 4, "aditi").index == 2);
  CHECK(model::parse_root(m, 4, "3").index == 3);
  CHECK_THROWS_AS(model::parse_algorithm("bogosort"), InputError);
  CHECK_THROWS_AS(model::parse_workload("fair"), InputError);
}

// ---- writing a machine file ------------------------------------------------------------------

namespace {

void check_same_machine(const model::Machine& a, const model::Machine& b) {
  CHECK(a.g == b.g);
  CHECK(a.latency_any == b.latency_any);
  CHECK(a.latency_by_p == b.latency_by_p);
  CHECK(a.time_unit == b.time_unit);
  CHECK(a.packet_unit == b.packet_unit);
  CHECK(a.speed_field == b.speed_field);
  REQUIRE(a.size() == b.size());
  for (int j = 0; j < a.size(); ++j) {
    CHECK(a.processors[j].name == b.processors[j].name);
    CHECK(a.processors[j].r == b.processors[j].r);
    CHECK(a.processors[j].speed == b.processors[j].speed);
  }
}

}  // namespace

TEST_CASE("hbsp machine file: written, it reads back as the same machine", "[hbsp]") {
  // The shipped cluster: index=, L for each p, units.
  const auto& m = cluster();
  const std::string text = model::machine_text(m);
  check_same_machine(machine(text), m);
  CHECK(text.find("unit time=us packet=byte\ng 0.196\n\nL p=2 9000\n") == 0);
  CHECK(text.find("processor chromus   r=4.08      index=0.75\n") != std::string::npos);

  // c=, a default L, no units, numbers that need every digit, comments.
  const auto odd = machine("g 0.1\nL 1e-7\nL p=3 123456789.125\nprocessor x1 r=1 c=0.30000000000000004\n"
                           "processor a-long-name r=1.0000000000000002 c=7e-30\nprocessor z r=1e30 c=1e30\n");
  model::MachineComments comments;
  comments.header = {"made by hand", "second line"};
  comments.processors = {"first", "", "third"};
  const std::string odd_text = model::machine_text(odd, comments);
  check_same_machine(machine(odd_text), odd);
  CHECK(odd_text ==
        "# made by hand\n"
        "# second line\n"
        "g 0.1\n"
        "\n"
        "L 1e-07\n"
        "L p=3 123456789.125\n"
        "\n"
        "processor x1           r=1         c=0.30000000000000004  # first\n"
        "processor a-long-name  r=1.0000000000000002 c=7e-30\n"
        "processor z            r=1e+30     c=1e+30          # third\n");

  // What the format cannot hold is refused, naming the machine.
  auto bad = odd;
  bad.processors[1].name = "two words";
  CHECK(error_of([&] { model::machine_text(bad); }) ==
        "m.txt: processor name 'two words' cannot be written in a machine file (no whitespace, '#' or '=')");
  bad = odd;
  bad.time_unit = "u#s";
  CHECK_THAT(error_of([&] { model::machine_text(bad); }), Catch::Contains("time unit 'u#s'"));
}

// ---- the paper's Figures 4 and 6 (bounds/hbsp/predictions) -------------------------------------

TEST_CASE("hbsp predictions: Figures 4 and 6 as typed rows", "[hbsp]") {
  const auto& m = cluster();
  CHECK(model::predicted_p(m) == paper_p);
  const auto figures = model::paper_predictions();
  REQUIRE(figures.size() == 2);
  CHECK(std::string(figures[0].figure) == "4");
  CHECK(figures[0].algorithm == model::Algorithm::scatter);
  CHECK(std::string(figures[1].figure) == "6");
  CHECK(figures[1].algorithm == model::Algorithm::broadcast_two_phase);

  const auto four = model::predict(m, figures[0]);
  REQUIRE(four.size() == 2 * 2 * 5 * 10);  // panels x accountings x p x n
  // Panel a, paper accounting, p = 2, n = 100 KB, equal shares: the slowest root chromus (r 4.08)
  // sends N, g*4.08*N + L; the fastest gromit sends N while chromus receives N/2 at r 4.08,
  // g*max(N, 2.04*N) + L (g = 0.196, L = 9000, N = 102400 bytes).
  const auto& first = four.front();
  CHECK(std::string(first.figure) == "4");
  CHECK(first.operation == model::Algorithm::scatter);
  CHECK(first.panel == 'a');
  CHECK(std::string(first.ratio) == "Ts/Tf");
  CHECK(first.accounting == model::Accounting::paper);
  CHECK(first.p == 2);
  CHECK(first.n_kb == 100);
  CHECK(first.n_bytes == 102400);
  CHECK(first.numerator == 90887.232);
  CHECK(first.denominator == 49943.616);
  CHECK(first.factor == first.numerator / first.denominator);
  // The order: panel, accounting, p, n.
  CHECK(four[9].n_kb == 1000);
  CHECK(four[10].p == 4);
  CHECK(four[50].accounting == model::Accounting::exact);
  CHECK(four[100].panel == 'b');
  CHECK(std::string(four[100].ratio) == "Tu/Tb");

  // The last row of Figure 6 (as in tests/golden/expected/hbsp_predict.txt).
  const auto six = model::predict(m, figures[1]);
  REQUIRE(six.size() == 200);
  const auto& last = six.back();
  CHECK(std::string(last.figure) == "6");
  CHECK(last.operation == model::Algorithm::broadcast_two_phase);
  CHECK(last.panel == 'b');
  CHECK(last.accounting == model::Accounting::exact);
  CHECK(last.p == 10);
  CHECK(last.n_kb == 1000);
  CHECK(last.n_bytes == 1024000);
  CHECK(last.numerator == 991618.688);
  CHECK(last.denominator == 1036590.72);
  CHECK(last.factor == 0.9566154402771424);

  // Only the p with an L, from 2 on; none is an error naming the machine.
  CHECK(model::predicted_p(machine("g 1\nL p=1 5\nL p=3 7\nprocessor a r=1 c=1\nprocessor b r=1 c=1\n"
                                   "processor c r=2 c=1\n")) == std::vector<int>{3});
  CHECK(error_of([] { model::predicted_p(machine("g 1\nL p=1 5\nprocessor a r=1 c=1\nprocessor b r=1 c=1\n")); }) ==
        "m.txt: no L for any p >= 2 (add 'L p=P VALUE' lines)");
}

TEST_CASE("hbsp cost form by algorithm (form auto): cj where work counts operations, else hbsp1", "[hbsp]") {
  using A = model::Algorithm;
  CHECK(model::auto_cost_form(A::prefix_sums) == model::CostForm::cj);
  CHECK(model::auto_cost_form(A::matrix_multiplication) == model::CostForm::cj);
  CHECK(model::auto_cost_form(A::sample_sort) == model::CostForm::cj);
  CHECK(model::auto_cost_form(A::scatter) == model::CostForm::hbsp1);
  CHECK(model::auto_cost_form(A::broadcast_one_phase) == model::CostForm::hbsp1);
  CHECK(model::auto_cost_form(A::broadcast_two_phase) == model::CostForm::hbsp1);
  CHECK(model::auto_cost_form(std::nullopt) == model::CostForm::hbsp1);  // a program CSV
}

// ---- the command -----------------------------------------------------------------------------

TEST_CASE("hbsp replay: tidy CSV with one row per superstep and a total equal to the closed form", "[hbsp]") {
  const auto out = run_hbsp({"hbsp", "replay", "--machine", cluster_path, "--algorithm", "broadcast2", "--size", "100KB",
                             "--workload", "equal"});
  const auto lines = lines_of(out);
  REQUIRE(lines.size() == 4);  // header, 2 supersteps, total
  const auto header = fields_of(lines[0]);
  CHECK(header.size() == 26);
  for (const auto& line : lines) CHECK(fields_of(line).size() == header.size());
  const auto total = fields_of(lines[3]);
  CHECK(total[4] == "total");
  // p = 10 and equal shares: the paper's g*n*(1+r_s) + 2L
  const double expected = 0.196 * 102400 * (1 + 4.08) + 2 * 37000;
  CHECK(std::stod(total[9]) == Approx(expected).epsilon(1e-12));
  CHECK(std::stod(total[24]) == Approx(expected).epsilon(1e-12));
  CHECK(std::stod(total[25]) == Approx(expected).epsilon(1e-12));
  CHECK(fields_of(lines[2])[11] == "chromus");  // phase 2: the slowest receiver is critical

  // Monte Carlo over the example trace: same bits on 1 and 2 threads.
  const std::vector<std::string> mc = {"hbsp", "replay", "--machine", cluster_path, "--algorithm", "samplesort",
                                       "--size", "100000", "--trace", example_trace_path, "--reps", "500"};
  auto with = [&](const char* threads) {
    auto args = mc;
    args.push_back("--threads");
    args.push_back(threads);
    return run_hbsp(args);
  };
  const std::string one = with("1");
  CHECK(one == with("2"));
  const auto mc_lines = lines_of(one);
  REQUIRE(mc_lines.size() == 6);
  for (const auto& line : mc_lines) CHECK(fields_of(line).size() == 26);
  CHECK(fields_of(mc_lines[5])[12] == "500");

  // a CSV program with the hbsp1 form
  const auto csv = lines_of(run_hbsp({"hbsp", "replay", "--machine", cluster_path, "--program", example_program_path,
                                      "--processors", "4"}));
  REQUIRE(csv.size() == 5);
  CHECK(fields_of(csv[1])[2] == "hbsp1");

  // bad input reaches the caller as InputError (cli::run turns it into exit status 2)
  CHECK_THROWS_AS(run_hbsp({"hbsp", "replay", "--machine", "/nonexistent", "--algorithm", "scatter"}), InputError);
  CHECK_THROWS_AS(run_hbsp({"hbsp", "replay", "--machine", cluster_path, "--algorithm", "scatter", "--processors", "3"}),
                  InputError);
  CHECK_THROWS_AS(run_hbsp({"hbsp", "replay", "--machine", cluster_path, "--algorithm", "scatter", "--reps", "10"}), InputError);
  CHECK_THROWS_AS(run_hbsp({"hbsp", "replay", "--machine", cluster_path}), InputError);
  CHECK_THROWS_AS(run_hbsp({"hbsp", "replay", "--machine", cluster_path, "--algorithm", "matmul", "--size", "1KB"}),
                  InputError);
  CHECK_THROWS_AS(run_hbsp({"hbsp", "replay", "--machine", cluster_path, "--program", "a.csv", "--algorithm", "scatter"}),
                  CLI::ParseError);
}

TEST_CASE("hbsp records: the library's rows are the ones the command prints", "[hbsp]") {
  // scatter on 4 processors with n = 100 KB: the command's CSV is the library's records rendered,
  // and the total's cost is 35070.4 us, as the CLI case hbsp_scatter pins.
  model::AlgorithmParams a;
  a.algorithm = model::Algorithm::scatter;
  a.p = 4;
  a.n = 100 * model::kilobyte;
  a.root = model::parse_root(cluster(), 4, "fastest");
  a.form = model::auto_cost_form(a.algorithm);
  const auto input = rp::algorithm_input(cluster(), a);
  const auto records = rp::replay_records(cluster(), input, {});
  REQUIRE(records.size() == 2);  // one superstep and the total
  const std::string cli_out = run_hbsp({"hbsp", "replay", "--machine", cluster_path, "--algorithm", "scatter",
                                        "--size", "100KB", "--processors", "4"});
  const auto cli_total = fields_of(lines_of(cli_out).back());
  CHECK(records.back().text("row") == "total");
  CHECK(records.back().text("cost") == "35070.4");
  CHECK(records.back().text("cost") == cli_total[9]);
  CHECK(records.back().text("closed_form") == cli_total[24]);
  CHECK(engine::render(records, engine::Format::csv) == cli_out);

  // With the measures: the efficiency on the total row, and every row as long as the total.
  rp::ReplayRecordOptions metrics;
  metrics.metrics = true;
  const auto measured = rp::replay_records(cluster(), input, metrics);
  for (const auto& r : measured) CHECK(r.names() == measured.back().names());
  const std::string cli_metrics = run_hbsp({"hbsp", "replay", "--machine", cluster_path, "--algorithm", "scatter",
                                            "--size", "100KB", "--processors", "4", "--metrics"});
  CHECK(measured.back().text("efficiency") == fields_of(lines_of(cli_metrics).back()).back());
  CHECK(engine::render(measured, engine::Format::csv) == cli_metrics);

  // A Monte Carlo replay over the example trace: the same bits as the command's.
  const auto t = rp::load_trace(example_trace_path, cluster());
  rp::ReplayRecordOptions mc;
  mc.trace = &t;
  mc.bootstrap.emplace();
  mc.bootstrap->reps = 200;
  mc.bootstrap->seed = 7;
  mc.bootstrap->threads = 1;
  const auto sampled = rp::replay_records(cluster(), input, mc);
  const std::string cli_mc = run_hbsp({"hbsp", "replay", "--machine", cluster_path, "--algorithm", "scatter", "--size",
                                       "100KB", "--processors", "4", "--trace", example_trace_path, "--reps", "200",
                                       "--seed", "7"});
  CHECK(sampled.back().text("reps") == "200");
  CHECK(sampled.back().text("q50") == fields_of(lines_of(cli_mc).back())[20]);
  CHECK(engine::render(sampled, engine::Format::csv) == cli_mc);

  // The library names its parameters: measures of a Monte Carlo replay, or one without a trace.
  mc.metrics = true;
  CHECK(error_of([&] { rp::replay_records(cluster(), input, mc); }).rfind("metrics: ", 0) == 0);
  mc.metrics = false;
  mc.trace = nullptr;
  CHECK(error_of([&] { rp::replay_records(cluster(), input, mc); }).rfind("trace: ", 0) == 0);

  // The predictions' rows are the CSVs `hbsp predict` writes (results/hbsp/, which the command
  // regenerates byte for byte: the test "results/hbsp: hbsp predict regenerates ...").
  for (const auto& prediction : model::paper_predictions()) {
    INFO("figure " << prediction.figure);
    const auto rows = rp::prediction_records(cluster(), prediction);
    const std::string csv = std::string("figure") + prediction.figure + ".csv";
    const std::string committed = file_text(std::filesystem::path(source_dir) / "results/hbsp" / csv);
    CHECK(rows.front().text("figure") == fields_of(lines_of(committed)[1])[0]);
    CHECK(engine::render(rows, engine::Format::csv) == committed);
  }
}

TEST_CASE("hbsp replay prints records: CSV, JSON (null for the empty columns) or text, to stdout or --out", "[hbsp]") {
  const std::vector<std::string> scatter = {"hbsp", "replay", "--machine", cluster_path, "--algorithm", "scatter",
                                            "--size", "100KB", "--processors", "4"};
  const auto with = [&](std::vector<std::string> more) {
    auto args = scatter;
    args.insert(args.end(), more.begin(), more.end());
    return run_hbsp(args);
  };
  const std::string csv = with({});
  CHECK(csv == with({"--format", "csv"}));
  const std::string json = with({"--format", "json"});
  const auto objects = lines_of(json);
  REQUIRE(objects.size() == 4);  // [, superstep, total, ]
  CHECK(objects.front() == "[");
  CHECK(objects.back() == "]");
  // The JSON keys are the CSV's header, in order; the empty sampling columns are null.
  const auto header = fields_of(lines_of(csv)[0]);
  std::string keys;
  for (const auto& name : header) keys += (keys.empty() ? "" : ".*") + ("\"" + name + "\":");
  CHECK_THAT(objects[2], Catch::Matches("\\{" + keys + ".*\\},?"));
  CHECK_THAT(objects[2], Catch::Contains("\"trace\":null,\"row\":\"total\",\"superstep\":null,"));
  CHECK_THAT(objects[2], Catch::Contains("\"reps\":null,\"seed\":null,\"stderr\":null"));
  CHECK_THAT(objects[2], Catch::EndsWith("\"closed_form\":35070.4,\"paper_form\":35070.4}"));
  CHECK_THAT(objects[1], Catch::Contains("\"work_critical\":null,\"comm_critical\":\"gromit\""));

  const auto text = lines_of(with({"--format", "text"}));
  REQUIRE(text.size() == 3);
  CHECK_THAT(text[0], Catch::StartsWith("program  p  form   trace  row        superstep  w  gh"));
  CHECK_THAT(text[2], Catch::StartsWith("scatter  4  hbsp1         total                 0  20070.4"));

  // --out: the same bytes in the file, nothing on stdout; a bad --format before any work.
  TempDir dir;
  const std::string out = (dir.path / "replay.json").string();
  CHECK(with({"--format", "json", "--out", out}).empty());
  CHECK(file_text(out) == json);
  CHECK(error_of([&] { with({"--format", "xml", "--out", out}); }) ==
        "--format: unknown format 'xml' (choose csv, json, jsonl or text)");
  CHECK(file_text(out) == json);
  // The sampling options are the tool's group; the bootstrap's limit comes out as the flag.
  const auto mc = [&](const char* reps) {
    return error_of([&] { with({"--trace", example_trace_path, "--reps", reps, "--threads", "1"}); });
  };
  CHECK(mc("0") == "--reps: the number of replications must be at least 1");
  CHECK(mc("10000001") == "--reps: 10000001 is more than the limit 10000000 (every total is kept for the quantiles)");
}

TEST_CASE("hbsp options mean what they mean elsewhere: the old spellings are refused, naming the new", "[hbsp]") {
  const auto error = [](std::vector<std::string> args) { return error_of([&] { run_hbsp(std::move(args)); }); };
  const std::vector<std::string> replay = {"hbsp", "replay", "--machine", cluster_path, "--algorithm", "scatter"};
  const auto with = [&](std::vector<std::string> more) {
    auto args = replay;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  CHECK(error(with({"--n", "100KB"})) == "--n: in hbsp the problem size is --size (--n is the width elsewhere)");
  CHECK(error(with({"--p", "4"})) ==
        "--p: in hbsp the number of processors is --processors (-p is the levels elsewhere)");
  CHECK(error({"hbsp", "replay", "-m", cluster_path, "--algorithm", "scatter"}) ==
        "-m: in hbsp the machine file is --machine (-m is the fast count elsewhere)");
  CHECK(error({"hbsp", "replay", "--machine", cluster_path, "-a", "scatter"}) ==
        "-a: in hbsp the algorithm is --algorithm (-a is the scale elsewhere)");
  CHECK(error({"hbsp", "predict", "-m", cluster_path}) ==
        "-m: in hbsp the machine file is --machine (-m is the fast count elsewhere)");
  CHECK(error({"hbsp", "probe", "-m", "m.txt", "--trace", "t.txt"}) ==
        "-m: in hbsp the machine file is --machine (-m is the fast count elsewhere)");
  // The library's parameters come out as the options that set them.
  CHECK(error(with({"--processors", "12"})) ==
        "--processors: p = 12 is not between 1 and the 10 processors of " + cluster_path);
  // --processors 0 once meant every processor; now it is refused like any p outside 1..size.
  CHECK(error(with({"--processors", "0"})) ==
        "--processors: p = 0 is not between 1 and the 10 processors of " + cluster_path);
  CHECK(error({"hbsp", "replay", "--machine", cluster_path, "--program", example_program_path, "--processors", "0"}) ==
        "--processors: p = 0 is not between 1 and the 10 processors of " + cluster_path);
  CHECK(error(with({"--processors", "1"})) == "--processors: the built-in algorithms need at least 2 processors");
  CHECK(error(with({"--size", "-5"})) == "--size: the problem size must be > 0, got -5");
  CHECK(error(with({"--size", "1e31"})) == "--size: field 'n': '1e31' is out of range: the limit is 1e30 in magnitude "
                                           "(HBSP inputs keep their numbers within 1e-30 and 1e30: change the units)");
  CHECK_THAT(error(with({"--root", "nobody"})), Catch::StartsWith("--root: processor 'nobody' is not in "));
  CHECK_THAT(error(with({"--form", "x"})), Catch::StartsWith("--form: 'x' is not a cost form"));
  CHECK_THAT(error({"hbsp", "replay", "--machine", cluster_path, "--algorithm", "bogosort"}),
             Catch::StartsWith("--algorithm: 'bogosort' is not a built-in HBSP algorithm"));
}

TEST_CASE("hbsp predict writes Figures 4 and 6 as CSV, gnuplot script, SVG and PNG", "[hbsp]") {
  // A quote in the folder's name: the script once wrote set output '<path>' unquoted.
  const TempDir temp("hetstruct-hbsp-it's");
  const auto dir = temp.path / "figures";
  run_hbsp({"hbsp", "predict", "--out-dir", dir.string()});
  for (const char* figure : {"figure4", "figure6"}) {
    for (const char* ext : {".csv", ".gp", ".svg", ".png"}) {
      INFO(figure << ext);
      CHECK(std::filesystem::file_size(dir / (std::string(figure) + ext)) > 0);
    }
    std::ifstream in(dir / (std::string(figure) + ".csv"));
    std::stringstream text;
    text << in.rdbuf();
    const auto lines = lines_of(text.str());
    CHECK(lines.size() == 1 + 2 * 2 * 5 * 10);  // panels x accountings x p x n
  }
  CHECK_THAT(file_text(dir / "figure4.gp"), Catch::Contains("set output '" + (temp.path.parent_path() / "hetstruct-hbsp-it''s").string()));
  // A name gnuplot cannot take is refused before anything is written.
  const auto bad = temp.path / "two\nlines";
  CHECK(error_of([&] { run_hbsp({"hbsp", "predict", "--out-dir", bad.string()}); }) ==
        "--out-dir: gnuplot cannot take a file name with a line break or a NUL (rename the folder or file)");
  CHECK(!std::filesystem::exists(bad));
}

// The committed results/hbsp/ (`hetstruct hbsp predict --out-dir results/hbsp`, its PROVENANCE.txt)
// regenerated in a fresh folder: its CSVs must be the committed ones, byte for byte.
TEST_CASE("results/hbsp: hbsp predict regenerates the committed CSVs", "[hbsp]") {
  const TempDir dir;
  run_hbsp({"hbsp", "predict", "--out-dir", dir.path.string()});
  for (const char* csv : {"figure4.csv", "figure6.csv"}) {
    INFO(csv);
    const std::string committed = file_text(std::filesystem::path(source_dir) / "results/hbsp" / csv);
    REQUIRE(!committed.empty());
    CHECK(file_text(dir.path / csv) == committed);
  }
}

// ---- ranges (issue 6): no cost is inf or NaN ---------------------------------------------------

// Numbers near 1e308 (g, L, r_j, work, packets) gave costs of inf, printed as such by hbsp replay.
// The readers now keep every number within 1e30 in magnitude, and the ones that must be > 0 at
// least 1e-30 (bounds/hbsp/model.h, "Ranges"), naming the file, line, field and limit; within these a
// program's costs and hbsp predict's ratios are finite. A cost that overflows all the same is an
// InputError, never a result.
TEST_CASE("HBSP numbers lie within 1e-30 and 1e30: outside, an error naming the field and the limit", "[hbsp]") {
  using Catch::Contains;
  const auto bad_machine = [](const std::string& text) { return error_of([&] { machine(text, "m.txt"); }); };
  const std::string procs = "processor a r=1 index=1\nprocessor b r=2 index=2\n";
  CHECK_THAT(bad_machine("g 1e308\nL 1\n" + procs), Contains("m.txt:1") && Contains("field 'g'") && Contains("limit is 1e30"));
  CHECK_THAT(bad_machine("g -1e308\nL 1\n" + procs), Contains("m.txt:1") && Contains("field 'g'") && Contains("limit is 1e30"));
  CHECK_THAT(bad_machine("g 1e-31\nL 1\n" + procs), Contains("m.txt:1") && Contains("field 'g'") && Contains("limit 1e-30"));
  CHECK_THAT(bad_machine("g 1\nL 1e308\n" + procs), Contains("m.txt:2") && Contains("field 'L'") && Contains("limit is 1e30"));
  CHECK_THAT(bad_machine("g 1\nL p=2 2e30\n" + procs), Contains("m.txt:2") && Contains("field 'L'") && Contains("limit"));
  CHECK_THAT(bad_machine("g 1\nL 1\nprocessor a r=1e308 index=1\n"),
             Contains("m.txt:3") && Contains("field 'r'") && Contains("limit is 1e30"));
  CHECK_THAT(bad_machine("g 1\nL 1\nprocessor a r=1 c=1e31\n"), Contains("m.txt:3") && Contains("field 'c'") && Contains("limit"));
  CHECK_THAT(bad_machine("g 1\nL 1\nprocessor a r=1 index=1e-31\n"),
             Contains("m.txt:3") && Contains("field 'index'") && Contains("limit 1e-30"));

  // The ranges' ends are accepted.
  const auto m = machine("g 1e30\nL 1e30\nprocessor a r=1e30 c=1e-30\nprocessor b r=1 c=1e30\nprocessor c r=1e30 c=1\n");
  CHECK(m.relative_speed(1, 3) == Approx(1e60));
  const std::string head = "superstep,processor,work,sent,received\n";
  const auto bad_program = [&](const std::string& text) { return error_of([&] { program(text, m, 3, "p.csv"); }); };
  CHECK_THAT(bad_program(head + "0,a,1e308,0,0\n"), Contains("p.csv:2") && Contains("field 'work'") && Contains("limit"));
  CHECK_THAT(bad_program(head + "0,a,0,1e31,0\n"), Contains("p.csv:2") && Contains("field 'sent'") && Contains("limit"));
  CHECK_THAT(bad_program(head + "0,a,0,0,1e31\n"), Contains("p.csv:2") && Contains("field 'received'"));
  const auto bad_trace = [&](const std::string& text) { return error_of([&] { trace(text, m, "t.txt"); }); };
  CHECK_THAT(bad_trace("processor a\n0 1e31\n"), Contains("t.txt:2") && Contains("field 'r'") && Contains("limit"));
  CHECK_THAT(bad_trace("processor a\n0 1e-31\n"), Contains("t.txt:2") && Contains("field 'r'") && Contains("limit 1e-30"));
  CHECK_THAT(bad_trace("processor a\n1e31 1\n"), Contains("t.txt:2") && Contains("field 'superstep'"));
  CHECK_THAT(bad_trace("processor a\n0 1\nLOOPAFTER 1e31\n"), Contains("t.txt:3") && Contains("field 'LOOPAFTER'"));

  // The largest costs within the ranges: g*r*h = 1e30*1e30*1e30 a superstep, finite, also for the
  // Monte Carlo replay's spread (r_j drawn from 1e-30 to 1e30).
  const auto big = program(head + "0,a,1e30,1e30,1e30\n0,b,1e30,1e30,1e30\n0,c,1e30,1e30,1e30\n1,a,1e30,1e30,0\n", m, 3);
  const auto t = trace("processor a\n0 1e30\n1 1e-30\nprocessor c\n0 1e30\n", m);
  for (const auto form : {model::CostForm::hbsp1, model::CostForm::cj}) {
    const auto r = rp::replay(m, big, form, &t);
    CHECK(r.total == Approx(1e90));  // superstep 0; superstep 1 adds 1e30 or so
    rp::BootstrapOptions options;
    options.reps = 50;
    const auto mc = rp::monte_carlo_replay(m, big, form, t, options);
    for (const double x : {mc.total.mean, mc.total.stderr_, mc.total.ci_low, mc.total.ci_high, mc.gh.stderr_})
      CHECK(std::isfinite(x));
  }
  model::AlgorithmParams a;
  a.algorithm = model::Algorithm::matrix_multiplication;
  a.p = 3;
  a.n = 1e30;
  a.item_size = 1e30;
  CHECK(std::isfinite(model::closed_form(m, a)));
  CHECK(std::isfinite(rp::replay(m, rp::generate(m, a), model::CostForm::cj).total));
  a.n = 2e30;
  CHECK(error_of([&] { model::closed_form(m, a); }) == "size: the problem size 2e+30 is more than the limit 1e30");
  a.n = 1e3;
  a.item_size = 1e31;
  CHECK(error_of([&] { rp::generate(m, a); }) == "item size: the item size 1e+31 is more than the limit 1e30");

  // hbsp predict's ratios T_s/T_f and T_u/T_b on the most extreme machine: finite and > 0 (L = 0,
  // the smallest g: the denominators are the smallest possible).
  const auto extreme = machine("g 1e-30\nL 0\nprocessor a r=1e30 c=1e-30\nprocessor b r=1 c=1e30\nprocessor c r=1e30 c=1e30\n");
  for (const auto alg : {model::Algorithm::scatter, model::Algorithm::broadcast_two_phase})
    for (const auto accounting : {model::Accounting::paper, model::Accounting::exact})
      for (const int p : {2, 3}) {
        model::AlgorithmParams b;
        b.algorithm = alg;
        b.accounting = accounting;
        b.p = p;
        b.n = 1000 * 1024;
        b.item_size = 1;
        b.workload = model::Workload::equal;
        b.root.kind = model::RootChoice::slowest;
        const double ts = model::closed_form(extreme, b);
        b.root.kind = model::RootChoice::fastest;
        const double tf = model::closed_form(extreme, b);
        b.workload = model::Workload::balanced;
        const double tb = model::closed_form(extreme, b);
        for (const double ratio : {ts / tf, tf / tb}) CHECK((std::isfinite(ratio) && ratio > 0.0));
      }
}

TEST_CASE("a cost that overflows is an error, never inf: closed forms, replays, Monte Carlo", "[hbsp]") {
  using Catch::Contains;
  // Beyond the readers' ranges, built by hand.
  model::Machine m;
  m.g = 1e300;
  m.latency_any = 0.0;
  m.processors = {{"a", 1.0, 1.0}, {"b", 1.0, 1.0}};
  m.source = "huge.txt";
  model::AlgorithmParams a;
  a.algorithm = model::Algorithm::scatter;
  a.n = 1e30;
  a.item_size = 1e30;
  CHECK_THAT(error_of([&] { model::closed_form(m, a); }),
             Contains("huge.txt") && Contains("closed form of scatter") && Contains("overflows"));
  CHECK_THAT(error_of([&] { model::paper_form(m, a); }), Contains("overflows"));
  CHECK_THAT(error_of([&] { rp::replay(m, rp::generate(m, a), model::CostForm::hbsp1); }),
             Contains("scatter") && Contains("superstep 0") && Contains("overflows"));

  // Within the ranges the static replay is finite, but the replications' spread overflows:
  // g*h is 1e150 or 1e160 as r_a is drawn 1 or 1e10, and (1e160)^2 is beyond a double.
  m.g = 1.0;
  rp::Program prog;
  prog.name = "spread.csv";
  prog.p = 2;
  prog.steps.push_back({0, {0.0, 0.0}, {1e150, 0.0}, {0.0, 1e150}});
  CHECK(std::isfinite(rp::replay(m, prog, model::CostForm::hbsp1).total));
  const auto t = trace("processor a\n0 1\n1 1e10\n", m);
  rp::BootstrapOptions options;
  options.reps = 20;
  CHECK_THAT(error_of([&] { rp::monte_carlo_replay(m, prog, model::CostForm::hbsp1, t, options); }),
             Contains("spread.csv") && Contains("Monte Carlo") && Contains("overflows"));
}

}  // namespace hbsp_test
