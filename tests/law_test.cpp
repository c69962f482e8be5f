// Tests of distributions/law.h (moments, cdf, pdf, support, the law syntax) and of the Sampler.
//
// Tolerances: exact closed forms are compared to 1e-12 relative (a few dozen ulps: every quantity
// here is a handful of floating-point operations plus one erf/erfc, each good to ~1 ulp).
// Monte Carlo checks use fixed seeds and allow 5 standard errors of the estimate; the standard
// error is stated next to each check.

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <boost/random/mersenne_twister.hpp>

#include "distributions/format.h"
#include "distributions/input_error.h"
#include "distributions/law.h"
#include "distributions/sampler.h"
#include "distributions/ziggurat.h"
#include "engine/kernel/streams.h"

namespace law_test {

using hetstruct::InputError;
using hetstruct::distributions::LeafKind;
using hetstruct::distributions::Law;
using hetstruct::distributions::parse_law;
using hetstruct::distributions::parse_number;
using hetstruct::distributions::Sampler;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

constexpr double exact_rel = 1e-12;

const boost::math::normal_distribution<double> standard_normal(0.0, 1.0);

double Phi(double z) { return boost::math::cdf(standard_normal, z); }
double upper_Phi(double z) { return boost::math::cdf(boost::math::complement(standard_normal, z)); }
double phi(double z) { return boost::math::pdf(standard_normal, z); }

// Textbook moments of N(mu, var) conditioned on X >= 0 (lower truncation point 0):
// alpha = -mu/s, Z = P(X >= 0) = 1 - Phi(alpha), lambda = phi(alpha)/Z,
// E = mu + s lambda, Var = var (1 + alpha lambda - lambda^2). Z is taken as an upper tail so
// that it keeps full relative precision when the mass above 0 is small.
struct TruncatedMoments {
  double mean, variance;
};
TruncatedMoments truncated_normal_moments(double mu, double var) {
  const double s = std::sqrt(var), alpha = -mu / s;
  const double lambda = phi(alpha) / upper_Phi(alpha);
  return {mu + s * lambda, var * (1.0 + alpha * lambda - lambda * lambda)};
}

// cdf of N(mu, var) conditioned on X >= 0, from boost.
double truncated_normal_cdf(double mu, double var, double x) {
  if (x <= 0.0) return 0.0;
  const boost::math::normal_distribution<double> n(mu, std::sqrt(var));
  return (boost::math::cdf(boost::math::complement(n, 0.0)) - boost::math::cdf(boost::math::complement(n, x))) /
         boost::math::cdf(boost::math::complement(n, 0.0));
}

// Parses `text`, which must fail; checks that the message names the text, contains `problem`,
// and reports the 0-based position `position`.
void check_parse_error(const std::string& text, const std::string& problem, std::size_t position) {
  INFO("law text: '" << text << "'");
  bool threw = false;
  try {
    parse_law(text);
  } catch (const InputError& e) {
    threw = true;
    const std::string what = e.what();
    INFO("message: " << what);
    CHECK_THAT(what, Contains("'" + text + "'"));
    CHECK_THAT(what, Contains(problem));
    const auto at = what.find("at position ");
    REQUIRE(at != std::string::npos);
    CHECK(std::stoul(what.substr(at + 12)) == position);
  }
  CHECK(threw);
}

struct SampleMoments {
  double mean, variance, se_mean, se_variance;
};

// Sample mean and (population-normalised) variance of n draws, with their standard errors:
// SE(mean) = sd/sqrt(n); SE(variance) = sqrt((m4 - var^2)/n), m4 the sample fourth central
// moment (the delta-method variance of the sample variance).
template <class Draw>
SampleMoments sample_moments(std::size_t n, Draw draw) {
  std::vector<double> x(n);
  double sum = 0.0;
  for (auto& v : x) sum += (v = draw());
  const double mean = sum / n;
  double m2 = 0.0, m4 = 0.0;
  for (double v : x) {
    const double d2 = (v - mean) * (v - mean);
    m2 += d2;
    m4 += d2 * d2;
  }
  m2 /= n;
  m4 /= n;
  return {mean, m2, std::sqrt(m2 / n), std::sqrt((m4 - m2 * m2) / n)};
}

}  // namespace

// ---- Moments -----------------------------------------------------------------------------------

TEST_CASE("law moments: uniform, normal, constant", "[law]") {
  const Law u = Law::uniform(-1.0, 3.0);
  CHECK_THAT(u.mean(), WithinRel(1.0, exact_rel));
  CHECK_THAT(u.variance(), WithinRel(16.0 / 12.0, exact_rel));

  const Law p = Law::paper_uniform();
  CHECK(p == Law::uniform(0.0, 1.0));
  CHECK_THAT(p.mean(), WithinRel(0.5, exact_rel));
  CHECK_THAT(p.variance(), WithinRel(1.0 / 12.0, exact_rel));

  const Law n = Law::normal(0.5, 1.0 / 12.0);
  CHECK(n == Law::paper_normal());
  CHECK_THAT(n.mean(), WithinRel(0.5, exact_rel));
  CHECK_THAT(n.variance(), WithinRel(1.0 / 12.0, exact_rel));

  const Law c = Law::constant(0.7);
  CHECK_THAT(c.mean(), WithinRel(0.7, exact_rel));
  CHECK(c.variance() == 0.0);
}

