// Wilson's Figures 5-10: the simulated makespan against C with the Section 5 bounds, as CSV and
// as SVG/PNG drawn by gnuplot.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bounds/structure_bounds.h"
#include "engine/model.h"
#include "engine/monte_carlo.h"

namespace hetstruct::cli {

struct FigureSpec {
  int number;
  std::string structure;  // sync | nn | ms
  int n, m;
};

// Figures 5-7: (8,3) sync, nn, ms; Figures 8-10: (16,8). Throws InputError for another number.
FigureSpec wilson_figure(int number);

// The x axis: C = 0.025, 0.05, ..., 0.25, as in the paper.
std::vector<double> figure_comm_values();

struct FigureRun {
  std::string law = "normal";  // Section 5's main law; the paper says uniform looks the same
  std::string scale = "1/2";
  int levels = 1000;
  engine::RunOptions sampling;
};

// Simulates the figure's points and returns its CSV (one header row, full precision).
// `progress` gets (points done, points total).
std::string figure_csv(const FigureSpec& spec, const FigureRun& run,
                       const std::function<void(std::size_t, std::size_t)>& progress = {});

// A gnuplot script that draws `csv` to `svg` and `png` (paths as gnuplot will see them).
std::string gnuplot_script(const FigureSpec& spec, const FigureRun& run, const std::string& csv,
                           const std::string& svg, const std::string& png);

// Runs gnuplot on a script file, its images written whole (temporary names, then renamed); throws
// std::runtime_error when gnuplot is missing or fails, engine::Interrupted on Ctrl-C.
void run_gnuplot(const std::string& script_path);

}  // namespace hetstruct::cli
