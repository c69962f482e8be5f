#include "distributions/law.h"
#include "distributions/law_syntax.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>

#include <boost/math/distributions/exponential.hpp>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/weibull.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include "distributions/format.h"
#include "distributions/input_error.h"

namespace hetstruct::distributions {

namespace {

// Half-width, in standard deviations, of the interval taken as a normal law's support:
// P(|Z| > 9) = 2.3e-19, below double precision relative to any expectation we compute.
constexpr double normal_support_sigmas = 9.0;

double standard_normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double standard_normal_pdf(double z) {
  return std::exp(-0.5 * z * z) / std::sqrt(2.0 * 3.14159265358979323846);
}

// Boost.Math reports out-of-range results as inf or NaN instead of throwing: the constructors
// refuse a law whose moments or support are not finite (require_finite_moments), and cdf and pdf
// are only asked inside the domain.
namespace bmp = boost::math::policies;
using quiet = bmp::policy<bmp::domain_error<bmp::ignore_error>, bmp::pole_error<bmp::ignore_error>,
                          bmp::overflow_error<bmp::ignore_error>, bmp::evaluation_error<bmp::ignore_error>>;

// The mass beyond the upper end of a long-tailed law's support, as a share of its mean:
// E[X; X > hi] = tail_share * E[X]. The expectations integrated over support() (of a max of n
// such variables) then lose at most n * 1e-18 of them.
constexpr double tail_share = 1e-18;

bool long_tailed(LeafKind k) {
  return k == LeafKind::exponential || k == LeafKind::gamma || k == LeafKind::lognormal || k == LeafKind::weibull;
}

// The point x where E[X; X > x] = q E[X] for a long-tailed leaf: the upper q-quantile of the
// size-biased law (density x f(x) / E[X]), which is gamma(shape + 1, scale) for a gamma law,
// lognormal(mu + sigma^2, sigma) for a lognormal one, and for a Weibull law the point where the
// upper incomplete gamma Q(1 + 1/shape, (x/scale)^shape) = q.
double mean_tail_point(const Leaf& l, double q) {
  switch (l.kind) {
    case LeafKind::exponential: return l.first * boost::math::gamma_q_inv(2.0, q, quiet());
    case LeafKind::gamma: return l.second * boost::math::gamma_q_inv(l.first + 1.0, q, quiet());
    case LeafKind::lognormal: {
      const double z = -boost::math::quantile(boost::math::normal_distribution<double, quiet>(), q);
      return std::exp(l.first + l.second * (l.second + z));
    }
    case LeafKind::weibull:
      return l.second * std::pow(boost::math::gamma_q_inv(1.0 + 1.0 / l.first, q, quiet()), 1.0 / l.first);
    default: return 0.0;
  }
}

// Quantile of a long-tailed leaf at lower probability p (0 < p < 1).
double long_tailed_quantile(const Leaf& l, double p) {
  switch (l.kind) {
    case LeafKind::exponential: return -l.first * std::log1p(-p);
    case LeafKind::gamma: return boost::math::quantile(boost::math::gamma_distribution<double, quiet>(l.first, l.second), p);
    case LeafKind::lognormal:
      return boost::math::quantile(boost::math::lognormal_distribution<double, quiet>(l.first, l.second), p);
    case LeafKind::weibull:
      return boost::math::quantile(boost::math::weibull_distribution<double, quiet>(l.first, l.second), p);
    default: return 0.0;
  }
}

// Weibull moments through Gamma(1 + d) - 1, which keeps its digits for a large shape (small d)
// where Gamma(1 + 2/k) - Gamma(1 + 1/k)^2 cancels.
double weibull_mean(double shape, double scale) {
  return scale * (1.0 + boost::math::tgamma1pm1(1.0 / shape, quiet()));
}
double weibull_variance(double shape, double scale) {
  const double g1 = boost::math::tgamma1pm1(1.0 / shape, quiet()), g2 = boost::math::tgamma1pm1(2.0 / shape, quiet());
  const double m = scale * (1.0 + g1);
  return m * m * std::expm1(std::log1p(g2) - 2.0 * std::log1p(g1));
}

// Moments of a leaf before scaling.
double leaf_mean(const Leaf& l) {
  switch (l.kind) {
    case LeafKind::exponential: return l.first;
    case LeafKind::gamma: return l.first * l.second;
    case LeafKind::lognormal: return std::exp(l.first + 0.5 * l.second * l.second);
    case LeafKind::weibull: return weibull_mean(l.first, l.second);
    case LeafKind::empirical: return l.data->mean;
    case LeafKind::uniform: return 0.5 * (l.first + l.second);
    case LeafKind::normal: return l.first;
    case LeafKind::constant: return l.first;
    case LeafKind::truncated_normal: {
      const double s = std::sqrt(l.second), alpha = -l.first / s;
      return l.first + s * standard_normal_pdf(alpha) / standard_normal_cdf(-alpha);
    }
  }
  return 0.0;
}

double leaf_variance(const Leaf& l) {
  switch (l.kind) {
    case LeafKind::exponential: return l.first * l.first;
    case LeafKind::gamma: return l.first * l.second * l.second;
    case LeafKind::lognormal: {
      // (e^(s^2) - 1) e^(2 mu + s^2), with expm1 for a small sigma.
      const double s2 = l.second * l.second;
      return std::expm1(s2) * std::exp(2.0 * l.first + s2);
    }
    case LeafKind::weibull: return weibull_variance(l.first, l.second);
    case LeafKind::empirical: return l.data->variance;
    case LeafKind::uniform: return (l.second - l.first) * (l.second - l.first) / 12.0;
    case LeafKind::normal: return l.second;
    case LeafKind::constant: return 0.0;
    case LeafKind::truncated_normal: {
      const double s = std::sqrt(l.second), alpha = -l.first / s;
      const double lambda = standard_normal_pdf(alpha) / standard_normal_cdf(-alpha);
      return l.second * (1.0 + alpha * lambda - lambda * lambda);
    }
  }
  return 0.0;
}

// E[(X - E X)^3] of a leaf before scaling; none for the truncated normal (whose closed form no
// control needs yet).
std::optional<double> leaf_third_central(const Leaf& l) {
  switch (l.kind) {
    case LeafKind::uniform:
    case LeafKind::normal:
    case LeafKind::constant: return 0.0;  // symmetric
    case LeafKind::exponential: return 2.0 * l.first * l.first * l.first;
    case LeafKind::gamma: return 2.0 * l.first * l.second * l.second * l.second;
    case LeafKind::lognormal: {
      // skewness (e^(s^2) + 2) sqrt(e^(s^2) - 1) times sd^3.
      const double s2 = l.second * l.second, sd = std::sqrt(leaf_variance(l));
      return (std::exp(s2) + 2.0) * std::sqrt(std::expm1(s2)) * sd * sd * sd;
    }
    case LeafKind::weibull: {
      const double m = leaf_mean(l), v = leaf_variance(l);
      const double raw3 = l.second * l.second * l.second * std::tgamma(1.0 + 3.0 / l.first);
      return raw3 - 3.0 * m * v - m * m * m;
    }
    case LeafKind::empirical: {
      double sum = 0.0;
      for (const double x : l.data->sorted) sum += (x - l.data->mean) * (x - l.data->mean) * (x - l.data->mean);
      return sum / static_cast<double>(l.data->sorted.size());
    }
    case LeafKind::truncated_normal: return std::nullopt;
  }
  return std::nullopt;
}

// P(X <= x) for the unscaled leaf (or P(X < x) when `strict`, which differs only for point masses:
// constants and the empirical law's data).
double leaf_cdf(const Leaf& l, double x, bool strict) {
  if (long_tailed(l.kind)) {
    if (!(x > 0.0)) return 0.0;
    if (x == std::numeric_limits<double>::infinity()) return 1.0;
  }
  switch (l.kind) {
    case LeafKind::exponential: return -std::expm1(-x / l.first);
    case LeafKind::gamma: return boost::math::gamma_p(l.first, x / l.second, quiet());
    case LeafKind::lognormal: return standard_normal_cdf((std::log(x) - l.first) / l.second);
    case LeafKind::weibull: return -std::expm1(-std::pow(x / l.second, l.first));
    case LeafKind::empirical: {
      const auto& v = l.data->sorted;
      const auto it = strict ? std::lower_bound(v.begin(), v.end(), x) : std::upper_bound(v.begin(), v.end(), x);
      return static_cast<double>(it - v.begin()) / static_cast<double>(v.size());
    }
    case LeafKind::uniform:
      if (x <= l.first) return 0.0;
      if (x >= l.second) return 1.0;
      return (x - l.first) / (l.second - l.first);
    case LeafKind::normal: return standard_normal_cdf((x - l.first) / std::sqrt(l.second));
    case LeafKind::constant: return strict ? (x > l.first ? 1.0 : 0.0) : (x >= l.first ? 1.0 : 0.0);
    case LeafKind::truncated_normal: {
      if (x <= 0.0) return 0.0;
      // P(0 < X <= x) / P(X > 0), each mass taken from the tail it lies in so that it keeps its
      // relative precision when the mass above 0 is small (1 - Phi(7) by subtraction has 4 digits).
      const double s = std::sqrt(l.second), z0 = -l.first / s, zx = (x - l.first) / s;
      const double above = standard_normal_cdf(-z0);
      const double between = z0 >= 0.0 ? above - standard_normal_cdf(-zx)
                                       : standard_normal_cdf(zx) - standard_normal_cdf(z0);
      return between / above;
    }
  }
  return 0.0;
}

std::optional<double> leaf_pdf(const Leaf& l, double x) {
  if (long_tailed(l.kind) && (x < 0.0 || x == std::numeric_limits<double>::infinity())) return 0.0;
  switch (l.kind) {
    case LeafKind::exponential: return std::exp(-x / l.first) / l.first;
    case LeafKind::gamma: return boost::math::pdf(boost::math::gamma_distribution<double, quiet>(l.first, l.second), x);
    case LeafKind::lognormal:
      return boost::math::pdf(boost::math::lognormal_distribution<double, quiet>(l.first, l.second), x);
    case LeafKind::weibull:
      return boost::math::pdf(boost::math::weibull_distribution<double, quiet>(l.first, l.second), x);
    case LeafKind::empirical: return std::nullopt;
    case LeafKind::uniform:
      return (x > l.first && x < l.second) ? 1.0 / (l.second - l.first) : 0.0;
    case LeafKind::normal: {
      const double s = std::sqrt(l.second);
      return standard_normal_pdf((x - l.first) / s) / s;
    }
    case LeafKind::constant: return std::nullopt;
    case LeafKind::truncated_normal: {
      if (x < 0.0) return 0.0;
      const double s = std::sqrt(l.second);
      return standard_normal_pdf((x - l.first) / s) / s / standard_normal_cdf(l.first / s);
    }
  }
  return std::nullopt;
}

std::pair<double, double> leaf_support(const Leaf& l) {
  if (long_tailed(l.kind)) return {0.0, mean_tail_point(l, tail_share)};
  switch (l.kind) {
    case LeafKind::empirical: return {l.data->sorted.front(), l.data->sorted.back()};
    case LeafKind::uniform: return {l.first, l.second};
    case LeafKind::constant: return {l.first, l.first};
    case LeafKind::normal: {
      const double h = normal_support_sigmas * std::sqrt(l.second);
      return {l.first - h, l.first + h};
    }
    case LeafKind::truncated_normal: {
      const double h = normal_support_sigmas * std::sqrt(l.second);
      return {std::max(0.0, l.first - h), std::max(0.0, l.first) + h};
    }
    case LeafKind::exponential:
    case LeafKind::gamma:
    case LeafKind::lognormal:
    case LeafKind::weibull: break;  // above
  }
  return {0.0, 0.0};
}

// A path as emp() takes it: bare when it reads back unchanged, else quoted with \" and \\.
std::string path_text(const std::string& path) {
  const bool bare = !path.empty() && path.find_first_of(")\"\\") == std::string::npos &&
                    std::none_of(path.begin(), path.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
  if (bare) return path;
  std::string q = "\"";
  for (const char c : path) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

std::string leaf_to_string(const Leaf& l) {
  std::string s = l.scale == 1.0 ? "" : format_exact(l.scale) + "*";
  switch (l.kind) {
    case LeafKind::uniform: return s + "u(" + format_exact(l.first) + "," + format_exact(l.second) + ")";
    case LeafKind::normal: return s + "n(" + format_exact(l.first) + "," + format_exact(l.second) + ")";
    case LeafKind::truncated_normal:
      return s + "tn(" + format_exact(l.first) + "," + format_exact(l.second) + ")";
    case LeafKind::constant: return s + "c(" + format_exact(l.first) + ")";
    case LeafKind::exponential: return s + "exp(" + format_exact(l.first) + ")";
    case LeafKind::gamma: return s + "gamma(" + format_exact(l.first) + "," + format_exact(l.second) + ")";
    case LeafKind::lognormal: return s + "lognormal(" + format_exact(l.first) + "," + format_exact(l.second) + ")";
    case LeafKind::weibull: return s + "weibull(" + format_exact(l.first) + "," + format_exact(l.second) + ")";
    case LeafKind::empirical: return s + "emp(" + path_text(l.data->path) + ")";
  }
  return s;
}

void require_finite(double x, const char* what) {
  if (!std::isfinite(x)) throw InputError("law", std::string(what) + " must be a finite number");
}

constexpr double smallest_normal = std::numeric_limits<double>::min();  // 2.2250738585072014e-308

// Values near overflow: finite parameters can still give a law whose mean, variance or support
// overflows (u(0,1e200) has variance 1e400/12), and every number computed from it would be inf or
// NaN. Values near underflow: a component's mean s*m or variance s*s*v (s its scale) below the
// smallest normal double has lost its digits or is 0, and a law that is not a constant would get
// a variance of 0 (1e-200*u(0,1), u(0,1e-160)). Both refused where the text is still known.
Law require_finite_moments(Law law) {
  const auto [lo, hi] = law.support();
  if (!std::isfinite(law.mean()) || !std::isfinite(law.variance()) || !std::isfinite(lo) || !std::isfinite(hi))
    throw InputError("law", "values too large: the law's mean, variance or range overflows a double",
                     "keep task times and their spread well below 1e150");
  for (const auto& c : law.components()) {
    const double s = c.leaf.scale, mean = leaf_mean(c.leaf);
    const bool mean_underflows = mean != 0.0 && !(std::abs(s * mean) >= smallest_normal);
    // As variance() computes it: s*s first.
    const bool variance_underflows = c.leaf.kind != LeafKind::constant &&
                                     !(s * s >= smallest_normal && s * s * leaf_variance(c.leaf) >= smallest_normal);
    if (mean_underflows || variance_underflows)
      throw InputError("law",
                       std::string("values too small: the law's ") + (mean_underflows ? "mean" : "variance") +
                           " underflows a double (below " + format_exact(smallest_normal) + ")",
                       "keep task times and their spread well above 1e-150");
  }
  return law;
}

}  // namespace

Law Law::uniform(double lo, double hi) {
  require_finite(lo, "u(lo,hi): lo");
  require_finite(hi, "u(lo,hi): hi");
  if (!(lo < hi)) throw InputError("law", "u(lo,hi) needs lo < hi, got u(" + format_exact(lo) + "," + format_exact(hi) + ")");
  return require_finite_moments(Law({{1.0, {LeafKind::uniform, lo, hi}}}));
}

Law Law::normal(double mean, double variance) {
  require_finite(mean, "n(mean,variance): mean");
  require_finite(variance, "n(mean,variance): variance");
  if (!(variance > 0.0))
    throw InputError("law", "n(mean,variance) needs a variance > 0, got " + format_exact(variance),
                     "the second argument is the variance, as in the paper; use c(x) for a constant");
  return require_finite_moments(Law({{1.0, {LeafKind::normal, mean, variance}}}));
}

Law Law::truncated_normal(double mean, double variance) {
  Law base = normal(mean, variance);
  // Conditioning on X >= 0 needs a non-negligible mass there.
  if (standard_normal_cdf(mean / std::sqrt(variance)) < 1e-12)
    throw InputError("law", "tn(" + format_exact(mean) + "," + format_exact(variance) +
                                ") has almost no mass at or above 0",
                     "raise the mean or the variance");
  base.components_[0].leaf.kind = LeafKind::truncated_normal;
  return require_finite_moments(base);
}

Law Law::constant(double value) {
  require_finite(value, "c(value): value");
  return require_finite_moments(Law({{1.0, {LeafKind::constant, value, 0.0}}}));
}

namespace {

// Parameters of the long-tailed laws are > 0 (a lognormal's mu may be any number).
void require_positive(const std::string& name, const std::vector<std::pair<const char*, double>>& params) {
  for (const auto& [what, x] : params) {
    require_finite(x, (name + ": " + what).c_str());
    if (!(x > 0.0)) throw InputError("law", name + " needs " + what + " > 0, got " + format_exact(x));
  }
}

}  // namespace

Law Law::checked_leaf(Leaf leaf) { return require_finite_moments(Law({{1.0, std::move(leaf)}})); }

Law Law::exponential(double mean) {
  require_positive("exp(mean)", {{"mean", mean}});
  return checked_leaf({LeafKind::exponential, mean, 0.0});
}

Law Law::gamma(double shape, double scale) {
  require_positive("gamma(shape,scale)", {{"shape", shape}, {"scale", scale}});
  return checked_leaf({LeafKind::gamma, shape, scale});
}

Law Law::lognormal(double mu, double sigma) {
  require_finite(mu, "lognormal(mu,sigma): mu");
  require_positive("lognormal(mu,sigma)", {{"sigma", sigma}});
  return checked_leaf({LeafKind::lognormal, mu, sigma});
}

Law Law::weibull(double shape, double scale) {
  require_positive("weibull(shape,scale)", {{"shape", shape}, {"scale", scale}});
  return checked_leaf({LeafKind::weibull, shape, scale});
}

Law Law::empirical(const std::string& path) {
  const std::string where = "emp(" + path_text(path) + ")";
  // A file or a pipe (emp(/dev/stdin), a shell's <(...)); a device such as /dev/zero would be read
  // for ever, and a folder reads as nothing.
  std::error_code ec;
  const auto type = std::filesystem::status(path, ec).type();
  if (!ec && type != std::filesystem::file_type::regular && type != std::filesystem::file_type::fifo)
    throw InputError("law", where + ": '" + path + "' is not a file", "give a file of measured task times, one per line");
  std::ifstream in(path);
  if (!in) throw InputError("law", where + ": cannot read the file '" + path + "'", "give a file of measured task times, one per line");
  std::vector<double> values;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    const auto not_space = [](char c) { return !std::isspace(static_cast<unsigned char>(c)); };
    const auto first = std::find_if(line.begin(), line.end(), not_space);
    const auto last = std::find_if(line.rbegin(), line.rend(), not_space).base();
    if (first >= last) continue;
    const std::string text(first, last);
    const char* begin = text.data() + (text.front() == '+' ? 1 : 0);
    double x = 0.0;
    const auto r = std::from_chars(begin, text.data() + text.size(), x);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(x))
      throw InputError("law", where + ": line " + std::to_string(number) + ": '" + text + "' is not a number",
                       "one task time per line, as a decimal; '#' starts a comment");
    values.push_back(x);
  }
  if (in.bad()) throw InputError("law", where + ": error reading the file '" + path + "'");
  return empirical(std::move(values), path);
}

Law Law::empirical(std::vector<double> values, const std::string& path) {
  const std::string where = "emp(" + path_text(path) + ")";
  if (values.empty())
    throw InputError("law", where + ": the file has no task times", "one task time per line; '#' starts a comment");
  for (const double x : values) require_finite(x, (where + ": a value").c_str());
  auto data = std::make_shared<EmpiricalData>();
  data->path = path;
  // Compensated (Neumaier) sums: the mean is the data's mean to the last digit whatever their order.
  const auto sum = [](const std::vector<double>& v, auto term) {
    double s = 0.0, c = 0.0;
    for (const double x : v) {
      const double y = term(x), t = s + y;
      c += std::abs(s) >= std::abs(y) ? (s - t) + y : (y - t) + s;
      s = t;
    }
    return s + c;
  };
  const double n = static_cast<double>(values.size());
  data->mean = sum(values, [](double x) { return x; }) / n;
  const double m = data->mean;
  data->variance = sum(values, [m](double x) { return (x - m) * (x - m); }) / n;
  std::sort(values.begin(), values.end());
  // Measured times that never vary are a constant: that law, c(x), samples, integrates and prints
  // as one (a step cdf with a single step).
  if (values.front() == values.back()) return constant(values.front());
  data->sorted = std::move(values);
  try {
    return checked_leaf({LeafKind::empirical, 0.0, 0.0, 1.0, std::move(data)});
  } catch (const InputError& e) {
    throw InputError("law", where + ": " + e.problem(), e.hint());
  }
}

Law Law::scaled(double factor, const Law& base) {
  require_finite(factor, "scale factor");
  if (!(factor > 0.0))
    throw InputError("law", "a scale factor must be > 0, got " + format_exact(factor));
  // A subnormal factor has lost digits (1e-320 keeps 3 of them) and squares to 0.
  if (factor < smallest_normal)
    throw InputError("law", "a scale factor must be at least " + format_exact(smallest_normal) +
                                " (the smallest normal double), got " + format_exact(factor),
                     "scale the law's parameters instead");
  Law out = base;
  for (auto& c : out.components_) {
    c.leaf.scale *= factor;
    // Nested factors multiply: 1e-160*(1e-160*X) underflows (an overflow is caught below).
    if (!std::isfinite(c.leaf.scale) || !(c.leaf.scale >= smallest_normal))
      throw InputError("law", "the scale factors multiply to " + format_exact(c.leaf.scale) + ", out of range",
                       "nested factors multiply: keep their product a normal double, between 2.2e-308 and 1.8e308");
  }
  try {
    return require_finite_moments(out);
  } catch (const InputError& e) {
    throw InputError("law", "scaled by " + format_exact(factor) + ": " + e.problem(), e.hint());
  }
}

Law Law::mixture(const std::vector<std::pair<double, Law>>& weighted) {
  if (weighted.empty()) throw InputError("law", "mix() needs at least one component");
  double total = 0.0;
  std::vector<Component> flat;
  for (const auto& [w, law] : weighted) {
    require_finite(w, "mixture weight");
    if (!(w > 0.0)) throw InputError("law", "mixture weights must be > 0, got " + format_exact(w));
    total += w;
    for (const auto& c : law.components_) flat.push_back({w * c.weight, c.leaf});
  }
  if (std::abs(total - 1.0) > 1e-9)
    throw InputError("law", "mixture weights must add up to 1, they add up to " + format_exact(total),
                     "e.g. mix(0.3:u(0,1),0.7:n(0.5,1/12))");
  return require_finite_moments(Law(std::move(flat)));
}

double Law::mean() const {
  double m = 0.0;
  for (const auto& c : components_) m += c.weight * c.leaf.scale * leaf_mean(c.leaf);
  return m;
}

double Law::variance() const {
  // Law of total variance over the mixture components.
  const double mu = mean();
  double v = 0.0;
  for (const auto& c : components_) {
    const double s = c.leaf.scale;
    const double mc = s * leaf_mean(c.leaf);
    v += c.weight * (s * s * leaf_variance(c.leaf) + (mc - mu) * (mc - mu));
  }
  return v;
}

std::optional<double> Law::third_central_moment() const {
  // Over the mixture: component c, centred at its own mean m_c = mu + d, gives k3_c + 3 d v_c + d^3.
  const double mu = mean();
  double k3 = 0.0;
  for (const auto& c : components_) {
    const auto own = leaf_third_central(c.leaf);
    if (!own) return std::nullopt;
    const double s = c.leaf.scale, d = s * leaf_mean(c.leaf) - mu;
    k3 += c.weight * (s * s * s * *own + 3.0 * d * s * s * leaf_variance(c.leaf) + d * d * d);
  }
  return k3;
}

double Law::cdf(double x) const {
  double p = 0.0;
  for (const auto& c : components_) p += c.weight * leaf_cdf(c.leaf, x / c.leaf.scale, false);
  return std::clamp(p, 0.0, 1.0);
}

double Law::cdf_below(double x) const {
  double p = 0.0;
  for (const auto& c : components_) p += c.weight * leaf_cdf(c.leaf, x / c.leaf.scale, true);
  return std::clamp(p, 0.0, 1.0);
}

std::optional<double> Law::pdf(double x) const {
  double d = 0.0;
  for (const auto& c : components_) {
    const auto f = leaf_pdf(c.leaf, x / c.leaf.scale);
    if (!f) return std::nullopt;
    d += c.weight * *f / c.leaf.scale;
  }
  return d;
}

std::pair<double, double> Law::support() const {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& c : components_) {
    const auto [a, b] = leaf_support(c.leaf);
    lo = std::min(lo, a * c.leaf.scale);
    hi = std::max(hi, b * c.leaf.scale);
  }
  return {lo, hi};
}

