// `hetstruct compare`: several schedules of one graph on the same draws (common random numbers),
// each with its mean, sd, quantiles and deadline probabilities, and each against the baseline with
// the paired difference of the mean, of each quantile and of each deadline's probability, its 95%
// interval and whether it excludes 0 (engine::compare_schedule_set); a Gantt chart per schedule.
//
//   hetstruct compare --graph FILE --schedules heft,peft,min-min,... [--baseline NAME]
//                     [--quantiles L] [--deadline T] [--distribution] [--reps N] [--seed S]
//                     [--gantt BASE] [--format F] [--out F]
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
  bool draw = true;                    // tests may only write the scripts

  void add_to(CLI::App& app);
  int execute();
};

}  // namespace hetstruct::cli
