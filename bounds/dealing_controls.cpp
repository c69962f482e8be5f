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
    // Then the least x with start + x >= at, rounded as the sum is: bisection (the ulps of x can
    // be thousands of times finer than the sum's, so stepping by them is slow).
    const double guess = at - d.start, ulp = std::nextafter(std::abs(at) + std::abs(d.start), infinity) -
                                             (std::abs(at) + std::abs(d.start));
    double lo = guess - 2.0 * ulp, hi = guess + 2.0 * ulp;  // start + lo < at <= start + hi
    while (d.start + lo >= at) lo -= ulp;
    while (d.start + hi < at) hi += ulp;
    for (;;) {
      const double mid = lo + 0.5 * (hi - lo);
      if (mid <= lo || mid >= hi) return hi;
      (d.start + mid >= at ? hi : lo) = mid;
    }
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

// P(position >= k) for k = 0 .. slots (1 at 0; 0 where k is past the line).
void place_probabilities(const Prediction& p, std::vector<double>& behind) {
  behind.assign(p.slots() + 1, 0.0);
  behind[0] = 1.0;
  for (std::size_t k = 1; k <= p.slots(); ++k) behind[k] = k <= p.d.line.size() ? p.behind(k) : 0.0;
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
  std::vector<double> behind;
  place_probabilities(p, behind);
  double mean = 0.0;
  for (std::size_t k = 0; k < slots; ++k)
    if (behind[k] - behind[k + 1] > 0.0) mean += (behind[k] - behind[k + 1]) * p.dealt_with(k).mean();
  const double at_least = behind[slots];
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

namespace {

constexpr double clip = 1e-7;  // a tabulated CDF below clip is taken as 0, above 1 - clip as 1

// The grid step: at most every law's sd / 8, and service / m for a whole m (0: no service).
double grid_step(const std::vector<Law>& laws, double service) {
  double target = infinity;
  for (const Law& law : laws) {
    const double sd = std::sqrt(law.variance());
    if (sd > 0.0) target = std::min(target, sd / 8.0);
  }
  if (!(target < infinity)) target = 1.0;  // constant laws only: any step is exact
  if (!(service > 0.0)) return target;
  return service / std::ceil(service / target);
}

}  // namespace

bool DealingControls::fits(const std::vector<Law>& laws, double service) {
  if (!(service >= 0.0) || !std::isfinite(service)) return false;
  const double step = grid_step(laws, service);
  return std::all_of(laws.begin(), laws.end(), [step](const Law& law) {
    const auto [lo, hi] = law.support();
    return (hi - lo) / step <= max_cells;
  });
}

double DealingControls::Table::at(long u) const {
  const long i = std::clamp<long>(u - first + 1, 0, static_cast<long>(clipped.size()) - 1);
  return clipped[static_cast<std::size_t>(i)];
}

DealingControls::DealingControls(std::vector<Law> laws, double service, double rare)
    : laws_(std::move(laws)), service_(service), rare_(rare), step_(grid_step(laws_, service)) {
  if (!fits(laws_, service)) throw std::invalid_argument("dealing controls: service < 0, or a law too wide for the grid");
  per_service_ = std::lround(service / step_);
  for (const Law& law : laws_) {
    const auto [lo, hi] = law.support();
    Table t;
    const long from = static_cast<long>(std::floor(lo / step_)) - 1, to = static_cast<long>(std::ceil(hi / step_)) + 1;
    long first = to + 1, last = from - 1;  // the grid points where clip <= CDF <= 1 - clip
    std::vector<double> cdf;
    for (long u = from; u <= to; ++u) {
      cdf.push_back(law.cdf(static_cast<double>(u) * step_));
      if (cdf.back() >= clip && cdf.back() <= 1.0 - clip) {
        first = std::min(first, u);
        last = std::max(last, u);
      }
    }
    if (first > last) {  // a step from below clip to above 1 - clip between two grid points
      for (long u = from; u <= to; ++u)
        if (cdf[static_cast<std::size_t>(u - from)] > 1.0 - clip) {
          first = u;
          break;
        }
      last = first - 1;
    }
    t.first = static_cast<int>(first);
    t.clipped.push_back(0.0);
    for (long u = first; u <= last; ++u) t.clipped.push_back(cdf[static_cast<std::size_t>(u - from)]);
    t.clipped.push_back(1.0);
    for (long u = first; u <= last + 1; ++u) t.below.push_back(cdf_below(law, static_cast<double>(u) * step_));
    tables_.push_back(std::move(t));
  }
}

std::size_t DealingControls::index_of(const Law* law) const {
  if (law >= laws_.data() && law < laws_.data() + laws_.size()) return static_cast<std::size_t>(law - laws_.data());
  throw std::invalid_argument("dealing controls: a law of the state is not one of the controls' laws");
}

DealingControls::Values DealingControls::operator()(const Dealing& d, double x) const {
  check(d);
  if (d.service != service_) throw std::invalid_argument("dealing controls: the state's service is not the grid's");
  const Prediction p{d};
  const std::size_t slots = p.slots();
  const bool can_be_behind = slots <= d.line.size();
  const double h = step_;
  const long m = per_service_;
  // Everything from here on is relative to the start (node j is at start + j h).
  thread_local std::vector<const Table*> line, shifted;  // slot i's law: the line's i-th, the (i-1)-th
  thread_local std::vector<double> g_line, g_shifted, g_drawn, prefix, suffix, with_previous, with_tail, without;
  const Table& drawn = tables_[index_of(d.law)];
  line.assign(slots, nullptr);
  shifted.assign(slots, nullptr);
  int lowest = drawn.first, highest = drawn.first + static_cast<int>(drawn.clipped.size()) - 2;
  for (std::size_t i = 0; i < slots; ++i) {
    if (i < d.line.size()) line[i] = &tables_[index_of(d.line[i].law)];
    if (i >= 1) shifted[i] = line[i - 1];
    if (line[i]) {
      lowest = std::min(lowest, line[i]->first);
      highest = std::max(highest, line[i]->first + static_cast<int>(line[i]->clipped.size()) - 2);
    }
  }
  const double standing_with = slots > 0 ? p.standing(slots - 1) - d.start : minus_infinity;
  const double standing_without = can_be_behind ? p.standing(slots) - d.start : minus_infinity;
  // Nodes jb .. jt: every product is 0 at jb and 1 from jt on.
  const long jb = static_cast<long>(slots) * m + lowest - 1, jt = static_cast<long>(slots) * m + highest + 1;
  const auto node = [h](long j) { return static_cast<double>(j) * h; };
  // c~_k = E max(standing, M~_k) = s + Tail_k(s), s = max(standing, node jb): Tail_k by trapezoids
  // from s up (a part of the cell holding s, where F~ is interpolated), F~ linear between nodes.
  const double from = std::max(standing_with, node(jb));
  with_previous.assign(slots, 0.0);
  with_tail.assign(slots, 0.0);
  without.clear();
  g_line.resize(slots);
  g_shifted.resize(slots);
  g_drawn.resize(slots);
  prefix.resize(slots + 1);
  suffix.resize(slots + 1);
  for (long j = jb; j <= jt && slots > 0; ++j) {
    for (std::size_t i = 0; i < slots; ++i) {
      const long u = j - static_cast<long>(i + 1) * m;
      g_drawn[i] = drawn.at(u);
      g_line[i] = line[i] ? line[i]->at(u) : 1.0;
      g_shifted[i] = shifted[i] ? shifted[i]->at(u) : 1.0;
    }
    prefix[0] = 1.0;
    for (std::size_t i = 0; i < slots; ++i) prefix[i + 1] = prefix[i] * g_line[i];
    suffix[slots - 1] = 1.0;  // suffix[k]: the slots after k, each with the line's previous law
    for (std::size_t i = slots - 1; i > 0; --i) suffix[i - 1] = suffix[i] * g_shifted[i];
    if (can_be_behind) without.push_back(prefix[slots]);
    const double t = node(j), t0 = node(j - 1);
    for (std::size_t k = 0; k < slots; ++k) {
      const double f = prefix[k] * g_drawn[k] * suffix[k];
      if (j > jb && t > from) {
        // The interval [t0, t] above `from`: its part [max(t0, from), t], F~ linear.
        const double a = std::max(t0, from);
        const double fa = a == t0 ? with_previous[k] : with_previous[k] + (f - with_previous[k]) * (a - t0) / h;
        with_tail[k] += (t - a) * (1.0 - 0.5 * (fa + f));
      }
      with_previous[k] = f;
    }
  }
  // Above node jt every product is 1: nothing more to add. Where standing is above jt, c~ is it.
  thread_local std::vector<double> with_value, behind;
  with_value.resize(slots);
  for (std::size_t k = 0; k < slots; ++k) with_value[k] = from >= node(jt) ? from : from + with_tail[k];
  place_probabilities(p, behind);
  // Behind the dealt ones: H~(y) = E max(standing, M~, y) = w + Tail(w), w = max(standing, y),
  // constant on each cell of x at the cell's middle. Tail from the stored products by suffix sums.
  thread_local std::vector<double> tail;  // tail[i]: the integral of 1 - F~ from node jb + i up
  tail.assign(without.size() + 1, 0.0);
  for (std::size_t i = without.size(); i-- > 1;) tail[i - 1] = tail[i] + h * (1.0 - 0.5 * (without[i - 1] + without[i]));
  const auto behind_value = [&](double y) {  // relative to the start
    const double w = std::max(standing_without, y);
    if (slots == 0 || w >= node(jt)) return w;
    if (w <= node(jb)) return node(jb) + tail[0];
    const long j = static_cast<long>(std::floor(w / h));
    std::size_t i = static_cast<std::size_t>(std::clamp<long>(j - jb, 0, static_cast<long>(without.size()) - 2));
    const double t0 = node(jb + static_cast<long>(i)), f0 = without[i], f1 = without[i + 1];
    const double fw = f0 + (f1 - f0) * (w - t0) / h;
    return w + tail[i + 1] + (node(jb + static_cast<long>(i) + 1) - w) * (1.0 - 0.5 * (fw + f1));
  };
  // x's cell: -1 below the table, cells() above it.
  const long cells = static_cast<long>(drawn.below.size()) - 1;  // the table's cells
  const auto cell_middle = [&](long c) {
    if (c < 0) return node(drawn.first);
    if (c >= cells) return node(drawn.first + cells);
    return (static_cast<double>(drawn.first + c) + 0.5) * h;
  };
  const auto cell_of = [&](double y) {
    long u = static_cast<long>(std::floor(y / h));
    while (u > drawn.first - 1 && y < node(u)) --u;
    while (u < drawn.first + cells && y >= node(u + 1)) ++u;
    return std::clamp<long>(u - drawn.first, -1, cells);
  };
  // The pieces of x in order, each with its probability and V~: the places in line, then the cells
  // behind the dealt ones.
  thread_local std::vector<double> probability, piece_value;
  probability.clear();
  piece_value.clear();
  for (std::size_t k = 0; k < slots; ++k) {
    probability.push_back(behind[k] - behind[k + 1]);
    piece_value.push_back(with_value[k]);
  }
  long first_cell = -1;
  if (can_be_behind && behind[slots] > 0.0) {
    const double b = slots > 0 ? p.threshold(slots) : minus_infinity;
    const double below_b = slots > 0 ? cdf_below(*d.law, b) : 0.0;
    first_cell = slots > 0 ? cell_of(b) : -1;
    // P(X < edge) at the cells' edges: cell c is [edge c, edge c+1), -1 and cells() unbounded.
    const auto below_edge = [&](long c) {  // P(X < lower edge of cell c)
      if (c <= -1) return 0.0;
      if (c > cells) return 1.0;
      return drawn.below[static_cast<std::size_t>(c)];
    };
    for (long c = first_cell; c <= cells; ++c) {
      const double lower = c == first_cell ? std::max(below_b, below_edge(c)) : below_edge(c);
      const double upper = c == cells ? 1.0 : below_edge(c + 1);
      probability.push_back(std::max(0.0, upper - lower));
      piece_value.push_back(behind_value(cell_middle(c)));
    }
  }
  // A piece rarer than rare_ takes the value of the nearest piece before it that is not (after
  // it, for the first ones). See the constructor's comment in the header.
  std::size_t first_common = probability.size();
  for (std::size_t i = 0, last = probability.size(); i < probability.size(); ++i) {
    if (probability[i] >= rare_) {
      last = i;
      first_common = std::min(first_common, i);
    } else if (last < probability.size()) {
      piece_value[i] = piece_value[last];
    }
  }
  for (std::size_t i = 0; i < first_common && first_common < probability.size(); ++i) piece_value[i] = piece_value[first_common];
  // The mean as a reference value plus the weighed deviations from it; values within 1e-12 of it
  // (relative to the times' size) count as equal to it: where V~ is constant (a draw that changes
  // nothing the prediction sees) the control is then exactly 0, not rounding noise for the
  // regression to fit.
  const double reference = piece_value.empty() ? 0.0 : piece_value[std::min(first_common, piece_value.size() - 1)];
  const auto deviation = [&](double v) {
    const double e = v - reference;
    return std::abs(e) <= 1e-12 * (1.0 + std::abs(d.start) + std::abs(reference)) ? 0.0 : e;
  };
  double mean = 0.0;
  for (std::size_t i = 0; i < probability.size(); ++i) mean += probability[i] * deviation(piece_value[i]);
  const std::size_t k = p.position(x);
  const std::size_t piece =
      k < slots ? k : slots + static_cast<std::size_t>(std::max<long>(0, cell_of(x) - first_cell));
  const double value = deviation(piece_value[std::min(piece, piece_value.size() - 1)]);
  return {d.start + reference + value, d.start + reference + mean, value - mean};
}

}  // namespace hetstruct::bounds
