// Maximum-likelihood fits of task-time laws to measured runs, their Kolmogorov-Smirnov and
// Anderson-Darling statistics, and the statistics' p-values by a seeded parametric bootstrap
// (docs/fit.md). Law-level numerics only, on Boost.Math: special functions, root finding
// (boost::math::tools) and the distributions.
//
// The fits (location 0 where the law has one):
// - exp: the mean. normal: the mean and the variance with divisor n. lognormal: the mean and sd
//   (divisor n) of log X.
// - gamma: the shape k solves log k - digamma(k) = log mean - mean log (TOMS 748); scale mean / k.
// - weibull: the shape k solves sum x^k log x / sum x^k - 1/k = mean log (TOMS 748, x scaled by
//   its maximum); scale (mean x^k)^(1/k).
// - tn: the normal truncated at 0 is an exponential family in (x, x^2), so its MLE matches the
//   truncated law's mean and second moment to the runs'. With t = mean/sd of the parent and
//   lambda = phi(t)/Phi(t), the squared coefficient of variation (1 - t lambda - lambda^2) /
//   (t + lambda)^2 falls from 1 to 0 as t rises: t solves it equal to the runs' (TOMS 748), then
//   sd = mean_obs / (t + lambda), mean = t sd. No maximum when the runs' cv^2 >= 1 (refused).
// - lognormal-mixK: EM on log X from deterministic starts (the sorted logs cut into K blocks of
//   equal counts: each block's mean and sd, weight 1/K), until the log-likelihood rises by less
//   than 1e-12 relative (at most 5,000 steps); a component's sd is floored at 0.1 of the logs' sd:
//   the mixture's likelihood is unbounded (a component collapsing onto one run, or onto tied runs),
//   and the floor keeps EM away from those spikes.
//
// The bootstrap of (seed, group, law): sample b (0-based) draws its n values by inversion, u in
// (0, 1) from 53 bits of Philox4x64-10 with key (seed, group) and counter (law, b, j, 0) for the
// j-th block of four 64-bit words (a mixture spends two words a value: the component, then the
// value). Each sample is refitted by the same law's MLE and its KS and AD statistics computed; a
// sample the law cannot be refitted to counts as at least as extreme. p = (1 + #{b: D*_b >= D}) /
// (B + 1). The samples are computed in parallel (oneTBB) and counted in order: the same bytes on
// any thread count.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hetstruct::distributions::fit {

enum class Family { exp, gamma, lognormal, weibull, normal, tn, lognormal_mix2, lognormal_mix3 };

inline const std::vector<Family> all_families = {Family::exp,    Family::gamma, Family::lognormal,
                                                 Family::weibull, Family::normal, Family::tn,
                                                 Family::lognormal_mix2, Family::lognormal_mix3};

// exp, gamma, lognormal, weibull, normal, tn, lognormal-mix2, lognormal-mix3.
const char* name_of(Family family);
// InputError naming `laws` on any other name.
Family parse_family(const std::string& name);
// A comma-separated list of names; InputError naming `laws` on an unknown one, an empty item or a repeat.
std::vector<Family> parse_families(const std::string& list);

// A fitted law: its family and parameters. Single laws: (p1, p2) as the law syntax writes them
// (exp: mean only; normal and tn: mean and variance). Mixtures: weights, mus, sigmas.
struct FittedLaw {
  Family family = Family::exp;
  double p1 = 0.0, p2 = 0.0;
  std::vector<double> weights, mus, sigmas;

  // The number of free parameters: 1 for exp, 3K - 1 for a mixture of K, else 2.
  int parameters() const;
  double cdf(double x) const;
  double survival(double x) const;  // 1 - cdf, without cancellation
  double log_pdf(double x) const;
  double quantile(double p) const;
  double mean() const;
  // In hetstruct's law syntax, every number %.17g.
  std::string text() const;
};

// Why `family` cannot be fitted to `runs`, or none: gamma, lognormal, weibull need every run > 0;
// exp and tn every run >= 0 and one > 0; tn also a variance (divisor n) below the squared mean.
std::optional<std::string> unfittable(Family family, std::span<const double> runs);

// The MLE of `family` on `runs` (fittable ones).
FittedLaw fit_mle(Family family, std::span<const double> runs);

double log_likelihood(const FittedLaw& law, std::span<const double> runs);
// sup_x |F_n(x) - F(x)| on the sorted runs.
double ks_statistic(const FittedLaw& law, std::span<const double> sorted);
// A^2 = -n - (1/n) sum (2i - 1) [log F(x_i) + log S(x_{n+1-i})] on the sorted runs.
double ad_statistic(const FittedLaw& law, std::span<const double> sorted);

struct Goodness {
  double ks = 0.0, ks_p = 0.0, ad = 0.0, ad_p = 0.0;
};

// The statistics of `law` (fitted to `sorted`) and their bootstrap p-values, seeded as above.
Goodness bootstrap_goodness(const FittedLaw& law, std::span<const double> sorted, std::uint64_t seed,
                            std::uint64_t group, int samples = 1000);

}  // namespace hetstruct::distributions::fit
