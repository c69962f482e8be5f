// The Monte Carlo driver: replications of a compiled plan, in parallel on oneTBB.
//
// Replications are cut into fixed blocks of `block_size`; each block is evaluated in replication
// order and summarised alone, and the blocks are merged in block order. Neither the thread count
// nor the scheduling can change a bit of the result.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/plan.h"
#include "engine/statistics.h"

namespace hetstruct::engine {

struct RunOptions {
  std::uint64_t seed = 1;
  std::uint64_t reps = 10000;
  int threads = 0;  // 0: all cores
  // Called after each block with (replications done, total), from any thread, possibly
  // concurrently: it must be thread-safe.
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

inline constexpr std::uint64_t block_size = 64;

Estimate run(const Plan& plan, const RunOptions& options);

// The makespan of `a` minus that of `b`, replication by replication with the same seed: both draw
// the same streams (common random numbers), so the standard error is the paired one, usually far
// smaller than that of two independent estimates.
Estimate run_difference(const Plan& a, const Plan& b, const RunOptions& options);

// Zhang and Yan's measured quantities, replication by replication, beside the makespan T:
// the parallelism degree P_deg = sum_j B_j / T (Eq. 5, B_j processor j's busy time) and the
// speedup SP = sum_j W_j B_j / T (Definition 1: the same work done on the fastest processor,
// where a task of time x on processor j takes W_j x, over T).
struct MetricsRun {
  Estimate makespan, parallelism_degree, speedup;
};
MetricsRun run_with_metrics(const Plan& plan, const RunOptions& options, const std::vector<double>& power_weights);

}  // namespace hetstruct::engine
