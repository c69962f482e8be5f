#include "distributions/law.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>

#include <boost/math/distributions/normal.hpp>

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

// Moments of a leaf before scaling.
double leaf_mean(const Leaf& l) {
  switch (l.kind) {
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

// P(X <= x) for the unscaled leaf (or P(X < x) when `strict`, which differs only for constants).
double leaf_cdf(const Leaf& l, double x, bool strict) {
  switch (l.kind) {
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
  switch (l.kind) {
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
  switch (l.kind) {
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
  }
  return {0.0, 0.0};
}

std::string leaf_to_string(const Leaf& l) {
  std::string s = l.scale == 1.0 ? "" : format_exact(l.scale) + "*";
  switch (l.kind) {
    case LeafKind::uniform: return s + "u(" + format_exact(l.first) + "," + format_exact(l.second) + ")";
    case LeafKind::normal: return s + "n(" + format_exact(l.first) + "," + format_exact(l.second) + ")";
    case LeafKind::truncated_normal:
      return s + "tn(" + format_exact(l.first) + "," + format_exact(l.second) + ")";
    case LeafKind::constant: return s + "c(" + format_exact(l.first) + ")";
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
    }
  }
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  return pts;
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
      "laws look like u(0,1), n(0.5,1/12), tn(1,1/4), c(1), 0.5*u(0,1), "
      "mix(0.3:u(0,1),0.7:n(0.5,1/12))";

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
    if (name.empty()) fail("expected a law (u, n, tn, c or mix)");
    // Checked before the arguments, whose syntax depends on the name.
    if (name != "u" && name != "n" && name != "tn" && name != "c" && name != "mix") {
      pos_ = start;
      fail("unknown law '" + name + "'");
    }
    expect('(');
    if (name == "mix") return parse_mixture(start);
    const double a = parse_number();
    if (name == "c") {
      expect(')');
      return wrap(start, [&] { return Law::constant(a); });
    }
    expect(',');
    const double b = parse_number();
    expect(')');
    if (name == "u") return wrap(start, [&] { return Law::uniform(a, b); });
    if (name == "n") return wrap(start, [&] { return Law::normal(a, b); });
    return wrap(start, [&] { return Law::truncated_normal(a, b); });
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

double parse_number(const std::string& text, const std::string& what) {
  try {
    return LawParser(text).parse_all_number();
  } catch (const InputError&) {
    throw InputError(what, "'" + text + "' is not a number", "use a decimal or a fraction such as 4/5");
  }
}

}  // namespace hetstruct::distributions
