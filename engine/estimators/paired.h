// Relative comparisons: the ratio of two paired means (replication by replication on the same
// streams, as run_difference) with its standard error by the delta method.
//
// With A and B the two makespans of a replication, R = E(A) / E(B) is estimated by mean(A) /
// mean(B), and to first order Var(R^) = (Var A - 2 R Cov(A,B) + R^2 Var B) / (N E(B)^2): the
// paired covariance takes out most of the noise the two means share, as the paired difference's
// standard error does. The 95% interval is R^ +- t(N-1) se, as the means' intervals.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/driver/statistics.h"

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

}  // namespace hetstruct::engine
