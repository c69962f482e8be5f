// Measuring an HBSP machine, as the HBSP^1 paper did by hand (Williams & Parsons 2001, Section
// 4.4): from the timings of P ranks over R rounds, the machine file (bounds/hbsp/model.h) and the r_j
// trace (engine/hbsp/replay.h) that `hbsp replay` reads. The MPI measurement itself is the command
// `mpirun -n P hetstruct hbsp probe` (cli/hbsp/probe.h); this part needs no MPI.
//
// Each round, on ranks 0..P-1 (processor j = rank j, named hostname:rank):
//   kernel  every rank at once runs probe_kernel (sorting 2^16 pseudo-random integers: integer
//           work, like the BYTEmark integer index the paper ranked its machines with); its time t_j.
//   send    one rank at a time sends a message of plan.message_bytes to every other rank in turn:
//           its time per message s_j, the paper's "time needed for each machine to inject a
//           sufficiently large packet into the network".
//   L       for p = 1..P, one barrier on ranks 0..p-1 (the mean of probe_barriers_per_sample in a
//           row): the paper's empty superstep, measured for every p as its Table 4 does for p = 2, 4, ...
// Each is the median of plan.repeats repetitions within the round; the machine file takes, for each
// quantity, the median over the rounds. Written (time in us, packets in bytes):
//   r_j    = s_j / min_k s_k                 (the fastest sender has r = 1 exactly)
//   index  = max_k t_k / t_j                 (kernel speed relative to the slowest rank: HBSP's c_j;
//                                             P_j's share, HBSP^1's c_j, is index_j / sum of indices)
//   g      = min_k s_k / message bytes       (us per byte of the fastest sender, as the paper's 0.196)
//   L p=p  = the barrier time on the first p ranks
// The trace has one section per rank with that round's r_j = s_j / min_k s_k (each round's fastest
// has r = 1) at `clock time` (the round's start in us after the first round's: the measurements
// step in at that point of a replay's model time) or `clock superstep` (round k at superstep k).
//
// Errors are InputError naming the parameter: "measurements" for timings that are not positive
// finite times or rounds that disagree on P.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hetstruct::engine::hbsp {

// What the probe measures and how the files present it.
struct ProbePlan {
  std::string machine_path, trace_path;  // where the command writes the files
  std::uint64_t rounds = 10, repeats = 5;
  std::size_t message_bytes = 1024 * 1024;
  double interval = 1.0;   // seconds between the end of a round and the start of the next
  bool time_clock = true;  // false: clock superstep
};

inline constexpr std::uint64_t max_probe_rounds = 1'000'000;
inline constexpr std::uint64_t max_probe_repeats = 1000;
inline constexpr std::uint64_t max_probe_message_kb = 256 * 1024;  // 256 MB: a send and a receive buffer per rank
inline constexpr double max_probe_interval = 86400.0;              // one day
inline constexpr int probe_barriers_per_sample = 16;               // barriers timed in a row for one L sample
inline constexpr std::size_t probe_kernel_items = std::size_t{1} << 16;

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

// Throws InputError ("measurements") when a measurement is not a positive finite time or the
// rounds disagree on P.
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

}  // namespace hetstruct::engine::hbsp
