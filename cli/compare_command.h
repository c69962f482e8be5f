// `hetstruct compare`: several schedules of one graph on the same draws (common random numbers),
// each with its mean, sd, quantiles and deadline probabilities, and each against the baseline with
// the paired difference of the mean, of each quantile and of each deadline's probability, its 95%
// interval and whether it excludes 0 (engine::compare_schedule_set); a Gantt chart per schedule.
//
//   hetstruct compare --graph FILE --schedules heft,peft,min-min,... [--baseline NAME]
//                     [--quantiles L] [--deadline T] [--distribution] [--reps N] [--seed S]
//                     [--gantt BASE] [--cdf BASE] [--format F] [--out F]
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/distribution.h"
#include "cli/model.h"
#include "cli/options.h"

namespace hetstruct::cli {

struct CompareCommand {
  ModelOptions options;
  SamplingOptions sampling;
  DistributionFlags distribution;
  OutputOptions output;
  std::vector<std::string> schedules;  // --schedules
  std::string baseline;                // --baseline (empty: the first of --schedules)
  std::string gantt;                   // --gantt BASE
  std::string cdf;                     // --cdf BASE
  bool draw = true;                    // tests may only write the scripts

  void add_to(CLI::App& app);
  int execute();
};

// The gnuplot script of the schedules' empirical makespan CDFs, one curve per schedule (`names[i]`'s
// makespans `makespans[i]`, any order), drawn to `svg` and `png`. Each curve holds every order
// statistic x_(k) at height k/N when N <= 2000, else every ceil(N/2000)-th and the largest.
std::string cdf_script(const std::string& graph, const std::vector<std::string>& names,
                       const std::vector<std::vector<double>>& makespans, const std::string& svg, const std::string& png);

}  // namespace hetstruct::cli
