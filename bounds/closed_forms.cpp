#include "bounds/closed_forms.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <boost/math/constants/constants.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/quadrature/gauss.hpp>
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

namespace {

// E[max] of independent variables given as runs of equal ones: a run has a cdf (run.cdf(x)), a
// support [lo, hi], the points where its integrand needs a cut, and a count. Runs share one cdf
// per point: a run of k multiplies the same value k times, the same bits as variable by variable,
// and a long run takes a power (10^6 processors would otherwise cost 10^6 cdfs per point).
template <class Run>
double expected_max_of_runs(const std::vector<Run>& runs) {
  double lo = runs[0].lo, hi = runs[0].hi;
  std::vector<double> cuts;
  for (const auto& run : runs) {
    lo = std::min(lo, run.lo);
    hi = std::max(hi, run.hi);
    cuts.insert(cuts.end(), run.cuts.begin(), run.cuts.end());
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
      const double f = run.cdf(x);
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

// A run of equal laws.
struct LawRun {
  const distributions::Law* law;
  std::size_t count;
  double lo, hi;
  std::vector<double> cuts;
  double cdf(double x) const { return law->cdf(x); }
};

// The sum of `levels` draws of one processor's law, for asynchronous_mean: a law where the sum
// has one (normal, constant), else a sum of uniforms through uniform_sum_cdf.
struct SumRun {
  std::optional<distributions::Law> law;  // the sum's own law (normal, gamma or constant)
  std::shared_ptr<const UniformSumCdf> sum;  // else terms draws of u(centre - half_width, centre + half_width)
  std::shared_ptr<const LawSumCdf> mixture;  // else terms draws of a mixture
  double centre = 0.0, half_width = 0.0;
  double mean = 0.0, sd = 0.0;  // a uniform's or a mixture's sum: its normal approximation, for the cuts
  int terms = 0;
  std::size_t count = 1;
  double lo = 0.0, hi = 0.0;
  std::vector<double> cuts;
  double cdf(double x) const {
    return law ? law->cdf(x) : mixture ? (*mixture)(x) : (*sum)((x - terms * centre) / half_width);
  }
};

// Cuts at a sum's mean + k sd, k = 0, +-1, +-2, +-3, +-4, +-6, +-8, within [lo, hi]: where the cdf
// of a sum that is nearly normal turns.
void add_sd_cuts(std::vector<double>& cuts, double mean, double sd, double lo, double hi) {
  for (const double k : {-8.0, -6.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0})
    cuts.push_back(std::clamp(mean + k * sd, lo, hi));
}

// The max of k draws lives where F^k rises from 0 to 1, a layer of width ~1/k that a first
// quadrature pass over the whole support misses for large k: cuts at quantiles of F^k, from
// `quantile` (F^-1), for runs of at least 64.
template <class Quantile>
void add_max_quantile_cuts(std::vector<double>& cuts, std::size_t count, Quantile quantile) {
  if (count < 64) return;
  for (const double q : {1e-4, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.9999})
    cuts.push_back(quantile(std::pow(q, 1.0 / static_cast<double>(count))));
}

}  // namespace

double expected_max(const std::vector<distributions::Law>& laws) {
  if (laws.empty()) throw InputError("expected_max", "needs at least one law");
  std::vector<LawRun> runs;
  for (const auto& law : laws) {
    if (!runs.empty() && *runs.back().law == law) ++runs.back().count;
    else runs.push_back({&law, 1, law.support().first, law.support().second, {}});
  }
  for (auto& run : runs) {
    const auto& law = *run.law;
    // Kinks, point masses, and points (a normal's mean +- a few sd, a long tail's quantiles)
    // that keep narrow bumps and long tails from being missed.
    run.cuts = law.quadrature_cuts();
    add_max_quantile_cuts(run.cuts, run.count, [&](double p) { return quantile(law, p, run.lo, run.hi); });
  }
  return expected_max_of_runs(runs);
}

UniformSumCdf::UniformSumCdf(int terms) : terms_(terms) {
  if (terms < 1) throw InputError("levels", "a sum needs at least one term");
  if (terms <= 12) return;  // the Irwin-Hall formula
  // Gil-Pelaez: F(u) = 1/2 + (1/pi) integral_0^inf sin(s u) phi(s) / s ds with phi(s) = (sin s /
  // s)^terms, the real, even characteristic function of the sum of u(-1,1). On [0, pi],
  // sin s / s <= exp(-s^2/6), so phi is below 1e-17 past sqrt(6 * 39.2 / terms); beyond pi,
  // |phi| <= s^-terms, below 1e-17 from terms >= 35 on, else past 10^(17/terms). The cdf is only
  // asked where it is not 0 or 1 to 1e-17 (|u| <= 8.9 sqrt(terms), Hoeffding), where sin(s u)
  // makes at most ~22 turns over [0, end] for terms >= 35: fixed Gauss-Legendre panels resolve it,
  // and the weights w phi(s) / (pi s) are computed once, so an evaluation is one sine a node.
  const bool long_sum = terms >= 35;
  const double end = long_sum ? std::sqrt(240.0 / terms) : std::pow(10.0, 17.0 / terms);
  const int panels = long_sum ? 24 : 200;
  using GL = boost::math::quadrature::gauss<double, 20>;
  const double pi = boost::math::constants::pi<double>();
  const double width = end / panels;
  for (int k = 0; k < panels; ++k) {
    const double mid = (k + 0.5) * width, half = width / 2.0;
    for (std::size_t i = 0; i < GL::abscissa().size(); ++i)
      for (const double sign : {-1.0, 1.0}) {
        const double s = mid + sign * half * GL::abscissa()[i];
        const double phi = std::pow(std::sin(s) / s, terms);
        node_.push_back(s);
        weight_.push_back(half * GL::weights()[i] * phi / (pi * s));
      }
  }
}

double UniformSumCdf::operator()(double u) const {
  const int n = terms_;
  if (u <= -n) return 0.0;
  if (u >= n) return 1.0;
  // Hoeffding: P(|V_1 + ... + V_n| >= u) <= 2 exp(-u^2 / (2n)) < 1e-17 beyond this.
  if (u * u > 80.0 * n) return u < 0.0 ? 0.0 : 1.0;
  if (n <= 12) {
    // Irwin-Hall: y = (u + n)/2 is a sum of n u(0,1); on the lower half (by symmetry) the
    // alternating sum loses at most ~1e-12 at 12 terms.
    const double y = (u + n) / 2.0;
    const bool upper = y > n / 2.0;
    const double z = upper ? n - y : y;
    double sum = 0.0, binomial = 1.0, factorial = 1.0;
    for (int k = 1; k <= n; ++k) factorial *= k;
    for (int k = 0; k <= static_cast<int>(std::floor(z)); ++k) {
      sum += (k % 2 == 0 ? 1.0 : -1.0) * binomial * std::pow(z - k, n);
      binomial = binomial * (n - k) / (k + 1);
    }
    const double f = std::clamp(sum / factorial, 0.0, 1.0);
    return upper ? 1.0 - f : f;
  }
  double integral = 0.0;
  for (std::size_t j = 0; j < node_.size(); ++j) integral += weight_[j] * std::sin(node_[j] * u);
  return std::clamp(0.5 + integral, 0.0, 1.0);
}

namespace {

// E e^{itX} for a leaf X (its scale applied), or nothing for a leaf without a closed form here.
std::optional<std::complex<double>> leaf_characteristic(const distributions::Leaf& l, double t) {
  using distributions::LeafKind;
  using C = std::complex<double>;
  const double u = t * l.scale;  // X = scale Y: phi_X(t) = phi_Y(scale t)
  switch (l.kind) {
    case LeafKind::uniform: {
      const double centre = 0.5 * (l.first + l.second), half = 0.5 * (l.second - l.first);
      const double x = u * half;
      return std::polar(std::abs(x) < 1e-8 ? 1.0 - x * x / 6.0 : std::sin(x) / x, u * centre);
    }
    case LeafKind::normal: return std::polar(std::exp(-0.5 * l.second * u * u), u * l.first);
    case LeafKind::constant: return std::polar(1.0, u * l.first);
    case LeafKind::exponential: return 1.0 / C(1.0, -u * l.first);
    case LeafKind::gamma: return std::exp(-l.first * std::log(C(1.0, -u * l.second)));
    default: return std::nullopt;
  }
}

// E e^{itX} of a law (its components weighted), or nothing.
std::optional<std::complex<double>> law_characteristic(const distributions::Law& law, double t) {
  std::complex<double> phi = 0.0;
  for (const auto& c : law.components()) {
    const auto leaf = leaf_characteristic(c.leaf, t);
    if (!leaf) return std::nullopt;
    phi += c.weight * *leaf;
  }
  return phi;
}

}  // namespace

LawSumCdf::LawSumCdf(const distributions::Law& law, int terms) {
  if (terms < 1) throw InputError("levels", "a sum needs at least one term");
  const double variance = law.variance();
  mean_ = terms * law.mean();
  sd_ = std::sqrt(terms * variance);
  if (!(variance > 0.0) || !law_characteristic(law, 0.0)) return;
  const double mu = law.mean(), p = terms;
  // psi(s) = (e^{-is mu / sd} phi(s / sd))^terms, raised in polar form (terms is an integer).
  auto psi = [&](double s) {
    const std::complex<double> centred = std::polar(1.0, -s * mu / sd_) * *law_characteristic(law, s / sd_);
    const double r = std::abs(centred);
    return r == 0.0 ? std::complex<double>(0.0) : std::polar(std::exp(p * std::log(r)), p * std::arg(centred));
  };
  // The last scanned point where |psi| >= 1e-17; past 60 the tail is not negligible soon enough.
  constexpr double step = 0.05, limit = 60.0, negligible = 1e-17;
  double end = 0.0;
  for (double s = step; s <= limit; s += step)
    if (std::abs(psi(s)) >= negligible) end = s;
  if (end > limit - 1.0) return;
  end += 0.5;
  // Panels of 0.2: where the cdf is asked (|u| <= 40), sin(su) turns at most 8 radians a panel,
  // which 20 Gauss-Legendre points integrate to ~1e-16.
  using GL = boost::math::quadrature::gauss<double, 20>;
  const double pi = boost::math::constants::pi<double>();
  const int panels = static_cast<int>(std::ceil(end / 0.2));
  const double width = end / panels, half = width / 2.0;
  for (int k = 0; k < panels; ++k) {
    const double mid = (k + 0.5) * width;
    for (std::size_t i = 0; i < GL::abscissa().size(); ++i)
      for (const double sign : {-1.0, 1.0}) {
        if (GL::abscissa()[i] == 0.0 && sign > 0.0) continue;  // the middle node once (odd orders)
        const double s = mid + sign * half * GL::abscissa()[i];
        const std::complex<double> v = psi(s);
        const double w = half * GL::weights()[i] / (pi * s);
        node_.push_back(s);
        sin_weight_.push_back(w * v.real());
        cos_weight_.push_back(w * v.imag());
      }
  }
  usable_ = true;
}

double LawSumCdf::operator()(double x) const {
  if (!usable_) throw std::logic_error("LawSumCdf: not usable for this law");
  const double u = (x - mean_) / sd_;
  // Past 40 standard units the cdf is 0 or 1 to far below 1e-17 for the sums this serves
  // (psi decays to 1e-17 within 60 units, so the sum is close to normal).
  if (u < -40.0) return 0.0;
  if (u > 40.0) return 1.0;
  double f = 0.5;
  for (std::size_t k = 0; k < node_.size(); ++k) {
    const double su = node_[k] * u;
    f += std::sin(su) * sin_weight_[k] - std::cos(su) * cos_weight_[k];
  }
  return std::clamp(f, 0.0, 1.0);
}

double uniform_sum_cdf(int terms, double centre, double half_width, double x) {
  const UniformSumCdf sum(terms);  // checks terms >= 1
  if (!(half_width > 0.0)) return x < terms * centre ? 0.0 : 1.0;
  // In units of the half width: S - terms*centre = half_width * (V_1 + ... + V_terms), V ~ u(-1,1).
  return sum((x - terms * centre) / half_width);
}

double synchronous_mean(const std::vector<distributions::Law>& processor_laws, int levels) {
  return levels * expected_max(processor_laws);
}

AsynchronousMean asynchronous_mean(const std::vector<distributions::Law>& processor_laws, int levels) {
  if (processor_laws.empty()) throw InputError("expected_max", "needs at least one law");
  if (levels < 1) throw InputError("levels", "the structure needs at least one level");
  // Each processor's sum: exact for a normal, gamma, uniform or constant leaf (any scale) or a
  // mixture with a usable LawSumCdf, else the normal approximation with the sum's mean and
  // variance (Wilson's [7]), flagged as such.
  AsynchronousMean result{0.0, true, "normal_exact"};
  bool inverted = false, normal = false, gamma = false;
  std::shared_ptr<const UniformSumCdf> uniform_sum;  // one table of nodes serves every uniform sum
  std::vector<SumRun> runs;
  for (std::size_t i = 0; i < processor_laws.size(); ++i) {
    const auto& law = processor_laws[i];
    if (i > 0 && law == processor_laws[i - 1]) {  // equal laws, equal sums: one run
      ++runs.back().count;
      continue;
    }
    const double mean = levels * law.mean(), variance = levels * law.variance();
    const auto kind = law.is_leaf() ? std::optional(law.components()[0].leaf.kind) : std::nullopt;
    SumRun run;
    if (variance > 0.0 && kind == distributions::LeafKind::uniform) {
      inverted = true;
      if (!uniform_sum) uniform_sum = std::make_shared<const UniformSumCdf>(levels);
      run.sum = uniform_sum;
      run.terms = levels;
      run.centre = law.mean();
      run.half_width = std::sqrt(3.0 * law.variance());
      run.lo = levels * (run.centre - run.half_width);
      run.hi = levels * (run.centre + run.half_width);
      run.mean = levels * run.centre;
      run.sd = std::sqrt(levels / 3.0) * run.half_width;
      add_sd_cuts(run.cuts, mean, std::sqrt(variance), run.lo, run.hi);
    } else if (variance > 0.0 && (kind == distributions::LeafKind::gamma || kind == distributions::LeafKind::exponential)) {
      // A sum of gammas of one scale is a gamma: shape levels k (an exponential's k is 1).
      gamma = true;
      const auto& leaf = law.components()[0].leaf;
      run.law = kind == distributions::LeafKind::gamma ? distributions::Law::gamma(levels * leaf.first, leaf.scale * leaf.second)
                                                       : distributions::Law::gamma(levels, leaf.scale * leaf.first);
      run.lo = run.law->support().first;
      run.hi = run.law->support().second;
      run.cuts = run.law->quadrature_cuts();
    } else if (auto mixture = variance > 0.0 && !law.is_leaf() ? std::make_shared<const LawSumCdf>(law, levels) : nullptr;
               mixture && mixture->usable()) {
      inverted = true;  // a characteristic function inverted
      const double sd = mixture->sd();
      run.mean = mixture->mean();
      run.sd = sd;
      const auto [lo, hi] = law.support();
      run.lo = std::max(levels * lo, mean - 40.0 * sd);
      run.hi = std::min(levels * hi, mean + 40.0 * sd);
      run.mixture = std::move(mixture);
      add_sd_cuts(run.cuts, mean, sd, run.lo, run.hi);
    } else {
      if (variance > 0.0 && kind != distributions::LeafKind::normal) result.exact = false;
      normal = normal || variance > 0.0;
      run.law = variance > 0.0 ? distributions::Law::normal(mean, variance) : distributions::Law::constant(mean);
      run.lo = run.law->support().first;
      run.hi = run.law->support().second;
      run.cuts = run.law->quadrature_cuts();
    }
    runs.push_back(std::move(run));
  }
  if (!result.exact && levels == 1) return {expected_max(processor_laws), true, "quadrature"};  // the laws themselves
  // Cuts at quantiles of F^k for long runs, as expected_max makes them (for a uniform sum or a
  // mixture's from its normal approximation: they only say where to cut).
  for (auto& run : runs) {
    if (run.law) {
      add_max_quantile_cuts(run.cuts, run.count, [&](double p) { return quantile(*run.law, p, run.lo, run.hi); });
    } else {
      const boost::math::normal_distribution<double> normal(run.mean, run.sd);
      add_max_quantile_cuts(run.cuts, run.count,
                            [&](double p) { return std::clamp(boost::math::quantile(normal, p), run.lo, run.hi); });
    }
  }
  result.value = expected_max_of_runs(runs);
  if (!result.exact) result.method = "normal_approx";
  else if (inverted) result.method = "cf_inversion";
  else if (gamma) result.method = "gamma_exact";
  else if (!normal) result.method = "constant";  // every time is constant: so is every sum
  return result;
}

}  // namespace hetstruct::bounds
