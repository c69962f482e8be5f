// cli/gnuplot.h: file names quoted for gnuplot, images written whole, nothing temporary left
// behind on success or failure; and `hetstruct figure` into a folder whose name has a quote. The
// histogram's analytic estimates, from the library's values to the plot's lines.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "bounds/dag_estimates.h"
#include "bounds/structure_bounds.h"
#include "cli/app.h"
#include "cli/gnuplot.h"
#include "cli/output.h"
#include "cli/plot.h"
#include "engine/simulate/dag_model.h"
#include "engine/simulate/model.h"
#include "engine/simulate/record.h"
#include "engine/simulate/simulation.h"
#include "tests/support.h"

namespace gnuplot_test {

using namespace hetstruct;
namespace fs = std::filesystem;

namespace {

using testing::TempDir;

std::set<std::string> files_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// A script for two images; `body` is what it plots.
cli::GnuplotScript script_plotting(const std::string& body) {
  return [body](const std::string& svg, const std::string& png) {
    return "set terminal svg\nset output " + cli::gnuplot_quote(svg, "svg") + "\n" + body +
           "\nset terminal pngcairo\nset output " + cli::gnuplot_quote(png, "png") + "\nreplot\n";
  };
}

int run_hetstruct(std::vector<std::string> args) {
  args.insert(args.begin(), "hetstruct");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return cli::run(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("gnuplot strings double their quotes and refuse line breaks", "[gnuplot]") {
  CHECK(cli::gnuplot_quote("results/figure5.svg", "--out-dir") == "'results/figure5.svg'");
  CHECK(cli::gnuplot_quote("it's", "--out-dir") == "'it''s'");
  CHECK(cli::gnuplot_quote("a `b` @c $d \\e", "--out-dir") == "'a `b` @c $d \\e'");  // nothing else is special
  CHECK(testing::error_of([] { cli::gnuplot_quote("a\nb", "--out-dir"); }).rfind("--out-dir: gnuplot cannot", 0) == 0);
  CHECK(testing::error_of([] { cli::gnuplot_quote("a\rb", "--out"); }).rfind("--out: gnuplot cannot", 0) == 0);
}

TEST_CASE("gnuplot draws into a folder whose name has a quote, leaving nothing temporary", "[gnuplot]") {
  TempDir tmp;
  const fs::path dir = tmp.path / "it's `here`";
  fs::create_directory(dir);
  const std::string base = (dir / "plot").string();
  cli::draw_with_gnuplot(base, "--out", script_plotting("plot x"));
  CHECK(files_in(dir) == std::set<std::string>{"plot.gp", "plot.png", "plot.svg"});
  CHECK(fs::file_size(base + ".svg") > 0);
  CHECK(fs::file_size(base + ".png") > 0);
  // The script names the final images, so that running it again redraws them.
  std::ifstream gp(base + ".gp");
  const std::string script((std::istreambuf_iterator<char>(gp)), {});
  CHECK(script.find("set output '" + (dir / "plot.svg").string().replace(dir.string().find('\''), 1, "''") + "'") !=
        std::string::npos);

}

TEST_CASE("a failing gnuplot leaves the script and no temporary image", "[gnuplot]") {
  TempDir tmp;
  const std::string base = (tmp.path / "bad").string();
  // gnuplot opens the first (temporary) image, then fails on the plot.
  REQUIRE_THROWS_AS(cli::draw_with_gnuplot(base, "--out", script_plotting("plot no_such_function(x)")),
                    std::runtime_error);
  CHECK(files_in(tmp.path) == std::set<std::string>{"bad.gp"});
  // A name gnuplot cannot take is refused before anything is written.
  CHECK(testing::error_of([&] { cli::draw_with_gnuplot(base + "\n", "--out", script_plotting("plot x")); })
            .rfind("--out: gnuplot cannot", 0) == 0);
  CHECK(files_in(tmp.path) == std::set<std::string>{"bad.gp"});
}

TEST_CASE("hetstruct figure writes into a folder whose name has a quote", "[gnuplot][figure]") {
  TempDir tmp;
  const fs::path dir = tmp.path / "Wilson's figures";
  fs::create_directory(dir);
  REQUIRE(run_hetstruct({"figure", "6", "--reps", "3", "--levels", "5", "--threads", "1", "--out-dir", dir.string()}) == 0);
  CHECK(files_in(dir) == std::set<std::string>{"figure6.csv", "figure6.gp", "figure6.png", "figure6.svg"});
  // A folder gnuplot cannot name: exit 2 before any simulation, nothing written.
  const fs::path broken = tmp.path / "two\nlines";
  fs::create_directory(broken);
  CHECK(run_hetstruct({"figure", "6", "--reps", "3", "--levels", "5", "--out-dir", broken.string()}) == 2);
  CHECK(files_in(broken).empty());
}

TEST_CASE("Wilson's figures are their configurations, their points records", "[figure]") {
  const auto spec = engine::wilson_figure(9);
  CHECK(spec.structure == hetstruct::structures::StructureKind::nearest_neighbor);
  CHECK(spec.n == 16);
  CHECK(spec.m == 8);
  CHECK(testing::error_of([] { engine::wilson_figure(11); }) == "figure: '11' is not one of the paper's Figures 5-10");
  engine::FigureRun run;
  run.levels = 5;
  run.sampling.reps = 3;
  const auto points = engine::figure_points(engine::wilson_figure(5), run);
  REQUIRE(points.size() == 10);
  CHECK(engine::csv_header(points.front().names()) ==
        "figure,structure,law,a,n,m,levels,comm,protocol,mean,stderr,ci_low,ci_high,lower,upper,reps,seed,estimator,"
        "variance_factor\n");
  CHECK(points.back().text("comm") == "0.25");
  // The script finds its columns by name: comm is column 8, upper 15.
  const auto script = cli::figure_script(engine::wilson_figure(5), run, points.front().names(), "f.csv", "f.svg", "f.png");
  CHECK(script.find("plot 'f.csv' skip 1 using 8:15 ") != std::string::npos);
}

// simulate --histogram-out carries the analytic estimates the library computes (the printed
// digits of each are the library's value's), and plot draws each as a vertical line with a key
// entry on both panels.
TEST_CASE("the histogram's analytic estimates, from the library to the plot", "[gnuplot][plot][distribution]") {
  TempDir tmp;
  const std::string graph = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  const std::string csv = (tmp.path / "h.csv").string();
  testing::captured_stdout([&] {
    REQUIRE(run_hetstruct({"simulate", "--graph", graph, "--reps", "200", "--threads", "1", "--histogram", "6",
                           "--histogram-out", csv, "--format", "csv"}) == 0);
  });
  std::ifstream in(csv);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto rows = engine::records_of_csv(text);
  REQUIRE(rows.size() == 6);
  // The library's estimates of the graph the simulation runs, in its order.
  engine::Model model;
  model.graph = graph;
  const auto estimates = bounds::dag_estimates(engine::stochastic_dag(engine::prepare(model)));
  std::vector<std::string> names = {"bin_low", "bin_high", "count", "density", "cdf", "normal_density", "normal_cdf"};
  for (const auto& e : estimates) names.push_back(e.method);
  CHECK(rows.front().names() == names);
  CHECK(names.back() == "clark_canonical");
  for (const auto& e : estimates)
    for (const auto& row : rows) CHECK(row.text(e.method) == cli::full(e.moments.mean));
  // CPM by hand: a, then b or c (1/2 each), then d (2); the tasks of a processor chain, a b and c d.
  CHECK(rows.front().text("cpm") == "3");

  cli::PlotCommand plot;
  plot.csv_path = csv;
  const std::string script = cli::plot_script(plot, text, "h.svg", "h.png");
  const std::string cpm_line = "set arrow 1 from first 3, graph 0 to first 3, graph 1 nohead front lw 1.5 lc rgb '#27ae60' dt 1\n";
  CHECK(script.find(cpm_line) != std::string::npos);
  // Kamburowski's lower bound dotted, his upper one dashed (uniform laws here: the values only
  // approximate, but the columns keep their names).
  CHECK(script.find("set arrow 2 from first " + cli::full(estimates[1].moments.mean) + ", graph 0") != std::string::npos);
  CHECK(script.find("lc rgb '#8e44ad' dt 3 title 'kamburowski_lower ") != std::string::npos);
  CHECK(script.find("lc rgb '#d35400' dt 2 title 'kamburowski_upper ") != std::string::npos);
  // Each mark has its key entry on both panels (the script draws the SVG, then the PNG).
  const std::string cpm_key = "keyentry with lines lw 1.5 lc rgb '#27ae60' dt 1 title 'cpm 3'";
  std::size_t keys = 0;
  for (auto at = script.find(cpm_key); at != std::string::npos; at = script.find(cpm_key, at + 1)) ++keys;
  CHECK(keys == 4);
  // A mark that is not a number is refused, naming the file and column; an empty one is left out.
  const std::string head = "bin_low,bin_high,count,density,cdf,normal_density,normal_cdf,cpm\n0,1,5,1,1,0.4,0.8,";
  CHECK(testing::error_of([&] { cli::plot_script(plot, head + "abc\n", "h.svg", "h.png"); }) ==
        csv + ":2: column 'cpm' is not numeric");
  CHECK(cli::plot_script(plot, head + "\n", "h.svg", "h.png").find("set arrow") == std::string::npos);
  // gnuplot takes the script: the SVG names the marks.
  plot.out_base = (tmp.path / "h").string();
  REQUIRE(plot.execute() == 0);
  std::ifstream svg(plot.out_base + ".svg");
  const std::string drawn((std::istreambuf_iterator<char>(svg)), {});
  CHECK(drawn.find("cpm 3") != std::string::npos);
  CHECK(drawn.find("clark_canonical ") != std::string::npos);
}

// Wilson's structures mark their closed form at C = 0 and the bounds at C that rest on no
// simulation; a graph on the one-port model has no estimate (they are of the free port).
TEST_CASE("what a structure's histogram marks", "[distribution][plot]") {
  using structures::StructureKind;
  auto names_of = [](const std::vector<engine::HistogramMark>& marks) {
    std::vector<std::string> names;
    for (const auto& m : marks) names.push_back(m.name);
    return names;
  };
  const auto sync = engine::prepare(engine::Model::wilson(StructureKind::synchronous, 4, 1, "1/2", "uniform", 10));
  const auto at_zero = engine::histogram_marks(sync, {});
  CHECK(names_of(at_zero) == std::vector<std::string>{"closed_form_eq6"});
  CHECK(at_zero[0].value == sync.closed_form->value);
  const auto model = engine::Model::wilson(StructureKind::synchronous, 4, 1, "1/2", "uniform", 10, 0.25);
  const auto comm = engine::histogram_marks(engine::prepare(model), {});
  CHECK(names_of(comm) == std::vector<std::string>{"eq11_coordinator_lower", "eq11_coordinator_upper"});
  const auto b = bounds::comm_bounds(model.build(), true, 0.5, 0.25, 0.0);
  CHECK(comm[0].value == b->bounds.lower);
  CHECK(comm[1].value == b->bounds.upper);
  // Eq. 11 at C = 1/4 over 10 levels: lower E + 2pC = E + 5, upper E + (n+1)pC = E + 12.5.
  CHECK(comm[1].value - comm[0].value == Approx(7.5).epsilon(1e-12));
  const auto async = engine::prepare(engine::Model::wilson(StructureKind::asynchronous, 4, 1, "1/2", "normal", 10));
  CHECK(names_of(engine::histogram_marks(async, {})) == std::vector<std::string>{"closed_form_normal_exact"});
  const auto nn = engine::prepare(engine::Model::wilson(StructureKind::nearest_neighbor, 4, 1, "1/2", "uniform", 10, 0.25));
  CHECK(engine::histogram_marks(nn, {}).empty());
  engine::Model one_port;
  one_port.graph = std::string(HETSTRUCT_TEST_DATA) + "/diamond.dot";
  CHECK(engine::dag_estimates_apply(engine::prepare(one_port)));
  one_port.port = engine::Port::one_port;
  CHECK_FALSE(engine::dag_estimates_apply(engine::prepare(one_port)));
}

// A figure's subtitle says how its points were estimated: the estimator and the replications each
// took (before: "10000 replications per point" where cv ran 1,856-2,176 to the same precision).
TEST_CASE("a figure's subtitle says how its points were estimated", "[gnuplot]") {
  engine::FigureRun run;
  run.sampling.reps = 10000;
  std::vector<engine::Record> points(3);
  points[0].add("estimator", "cv").add("reps", 1856);
  points[1].add("estimator", "cv").add("reps", 2176);
  points[2].add("estimator", "cv").add("reps", 2000);
  run.stop.target_reps = 10000;
  CHECK(cli::figure_sampling(points, run) == "cv, 1856-2176 replications per point, each to its target");
  const auto script = cli::figure_script(engine::wilson_figure(5), run, {"comm", "upper", "mean", "ci_low", "ci_high", "lower"},
                                         "f.csv", "f.svg", "f.png", cli::figure_sampling(points, run));
  CHECK(script.find("cv, 1856-2176 replications per point, each to its target}") != std::string::npos);
  std::vector<engine::Record> plain(2);
  for (auto& p : plain) p.add("estimator", "mc").add("reps", 10000);
  CHECK(cli::figure_sampling(plain, engine::FigureRun{}) == "mc, 10000 replications per point");
}

TEST_CASE("a criticality CSV is drawn as its most critical tasks and their slack", "[gnuplot][plot][criticality]") {
  TempDir tmp;
  const std::string graph = std::string(HETSTRUCT_TEST_DATA) + "/fork_join.dot";
  const std::string csv = (tmp.path / "c.csv").string();
  REQUIRE(run_hetstruct({"simulate", "--graph", graph, "--reps", "400", "--threads", "1", "--criticality", "--format",
                         "csv", "--out", csv}) == 0);
  std::ifstream in(csv);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto rows = engine::records_of_csv(text);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].text("task") == "fork");
  CHECK(rows[0].text("criticality") == "1");
  cli::PlotCommand plot;
  plot.csv_path = csv;
  const std::string script = cli::plot_script(plot, text, "c.svg", "c.png");
  // By criticality, then in file order: fork and join (1), then w0 and w1 in their order.
  const auto fork = script.find("\"fork\"\n"), join = script.find("\"join\"\n");
  const auto w0 = script.find("\"w0\"\n"), w1 = script.find("\"w1\"\n");
  REQUIRE(fork != std::string::npos);
  REQUIRE(w1 != std::string::npos);
  CHECK(fork < join);
  const bool w0_first = std::stod(rows[1].text("criticality")) >= std::stod(rows[2].text("criticality"));
  CHECK(join < (w0_first ? w0 : w1));
  CHECK((w0_first ? w0 < w1 : w1 < w0));
  CHECK(script.find("with yerrorbars") != std::string::npos);
  CHECK(script.find("set multiplot layout 2,1") != std::string::npos);
  // A value that is not a number is refused, naming the file and line.
  CHECK(testing::error_of([&] {
          cli::plot_script(plot, "task,criticality,criticality_stderr,slack\na,x,0,0\n", "c.svg", "c.png");
        }) == csv + ":2: column 'criticality' is not numeric");
  plot.out_base = (tmp.path / "c").string();
  REQUIRE(plot.execute() == 0);
  CHECK(std::filesystem::exists(plot.out_base + ".svg"));
}

}  // namespace gnuplot_test