std::vector<double> Law::breakpoints() const {
  std::vector<double> pts;
  for (const auto& c : components_) {
    const double s = c.leaf.scale;
    switch (c.leaf.kind) {
      case LeafKind::uniform: pts.push_back(s * c.leaf.first); pts.push_back(s * c.leaf.second); break;
      case LeafKind::constant: pts.push_back(s * c.leaf.first); break;
      case LeafKind::truncated_normal: pts.push_back(0.0); break;
      case LeafKind::normal: break;
      case LeafKind::lognormal: break;  // smooth at 0: every derivative vanishes there
      case LeafKind::exponential:
      case LeafKind::gamma:
      case LeafKind::weibull: pts.push_back(0.0); break;
      case LeafKind::empirical:
        for (const double x : c.leaf.data->sorted) pts.push_back(s * x);
        break;
    }
  }
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  return pts;
}

std::vector<double> Law::quadrature_cuts() const {
  std::vector<double> cuts = breakpoints();
  for (const auto& c : components_) {
    const Leaf& l = c.leaf;
    if (l.kind == LeafKind::normal || l.kind == LeafKind::truncated_normal) {
      const double mu = l.scale * l.first, sd = l.scale * std::sqrt(l.second);
      for (int k = -4; k <= 4; k += 2) cuts.push_back(mu + k * sd);
    } else if (long_tailed(l.kind)) {
      // The body by its quantiles, the tail by where it holds a given share of the mean (a
      // lognormal tail spans decades between its 1 - 1e-9 quantile and the end of the support).
      for (const double p : {1e-9, 1e-6, 1e-3, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99})
        cuts.push_back(l.scale * long_tailed_quantile(l, p));
      for (const double q : {1e-3, 1e-6, 1e-9, 1e-12, 1e-15}) cuts.push_back(l.scale * mean_tail_point(l, q));
    }
  }
  // Boost.Math gives NaN where it cannot answer (an extreme parameter): no cut there.
  cuts.erase(std::remove_if(cuts.begin(), cuts.end(), [](double x) { return !std::isfinite(x); }), cuts.end());
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  return cuts;
}

