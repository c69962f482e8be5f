// `hetstruct hbsp probe`: measures an HBSP machine under mpirun, as the HBSP^1 paper did by hand
// (Williams & Parsons 2001, Section 4.4), and writes a machine file and an r_j trace for
// `hbsp replay` (formats: bounds/hbsp.h, engine/hbsp_replay.h).
//
//   mpirun -n P hetstruct hbsp probe --machine M.txt --trace T.txt [--rounds R] [--interval S]
//                                    [--message-kb KB] [--repeats N] [--clock time|superstep]
//
// Each of the R rounds, on ranks 0..P-1 (processor j = rank j, named hostname:rank):
//   kernel  every rank at once sorts the same 2^16 pseudo-random integers (integer work, like the
//           BYTEmark integer index the paper ranked its machines with); its time t_j.
//   send    one rank at a time sends a KB-kilobyte message to every other rank in turn (receives
//           posted beforehand, the others idle): its time per message s_j, the paper's "time needed
//           for each machine to inject a sufficiently large packet into the network".
//   L       for p = 1..P, one MPI_Barrier on ranks 0..p-1 (the mean of 16 in a row): the paper's
//           empty superstep, measured for every p as its Table 4 does for p = 2, 4, ...
// Each is the median of N repetitions within the round; the machine file takes, for each quantity,
// the median over the rounds. Written (time in us, packets in bytes):
//   r_j    = s_j / min_k s_k                 (the fastest sender has r = 1 exactly)
//   index  = max_k t_k / t_j                 (kernel speed relative to the slowest rank: HBSP's c_j;
//                                             P_j's share, HBSP^1's c_j, is index_j / sum of indices)
//   g      = min_k s_k / message bytes       (us per byte of the fastest sender, as the paper's 0.196)
//   L p=p  = the barrier time on the first p ranks
// The trace has one section per rank with that round's r_j = s_j / min_k s_k (each round's fastest
// has r = 1) at `clock time` (the round's start in us after the first round's: the measurements
// step in at that point of a replay's model time) or `clock superstep` (round k at superstep k).
//
// Not under mpirun the command refuses (exit 2); `mpirun -n 1` is accepted: r = 1, index = 1, and
// g is then MPI's copy to the same rank, not a network. Without -DHETSTRUCT_MPI the command exists
// but refuses (exit 2). Rank 0 writes both files atomically after the last round, and at most
// every 2 s before it, so that an interrupted probe keeps the rounds done.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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

// The options checked.
struct ProbePlan {
  std::string machine_path, trace_path;
  std::uint64_t rounds = 10, repeats = 5;
  std::size_t message_bytes = 1024 * 1024;
  double interval = 1.0;
  bool time_clock = true;  // false: clock superstep
};

inline constexpr std::uint64_t max_probe_rounds = 1'000'000;
inline constexpr std::uint64_t max_probe_repeats = 1000;
inline constexpr std::uint64_t max_probe_message_kb = 256 * 1024;  // 256 MB: a send and a receive buffer per rank
inline constexpr double max_probe_interval = 86400.0;              // one day
inline constexpr int probe_barriers_per_sample = 16;               // barriers timed in a row for one L sample
inline constexpr std::size_t probe_kernel_items = std::size_t{1} << 16;

// Throws InputError naming the option.
ProbePlan validate_probe(const ProbeOptions& options);
// Throws InputError unless both output folders exist (checked on rank 0 before measuring).
void check_probe_outputs(const ProbePlan& plan);

// One round's measurements, in seconds; the medians over the repetitions.
struct ProbeRound {
  double start = 0.0;           // since the first round's start (rank 0's clock)
  std::vector<double> send;     // per rank: time to send one message to another rank
  std::vector<double> kernel;   // per rank: time of the compute kernel
  std::vector<double> barrier;  // barrier[p - 1]: time of one barrier on ranks 0..p-1
};

struct ProbeMeasurements {
  std::vector<std::string> names;  // per rank: hostname:rank
  std::vector<ProbeRound> rounds;
};

// The model's parameters from the measurements (medians over the rounds; see the top of the file).
struct ProbeMachine {
  std::vector<double> send, kernel;  // per rank, us: median over the rounds
  std::vector<double> r, index, share;
  double g = 0.0;                    // us per byte
  std::vector<double> latency;       // us, latency[p - 1] for the first p ranks
  int fastest_sender = 0;            // the lowest rank with r = 1
};

// Throws InputError when a measurement is not a positive finite time or the rounds disagree on P.
ProbeMachine summarise_probe(const ProbePlan& plan, const ProbeMeasurements& m);
// r_j of every round: r[round][rank], each round relative to its own fastest sender.
std::vector<std::vector<double>> probe_trace_r(const ProbeMeasurements& m);

// The median (the mean of the middle two for an even count); the probe's summary of repetitions.
double median(std::vector<double> x);

// The files' text; `provenance` is one comment line's content (date, host count, ...). The machine
// file is bounds::hbsp::machine_text of the summary, its numbers to six significant digits.
std::string probe_machine_text(const ProbePlan& plan, const ProbeMeasurements& m, const std::string& provenance);
std::string probe_trace_text(const ProbePlan& plan, const ProbeMeasurements& m, const std::string& provenance);

// The compute kernel: sorts probe_kernel_items pseudo-random 32-bit integers (xorshift32 from a
// fixed seed) in `scratch` and returns a checksum, the same on every rank, so the sort is not
// optimised away.
std::uint64_t probe_kernel(std::vector<std::uint32_t>& scratch);

// Processor names for the machine file: characters the formats split on ('#', '=', whitespace)
// become '_'.
std::string probe_processor_name(const std::string& host, int rank);

// The measurement and the files (cli/hbsp_probe.cpp, built with HETSTRUCT_MPI only). Returns the
// exit status; throws InputError on rank 0 only (the other ranks return 2 without a message).
int run_probe(const ProbeOptions& options);

}  // namespace hetstruct::cli
