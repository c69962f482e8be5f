#include "bounds/closed_forms.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <boost/math/quadrature/gauss_kronrod.hpp>

#include "distributions/input_error.h"

namespace hetstruct::bounds {

namespace {

void require_uniform_model(int n, int m, double a) {
  if (n < 1) throw InputError("width", "the width must be at least 1");
  if (m < 0 || m > n) throw InputError("fast_count", "the fast count must be between 0 and the width");
  if (!(a > 0.0)) throw InputError("scale", "the scale must be > 0");
}

}  // namespace

double uniform_max_cdf(int n, int m, double a, double z) {
  require_uniform_model(n, m, a);
  if (a > 1.0) throw InputError("scale", "Eq. 1 holds for 0 < a <= 1");
  if (z <= 0.0) return 0.0;
  if (z >= 1.0 && z >= a) return 1.0;
  if (z < a) return std::pow(1.0 / a, m) * std::pow(z, n);
  return std::pow(z, n - m);
}

double uniform_max_pdf(int n, int m, double a, double z) {
  require_uniform_model(n, m, a);
  if (a > 1.0) throw InputError("scale", "Eq. 2 holds for 0 < a <= 1");
  if (z <= 0.0 || (z >= 1.0 && z >= a)) return 0.0;
  if (z < a) return n * std::pow(1.0 / a, m) * std::pow(z, n - 1);
  return (n - m) * std::pow(z, n - m - 1);
}

double uniform_max_mean(int n, int m, double a) {
  require_uniform_model(n, m, a);
  if (a > 1.0) {
    // max(m of u(0,a), n-m of u(0,1)) = a * max(n-m of u(0,1/a), m of u(0,1)).
    return a * uniform_max_mean(n, n - m, 1.0 / a);
  }
  // The third line of Eq. 3, which stays finite at m = n (where the last line divides by n - m).
  const double k = n - m;
  const double ak = std::pow(a, k + 1.0);
  return (static_cast<double>(n) / (n + 1.0)) * ak + (k / (k + 1.0)) * (1.0 - ak);
}

double uniform_max_mean_approx(int n, int m) {
  require_uniform_model(n, m, 1.0);
  const double k = n - m;
  return k / (k + 1.0);
}

double homogeneous_uniform_max_mean(int n) {
  require_uniform_model(n, 0, 1.0);
  return n / (n + 1.0);
}

double synchronous_uniform_mean(int n, int m, double a, int levels) {
  return levels * uniform_max_mean(n, m, a);
}

double synchronous_uniform_mean_approx(int n, int m, int levels) {
  return levels * uniform_max_mean_approx(n, m);
}

namespace {

// F^-1(p) by bisection of the cdf over [lo, hi].
double quantile(const distributions::Law& law, double p, double lo, double hi) {
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (law.cdf(mid) < p ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2;
}

}  // namespace

double expected_max(const std::vector<distributions::Law>& laws) {
  if (laws.empty()) throw InputError("expected_max", "needs at least one law");
  // Runs of equal laws (Wilson's n - m and m processors) share one cdf per point: a run of k
  // multiplies the same value k times, the same bits as law by law, and a long run takes a power
  // (10^6 processors would otherwise cost 10^6 cdfs per quadrature point).
  struct Run {
    const distributions::Law* law;
    std::size_t count;
  };
  std::vector<Run> runs;
  for (const auto& law : laws) {
    if (!runs.empty() && *runs.back().law == law) ++runs.back().count;
    else runs.push_back({&law, 1});
  }
  double lo = laws[0].support().first, hi = laws[0].support().second;
  std::vector<double> cuts;
  for (const auto& run : runs) {
    const auto& law = *run.law;
    const auto [a, b] = law.support();
    lo = std::min(lo, a);
    hi = std::max(hi, b);
    // Kinks, point masses, and points (a normal's mean +- a few sd, a long tail's quantiles)
    // that keep narrow bumps and long tails from being missed.
    const auto pts = law.quadrature_cuts();
    cuts.insert(cuts.end(), pts.begin(), pts.end());
    // The max of k draws lives where F^k rises from 0 to 1, a layer of width ~1/k that a first
    // quadrature pass over the whole support misses for large k: cut at quantiles of F^k.
    if (run.count >= 64)
      for (const double q : {1e-4, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.9999})
        cuts.push_back(quantile(law, std::pow(q, 1.0 / static_cast<double>(run.count)), a, b));
  }
  cuts.push_back(lo);
  cuts.push_back(hi);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());

  // E[max] = lo + integral_lo^hi P(max > x) dx, for a max whose support lies in [lo, hi].
  constexpr std::size_t longest_product = 1024;
  auto survival = [&](double x) {
    double g = 1.0;
    for (const auto& run : runs) {
      const double f = run.law->cdf(x);
      if (run.count > longest_product) {
        g *= std::pow(f, static_cast<double>(run.count));
        continue;
      }
      for (std::size_t k = 0; k < run.count; ++k) g *= f;
    }
    return 1.0 - g;
  };
  // The tolerance is 1e-13 of the whole integral, not of each piece: boost's tolerance is relative
  // to the piece's own value, which in a normal tail (value ~1e-6, integrand 1 - prod F rounded to
  // ~1e-16) is below the rounding noise and made the quadrature split to max_depth (2^15 pieces per
  // tail). A first, non-adaptive pass estimates each piece; each piece's relative tolerance is then
  // scaled so that it asks for 1e-13 of the total.
  using GK = boost::math::quadrature::gauss_kronrod<double, 31>;
  std::vector<std::pair<double, double>> pieces;
  std::vector<double> rough;
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    const double a = std::max(cuts[i], lo), b = std::min(cuts[i + 1], hi);
    if (!(b > a)) continue;
    pieces.emplace_back(a, b);
    rough.push_back(GK::integrate(survival, a, b, 0));
    total += std::abs(rough.back());
  }
  double integral = 0.0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const double tol = rough[i] == 0.0 ? 1.0 : 1e-13 * total / std::abs(rough[i]);
    integral += GK::integrate(survival, pieces[i].first, pieces[i].second, 15, tol);
  }
  return lo + integral;
}

double synchronous_mean(const std::vector<distributions::Law>& processor_laws, int levels) {
  return levels * expected_max(processor_laws);
}

AsynchronousMean asynchronous_mean(const std::vector<distributions::Law>& processor_laws, int levels) {
  bool exact = true;
  std::vector<distributions::Law> sums;
  for (const auto& law : processor_laws) {
    exact = exact && law.is_leaf() && law.components()[0].leaf.kind == distributions::LeafKind::normal;
    const double variance = levels * law.variance();
    sums.push_back(variance > 0.0 ? distributions::Law::normal(levels * law.mean(), variance)
                                  : distributions::Law::constant(levels * law.mean()));
  }
  return {expected_max(sums), exact};
}

}  // namespace hetstruct::bounds
