#include "engine/estimators/paired.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include <boost/math/distributions/students_t.hpp>

#include "engine/driver/blocks.h"
#include "engine/kernel/streams.h"

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

struct PairedWorkspaces {
  Workspace a, b;
};

// Blocks `range` of the pairs (A, B) of replication r, both on the streams of (seed, r), each pair
// handed to add(block, A, B).
template <class Block, class Add>
void compute_pairs(const Plan& a, const Plan& b, const RunOptions& options, BlockRange range, Add add,
                   const std::function<void(std::span<const Block>)>& sink) {
  const std::uint64_t seed = options.seed;
  compute_blocks<Block>(
      options, range, [&a, &b] { return PairedWorkspaces{Workspace(a), Workspace(b)}; },
      [&a, &b, seed, add](Block& block, std::uint64_t r, PairedWorkspaces& ws) {
        const double x = evaluate(a, seed, r, ws.a), y = evaluate(b, seed, r, ws.b);
        add(block, x, y);
      },
      sink);
}

}  // namespace

void run_paired_blocks(const Plan& a, const Plan& b, const RunOptions& options, BlockRange range,
                       const std::function<void(std::span<const PairedBlock>)>& sink) {
  compute_pairs<PairedBlock>(a, b, options, range, [](PairedBlock& block, double x, double y) {
    block.difference.add(x - y);
    block.moments.add(x, y);
  }, sink);
}

PairedRun run_paired(const Plan& a, const Plan& b, const RunOptions& options) {
  PairedBlock total;
  run_paired_blocks(a, b, options, BlockRange{0, block_count(options.reps)},
                    [&](std::span<const PairedBlock> wave) { fold_blocks(total, wave); });
  return {summarize(total.difference), ratio_of_means(total.moments)};
}

void run_paired_sample_blocks(const Plan& a, const Plan& b, const RunOptions& options, BlockRange range,
                              const std::function<void(std::span<const PairedSampleBlock>)>& sink) {
  compute_pairs<PairedSampleBlock>(a, b, options, range, [](PairedSampleBlock& block, double x, double y) {
    block.paired.difference.add(x - y);
    block.paired.moments.add(x, y);
    block.values.push_back(x);
    block.values.push_back(y);
  }, sink);
}

namespace {

constexpr double wilson_z = 1.959963984540054;

// Wilson's score interval of k successes in n trials (z above, no continuity correction), its
// ends exactly 0 and 1 at k = 0 and k = n, as the criticality indices'.
std::pair<double, double> wilson(std::uint64_t k, std::uint64_t n) {
  const double nd = static_cast<double>(n), p = static_cast<double>(k) / nd, z2 = wilson_z * wilson_z;
  const double centre = (p + z2 / (2.0 * nd)) / (1.0 + z2 / nd);
  const double half = wilson_z * std::sqrt(p * (1.0 - p) / nd + z2 / (4.0 * nd * nd)) / (1.0 + z2 / nd);
  return {k == 0 ? 0.0 : std::max(0.0, centre - half), k == n ? 1.0 : std::min(1.0, centre + half)};
}

// The type-7 quantile at `level` of n sorted values, read through the two order statistics it
// interpolates (quantile_sorted's formula, so the same bits): ranks lo and hi, weight h - lo.
struct Type7 {
  std::uint64_t lo = 0, hi = 0;
  double h = 0.0;
  Type7(std::uint64_t n, double level) : h((static_cast<double>(n) - 1.0) * level) {
    lo = static_cast<std::uint64_t>(std::floor(h));
    hi = std::min(lo + 1, n - 1);
  }
  double operator()(double at_lo, double at_hi) const { return at_lo + (h - static_cast<double>(lo)) * (at_hi - at_lo); }
};

// One thread's buffers: a resample's count per replication and the order statistics it needs.
struct Resample {
  std::vector<std::uint32_t> count;
  std::vector<double> at_rank;
};

// The order statistics `ranks` (ascending) of the resample whose counts are `count`, of the values
// `x` read in `order` (their ascending order): a walk of the counts, no sort of N values.
void order_statistics(std::span<const double> x, std::span<const std::uint64_t> order, std::span<const std::uint32_t> count,
                      std::span<const std::uint64_t> ranks, std::span<double> out) {
  std::uint64_t below = 0;  // resampled values before the current one
  std::size_t r = 0;
  for (const std::uint64_t i : order) {
    below += count[i];
    while (r < ranks.size() && ranks[r] < below) out[r++] = x[i];
    if (r == ranks.size()) return;
  }
}

// The bootstrap's blocks: per resample, its D_k at every level, resample after resample.
struct BootstrapBlock {
  std::vector<double> d;
  void merge(const BootstrapBlock& o) { d.insert(d.end(), o.d.begin(), o.d.end()); }
};

}  // namespace

std::pair<double, double> newcombe_paired_interval(std::uint64_t both, std::uint64_t only_a, std::uint64_t only_b,
                                                   std::uint64_t neither) {
  const std::uint64_t n = both + only_a + only_b + neither;
  const double nd = static_cast<double>(n);
  const double p1 = static_cast<double>(both + only_a) / nd, p2 = static_cast<double>(both + only_b) / nd;
  const auto [l1, u1] = wilson(both + only_a, n);
  const auto [l2, u2] = wilson(both + only_b, n);
  const double margins = static_cast<double>(both + only_a) * static_cast<double>(only_b + neither) *
                         static_cast<double>(both + only_b) * static_cast<double>(only_a + neither);
  const double phi = margins > 0.0 ? (static_cast<double>(both) * static_cast<double>(neither) -
                                      static_cast<double>(only_a) * static_cast<double>(only_b)) / std::sqrt(margins)
                                   : 0.0;
  const double d = p1 - p2;
  const double below = (p1 - l1) * (p1 - l1) - 2.0 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) * (u2 - p2);
  const double above = (u1 - p1) * (u1 - p1) - 2.0 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) * (p2 - l2);
  return {std::max(-1.0, d - std::sqrt(std::max(below, 0.0))), std::min(1.0, d + std::sqrt(std::max(above, 0.0)))};
}

