// Relative comparisons: the ratio of two paired means (replication by replication on the same
// streams, as run_difference) with its standard error by the delta method.
//
// With A and B the two makespans of a replication, R = E(A) / E(B) is estimated by mean(A) /
// mean(B), and to first order Var(R^) = (Var A - 2 R Cov(A,B) + R^2 Var B) / (N E(B)^2): the
// paired covariance takes out most of the noise the two means share, as the paired difference's
// standard error does. The 95% interval is R^ +- t(N-1) se, as the means' intervals.
//
// Beyond the means (describe_paired): from the N pairs (a_i, b_i) of the replications, A and B of
// replication i on the same streams, the paired differences of the quantiles and of the
// deadlines' probabilities, each with a 95% interval.
// - quantile_difference at level p: Q_p(a) - Q_p(b), each the type-7 quantile of its N makespans
//   (engine/estimators/distribution.h). Its interval is a percentile bootstrap over the pairs:
//   resample k = 0 .. K-1 (K = bootstrap_resamples, 2000) draws N replication indices with
//   replacement, j = 0 .. N-1 taking the j-th output x (63 bits) of the stream of (seed, k, 0) in
//   domain bootstrap (engine/kernel/streams.h) and the index floor(x N / 2^63); D_k is the
//   difference of the type-7 quantiles of the resampled a's and b's (a pair stays a pair). The
//   interval is [type-7 quantile 0.025 of the D_k, type-7 quantile 0.975 of the D_k], the
//   standard error the D_k's sample standard deviation (K - 1). Every level reads the same
//   resamples, every comparison too (the resample depends on the seed and N only), and each
//   resample is a pure function of its number: the same bits on any thread count.
// - p_deadline_difference at deadline T: P(A > T) - P(B > T), the missed fractions of the
//   p_deadline rows, with Newcombe's hybrid score interval for paired proportions (Newcombe 1998,
//   method 10): with n11 pairs missing both, n10 only A, n01 only B and n00 neither, p1 =
//   (n11 + n10) / N, p2 = (n11 + n01) / N, [l1, u1] and [l2, u2] their Wilson score intervals
//   (z = 1.959963984540054, no continuity correction) and phi = (n11 n00 - n10 n01) /
//   sqrt((n11 + n10) (n01 + n00) (n11 + n01) (n10 + n00)) (0 where that product is 0), the interval
//   is [d - sqrt((p1 - l1)^2 - 2 phi (p1 - l1) (u2 - p2) + (u2 - p2)^2),
//   d + sqrt((u1 - p1)^2 - 2 phi (u1 - p1) (p2 - l2) + (p2 - l2)^2)], d = p1 - p2 (the square
//   roots of a negative rounding taken as 0; the ends kept within [-1, 1]). It needs no
//   randomness. Where no pair differs (n10 = n01 = 0, so phi = 1) it shrinks to 0 +- the
//   difference of the Wilson interval's two half-widths: the method's known weakness without
//   discordant pairs, which says the replications never told the two apart. The standard error is
//   the paired binomial one, sqrt(((n10 + n01) / N - d^2) / N).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/driver/statistics.h"
#include "engine/estimators/distribution.h"

namespace hetstruct::engine {

// Two series' means, sums of squared deviations and co-moment (Welford), merged in a fixed order
// with Chan et al.'s pairwise update, as Accumulator.
struct PairedMoments {
  std::uint64_t count = 0;
  double mean_a = 0.0, mean_b = 0.0;
  double m2_a = 0.0, m2_b = 0.0, c_ab = 0.0;

  void add(double a, double b) {
    ++count;
    const double n = static_cast<double>(count);
    const double da = a - mean_a, db = b - mean_b;
    mean_a += da / n;
    mean_b += db / n;
    m2_a += da * (a - mean_a);
    m2_b += db * (b - mean_b);
    c_ab += da * (b - mean_b);
  }

