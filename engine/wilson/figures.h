// Wilson's Figures 5-10: which figure is which configuration, and its points (the simulated
// makespan against C with the Section 5 bounds) as records. Drawing them is the front end's
// business (cli/gnuplot.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/estimators/estimators.h"
#include "engine/driver/monte_carlo.h"
#include "engine/simulate/record.h"

namespace hetstruct::engine {

struct FigureSpec {
  int number;
  structures::StructureKind structure;  // sync, nn or ms
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
  RunOptions sampling;
  // How each point is estimated and when it may stop (engine/estimators/estimators.h; the figure's points
  // communicate, so `auto` is the best sampling estimator; sampling.reps is the cap).
  Estimator estimator = Estimator::mc;
  StopRule stop;
};

// Simulates the figure's points, one record per C, named
// figure,structure,law,a,n,m,levels,comm,protocol,mean,stderr,ci_low,ci_high,lower,upper,reps,seed,
// estimator,variance_factor.
// `progress` gets (points done, points total).
std::vector<Record> figure_points(const FigureSpec& spec, const FigureRun& run,
                                  const std::function<void(std::size_t, std::size_t)>& progress = {});

}  // namespace hetstruct::engine
