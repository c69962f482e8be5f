// The sweep's library (engine/sweep/grid.h, engine/sweep/sweep.h) without the command line: lists and
// ranges, expressions and comparisons, the deal of blocks to workers, the rows as records.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "distributions/input_error.h"
#include "distributions/law.h"
#include "engine/simulate/simulation.h"
#include "engine/sweep/sweep.h"
#include "engine/wilson/figures.h"
#include "structures/custom.h"
#include "support.h"

namespace sweep_engine_test {

using namespace hetstruct;
using namespace hetstruct::engine;

TEST_CASE("ranges expand to start + k*step with the end included", "[sweep]") {
  const auto c = expand_numbers("comm_cost", "0:0.25:0.025", 1000);
  REQUIRE(c.size() == 11);
  const auto figure = engine::figure_comm_values();
  for (int k = 1; k <= 10; ++k) CHECK(c[k] == figure[k - 1]);  // the nearest double to k/40
  CHECK(c.back() == 0.25);
  const auto tenth = expand_numbers("comm_cost", "0:0.3:0.1", 1000);
  REQUIRE(tenth.size() == 4);
  CHECK(tenth[3] == 0.3);  // not 0.30000000000000004
  CHECK(tenth[2] == 0.2);
  // Fractions: start + k*step, the end within a relative 1e-9.
  const auto thirds = expand_numbers("scale", "1/3:1:1/3", 1000);
  REQUIRE(thirds.size() == 3);
  CHECK(thirds.back() == 1.0);
  const auto fallback = expand_numbers("comm_cost", "0:3/10:1/10", 1000);
  REQUIRE(fallback.size() == 4);
  CHECK(fallback.back() == 0.3);
  CHECK(expand_numbers("scale", "1/2", 10) == std::vector<double>{0.5});
  CHECK(expand_numbers("scale", "0.5:0.5:0.1", 10) == std::vector<double>{0.5});
  CHECK(expand_numbers("comm_cost", "0:1", 10) == std::vector<double>{0, 1});
  CHECK(expand_numbers("comm_cost", "0,0.05:0.1:0.05,1", 10) == std::vector<double>{0, 0.05, 0.1, 1});

  CHECK(expand_integers("width", "2:16:2", 100) == std::vector<long long>{2, 4, 6, 8, 10, 12, 14, 16});
  CHECK(expand_integers("width", "2:7:2", 100) == std::vector<long long>{2, 4, 6});
  CHECK(expand_integers("width", "3,4,5,8,16", 100) == std::vector<long long>{3, 4, 5, 8, 16});
  CHECK(expand_integers("width", "8", 100) == std::vector<long long>{8});
  CHECK(expand_integers("width", "8:8", 100) == std::vector<long long>{8});

  CHECK(split_list("law", "uniform, u(0,2),mix(0.5:u(0,1),0.5:c(1))") ==
        std::vector<std::string>{"uniform", "u(0,2)", "mix(0.5:u(0,1),0.5:c(1))"});
}

// The list splitter reads an emp() path as the law parser does: a quoted path may hold ',' and
// ')', a bare one runs to the first ')' (a '(' in it opens nothing). Each item is then one law.
TEST_CASE("a list of laws splits where the law parser ends each law", "[sweep][law]") {
  testing::TempDir dir;
  // Inside mix(, two ')' close the mixture for a splitter that counts parentheses only.
  const std::string path = (dir.path / "run)), (2.txt").string();
  std::ofstream(path) << "1\n2\n4\n";  // mean 7/3
  const std::string quoted = "\"" + path + "\"";
  const std::string mixture = "mix(0.5:emp(" + quoted + "),0.5:u(0,1))";
  const std::string escaped = R"x(emp("a\")b,c"))x";  // the path a")b,c
  CHECK(split_list("law", "u(0,1), " + mixture + " ,emp(a(b.txt),emp(x,y.txt)," + escaped) ==
        std::vector<std::string>{"u(0,1)", mixture, "emp(a(b.txt)", "emp(x,y.txt)", escaped});
  CHECK(split_list("law", "emp (  \"),\" ),c(1)") == std::vector<std::string>{"emp (  \"),\" )", "c(1)"});
  // An unterminated quote runs to the end: one item, which the law parser refuses.
  CHECK(split_list("law", "emp(\"a,b),c(1)") == std::vector<std::string>{"emp(\"a,b),c(1)"});
  // The mixture's item is the law: its mean is 1/2 * 7/3 + 1/2 * 1/2 = 17/12.
  const auto law = distributions::parse_law(split_list("law", "c(1)," + mixture)[1]);
  CHECK(law.mean() == Approx(17.0 / 12.0).epsilon(1e-15));
  // The sweep's law dimension keeps it whole.
  CHECK(dimension_values(SweepDim::law, {"uniform," + mixture}, 10) == std::vector<std::string>{"uniform", mixture});
}