  void merge(const PairedMoments& o) {
    if (o.count == 0) return;
    if (count == 0) { *this = o; return; }
    const double n = static_cast<double>(count), m = static_cast<double>(o.count), t = n + m;
    const double da = o.mean_a - mean_a, db = o.mean_b - mean_b;
    mean_a += da * m / t;
    mean_b += db * m / t;
    m2_a += o.m2_a + da * da * n * m / t;
    m2_b += o.m2_b + db * db * n * m / t;
    c_ab += o.c_ab + da * db * n * m / t;
    count += o.count;
  }
};

// The ratio E(A)/E(B) with its delta-method standard error and 95% interval (NaN below 2
// replications, or when mean(B) is 0).
struct RatioEstimate {
  std::uint64_t reps = 0;
  double value = 0.0, stderr_ = 0.0, ci_low = 0.0, ci_high = 0.0;
};
RatioEstimate ratio_of_means(const PairedMoments& m, double confidence = 0.95);

// One block of a paired run: the differences A - B exactly as run_difference() accumulates them
// (the same bits), and both makespans' moments for the ratio.
struct PairedBlock {
  Accumulator difference;
  PairedMoments moments;
  void merge(const PairedBlock& o) {
    difference.merge(o.difference);
    moments.merge(o.moments);
  }
};

// Blocks `range` of run_difference(a, b, options), to `sink` in block order.
void run_paired_blocks(const Plan& a, const Plan& b, const RunOptions& options, BlockRange range,
                       const std::function<void(std::span<const PairedBlock>)>& sink);

// run_difference() (the same Estimate, bit for bit) and the ratio of the means.
struct PairedRun {
  Estimate difference;
  RatioEstimate ratio;
};
PairedRun run_paired(const Plan& a, const Plan& b, const RunOptions& options);

// ---- paired quantiles and deadline probabilities ------------------------------------------------

// The bootstrap's resamples (K above): the percentile interval's ends then move by about 1% of its
// width from one seed to another.
inline constexpr std::uint64_t bootstrap_resamples = 2000;

// Q_p(A) - Q_p(B) with its bootstrap standard error and percentile interval.
struct QuantileDifference {
  double level = 0.0, value = 0.0, stderr_ = 0.0, ci_low = 0.0, ci_high = 0.0;
};

// P(A > T) - P(B > T) with its paired standard error and Newcombe's interval; the table's counts.
struct DeadlineDifference {
  double deadline = 0.0;
  std::uint64_t both = 0, only_a = 0, only_b = 0, neither = 0;  // pairs by which of A, B miss T
  double value = 0.0, stderr_ = 0.0, ci_low = 0.0, ci_high = 0.0;
};

struct PairedDistribution {
  std::uint64_t reps = 0, resamples = 0;
  std::vector<QuantileDifference> quantiles;  // per options.quantile_levels, in order
  std::vector<DeadlineDifference> deadlines;  // per options.deadlines, in order
};

// The paired differences of `options`' quantiles and deadlines (its sd and histogram are not
// paired: ignored) between the makespans `a` and `b` of the same replications (a[i], b[i]:
// replication i), as the header says; the bootstrap's streams from run.seed, its resamples on
// run.threads. Throws std::invalid_argument when a and b differ in size or are empty.
PairedDistribution describe_paired(std::span<const double> a, std::span<const double> b, const DistributionOptions& options,
                                   const RunOptions& run, std::uint64_t resamples = bootstrap_resamples);

// The replication index floor(x n / 2^63) of a 63-bit output x: uniform in [0, n) to within n / 2^63.
inline std::uint64_t bootstrap_index(std::uint64_t x, std::uint64_t n) {
  __extension__ using wide = unsigned __int128;  // GCC's and Clang's: the product's 127 bits, exactly
  return static_cast<std::uint64_t>((static_cast<wide>(x) * n) >> 63);
}

// Newcombe's method 10 interval of P(A) - P(B) from a paired table (both, only_a, only_b, neither).
std::pair<double, double> newcombe_paired_interval(std::uint64_t both, std::uint64_t only_a, std::uint64_t only_b,
                                                   std::uint64_t neither);

// Blocks `range` of run_paired_blocks(a, b, options) (the same PairedBlock, bit for bit) keeping
// both makespans of each replication, interleaved in replication order: a_0, b_0, a_1, b_1, ...
struct PairedSampleBlock {
  PairedBlock paired;
  std::vector<double> values;
  void merge(const PairedSampleBlock& o) {
    paired.merge(o.paired);
    values.insert(values.end(), o.values.begin(), o.values.end());
  }
};
void run_paired_sample_blocks(const Plan& a, const Plan& b, const RunOptions& options, BlockRange range,
                              const std::function<void(std::span<const PairedSampleBlock>)>& sink);

}  // namespace hetstruct::engine
