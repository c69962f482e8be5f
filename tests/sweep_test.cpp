// hetstruct sweep and plot: range expansion, the grid, the CSV, resume, paired differences.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <catch2/catch.hpp>

#include "cli/figures.h"
#include "cli/output.h"
#include "cli/plot.h"
#include "cli/sweep.h"
#include "distributions/input_error.h"

using namespace hetstruct;
using namespace hetstruct::cli;

namespace {

// Runs `hetstruct sweep ARGS` through the command class; returns stdout.
std::string run_sweep(std::vector<std::string> args, SweepCommand* keep = nullptr) {
  CLI::App app("test", "hetstruct");
  SweepCommand local;
  SweepCommand& sweep = keep ? *keep : local;
  sweep.add_to(app);
  args.insert(args.begin(), "sweep");
  args.push_back("--quiet");
  std::vector<const char*> argv = {"hetstruct"};
  for (const auto& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), const_cast<char**>(argv.data()));
  REQUIRE(sweep.parsed());
  std::ostringstream captured;
  auto* old = std::cout.rdbuf(captured.rdbuf());
  try {
    sweep.execute();
  } catch (...) {
    std::cout.rdbuf(old);
    throw;
  }
  std::cout.rdbuf(old);
  return captured.str();
}

std::vector<std::vector<std::string>> records(const std::string& csv) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(csv);
  std::string line;
  std::vector<std::string> fields;
  while (std::getline(in, line)) {
    REQUIRE(parse_csv_line(line, fields));
    out.push_back(fields);
  }
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream b;
  b << in.rdbuf();
  return b.str();
}

std::string temp_path(const std::string& name) {
  return "/tmp/hetstruct-sweep-test-" + std::to_string(::getpid()) + "-" + name;
}

const std::vector<std::string> small_grid = {"-s", "sync,nn,ms", "--n", "3,4", "--m", "0,1", "--comm", "0,0.1",
                                             "--levels", "5", "--reps", "100", "--seed", "9"};

}  // namespace

TEST_CASE("ranges expand to start + k*step with the end included", "[sweep]") {
  const auto c = expand_numbers("--comm", "0:0.25:0.025", 1000);
  REQUIRE(c.size() == 11);
  const auto figure = figure_comm_values();
  for (int k = 1; k <= 10; ++k) CHECK(c[k] == figure[k - 1]);  // the nearest double to k/40
  CHECK(c.back() == 0.25);
  const auto tenth = expand_numbers("--comm", "0:0.3:0.1", 1000);
  REQUIRE(tenth.size() == 4);
  CHECK(tenth[3] == 0.3);  // not 0.30000000000000004
  CHECK(tenth[2] == 0.2);
  // Fractions: start + k*step, the end within a relative 1e-9.
  const auto thirds = expand_numbers("--a", "1/3:1:1/3", 1000);
  REQUIRE(thirds.size() == 3);
  CHECK(thirds.back() == 1.0);
  const auto fallback = expand_numbers("--comm", "0:3/10:1/10", 1000);
  REQUIRE(fallback.size() == 4);
  CHECK(fallback.back() == 0.3);
  CHECK(expand_numbers("--a", "1/2", 10) == std::vector<double>{0.5});
  CHECK(expand_numbers("--a", "0.5:0.5:0.1", 10) == std::vector<double>{0.5});
  CHECK(expand_numbers("--comm", "0:1", 10) == std::vector<double>{0, 1});
  CHECK(expand_numbers("--comm", "0,0.05:0.1:0.05,1", 10) == std::vector<double>{0, 0.05, 0.1, 1});

  CHECK(expand_integers("--n", "2:16:2", 100) == std::vector<long long>{2, 4, 6, 8, 10, 12, 14, 16});
  CHECK(expand_integers("--n", "2:7:2", 100) == std::vector<long long>{2, 4, 6});
  CHECK(expand_integers("--n", "3,4,5,8,16", 100) == std::vector<long long>{3, 4, 5, 8, 16});
  CHECK(expand_integers("--n", "8", 100) == std::vector<long long>{8});
  CHECK(expand_integers("--n", "8:8", 100) == std::vector<long long>{8});

  CHECK(split_list("--law", "uniform, u(0,2),mix(0.5:u(0,1),0.5:c(1))") ==
        std::vector<std::string>{"uniform", "u(0,2)", "mix(0.5:u(0,1),0.5:c(1))"});
}

TEST_CASE("bad ranges are errors", "[sweep]") {
  auto fails = [](const std::string& text, const std::string& what) {
    try {
      expand_numbers("--comm", text, 1000);
      FAIL("'" << text << "' expanded");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::Contains(what));
    }
  };
  fails("0.3:0.1:0.1", "inverted");
  fails("0:1:0", "step of 0");
  fails("0:1:-0.1", "negative step");
  fails("", "empty list");
  fails("1,,2", "empty value");
  fails("0::1", "empty bound");
  fails("0:1:2:3", "start:stop");
  fails("0:1:0.0001", "more than 1000 values");
  fails("0.1,1/10", "appears twice");
  CHECK_THROWS_AS(expand_integers("--n", "5:1", 100), InputError);
  CHECK_THROWS_AS(expand_integers("--n", "1:5:0", 100), InputError);
  CHECK_THROWS_AS(expand_integers("--n", "1.5", 100), InputError);
  CHECK_THROWS_AS(expand_integers("--n", "1:1000", 100), InputError);
  CHECK_THROWS_AS(split_list("--law", " "), InputError);
}

