// Tests of bounds/closed_forms.h: Wilson's Eq. 1-7 (Section 4.1) and the expected maximum of
// independent laws by quadrature.
//
// Tolerances: closed forms evaluated in a few floating-point operations are compared to 1e-12
// relative; results of expected_max (adaptive Gauss-Kronrod, documented as ~1e-10 relative) to
// 1e-10 against Eq. 3 and to 1e-9 against normal closed forms (whose erf evaluations add ~1e-16).
// The one Monte Carlo check uses a fixed seed and allows 4 standard errors.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include <boost/math/constants/constants.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/random/mersenne_twister.hpp>

#include "bounds/closed_forms.h"
#include "distributions/input_error.h"
#include "distributions/law.h"
#include "distributions/sampler.h"

namespace bounds_test {

using hetstruct::InputError;
using hetstruct::distributions::Law;
using hetstruct::distributions::Sampler;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
namespace hb = hetstruct::bounds;

namespace {

constexpr double exact_rel = 1e-12;

double Phi(double z) { return boost::math::cdf(boost::math::normal_distribution<double>(), z); }
double phi(double z) { return boost::math::pdf(boost::math::normal_distribution<double>(), z); }

// m laws u(0,a) and n-m laws u(0,1).
std::vector<Law> uniform_model(int n, int m, double a) {
  std::vector<Law> laws(m, Law::uniform(0.0, a));
  laws.insert(laws.end(), n - m, Law::uniform(0.0, 1.0));
  return laws;
}

// E[max(X, Y)] for independent X ~ N(mu1, v1), Y ~ N(mu2, v2) (Clark 1961):
// mu1 Phi(d) + mu2 Phi(-d) + theta phi(d), theta = sqrt(v1 + v2), d = (mu1 - mu2)/theta.
double two_normal_max_mean(double mu1, double v1, double mu2, double v2) {
  const double theta = std::sqrt(v1 + v2), d = (mu1 - mu2) / theta;
  return mu1 * Phi(d) + mu2 * Phi(-d) + theta * phi(d);
}

// Eq. 3, last line, as printed in the paper (valid for m < n).
double eq3_last_line(int n, int m, double a) {
  const double k = n - m;
  return (k / (k + 1.0)) * (1.0 + std::pow(a, k + 1.0) * ((k + 1.0) * n / (k * (n + 1.0)) - 1.0));
}

// GK61 integrates polynomials of degree <= 91 exactly: g(z) is piecewise z^(n-1) or z^(n-m-1)
// with n <= 16, so splitting at a makes these integrals exact up to rounding.
template <class F>
double integrate(F f, double lo, double hi) {
  return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(f, lo, hi, 0, 0.0);
}

}  // namespace

// ---- Eq. 1-7 -----------------------------------------------------------------------------------

TEST_CASE("Eq. 3 equals expected_max of m u(0,a) and n-m u(0,1)", "[bounds]") {
  for (int n : {1, 2, 3, 4, 5, 8, 16})
    for (int m = 0; m <= n; ++m)
      for (double a : {0.1, 0.5, 2.0 / 3.0, 0.8, 1.0, 1.5, 3.0}) {
        INFO("n = " << n << ", m = " << m << ", a = " << a);
        CHECK_THAT(hb::uniform_max_mean(n, m, a), WithinRel(hb::expected_max(uniform_model(n, m, a)), 1e-10));
      }
}

TEST_CASE("Eq. 3 agrees with the paper's last line and with known values", "[bounds]") {
  for (int n : {1, 2, 3, 4, 5, 8, 16}) {
    INFO("n = " << n);
    const double homogeneous = n / (n + 1.0);
    CHECK_THAT(hb::homogeneous_uniform_max_mean(n), WithinRel(homogeneous, exact_rel));  // Eq. 5
    for (double a : {0.1, 0.5, 2.0 / 3.0, 0.8, 1.0, 1.5, 3.0}) {
      INFO("a = " << a);
      CHECK_THAT(hb::uniform_max_mean(n, 0, a), WithinRel(homogeneous, exact_rel));      // no fast processor
      CHECK_THAT(hb::uniform_max_mean(n, n, a), WithinRel(a * homogeneous, exact_rel));  // all u(0,a)
      if (a <= 1.0)
        for (int m = 0; m < n; ++m) {
          INFO("m = " << m);
          CHECK_THAT(hb::uniform_max_mean(n, m, a), WithinRel(eq3_last_line(n, m, a), exact_rel));
        }
    }
  }
  // Hand values: E(max(u(0,1/2), u(0,1))) = (2/3)(1/4) + (1/2)(3/4) = 13/24;
  // E(max(u(0,2), u(0,1))) = 2 * 13/24 = 13/12 (integral of 1 - G: 5/6 + 1/4).
  CHECK_THAT(hb::uniform_max_mean(2, 1, 0.5), WithinRel(13.0 / 24.0, exact_rel));
  CHECK_THAT(hb::uniform_max_mean(2, 1, 2.0), WithinRel(13.0 / 12.0, exact_rel));
}

TEST_CASE("Eq. 6: synch (8,3), a = 1/2, 1000 levels is 834.2014 (Table 1: 834)", "[bounds]") {
  // p (n-m)/(n-m+1) [1 + a^(n-m+1) ((n-m+1) n / ((n-m)(n+1)) - 1)] with p = 1000, n = 8, m = 3:
  // 1000 (5/6) [1 + (1/64)(48/45 - 1)] = 1000 (5/6 + 5/6 * 1/960) = 834.2013888...
  const double by_hand = 1000.0 * (5.0 / 6.0) * (1.0 + (1.0 / 64.0) * (48.0 / 45.0 - 1.0));
  const double eq6 = hb::synchronous_uniform_mean(8, 3, 0.5, 1000);
  CHECK_THAT(eq6, WithinRel(by_hand, exact_rel));
  CHECK_THAT(eq6, WithinAbs(834.2014, 1e-3));
  CHECK_THAT(eq6, WithinAbs(834.0, 0.5));  // the paper's simulated value, rounded
  CHECK_THAT(hb::synchronous_uniform_mean(8, 3, 0.5, 1), WithinRel(by_hand / 1000.0, exact_rel));
}

TEST_CASE("Eq. 4 and 7: (n-m)/(n-m+1) and p times that", "[bounds]") {
  CHECK_THAT(hb::uniform_max_mean_approx(8, 3), WithinRel(5.0 / 6.0, exact_rel));
  CHECK_THAT(hb::uniform_max_mean_approx(16, 8), WithinRel(8.0 / 9.0, exact_rel));
  CHECK_THAT(hb::uniform_max_mean_approx(4, 0), WithinRel(0.8, exact_rel));
  CHECK(hb::uniform_max_mean_approx(3, 3) == 0.0);
  CHECK_THAT(hb::synchronous_uniform_mean_approx(8, 3, 1000), WithinRel(5000.0 / 6.0, exact_rel));
  CHECK_THAT(hb::synchronous_uniform_mean_approx(16, 8, 7), WithinRel(56.0 / 9.0, exact_rel));
  // Eq. 4 is the a -> 0 limit of Eq. 3.
  CHECK_THAT(hb::uniform_max_mean(8, 3, 1e-6), WithinRel(hb::uniform_max_mean_approx(8, 3), 1e-12));
}

TEST_CASE("Eq. 1 and 2: G is the product of the cdfs, G integrates g, the mean of g is Eq. 3", "[bounds]") {
  // Exact anchors: G(z) = (1/a)^m z^n below a, z^(n-m) above.
  CHECK(hb::uniform_max_cdf(4, 1, 0.5, 0.25) == 2.0 * std::pow(0.25, 4));
  CHECK(hb::uniform_max_cdf(4, 1, 0.5, 0.75) == 0.421875);
  CHECK(hb::uniform_max_cdf(4, 1, 0.5, 0.0) == 0.0);
  CHECK(hb::uniform_max_cdf(4, 1, 0.5, -1.0) == 0.0);
  CHECK(hb::uniform_max_cdf(4, 1, 0.5, 1.0) == 1.0);
  CHECK(hb::uniform_max_pdf(4, 1, 0.5, 0.25) == 4.0 * 2.0 * std::pow(0.25, 3));
  CHECK(hb::uniform_max_pdf(4, 1, 0.5, 0.75) == 3.0 * 0.75 * 0.75);
  CHECK(hb::uniform_max_pdf(4, 1, 0.5, 1.5) == 0.0);

  for (int n : {1, 2, 3, 5, 8, 16})
    for (int m : {0, 1, n / 2, n - 1, n})
      for (double a : {0.1, 0.5, 2.0 / 3.0, 1.0}) {
        INFO("n = " << n << ", m = " << m << ", a = " << a);
        const auto laws = uniform_model(n, m, a);
        auto g = [&](double z) { return hb::uniform_max_pdf(n, m, a, z); };
        for (double z : {0.05, a / 2.0, 0.9 * a, a, (a + 1.0) / 2.0, 0.99}) {
          INFO("z = " << z);
          double product = 1.0;
          for (const auto& law : laws) product *= law.cdf(z);
          const double G = hb::uniform_max_cdf(n, m, a, z);
          CHECK_THAT(G, WithinRel(product, exact_rel));
          const double integral = z <= a ? integrate(g, 0.0, z) : integrate(g, 0.0, a) + integrate(g, a, z);
          CHECK_THAT(integral, WithinRel(G, exact_rel));
        }
        auto zg = [&](double z) { return z * g(z); };
        const double mean = a < 1.0 ? integrate(zg, 0.0, a) + integrate(zg, a, 1.0) : integrate(zg, 0.0, 1.0);
        CHECK_THAT(mean, WithinRel(hb::uniform_max_mean(n, m, a), exact_rel));
        CHECK_THAT(integrate(g, 0.0, a) + (a < 1.0 ? integrate(g, a, 1.0) : 0.0), WithinRel(1.0, exact_rel));
      }
}

// ---- expected_max ------------------------------------------------------------------------------

TEST_CASE("expected_max of normal laws matches closed forms", "[bounds]") {
  const double pi = boost::math::constants::pi<double>();
  const Law z = Law::normal(0.0, 1.0);
  CHECK_THAT(hb::expected_max({z}), WithinAbs(0.0, 1e-12));
  CHECK_THAT(hb::expected_max({z, z}), WithinRel(1.0 / std::sqrt(pi), 1e-9));
  CHECK_THAT(hb::expected_max({z, z, z}), WithinRel(3.0 / (2.0 * std::sqrt(pi)), 1e-9));
  // E[max of 5 iid N(0,1)] = 1.16296447364051961... (mpmath, 30 digits).
  CHECK_THAT(hb::expected_max({z, z, z, z, z}), WithinRel(1.16296447364051961, 1e-9));

  // Two normals with different means and variances (Clark's formula).
  CHECK_THAT(hb::expected_max({Law::normal(1.0, 0.5), Law::normal(0.3, 2.0)}),
             WithinRel(two_normal_max_mean(1.0, 0.5, 0.3, 2.0), 1e-9));
  CHECK_THAT(hb::expected_max({Law::normal(-2.0, 0.01), Law::normal(5.0, 9.0)}),
             WithinRel(two_normal_max_mean(-2.0, 0.01, 5.0, 9.0), 1e-9));
  // The paper's pair: n(1/2, 1/12) and a*n(1/2, 1/12) = n(a/2, a^2/12), a = 1/2.
  CHECK_THAT(hb::expected_max({Law::paper_normal(), Law::scaled(0.5, Law::paper_normal())}),
             WithinRel(two_normal_max_mean(0.5, 1.0 / 12.0, 0.25, 1.0 / 48.0), 1e-9));
}

TEST_CASE("expected_max with constants and mixtures", "[bounds]") {
  // max(0.7, U): 0.7 * P(U <= 0.7) + E[U; U > 0.7] = 0.7^2 + (1 - 0.7^2)/2 = (1 + 0.49)/2 = 0.745.
  // (Not 0.7 + (1 - 0.7^2)/2 = 0.955: the constant only counts where U <= 0.7.)
  CHECK_THAT(hb::expected_max({Law::constant(0.7), Law::uniform(0.0, 1.0)}), WithinRel(0.745, 1e-10));
  // max(c, u(0,a)) for c outside the support: the constant, or the uniform's mean.
  CHECK_THAT(hb::expected_max({Law::constant(-1.0), Law::uniform(0.0, 2.0)}), WithinRel(1.0, 1e-10));
  CHECK_THAT(hb::expected_max({Law::constant(3.0), Law::uniform(0.0, 2.0)}), WithinRel(3.0, 1e-10));
  CHECK_THAT(hb::expected_max({Law::constant(0.7)}), WithinRel(0.7, 1e-12));
  CHECK_THAT(hb::expected_max({Law::constant(0.7), Law::constant(-2.0)}), WithinRel(0.7, 1e-12));

  // Conditioning on the mixture component:
  // mix(0.5:c(0),0.5:c(1)) with u(0,1): 0.5 E[U] + 0.5 * 1 = 0.75.
  CHECK_THAT(hb::expected_max({Law::mixture({{0.5, Law::constant(0.0)}, {0.5, Law::constant(1.0)}}),
                               Law::uniform(0.0, 1.0)}),
             WithinRel(0.75, 1e-10));
  // mix(0.3:u(0,1),0.7:u(0,2)) with u(0,1): 0.3 (2/3) + 0.7 (13/12).
  CHECK_THAT(hb::expected_max({Law::mixture({{0.3, Law::uniform(0.0, 1.0)}, {0.7, Law::uniform(0.0, 2.0)}}),
                               Law::uniform(0.0, 1.0)}),
             WithinRel(0.3 * 2.0 / 3.0 + 0.7 * 13.0 / 12.0, 1e-10));
  // mix(0.4:n(0,1),0.6:n(1,1/4)) with n(0.5,1): two Clark terms.
  CHECK_THAT(hb::expected_max({Law::mixture({{0.4, Law::normal(0.0, 1.0)}, {0.6, Law::normal(1.0, 0.25)}}),
                               Law::normal(0.5, 1.0)}),
             WithinRel(0.4 * two_normal_max_mean(0.0, 1.0, 0.5, 1.0) + 0.6 * two_normal_max_mean(1.0, 0.25, 0.5, 1.0),
                       1e-9));

  CHECK_THROWS_AS(hb::expected_max({}), InputError);
}

TEST_CASE("expected_max agrees with Monte Carlo on the paper's normal pair", "[bounds]") {
  // Five n(1/2,1/12) and three 0.5*n(1/2,1/12): 200000 maxima drawn with a fixed seed. The check
  // allows 4 standard errors of the sample mean (SE = sample sd / sqrt(N), about 4e-4 here);
  // the quadrature error (~1e-10) is negligible beside it.
  const Law slow = Law::paper_normal(), fast = Law::scaled(0.5, slow);
  std::vector<Law> laws(5, slow);
  laws.insert(laws.end(), 3, fast);
  const Sampler s(slow), f(fast);
  boost::random::mt19937_64 eng(123456789);
  constexpr std::size_t N = 200000;
  double sum = 0.0, sum2 = 0.0;
  for (std::size_t i = 0; i < N; ++i) {
    double mx = s(eng);
    for (int k = 1; k < 5; ++k) mx = std::max(mx, s(eng));
    for (int k = 0; k < 3; ++k) mx = std::max(mx, f(eng));
    sum += mx;
    sum2 += mx * mx;
  }
  const double mean = sum / N, sd = std::sqrt((sum2 / N - mean * mean) * N / (N - 1.0));
  const double se = sd / std::sqrt(static_cast<double>(N));
  const double exact = hb::expected_max(laws);
  INFO("Monte Carlo " << mean << " (SE " << se << "), quadrature " << exact);
  CHECK(std::abs(mean - exact) < 4.0 * se);
}

// ---- Structures ----------------------------------------------------------------------------

TEST_CASE("synchronous_mean is levels times expected_max", "[bounds]") {
  const std::vector<Law> laws = {Law::paper_normal(), Law::paper_normal(), Law::scaled(2.0 / 3.0, Law::paper_normal())};
  CHECK_THAT(hb::synchronous_mean(laws, 1000), WithinRel(1000.0 * hb::expected_max(laws), 1e-15));
  CHECK_THAT(hb::synchronous_mean(laws, 1), WithinRel(hb::expected_max(laws), 1e-15));
  // With uniform laws it is Eq. 6.
  CHECK_THAT(hb::synchronous_mean(uniform_model(8, 3, 0.5), 1000),
             WithinRel(hb::synchronous_uniform_mean(8, 3, 0.5, 1000), 1e-10));
}

TEST_CASE("asynchronous_mean: exact for normal and uniform laws, normal approximation otherwise", "[bounds]") {
  const Law n = Law::paper_normal(), u = Law::paper_uniform();
  const std::vector<Law> normals = {n, n, n, Law::scaled(0.5, n)};
  const std::vector<Law> uniforms = {u, u, u, Law::scaled(0.5, u)};

  const auto one = hb::asynchronous_mean(normals, 1);
  CHECK(one.exact);
  CHECK_THAT(one.value, WithinRel(hb::expected_max(normals), 1e-12));

  // A sum of p normals n(mu, var) is n(p mu, p var): exact at any depth.
  const auto deep = hb::asynchronous_mean(normals, 1000);
  CHECK(deep.exact);
  CHECK_THAT(deep.value, WithinRel(hb::expected_max({Law::normal(500.0, 1000.0 / 12.0), Law::normal(500.0, 1000.0 / 12.0),
                                                     Law::normal(500.0, 1000.0 / 12.0),
                                                     Law::normal(250.0, 1000.0 / 48.0)}),
                                   1e-12));

  // Uniform laws: each processor's sum by inverting its characteristic function, exact. The
  // normal approximation n(p mu, p var) (the normals above: same means and variances) is off by
  // less than 1e-3, the study's 8e-4, and not by nothing.
  const auto uniform_sums = hb::asynchronous_mean(uniforms, 1000);
  CHECK(uniform_sums.exact);
  CHECK(uniform_sums.method == "cf_inversion");
  CHECK(std::abs(uniform_sums.value - deep.value) < 1e-3);
  CHECK(std::abs(uniform_sums.value - deep.value) > 1e-6);

  // One level: the max itself (the Irwin-Hall branch at 1 term), against Eq. 3.
  CHECK_THAT(hb::asynchronous_mean(uniforms, 1).value, WithinRel(hb::uniform_max_mean(4, 1, 0.5), 1e-10));

  // Five u(0,1) streams of 1000 tasks: close to 500 + sqrt(1000/12) e_5, e_5 = E[max of 5 iid
  // N(0,1)] = 1.16296447364051961 (mpmath), the normal approximation; Table 1 reports 511 for
  // asynch (5,0) and (8,3) at a = 1/2.
  const auto five = hb::asynchronous_mean(std::vector<Law>(5, u), 1000);
  CHECK(std::abs(five.value - (500.0 + std::sqrt(1000.0 / 12.0) * 1.16296447364051961)) < 1e-3);
  CHECK_THAT(five.value, WithinAbs(511.0, 0.5));

  // One processor: the sum's mean exactly, whatever its law.
  CHECK_THAT(hb::asynchronous_mean({u}, 1000).value, WithinAbs(500.0, 1e-9));

  // A truncated normal's sum has no known law: the normal approximation, flagged; at one level the
  // sums are the laws themselves (quadrature).
  const std::vector<Law> truncated = {n, Law::truncated_normal(0.5, 1.0 / 12.0)};
  CHECK_FALSE(hb::asynchronous_mean(truncated, 10).exact);
  CHECK(hb::asynchronous_mean(truncated, 10).method == "normal_approx");
  CHECK(hb::asynchronous_mean(truncated, 1).method == "quadrature");
  CHECK_THAT(hb::asynchronous_mean(truncated, 1).value, WithinRel(hb::expected_max(truncated), 1e-15));
}

TEST_CASE("asynchronous_mean: gamma sums exactly, mixtures by their characteristic functions", "[bounds]") {
  // A sum of p gamma(k, theta) is gamma(p k, theta); an exponential of mean m is gamma(1, m).
  const std::vector<Law> gammas = {Law::gamma(2.0, 0.5), Law::gamma(2.0, 0.5), Law::scaled(0.5, Law::exponential(1.0))};
  const auto g = hb::asynchronous_mean(gammas, 50);
  CHECK(g.exact);
  CHECK(g.method == "gamma_exact");
  CHECK_THAT(g.value, WithinRel(hb::expected_max({Law::gamma(100.0, 0.5), Law::gamma(100.0, 0.5), Law::gamma(50.0, 0.5)}), 1e-15));

  // A uniform split in two halves is the uniform: the mixture's inversion (LawSumCdf) gives the
  // uniform sums' (UniformSumCdf) to 1e-12, and so does a split exponential the gamma's cdf.
  const Law u = Law::paper_uniform();
  const Law halves = Law::mixture({{0.5, Law::uniform(0.0, 0.5)}, {0.5, Law::uniform(0.5, 1.0)}});
  for (const int terms : {20, 1000}) {
    INFO(terms << " terms");
    const hb::LawSumCdf cdf(halves, terms);
    REQUIRE(cdf.usable());
    for (double k = -8.0; k <= 8.0; k += 0.25)
      CHECK_THAT(cdf(cdf.mean() + k * cdf.sd()), WithinAbs(hb::uniform_sum_cdf(terms, 0.5, 0.5, cdf.mean() + k * cdf.sd()), 1e-12));
    const auto split = hb::asynchronous_mean({halves, halves, Law::scaled(0.5, halves)}, terms);
    CHECK(split.method == "cf_inversion");
    CHECK_THAT(split.value, WithinAbs(hb::asynchronous_mean({u, u, Law::scaled(0.5, u)}, terms).value, 1e-9));
  }
  const Law exp_split = Law::mixture({{0.4, Law::exponential(1.0)}, {0.6, Law::exponential(1.0)}});
  const hb::LawSumCdf exp_sum(exp_split, 100);
  REQUIRE(exp_sum.usable());
  for (const double x : {70.0, 90.0, 100.0, 110.0, 130.0}) CHECK_THAT(exp_sum(x), WithinAbs(Law::gamma(100.0, 1.0).cdf(x), 1e-12));

  // A mixture of two normals: the sum of p draws is a binomial mixture of normals, whose cdf is
  // known: sum_j C(p, j) w^j (1 - w)^(p - j) Phi((x - j m1 - (p - j) m2) / sqrt(j v1 + (p - j) v2)).
  const double w = 0.3, m1 = 0.5, v1 = 1.0 / 12.0, m2 = 1.5, v2 = 0.25;
  const Law two = Law::mixture({{w, Law::normal(m1, v1)}, {1.0 - w, Law::normal(m2, v2)}});
  const int p = 10;
  const hb::LawSumCdf sum(two, p);
  REQUIRE(sum.usable());
  for (const double x : {8.0, 10.0, 11.5, 12.0, 13.0, 15.0}) {
    double f = 0.0;
    for (int j = 0; j <= p; ++j)
      f += std::exp(std::lgamma(p + 1.0) - std::lgamma(j + 1.0) - std::lgamma(p - j + 1.0) + j * std::log(w) +
                    (p - j) * std::log(1.0 - w)) *
           Law::normal(j * m1 + (p - j) * m2, j * v1 + (p - j) * v2).cdf(x);
    CHECK_THAT(sum(x), WithinAbs(f, 1e-12));
  }

  // A mixture of a uniform and a normal at 20 levels: the normal approximation is off by 15
  // standard errors of 20,000 replications at 10 levels (where the inversion does not reach 1e-17
  // within 60 units and the approximation stands, flagged); the exact value is within 3 standard
  // errors of an independent 200,000-replication reference (18.1581 +- 0.0099, std::mt19937_64 and
  // the standard library's laws, outside hetstruct; estimators_test checks it against hetstruct's).
  const Law mix = Law::mixture({{0.9, u}, {0.1, Law::normal(3.0, 0.25)}});
  const std::vector<Law> mixes = {mix, mix, mix, Law::scaled(0.5, mix)};
  CHECK(hb::asynchronous_mean(mixes, 10).method == "normal_approx");
  const auto exact = hb::asynchronous_mean(mixes, 20);
  CHECK(exact.exact);
  CHECK(exact.method == "cf_inversion");
  CHECK_THAT(exact.value, WithinAbs(18.1581, 3 * 0.0099));
}

TEST_CASE("uniform_sum_cdf: the Irwin-Hall law by inversion of its characteristic function", "[bounds]") {
  // Exact values: the Irwin-Hall formula in rational arithmetic (Python fractions), for the sum of
  // `terms` u(-1,1) at u; terms > 12 take the characteristic-function branch.
  struct Point {
    int terms;
    double u, cdf;
  };
  for (const auto& p : {Point{13, -3.0, 0.07552614727093894}, Point{13, 0.5, 0.593848688436275},
                        Point{20, -7.0, 0.003045537984573682}, Point{20, 2.0, 0.7793216559936423},
                        Point{50, -10.0, 0.007004911601512189}, Point{50, 3.0, 0.7682307424183831},
                        Point{50, -20.0, 2.688465266557171e-07}, Point{200, -15.0, 0.03308354837653441},
                        Point{200, 2.5, 0.6201838382746425}}) {
    INFO("terms " << p.terms << ", u " << p.u);
    CHECK_THAT(hb::uniform_sum_cdf(p.terms, 0.0, 1.0, p.u), WithinAbs(p.cdf, 1e-12));
    // The same sum of u(c - h, c + h) = c + h V: x = terms c + h u.
    CHECK_THAT(hb::uniform_sum_cdf(p.terms, 0.5, 0.25, p.terms * 0.5 + 0.25 * p.u), WithinAbs(p.cdf, 1e-12));
  }
  // Small sums by the formula: one term is the uniform cdf, two the triangle.
  CHECK_THAT(hb::uniform_sum_cdf(1, 0.5, 0.5, 0.3), WithinAbs(0.3, 1e-15));
  CHECK_THAT(hb::uniform_sum_cdf(2, 0.5, 0.5, 0.5), WithinAbs(0.125, 1e-15));
  CHECK_THAT(hb::uniform_sum_cdf(2, 0.5, 0.5, 1.5), WithinAbs(0.875, 1e-15));
  // Outside the support, and far in the tails.
  CHECK(hb::uniform_sum_cdf(1000, 0.5, 0.5, -1.0) == 0.0);
  CHECK(hb::uniform_sum_cdf(1000, 0.5, 0.5, 1001.0) == 1.0);
  CHECK(hb::uniform_sum_cdf(1000, 0.5, 0.5, 100.0) == 0.0);
}

TEST_CASE("closed forms reject invalid models", "[bounds]") {
  CHECK_THROWS_AS(hb::uniform_max_mean(3, 4, 0.5), InputError);   // m > n
  CHECK_THROWS_AS(hb::uniform_max_mean(3, -1, 0.5), InputError);  // m < 0
  CHECK_THROWS_AS(hb::uniform_max_mean(0, 0, 0.5), InputError);   // n < 1
  CHECK_THROWS_AS(hb::uniform_max_mean(3, 1, 0.0), InputError);   // a <= 0
  CHECK_THROWS_AS(hb::uniform_max_mean(3, 1, -1.0), InputError);
  CHECK_THROWS_AS(hb::uniform_max_mean(3, 1, NAN), InputError);
  CHECK_THROWS_AS(hb::uniform_max_cdf(3, 1, 1.5, 0.5), InputError);  // Eq. 1 needs a <= 1
  CHECK_THROWS_AS(hb::uniform_max_pdf(3, 1, 1.5, 0.5), InputError);
  CHECK_THROWS_AS(hb::uniform_max_mean_approx(3, 4), InputError);
  CHECK_THROWS_AS(hb::synchronous_uniform_mean(8, 9, 0.5, 1000), InputError);
}

TEST_CASE("E[max] of many equal laws: runs share a cdf, long runs take a power", "[bounds]") {
  // E[max of n U(0,1)] = n/(n+1): runs up to 1024 multiply, longer ones take pow(F, n).
  for (const std::size_t n : {3u, 1024u, 1025u, 100000u, 1000000u}) {
    INFO("n = " << n);
    const std::vector<Law> laws(n, Law::uniform(0, 1));
    CHECK_THAT(hb::expected_max(laws), WithinRel(static_cast<double>(n) / (n + 1.0), 1e-9));
  }
  // Interleaved laws make runs of one: the same value as the grouped order, up to rounding.
  std::vector<Law> grouped, interleaved;
  for (int i = 0; i < 40; ++i) {
    grouped.push_back(i < 20 ? Law::uniform(0, 1) : Law::scaled(0.5, Law::uniform(0, 1)));
    interleaved.push_back(i % 2 ? Law::uniform(0, 1) : Law::scaled(0.5, Law::uniform(0, 1)));
  }
  CHECK_THAT(hb::expected_max(grouped), WithinRel(hb::expected_max(interleaved), 1e-12));
  CHECK_THAT(hb::expected_max(grouped), WithinRel(hb::synchronous_uniform_mean(40, 20, 0.5, 1), 1e-10));
}

}  // namespace bounds_test