TEST_CASE("law moments: truncated normal matches the textbook formulas", "[law]") {
  // (0.2, 1): about 42% of the mass cut off; (2, 1/4): almost nothing cut off; (-1, 1): most cut
  // off; (-7, 1): only 1.3e-12 of the mass is kept, where the normalising constant must be taken
  // as an upper tail (1 - Phi(7) in double has only 4 correct digits).
  struct Case {
    double mu, var;
  };
  for (const Case c : {Case{0.2, 1.0}, Case{2.0, 0.25}, Case{-1.0, 1.0}, Case{-7.0, 1.0}}) {
    INFO("tn(" << c.mu << "," << c.var << ")");
    const Law tn = Law::truncated_normal(c.mu, c.var);
    const auto expected = truncated_normal_moments(c.mu, c.var);
    CHECK_THAT(tn.mean(), WithinRel(expected.mean, exact_rel));
    // Var = var (1 + alpha lambda - lambda^2) cancels about 3 digits at mu/s = -7 (terms of
    // size 50 giving 0.018), so the variance is compared to 1e-9 relative there.
    CHECK_THAT(tn.variance(), WithinRel(expected.variance, c.mu < -5 ? 1e-9 : exact_rel));
  }
  // tn(-7,1) against 30-digit values computed with mpmath (same formulas, exact arithmetic).
  const Law deep = Law::truncated_normal(-7.0, 1.0);
  CHECK_THAT(deep.mean(), WithinRel(0.137545613226503276, exact_rel));
  CHECK_THAT(deep.variance(), WithinRel(0.0182619116966222315, 1e-9));
}

TEST_CASE("law moments: scaled law a*X has mean a mu and variance a^2 var", "[law]") {
  const Law n = Law::normal(1.0, 2.0);
  const Law s = Law::scaled(3.0, n);
  CHECK_THAT(s.mean(), WithinRel(3.0, exact_rel));
  CHECK_THAT(s.variance(), WithinRel(18.0, exact_rel));

  const Law u = Law::scaled(0.5, Law::uniform(0.0, 1.0));
  CHECK_THAT(u.mean(), WithinRel(0.25, exact_rel));
  CHECK_THAT(u.variance(), WithinRel(0.25 / 12.0, exact_rel));

  const Law tn = Law::truncated_normal(0.2, 1.0);
  const Law stn = Law::scaled(2.5, tn);
  CHECK_THAT(stn.mean(), WithinRel(2.5 * tn.mean(), exact_rel));
  CHECK_THAT(stn.variance(), WithinRel(6.25 * tn.variance(), exact_rel));

  // Scales compose: a*(b*X) is (a b)*X, one leaf.
  const Law twice = Law::scaled(4.0, Law::scaled(0.25, Law::uniform(2.0, 6.0)));
  REQUIRE(twice.is_leaf());
  CHECK(twice.components()[0].leaf.scale == 1.0);
  CHECK_THAT(twice.mean(), WithinRel(4.0, exact_rel));

  // A scale factor must be > 0 and finite.
  CHECK_THROWS_AS(Law::scaled(0.0, n), InputError);
  CHECK_THROWS_AS(Law::scaled(-2.0, n), InputError);
  CHECK_THROWS_AS(Law::scaled(INFINITY, n), InputError);
}

TEST_CASE("law moments: mixture follows the law of total variance", "[law]") {
  // mix(0.25:u(0,2), 0.75:n(3,1/2)): E = sum w_i m_i; Var = sum w_i (v_i + (m_i - E)^2).
  const Law mix = Law::mixture({{0.25, Law::uniform(0.0, 2.0)}, {0.75, Law::normal(3.0, 0.5)}});
  const double m = 0.25 * 1.0 + 0.75 * 3.0;
  const double v = 0.25 * (4.0 / 12.0 + (1.0 - m) * (1.0 - m)) + 0.75 * (0.5 + (3.0 - m) * (3.0 - m));
  CHECK_THAT(mix.mean(), WithinRel(2.5, exact_rel));
  CHECK_THAT(mix.mean(), WithinRel(m, exact_rel));
  CHECK_THAT(mix.variance(), WithinRel(v, exact_rel));
  CHECK_THAT(mix.variance(), WithinRel(29.0 / 24.0, exact_rel));

  // Scaling a mixture scales every component: 2*mix(0.5:u(0,1),0.5:c(1)).
  // E = 2 (0.25 + 0.5) = 1.5; Var = 4 (0.5 (1/12 + 1/16) + 0.5 (1/16)) = 5/12.
  const Law smix = Law::scaled(2.0, Law::mixture({{0.5, Law::uniform(0.0, 1.0)}, {0.5, Law::constant(1.0)}}));
  REQUIRE(smix.components().size() == 2);
  CHECK(smix.components()[0].leaf.scale == 2.0);
  CHECK(smix.components()[1].leaf.scale == 2.0);
  CHECK_THAT(smix.mean(), WithinRel(1.5, exact_rel));
  CHECK_THAT(smix.variance(), WithinRel(5.0 / 12.0, exact_rel));

  // Nested mixtures are flattened with multiplied weights.
  const Law nested = Law::mixture({{0.4, Law::mixture({{0.5, Law::constant(0.0)}, {0.5, Law::constant(1.0)}})},
                                   {0.6, Law::constant(2.0)}});
  REQUIRE(nested.components().size() == 3);
  CHECK(nested.components()[0].weight == 0.2);
  CHECK(nested.components()[1].weight == 0.2);
  CHECK(nested.components()[2].weight == 0.6);
  // E = 0.2*0 + 0.2*1 + 0.6*2 = 1.4; E[X^2] = 0.2 + 2.4 = 2.6; Var = 2.6 - 1.96 = 0.64.
  CHECK_THAT(nested.mean(), WithinRel(1.4, exact_rel));
  CHECK_THAT(nested.variance(), WithinRel(0.64, exact_rel));

  CHECK_THROWS_AS(Law::mixture({}), InputError);
  CHECK_THROWS_AS(Law::mixture({{0.5, Law::constant(1.0)}}), InputError);                            // sums to 0.5
  CHECK_THROWS_AS(Law::mixture({{0.0, Law::constant(1.0)}, {1.0, Law::constant(2.0)}}), InputError);  // weight 0
}