TEST_CASE("the grid is the product of the dimensions, last dimension fastest", "[sweep]") {
  const auto rows = records(run_sweep({"-s", "sync,async", "--n", "2:3", "--m", "0,1", "--comm", "0", "--levels", "2",
                                       "--reps", "10"}));
  REQUIRE(rows.front().size() == 20);
  std::vector<std::string> order;
  for (std::size_t i = 1; i < rows.size(); ++i)
    if (rows[i][11] == "mc") order.push_back(rows[i][0] + rows[i][3] + rows[i][4]);
  CHECK(order == std::vector<std::string>{"sync20", "sync21", "sync30", "sync31", "async20", "async21", "async30",
                                          "async31"});
  // The limit counts configurations: 2 x 2 x 2 = 8 > 7.
  CHECK_THROWS_WITH(run_sweep({"-s", "sync,async", "--n", "2:3", "--m", "0,1", "--reps", "10", "--max-configs", "7"}),
                    Catch::Contains("8 configurations"));
}

TEST_CASE("the CSV reads back field for field and number for number", "[sweep]") {
  const std::string csv = run_sweep({"-s", "sync", "--n", "3", "--law", "uniform,u(0,2)", "--a", "2/3", "--comm",
                                     "0,0.05", "--levels", "4", "--reps", "50", "--compare-to", "comm=0"});
  CHECK(csv.rfind(std::string(sweep_header) + "\n", 0) == 0);
  const auto rows = records(csv);
  std::string rebuilt;
  std::size_t mc = 0;
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (i) line += ',';
      line += csv_field(r[i]);
    }
    rebuilt += line + "\n";
    if (r[11] != "mc") continue;
    ++mc;
    for (const int c : {5, 7, 14, 15, 16, 17}) CHECK(full(std::stod(r[c])) == r[c]);  // full precision
    CHECK(r[18] == "50");
    CHECK(r[19] == "1");
  }
  CHECK(rebuilt == csv);
  CHECK(mc == 4);
  CHECK(csv.find("\"u(0,2)\"") != std::string::npos);
}

TEST_CASE("a resumed sweep writes the file an uninterrupted one writes", "[sweep]") {
  const std::string path = temp_path("resume.csv");
  std::vector<std::string> args = small_grid;
  args.insert(args.end(), {"--compare-to", "m=0", "--out", path});
  SweepCommand first;
  run_sweep(args, &first);
  const std::string whole = slurp(path);
  REQUIRE(first.computed_configs == 24);

  // Killed mid-way: the file cut inside a row. Mark a complete configuration to see it kept.
  const auto first_mc = whole.find(",mc,");
  REQUIRE(first_mc != std::string::npos);
  std::string cut = whole.substr(0, whole.size() / 2);
  const auto value_at = first_mc + 4 + whole.substr(first_mc + 4).find(',') + 2;  // after "mc,method,,"
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << cut;
  }
  std::vector<std::string> again = args;
  again.push_back("--resume");
  SweepCommand resumed;
  run_sweep(again, &resumed);
  CHECK(slurp(path) == whole);
  CHECK(resumed.resumed_configs > 0);
  CHECK(resumed.computed_configs > 0);
  CHECK(resumed.resumed_configs + resumed.computed_configs == 24);

  // The kept rows are read from the file, not simulated again.
  std::string marked = cut;
  marked.replace(value_at, marked.find(',', value_at) - value_at, "12345");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << marked;
  }
  SweepCommand kept;
  run_sweep(again, &kept);
  const std::string result = slurp(path);
  CHECK(result != whole);
  CHECK(result.find(",12345,") != std::string::npos);

  // A file that is not a sweep CSV is refused and left alone.
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << "a,b,c\n1,2,3\n";
  }
  CHECK_THROWS_WITH(run_sweep(again), Catch::Contains("another header"));
  CHECK(slurp(path) == "a,b,c\n1,2,3\n");
  std::remove(path.c_str());
}