TEST_CASE("bad ranges are errors", "[sweep]") {
  auto fails = [](const std::string& text, const std::string& what) {
    try {
      expand_numbers("comm_cost", text, 1000);
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
  CHECK_THROWS_AS(expand_integers("width", "5:1", 100), InputError);
  CHECK_THROWS_AS(expand_integers("width", "1:5:0", 100), InputError);
  CHECK_THROWS_AS(expand_integers("width", "1.5", 100), InputError);
  CHECK_THROWS_AS(expand_integers("width", "1:1000", 100), InputError);
  CHECK_THROWS_AS(split_list("law", " "), InputError);
}

TEST_CASE("deal_blocks cuts the runs laid end to end into stretches of equal work", "[sweep][mpi]") {
  auto check_deal = [](const std::vector<std::pair<std::uint64_t, double>>& runs, int ranks) {
    INFO(runs.size() << " runs on " << ranks << " ranks");
    const auto pieces = deal_blocks(runs, ranks);
    REQUIRE(pieces.size() == static_cast<std::size_t>(ranks));
    // Laid end to end, the pieces of ranks 0, 1, ... cover every block once, in order.
    std::uint64_t run = 0, next = 0;
    double total = 0, heaviest = 0;
    for (const auto& [b, w] : runs) total += static_cast<double>(b) * w, heaviest = std::max(heaviest, w);
    for (const auto& mine : pieces) {
      double work = 0;
      for (std::size_t i = 0; i < mine.size(); ++i) {
        const auto& p = mine[i];
        while (run < runs.size() && next == runs[run].first) ++run, next = 0;
        REQUIRE(p.run == run);
        REQUIRE(p.first == next);
        REQUIRE(p.last > p.first);
        REQUIRE(p.last <= runs[run].first);
        if (i > 0) CHECK(p.first == 0);  // only a rank's first piece starts inside a run
        next = p.last;
        work += static_cast<double>(p.last - p.first) * runs[p.run].second;
      }
      CHECK(work <= total / ranks + heaviest + 1e-9 * total);
    }
    while (run < runs.size() && next == runs[run].first) ++run, next = 0;
    CHECK(run == runs.size());
  };
  check_deal({{313, 8000.0}}, 1);
  check_deal({{313, 8000.0}}, 2);
  check_deal({{313, 8000.0}}, 3);
  check_deal({{157, 160.0}, {157, 320.0}, {157, 160.0}}, 3);
  check_deal({{1, 10.0}}, 4);  // more ranks than blocks: some ranks have nothing
  std::vector<std::pair<std::uint64_t, double>> many;
  for (int i = 0; i < 40; ++i) many.emplace_back(5, 10.0 + i % 7);
  check_deal(many, 3);
  check_deal(many, 7);
  // One process: every run whole.
  const auto one = deal_blocks(many, 1);
  REQUIRE(one[0].size() == many.size());
  for (const auto& p : one[0]) CHECK((p.first == 0 && p.last == 5));
  // Two ranks share one big run evenly.
  const auto two = deal_blocks({{313, 1.0}}, 2);
  REQUIRE(two[0].size() == 1);
  REQUIRE(two[1].size() == 1);
  CHECK(two[0][0].last == 157);
  CHECK(two[1][0].first == 157);
}

// ---- --compare-to with several options and expressions (issue 5) -------------------------------

TEST_CASE("numeric expressions over a configuration's columns", "[sweep]") {
  const SweepConfig c = SweepConfig{.structure = "sync", .law = "uniform", .n = 8, .m = 3, .a = {0.5, "0.5"}, .levels = 1000,
                                  .comm = {0.05, "0.05"}, .exchange = structures::NeighborExchange::sequential};
  auto value = [&](const std::string& text) { return NumericExpression("--compare-to", text).evaluate(c); };
  CHECK(value("n-m") == 5);
  CHECK(value("2+3*4") == 14);
  CHECK(value("(2+3)*4") == 20);
  CHECK(value("8/2/2") == 2);  // left to right
  CHECK(value("2-3-4") == -5);
  CHECK(value("--n") == 8);
  CHECK(value(" -(n - 2*m) / 4 + 1e-1 ") == -0.5 + 1e-1);
  CHECK(value("1/3") == 1.0 / 3.0);
  CHECK(value("a*levels + comm") == 0.5 * 1000 + 0.05);
  CHECK(value(".5") == 0.5);
  CHECK(NumericExpression("--compare-to", "1/2").constant());
  CHECK_FALSE(NumericExpression("--compare-to", "n/2").constant());
  CHECK(NumericExpression("--compare-to", " n - m ").text() == "n-m");
  auto fails = [](const std::string& text, const std::string& what) {
    try {
      NumericExpression("--compare-to", text);
      FAIL("'" << text << "' parsed");
    } catch (const InputError& e) {
      CHECK(e.where() == "--compare-to");
      CHECK_THAT(e.what(), Catch::Contains(what));
    }
  };
  fails("n-", "expected a number, a column or '(' at the end");
  fails("x+1", "unknown column 'x' at position 0");
  fails("law", "unknown column 'law'");
  fails("(n", "expected ')'");
  fails("2n", "unexpected 'n' at position 1");
  fails("n m", "unexpected 'm'");
  fails("", "expected a number");
  fails("1e400", "out of range");
  fails("1:3", "unexpected ':'");
  fails(std::string(200, '(') + "1" + std::string(200, ')'), "nested more than 100 deep");
  fails(std::string(200, '-') + "1", "nested more than 100 deep");
}

TEST_CASE("a comparison sets several options at once, each from the configuration's own columns", "[sweep]") {
  const SweepConfig c = SweepConfig{.structure = "sync", .law = "uniform", .n = 8, .m = 3, .a = {0.5, "0.5"}, .levels = 1000,
                                  .comm = {0.05, "0.05"}, .exchange = structures::NeighborExchange::sequential};
  const Comparison both("n=n-m,m=0");
  CHECK(both.label() == "n=n-m,m=0");
  SweepConfig expected = c;
  expected.n = 5;
  expected.m = 0;  // n - m uses the configuration's m, not the assigned 0
  CHECK(both.target(c) == expected);
  CHECK(Comparison("m=0,n=n-m").target(c) == expected);
  CHECK(Comparison(" m = 0 ").label() == "m=0");
  CHECK(Comparison("a=1/2").label() == "a=0.5");  // a constant: its canonical value, as in the grid
  CHECK(Comparison("comm=1/40").target(c).comm == SweepNumber{0.025, "0.025"});
  const Comparison scaled("comm=comm/2, a=(a+1)/2");
  CHECK(scaled.label() == "comm=comm/2,a=(a+1)/2");
  CHECK(scaled.target(c).comm == SweepNumber{0.025, "0.025"});
  CHECK(scaled.target(c).a == SweepNumber{0.75, "0.75"});
  CHECK(Comparison("levels=levels*2-n").target(c).levels == 1992);
  const Comparison law("law=u(0,2),m=0");
  CHECK(law.label() == "law=u(0,2),m=0");
  CHECK(law.target(c).law == "u(0,2)");
  CHECK(law.target(c).m == 0);
  CHECK(Comparison("fast-law=normal").label() == "fast_law=normal");
  CHECK(Comparison("protocol=default").target(c).protocol.empty());
  // Values that an expression gives no configuration for.
  CHECK_THROWS_WITH(Comparison("m=m/2").target(c), Catch::Contains("m/2 = 1.5 is not a whole number"));
  CHECK_THROWS_WITH(Comparison("n=n/(m-m)").target(c), Catch::Contains("not a finite number"));
  CHECK_THROWS_WITH(Comparison("n=n*1e10").target(c), Catch::Contains("out of range"));
  // Bad comparisons.
  CHECK_THROWS_WITH(Comparison("x=1"), Catch::Contains("'x=1' is not OPTION=VALUE"));
  CHECK_THROWS_WITH(Comparison("n=n-m,m"), Catch::Contains("'m' is not OPTION=VALUE"));
  CHECK_THROWS_WITH(Comparison("n=1,n=2"), Catch::Contains("sets n twice"));
  CHECK_THROWS_WITH(Comparison("m=1.5"), Catch::Contains("m = 1.5 is not a whole number"));
  CHECK_THROWS_WITH(Comparison("a=1/0"), Catch::Contains("not a finite number"));
  CHECK_THROWS_WITH(Comparison("n=n-"), Catch::Contains("expression 'n-'"));
  CHECK_THROWS_WITH(Comparison("law=uniform,normal"), Catch::Contains("'normal' is not OPTION=VALUE"));
  CHECK_THROWS_AS(Comparison(""), InputError);
  CHECK_THROWS_AS(Comparison("n=n-m,,m=0"), InputError);
}

TEST_CASE("range edge cases found by fuzz_sweep", "[sweep]") {
  // -0 is 0: one value.
  CHECK_THROWS_WITH(expand_numbers("comm_cost", "0,-0", 100), Catch::Contains("appears twice"));
  // A range shorter than the end allowance keeps its start.
  CHECK(expand_numbers("comm_cost", "0:1e-10", 100) == std::vector<double>{0.0});
  CHECK(expand_numbers("scale", "0.5:0.5000000001", 100) == std::vector<double>{0.5});
  // The last value never passes the stop.
  const auto v = expand_numbers("x", "-100:-1e-8:1/1", 1000);
  CHECK(v.back() <= -1e-8);
  // stop - start beyond LLONG_MAX: counted without overflow (UBSan checks the arithmetic).
  CHECK(expand_integers("width", "-1:9223372036854775807:9223372036854775807", 10) ==
        std::vector<long long>{-1, 9223372036854775806LL});
}

namespace {

// A sweep through the library alone: every run dealt to one worker, computed, folded.
struct LibrarySweep {
  std::vector<Comparison> comparisons;
  SweepEntries valid;
  std::vector<RunSpec> runs;
  std::vector<Estimate> estimates;

  std::vector<RunExtras> extras;

  LibrarySweep(const std::array<std::vector<std::string>, SweepDim::count>& texts, std::vector<Comparison> cmp,
               const RunOptions& options, const std::optional<MeanEstimator>& mean = std::nullopt, int workers = 2)
      : comparisons(std::move(cmp)), valid(build_entries(make_grid(texts, 100), comparisons, true)),
        runs(plan_runs(valid.entries, mean)) {
    std::vector<BlockPiece> pieces;
    for (const auto& share : deal_blocks(run_work(runs, options.reps), workers)) {  // folded together below
      SurrogateMeans surrogates;  // a worker's, shared across C
      for (const auto& piece : share) {
        const Entry& entry = valid.entries[runs[piece.run].entry];
        Job job(entry.c, comparisons.size());
        pieces.push_back(compute_piece(piece, runs[piece.run], entry, job, options, false, &surrogates));
      }
    }
    estimates = fold_pieces(pieces, runs, options.reps, &extras);
  }

  // Every configuration's rows as CSV.
  std::string csv(std::uint64_t seed) const {
    std::string text;
    for (const auto& entry : valid.entries)
      for (const auto& r : config_records(entry, Job(entry.c, comparisons.size()), comparisons, estimates, seed, extras))
        text += csv_line(r);
    return text;
  }
};

}  // namespace

TEST_CASE("the sweep's columns are its records' names", "[sweep]") {
  CHECK(csv_header(sweep_columns()) ==
        "structure,law,fast_law,n,m,a,levels,comm,protocol,policy,exchange,estimator,method,compare_to,value,stderr,"
        "ci_low,ci_high,reps,seed,variance_factor\n");
}

TEST_CASE("build_entries names a configuration that cannot be built, or leaves it out", "[sweep]") {
  const SweepGrid grid = make_grid({{{"sync"}, {}, {}, {"2"}, {"0:3"}, {}, {"5"}, {}, {}, {}, {}}}, 100);
  REQUIRE(grid.size() == 4);
  try {
    build_entries(grid, {}, false);
    FAIL("m = 3 > n = 2 was built");
  } catch (const InvalidConfiguration& e) {
    CHECK(e.configuration() == "structure=sync law=uniform n=2 m=3 a=0.5 levels=5 comm=0 exchange=sequential");
    CHECK(e.comparison().empty());
    CHECK(e.cause().where() == "fast_count");
  }
  const SweepEntries kept = build_entries(grid, {Comparison("n=n-m,m=0")}, true);
  CHECK(kept.invalid == 1);               // m = 3
  CHECK(kept.comparisons_left_out == 1);  // m = 2: n - m = 0
  REQUIRE(kept.entries.size() == 3);
  CHECK(kept.entries[2].c.m == 2);
  CHECK(kept.entries[2].row == 2);
  CHECK_FALSE(kept.entries[2].targets[0].has_value());
  CHECK(kept.entries[1].targets[0] == SweepConfig{.structure = "sync", .law = "uniform", .n = 1, .m = 0, .a = {0.5, "0.5"},
                                                  .levels = 5, .comm = {0.0, "0"},
                                                  .exchange = structures::NeighborExchange::sequential});
}

TEST_CASE("build_entries over Wilson's structures then graphs: one numbering of rows", "[sweep]") {
  // The structures' grid over two laws; the graphs' grid without them (its law is the default, and
  // to_model ignores it): the graph runs once, after the structures.
  const std::string diamond = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  const SweepGrid structures = make_grid({{{"sync"}, {"uniform,normal"}, {}, {"2"}, {}, {}, {"5"}, {}, {}, {}, {}}}, 100);
  const SweepGrid graphs = make_grid({{{diamond}, {}, {}, {}, {"0,1"}, {}, {}, {}, {"free"}, {}, {}}}, 100);
  const SweepEntries both = build_entries(std::vector<SweepGrid>{structures, graphs}, {Comparison("m=0")}, false);
  REQUIRE(both.entries.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) CHECK(both.entries[k].row == k);
  CHECK(both.entries[1].c.law == "normal");
  CHECK(both.entries[2].c.structure == diamond);
  CHECK(both.entries[3].c.m == 1);
  CHECK(both.entries[3].ran.protocol == "free");
  CHECK(both.entries[3].ran.law.empty());
  CHECK_FALSE(both.entries[3].ran.levels.has_value());
}

TEST_CASE("a graph sweep reads each file once per reading options (GraphReads)", "[sweep][graph_reads]") {
  const std::string diamond = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  const std::string fork_join = std::string(HETSTRUCT_TEST_DATA) + "/fork_join.dot";
  // Two graphs, three values of C, two port models: 12 configurations, validated and run.
  const SweepGrid graphs =
      make_grid({{{diamond + "," + fork_join}, {}, {}, {}, {}, {}, {}, {"0,0.5,1"}, {"free,one-port"}, {}, {}}}, 100);
  GraphSettings settings;
  const SweepEntries entries = build_entries(std::vector<SweepGrid>{graphs}, {}, false, settings);
  REQUIRE(entries.entries.size() == 12);
  CHECK(settings.reads->reads() == 2);
  for (const auto& e : entries.entries) {
    Job job(e, 0);
    CHECK(job.s.graph_built());
  }
  CHECK(settings.reads->reads() == 2);
  // Other reading options are another read of the same file.
  structures::TaskGraphOptions ready;
  ready.dispatch = structures::Dispatch::ready;
  (void)settings.reads->read(diamond, ready);
  CHECK(settings.reads->reads() == 3);
}

TEST_CASE("a kept read's graph is copied before a copy writes it", "[sweep][graph_reads]") {
  const std::string fork_join = std::string(HETSTRUCT_TEST_DATA) + "/fork_join.dot";
  GraphReads reads;
  const structures::Structure first = reads.read(fork_join, {});
  const std::size_t edges = boost::num_edges(first.graph());
  structures::Structure second = reads.read(fork_join, {});
  CHECK(reads.reads() == 1);
  CHECK(&second.graph() == &first.graph());
  structures::set_processor_cores(second, {2, 1}, "processor_cores");  // writes its graph
  CHECK(&second.graph() != &first.graph());
  CHECK(boost::num_edges(first.graph()) == edges);
  CHECK(first.processor_cores.empty());
  CHECK(boost::num_edges(reads.read(fork_join, {}).graph()) == edges);
  CHECK(second.processor_cores == std::vector<int>{2, 1});
}

TEST_CASE("make_grids: the structures' grid, then the graphs' over their own columns only", "[sweep]") {
  const std::string diamond = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  // Two laws and two protocols for the structures; m and comm for both; the graph gets the ports.
  std::array<std::vector<std::string>, SweepDim::count> texts;
  texts[SweepDim::structure] = {"sync"};
  texts[SweepDim::law] = {"uniform,normal"};
  texts[SweepDim::n] = {"4"};
  texts[SweepDim::m] = {"0,1"};
  texts[SweepDim::comm] = {"0.1"};
  texts[SweepDim::protocol] = {"coordinator"};
  const auto grids = make_grids(texts, {diamond}, {"free,one-port-overlap"}, 100);
  REQUIRE(grids.size() == 2);
  CHECK(grids[0].size() == 4);  // 2 laws x 2 m
  CHECK(grids[0].values[SweepDim::protocol] == std::vector<std::string>{"coordinator"});
  REQUIRE(grids[1].size() == 4);  // 2 m x 2 ports
  CHECK(grids[1].values[SweepDim::structure] == std::vector<std::string>{diamond});
  CHECK(grids[1].values[SweepDim::law] == std::vector<std::string>{"uniform"});  // the default, which to_model ignores
  CHECK(grids[1].values[SweepDim::n] == std::vector<std::string>{""});
  CHECK(grids[1].values[SweepDim::comm] == std::vector<std::string>{"0.1"});
  CHECK(grids[1].values[SweepDim::protocol] == std::vector<std::string>{"free", "one-port-overlap"});
  // Graphs alone: a structure option would do nothing; ports alone: nothing to act on; the limit
  // counts both grids.
  const auto error_of = [](auto&& make) -> std::string {
    try {
      make();
    } catch (const InputError& e) {
      return e.where() + ": " + e.problem();
    }
    return "no error";
  };
  auto graphs_only = texts;
  graphs_only[SweepDim::structure].clear();
  CHECK(error_of([&] { make_grids(graphs_only, {diamond}, {}, 100); }) == "law: has no effect on a graph");
  graphs_only[SweepDim::law].clear();
  graphs_only[SweepDim::n].clear();
  CHECK(error_of([&] { make_grids(graphs_only, {diamond}, {}, 100); }) == "protocol: has no effect on a graph");
  graphs_only[SweepDim::protocol].clear();
  CHECK(make_grids(graphs_only, {diamond}, {}, 100).size() == 1);
  CHECK(error_of([&] { make_grids(texts, {}, {"free"}, 100); }) == "port: applies to a graph only");
  CHECK(error_of([&] { make_grids(texts, {diamond}, {"free,one-port"}, 7); }) ==
        "sweep: the grid has 8 configurations, more than max_configs 7");
}

TEST_CASE("a sweep's records from pieces computed apart are run()'s estimates", "[sweep][mpi]") {
  RunOptions options;
  options.seed = 7;
  options.reps = 300;  // 5 blocks, the last one short
  options.threads = 1;
  const LibrarySweep sweep({{{"sync"}, {}, {}, {"3"}, {"1"}, {}, {"4"}, {}, {}, {}, {}}}, {Comparison("m=0")}, options);
  REQUIRE(sweep.valid.entries.size() == 1);
  const Entry& entry = sweep.valid.entries[0];
  const Job job(entry.c, 1);
  const auto rows = config_records(entry, job, sweep.comparisons, sweep.estimates, options.seed);
  REQUIRE(rows.size() == 5);
  std::vector<std::string> estimators;
  for (const auto& r : rows) estimators.push_back(r.text("estimator"));
  CHECK(estimators == std::vector<std::string>{"closed_form", "lower_bound", "upper_bound", "difference", "mc"});
  CHECK(rows[0].text("method") == "eq6");
  CHECK(rows[0].text("stderr").empty());
  CHECK(rows[3].text("compare_to") == "m=0");
  CHECK(rows[4].text("method") == "synchronous");
  CHECK(rows[4].text("reps") == "300");
  CHECK(rows[4].text("seed") == "7");
  CHECK(rows[4].names() == sweep_columns());
  const Estimate whole = run(job.plan, options);
  CHECK(rows[4].text("value") == Record().add("v", whole.mean).text("v"));  // bit for bit
  CHECK(rows[4].text("stderr") == Record().add("v", whole.stderr_).text("v"));
}

TEST_CASE("resumed_rows keeps the configurations whose mc row is there, in order", "[sweep]") {
  const std::string header = csv_header(sweep_columns());
  const std::string done = "sync,uniform,,4,0,0.5,5,0,,,,closed_form,eq6,,1,,,,,,\n"
                           "sync,uniform,,4,0,0.5,5,0,,,,mc,synchronous,,1,0.1,0.9,1.1,20,3,1\n";
  const std::string cut = "sync,uniform,,4,1,0.5,5,0,,,,closed_form,eq6,,1,,,,,,\n";
  std::vector<Entry> entries(2);
  entries[0].ran = {.structure = "sync", .law = "uniform", .n = 4, .m = 0, .a = {0.5, "0.5"}, .levels = 5, .comm = {0.0, "0"}};
  entries[1].ran = entries[0].ran;
  entries[1].ran.m = 1;
  CHECK(resumed_rows(entries, header + done + cut, "f.csv", 20, 3) == std::vector<std::string>{done, ""});
  CHECK(resumed_rows(entries, header + done, "f.csv", 21, 3) == std::vector<std::string>{"", ""});  // other reps
  CHECK(resumed_rows(entries, "", "f.csv", 20, 3) == std::vector<std::string>{"", ""});  // a new file
  CHECK_THROWS_WITH(resumed_rows(entries, "a,b\n" + done, "f.csv", 20, 3), Catch::Contains("another header"));
  CHECK_THROWS_WITH(resumed_rows({entries[1]}, header + done, "f.csv", 20, 3),
                    Catch::Contains("outside this grid (first: structure=sync law=uniform n=4 m=0"));
  CHECK_THROWS_WITH(resumed_rows(entries, header + "x,y\n", "f.csv", 20, 3),
                    Catch::Contains("f.csv:2: not a row of a sweep CSV (2 fields, expected 21)"));
  // Two entries whose columns are the same (nn at C > 0 with two exchanges: their bounds differ)
  // take the file's configurations in order; the first one ran with other reps: simulated again.
  entries[1].ran = entries[0].ran;
  std::string other = done;
  other.replace(other.find(",20,3"), 5, ",10,3");
  const std::string second = "sync,uniform,,4,0,0.5,5,0,,,,mc,synchronous,,2,0.1,1.9,2.1,20,3,1\n";
  CHECK(resumed_rows(entries, header + done + second, "f.csv", 20, 3) == std::vector<std::string>{done, second});
  CHECK(resumed_rows(entries, header + other + second, "f.csv", 20, 3) == std::vector<std::string>{"", second});
}

TEST_CASE("the sweep's mean estimator: what it refuses, and when the plain blocks serve", "[sweep][estimators]") {
  const StopRule none, target{0.1, 0.0, 0};
  CHECK_FALSE(mean_estimator(Estimator::mc, none, false));
  CHECK_FALSE(mean_estimator(Estimator::mc, none, true));
  CHECK_FALSE(mean_estimator(Estimator::automatic, none, true));  // the distribution's rows: auto means mc
  const auto mc_target = mean_estimator(Estimator::mc, target, false);
  REQUIRE(mc_target);
  CHECK(mc_target->estimator == Estimator::mc);
  CHECK(mc_target->stop.target_se == 0.1);
  REQUIRE(mean_estimator(Estimator::automatic, none, false));
  CHECK_THROWS_WITH(mean_estimator(Estimator::exact, none, false), Catch::Contains("closed_form row"));
  CHECK_THROWS_WITH(mean_estimator(Estimator::cv, none, true), Catch::Contains("plain replications"));
  CHECK_THROWS_WITH(mean_estimator(Estimator::automatic, target, true), Catch::Contains("no target precision"));
}

TEST_CASE("resuming keeps a mean row only from a run like this one", "[sweep][estimators]") {
  const MeanEstimator cv{Estimator::cv, {}}, auto_target{Estimator::automatic, {0.0, 0.0, 10000}};
  CHECK(resumable("mc", 200, 200, std::nullopt));
  CHECK_FALSE(resumable("mc", 199, 200, std::nullopt));
  CHECK_FALSE(resumable("cv", 200, 200, std::nullopt));  // plain blocks wrote mc
  CHECK(resumable("cv", 200, 200, cv));
  CHECK_FALSE(resumable("mc", 200, 200, cv));
  CHECK_FALSE(resumable("cv", 150, 200, cv));  // no stop rule: the whole cap
  CHECK(resumable("cv", 150, 200, auto_target));
  CHECK(resumable("mc", 150, 200, auto_target));  // auto fell back to mc
  CHECK(resumable("antithetic-cv", 400, 200, auto_target));  // pairs: both twins counted
  CHECK_FALSE(resumable("antithetic-cv", 402, 200, auto_target));
  CHECK_FALSE(resumable("cv", 201, 200, auto_target));
  CHECK_FALSE(resumable("difference", 200, 200, auto_target));
  CHECK_FALSE(resumable("exact", 0, 200, auto_target));
}

TEST_CASE("a sweep estimates each mean whole: simulate's estimate, on any deal", "[sweep][estimators][mpi]") {
  RunOptions options;
  options.seed = 11;
  options.reps = 1500;
  options.threads = 2;
  // nn and sync with communication (cv, nn with its surrogate, whose estimated mean the two values
  // of C share), ms (antithetic pairs or cv by the pilot).
  const std::array<std::vector<std::string>, SweepDim::count> grid = {
      {{"sync", "nn", "ms"}, {}, {}, {"4"}, {"1"}, {}, {"20"}, {"0.05", "0.1"}, {}, {}, {}}};
  const std::vector<Comparison> comparisons = {Comparison("m=0")};
  const LibrarySweep plain(grid, comparisons, options);
  for (const StopRule stop : {StopRule{}, StopRule{0.0, 0.0, 10000}}) {
    const MeanEstimator mean{Estimator::automatic, stop};
    const LibrarySweep one(grid, comparisons, options, mean, 1);
    REQUIRE(one.valid.entries.size() == 6);
    for (const int workers : {2, 3}) CHECK(LibrarySweep(grid, comparisons, options, mean, workers).csv(11) == one.csv(11));
    for (const auto& entry : one.valid.entries) {
      INFO(describe(entry.c) << (stop.active() ? ", target_reps 10000" : ""));
      const auto rows = config_records(entry, Job(entry.c, 1), comparisons, one.estimates, 11, one.extras);
      const auto plain_rows = config_records(entry, Job(entry.c, 1), comparisons, plain.estimates, 11, plain.extras);
      REQUIRE(rows.size() == plain_rows.size());
      // The difference stays plain Monte Carlo at the cap, bit for bit; the mean is simulate's.
      for (std::size_t i = 0; i + 1 < rows.size(); ++i) CHECK(csv_line(rows[i]) == csv_line(plain_rows[i]));
      Simulation sim = prepare(to_model(entry.c));
      run(sim, options, false, Estimator::automatic, stop);
      const Record& row = rows.back();
      CHECK(sim.estimator != Estimator::mc);
      CHECK(row.text("estimator") == to_string(sim.estimator));
      CHECK(row.text("value") == Record().add("v", sim.estimate.mean).text("v"));
      CHECK(row.text("stderr") == Record().add("v", sim.estimate.stderr_).text("v"));
      CHECK(row.text("reps") == std::to_string(sim.estimate.reps));
      CHECK(row.text("variance_factor") == Record().add("v", sim.variance_factor).text("v"));
      CHECK(sim.variance_factor > 1.5);
      if (stop.active()) CHECK(sim.estimate.reps < options.reps * (sim.estimator == Estimator::cv ? 1 : 2));
      CHECK(plain_rows.back().text("variance_factor") == "1");
    }
  }
}

}  // namespace sweep_engine_test