std::string Law::to_string() const {
  if (is_leaf()) return leaf_to_string(components_[0].leaf);
  std::string s = "mix(";
  for (std::size_t i = 0; i < components_.size(); ++i) {
    if (i) s += ",";
    s += format_exact(components_[i].weight) + ":" + leaf_to_string(components_[i].leaf);
  }
  return s + ")";
}

// ---- Parser --------------------------------------------------------------------------------

namespace {

// An emp() path starting at text[pos] (after any spaces): quoted, '"' (char | \" | \\)* '"', or
// bare, the text up to the next ')' without its trailing spaces. `end` is just past it; a quote
// that does not close leaves `terminated` false and `end` at the text's end.
struct PathToken {
  std::string path;
  std::size_t end = 0;
  bool terminated = true;
};

PathToken scan_path(const std::string& text, std::size_t pos) {
  PathToken t;
  if (pos < text.size() && text[pos] == '"') {
    for (++pos;;) {
      if (pos >= text.size()) return {t.path, pos, false};
      char c = text[pos++];
      if (c == '"') break;
      if (c == '\\') {
        if (pos >= text.size()) return {t.path, pos, false};
        c = text[pos++];
      }
      t.path += c;
    }
    t.end = pos;
    return t;
  }
  const std::size_t close = text.find(')', pos);
  t.path = text.substr(pos, close == std::string::npos ? std::string::npos : close - pos);
  while (!t.path.empty() && std::isspace(static_cast<unsigned char>(t.path.back()))) t.path.pop_back();
  t.end = pos + t.path.size();
  return t;
}

class LawParser {
 public:
  explicit LawParser(const std::string& text) : text_(text) {}