TEST_CASE("law moments: the third central moment, by leaf, scaled and mixed", "[law]") {
  // Textbook values: exp(theta) 2 theta^3; gamma(k, theta) 2 k theta^3; Weibull of shape 1 is the
  // exponential of mean `scale`; symmetric leaves 0; a*X gives a^3 times X's.
  CHECK_THAT(*Law::exponential(2.0).third_central_moment(), WithinRel(16.0, exact_rel));
  CHECK_THAT(*Law::gamma(2.0, 0.25).third_central_moment(), WithinRel(0.0625, exact_rel));
  CHECK_THAT(*Law::weibull(1.0, 3.0).third_central_moment(), WithinRel(54.0, 1e-10));
  CHECK_THAT(*Law::scaled(2.0, Law::exponential(1.0)).third_central_moment(), WithinRel(16.0, exact_rel));
  CHECK(*Law::paper_uniform().third_central_moment() == 0.0);
  CHECK(*Law::paper_normal().third_central_moment() == 0.0);
  // lognormal(0, 1/2) from its raw moments E X^k = exp(k^2 sigma^2 / 2).
  const double r1 = std::exp(0.125), r2 = std::exp(0.5), r3 = std::exp(1.125);
  CHECK_THAT(*Law::lognormal(0.0, 0.5).third_central_moment(), WithinRel(r3 - 3.0 * r1 * r2 + 2.0 * r1 * r1 * r1, 1e-12));
  // The data 0, 1, 1, 5 (mean 1.75): (-1.75^3 - 2 * 0.75^3 + 3.25^3) / 4 = 7.03125.
  CHECK_THAT(*Law::empirical({0.0, 1.0, 1.0, 5.0}, "data").third_central_moment(), WithinRel(7.03125, exact_rel));
  // Point masses 0, 1, 2 with weights 0.2, 0.2, 0.6 (mean 1.4): 0.2 (-1.4)^3 + 0.2 (-0.4)^3 + 0.6 (0.6)^3.
  const Law nested = Law::mixture({{0.4, Law::mixture({{0.5, Law::constant(0.0)}, {0.5, Law::constant(1.0)}})},
                                   {0.6, Law::constant(2.0)}});
  CHECK_THAT(*nested.third_central_moment(), WithinRel(-0.432, 1e-12));
  // u(0,1) and 2 (mean 1.55): 0.3 (3 (-1.05) / 12 + (-1.05)^3) + 0.7 (0.45)^3 = -0.36225.
  const Law skewed = Law::mixture({{0.3, Law::paper_uniform()}, {0.7, Law::constant(2.0)}});
  CHECK_THAT(*skewed.third_central_moment(), WithinRel(-0.36225, 1e-12));
  // No closed form kept for the truncated normal, alone or in a mixture.
  CHECK_FALSE(Law::truncated_normal(1.0, 0.25).third_central_moment());
  CHECK_FALSE(Law::mixture({{0.5, Law::truncated_normal(1.0, 0.25)}, {0.5, Law::paper_uniform()}}).third_central_moment());
}

TEST_CASE("law constructors reject invalid parameters", "[law]") {
  CHECK_THROWS_AS(Law::uniform(1.0, 1.0), InputError);
  CHECK_THROWS_AS(Law::uniform(1.0, 0.0), InputError);
  CHECK_THROWS_AS(Law::uniform(NAN, 1.0), InputError);
  CHECK_THROWS_AS(Law::normal(0.0, 0.0), InputError);
  CHECK_THROWS_AS(Law::normal(0.0, -1.0), InputError);
  CHECK_THROWS_AS(Law::normal(INFINITY, 1.0), InputError);
  CHECK_THROWS_AS(Law::constant(NAN), InputError);
  // tn needs a non-negligible mass at or above 0: P(N(-8,1) >= 0) = 6e-16 < 1e-12.
  CHECK_THROWS_AS(Law::truncated_normal(-8.0, 1.0), InputError);
  CHECK_NOTHROW(Law::truncated_normal(-7.0, 1.0));  // 1.3e-12 >= 1e-12
}

