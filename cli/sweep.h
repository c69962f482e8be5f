// `hetstruct sweep`: the product grid of simulate's model options, simulated configuration by
// configuration with one seed (common random numbers), as one tidy CSV.
//
//   hetstruct sweep --structure sync,nn,ms --n 8,16 --m 0:8 --a 1/2,4/5 --law uniform,normal
//                   --comm 0:0.25:0.025 [--levels P,...] [--fast-law L,...] [--protocol NAME,...]
//                   [--policy NAME,...] [--exchange RULE,...] [--slowdown LAW] [--machine-slowdown LAW]
//                   [--config FILE.toml]
//                   [--compare-to OPTION=VALUE[,OPTION=VALUE...] ...] [--skip-invalid] [--max-configs N]
//                   [--estimators quantile,sd,p_deadline] [--quantiles LEVELS] [--deadline T,...]
//                   [--estimator mc|auto|cv|antithetic|antithetic-cv] [--target-se X] [--target-rel R]
//                   [--target-reps N] [--se-floor X] [--reps R] [--seed S] [--threads T] [--out FILE [--resume]] [--quiet]
//
// The grid, the runs, the rows and their CSV columns are the library's (engine/sweep/grid.h,
// engine/sweep/sweep.h: lists and ranges, comparisons, the order of the rows): this command reads the
// options and the --config file (TOML keys as the long option names: n = [8, 16],
// comm = "0:0.25:0.025", graph = ["a.dot"], port = ["free", "one-port"]; the command line wins),
// prints progress, writes the CSV (checkpointed, atomically, and on Ctrl-C), resumes it, and
// under mpirun (HETSTRUCT_MPI) deals the runs' blocks to the ranks (engine::deal_blocks) and
// gathers them to rank 0 (cli/mpi_sweep.h), whose fold is the one process's: the CSV is the
// one-process CSV byte for byte.
//
// execute() throws InputError on bad input (before anything is written); the library's errors
// name its parameters (width, comm_cost, ...), which the command's caller spells as flags
// (cli/parameters.h), as configuration errors already are here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/options.h"
#include "engine/sweep/grid.h"

namespace hetstruct::cli {

// For the commands that read sweep lists (plot's --estimator): the library's list splitter.
using engine::split_list;

class SweepCommand {
 public:
  void add_to(CLI::App& app);
  bool parsed() const;
  bool given(const char* flag) const;  // on the command line or by the --config file
  int execute();

  // Options, public so that tests may set them directly.
  std::vector<std::string> structure, law, fast_law, n, m, a, levels, comm, protocol, policy, exchange;
  std::vector<std::string> graph, port;  // graphs (structure values) and their port models (protocol values)
  // Every graph's settings (engine::GraphSettings), as simulate's options of the same names.
  std::string task_law = "normal", mapping, scales, cores;
  std::string schedule;  // every graph's tasks placed by this static schedule (structures/schedule.h)
  std::string dispatch;  // every graph's dispatch, ready or ordered (empty: by the input)
  double task_cv = 0.0, bandwidth = 0.0, sd_weight = 1.0;
  std::vector<std::string> compare_to;
  // Correlated slowdowns of every configuration (simulate's options of the same names): laws.
  std::string slowdown, machine_slowdown;
  std::vector<std::string> estimators, quantiles, deadlines;  // the distribution (cli/distribution.h)
  EstimatorOptions estimator{"mc"};  // the mean rows' estimator and target precision (engine/sweep/sweep.h)
  std::string config_path;
  std::string reps_text = "10000";
  std::string seed_text = "1";
  int threads = 0;
  std::string out_path;
  std::string format = "csv";  // csv (checkpointed, resumable), json or text (written at the end)
  bool resume = false;
  bool quiet = false;
  bool skip_invalid = false;
  bool memory_check = true;  // --no-memory-check turns it off
  std::string max_configs_text = "1000000";
  double progress_interval = 10.0;  // seconds between progress lines when stderr is not a terminal
  double checkpoint_interval = 2.0;  // seconds between checkpoints of --out

  // After execute(): configurations simulated by this process and taken from the --resume file.
  std::uint64_t computed_configs = 0, resumed_configs = 0;

 private:
  CLI::App* app_ = nullptr;
  void apply_config_file();
  void add_graph_settings();  // --task-law ... --cores: settings of every graph
};

}  // namespace hetstruct::cli
