// The Monte Carlo driver: replications of a compiled plan, in parallel on oneTBB.
//
// Replications are cut into fixed blocks of `block_size`; each block is evaluated in replication
// order and summarised alone, and the blocks are folded in block order (fold_blocks). Neither the
// thread count nor the scheduling can change a bit of the result; nor can cutting a run into
// block ranges computed apart (run_blocks: other threads, processes or machines) and folded in
// order.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "engine/kernel/plan.h"
#include "engine/driver/statistics.h"

namespace hetstruct::engine {

// The most replications a run takes (reps, target_reps, ms_reps) in every front end: beyond it a
// count is a typo, not a study.
inline constexpr std::uint64_t max_replications = 1'000'000'000;

struct RunOptions {
  std::uint64_t seed = 1;
  std::uint64_t reps = 10000;
  int threads = 0;  // 0: all cores
  // Called after each block with (replications done, total), from any thread, possibly
  // concurrently: it must be thread-safe.
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

inline constexpr std::uint64_t block_size = 64;

// The blocks of a run of `reps` replications; the last one holds the remainder.
constexpr std::uint64_t block_count(std::uint64_t reps) { return reps / block_size + (reps % block_size != 0); }

// Blocks [first, last) of a run: replications [first * block_size, min(last * block_size, reps)).
struct BlockRange {
  std::uint64_t first = 0, last = 0;
};

// Receives per-block statistics in block order, a wave (at most 1024 blocks) at a time, on the
// calling thread; the span is valid only during the call.
using BlockSink = std::function<void(std::span<const Accumulator>)>;

Estimate run(const Plan& plan, const RunOptions& options);

// The makespan of `a` minus that of `b`, replication by replication with the same seed: both draw
// the same streams (common random numbers), so the standard error is the paired one, usually far
// smaller than that of two independent estimates.
Estimate run_difference(const Plan& a, const Plan& b, const RunOptions& options);

// A piece of run() or run_difference(): the statistics of each block of `range` (of the
// options.reps replications), handed to `sink` in block order; memory stays bounded whatever the
// range. run() is exactly: an empty Accumulator, fold_blocks of every block of
// [0, block_count(reps)), summarize. So cutting [0, block_count(reps)) into consecutive ranges,
// computing them anywhere and folding their blocks in block order gives run()'s Estimate bit for
// bit. options.progress receives (replications done in the range, replications in the range).
// Throws std::out_of_range when the range is not within the run's blocks.
void run_blocks(const Plan& plan, const RunOptions& options, BlockRange range, const BlockSink& sink);
void run_difference_blocks(const Plan& a, const Plan& b, const RunOptions& options, BlockRange range,
                           const BlockSink& sink);

// Zhang and Yan's measured quantities, replication by replication, beside the makespan T:
// the parallelism degree P_deg = sum_j B_j / T (Eq. 5, B_j processor j's busy time) and the
// speedup SP = sum_j W_j B_j / T (Definition 1: the same work done on the fastest processor,
// where a task of time x on processor j takes W_j x, over T).
struct MetricsRun {
  Estimate makespan, parallelism_degree, speedup;
};
// With `makespans`, also keeps every replication's makespan there, in replication order (for the
// distribution: engine/estimators/distribution.h); the estimates are the same bits either way.
MetricsRun run_with_metrics(const Plan& plan, const RunOptions& options, const std::vector<double>& power_weights,
                            std::vector<double>* makespans = nullptr);

}  // namespace hetstruct::engine