// ---- cdf, pdf, support, breakpoints ------------------------------------------------------------

TEST_CASE("law cdf at chosen points", "[law]") {
  const Law u = Law::uniform(0.0, 1.0);
  CHECK(u.cdf(-1.0) == 0.0);
  CHECK(u.cdf(0.0) == 0.0);
  CHECK(u.cdf(0.3) == 0.3);
  CHECK(u.cdf(1.0) == 1.0);
  CHECK(u.cdf(2.0) == 1.0);
  CHECK(Law::uniform(2.0, 6.0).cdf(3.0) == 0.25);

  const Law n = Law::normal(0.5, 1.0 / 12.0);
  const boost::math::normal_distribution<double> bn(0.5, std::sqrt(1.0 / 12.0));
  for (double x : {-0.5, 0.0, 0.3, 0.5, 0.9, 1.5}) {
    INFO("x = " << x);
    CHECK_THAT(n.cdf(x), WithinRel(boost::math::cdf(bn, x), exact_rel));
  }

  // 0.5*u(0,1) is u(0,0.5): P(X <= 0.2) = 0.4.
  CHECK_THAT(Law::scaled(0.5, u).cdf(0.2), WithinRel(0.4, exact_rel));
  // 0.5*n(0.5,1/12) is n(0.25, 1/48).
  const boost::math::normal_distribution<double> bsn(0.25, std::sqrt(1.0 / 48.0));
  CHECK_THAT(Law::scaled(0.5, n).cdf(0.4), WithinRel(boost::math::cdf(bsn, 0.4), exact_rel));

  // Mixture: the weighted sum of the components' cdfs.
  const Law mix = Law::mixture({{0.25, Law::uniform(0.0, 2.0)}, {0.75, Law::normal(3.0, 0.5)}});
  const boost::math::normal_distribution<double> b3(3.0, std::sqrt(0.5));
  for (double x : {0.5, 1.5, 2.5, 3.0, 4.0}) {
    INFO("x = " << x);
    const double expected = 0.25 * std::min(x / 2.0, 1.0) + 0.75 * boost::math::cdf(b3, x);
    CHECK_THAT(mix.cdf(x), WithinRel(expected, exact_rel));
  }

  // Truncated normal: conditioned on X >= 0.
  const Law tn = Law::truncated_normal(0.2, 1.0);
  CHECK(tn.cdf(-0.1) == 0.0);
  for (double x : {0.1, 0.2, 1.0, 3.0}) {
    INFO("x = " << x);
    CHECK_THAT(tn.cdf(x), WithinRel(truncated_normal_cdf(0.2, 1.0, x), exact_rel));
  }
  // Deep truncation, where 1 - Phi(7) must not be computed by subtraction.
  const Law deep = Law::truncated_normal(-7.0, 1.0);
  for (double x : {0.01, 0.1, 0.5}) {
    INFO("x = " << x);
    CHECK_THAT(deep.cdf(x), WithinRel(truncated_normal_cdf(-7.0, 1.0, x), 1e-10));
  }

  // A constant: P(X <= x) is a step at the value, included.
  const Law c = Law::constant(0.7);
  CHECK(c.cdf(0.69) == 0.0);
  CHECK(c.cdf(0.7) == 1.0);
  CHECK(c.cdf(0.71) == 1.0);
}

TEST_CASE("law negative_probability", "[law]") {
  // n(0.5, 1/12): P(X < 0) = Phi(-0.5 / sqrt(1/12)) = Phi(-sqrt 3) = 0.0416...
  CHECK_THAT(Law::normal(0.5, 1.0 / 12.0).negative_probability(),
             WithinRel(Phi(-0.5 / std::sqrt(1.0 / 12.0)), exact_rel));
  CHECK(Law::uniform(0.0, 1.0).negative_probability() == 0.0);
  CHECK(Law::truncated_normal(0.2, 1.0).negative_probability() == 0.0);
  CHECK(Law::constant(0.0).negative_probability() == 0.0);  // strict: P(X < 0)
  CHECK(Law::constant(-1.0).negative_probability() == 1.0);
  CHECK_THAT(Law::uniform(-1.0, 3.0).negative_probability(), WithinRel(0.25, exact_rel));
  // mix(0.5:c(-1), 0.5:u(-1,1)): 0.5 + 0.5 * 0.5.
  CHECK_THAT(Law::mixture({{0.5, Law::constant(-1.0)}, {0.5, Law::uniform(-1.0, 1.0)}}).negative_probability(),
             WithinRel(0.75, exact_rel));
}

