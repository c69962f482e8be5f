// `hetstruct hbsp`: Heterogeneous BSP programs replayed on a machine description, and the
// predictions of the HBSP^1 paper (Williams & Parsons 2001, Figures 4 and 6).
//
//   hetstruct hbsp replay --machine M (--program P.csv | --algorithm NAME [--size N] [--item-size S]
//                         [--root fastest|slowest|NAME|INDEX] [--workload balanced|equal]
//                         [--accounting paper|exact] [--oversampling O]) [--processors P]
//                         [--form auto|hbsp1|cj]
//                         [--trace T] [--reps R [--seed S] [--threads T]] [--format csv|json|jsonl|text] [--out F]
//     One record per superstep (w, g*h, L, cost, critical processors) and a total record, as tidy
//     CSV (default), JSON or text on stdout or in F; with --reps, a Monte Carlo replay
//     bootstrapping each superstep's r_j from the trace.
//   mpirun -n P hetstruct hbsp probe --machine M --trace T [--rounds R] [--interval S] [--message-kb KB]
//     Measures r_j, c_j, g and L of the P ranks and writes a machine file and an r_j trace
//     (cli/hbsp/probe.h; refuses with exit 2 when built without MPI or not under mpirun).
//   hetstruct hbsp predict [--machine M] [--out-dir DIR]
//     T_s/T_f and T_u/T_b of scatter (Figure 4) and two-phase broadcast (Figure 6) for every p the
//     machine gives an L for and n = 100..1000 KB: DIR/figure4.csv, .gp, .svg, .png and figure6.*
//     (drawn through cli/gnuplot.h); nothing on stdout.
//     Default machine: the paper's cluster (bounds/data/hbsp-cluster-2001.txt, embedded).
// The cost model is bounds/hbsp/model.h, the predictions bounds/hbsp/predictions.h, the replay and
// the records of both engine/hbsp/replay.h and engine/hbsp/records.h; this parses the options into
// the library's typed options, prints the records (engine/simulate/record.h) and plots the
// predictions. Option names keep their meaning across the tool: the old --n, --p,
// -m and -a (the width, the levels, the fast count and the scale elsewhere) are refused.
//
// execute() throws InputError on bad input, like the other commands: call it inside cli::run's
// try block, which prints one line and returns 2.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bounds/hbsp/model.h"
#include "cli/hbsp/probe.h"
#include "engine/hbsp/records.h"
#include "cli/options.h"

namespace hetstruct::cli {

class HbspCommand {
 public:
  void add_to(CLI::App& app);
  bool parsed() const;
  // Whether `hbsp probe` was parsed: it runs under mpirun, one probe per process.
  bool probing() const { return probe_ && probe_->parsed(); }
  int execute();

 private:
  OutputOptions predict_output_;  // the predictions' rows, printed when asked for
  const CLI::Option* predict_out_dir_ = nullptr;  // whether --out-dir was given
  void add_replay_options();
  void add_predict_and_probe_options();
  int replay();
  // The program to replay, from --program or --algorithm, and its cost form.
  engine::hbsp::ReplayInput replay_input(const bounds::hbsp::Machine& m, int p) const;
  int predict();
  int probe();

  CLI::App* hbsp_ = nullptr;
  CLI::App* replay_ = nullptr;
  CLI::App* predict_ = nullptr;
  CLI::App* probe_ = nullptr;
  CLI::Option* processors_ = nullptr;

  // replay
  std::string machine_path_;
  std::string program_path_;
  std::string algorithm_;
  std::string n_text_ = "1000";
  double item_size_ = 1.0;
  std::string root_ = "fastest";
  std::string workload_ = "balanced";
  std::string accounting_ = "paper";
  double oversampling_ = 32.0;
  int p_ = 0;  // read only when --processors is given; otherwise every processor of the machine
  std::string form_ = "auto";
  std::string trace_path_;
  bool metrics_ = false;
  // --reps is optional here: given, a Monte Carlo replay; --seed and --threads serve it only.
  SamplingOptions sampling_;
  CLI::Option* reps_ = nullptr;
  OutputOptions output_;

  // predict
  std::string predict_machine_;
  std::string out_dir_ = "results/hbsp";

  ProbeOptions probe_options_;
};

}  // namespace hetstruct::cli
