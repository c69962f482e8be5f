// Streaming statistics of replication results, mergeable in a fixed order.
#pragma once

#include <cstdint>
#include <limits>
#include <span>

namespace hetstruct::engine {

// Welford's running mean and sum of squared deviations; merge() is Chan et al.'s pairwise update.
// Merging the same blocks in the same order gives the same bits whatever thread computed them.
struct Accumulator {
  std::uint64_t count = 0;
  double mean = 0.0;
  double m2 = 0.0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();

  void add(double x) {
    ++count;
    const double delta = x - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (x - mean);
    if (x < min) min = x;
    if (x > max) max = x;
  }

  void merge(const Accumulator& o) {
    if (o.count == 0) return;
    if (count == 0) { *this = o; return; }
    const double n = static_cast<double>(count), m = static_cast<double>(o.count);
    const double delta = o.mean - mean;
    mean += delta * m / (n + m);
    m2 += o.m2 + delta * delta * n * m / (n + m);
    count += o.count;
    if (o.min < min) min = o.min;
    if (o.max > max) max = o.max;
  }
};

// A Monte Carlo estimate with its uncertainty. With one replication the standard error and the
// interval are undefined: has_error() is false and they hold NaN.
struct Estimate {
  std::uint64_t reps = 0;
  double mean = 0.0;
  double stddev = 0.0;     // sample standard deviation of the replications
  double stderr_ = 0.0;    // standard error of the mean
  double ci_low = 0.0;     // 95% confidence interval, Student t with reps-1 degrees of freedom
  double ci_high = 0.0;
  double min = 0.0;
  double max = 0.0;

  bool has_error() const { return reps > 1; }
};

Estimate summarize(const Accumulator& acc, double confidence = 0.95);

// The fold of per-block statistics, the one every estimate goes through: the blocks merged into
// `total` one after the other, in block order, `total` starting empty. Folding is sequential,
// so it may go piece by piece: folding blocks [0, k) and then [k, n) into the same total is
// folding [0, n); and the total after [0, k), merged into an empty total, is itself (merge copies
// into an empty Accumulator), so a piece [0, k) may travel as its folded total. The order must
// be the block order: Chan's merge is not associative in floating point.
template <class Block>
void fold_blocks(Block& total, std::span<const Block> blocks) {
  for (const Block& b : blocks) total.merge(b);
}

}  // namespace hetstruct::engine