  Law parse_all() {
    Law law = parse_law();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return law;
  }

  double parse_all_number() {
    const double x = parse_number();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return x;
  }

 private:
  static constexpr const char* syntax_hint =
      "laws look like u(0,1), n(0.5,1/12), tn(1,1/4), c(1), exp(2), gamma(2,0.25), lognormal(0,0.5), "
      "weibull(1.5,2), emp(times.txt), 0.5*u(0,1), mix(0.3:u(0,1),0.7:n(0.5,1/12))";

  // Laws nest ('(', 'a*', 'mix(') by recursion: a bound keeps a pathological text (thousands of
  // parentheses) from overflowing the stack.
  static constexpr int max_depth = 100;

  [[noreturn]] void fail(const std::string& problem, const std::string& hint = syntax_hint) const {
    throw InputError("law '" + text_ + "'", problem + " at position " + std::to_string(pos_), hint);
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) { ++pos_; return true; }
    return false;
  }

  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }

  bool starts_number() {
    skip_space();
    if (pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+';
  }

  double parse_decimal() {
    skip_space();
    const char* begin = text_.data() + pos_;
    const char* end = text_.data() + text_.size();
    if (begin < end && *begin == '+') ++begin;  // from_chars rejects a leading '+'
    double x = 0.0;
    const auto r = std::from_chars(begin, end, x);
    if (r.ec == std::errc::result_out_of_range) fail("number out of range");
    if (r.ec != std::errc()) fail("expected a number");
    if (!std::isfinite(x)) fail("number out of range");
    pos_ = static_cast<std::size_t>(r.ptr - text_.data());
    return x;
  }

  // number := decimal ('/' decimal)?
  double parse_number() {
    skip_space();  // so that an error points at the number, not at the space before it
    const std::size_t start = pos_;
    double x = parse_decimal();
    if (accept('/')) {
      const double d = parse_decimal();
      if (d == 0.0) { pos_ = start; fail("division by zero"); }
      x /= d;
      if (!std::isfinite(x)) { pos_ = start; fail("number out of range"); }  // 4/1e-308
    }
    return x;
  }

  // law := number '*' law | name '(' args ')' | '(' law ')'
  Law parse_law() {
    skip_space();
    const std::size_t start = pos_;
    if (depth_ >= max_depth) fail("laws nested more than " + std::to_string(max_depth) + " deep", "simplify the law");
    ++depth_;
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{depth_};
    if (starts_number()) {
      const double factor = parse_number();
      expect('*');
      return wrap(start, [&] { return Law::scaled(factor, parse_law()); });
    }
    if (accept('(')) {
      Law inner = parse_law();
      expect(')');
      return inner;
    }
    std::string name;
    while (pos_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[pos_]))) name += text_[pos_++];
    if (name.empty()) fail("expected a law (u, n, tn, c, exp, gamma, lognormal, weibull, emp or mix)");
    // Checked before the arguments, whose syntax depends on the name.
    static const char* const names[] = {"u", "n", "tn", "c", "exp", "gamma", "lognormal", "weibull", "emp", "mix"};
    if (std::find(std::begin(names), std::end(names), name) == std::end(names)) {
      pos_ = start;
      fail("unknown law '" + name + "'");
    }
    expect('(');
    if (name == "mix") return parse_mixture(start);
    if (name == "emp") {
      const std::string path = parse_path();
      expect(')');
      return wrap(start, [&] { return Law::empirical(path); });
    }
    const double a = parse_number();
    if (name == "c" || name == "exp") {
      expect(')');
      if (name == "c") return wrap(start, [&] { return Law::constant(a); });
      return wrap(start, [&] { return Law::exponential(a); });
    }
    expect(',');
    const double b = parse_number();
    expect(')');
    if (name == "u") return wrap(start, [&] { return Law::uniform(a, b); });
    if (name == "n") return wrap(start, [&] { return Law::normal(a, b); });
    if (name == "gamma") return wrap(start, [&] { return Law::gamma(a, b); });
    if (name == "lognormal") return wrap(start, [&] { return Law::lognormal(a, b); });
    if (name == "weibull") return wrap(start, [&] { return Law::weibull(a, b); });
    return wrap(start, [&] { return Law::truncated_normal(a, b); });
  }

  // path := '"' (char | '\"' | '\\')* '"' | the text up to ')', surrounding spaces dropped
  std::string parse_path() {
    static constexpr const char* path_hint = "emp(times.txt), or emp(\"my times.txt\") for a path with spaces or ')'";
    skip_space();
    const PathToken token = scan_path(text_, pos_);
    pos_ = token.end;
    if (!token.terminated) fail("unterminated quoted path", path_hint);
    if (token.path.empty()) fail("expected a file path", path_hint);
    return token.path;
  }

  Law parse_mixture(std::size_t start) {
    std::vector<std::pair<double, Law>> parts;
    do {
      const double w = parse_number();
      expect(':');
      parts.emplace_back(w, parse_law());
    } while (accept(','));
    expect(')');
    return wrap(start, [&] { return Law::mixture(parts); });
  }

  // Re-throws a constructor's validation error with the text and the position of the law.
  template <class Make>
  Law wrap(std::size_t start, Make make) {
    try {
      return make();
    } catch (const InputError& e) {
      if (e.where() != "law") throw;  // already positioned by a nested law
      pos_ = start;
      fail(e.problem(), e.hint());
    }
  }

  const std::string& text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

