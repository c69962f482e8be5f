// bounds/dealing_controls: the master-slave end-of-pool value V(x) and its mean.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <boost/math/quadrature/gauss.hpp>

#include "bounds/dealing_controls.h"

namespace dealing_controls_test {

using hetstruct::bounds::Dealing;
using hetstruct::bounds::dealing_mean;
using hetstruct::bounds::dealing_value;
using hetstruct::distributions::Law;

namespace {

const Law slow = Law::uniform(0.0, 1.0);
const Law fast = Law::scaled(0.5, Law::uniform(0.0, 1.0));
const Law slow_normal = Law::paper_normal();
const Law fast_normal = Law::scaled(0.5, Law::paper_normal());

// A master-bound end of pool at C = 0.1: processor 3 draws at 100, five slaves wait, three tasks
// remain.
Dealing example(const Law& drawn, const Law& f, const Law& s, int remaining) {
  Dealing d;
  d.start = 100.0;
  d.processor = 3;
  d.law = &drawn;
  d.service = 0.2;
  d.remaining = remaining;
  d.line = {{99.35, 5, &s}, {99.6, 1, &f}, {99.8, 7, &s}, {100.15, 2, &f}, {100.5, 6, &s}};
  d.settled = 100.05;
  return d;
}

// E V(X) by a quadrature of V of its own: Gauss-Legendre on `pieces` equal pieces between each
// two points where V jumps or bends (the line's ready times, the settled end), from the start.
double mean_of_value(const Dealing& d, double lo, double hi, int pieces, const Law& law, bool normal) {
  using GL = boost::math::quadrature::gauss<double, 20>;
  std::vector<double> cuts = {lo, hi};
  for (const auto& w : d.line)
    if (w.ready - d.start > lo && w.ready - d.start < hi) cuts.push_back(w.ready - d.start);
  if (d.settled - d.start > lo && d.settled - d.start < hi) cuts.push_back(d.settled - d.start);
  std::sort(cuts.begin(), cuts.end());
  double total = 0.0;
  for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
    const double width = (cuts[c + 1] - cuts[c]) / pieces;
    for (int i = 0; i < pieces; ++i) {
      const double a = cuts[c] + i * width, b = a + width;
      total += GL::integrate(
          [&](double x) { return dealing_value(d, x) * (normal ? *law.pdf(x) : 1.0 / (hi - lo)); }, a, b);
    }
  }
  return total;
}

// The predicted end of pool, sampled: x, then the drawing slave's place in line, then fresh draws
// for the dealt slaves.
struct Sampled {
  double sum = 0.0, sum2 = 0.0;
  int count = 0;
  void add(double y) {
    sum += y;
    sum2 += y * y;
    ++count;
  }
  double mean() const { return sum / count; }
  double se() const { return std::sqrt((sum2 / count - mean() * mean()) / (count - 1)); }
};

template <class Draw>
double predicted_makespan(const Dealing& d, double x, Draw&& draw) {
  const double ready = d.start + x;
  std::size_t k = 0;
  while (k < d.line.size() && (d.line[k].ready < ready || (d.line[k].ready == ready && d.line[k].processor < d.processor))) ++k;
  const std::size_t slots = std::min<std::size_t>(d.remaining, d.line.size() + 1);
  double m = d.settled;
  std::size_t from_line = 0;
  bool drawn_dealt = false;
  for (std::size_t i = 0; i < slots; ++i) {
    const double begin = d.start + (i + 1) * d.service;
    if (i == k) {
      m = std::max(m, begin + draw(*d.law));
      drawn_dealt = true;
    } else {
      m = std::max(m, begin + draw(*d.line[from_line++].law));
    }
  }
  for (std::size_t i = from_line; i < d.line.size(); ++i) m = std::max(m, d.line[i].ready);
  if (!drawn_dealt) m = std::max(m, ready);
  return m;
}

}  // namespace

TEST_CASE("dealing: with no task left V is the latest end, and its mean a closed form", "[dealing]") {
  Dealing d = example(slow, fast, slow, 0);
  // V(x) = max(100.5, 100 + x); E = 100 + E max(0.5, X) = 100 + 0.5 * 0.5 + (1 - 0.25) / 2.
  CHECK(dealing_value(d, 0.2) == 100.5);
  CHECK(dealing_value(d, 0.7) == 100.7);
  CHECK(dealing_mean(d) == Approx(100.625).epsilon(1e-14));
}

TEST_CASE("dealing: the mean of V over the drawn law is dealing_mean", "[dealing]") {
  // Uniform laws: V is piecewise polynomial, continuous but where the drawing slave's place in line
  // changes, and C1 between (its slope is P(M <= start + x)): 40 pieces between the jumps take the
  // two quadratures to 1e-12 relative.
  for (int remaining : {1, 2, 3, 5, 6, 9}) {
    const Dealing d = example(slow, fast, slow, remaining);
    INFO("remaining " << remaining);
    CHECK(mean_of_value(d, 0.0, 1.0, 40, slow, false) == Approx(dealing_mean(d)).epsilon(1e-12));
  }
  // Normal laws (unbounded, negative times): 1e-9 relative, far below any standard error.
  for (int remaining : {1, 3, 6}) {
    const Dealing d = example(slow_normal, fast_normal, slow_normal, remaining);
    INFO("normal, remaining " << remaining);
    CHECK(mean_of_value(d, 0.5 - 9.0 * std::sqrt(1.0 / 12.0), 0.5 + 9.0 * std::sqrt(1.0 / 12.0), 40, slow_normal, true) ==
          Approx(dealing_mean(d)).epsilon(1e-9));
  }
}

