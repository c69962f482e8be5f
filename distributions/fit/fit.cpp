#include "distributions/fit/fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <numeric>

#include <Random123/philox.h>
#include <boost/math/distributions/exponential.hpp>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/weibull.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/tools/roots.hpp>
#include <tbb/parallel_for.h>

#include "distributions/input_error.h"
#include "distributions/tsan.h"

namespace hetstruct::distributions::fit {

namespace {

namespace bm = boost::math;
using Normal = bm::normal_distribution<double>;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::string g17(double x) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

double mean_of(std::span<const double> xs) { return std::accumulate(xs.begin(), xs.end(), 0.0) / xs.size(); }

// The mean and the variance (divisor n), two passes.
std::pair<double, double> moments(std::span<const double> xs) {
  const double m = mean_of(xs);
  double v = 0.0;
  for (double x : xs) v += (x - m) * (x - m);
  return {m, v / xs.size()};
}

std::vector<double> logs_of(std::span<const double> xs) {
  std::vector<double> out(xs.size());
  std::transform(xs.begin(), xs.end(), out.begin(), [](double x) { return std::log(x); });
  return out;
}

// The root of a monotone f between lo and hi, to full double precision.
template <class F>
double solve(F f, double lo, double hi) {
  std::uintmax_t iterations = 500;
  const auto [a, b] = bm::tools::toms748_solve(f, lo, hi, bm::tools::eps_tolerance<double>(52), iterations);
  return 0.5 * (a + b);
}

// [lo, hi] around `guess` where the decreasing (or increasing) f changes sign, by doubling.
template <class F>
double solve_from(F f, double guess) {
  double lo = guess, hi = guess;
  const double f0 = f(guess);
  if (f0 == 0.0) return guess;
  const bool rising = f(guess * 2.0) > f0;
  const bool go_up = rising ? f0 < 0.0 : f0 > 0.0;
  for (int i = 0; i < 2000; ++i) {
    if (go_up) lo = hi, hi *= 2.0; else hi = lo, lo /= 2.0;
    if ((f(lo) > 0.0) != (f(hi) > 0.0)) return solve(f, lo, hi);
  }
  throw InputError("laws", "the likelihood equation has no root near " + g17(guess));
}

FittedLaw fit_gamma(std::span<const double> xs) {
  const double m = mean_of(xs), logs = mean_of(logs_of(xs));
  const double s = std::max(std::log(m) - logs, 1e-300);
  const auto f = [s](double k) { return std::log(k) - bm::digamma(k) - s; };  // decreasing
  const double guess = (3.0 - s + std::sqrt((s - 3.0) * (s - 3.0) + 24.0 * s)) / (12.0 * s);
  const double k = solve_from(f, guess);
  return {Family::gamma, k, m / k, {}, {}, {}};
}

FittedLaw fit_weibull(std::span<const double> xs) {
  const double top = *std::max_element(xs.begin(), xs.end());
  std::vector<double> ys(xs.size());
  std::transform(xs.begin(), xs.end(), ys.begin(), [top](double x) { return x / top; });
  const std::vector<double> logy = logs_of(ys);
  const double mean_log = mean_of(logy);
  const auto f = [&](double k) {  // increasing in k
    double a = 0.0, b = 0.0;
    for (std::size_t i = 0; i < ys.size(); ++i) {
      const double p = std::pow(ys[i], k);
      a += p * logy[i];
      b += p;
    }
    return a / b - 1.0 / k - mean_log;
  };
  const auto [ml, vl] = moments(logy);
  const double k = solve_from(f, 1.2825 / std::sqrt(std::max(vl, 1e-300)));
  double sum = 0.0;
  for (double y : ys) sum += std::pow(y, k);
  return {Family::weibull, k, top * std::pow(sum / ys.size(), 1.0 / k), {}, {}, {}};
}

// lambda(t) = phi(t) / Phi(t): the truncated normal's mean shift in sd.
double inverse_mills(double t) {
  const Normal z;
  return bm::pdf(z, t) / bm::cdf(z, t);
}

FittedLaw fit_tn(std::span<const double> xs) {
  const auto [m, v] = moments(xs);
  const double c = v / (m * m);
  const auto f = [c](double t) {  // decreasing in t
    const double l = inverse_mills(t);
    return (1.0 - t * l - l * l) / ((t + l) * (t + l)) - c;
  };
  // Below t = -32 Phi(t) is too small for lambda to keep its digits: the maximum lies beyond.
  double lo = -1.0, hi = 1.0;
  while (f(lo) < 0.0 && lo > -32.0) lo *= 2.0;
  while (f(hi) > 0.0 && hi < 1e12) hi *= 2.0;
  if (!(f(lo) >= 0.0) || !(f(hi) <= 0.0))
    throw InputError("laws", "tn: the likelihood's maximum lies beyond mean/sd = -32 (the runs are nearly exponential)");
  const double t = solve(f, lo, hi);
  const double sd = m / (t + inverse_mills(t));
  return {Family::tn, t * sd, sd * sd, {}, {}, {}};
}

double mixture_log_pdf_of_log(const FittedLaw& law, double y) {
  // log sum_j w_j phi((y - mu_j) / s_j) / s_j, by log-sum-exp.
  double top = -std::numeric_limits<double>::infinity();
  std::vector<double> terms(law.weights.size());
  for (std::size_t j = 0; j < terms.size(); ++j) {
    const double z = (y - law.mus[j]) / law.sigmas[j];
    terms[j] = std::log(law.weights[j]) - std::log(law.sigmas[j]) - 0.5 * z * z - 0.5 * std::log(2.0 * std::numbers::pi);
    top = std::max(top, terms[j]);
  }
  double sum = 0.0;
  for (double t : terms) sum += std::exp(t - top);
  return top + std::log(sum);
}

FittedLaw fit_mixture(std::span<const double> xs, std::size_t K) {
  std::vector<double> ys = logs_of(xs);
  std::sort(ys.begin(), ys.end());
  const std::size_t n = ys.size();
  const double floor = 0.1 * std::sqrt(std::max(moments(ys).second, 1e-300));
  FittedLaw law{K == 2 ? Family::lognormal_mix2 : Family::lognormal_mix3, 0, 0, {}, {}, {}};
  for (std::size_t j = 0; j < K; ++j) {
    const std::span<const double> block(ys.data() + j * n / K, (j + 1) * n / K - j * n / K);
    const auto [m, v] = moments(block);
    law.weights.push_back(1.0 / K);
    law.mus.push_back(m);
    law.sigmas.push_back(std::max(std::sqrt(v), floor));
  }
  std::vector<double> r(n * K);
  double previous = -std::numeric_limits<double>::infinity();
  for (int step = 0; step < 5000; ++step) {
    double loglik = 0.0;
    for (std::size_t i = 0; i < n; ++i) {  // E step: the responsibilities
      const double total = mixture_log_pdf_of_log(law, ys[i]);
      loglik += total;
      for (std::size_t j = 0; j < K; ++j) {
        const double z = (ys[i] - law.mus[j]) / law.sigmas[j];
        r[i * K + j] = std::exp(std::log(law.weights[j]) - std::log(law.sigmas[j]) - 0.5 * z * z -
                                0.5 * std::log(2.0 * std::numbers::pi) - total);
      }
    }
    if (std::abs(loglik - previous) <= 1e-12 * std::abs(loglik)) break;
    previous = loglik;
    for (std::size_t j = 0; j < K; ++j) {  // M step
      double w = 0.0, sy = 0.0;
      for (std::size_t i = 0; i < n; ++i) w += r[i * K + j], sy += r[i * K + j] * ys[i];
      if (!(w > 0.0)) continue;
      const double mu = sy / w;
      double ss = 0.0;
      for (std::size_t i = 0; i < n; ++i) ss += r[i * K + j] * (ys[i] - mu) * (ys[i] - mu);
      law.weights[j] = w / n, law.mus[j] = mu, law.sigmas[j] = std::max(std::sqrt(ss / w), floor);
    }
    const double total = std::accumulate(law.weights.begin(), law.weights.end(), 0.0);
    for (double& w : law.weights) w /= total;
  }
  return law;
}

// A uniform in (0, 1) from 53 bits of a 64-bit word.
double unit(std::uint64_t word) { return (static_cast<double>(word >> 11) + 0.5) * 0x1p-53; }

// The n values of bootstrap sample b, by inversion.
std::vector<double> bootstrap_sample(const FittedLaw& law, std::size_t n, std::uint64_t seed, std::uint64_t group,
                                     std::uint64_t b) {
  const r123::Philox4x64::key_type key = {{seed, group}};
  const bool mixture = !law.weights.empty();
  std::vector<std::uint64_t> words;
  const std::size_t needed = mixture ? 2 * n : n;
  for (std::uint64_t j = 0; words.size() < needed; ++j) {
    const r123::Philox4x64::ctr_type counter = {{static_cast<std::uint64_t>(law.family), b, j, 0}};
    const auto block = r123::Philox4x64()(counter, key);
    words.insert(words.end(), block.v, block.v + 4);
  }
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!mixture) {
      out[i] = law.quantile(unit(words[i]));
      continue;
    }
    const double u = unit(words[2 * i]);
    std::size_t c = 0;
    for (double acc = law.weights[0]; c + 1 < law.weights.size() && u > acc; acc += law.weights[++c]) {}
    out[i] = bm::quantile(bm::lognormal_distribution<double>(law.mus[c], law.sigmas[c]), unit(words[2 * i + 1]));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

const char* name_of(Family family) {
  switch (family) {
    case Family::exp: return "exp";
    case Family::gamma: return "gamma";
    case Family::lognormal: return "lognormal";
    case Family::weibull: return "weibull";
    case Family::normal: return "normal";
    case Family::tn: return "tn";
    case Family::lognormal_mix2: return "lognormal-mix2";
    case Family::lognormal_mix3: return "lognormal-mix3";
  }
  return "";
}

Family parse_family(const std::string& name) {
  for (Family f : all_families)
    if (name == name_of(f)) return f;
  throw InputError("laws", "unknown law '" + name + "'",
                   "one of exp,gamma,lognormal,weibull,normal,tn,lognormal-mix2,lognormal-mix3");
}

std::vector<Family> parse_families(const std::string& list) {
  std::vector<Family> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = list.find(',', start);
    const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) throw InputError("laws", "an empty name in '" + list + "'");
    const Family f = parse_family(item);
    if (std::find(out.begin(), out.end(), f) != out.end()) throw InputError("laws", "'" + item + "' given twice");
    out.push_back(f);
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

int FittedLaw::parameters() const {
  if (family == Family::exp) return 1;
  if (!weights.empty()) return 3 * static_cast<int>(weights.size()) - 1;
  return 2;
}

namespace {

// The tn law's parent normal and the mass it keeps above 0.
struct Truncated {
  Normal parent;
  double kept;
};
Truncated truncated(const FittedLaw& law) {
  const Normal parent(law.p1, std::sqrt(law.p2));
  return {parent, bm::cdf(bm::complement(parent, 0.0))};
}

template <class F>
double over_single(const FittedLaw& law, F f) {
  switch (law.family) {
    case Family::exp: return f(bm::exponential_distribution<double>(1.0 / law.p1));
    case Family::gamma: return f(bm::gamma_distribution<double>(law.p1, law.p2));
    case Family::lognormal: return f(bm::lognormal_distribution<double>(law.p1, law.p2));
    case Family::weibull: return f(bm::weibull_distribution<double>(law.p1, law.p2));
    default: return f(Normal(law.p1, std::sqrt(law.p2)));
  }
}

}  // namespace

double FittedLaw::cdf(double x) const {
  if (!weights.empty()) {
    double s = 0.0;
    for (std::size_t j = 0; j < weights.size(); ++j)
      s += weights[j] * (x > 0.0 ? bm::cdf(bm::lognormal_distribution<double>(mus[j], sigmas[j]), x) : 0.0);
    return s;
  }
  if (family == Family::tn) {
    const Truncated t = truncated(*this);
    return x <= 0.0 ? 0.0 : (bm::cdf(t.parent, x) - bm::cdf(t.parent, 0.0)) / t.kept;
  }
  if (family != Family::normal && x <= 0.0) return 0.0;
  return over_single(*this, [x](const auto& d) { return bm::cdf(d, x); });
}

double FittedLaw::survival(double x) const {
  if (!weights.empty()) {
    double s = 0.0;
    for (std::size_t j = 0; j < weights.size(); ++j)
      s += weights[j] *
           (x > 0.0 ? bm::cdf(bm::complement(bm::lognormal_distribution<double>(mus[j], sigmas[j]), x)) : 1.0);
    return s;
  }
  if (family == Family::tn) {
    const Truncated t = truncated(*this);
    return x <= 0.0 ? 1.0 : bm::cdf(bm::complement(t.parent, x)) / t.kept;
  }
  if (family != Family::normal && x <= 0.0) return 1.0;
  return over_single(*this, [x](const auto& d) { return bm::cdf(bm::complement(d, x)); });
}

double FittedLaw::log_pdf(double x) const {
  if (!weights.empty()) return x > 0.0 ? mixture_log_pdf_of_log(*this, std::log(x)) - std::log(x) : -INFINITY;
  if (family == Family::tn) {
    const Truncated t = truncated(*this);
    return x < 0.0 ? -INFINITY : std::log(bm::pdf(t.parent, x)) - std::log(t.kept);
  }
  if (family == Family::normal) {
    const double z = (x - p1) / std::sqrt(p2);
    return -0.5 * z * z - 0.5 * std::log(2.0 * std::numbers::pi * p2);
  }
  if (x < 0.0 || (x == 0.0 && family != Family::exp)) return -INFINITY;
  if (family == Family::lognormal) {
    const double z = (std::log(x) - p1) / p2;
    return -0.5 * z * z - std::log(p2 * x) - 0.5 * std::log(2.0 * std::numbers::pi);
  }
  return over_single(*this, [x](const auto& d) { return std::log(bm::pdf(d, x)); });
}

double FittedLaw::quantile(double p) const {
  if (!weights.empty()) {
    const auto f = [&](double x) { return cdf(x) - p; };
    double hi = 0.0;
    for (std::size_t j = 0; j < weights.size(); ++j)
      hi = std::max(hi, bm::quantile(bm::lognormal_distribution<double>(mus[j], sigmas[j]), p));
    double lo = hi;
    for (std::size_t j = 0; j < weights.size(); ++j)
      lo = std::min(lo, bm::quantile(bm::lognormal_distribution<double>(mus[j], sigmas[j]), p));
    if (lo == hi) return lo;
    return solve(f, lo, hi);
  }
  if (family == Family::tn) {
    const Truncated t = truncated(*this);
    // The p quantile of the part above 0: its survival is (1 - p) of the kept mass.
    return bm::quantile(bm::complement(t.parent, (1.0 - p) * t.kept));
  }
  return over_single(*this, [p](const auto& d) { return bm::quantile(d, p); });
}

double FittedLaw::mean() const {
  if (!weights.empty()) {
    double m = 0.0;
    for (std::size_t j = 0; j < weights.size(); ++j) m += weights[j] * std::exp(mus[j] + 0.5 * sigmas[j] * sigmas[j]);
    return m;
  }
  if (family == Family::tn) {
    const double sd = std::sqrt(p2);
    return p1 + sd * inverse_mills(p1 / sd);
  }
  if (family == Family::normal) return p1;
  return over_single(*this, [](const auto& d) { return bm::mean(d); });
}

std::string FittedLaw::text() const {
  switch (family) {
    case Family::exp: return "exp(" + g17(p1) + ")";
    case Family::gamma: return "gamma(" + g17(p1) + "," + g17(p2) + ")";
    case Family::lognormal: return "lognormal(" + g17(p1) + "," + g17(p2) + ")";
    case Family::weibull: return "weibull(" + g17(p1) + "," + g17(p2) + ")";
    case Family::normal: return "n(" + g17(p1) + "," + g17(p2) + ")";
    case Family::tn: return "tn(" + g17(p1) + "," + g17(p2) + ")";
    default: break;
  }
  std::string s = "mix(";
  for (std::size_t j = 0; j < weights.size(); ++j) {
    if (j) s += ',';
    s += g17(weights[j]);
    s += ":lognormal(" + g17(mus[j]) + "," + g17(sigmas[j]) + ")";
  }
  return s + ")";
}

std::optional<std::string> unfittable(Family family, std::span<const double> runs) {
  const bool positive = std::all_of(runs.begin(), runs.end(), [](double x) { return x > 0.0; });
  const bool nonnegative = std::all_of(runs.begin(), runs.end(), [](double x) { return x >= 0.0; });
  const bool all_zero = std::all_of(runs.begin(), runs.end(), [](double x) { return x == 0.0; });
  switch (family) {
    case Family::normal: return std::nullopt;
    case Family::exp:
    case Family::tn:
      if (!nonnegative) return "a run is < 0";
      if (all_zero) return "every run is 0";
      if (family == Family::tn) {
        const auto [m, v] = moments(runs);
        if (v >= m * m) return "the runs' variance is at least their squared mean (no maximum)";
      }
      return std::nullopt;
    default: return positive ? std::nullopt : std::optional<std::string>("a run is <= 0");
  }
}

FittedLaw fit_mle(Family family, std::span<const double> runs) {
  switch (family) {
    case Family::exp: return {family, mean_of(runs), 0.0, {}, {}, {}};
    case Family::gamma: return fit_gamma(runs);
    case Family::lognormal: {
      const auto [m, v] = moments(logs_of(runs));
      return {family, m, std::sqrt(v), {}, {}, {}};
    }
    case Family::weibull: return fit_weibull(runs);
    case Family::normal: {
      const auto [m, v] = moments(runs);
      return {family, m, v, {}, {}, {}};
    }
    case Family::tn: return fit_tn(runs);
    case Family::lognormal_mix2: return fit_mixture(runs, 2);
    case Family::lognormal_mix3: return fit_mixture(runs, 3);
  }
  return {};
}

double log_likelihood(const FittedLaw& law, std::span<const double> runs) {
  double s = 0.0;
  for (double x : runs) s += law.log_pdf(x);
  return s;
}

double ks_statistic(const FittedLaw& law, std::span<const double> sorted) {
  const double n = static_cast<double>(sorted.size());
  double d = 0.0;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const double f = law.cdf(sorted[i]);
    d = std::max({d, (i + 1) / n - f, f - i / n});
  }
  return d;
}

double ad_statistic(const FittedLaw& law, std::span<const double> sorted) {
  const std::size_t n = sorted.size();
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    s += (2.0 * i + 1.0) * (std::log(law.cdf(sorted[i])) + std::log(law.survival(sorted[n - 1 - i])));
  return -static_cast<double>(n) - s / n;
}

namespace {
// The bootstrap loop's edges for ThreadSanitizer (distributions/tsan.h), at a fixed address: a body
// must not read its captures to find the address it synchronizes on.
char bootstrap_edge = 0;
}  // namespace

Goodness bootstrap_goodness(const FittedLaw& law, std::span<const double> sorted, std::uint64_t seed,
                            std::uint64_t group, int samples) {
  Goodness g{ks_statistic(law, sorted), nan, ad_statistic(law, sorted), nan};
  std::vector<double> ks(samples), ad(samples);
  const auto body = [&](int b) {
    tsan_acquire(&bootstrap_edge);
    const std::vector<double> xs = bootstrap_sample(law, sorted.size(), seed, group, b);
    ks[b] = ad[b] = INFINITY;  // a sample the family cannot be fitted to counts as a worse fit
    if (!unfittable(law.family, xs)) {
      try {
        const FittedLaw refit = fit_mle(law.family, xs);
        ks[b] = ks_statistic(refit, xs), ad[b] = ad_statistic(refit, xs);
      } catch (const InputError&) {
        ks[b] = ad[b] = INFINITY;
      }
      if (std::isnan(ad[b])) ad[b] = INFINITY;
    }
    tsan_release(&bootstrap_edge);  // and every body before the counting below
  };
  tsan_release(&bootstrap_edge);  // the writes above (the body's captures too) happen before every body
  tbb::parallel_for(0, samples, body);
  tsan_acquire(&bootstrap_edge);
  const auto p = [samples](const std::vector<double>& stars, double d) {
    const auto count = std::count_if(stars.begin(), stars.end(), [d](double s) { return s >= d; });
    return (1.0 + static_cast<double>(count)) / (samples + 1.0);
  };
  g.ks_p = p(ks, g.ks), g.ad_p = p(ad, g.ad);
  return g;
}

}  // namespace hetstruct::distributions::fit