TEST_CASE("law pdf", "[law]") {
  const Law u = Law::uniform(0.0, 2.0);
  REQUIRE(u.pdf(1.0).has_value());
  CHECK(*u.pdf(1.0) == 0.5);
  CHECK(*u.pdf(3.0) == 0.0);
  CHECK(*u.pdf(-0.5) == 0.0);

  const boost::math::normal_distribution<double> bn(0.5, std::sqrt(1.0 / 12.0));
  const Law n = Law::normal(0.5, 1.0 / 12.0);
  for (double x : {-0.2, 0.5, 1.1}) CHECK_THAT(*n.pdf(x), WithinRel(boost::math::pdf(bn, x), exact_rel));

  // 0.5*u(0,1) has density 2 on (0, 0.5).
  CHECK_THAT(*Law::scaled(0.5, Law::uniform(0.0, 1.0)).pdf(0.25), WithinRel(2.0, exact_rel));
  CHECK(*Law::scaled(0.5, Law::uniform(0.0, 1.0)).pdf(0.75) == 0.0);

  // tn(0.2,1): phi((x-0.2))/P(N(0.2,1) >= 0) for x >= 0, 0 below.
  const Law tn = Law::truncated_normal(0.2, 1.0);
  CHECK(*tn.pdf(-0.1) == 0.0);
  CHECK_THAT(*tn.pdf(0.7), WithinRel(phi(0.5) / Phi(0.2), exact_rel));

  // Mixture: weighted sum.
  const Law mix = Law::mixture({{0.25, Law::uniform(0.0, 2.0)}, {0.75, Law::normal(3.0, 0.5)}});
  const boost::math::normal_distribution<double> b3(3.0, std::sqrt(0.5));
  CHECK_THAT(*mix.pdf(1.0), WithinRel(0.25 * 0.5 + 0.75 * boost::math::pdf(b3, 1.0), exact_rel));

  // No density for a point mass, alone or in a mixture.
  CHECK_FALSE(Law::constant(1.0).pdf(1.0).has_value());
  CHECK_FALSE(Law::mixture({{0.5, Law::constant(1.0)}, {0.5, u}}).pdf(0.5).has_value());
}

TEST_CASE("law support and breakpoints", "[law]") {
  using P = std::pair<double, double>;
  CHECK(Law::uniform(1.0, 3.0).support() == P{1.0, 3.0});
  CHECK(Law::constant(2.0).support() == P{2.0, 2.0});
  CHECK(Law::scaled(0.5, Law::uniform(0.0, 1.0)).support() == P{0.0, 0.5});

  // Normal laws: mean +- 9 sd (P(|Z| > 9) = 2.3e-19).
  const double h = 9.0 * std::sqrt(1.0 / 12.0);
  const auto ns = Law::normal(0.5, 1.0 / 12.0).support();
  CHECK_THAT(ns.first, WithinAbs(0.5 - h, 1e-15));
  CHECK_THAT(ns.second, WithinAbs(0.5 + h, 1e-15));
  const auto sns = Law::scaled(2.0, Law::normal(0.5, 1.0 / 12.0)).support();
  CHECK_THAT(sns.first, WithinAbs(1.0 - 2.0 * h, 1e-15));
  CHECK_THAT(sns.second, WithinAbs(1.0 + 2.0 * h, 1e-15));
  // Truncated normals start at 0.
  const auto ts = Law::truncated_normal(0.2, 1.0).support();
  CHECK(ts.first == 0.0);
  CHECK_THAT(ts.second, WithinAbs(9.2, 1e-15));
  const auto far = Law::truncated_normal(20.0, 1.0).support();
  CHECK_THAT(far.first, WithinAbs(11.0, 1e-15));
  CHECK_THAT(far.second, WithinAbs(29.0, 1e-15));
  // Mixture: the union.
  CHECK(Law::mixture({{0.5, Law::uniform(0.0, 1.0)}, {0.5, Law::constant(2.0)}}).support() == P{0.0, 2.0});

  using V = std::vector<double>;
  CHECK(Law::uniform(0.0, 1.0).breakpoints() == V{0.0, 1.0});
  CHECK(Law::scaled(2.0, Law::uniform(1.0, 3.0)).breakpoints() == V{2.0, 6.0});
  CHECK(Law::normal(0.5, 1.0).breakpoints().empty());
  CHECK(Law::truncated_normal(0.5, 1.0).breakpoints() == V{0.0});
  CHECK(Law::constant(0.7).breakpoints() == V{0.7});
  // Sorted and unique across components.
  const Law mix = Law::mixture({{0.25, Law::constant(1.0)},
                                {0.25, Law::uniform(0.0, 1.0)},
                                {0.25, Law::normal(5.0, 1.0)},
                                {0.25, Law::uniform(-1.0, 0.5)}});
  CHECK(mix.breakpoints() == V{-1.0, 0.0, 0.5, 1.0});
}

// ---- Parser --------------------------------------------------------------------------------

