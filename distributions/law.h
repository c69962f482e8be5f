// Task-time laws: the probability laws a task's execution time is drawn from.
//
// A Law is a value: a finite mixture of scaled leaf laws (a single leaf has weight 1). Scaling and
// nesting are folded at construction, so a*mix(w:X, ...) becomes mix(w:a*X, ...), and a*(b*X)
// becomes (a*b)*X. The scale is kept apart from the leaf's parameters because a*X is sampled as a
// times a draw of X: the same underlying variate serves X and a*X, which is what gives common
// random numbers between a processor and its scaled (faster) counterpart.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hetstruct::distributions {

enum class LeafKind {
  uniform,           // u(lo, hi)
  normal,            // n(mean, variance), untruncated as in Wilson's paper (negative times occur)
  truncated_normal,  // tn(mean, variance): n(mean, variance) conditioned on X >= 0
  constant,          // c(value): a point mass, for deterministic tasks
  exponential,       // exp(mean): rate 1/mean
  gamma,             // gamma(shape, scale): mean shape*scale, variance shape*scale^2
  lognormal,         // lognormal(mu, sigma): log X is n(mu, sigma^2)
  weibull,           // weibull(shape, scale): P(X > x) = exp(-(x/scale)^shape)
  empirical,         // emp(path): a value of the file's data, each with probability 1/size
};

// The data of an empirical law, read once and shared by every copy of the law (immutable).
struct EmpiricalData {
  std::string path;            // as written in the law, for to_string()
  std::vector<double> sorted;  // the values, ascending (cdf by binary search)
  double mean;                 // of the data (compensated sum / size)
  double variance;             // of the data, divisor size: the law's own variance
};

struct Leaf {
  LeafKind kind;
  double first;   // lo (uniform), mean (normals, exponential), value (constant), shape (gamma,
                  // Weibull), mu (lognormal), unused (empirical)
  double second;  // hi (uniform), variance (normals), scale (gamma, Weibull), sigma (lognormal),
                  // unused (constant, exponential, empirical)
  double scale = 1.0;
  std::shared_ptr<const EmpiricalData> data = {};  // empirical only
  // Empirical leaves are equal when their data are, whatever the file they came from.
  friend bool operator==(const Leaf& a, const Leaf& b) {
    return a.kind == b.kind && a.first == b.first && a.second == b.second && a.scale == b.scale &&
           (a.data == b.data || (a.data && b.data && a.data->sorted == b.data->sorted));
  }
};

struct Component {
  double weight;
  Leaf leaf;
  friend bool operator==(const Component&, const Component&) = default;
};

class Law {
 public:
  // Constructors check their parameters and throw InputError on invalid ones.
  static Law uniform(double lo, double hi);
  static Law normal(double mean, double variance);
  static Law truncated_normal(double mean, double variance);
  static Law constant(double value);
  static Law exponential(double mean);
  static Law gamma(double shape, double scale);
  static Law lognormal(double mu, double sigma);
  static Law weibull(double shape, double scale);
  // The data of a file of measured task times: one number per line; blank lines and text after
  // '#' ignored. A relative path is taken from the working directory.
  static Law empirical(const std::string& path);
  // The same law from values already in memory (`path` is what to_string() prints).
  static Law empirical(std::vector<double> values, const std::string& path);
  static Law scaled(double factor, const Law& base);
  static Law mixture(const std::vector<std::pair<double, Law>>& weighted);

  // Wilson's two reference laws: u(0,1) and n(1/2, 1/12), which share mean and variance.
  static Law paper_uniform() { return uniform(0.0, 1.0); }
  static Law paper_normal() { return normal(0.5, 1.0 / 12.0); }

  double mean() const;
  double variance() const;
  // E[(X - E X)^3]; none where no closed form is kept (a truncated normal component).
  std::optional<double> third_central_moment() const;
  double cdf(double x) const;
  // Density; none for a law with a point mass.
  std::optional<double> pdf(double x) const;
  // An interval that holds all but a negligible mass (< 1e-18 per normal tail; for the laws with
  // one long tail, exponential, gamma, lognormal and Weibull, the tail beyond holds < 1e-18 of
  // the mean, E[X; X > hi] < 1e-18 E[X], so that expectations integrated over it lose nothing):
  // exact for bounded laws and the empirical law. Quadrature integrates over it.
  std::pair<double, double> support() const;
  // Points where the cdf is not smooth (uniform ends, point masses, the data of an empirical law,
  // 0 where exponential, gamma and Weibull densities start), sorted, unique.
  std::vector<double> breakpoints() const;
  // Where quadrature over support() should cut: breakpoints() and, for laws with tails, points
  // that split the range into pieces on which the cdf varies gently (a normal's mean +- 2 and 4
  // sd; quantiles of the long-tailed laws, down to where their tail holds 1e-15 of the mean).
  // Sorted, unique.
  std::vector<double> quadrature_cuts() const;
  // Probability of a negative draw.
  double negative_probability() const { return cdf_below(0.0); }

  const std::vector<Component>& components() const { return components_; }
  bool is_leaf() const { return components_.size() == 1; }

  // Canonical text in the law syntax; parse(to_string()) gives back an equal law.
  std::string to_string() const;

  friend bool operator==(const Law&, const Law&) = default;

 private:
  explicit Law(std::vector<Component> components) : components_(std::move(components)) {}
  static Law checked_leaf(Leaf leaf);  // a single leaf, its moments and range checked
  double cdf_below(double x) const;  // P(X < x)

  std::vector<Component> components_;
};

// Parses the law syntax used by the CLI and by graph files:
//   u(0,1)   n(0.5,1/12)   tn(1,1/4)   c(0.5)   0.5*u(0,1)   mix(0.3:u(0,1),0.7:n(0.5,1/12))
//   exp(2)            exponential of mean 2 (rate 1/2)
//   gamma(2,0.25)     shape 2, scale 0.25 (mean 0.5, variance 0.125)
//   lognormal(0,0.5)  log X is n(0, 0.5^2): mu and sigma of the log, as Boost and numpy take them
//   weibull(1.5,2)    shape 1.5, scale 2
//   emp(times.txt)    the measured values in times.txt, each drawn with probability 1/count;
//                     emp("my times.txt") quotes a path with spaces, ')' or '"' (\" and \\ escape)
// Numbers are decimals or fractions (1/12). Whitespace is ignored. Throws InputError naming the
// text and the (0-based) position of the problem. Every number computed from a law must be a
// normal double: a scale factor, and the product of nested ones, is at least 2.2250738585072014e-308
// (the smallest normal double); the law's mean, variance and range do not overflow, and no
// component's mean (unless 0) or variance (unless a constant) underflows: u(0,1e200),
// 1e-200*u(0,1) and u(0,1e-160) are refused.
Law parse_law(const std::string& text);

// Parses a number in the same syntax (decimal or fraction: 4/5), naming `what` in its errors.
double parse_number(const std::string& text, const std::string& what);

}  // namespace hetstruct::distributions
