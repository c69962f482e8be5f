// hetstruct sweep and plot: range expansion, the grid, the CSV, resume, paired differences.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include <catch2/catch.hpp>

#include "tests/support.h"

#include "engine/simulate/model.h"
#include "cli/output.h"
#include "cli/plot.h"
#include "cli/sweep.h"
#include "distributions/input_error.h"
#include "engine/driver/monte_carlo.h"
#include "engine/sweep/sweep.h"
#include "structures/task_graphs.h"

namespace sweep_test {

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
  return testing::captured_stdout([&] { sweep.execute(); });
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

// The file at `path` cut to `cut` (a sweep killed mid-way), then `args --resume` into it.
void resume_from(std::vector<std::string> args, const std::string& path, const std::string& cut, SweepCommand& resumed) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << cut;
  }
  args.push_back("--resume");
  run_sweep(args, &resumed);
}

std::string temp_path(const std::string& name) {
  return "/tmp/hetstruct-sweep-test-" + std::to_string(::getpid()) + "-" + name;
}

const std::vector<std::string> small_grid = {"-s", "sync,nn,ms", "--n", "3,4", "--m", "0,1", "--comm", "0,0.1",
                                             "--levels", "5", "--reps", "100", "--seed", "9"};

}  // namespace

TEST_CASE("the grid is the product of the dimensions, last dimension fastest", "[sweep]") {
  const auto rows = records(run_sweep({"-s", "sync,async", "--n", "2:3", "--m", "0,1", "--comm", "0", "--levels", "2",
                                       "--reps", "10"}));
  REQUIRE(rows.front().size() == 21);
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
  CHECK(csv.rfind(engine::csv_header(engine::sweep_columns()), 0) == 0);
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

TEST_CASE("read_back gives the kinds records_of_csv reads from the record's CSV line", "[sweep][record]") {
  engine::Record r;
  r.add("n", "8").add("a", "0.5").add("law", "u(0,2)").add("empty", "").add("flagtext", "true");
  r.add("x", 0.1).add("negzero", -0.0).add("nan", std::nan("")).add("big", 1e300);
  r.add("reps", 1000000ULL).add("seed", std::numeric_limits<std::uint64_t>::max()).add("neg", -7);
  r.add("odd", (1LL << 53) + 1).add("one", std::vector<double>{2.5}).add("list", std::vector<double>{1, 2});
  r.add("nolist", std::vector<double>{}).add_none("none").add_flag("yes", true).add_flag("no", false);
  r.add("inf", "inf").add("nantext", "nan").add("hex", "0x10").add("quote", "say \"x\", then").add("exp", "1e-5");
  const std::string csv = engine::csv_header(r.names()) + engine::csv_line(r);
  const auto read = engine::records_of_csv(csv);
  REQUIRE(read.size() == 1);
  const engine::Record back = engine::read_back(r);
  REQUIRE(back.names() == read.front().names());
  for (std::size_t i = 0; i < back.fields().size(); ++i) {
    INFO(back.fields()[i].name);
    CHECK(back.fields()[i].value.index() == read.front().fields()[i].value.index());
    CHECK(engine::json_object(engine::Record().append(back).add("end", 0)) ==
          engine::json_object(engine::Record().append(read.front()).add("end", 0)));
  }
  CHECK(std::get<std::uint64_t>(back.fields()[0].value) == 8);  // "8" is the count 8
  // Counts keep their digits: a million replications and the largest seed, not 1e+06 and 2^64.
  CHECK(std::get<std::uint64_t>(back.fields()[9].value) == 1000000);
  CHECK(std::get<std::uint64_t>(back.fields()[10].value) == std::numeric_limits<std::uint64_t>::max());
  CHECK(engine::json_object(back).find("\"reps\":1000000,\"seed\":18446744073709551615,") != std::string::npos);
  CHECK(std::get<std::int64_t>(back.fields()[11].value) == -7);
  CHECK(std::signbit(std::get<double>(back.fields()[6].value)));  // -0 is a number, not a count
  for (const auto format : {engine::Format::json, engine::Format::text})
    CHECK(engine::render(std::vector{back}, format) == engine::render(read, format));
  // An infinite number is refused as the CSV writer refuses it, naming the field.
  CHECK_THROWS_WITH(engine::read_back(engine::Record().add("mean", HUGE_VAL)), Catch::StartsWith("mean"));
}

TEST_CASE("a sweep's JSON and text, rendered from its records, are its CSV read back", "[sweep][record]") {
  // Numeric and text columns, quantile rows (whose method reads as a number), differences and
  // ratios, slowdowns, a target (target_met flags) and a seed a double does not hold.
  for (const std::vector<std::string>& grid : {
           std::vector<std::string>{"-s", "sync,nn", "--n", "3", "--m", "0,1", "--a", "2/3", "--law", "uniform,u(0,2)",
                                    "--comm", "0,0.05", "--levels", "4", "--reps", "60", "--compare-to", "m=0",
                                    "--estimators", "quantile,sd", "--seed", "18446744073709551615"},
           std::vector<std::string>{"-s", "async,ms", "--n", "3", "--m", "1", "--levels", "3", "--reps", "40",
                                    "--slowdown", "u(1,2)", "--machine-slowdown", "c(3/2)", "--deadline", "5"},
           std::vector<std::string>{"-s", "sync", "--n", "3", "--m", "0,1", "--levels", "3", "--reps", "64",
                                    "--estimator", "auto", "--target-se", "1e-9"}}) {
    const std::string csv = run_sweep(grid);
    for (const char* format : {"json", "text"}) {
      std::vector<std::string> args = grid;
      args.insert(args.end(), {"--format", format});
      CHECK(run_sweep(args) == engine::render(engine::records_of_csv(csv), engine::parse_format(format)));
    }
  }
}

TEST_CASE("csv_field quotes what parse_csv_line would otherwise split or drop", "[sweep]") {
  // fuzz_sweep found the carriage return: an unquoted one is dropped (CRLF line ends).
  for (const std::string field : {"plain", "a,b", "say \"x\"", "two\nlines", "cr\r", "\r\n", ""}) {
    std::vector<std::string> back;
    REQUIRE(parse_csv_line(csv_field(field) + "," + csv_field(field), back));
    REQUIRE(back == std::vector<std::string>{field, field});
  }
}

TEST_CASE("json_string escapes bytes that are not UTF-8 as U+FFFD, and keeps UTF-8 as it is", "[record]") {
  // Issue 38: a --graph path with the byte 0xFF went into the JSON raw, which no parser reads.
  CHECK(json_string("g\xff.dot") == "\"g\\ufffd.dot\"");
  CHECK(json_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  CHECK(json_string("\x80") == "\"\\ufffd\"");              // a continuation byte alone
  CHECK(json_string("\xc3") == "\"\\ufffd\"");              // cut at the end
  CHECK(json_string("\xc3(") == "\"\\ufffd(\"");            // cut before an ASCII byte, which stays
  CHECK(json_string("\xe2\x82") == "\"\\ufffd\"");          // a cut prefix is one U+FFFD
  CHECK(json_string("\xc0\xaf") == "\"\\ufffd\\ufffd\"");    // overlong '/': two bad bytes
  CHECK(json_string("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\""); // a surrogate
  CHECK(json_string("\xf4\x90\x80\x80") == "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // above U+10FFFF
  CHECK(json_string("\xf5") == "\"\\ufffd\"");
  CHECK(json_string("a\"\\\x01") == "\"a\\\"\\\\\\u0001\"");  // as before
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
  SweepCommand resumed;
  resume_from(args, path, cut, resumed);
  CHECK(slurp(path) == whole);
  CHECK(resumed.resumed_configs > 0);
  CHECK(resumed.computed_configs > 0);
  CHECK(resumed.resumed_configs + resumed.computed_configs == 24);

  // The kept rows are read from the file, not simulated again.
  std::string marked = cut;
  marked.replace(value_at, marked.find(',', value_at) - value_at, "12345");
  SweepCommand kept;
  resume_from(args, path, marked, kept);
  const std::string result = slurp(path);
  CHECK(result != whole);
  CHECK(result.find(",12345,") != std::string::npos);

  // A file that is not a sweep CSV is refused and left alone.
  SweepCommand refused;
  CHECK_THROWS_WITH(resume_from(args, path, "a,b,c\n1,2,3\n", refused), Catch::Contains("another header"));
  CHECK(slurp(path) == "a,b,c\n1,2,3\n");
  std::remove(path.c_str());
}

TEST_CASE("every row says what ran: the protocol by its name, the exchange only for nn at C = 0", "[sweep]") {
  // Before: protocol empty where the default ran, and an --exchange on rows where none applies.
  const auto rows = records(run_sweep({"-s", "sync,nn,ms,async", "--n", "4", "--m", "1", "--comm", "0,0.1", "--levels",
                                       "3", "--reps", "10", "--exchange", "plain"}));
  std::vector<std::string> ran;  // structure, comm, protocol, exchange and method of each mc row
  for (const auto& r : rows)
    if (r[11] == "mc") ran.push_back(r[0] + " " + r[7] + " " + r[8] + " " + r[10] + " " + r[12]);
  CHECK(ran == std::vector<std::string>{"sync 0   synchronous", "sync 0.1 initiator-collector-release  initiator-collector-release",
                                        "nn 0  plain neighbor-plain", "nn 0.1 event-available  event-available",
                                        "ms 0   task-pool", "ms 0.1 master-computes  master-computes",
                                        "async 0   asynchronous", "async 0.1   asynchronous"});
}

TEST_CASE("configurations whose rows have the same columns resume in order", "[sweep]") {
  // nn at C > 0 with two exchanges: the same columns, other bounds (their C = 0 runs differ).
  const std::string path = temp_path("same-columns.csv");
  const std::vector<std::string> args = {"-s", "nn", "--n", "4", "--m", "1", "--comm", "0.1", "--levels", "3",
                                         "--reps", "10", "--exchange", "sequential,plain", "--out", path};
  run_sweep(args);
  const std::string whole = slurp(path);
  const auto rows = records(whole);
  REQUIRE(rows.size() == 7);  // header, then lower_bound, upper_bound and mc twice
  CHECK(rows[1][10].empty());
  CHECK(rows[1][14] != rows[4][14]);  // the lower bounds differ
  std::vector<std::string> again = args;
  again.push_back("--resume");
  for (const std::size_t lines : {4, 7}) {  // the first configuration complete, then both
    std::string cut;
    for (std::size_t at = 0, k = 0; k < lines; ++k) at = whole.find('\n', at) + 1, cut = whole.substr(0, at);
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << cut;
    }
    SweepCommand resumed;
    run_sweep(again, &resumed);
    CHECK(slurp(path) == whole);
    CHECK(resumed.resumed_configs == (lines == 4 ? 1u : 2u));
  }
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

TEST_CASE("a TOML config gives the grid, and the command line overrides it", "[sweep]") {
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
  // The mean's estimator and targets are keys too; the command line wins.
  {
    std::ofstream out(path);
    out << "structure = \"nn\"\nn = 4\nm = 1\ncomm = 0.1\nlevels = 20\nreps = 2000\nestimator = \"cv\"\n"
           "target_reps = 10000\n";
  }
  const auto means = [](const std::string& csv) {
    std::string estimators;
    for (const auto& r : records(csv))
      if (r[11] != "lower_bound" && r[11] != "upper_bound" && r[11] != "estimator") estimators += r[11] + "/" + r[18] + " ";
    return estimators;
  };
  const std::string by_file = means(run_sweep({"--config", path}));
  CHECK(by_file.rfind("cv/", 0) == 0);
  CHECK(by_file != "cv/2000 ");  // stopped on the target
  CHECK(by_file == means(run_sweep({"-s", "nn", "--n", "4", "--m", "1", "--comm", "0.1", "--levels", "20", "--reps", "2000",
                                    "--estimator", "cv", "--target-reps", "10000"})));
  CHECK(means(run_sweep({"--config", path, "--estimator", "mc", "--target-reps", "0"})) == "mc/2000 ");
  // se_floor likewise: a coarse floor stops sooner, as the flag does.
  {
    std::ofstream out(path, std::ios::app);
    out << "se_floor = 0.5\n";
  }
  const std::string floored = means(run_sweep({"--config", path}));
  CHECK(floored != by_file);
  CHECK(floored == means(run_sweep({"-s", "nn", "--n", "4", "--m", "1", "--comm", "0.1", "--levels", "20", "--reps", "2000",
                                    "--estimator", "cv", "--target-reps", "10000", "--se-floor", "0.5"})));
  std::remove(path.c_str());
}

// The error `run_sweep --config FILE` gives for a file of this text (empty: none).
std::string config_error(const std::string& text) {
  const std::string path = temp_path("error.toml");
  {
    std::ofstream out(path);
    out << text;
  }
  std::string message;
  try {
    run_sweep({"--config", path, "--levels", "2", "--reps", "5"});
  } catch (const InputError& e) {
    message = e.what();
    const auto at = message.find(path);  // the path is the test's, the rest is the message
    if (at == 0) message.replace(0, path.size(), "FILE");
  }
  std::remove(path.c_str());
  return message;
}

TEST_CASE("a TOML key given twice is an error naming the file, the line and the key", "[sweep]") {
  // Both values ran before: a key given twice read as a list of both.
  CHECK(config_error("structure = \"sync\"\nn = 8\nn = 16\n") == "FILE:3: key 'n': given twice (first on line 2)");
  CHECK(config_error("structure = \"sync\"\nn = 8\n[sweep]\nn = 16\n") ==
        "FILE:4: key 'n': given twice (first on line 2)");
  CHECK(config_error("n = [2,\n  3]\nstructure = \"sync\"\nfast_law = \"u(0,1)\"\nfast-law = \"u(0,2)\"\n") ==
        "FILE:5: key 'fast-law': given twice (first on line 4)");
  CHECK(config_error("structure = \"sync\"\nn = 2\nreps = 5\nreps = 6\n") ==
        "FILE:4: key 'reps': given twice (first on line 3)");
  // Keys are found by the scan whatever the spacing, in quotes too.
  CHECK(config_error("structure = \"sync\"\n  \"n\"=2\nn\t =  3\n") == "FILE:3: key 'n': given twice (first on line 2)");
}

TEST_CASE("a TOML value's error names the file, the line and the key, not the flag", "[sweep]") {
  CHECK(config_error("structure = \"sync\"\n# n below\nn = \"5:1\"\n") ==
        "FILE:3: key 'n': range '5:1' is inverted (start > stop)");
  CHECK(config_error("structure = \"sync\"\nn = 2\n\ncomm = [\"0\",\n  \"0:1:0\"]\n") ==
        "FILE:4: key 'comm': range '0:1:0' has a step of 0");
  CHECK(config_error("structure = \"sync\"\nn = 2\nseed = \"-1\"\n").rfind("FILE:3: key 'seed': ", 0) == 0);
  CHECK(config_error("structure = \"sync\"\nn = 2\ncompare_to = \"x=1\"\n") ==
        "FILE:3: key 'compare_to': 'x=1' is not OPTION=VALUE with a model option (for example m=0, "
        "protocol=coordinator, n=n-m,m=0)");
  CHECK(config_error("structure = \"sync\"\nn = 2\nwidth = 3\n") ==
        "FILE:3: unknown key 'width' (keys: structure, graph, port, law, fast_law, n, m, a, levels, comm, protocol, "
        "policy, exchange, compare_to, reps, seed, max_configs, estimators, quantiles, deadline, task_law, task_cv, "
        "mapping, bandwidth, scales, cores, schedule, sd_weight, estimator, target_se, "
        "target_rel, target_reps, se_floor, slowdown, machine_slowdown)");
  CHECK(config_error("structure = \"sync\"\nn = 2\nestimator = \"bogus\"\n").rfind("FILE:3: key 'estimator': unknown estimator 'bogus'", 0) == 0);
  CHECK(config_error("structure = \"sync\"\nn = 2\ntarget_se = -1\n").rfind("FILE:3: key 'target_se': ", 0) == 0);
  CHECK(config_error("structure = \"sync\"\nn = 2\ntarget-reps = 100\ntarget_reps = 200\n") ==
        "FILE:4: key 'target_reps': given twice (first on line 3)");
  CHECK(config_error("structure = \"sync\"\nn = 2\nquantiles = [\"0.5\", \"2\"]\n").rfind("FILE:3: key 'quantiles': levels are strictly between 0 and 1", 0) == 0);
  CHECK(config_error("structure = \"sync\"\nn = 2\nestimators = \"median\"\n").rfind("FILE:3: key 'estimators': unknown estimator 'median'", 0) == 0);
  CHECK(config_error("structure = \"sync\"\nn = 2\n").empty());
}

TEST_CASE("TOML keys graph and port sweep graphs as --graph and --port do, and the command line wins", "[sweep]") {
  const std::string diamond = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  const std::string path = temp_path("graphs.toml");
  {
    std::ofstream out(path);
    out << "graph = [\"" << diamond << "\"]\nport = [\"free\", \"one-port\"]\nm = [0, 1]\ncomm = 0.5\nreps = 50\n";
  }
  const std::vector<std::string> flags = {"--graph", diamond, "--port", "free,one-port", "--m", "0,1", "--comm", "0.5",
                                          "--reps", "50"};
  const std::string by_flags = run_sweep(flags);
  CHECK(records(by_flags).size() == 1 + 2 * 2);  // the header, then one mean row per (m, port)
  CHECK(run_sweep({"--config", path}) == by_flags);
  // The command line wins, key by key.
  const std::string one_port = run_sweep({"--graph", diamond, "--port", "one-port", "--m", "0,1", "--comm", "0.5", "--reps", "50"});
  CHECK(run_sweep({"--config", path, "--port", "one-port"}) == one_port);
  const std::string chain = std::string(HETSTRUCT_TEST_DATA) + "/../cli/data/graphs/chain.dot";
  CHECK(run_sweep({"--config", path, "--graph", chain}) ==
        run_sweep({"--graph", chain, "--port", "free,one-port", "--m", "0,1", "--comm", "0.5", "--reps", "50"}));
  // A pattern, and a path relative to the current directory (not to the file's folder), as on the command line.
  const auto relative = std::filesystem::relative(std::filesystem::path(HETSTRUCT_TEST_DATA) / "diam*.dot").string();
  REQUIRE(std::filesystem::path(relative).is_relative());
  {
    std::ofstream out(path);
    out << "[sweep]\ngraph = \"" << relative << "\"\nport = \"free,one-port\"\nm = \"0:1\"\ncomm = 0.5\nreps = 50\n";
  }
  const std::string by_pattern = run_sweep({"--config", path});
  CHECK(by_pattern == run_sweep({"--graph", relative, "--port", "free,one-port", "--m", "0:1", "--comm", "0.5", "--reps", "50"}));
  CHECK(records(by_pattern).size() == 1 + 2 * 2);
  std::remove(path.c_str());
}

TEST_CASE("a sweep's graph settings are simulate's: the task law, its cv and the scales act on every graph", "[sweep]") {
  const std::string stg = std::string(HETSTRUCT_TEST_DATA) + "/sample.stg";
  const std::string csv = run_sweep({"--graph", stg, "--comm", "0,0.1", "--task-law", "uniform", "--task-cv", "0.2",
                                     "--reps", "200", "--seed", "5", "--compare-to", "comm=0"});
  // The mean rows are the runs of the models simulate builds with the same options, bit for bit.
  engine::RunOptions options;
  options.reps = 200;
  options.seed = 5;
  options.threads = 1;
  const auto mean_of = [&](const char* comm) {
    engine::Model m;
    m.graph = stg;
    m.comm = engine::parse_comm_cost(comm);
    m.task_graph.law = {structures::TaskLawShape::uniform, 0.2};
    return engine::run(engine::compile(m.build(), m.compile_options()), options).mean;
  };
  std::vector<double> means;
  for (const auto& r : records(csv))
    if (r[11] == "mc") means.push_back(std::stod(r[14]));
  REQUIRE(means.size() == 2);
  CHECK(means[0] == mean_of("0"));
  CHECK(means[1] == mean_of("0.1"));
  CHECK(means[0] != means[1]);
  // The difference row's base (comm=0) has the settings too, so the pair draws the same task times
  // and differs by the two messages on every replication's critical path: 0.2 with no spread. A
  // base with the default settings (constant times) would differ by a random amount.
  int differences = 0;
  for (const auto& r : records(csv))
    if (r[11] == "difference" && r[7] == "0.1") {
      ++differences;
      CHECK(std::stod(r[14]) == Approx(0.2).margin(1e-12));
      CHECK(std::stod(r[15]) < 1e-12);
    }
  CHECK(differences == 1);
  // By TOML keys, the same bytes.
  const std::string path = temp_path("settings.toml");
  {
    std::ofstream out(path);
    out << "graph = \"" << stg << "\"\ncomm = \"0,0.1\"\ntask_law = \"uniform\"\ntask_cv = 0.2\nreps = 200\nseed = 5\n"
        << "compare_to = \"comm=0\"\n";
  }
  CHECK(run_sweep({"--config", path}) == csv);
  std::remove(path.c_str());
  CHECK(config_error("graph = \"" + stg + "\"\ntask_law = \"gamma\"\n").rfind("FILE:2: key 'task_law': ", 0) == 0);
  // The scales replace the file's speeds: processor 1 of the diamond twice as slow.
  const std::string diamond = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  const auto scaled = records(run_sweep({"--graph", diamond, "--scales", "1,2", "--reps", "200", "--seed", "5"}));
  const auto plain = records(run_sweep({"--graph", diamond, "--reps", "200", "--seed", "5"}));
  REQUIRE(scaled.size() == 2);
  // On the same draws every replication is at least 2 longer: d's c(2) becomes 4 and c only grows.
  CHECK(std::stod(scaled[1][14]) >= std::stod(plain[1][14]) + 2.0 - 1e-9);
  // Without a graph they would do nothing.
  CHECK_THROWS_WITH(run_sweep({"-s", "sync", "--n", "4", "--task-cv", "0.1", "--reps", "10"}),
                    "--task-cv: applies to a graph only (give --graph FILE.dot)");
}

TEST_CASE("a bad TOML graph or port names the file, the line and the key", "[sweep]") {
  const std::string graph = "graph = \"" + std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot\"\n";
  CHECK(config_error(graph + "port = [\"free\", \"two-port\"]\n") ==
        "FILE:2: key 'port': unknown port model 'two-port' (choose free, one-port, one-port-overlap, "
        "one-port-greedy or one-port-greedy-overlap)");
  CHECK(config_error(graph + "m = 0\nport = \"free,free\"\n") == "FILE:3: key 'port': the value free appears twice");
  CHECK(config_error("structure = \"sync\"\ngraph = \"/nonexistent/*.dot\"\n") ==
        "FILE:2: key 'graph': no file matches '/nonexistent/*.dot'");
  CHECK(config_error(graph + "port = \"free\"\n\n[sweep]\nport = \"one-port\"\n") ==
        "FILE:5: key 'port': given twice (first on line 2)");
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

// ---- MPI pieces: block ranges and their fold (issue 5) -----------------------------------------

namespace {

bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

bool same_bits(const engine::Estimate& x, const engine::Estimate& y) {
  return x.reps == y.reps && same_bits(x.mean, y.mean) && same_bits(x.stddev, y.stddev) &&
         same_bits(x.stderr_, y.stderr_) && same_bits(x.ci_low, y.ci_low) && same_bits(x.ci_high, y.ci_high) &&
         same_bits(x.min, y.min) && same_bits(x.max, y.max);
}

engine::Plan compile(const engine::Model& m) { return engine::compile(m.build(), m.compile_options()); }

using Split = std::vector<engine::BlockRange>;

// The estimate of a run computed as the pieces of `split`, each on its own, folded in order; a
// piece from block 0 travels folded when `fold_prefix` (what a rank sends), as blocks otherwise.
template <class Compute>
engine::Estimate folded(const Split& split, bool fold_prefix, Compute compute) {
  engine::Accumulator total;
  for (const auto& range : split) {
    std::vector<engine::Accumulator> blocks;
    compute(range, [&](std::span<const engine::Accumulator> wave) { blocks.insert(blocks.end(), wave.begin(), wave.end()); });
    REQUIRE(blocks.size() == range.last - range.first);
    if (fold_prefix && range.first == 0) {
      engine::Accumulator prefix;
      engine::fold_blocks(prefix, std::span<const engine::Accumulator>(blocks));
      blocks = {prefix};
    }
    engine::fold_blocks(total, std::span<const engine::Accumulator>(blocks));
  }
  return engine::summarize(total);
}

std::vector<Split> splits_of(std::uint64_t blocks) {
  std::vector<Split> splits = {{{0, blocks}}, {{0, 5}, {5, blocks}}, {{0, 1}, {1, 2}, {2, 9}, {9, blocks}},
                               {{0, 0}, {0, 3}, {3, 3}, {3, blocks - 1}, {blocks - 1, blocks}}};
  Split singles;
  for (std::uint64_t b = 0; b < blocks; ++b) singles.push_back({b, b + 1});
  splits.push_back(singles);
  return splits;
}

}  // namespace

TEST_CASE("block ranges folded in order over any split give run() and run_difference() bit for bit", "[sweep][mpi]") {
  engine::RunOptions options;
  options.seed = 17;
  options.reps = 13 * engine::block_size + 5;  // 14 blocks, the last one short
  options.threads = 2;
  const std::uint64_t blocks = engine::block_count(options.reps);
  REQUIRE(blocks == 14);
  const engine::Plan sync = compile(engine::Model::wilson(structures::StructureKind::synchronous, 6, 2, "1/2", "uniform", 20));
  const engine::Plan base = compile(engine::Model::wilson(structures::StructureKind::synchronous, 4, 0, "1/2", "uniform", 20));
  const engine::Plan nn = compile(engine::Model::wilson(structures::StructureKind::nearest_neighbor, 5, 2, "4/5", "normal", 10, 0.1));  // a protocol plan
  const engine::Estimate whole = engine::run(sync, options), whole_nn = engine::run(nn, options);
  const engine::Estimate whole_difference = engine::run_difference(sync, base, options);
  for (const Split& split : splits_of(blocks)) {
    for (const bool fold_prefix : {false, true}) {
      INFO(split.size() << " pieces, prefix folded: " << fold_prefix);
      CHECK(same_bits(whole, folded(split, fold_prefix, [&](engine::BlockRange r, const engine::BlockSink& sink) {
                        engine::run_blocks(sync, options, r, sink);
                      })));
      CHECK(same_bits(whole_nn, folded(split, fold_prefix, [&](engine::BlockRange r, const engine::BlockSink& sink) {
                        engine::run_blocks(nn, options, r, sink);
                      })));
      CHECK(same_bits(whole_difference, folded(split, fold_prefix, [&](engine::BlockRange r, const engine::BlockSink& sink) {
                        engine::run_difference_blocks(sync, base, options, r, sink);
                      })));
    }
  }
  // A block's statistics do not depend on the range it is computed in.
  std::vector<engine::Accumulator> all, one;
  engine::run_blocks(sync, options, {0, blocks}, [&](std::span<const engine::Accumulator> w) { all.assign(w.begin(), w.end()); });
  engine::run_blocks(sync, options, {7, 8}, [&](std::span<const engine::Accumulator> w) { one.assign(w.begin(), w.end()); });
  REQUIRE(one.size() == 1);
  CHECK(std::memcmp(&one[0], &all[7], sizeof one[0]) == 0);
  CHECK(all.back().count == 5);
  auto ignore = [](std::span<const engine::Accumulator>) {};
  CHECK_THROWS_AS(engine::run_blocks(sync, options, {3, blocks + 1}, ignore), std::out_of_range);
  CHECK_THROWS_AS(engine::run_blocks(sync, options, {4, 3}, ignore), std::out_of_range);
}

TEST_CASE("a run of more than one wave of blocks folds piece by piece to run()", "[sweep][mpi]") {
  engine::RunOptions options;
  options.seed = 5;
  options.reps = 1100 * engine::block_size;  // two waves of 1024 blocks in run()
  options.threads = 2;
  const engine::Plan plan = compile(engine::Model::wilson(structures::StructureKind::asynchronous, 2, 1, "1/2", "uniform", 2));
  const engine::Estimate whole = engine::run(plan, options);
  for (const Split& split : std::vector<Split>{{{0, 700}, {700, 1100}}, {{0, 1024}, {1024, 1100}}, {{0, 1}, {1, 1100}}})
    for (const bool fold_prefix : {false, true})
      CHECK(same_bits(whole, folded(split, fold_prefix, [&](engine::BlockRange r, const engine::BlockSink& sink) {
                        engine::run_blocks(plan, options, r, sink);
                      })));
}

TEST_CASE("a comparison target that cannot be built fails the sweep, or --skip-invalid leaves out its row", "[sweep]") {
  const std::vector<std::string> grid = {"-s", "sync", "--n", "8", "--m", "0,8", "--levels", "2", "--reps", "10",
                                         "--compare-to", "n=n-m,m=0"};
  CHECK_THROWS_WITH(run_sweep(grid), Catch::Contains("n=8 m=8") && Catch::Contains("--compare-to n=n-m,m=0: --n:") &&
                                         Catch::Contains("or --skip-invalid"));
  std::vector<std::string> skip = grid;
  skip.push_back("--skip-invalid");
  std::size_t differences = 0, mc = 0;
  for (const auto& r : records(run_sweep(skip))) {
    if (r[11] == "mc") ++mc;
    if (r[11] != "difference") continue;
    ++differences;
    CHECK(r[4] == "0");  // (8,0) against (8,0): the same configuration, a difference of exactly 0
    CHECK(r[13] == "n=n-m,m=0");
    CHECK(r[14] == "0");
    CHECK(r[15] == "0");
  }
  CHECK(mc == 2);  // (8,8) keeps its own rows
  CHECK(differences == 1);
}

TEST_CASE("the paired standard error of (n,m) - (n-m,0) is smaller than the unpaired one", "[sweep]") {
  const auto rows = records(run_sweep({"-s", "sync", "--n", "5,8", "--m", "0,3", "--levels", "20", "--reps", "2000",
                                       "--seed", "3", "--compare-to", "n=n-m,m=0"}));
  double mean83 = NAN, se83 = NAN, mean50 = NAN, se50 = NAN, diff = NAN, diff_se = NAN;
  for (const auto& r : rows) {
    const std::string nm = r[3] + "," + r[4];
    if (r[11] == "mc" && nm == "8,3") mean83 = std::stod(r[14]), se83 = std::stod(r[15]);
    if (r[11] == "mc" && nm == "5,0") mean50 = std::stod(r[14]), se50 = std::stod(r[15]);
    if (r[11] == "difference" && nm == "8,3") {
      CHECK(r[13] == "n=n-m,m=0");
      CHECK(r[18] == "2000");
      diff = std::stod(r[14]), diff_se = std::stod(r[15]);
    }
  }
  INFO("paired " << diff_se << ", unpaired " << std::hypot(se83, se50));
  CHECK(diff == Approx(mean83 - mean50).epsilon(1e-9));
  CHECK(diff_se < 0.95 * std::hypot(se83, se50));
}

TEST_CASE("sweep --estimator and a target: each mean row names its estimator, and resumes", "[sweep][estimators]") {
  const std::string path = temp_path("estimator.csv");
  std::vector<std::string> args = {"-s", "nn,ms", "--n", "4", "--m", "1", "--comm", "0.05,0.1", "--levels", "20",
                                   "--reps", "2000", "--seed", "3", "--estimator", "auto", "--target-reps", "10000",
                                   "--threads", "2", "--out", path};
  SweepCommand first;
  run_sweep(args, &first);
  const std::string whole = slurp(path);
  const auto rows = records(whole);
  REQUIRE(rows.size() > 4);
  std::size_t means = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r[11] == "lower_bound" || r[11] == "upper_bound") {
      CHECK(r[20].empty());  // no variance factor but the mean's
      continue;
    }
    ++means;
    INFO(r[0] << " C = " << r[7]);
    CHECK((r[11] == "cv" || r[11] == "antithetic-cv"));
    CHECK(std::stod(r[20]) > 1.5);  // measured on the run: 2.5-20 here
    CHECK(std::stoull(r[18]) < (r[11] == "cv" ? 2000u : 4000u));  // stopped before the cap
  }
  CHECK(means == 4);
  // Resuming from a cut file gives the same bytes; a plain (mc) resume simulates everything again.
  SweepCommand resumed;
  resume_from(args, path, whole.substr(0, whole.size() * 2 / 3), resumed);
  CHECK(slurp(path) == whole);
  CHECK(resumed.resumed_configs > 0);
  std::vector<std::string> plain(args.begin(), args.end() - 6);
  plain.insert(plain.end(), {"--out", path});
  SweepCommand mc;
  resume_from(plain, path, whole, mc);
  CHECK(mc.resumed_configs == 0);
  std::remove(path.c_str());

  CHECK_THROWS_WITH(run_sweep({"-s", "sync", "--n", "4", "--estimator", "exact"}), Catch::Contains("closed_form row"));
  CHECK_THROWS_WITH(run_sweep({"-s", "sync", "--n", "4", "--estimator", "cv", "--estimators", "sd"}),
                    Catch::Contains("estimator: the distribution's rows"));
  CHECK_THROWS_WITH(run_sweep({"-s", "sync", "--n", "4", "--target-se", "0.1", "--estimators", "sd"}),
                    Catch::Contains("target_se: the distribution's rows"));
}

// On a terminal the progress line is cleared before the result prints: finish() erases it, and a
// later update draws it again (before, the result's first line began after "ETA 0 s").
TEST_CASE("the progress line is cleared before the result", "[progress]") {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* stream = open_memstream(&buffer, &size);
  REQUIRE(stream);
  {
    Progress progress("simulate x", stream);
    progress.update(10, 10);
    progress.finish();
    std::fflush(stream);
    const std::string text(buffer, size);
    CHECK(text.find("simulate x: 100.0% (10/10)") != std::string::npos);
    CHECK(text.size() >= 4);
    CHECK(text.substr(text.size() - 4) == "\r\033[K");
    progress.finish();  // nothing more to clear
    std::fflush(stream);
    CHECK(size == text.size());
  }
  std::fclose(stream);
  std::free(buffer);
}

// A sweep's JSON (its CSV read back) has target_met as true or false, as simulate's JSON has, not
// the strings "true" and "false".
TEST_CASE("a sweep's JSON has target_met as a flag", "[sweep]") {
  const std::string json = run_sweep({"-s", "sync", "--n", "4", "--levels", "10", "--reps", "100", "--estimator", "mc",
                                      "--target-se", "1", "--format", "json", "--quiet"});
  CHECK(json.find("\"target_met\":true") != std::string::npos);
  CHECK(json.find("\"target_met\":\"true\"") == std::string::npos);
}

}  // namespace sweep_test