TEST_CASE("dealing: V and its mean agree with the predicted end of pool, sampled", "[dealing]") {
  // 200,000 samples each, seed fixed; tolerance 4.5 standard errors.
  std::mt19937_64 rng(20261126);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> n(0.5, std::sqrt(1.0 / 12.0));
  for (const bool normal : {false, true}) {
    const Law& s = normal ? slow_normal : slow;
    const Law& f = normal ? fast_normal : fast;
    // The slow law or half of it (the fast one), told apart by the mean (1/2 or 1/4).
    auto draw = [&](const Law& law) { return (law.mean() > 0.4 ? 1.0 : 0.5) * (normal ? n(rng) : u(rng)); };
    for (int remaining : {0, 2, 4, 6}) {
      const Dealing d = example(s, f, s, remaining);
      INFO((normal ? "normal" : "uniform") << ", remaining " << remaining);
      Sampled all, at;
      for (int r = 0; r < 200000; ++r) {
        all.add(predicted_makespan(d, draw(s), draw));
        at.add(predicted_makespan(d, 0.45, draw));
      }
      CHECK(std::abs(all.mean() - dealing_mean(d)) <= 4.5 * all.se());
      CHECK(std::abs(at.mean() - dealing_value(d, 0.45)) <= 4.5 * at.se() + 1e-12);
    }
  }
}

TEST_CASE("dealing: equal ready times go to the lower processor first", "[dealing]") {
  // The drawing slave is back at 10.3, exactly when processor 4 is; one task remains, dealt at 11.
  const Law drawn = Law::constant(0.3), other = Law::constant(0.9);
  Dealing d;
  d.start = 10.0;
  d.law = &drawn;
  d.service = 1.0;
  d.remaining = 1;
  d.line = {{10.3, 4, &other}};
  d.processor = 2;  // first: dealt, ends at 11.3; processor 4 stands at 10.3
  CHECK(dealing_value(d, 0.3) == Approx(11.3).epsilon(1e-15));
  CHECK(dealing_mean(d) == Approx(11.3).epsilon(1e-15));
  d.processor = 6;  // second: processor 4 is dealt and ends at 11.9; the drawn task stands at 10.3
  CHECK(dealing_value(d, 0.3) == Approx(11.9).epsilon(1e-15));
  CHECK(dealing_mean(d) == Approx(11.9).epsilon(1e-15));
}

namespace {

using hetstruct::bounds::DealingControls;

// The example on the controls' own copies of the laws (their pointers must point into laws()).
Dealing on_controls(const DealingControls& c, bool normal_laws, int remaining) {
  const Law& s = c.laws()[0];
  const Law& f = c.laws()[1];
  Dealing d = example(normal_laws ? s : s, f, s, remaining);
  return d;
}

// E V~(X) on its own: V~ is constant between the grid's points and the line's ready times (where
// the drawing slave's place changes), so a sum over those pieces of V~ at the middle times the
// piece's probability is E V~ up to rounding (the tails beyond [lo, hi] hold 1e-15).
double mean_by_pieces(const DealingControls& c, const Dealing& d, double lo, double hi) {
  std::vector<double> cuts = {lo, hi};
  for (double u = std::floor(lo / c.step()); u * c.step() < hi; ++u)
    if (u * c.step() > lo) cuts.push_back(u * c.step());
  for (const auto& w : d.line)
    if (w.ready - d.start > lo && w.ready - d.start < hi) cuts.push_back(w.ready - d.start);
  std::sort(cuts.begin(), cuts.end());
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
    total += c(d, 0.5 * (cuts[i] + cuts[i + 1])).value * (d.law->cdf(cuts[i + 1]) - d.law->cdf(cuts[i]));
  return total;
}

}  // namespace

TEST_CASE("dealing controls: V~ is within 0.01 of V and its mean is exact for it", "[dealing]") {
  // rare = 0 (no piece merged) for V~ against V; the estimator's 1e-3 for the mean as well.
  for (const double rare : {0.0, 1e-3})
  for (const bool normal : {false, true}) {
    const Law s = normal ? slow_normal : slow, f = normal ? fast_normal : fast;
    const DealingControls c({s, f}, 0.2, rare);
    // Wilson's fast law's sd is 0.144: the step is 0.2 / 12.
    CHECK(c.step() == Approx(0.2 / 12).epsilon(1e-15));
    const double sd = std::sqrt(1.0 / 12.0);
    const double lo = normal ? 0.5 - 8.0 * sd : 0.0, hi = normal ? 0.5 + 8.0 * sd : 1.0;
    for (int remaining : {0, 1, 2, 3, 5, 6, 9}) {
      const Dealing d = on_controls(c, normal, remaining);
      INFO((normal ? "normal" : "uniform") << ", remaining " << remaining);
      // Within 5 sd: beyond, where the grid's table ends (probability 1e-7), V~ is constant.
      const double near_lo = normal ? 0.5 - 5.0 * sd : lo, near_hi = normal ? 0.5 + 5.0 * sd : hi;
      double worst = 0.0;
      for (double x = near_lo; x <= near_hi; x += (near_hi - near_lo) / 997) worst = std::max(worst, std::abs(c(d, x).value - dealing_value(d, x)));
      INFO("rare " << rare << ", worst |V~ - V| " << worst);
      if (rare == 0.0) CHECK(worst <= 0.01);
      const double mean = c(d, 0.3).mean;
      CHECK(std::abs(mean - dealing_mean(d)) <= 0.005);
      CHECK(mean_by_pieces(c, d, lo, hi) == Approx(mean).epsilon(1e-12));
      // Each value x gives the same mean: it is a function of the state alone.
      CHECK(c(d, lo + 0.1).mean == mean);
    }
  }
}

}  // namespace dealing_controls_test
