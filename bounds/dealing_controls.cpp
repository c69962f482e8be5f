#include "bounds/dealing_controls.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <boost/math/quadrature/gauss.hpp>

namespace hetstruct::bounds {

namespace {

using distributions::Law;
constexpr double infinity = std::numeric_limits<double>::infinity(), minus_infinity = -infinity;

// The integral of f over [lo, hi], Gauss-Legendre (20 nodes: exact to degree 39) on each piece
// between the cuts that fall inside.
template <class F>
double integrate(F&& f, double lo, double hi, std::vector<double> cuts) {
  if (!(hi > lo)) return 0.0;
  cuts.push_back(lo);
  cuts.push_back(hi);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  using GL = boost::math::quadrature::gauss<double, 20>;
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    const double a = std::max(cuts[i], lo), b = std::min(cuts[i + 1], hi);
    if (b > a) total += GL::integrate(f, a, b);
  }
  return total;
}

// P(X < a).
double cdf_below(const Law& law, double a) { return law.cdf(std::nextafter(a, minus_infinity)); }

// M = max(floor, max_i (start_i + X_i)) for independent X_i of the given laws: the makespan's part
// that the predicted dealings decide.
class MaxOf {
 public:
  MaxOf(double floor, std::vector<std::pair<double, const Law*>> terms) : floor_(floor), terms_(std::move(terms)) {
    lo_ = hi_ = floor_;
    for (const auto& [start, law] : terms_) {
      const auto [a, b] = law->support();
      lo_ = std::max(lo_, start + a);  // M is at least each term
      hi_ = std::max(hi_, start + b);
      for (const double c : law->quadrature_cuts()) cuts_.push_back(start + c);
    }
    if (floor_ > minus_infinity) cuts_.push_back(floor_);
  }
  bool empty() const { return terms_.empty() && floor_ == minus_infinity; }  // M = -infinity
  double lo() const { return lo_; }
  double hi() const { return hi_; }
  const std::vector<double>& cuts() const { return cuts_; }
  double cdf(double t) const {
    if (t < floor_) return 0.0;
    double p = 1.0;
    for (const auto& [start, law] : terms_) p *= law->cdf(t - start);
    return p;
  }
  // E max(c, M) = c + integral from c of P(M > t) (M's lower end where c is below it).
  double mean_above(double c) const {
    if (empty()) return c;
    if (c >= hi_) return c;
    const double from = std::max(c, lo_);
    return from + integrate([this](double t) { return 1.0 - cdf(t); }, from, hi_, cuts_);
  }
  double mean() const { return mean_above(minus_infinity); }

