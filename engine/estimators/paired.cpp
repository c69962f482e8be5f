#include "engine/estimators/paired.h"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/students_t.hpp>

#include "engine/driver/blocks.h"

namespace hetstruct::engine {

RatioEstimate ratio_of_means(const PairedMoments& m, double confidence) {
  RatioEstimate r;
  r.reps = m.count;
  r.value = m.mean_a / m.mean_b;
  if (m.count < 2 || m.mean_b == 0.0) {
    r.stderr_ = r.ci_low = r.ci_high = std::nan("");
    if (m.mean_b == 0.0) r.value = std::nan("");
    return r;
  }
  const double n = static_cast<double>(m.count);
  // Sample (co)variances, N - 1 in the denominator, as the means' standard errors.
  const double var_a = m.m2_a / (n - 1.0), var_b = m.m2_b / (n - 1.0), cov = m.c_ab / (n - 1.0);
  const double R = r.value;
  const double var = (var_a - 2.0 * R * cov + R * R * var_b) / (n * m.mean_b * m.mean_b);
  r.stderr_ = std::sqrt(std::max(var, 0.0));
  const boost::math::students_t t(n - 1.0);
  const double half = boost::math::quantile(t, 0.5 + confidence / 2.0) * r.stderr_;
  r.ci_low = R - half;
  r.ci_high = R + half;
  return r;
}

namespace {

struct Pair {
  Workspace a, b;
};

}  // namespace

void run_paired_blocks(const Plan& a, const Plan& b, const RunOptions& options, BlockRange range,
                       const std::function<void(std::span<const PairedBlock>)>& sink) {
  const std::uint64_t seed = options.seed;
  compute_blocks<PairedBlock>(
      options, range, [&a, &b] { return Pair{Workspace(a), Workspace(b)}; },
      [&a, &b, seed](PairedBlock& block, std::uint64_t r, Pair& ws) {
        const double x = evaluate(a, seed, r, ws.a), y = evaluate(b, seed, r, ws.b);
        block.difference.add(x - y);
        block.moments.add(x, y);
      },
      sink);
}

PairedRun run_paired(const Plan& a, const Plan& b, const RunOptions& options) {
  PairedBlock total;
  run_paired_blocks(a, b, options, BlockRange{0, block_count(options.reps)},
                    [&](std::span<const PairedBlock> wave) { fold_blocks(total, wave); });
  return {summarize(total.difference), ratio_of_means(total.moments)};
}

}  // namespace hetstruct::engine
