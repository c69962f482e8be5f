// The makespan's distribution beyond its mean: quantiles with distribution-free intervals, the
// standard deviation with its own standard error, the probability of missing a deadline, and a
// histogram with the empirical CDF and the Normal fit beside it.
//
// What is kept: every makespan of the run, 8 bytes a replication, in replication order (each
// block's makespans, concatenated in block order through compute_blocks, so the sample is the
// same on any thread count and, gathered as pieces, on any number of MPI ranks). Quantiles are
// exact order statistics of that sample, not a sketch. At most max_stored_makespans are kept, and
// the memory guard (engine/driver/resources.h) refuses a run whose sample would not fit.
//
// The estimates, from the N makespans x_(1) <= ... <= x_(N):
// - quantile p: type 7 (linear interpolation between order statistics, R's default); its 95%
//   interval is [x_(l), x_(u)] with binomial ranks (B ~ Binomial(N, p) counts the makespans below
//   the true quantile: l - 1 the largest k with P(B <= k) <= 2.5%, u - 1 the smallest with
//   P(B <= k) >= 97.5%), so it covers the true quantile with probability >= 95% for any
//   continuous law. An end with no such rank (N too small for p) is undefined (NaN).
// - sd: the sample standard deviation s (N - 1 in the denominator); its standard error by the
//   delta method from the fourth central moment m4: Var(s^2) = (m4 - s^4 (N-3)/(N-1)) / N,
//   se(s) = sqrt(Var(s^2)) / (2 s); 95% interval s +- 1.96 se (asymptotic).
// - p_deadline: the fraction of makespans > T, with the exact (Clopper-Pearson) 95% interval and
//   the binomial standard error sqrt(p (1-p) / N).
// - histogram: BINS equal bins over [min, max] (the last closed on the right), each with its count,
//   density count / (N width), the empirical CDF at its upper edge, and the Normal law of the
//   sample's mean and sd: its density at the bin's middle and its CDF at the upper edge.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/driver/statistics.h"

namespace hetstruct::engine {

inline const std::vector<double> default_quantile_levels = {0.05, 0.25, 0.5, 0.75, 0.95};

// The makespans a run may keep: 800 MB.
inline constexpr std::uint64_t max_stored_makespans = 100'000'000;
inline constexpr std::uint64_t max_histogram_bins = 100'000;

// What to estimate of the distribution. Nothing asked: no makespan is kept.
struct DistributionOptions {
  std::vector<double> quantile_levels;  // each in (0, 1)
  bool sd = false;
  std::vector<double> deadlines;  // T: P(makespan > T)
  std::uint64_t histogram_bins = 0;

  bool any() const { return !quantile_levels.empty() || sd || !deadlines.empty() || histogram_bins > 0; }
  // InputError naming quantiles, deadline or histogram on a bad value.
  void validate() const;
};

// Refuses to keep `count` makespans (`copies` samples at once) beyond max_stored_makespans or the
// memory available (InputError on reps; the memory part only with `memory_check`).
void check_stored_makespans(std::uint64_t count, double copies, bool memory_check);

struct QuantileEstimate {
  double level = 0.0, value = 0.0;
  double ci_low = 0.0, ci_high = 0.0;  // order statistics; NaN where the sample is too small
};

struct SpreadEstimate {
  double value = 0.0, stderr_ = 0.0, ci_low = 0.0, ci_high = 0.0;  // NaN below 2 (stderr: 4) replications
};

struct DeadlineEstimate {
  double deadline = 0.0;
  std::uint64_t missed = 0;  // makespans > deadline
  double p = 0.0, stderr_ = 0.0, ci_low = 0.0, ci_high = 0.0;
};

struct HistogramBin {
  double low = 0.0, high = 0.0;
  std::uint64_t count = 0;
  double density = 0.0;         // NaN for a bin of zero width (every makespan equal)
  double cdf = 0.0;             // the fraction of makespans <= high
  double normal_density = 0.0;  // the Normal fit at (low + high) / 2
  double normal_cdf = 0.0;      // the Normal fit at high
};

struct Distribution {
  std::uint64_t reps = 0;
  double mean = 0.0;  // the sample's (two-pass) mean, the Normal fit's
  SpreadEstimate sd;  // always computed
  bool sd_asked = false;  // DistributionOptions::sd: whether it is reported
  std::vector<QuantileEstimate> quantiles;
  std::vector<DeadlineEstimate> deadlines;
  std::vector<HistogramBin> histogram;
};

// The distribution of `makespans` (in replication order; sorted in place).
Distribution describe_distribution(std::vector<double>& makespans, const DistributionOptions& options);

// Type-7 quantile of sorted values (R's default): linear interpolation between order statistics.
double quantile_sorted(std::span<const double> sorted, double level);

// The 0-based ranks [lower, upper] of the distribution-free 95% interval of the `level` quantile
// of n values; -1 (lower) or n (upper) where none exists.
std::pair<std::int64_t, std::int64_t> quantile_ci_ranks(std::uint64_t n, double level, double confidence = 0.95);

// Clopper-Pearson interval of `k` successes in `n` trials.
std::pair<double, double> clopper_pearson(std::uint64_t k, std::uint64_t n, double confidence = 0.95);

// A level's column name: q05 for 0.05, q50 for 0.5, q025 for 0.025, q100 for 1, q1e-300 for 1e-300.
std::string quantile_name(double level);

// A block of replications with its makespans kept (compute_blocks' Block): the statistics of
// run() and the values in replication order. Merging appends.
struct SampleBlock {
  Accumulator stats;
  std::vector<double> values;
  void merge(const SampleBlock& o) {
    stats.merge(o.stats);
    values.insert(values.end(), o.values.begin(), o.values.end());
  }
};

// Blocks `range` of run(plan, options) with their makespans, to `sink` in block order: the
// statistics are run_blocks()'s bit for bit.
void run_sample_blocks(const Plan& plan, const RunOptions& options, BlockRange range,
                       const std::function<void(std::span<const SampleBlock>)>& sink);

// run() keeping the makespans: the Estimate is run()'s bit for bit, `makespans` the replications'
// in order. Checks check_stored_makespans first.
Estimate run_sampled(const Plan& plan, const RunOptions& options, std::vector<double>& makespans,
                     bool memory_check = true);

}  // namespace hetstruct::engine