TEST_CASE("bad input writes nothing", "[sweep]") {
  const std::string path = temp_path("nothing.csv");
  std::remove(path.c_str());
  CHECK_THROWS_AS(run_sweep({"-s", "sync", "--n", "4", "--comm", "0:1:0", "--out", path}), InputError);
  CHECK_THROWS_AS(run_sweep({"-s", "sync", "--n", "2,4", "--m", "3", "--out", path}), InputError);
  CHECK_THROWS_AS(run_sweep({"-s", "sync", "--n", "4", "--config", "/nonexistent/x.toml", "--out", path}), InputError);
  CHECK_THROWS_AS(run_sweep({"-s", "sync", "--n", "4", "--compare-to", "m", "--out", path}), InputError);
  CHECK_THROWS_AS(run_sweep({"-s", "sync", "--n", "4", "--out", "/nonexistent/dir/x.csv"}), InputError);
  CHECK(::access(path.c_str(), F_OK) != 0);
  // --skip-invalid leaves the impossible (2,3) out instead.
  const auto rows = records(run_sweep({"-s", "sync", "--n", "2,4", "--m", "3", "--levels", "2", "--reps", "10",
                                       "--skip-invalid"}));
  for (std::size_t i = 1; i < rows.size(); ++i) CHECK(rows[i][3] == "4");
}

TEST_CASE("a TOML config gives the grid; the command line overrides it", "[sweep]") {
  const std::string path = temp_path("grid.toml");
  {
    std::ofstream out(path);
    out << "# a sweep\nstructure = \"sync\"\nn = [2, 3]\ncomm = \"0:0.1:0.05\"\nlevels = 3\nreps = 20\n"
           "law = [\"uniform\", \"u(0,2)\"]\n";
  }
  auto count_mc = [](const std::string& csv) {
    std::size_t k = 0;
    for (const auto& r : records(csv)) k += r[11] == "mc";
    return k;
  };
  CHECK(count_mc(run_sweep({"--config", path})) == 2 * 2 * 3);
  CHECK(count_mc(run_sweep({"--config", path, "--n", "4"})) == 2 * 1 * 3);
  {
    std::ofstream out(path);
    out << "structure = \"sync\"\nn = 2\nwidth = 3\n";
  }
  CHECK_THROWS_WITH(run_sweep({"--config", path}), Catch::Contains("unknown key 'width'"));
  std::remove(path.c_str());
}

TEST_CASE("the paired standard error of (n,m) - (n,0) is smaller than the unpaired one", "[sweep]") {
  const auto rows = records(run_sweep({"-s", "sync,async", "--n", "8", "--m", "0,3", "--levels", "50", "--reps", "400",
                                       "--seed", "3", "--compare-to", "m=0"}));
  for (const std::string structure : {"sync", "async"}) {
    double se0 = NAN, se3 = NAN, mean0 = NAN, mean3 = NAN, diff = NAN, diff_se = NAN;
    for (const auto& r : rows) {
      if (r[0] != structure) continue;
      if (r[11] == "mc" && r[4] == "0") mean0 = std::stod(r[14]), se0 = std::stod(r[15]);
      if (r[11] == "mc" && r[4] == "3") mean3 = std::stod(r[14]), se3 = std::stod(r[15]);
      if (r[11] == "difference" && r[4] == "3") {
        CHECK(r[13] == "m=0");
        diff = std::stod(r[14]), diff_se = std::stod(r[15]);
      }
    }
    INFO(structure << ": paired " << diff_se << ", unpaired " << std::hypot(se0, se3));
    CHECK(diff == Approx(mean3 - mean0).epsilon(1e-9));
    CHECK(diff_se < 0.8 * std::hypot(se0, se3));
  }
}

TEST_CASE("plot draws one series per value and estimator, with error bars", "[sweep]") {
  const std::string csv = run_sweep({"-s", "sync", "--n", "4,8", "--m", "1", "--comm", "0:0.2:0.1", "--levels", "5",
                                     "--reps", "50"});
  PlotCommand plot;
  plot.csv_path = "sweep.csv";
  plot.x = "comm";
  plot.series = "n";
  const std::string script = plot_script(plot, csv, "out.svg", "out.png");
  CHECK(script.find("set terminal svg") != std::string::npos);
  CHECK(script.find("set output 'out.png'") != std::string::npos);
  CHECK(script.find("title 'n=4 mc'") != std::string::npos);
  CHECK(script.find("title 'n=8 upper_bound'") != std::string::npos);
  CHECK(script.find("yerrorlines") != std::string::npos);
  std::size_t blocks = 0;
  for (auto p = script.find("<< EOD"); p != std::string::npos; p = script.find("<< EOD", p + 1)) ++blocks;
  CHECK(blocks == 2 * 4);  // n = 4, 8 x mc, closed_form, lower_bound, upper_bound

  plot.series.clear();
  plot.facet = "n";
  plot.estimators = {"mc"};
  const std::string faceted = plot_script(plot, csv, "out.svg", "out.png");
  CHECK(faceted.find("set multiplot layout 1,2") != std::string::npos);

  plot.facet.clear();  // two widths at each C in one series: refused, naming the column
  CHECK_THROWS_WITH(plot_script(plot, csv, "o.svg", "o.png"), Catch::Contains("differ in n"));
  plot.x = "structure";
  CHECK_THROWS_WITH(plot_script(plot, csv, "o.svg", "o.png"), Catch::Contains("not numeric"));
}