TEST_CASE("parse_law reads each law form", "[law]") {
  CHECK(parse_law("u(0,1)") == Law::uniform(0.0, 1.0));
  CHECK(parse_law("tn(1,1/4)") == Law::truncated_normal(1.0, 0.25));
  CHECK(parse_law("c(0.5)") == Law::constant(0.5));
  CHECK(parse_law("n(-1e-3,+2)") == Law::normal(-0.001, 2.0));

  // The variance 1/12 is 1.0/12 exactly (one correctly rounded division).
  const Law n = parse_law("n(0.5,1/12)");
  REQUIRE(n.is_leaf());
  CHECK(n.components()[0].leaf.kind == LeafKind::normal);
  CHECK(n.components()[0].leaf.first == 0.5);
  CHECK(n.components()[0].leaf.second == 1.0 / 12.0);
  CHECK(n == Law::paper_normal());

  // The scale is folded into the leaf, not into its parameters.
  const Law s = parse_law("0.5*u(0,1)");
  REQUIRE(s.is_leaf());
  CHECK(s.components()[0].leaf.scale == 0.5);
  CHECK(s.components()[0].leaf.first == 0.0);
  CHECK(s.components()[0].leaf.second == 1.0);
  CHECK(s == Law::scaled(0.5, Law::uniform(0.0, 1.0)));
  CHECK(parse_law("2/3*n(0.5,1/12)") == Law::scaled(2.0 / 3.0, Law::paper_normal()));
  CHECK(parse_law("2*(0.5*u(0,1))") == Law::uniform(0.0, 1.0));  // 2 * 0.5 = 1 exactly

  const Law mix = parse_law("mix(0.3:u(0,1),0.7:n(0.5,1/12))");
  CHECK(mix == Law::mixture({{0.3, Law::paper_uniform()}, {0.7, Law::paper_normal()}}));
  REQUIRE(mix.components().size() == 2);
  CHECK(mix.components()[0].weight == 0.3);
  CHECK(mix.components()[1].weight == 0.7);

  // Whitespace anywhere between tokens is ignored.
  CHECK(parse_law(" mix( 0.3 : u( 0 , 1 ) ,\t0.7:n(0.5, 1 / 12) )\n") == mix);
  CHECK(parse_law("  0.5 *  u(0,1) ") == s);

  // A scaled mixture: the scale reaches every component, the weights are unchanged.
  const Law smix = parse_law("0.5*mix(0.3:u(0,1),0.7:n(0.5,1/12))");
  REQUIRE(smix.components().size() == 2);
  CHECK(smix.components()[0].weight == 0.3);
  CHECK(smix.components()[1].weight == 0.7);
  CHECK(smix.components()[0].leaf.scale == 0.5);
  CHECK(smix.components()[1].leaf.scale == 0.5);
  CHECK(smix == Law::scaled(0.5, mix));
  CHECK_THAT(smix.mean(), WithinRel(0.25, exact_rel));

  // A nested mixture is flattened: weights multiply.
  const Law nested = parse_law("mix(0.5:mix(0.5:c(0),0.5:c(1)),0.5:2*u(0,1))");
  REQUIRE(nested.components().size() == 3);
  CHECK(nested.components()[0].weight == 0.25);
  CHECK(nested.components()[1].weight == 0.25);
  CHECK(nested.components()[2].weight == 0.5);
  CHECK(nested.components()[2].leaf.scale == 2.0);
}

TEST_CASE("to_string round-trips through parse_law", "[law]") {
  CHECK(parse_law("u(0,1)").to_string() == "u(0,1)");
  CHECK(parse_law("0.5*u(0,1)").to_string() == "0.5*u(0,1)");
  CHECK(parse_law("n(0.5,1/12)").to_string() == "n(0.5,0.08333333333333333)");
  CHECK(parse_law("mix(0.3:u(0,1),0.7:c(2))").to_string() == "mix(0.3:u(0,1),0.7:c(2))");

  const std::vector<Law> laws = {
      Law::uniform(0.0, 1.0),
      Law::normal(0.5, 1.0 / 12.0),
      Law::truncated_normal(1.0, 0.25),
      Law::constant(0.5),
      Law::scaled(0.5, Law::uniform(0.0, 1.0)),
      Law::scaled(2.0 / 3.0, Law::normal(-3.0, 7.0)),
      Law::scaled(1e-5, Law::uniform(-1.0 / 3.0, 1e20)),
      parse_law("mix(0.3:u(0,1),0.7:n(0.5,1/12))"),
      parse_law("2/3*mix(0.1:tn(1,1/4),0.9:mix(0.3:c(1),0.7:u(-1,1/3)))"),  // weights 0.27, 0.63
  };
  for (const Law& law : laws) {
    INFO("law: " << law.to_string());
    CHECK(parse_law(law.to_string()) == law);
  }
}

