#include "engine/estimators/distribution.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/beta.hpp>

#include "distributions/format.h"
#include "distributions/input_error.h"
#include "engine/driver/blocks.h"
#include "engine/driver/resources.h"

namespace hetstruct::engine {

namespace {

std::string brief(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

// The two-sided normal quantile of a confidence level: 1.96 for 0.95.
double normal_z(double confidence) {
  return boost::math::quantile(boost::math::normal_distribution<double>(), 0.5 + confidence / 2.0);
}

}  // namespace

void DistributionOptions::validate() const {
  for (const double q : quantile_levels)
    if (!(q > 0.0 && q < 1.0))
      throw InputError("quantiles", "levels are strictly between 0 and 1, got " + brief(q), "the ends are min and max");
  for (std::size_t i = 0; i < quantile_levels.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (quantile_levels[i] == quantile_levels[j]) throw InputError("quantiles", brief(quantile_levels[i]) + " appears twice");
  // Each level names its columns (quantile_name): two levels of one name would be two CSV columns
  // and two JSON keys of that name, one answer read for the other.
  std::map<std::string, double> named;
  for (const double q : quantile_levels) {
    const auto [at, fresh] = named.emplace(quantile_name(q), q);
    if (!fresh)
      throw InputError("quantiles",
                       "levels " + distributions::format_exact(at->second) + " and " + distributions::format_exact(q) +
                           " both name the column " + at->first,
                       "give one of them");
  }
  for (const double t : deadlines)
    if (!std::isfinite(t)) throw InputError("deadline", "must be a finite number, got " + brief(t));
  if (histogram_bins > max_histogram_bins)
    throw InputError("histogram", "at most " + std::to_string(max_histogram_bins) + " bins, got " + std::to_string(histogram_bins));
}

void check_stored_makespans(std::uint64_t count, double copies, bool memory_check) {
  if (count > max_stored_makespans)
    throw InputError("reps", std::to_string(count) + " makespans to keep for the distribution, more than the limit " +
                                 std::to_string(max_stored_makespans),
                     "fewer replications, or leave out the quantiles, sd, deadline and histogram");
  if (memory_check)
    check_memory(static_cast<double>(count) * sizeof(double) * copies, "reps",
                 std::to_string(count) + " makespans kept for the distribution");
}

double quantile_sorted(std::span<const double> sorted, double level) {
  if (sorted.empty()) return std::nan("");
  const double h = (static_cast<double>(sorted.size()) - 1.0) * level;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

std::pair<std::int64_t, std::int64_t> quantile_ci_ranks(std::uint64_t n, double level, double confidence) {
  const double tail = (1.0 - confidence) / 2.0;
  const boost::math::binomial_distribution<double> b(static_cast<double>(n), level);
  const auto cdf = [&](std::int64_t k) { return k < 0 ? 0.0 : k >= static_cast<std::int64_t>(n) ? 1.0 : boost::math::cdf(b, static_cast<double>(k)); };
  // The largest k in [-1, n] with cdf(k) <= tail (cdf is non-decreasing; cdf(-1) = 0).
  std::int64_t lo = -1, hi = static_cast<std::int64_t>(n);
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (cdf(mid) <= tail) lo = mid;
    else hi = mid - 1;
  }
  const std::int64_t lower = lo;
  // The smallest k in [0, n] with cdf(k) >= 1 - tail (cdf(n) = 1).
  lo = 0;
  hi = static_cast<std::int64_t>(n);
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (cdf(mid) >= 1.0 - tail) hi = mid;
    else lo = mid + 1;
  }
  return {lower, lo};
}

std::pair<double, double> clopper_pearson(std::uint64_t k, std::uint64_t n, double confidence) {
  const double tail = (1.0 - confidence) / 2.0;
  const double kd = static_cast<double>(k), nd = static_cast<double>(n);
  const double low = k == 0 ? 0.0 : boost::math::ibeta_inv(kd, nd - kd + 1.0, tail);
  const double high = k == n ? 1.0 : boost::math::ibeta_inv(kd + 1.0, nd - kd, 1.0 - tail);
  return {low, high};
}

std::string quantile_name(double level) {
  if (level >= 1.0) return "q100";
  // Its decimals (q05, q50, q025, q0001), down to 1e-4, exactly: the shortest fixed-point text that
  // reads back to the level, so 0.3333333333333333 is q3333333333333333 beside 0.333333333333333's
  // q333333333333333, and 0.9999999999999999 is no longer q00 (once %.15g: both names shared one
  // text; a level that %.15g prints exactly gets the same name as then). Below 1e-4 the shortest
  // text, in exponent notation (q1e-05, q1e-300: they once shared "q00").
  if (level > 0.0 && level < 1e-4) return "q" + distributions::format_exact(level);
  char fixed[400];
  const auto end = std::to_chars(fixed, fixed + sizeof fixed, level, std::chars_format::fixed).ptr;
  const std::string text(fixed, end);
  const auto dot = text.find('.');
  std::string digits = dot == std::string::npos ? "0" : text.substr(dot + 1);
  if (digits.size() == 1) digits += '0';
  return "q" + digits;
}

Distribution describe_distribution(std::vector<double>& x, const DistributionOptions& options) {
  Distribution d;
  const std::uint64_t n = x.size();
  d.reps = n;
  d.sd_asked = options.sd;
  const double nd = static_cast<double>(n);
  const double undefined = std::nan("");
  // Moments in replication order, two passes: the same bits wherever the sample was computed.
  double sum = 0.0;
  for (const double v : x) sum += v;
  d.mean = n ? sum / nd : undefined;
  double m2 = 0.0, m4 = 0.0;
  for (const double v : x) {
    const double e = (v - d.mean) * (v - d.mean);
    m2 += e;
    m4 += e * e;
  }
  const double z = normal_z(0.95);
  d.sd = {undefined, undefined, undefined, undefined};
  if (n >= 2) {
    const double s2 = m2 / (nd - 1.0);
    d.sd.value = std::sqrt(s2);
    if (n >= 4 && s2 > 0.0) {
      const double var_s2 = (m4 / nd - s2 * s2 * (nd - 3.0) / (nd - 1.0)) / nd;
      d.sd.stderr_ = std::sqrt(std::max(var_s2, 0.0)) / (2.0 * d.sd.value);
      d.sd.ci_low = std::max(d.sd.value - z * d.sd.stderr_, 0.0);
      d.sd.ci_high = d.sd.value + z * d.sd.stderr_;
    } else if (n >= 4) {
      d.sd.stderr_ = d.sd.ci_low = d.sd.ci_high = 0.0;  // every makespan equal
    }
  }
  std::sort(x.begin(), x.end());
  const std::span<const double> sorted(x);

  for (const double level : options.quantile_levels) {
    QuantileEstimate q{level, quantile_sorted(sorted, level), undefined, undefined};
    const auto [lower, upper] = quantile_ci_ranks(n, level);
    if (lower >= 0) q.ci_low = sorted[static_cast<std::size_t>(lower)];
    if (upper < static_cast<std::int64_t>(n)) q.ci_high = sorted[static_cast<std::size_t>(upper)];
    d.quantiles.push_back(q);
  }

  for (const double t : options.deadlines) {
    DeadlineEstimate e;
    e.deadline = t;
    e.missed = static_cast<std::uint64_t>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), t));
    e.p = n ? static_cast<double>(e.missed) / nd : undefined;
    e.stderr_ = n ? std::sqrt(e.p * (1.0 - e.p) / nd) : undefined;
    std::tie(e.ci_low, e.ci_high) = n ? clopper_pearson(e.missed, n) : std::pair{undefined, undefined};
    d.deadlines.push_back(e);
  }

  if (options.histogram_bins > 0 && n > 0) {
    const std::uint64_t bins = options.histogram_bins;
    const double lo = sorted.front(), hi = sorted.back(), width = (hi - lo) / static_cast<double>(bins);
    const bool fit = std::isfinite(d.sd.value) && d.sd.value > 0.0;
    const boost::math::normal_distribution<double> normal(d.mean, fit ? d.sd.value : 1.0);
    auto below = sorted.begin();
    for (std::uint64_t i = 0; i < bins; ++i) {
      HistogramBin b;
      b.low = lo + static_cast<double>(i) * width;
      b.high = i + 1 == bins ? hi : lo + static_cast<double>(i + 1) * width;
      // [low, high), the last bin [low, high].
      const auto end = i + 1 == bins ? sorted.end() : std::lower_bound(below, sorted.end(), b.high);
      b.count = static_cast<std::uint64_t>(end - below);
      below = end;
      b.density = b.high > b.low ? static_cast<double>(b.count) / (nd * (b.high - b.low)) : undefined;
      b.cdf = static_cast<double>(end - sorted.begin()) / nd;
      b.normal_density = fit ? boost::math::pdf(normal, (b.low + b.high) / 2.0) : undefined;
      b.normal_cdf = fit ? boost::math::cdf(normal, b.high) : undefined;
      d.histogram.push_back(b);
    }
  }
  return d;
}

void run_sample_blocks(const Plan& plan, const RunOptions& options, BlockRange range,
                       const std::function<void(std::span<const SampleBlock>)>& sink) {
  const std::uint64_t seed = options.seed;
  compute_blocks<SampleBlock>(
      options, range, [&plan] { return Workspace(plan); },
      [&plan, seed](SampleBlock& block, std::uint64_t r, Workspace& ws) {
        const double x = evaluate(plan, seed, r, ws);
        block.stats.add(x);
        block.values.push_back(x);
      },
      sink);
}

Estimate run_sampled(const Plan& plan, const RunOptions& options, std::vector<double>& makespans, bool memory_check) {
  check_stored_makespans(options.reps, 1.0, memory_check);
  makespans.clear();
  makespans.reserve(options.reps);
  Accumulator total;
  run_sample_blocks(plan, options, BlockRange{0, block_count(options.reps)}, [&](std::span<const SampleBlock> wave) {
    for (const auto& b : wave) {
      total.merge(b.stats);
      makespans.insert(makespans.end(), b.values.begin(), b.values.end());
    }
  });
  return summarize(total);
}

}  // namespace hetstruct::engine
