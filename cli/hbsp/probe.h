// `hetstruct hbsp probe`: measures an HBSP machine under mpirun, as the HBSP^1 paper did by hand
// (Williams & Parsons 2001, Section 4.4), and writes a machine file and an r_j trace for
// `hbsp replay`. What is measured and how the files are made from it: engine/hbsp/probe.h; here,
// the options and the measurement with MPI.
//
//   mpirun -n P hetstruct hbsp probe --machine M.txt --trace T.txt [--rounds R] [--interval S]
//                                    [--message-kb KB] [--repeats N] [--clock time|superstep]
//
// Each round times the kernel (every rank at once), the sends (one rank at a time, to every other
// rank in turn, receives posted beforehand, the others idle) and MPI_Barrier on the first p ranks
// for every p.
//
// Not under mpirun the command refuses (exit 2); `mpirun -n 1` is accepted: r = 1, index = 1, and
// g is then MPI's copy to the same rank, not a network. Without -DHETSTRUCT_MPI the command exists
// but refuses (exit 2). Rank 0 writes both files atomically after the last round, and at most
// every 2 s before it, so that an interrupted probe keeps the rounds done.
#pragma once

#include <string>

#include "engine/hbsp/probe.h"

namespace hetstruct::cli {

// The options as given (CLI11 binds to these).
struct ProbeOptions {
  std::string machine_path, trace_path;
  std::string rounds = "10";
  std::string repeats = "5";
  std::string message_kb = "1024";  // the paper's messages: 100 KB to 1000 KB of integers
  std::string interval = "1";       // seconds between the end of a round and the start of the next
  std::string clock = "time";
};

// The options checked (cli/hbsp/probe_options.cpp). Throws InputError naming the option.
engine::hbsp::ProbePlan validate_probe(const ProbeOptions& options);
// Throws InputError unless both output folders exist (checked on rank 0 before measuring).
void check_probe_outputs(const engine::hbsp::ProbePlan& plan);

// The measurement and the files (cli/hbsp/probe.cpp, built with HETSTRUCT_MPI only). Returns the
// exit status; throws InputError on rank 0 only (the other ranks return 2 without a message).
int run_probe(const ProbeOptions& options);

}  // namespace hetstruct::cli