TEST_CASE("parse_law errors name the text and the position", "[law]") {
  // Positions are 0-based offsets into the text.
  check_parse_error("u(0,)", "expected a number", 4);
  check_parse_error("x(1,2)", "unknown law 'x'", 0);
  check_parse_error("mixx(0.3:u(0,1),0.7:c(1))", "unknown law 'mixx'", 0);
  check_parse_error("  foo", "unknown law 'foo'", 2);
  check_parse_error("u(1,0)", "lo < hi", 0);
  check_parse_error("n(0,-1)", "variance > 0", 0);
  check_parse_error("tn(-40,1)", "almost no mass", 0);
  check_parse_error("mix(0.5:u(0,1))", "add up to 1", 0);
  check_parse_error("mix(0:u(0,1),1:c(1))", "weights must be > 0", 0);
  check_parse_error("u(0,1", "expected ')'", 5);
  check_parse_error("c(1,2)", "expected ')'", 3);
  check_parse_error("mix(0.3:u(0,1);0.7:c(1))", "expected ')'", 14);
  check_parse_error("1/0*u(0,1)", "division by zero", 0);
  check_parse_error("u( 1/0 ,1)", "division by zero", 3);  // the fraction, not the space before it
  check_parse_error("u(0,1e999)", "out of range", 4);
  check_parse_error("u(0,1)x", "unexpected 'x'", 6);
  check_parse_error("", "expected a law", 0);
  check_parse_error("-1*u(0,1)", "scale factor must be > 0", 0);
  check_parse_error("0.5u(0,1)", "expected '*'", 3);
  // An error inside a nested law is reported at that law, not at the enclosing one.
  check_parse_error("mix(0.5:u(1,0),0.5:u(0,1))", "lo < hi", 8);
  check_parse_error("0.5 * n(0,0)", "variance > 0", 6);
  check_parse_error("2*-1*u(0,1)", "scale factor must be > 0", 2);
}

TEST_CASE("parse_number reads decimals and fractions", "[law]") {
  CHECK(parse_number("4/5", "--a") == 0.8);
  CHECK(parse_number(" 1 / 4 ", "--a") == 0.25);
  CHECK(parse_number("0.5", "--a") == 0.5);
  CHECK(parse_number("-3", "--a") == -3.0);
  CHECK(parse_number("1e3", "--a") == 1000.0);

  for (const std::string bad : {"abc", "", "1/0", "0.5x", "u(0,1)", "1/"}) {
    INFO("text: '" << bad << "'");
    bool threw = false;
    try {
      parse_number(bad, "--a");
    } catch (const InputError& e) {
      threw = true;
      CHECK(e.where() == "--a");
      CHECK_THAT(std::string(e.what()), Contains("--a") && Contains("'" + bad + "'"));
    }
    CHECK(threw);
  }
}

// ---- Sampling ----------------------------------------------------------------------------------

TEST_CASE("Sampler draws have the law's mean and variance", "[law]") {
  // 200000 draws per law. Each check allows 5 standard errors (two-sided probability 6e-7 of a
  // false failure for a correct sampler; the seed is fixed, so the outcome is reproducible).
  constexpr std::size_t draws = 200000;
  const std::vector<Law> laws = {
      Law::uniform(0.0, 1.0),
      Law::normal(0.5, 1.0 / 12.0),
      Law::truncated_normal(0.2, 1.0),   // rejection branch (42% below 0)
      Law::truncated_normal(-1.0, 1.0),  // inversion branch (84% below 0)
      Law::mixture({{0.3, Law::uniform(0.0, 1.0)}, {0.5, Law::normal(2.0, 0.25)}, {0.2, Law::constant(4.0)}}),
      Law::scaled(0.5, Law::mixture({{0.4, Law::truncated_normal(1.0, 1.0)}, {0.6, Law::uniform(1.0, 3.0)}})),
  };
  std::uint64_t seed = 20240601;
  for (const Law& law : laws) {
    INFO("law: " << law.to_string());
    boost::random::mt19937_64 eng(seed++);
    const Sampler sampler(law);
    const auto m = sample_moments(draws, [&] { return sampler(eng); });
    INFO("sample mean " << m.mean << " (SE " << m.se_mean << "), variance " << m.variance << " (SE "
                        << m.se_variance << ")");
    CHECK(std::abs(m.mean - law.mean()) < 5.0 * m.se_mean);
    CHECK(std::abs(m.variance - law.variance()) < 5.0 * m.se_variance);
  }
}

TEST_CASE("Sampler support: no draw outside the law's support", "[law]") {
  boost::random::mt19937_64 eng(7);
  const Sampler u(Law::uniform(2.0, 3.0)), tn(Law::truncated_normal(-1.0, 1.0)), c(Law::constant(0.7));
  int bad = 0;
  for (int i = 0; i < 10000; ++i) {
    const double x = u(eng), y = tn(eng), z = c(eng);
    bad += !(x >= 2.0 && x <= 3.0) + !(y >= 0.0) + !(z == 0.7);
  }
  CHECK(bad == 0);
}

TEST_CASE("Sampler: a*X is a times X on the same variates (common random numbers)", "[law]") {
  const std::vector<Law> bases = {
      Law::uniform(0.0, 1.0),
      Law::normal(0.5, 1.0 / 12.0),
      Law::truncated_normal(0.2, 1.0),
      Law::mixture({{0.3, Law::uniform(0.0, 1.0)}, {0.7, Law::normal(0.5, 1.0 / 12.0)}}),
  };
  for (const Law& base : bases) {
    INFO("law: " << base.to_string());
    for (double a : {0.5, 2.0 / 3.0, 0.8}) {
      INFO("a = " << a);
      boost::random::mt19937_64 e1(42), e2(42);
      const Sampler x(base), y(Law::scaled(a, base));
      int mismatches = 0;
      for (int i = 0; i < 1000; ++i) {
        const double xi = x(e1), yi = y(e2);
        mismatches += !(yi == a * xi);  // bit for bit: both are a * (the same unscaled draw)
      }
      CHECK(mismatches == 0);
      CHECK(e1() == e2());  // both engines consumed the same number of variates
    }
  }
}

