// `hetstruct plot`: any sweep CSV (or any CSV with one header row) to SVG and PNG through gnuplot.
//
//   hetstruct plot FILE.csv --x COLUMN [--y value] [--series COLUMN] [--facet COLUMN]
//                  [--where COLUMN=VALUE ...] [--estimator mc,closed_form,...] [--points]
//                  [--title TEXT] [--out BASE]
//
// One series per (series value, estimator), points sorted by x; the Monte Carlo estimates (and
// paired differences) with error bars from ci_low/ci_high, joined by lines (or points alone with
// --points); closed forms as solid lines, bounds dashed. --facet draws one panel per value.
// Writes BASE.gp (self-contained: the data is inline), BASE.svg and BASE.png; BASE defaults to
// FILE without its .csv. Several rows at one x in one series is an error naming the columns that
// tell them apart (give --series, --facet or --where).
//
// A histogram CSV (`simulate --histogram BINS --histogram-out FILE`), given without --x, is drawn as
// two panels: the density histogram with the Normal fit's density, and the empirical CDF at the
// bins' edges with the Normal fit's CDF. Each further column (an analytic estimate the library
// computed, engine::HistogramMark) is a vertical line across both panels, named in their keys.
//
// A criticality CSV (`simulate --criticality --format csv`: columns task, criticality,
// criticality_stderr, slack), given without --x, is drawn as two panels: the 40 most critical tasks
// (by criticality, then in the file's order) as bars with their 95% intervals (1.96 binomial
// standard errors, clipped to [0, 1]), and the same tasks' mean slack.
//
// execute() throws InputError on bad input, before anything is written.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace hetstruct::cli {

class PlotCommand {
 public:
  void add_to(CLI::App& app);
  bool parsed() const;
  int execute();

  std::string csv_path, x, y = "value", series, facet, title, out_base;
  std::vector<std::string> where, estimators;
  bool points = false;
  bool run_gnuplot = true;  // tests may only write the script

 private:
  CLI::App* app_ = nullptr;
};

// The gnuplot script for a CSV's text (what execute() writes to BASE.gp).
std::string plot_script(const PlotCommand& options, const std::string& csv_text, const std::string& svg,
                        const std::string& png);

}  // namespace hetstruct::cli