PairedDistribution describe_paired(std::span<const double> a, std::span<const double> b, const DistributionOptions& options,
                                   const RunOptions& run, std::uint64_t resamples) {
  if (a.size() != b.size() || a.empty()) throw std::invalid_argument("describe_paired: the two samples differ in size or are empty");
  const std::uint64_t n = a.size();
  const double nd = static_cast<double>(n);
  PairedDistribution out;
  out.reps = n;

  for (const double t : options.deadlines) {
    DeadlineDifference e;
    e.deadline = t;
    for (std::uint64_t i = 0; i < n; ++i) {
      const bool miss_a = a[i] > t, miss_b = b[i] > t;
      ++(miss_a ? (miss_b ? e.both : e.only_a) : (miss_b ? e.only_b : e.neither));
    }
    e.value = (static_cast<double>(e.both + e.only_a) - static_cast<double>(e.both + e.only_b)) / nd;
    const double discordant = static_cast<double>(e.only_a + e.only_b) / nd;
    e.stderr_ = std::sqrt(std::max(discordant - e.value * e.value, 0.0) / nd);
    std::tie(e.ci_low, e.ci_high) = newcombe_paired_interval(e.both, e.only_a, e.only_b, e.neither);
    out.deadlines.push_back(e);
  }

  const auto& levels = options.quantile_levels;
  if (levels.empty()) return out;
  out.resamples = resamples;
  // Each sample's ascending order (ties by replication: equal values, so any order gives the
  // same order statistics), and the ranks every level reads.
  const auto ascending = [n](std::span<const double> x) {
    std::vector<std::uint64_t> order(n);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    std::stable_sort(order.begin(), order.end(), [x](std::uint64_t i, std::uint64_t j) { return x[i] < x[j]; });
    return order;
  };
  const std::vector<std::uint64_t> order_a = ascending(a), order_b = ascending(b);
  std::vector<Type7> rules;
  std::vector<std::uint64_t> ranks;
  for (const double level : levels) {
    rules.emplace_back(n, level);
    ranks.push_back(rules.back().lo);
    ranks.push_back(rules.back().hi);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  const auto rank_at = [&ranks](std::uint64_t rank) {
    return static_cast<std::size_t>(std::lower_bound(ranks.begin(), ranks.end(), rank) - ranks.begin());
  };

  // The point values: the full samples' quantiles (order statistics read the same way).
  std::vector<double> sorted_a(a.begin(), a.end()), sorted_b(b.begin(), b.end());
  std::sort(sorted_a.begin(), sorted_a.end());
  std::sort(sorted_b.begin(), sorted_b.end());
  for (const double level : levels)
    out.quantiles.push_back({level, quantile_sorted(sorted_a, level) - quantile_sorted(sorted_b, level), 0.0, 0.0, 0.0});
  std::vector<double>().swap(sorted_a);
  std::vector<double>().swap(sorted_b);

  // The resamples as the replications of a run (engine/driver/blocks.h): blocks of resamples on
  // the threads, handed over in order, each resample a pure function of (seed, k).
  RunOptions boot;
  boot.seed = run.seed;
  boot.reps = resamples;
  boot.threads = run.threads;
  std::vector<double> d;  // d[k * levels + l]
  d.reserve(resamples * levels.size());
  compute_blocks<BootstrapBlock>(
      boot, BlockRange{0, block_count(resamples)},
      [n, &ranks] { return Resample{std::vector<std::uint32_t>(n), std::vector<double>(2 * ranks.size())}; },
      [&](BootstrapBlock& block, std::uint64_t k, Resample& r) {
        std::fill(r.count.begin(), r.count.end(), 0u);
        ProcessorStream stream(run.seed, k, 0, ProcessorStream::bootstrap);
        for (std::uint64_t j = 0; j < n; ++j) ++r.count[bootstrap_index(stream(), n)];
        const std::span<double> qa(r.at_rank.data(), ranks.size()), qb(r.at_rank.data() + ranks.size(), ranks.size());
        order_statistics(a, order_a, r.count, ranks, qa);
        order_statistics(b, order_b, r.count, ranks, qb);
        for (const Type7& rule : rules) {
          const std::size_t lo = rank_at(rule.lo), hi = rank_at(rule.hi);
          block.d.push_back(rule(qa[lo], qa[hi]) - rule(qb[lo], qb[hi]));
        }
      },
      [&](std::span<const BootstrapBlock> wave) {
        for (const auto& block : wave) d.insert(d.end(), block.d.begin(), block.d.end());
      });

  std::vector<double> column(resamples);
  for (std::size_t l = 0; l < levels.size(); ++l) {
    for (std::uint64_t k = 0; k < resamples; ++k) column[k] = d[k * levels.size() + l];
    // The standard deviation in resample order, two passes, then the percentile interval.
    double sum = 0.0;
    for (const double v : column) sum += v;
    const double mean = sum / static_cast<double>(resamples);
    double m2 = 0.0;
    for (const double v : column) m2 += (v - mean) * (v - mean);
    auto& q = out.quantiles[l];
    q.stderr_ = resamples > 1 ? std::sqrt(m2 / (static_cast<double>(resamples) - 1.0)) : std::nan("");
    std::sort(column.begin(), column.end());
    q.ci_low = quantile_sorted(column, 0.025);
    q.ci_high = quantile_sorted(column, 0.975);
  }
  return out;
}

}  // namespace hetstruct::engine
