// cli/gnuplot.h: file names quoted for gnuplot, images written whole, nothing temporary left
// behind on success or failure; and `hetstruct figure` into a folder whose name has a quote.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/app.h"
#include "cli/gnuplot.h"
#include "cli/output.h"
#include "tests/support.h"

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
  CHECK(spec.structure == "nn");
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
