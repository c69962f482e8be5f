// `hetstruct schedule`: a static schedule of a graph (HEFT, CPOP, heft-sd; structures/schedule.h)
// as one record per task, a mapping file that `simulate --mapping` reads back, and a Gantt chart.
//
//   hetstruct schedule --graph FILE [--algorithm heft|cpop|heft-sd] [--sd-weight K] [--comm C]
//                      [--scales LIST] [--output-mapping FILE] [--gantt BASE] [--format F] [--out F]
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/model.h"
#include "cli/options.h"
#include "engine/simulate/record.h"
#include "structures/schedule.h"

namespace hetstruct::cli {

struct ScheduleCommand {
  ModelOptions options;
  OutputOptions output;
  std::string mapping_out;  // --output-mapping
  std::string gantt;        // --gantt BASE
  bool draw = true;         // tests may only write the script

  void add_to(CLI::App& app);
  int execute();
};

// The gnuplot script of a schedule's Gantt chart (its data inline), drawn to `svg` and `png`.
std::string gantt_script(const std::string& graph, const structures::Schedule& schedule,
                         const std::vector<std::string>& names, const std::string& svg, const std::string& png);

}  // namespace hetstruct::cli