 private:
  double floor_;
  std::vector<std::pair<double, const Law*>> terms_;
  double lo_, hi_;
  std::vector<double> cuts_;
};

// The dealings after this one: which slaves get the remaining tasks, and the ends that stand.
struct Prediction {
  const Dealing& d;
  std::size_t slots() const {  // tasks dealt: one per slave at most (the line, then the drawing slave)
    return std::min<std::size_t>(static_cast<std::size_t>(d.remaining), d.line.size() + 1);
  }
  double dealt_start(std::size_t k) const { return d.start + static_cast<double>(k + 1) * d.service; }
  // The line's slaves from `from` on keep their current ends (their ready times).
  double standing(std::size_t from) const {
    double m = d.settled;
    for (std::size_t i = from; i < d.line.size(); ++i) m = std::max(m, d.line[i].ready);
    return m;
  }
  // The drawing slave back in line at position k (k < slots()): it and the first slots() - 1 of
  // the others are dealt, in line order.
  MaxOf dealt_with(std::size_t k) const {
    std::vector<std::pair<double, const Law*>> terms;
    for (std::size_t i = 0, from_line = 0; i < slots(); ++i)
      terms.emplace_back(dealt_start(i), i == k ? d.law : d.line[from_line++].law);
    return MaxOf(standing(slots() - 1), std::move(terms));
  }
  // The drawing slave behind the dealt ones: the first slots() of the line are dealt; its drawn
  // task's end stands, beside the others'.
  MaxOf dealt_without() const {
    std::vector<std::pair<double, const Law*>> terms;
    for (std::size_t i = 0; i < slots(); ++i) terms.emplace_back(dealt_start(i), d.line[i].law);
    return MaxOf(standing(slots()), std::move(terms));
  }
  // The drawing slave's place in line when back at start + x.
  std::size_t position(double x) const {
    const double ready = d.start + x;
    std::size_t k = 0;
    while (k < d.line.size() && (d.line[k].ready < ready || (d.line[k].ready == ready && d.line[k].processor < d.processor))) ++k;
    return k;
  }
  // b such that position(x) >= k exactly when x >= b (k >= 1): back after line[k - 1]. Found on
  // the sum start + x as position() rounds it, so that an atom on a tie is counted where position()
  // puts it.
  double threshold(std::size_t k) const {
    const Dealing::Waiting& w = d.line[k - 1];
    // After it: at its ready time if it goes first on a tie, else strictly later.
    const double at = w.processor < d.processor ? w.ready : std::nextafter(w.ready, infinity);
    double x = at - d.start;  // then the least x with start + x >= at
    while (d.start + x < at) x = std::nextafter(x, infinity);
    while (d.start + std::nextafter(x, minus_infinity) >= at) x = std::nextafter(x, minus_infinity);
    return x;
  }
  double behind(std::size_t k) const { return 1.0 - cdf_below(*d.law, threshold(k)); }  // P(position >= k)
};

void check(const Dealing& d) {
  if (!d.law) throw std::invalid_argument("dealing: the drawn task has no law");
  if (d.remaining < 0 || !(d.service >= 0.0)) throw std::invalid_argument("dealing: remaining < 0 or service < 0");
  for (std::size_t i = 0; i < d.line.size(); ++i) {
    if (!d.line[i].law) throw std::invalid_argument("dealing: a slave in line has no law");
    if (i > 0 && (d.line[i].ready < d.line[i - 1].ready ||
                  (d.line[i].ready == d.line[i - 1].ready && d.line[i].processor < d.line[i - 1].processor)))
      throw std::invalid_argument("dealing: the line is not in order");
  }
}

}  // namespace

double dealing_value(const Dealing& d, double x) {
  check(d);
  const Prediction p{d};
  const std::size_t k = p.position(x);
  if (k < p.slots()) return p.dealt_with(k).mean();
  return p.dealt_without().mean_above(d.start + x);
}

double dealing_mean(const Dealing& d) {
  check(d);
  const Prediction p{d};
  const std::size_t slots = p.slots();
  // The drawing slave dealt again: V is constant on each place in line.
  double mean = 0.0, at_least = 1.0;  // at_least: P(position >= k)
  for (std::size_t k = 0; k < slots; ++k) {
    const double next = k + 1 <= d.line.size() ? p.behind(k + 1) : 0.0;
    if (at_least - next > 0.0) mean += (at_least - next) * p.dealt_with(k).mean();
    at_least = next;
  }
  if (slots > d.line.size() || !(at_least > 0.0)) return mean;
  // Behind the dealt ones (position >= slots, probability at_least): Z = max(M, start + X) on
  // that event, E[Z; event] = lo P + integral over [lo, hi] of P - P(Z <= t, event), where
  // P(Z <= t, event) = P(M <= t) P(X <= t - start, event).
  const MaxOf m = p.dealt_without();
  const auto [x_lo, x_hi] = d.law->support();
  double a = minus_infinity, base = 0.0;  // the event is X >= a; base = P(X < a)
  if (slots > 0) {
    a = p.threshold(slots);
    base = cdf_below(*d.law, a);
  }
  auto joint = [&](double t) {
    const double in = std::max(0.0, d.law->cdf(t - d.start) - base);
    return in > 0.0 ? m.cdf(t) * in : 0.0;
  };
  const double lo = std::max(m.empty() ? minus_infinity : m.lo(), d.start + std::max(a, x_lo));
  const double hi = std::max(m.empty() ? minus_infinity : m.hi(), d.start + x_hi);
  std::vector<double> cuts = m.cuts();
  for (const double c : d.law->quadrature_cuts()) cuts.push_back(d.start + c);
  if (a > minus_infinity) cuts.push_back(d.start + a);
  return mean + lo * at_least + integrate([&](double t) { return at_least - joint(t); }, lo, hi, cuts);
}

}  // namespace hetstruct::bounds
