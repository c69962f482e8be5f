// Wilson's Tables 1 and 2 regenerated at reduced replications, against the paper.
#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "bounds/closed_forms.h"
#include "distributions/law.h"
#include "engine/wilson/tables.h"
#include "structures/structure.h"

namespace tables_test {

using namespace hetstruct;

TEST_CASE("the paper's tables are embedded whole", "[tables]") {
  const auto cells = engine::wilson_cells();
  REQUIRE(cells.size() == 810);
  std::size_t table1 = 0;
  for (const auto& c : cells) table1 += c.table == 1;
  REQUIRE(table1 == 81);  // 3 values of a x 3 structures x 9 (n,m)
  REQUIRE(cells.front().table == 1);
  REQUIRE(cells.front().structure == "asynch");
  REQUIRE(cells.front().paper == 508);
}

TEST_CASE("cells the paper contradicts itself on are flagged", "[tables]") {
  const auto cells = engine::wilson_cells();
  const auto flags = engine::contradiction_flags(cells);
  std::vector<std::string> flagged;
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (!flags[i].empty()) {
      const auto& c = cells[i];
      flagged.push_back(std::to_string(c.table) + " " + c.structure + " " + c.a + " " + std::to_string(c.comm) + " (" +
                        std::to_string(c.n) + "," + std::to_string(c.m) + ") " + std::to_string(int(c.paper)));
    }
  // Table 2 synch (3,0) a=4/5 reads 745 against 744 twice. Table 5's a=4/5, C=.10 row is
  // Table 8's uniform row value for value (its a=1/2 row, 972 and 1061, is the normal one: the
  // simulation gives 972.2 and 1060.7). Table 6 (5,0) at C=.025 reads 974 and 1014 in its two rows
  // with no majority, so both are flagged.
  std::vector<std::string> expected = {"2 synch 4/5 0.000000 (3,0) 745"};
  const int row[][3] = {{3, 0, 905}, {4, 1, 965}, {4, 0, 977}, {5, 1, 1067}, {5, 0, 1070},
                        {8, 3, 1600}, {8, 0, 1600}, {16, 8, 3198}, {16, 0, 3199}};
  for (const auto& r : row)
    expected.push_back("5 ms 4/5 0.100000 (" + std::to_string(r[0]) + "," + std::to_string(r[1]) + ") " +
                       std::to_string(r[2]));
  expected.push_back("6 synch 1/2 0.025000 (5,0) 974");
  expected.push_back("6 synch 4/5 0.025000 (5,0) 1014");
  REQUIRE(flagged == expected);
  REQUIRE(flags[std::find_if(cells.begin(), cells.end(), [](const auto& c) {
                   return c.table == 5 && c.a == "4/5" && c.comm == 0.1 && c.n == 3;
                 }) - cells.begin()] == "copy_of_table_8");
}

TEST_CASE("Tables 1 and 2 at 400 replications agree with the paper", "[tables]") {
  engine::TableRun run;
  run.reps = 400;
  run.seed = 2026;
  const auto results = engine::regenerate({1, 2}, run);
  REQUIRE(results.size() == 162);
  // Two Table 1 cells sit 8 and 16 of the paper's standard errors beyond rounding from its own
  // Eq. 6 (888.99 and 890.25); they and Table 2's 745 are the only flagged cells.
  std::vector<std::string> flagged;
  for (const auto& r : results)
    if (!r.flag.empty())
      flagged.push_back(std::to_string(r.cell.table) + " " + r.cell.a + " (" + std::to_string(r.cell.n) + "," +
                        std::to_string(r.cell.m) + ") " + r.flag);
  REQUIRE(flagged == std::vector<std::string>{"1 1/2 (16,8) contradicts_eq6", "1 2/3 (16,8) contradicts_eq6",
                                              "2 4/5 (3,0) inconsistent"});
  for (const auto& r : results) {
    const auto& c = r.cell;
    INFO("table " << c.table << " " << c.law << " a=" << c.a << " " << c.structure << " (" << c.n << "," << c.m
                  << "): paper " << c.paper << ", simulated " << r.estimate.mean << " +- " << r.estimate.stderr_);
    if (!r.flag.empty()) continue;
    // The paper rounds to integers (+-0.5) and carries its own Monte Carlo error at 10,000
    // replications (our standard deviation over 100); 4 combined standard errors on top.
    const double sd = r.estimate.stderr_ * std::sqrt(static_cast<double>(r.estimate.reps));
    const double mc = 4.0 * std::hypot(r.estimate.stderr_, sd / 100.0);
    if (c.structure == "nn") {
      // Sequential-exchange semantics fit every cell within 0.34% but not exactly
      // (docs/semantics.md and its fit table): hold it to that, plus the Monte Carlo error.
      REQUIRE(std::abs(r.estimate.mean - c.paper) <= 0.0034 * c.paper + mc);
    } else {
      REQUIRE(std::abs(r.estimate.mean - c.paper) <= 0.5 + mc);
    }
  }
  // The reading's own values at this seed, so that any change to the simulation shows, however
  // small: printed with %.17g by this configuration (seed 2026, 400 replications) when written.
  const auto cell = [&](const char* structure) {
    return std::find_if(results.begin(), results.end(), [&](const auto& r) {
      return r.cell.table == 1 && r.cell.a == "1/2" && r.cell.n == 8 && r.cell.m == 3 && r.cell.structure == structure;
    })->estimate.mean;
  };
  CHECK(cell("asynch") == Approx(510.1231628887254).epsilon(1e-9));
  CHECK(cell("synch") == Approx(834.08731777168202).epsilon(1e-9));
  CHECK(cell("nn") == Approx(784.75436857721479).epsilon(1e-9));
}

TEST_CASE("Table 3's bounds are Eq. 11 on the exact zero-communication mean", "[tables]") {
  engine::TableRun run;
  run.reps = 10;  // the bounds do not depend on the simulation for sync
  run.levels = 100;
  const auto results = engine::regenerate({3}, run);
  REQUIRE(results.size() == 108);
  for (const auto& r : results) {
    REQUIRE(r.bounds);
    const int n = r.cell.n, p = run.levels;
    const double c = r.cell.comm;
    INFO("(" << n << "," << r.cell.m << ") a=" << r.cell.a << " C=" << c);
    REQUIRE(r.cell.law == "normal");  // Table 3 is the normal table: E(synch) by quadrature
    const auto s = structures::synchronous(
        structures::heterogeneous(n, r.cell.m, distributions::parse_number(r.cell.a, "a"), distributions::Law::paper_normal()), p);
    const double exact = bounds::synchronous_mean(s.laws, p);
    // Eq. 11: E(synch) + 2pC <= E <= E(synch) + (n + 1)pC, on the exact E(synch), not a simulation.
    REQUIRE(r.bounds->lower == Approx(exact + 2.0 * p * c).epsilon(1e-12));
    REQUIRE(r.bounds->upper == Approx(exact + (n + 1.0) * p * c).epsilon(1e-12));
  }
  REQUIRE_THROWS_WITH(engine::regenerate({9}, {}), Catch::Contains("table 9") && Catch::Contains("not a table"));
}

TEST_CASE("a table's summary counts its unflagged cells and names the worst", "[tables]") {
  auto cell = [](int table, double deviation, std::string flag = "") {
    engine::CellResult r{{table, "uniform", "1/2", 0.0, "synch", 8, 3, 1000.0, structures::StructureKind::synchronous}, {}, 1, deviation, std::move(flag), {}};
    r.estimate.mean = 1000.0 * (1.0 + deviation / 100.0);
    return r;
  };
  const std::vector<engine::CellResult> results = {cell(1, 0.2), cell(1, -0.6), cell(1, 0.5), cell(1, 9.0, "inconsistent"),
                                                   cell(2, 0.1)};
  const auto s = engine::summarize(results, {1, 3});
  REQUIRE(s.size() == 2);
  CHECK(s[0].table == 1);
  CHECK(s[0].checked == 3);
  CHECK(s[0].within == 2);  // 0.5% is within, -0.6% is not; the flagged 9% counts apart
  CHECK(s[0].flagged == 1);
  CHECK(s[0].mean_abs_deviation_pct == Approx(1.3 / 3).epsilon(1e-15));
  REQUIRE(s[0].worst);
  CHECK(s[0].worst->deviation_pct == -0.6);
  CHECK(s[1].table == 3);  // no cell of table 3 among the results
  CHECK(s[1].checked == 0);
  CHECK(!s[1].worst);
}

TEST_CASE("a cell's record is the table CSV's row", "[tables]") {
  engine::CellResult r{{1, "uniform", "1/2", 0.1, "asynch", 8, 3, 511.0, structures::StructureKind::asynchronous}, {}, 7, 0.25, "", {}};
  r.estimate.mean = 512.0;
  r.estimate.reps = 1;
  r.estimate.stderr_ = std::nan("");  // one replication: undefined, printed empty
  const auto record = engine::cell_record(r);
  CHECK(engine::csv_header(record.names()) ==
        "table,law,a,comm,structure,n,m,paper,mean,stderr,deviation_pct,flag,lower,upper,ci_low,ci_high,reps,seed,"
        "estimator,variance_factor,exact,exact_method\n");
  CHECK(engine::csv_line(record) == "1,uniform,1/2,0.1,asynch,8,3,511,512,,0.25,,,,0,0,1,7,mc,1,,\n");
  r.bounds = bounds::Bounds{500.0, 600.5};
  CHECK(engine::cell_record(r).text("lower") == "500");
  CHECK(engine::cell_record(r).text("upper") == "600.5");
  r.exact = 510.75;
  r.exact_method = "normal_exact";
  CHECK(engine::cell_record(r).text("exact") == "510.75");
  CHECK(engine::cell_record(r).text("exact_method") == "normal_exact");
}

}  // namespace tables_test