Law parse_law(const std::string& text) { return LawParser(text).parse_all(); }

std::vector<std::string> split_outside_laws(const std::string& text, char separator) {
  std::vector<std::string> items(1);
  int depth = 0;
  std::string name;      // the last run of letters: a law's name when '(' follows (spaces between)
  bool letters = false;  // the previous character was a letter
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto uc = static_cast<unsigned char>(c);
    if (c == separator && depth == 0) {
      items.emplace_back();
      ++i;
    } else if (c == '(') {
      ++depth;
      const bool path = name == "emp";
      items.back() += c;
      name.clear();
      letters = false;
      if (!path) {
        ++i;
        continue;
      }
      // The path, read whole as parse_path reads it; its closing ')' is counted below.
      std::size_t start = i + 1;
      while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
      const std::size_t end = scan_path(text, start).end;
      items.back() += text.substr(i + 1, end - (i + 1));
      i = end;
    } else {
      if (c == ')') --depth;
      if (std::isalpha(uc)) {
        if (!letters) name.clear();
        name += c;
      } else if (!std::isspace(uc)) {
        name.clear();
      }
      letters = std::isalpha(uc) != 0;
      items.back() += c;
      ++i;
    }
  }
  return items;
}

double parse_number(const std::string& text, const std::string& what) {
  try {
    return LawParser(text).parse_all_number();
  } catch (const InputError&) {
    throw InputError(what, "'" + text + "' is not a number", "use a decimal or a fraction such as 4/5");
  }
}

}  // namespace hetstruct::distributions