// Issue 6: scale factors near underflow. A subnormal factor (below 2.2250738585072014e-308, the
// smallest normal double) has lost digits and squares to 0, and a factor whose product with a
// component's mean or variance underflows would give a law that is not a constant a variance of
// 0. Both are refused, like the overflows, where the text is known.
// distributions/ziggurat.h writes out the common case of Boost's ziggurat for the 63-bit
// ProcessorStream: its variates must be Boost's bit for bit, and the stream must end where Boost
// leaves it. 2^23 draws take every path: the tail beyond x_1 = 3.44 (P = 5.8e-4, about 4,900
// draws expected, sd 70) and the wedges (about 1% of the iterations).
TEST_CASE("unit_normal draws Boost's normal variates bit for bit", "[law]") {
  const boost::random::normal_distribution<double> law(0.5, 1.5);
  const double tail_start = boost::random::detail::normal_table<double>::table_x[1];
  std::uint64_t mismatches = 0, tails = 0;
  for (std::uint64_t replication = 0; replication < 8; ++replication) {
    hetstruct::engine::ProcessorStream boost_stream(17, replication, 3), own_stream(17, replication, 3);
    boost::random::normal_distribution<double> boost_law = law;
    for (int k = 0; k < (1 << 20); ++k) {
      const double expected = boost_law(boost_stream);
      const double drawn = hetstruct::distributions::normal_variate(law, own_stream);
      mismatches += std::bit_cast<std::uint64_t>(expected) != std::bit_cast<std::uint64_t>(drawn);
      tails += std::abs(expected - 0.5) > 1.5 * tail_start;
    }
    REQUIRE(boost_stream() == own_stream());
  }
  CHECK(mismatches == 0);
  CHECK(tails > 4000);
}

TEST_CASE("scale factors and moments near underflow are refused", "[law]") {
  check_parse_error("1e-310*u(0,1)", "smallest normal double", 0);
  check_parse_error("4.9e-324*c(1)", "smallest normal double", 0);
  check_parse_error("2*(1e-310*u(0,1))", "smallest normal double", 3);
  check_parse_error("1e-200*u(0,1)", "variance underflows", 0);         // 1e-400/12
  check_parse_error("1e-155*n(0,1)", "variance underflows", 0);         // s*s = 1e-310
  check_parse_error("1e-300*c(1e-10)", "mean underflows", 0);
  check_parse_error("1e-160*(1e-160*c(1))", "scale factors multiply", 0);  // 1e-320
  check_parse_error("mix(0.5:u(0,1),0.5:1e-200*u(0,1))", "variance underflows", 19);
  CHECK_THROWS_WITH(parse_law("1e-200*u(0,1)"), Contains("scaled by 1e-200"));
  // The same rule for the leaves' own parameters: moments below the smallest normal double.
  check_parse_error("u(0,1e-160)", "variance underflows", 0);
  check_parse_error("n(1,1e-310)", "variance underflows", 0);
  check_parse_error("c(1e-310)", "mean underflows", 0);
  // Small but normal stays accepted, and a constant 0 has no mean to underflow.
  CHECK(parse_law("1e-150*u(0,1)").variance() > 0.0);
  CHECK(parse_law("2.2250738585072014e-308*c(1)").mean() == std::numeric_limits<double>::min());
  CHECK(parse_law("1e-100*(1e-100*c(1))").mean() == Approx(1e-200));
  CHECK(parse_law("1e-300*c(0)").mean() == 0.0);
  CHECK(parse_law("mix(0.5:c(-1),0.5:c(1))").mean() == 0.0);  // a mean of 0 by cancellation
  CHECK(parse_law("u(0,1e-150)").variance() > 0.0);
}

// Issue 6 (c): the one shared number formatter (distributions/format.h). Its two forms are the
// outputs the CLI transcripts compare: they must not change.
TEST_CASE("format_exact and format_brief", "[law]") {
  using hetstruct::distributions::format_brief;
  using hetstruct::distributions::format_exact;
  CHECK(format_exact(0.1) == "0.1");
  CHECK(format_exact(1.0 / 3.0) == "0.3333333333333333");
  CHECK(format_exact(1e-5) == "1e-05");
  CHECK(format_exact(1e300) == "1e+300");
  CHECK(format_exact(-2.5) == "-2.5");
  for (const double x : {0.1, 1.0 / 3.0, 2.0 / 3.0 * 1e-300, 123456789.125, 5e-324})
    CHECK(std::strtod(format_exact(x).c_str(), nullptr) == x);
  CHECK(format_brief(1.0 / 3.0) == "0.333333");
  CHECK(format_brief(123456789.0) == "1.23457e+08");
  CHECK(format_brief(1e30) == "1e+30");
  CHECK(format_brief(0.196) == "0.196");
  CHECK(format_brief(-4.0) == "-4");
}

}  // namespace law_test
