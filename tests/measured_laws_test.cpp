// Tests of the laws of measured programs (distributions/law.h): exponential, gamma, lognormal,
// Weibull and the empirical law of a file of task times.
//
// Tolerances: moments and cdfs against closed forms or Boost.Math to 1e-12 relative (a handful of
// operations plus one special function, each good to a few ulps); quadrature over support() to
// 1e-10 relative (expected_max asks for 1e-13 of the integral; the tail beyond support() holds
// 1e-18 of the mean). Monte Carlo checks use fixed seeds and allow 5 standard errors for the
// sampler (false alarm 6e-7 per check) and 4 for the engine's simulations (6e-5), the standard
// error being the one the estimate reports.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/weibull.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/random/mersenne_twister.hpp>

#include "bounds/closed_forms.h"
#include "distributions/input_error.h"
#include "distributions/law.h"
#include "distributions/sampler.h"
#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "structures/structure.h"
#include "support.h"

namespace measured_laws_test {

using namespace hetstruct;
using distributions::Law;
using distributions::parse_law;
using distributions::Sampler;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;
using testing::error_of;
using testing::TempDir;

namespace {

constexpr double exact_rel = 1e-12;
const std::string sample_file = std::string(HETSTRUCT_TEST_DATA) + "/task_times.txt";

constexpr double pi = 3.14159265358979323846;

// Writes `text` to `name` in `dir` and returns the path.
std::string write_file(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = (dir.path / name).string();
  std::ofstream(path) << text;
  return path;
}

// The numbers of a task-time file, read independently of the law's reader.
std::vector<double> read_values(const std::string& path) {
  std::ifstream in(path);
  std::vector<double> v;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') v.push_back(std::stod(line));
  return v;
}

struct SampleMoments {
  double mean, variance, se_mean, se_variance;
};

// Sample mean and variance of n draws with their standard errors (as in law_test.cpp).
template <class Draw>
SampleMoments sample_moments(std::size_t n, Draw draw) {
  std::vector<double> x(n);
  for (auto& v : x) v = draw();
  const double mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
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

engine::Estimate simulate(const structures::Structure& s, std::uint64_t reps, std::uint64_t seed, int threads = 0) {
  engine::RunOptions options;
  options.reps = reps;
  options.seed = seed;
  options.threads = threads;
  return engine::run(engine::compile(s), options);
}

}  // namespace

// ---- Moments -----------------------------------------------------------------------------------

TEST_CASE("measured laws: means and variances against closed forms and Boost.Math", "[law][measured]") {
  // exp(mean): rate 1/mean.
  CHECK_THAT(Law::exponential(2.0).mean(), WithinRel(2.0, exact_rel));
  CHECK_THAT(Law::exponential(2.0).variance(), WithinRel(4.0, exact_rel));
  // gamma(shape, scale): k theta, k theta^2.
  CHECK_THAT(Law::gamma(2.5, 0.4).mean(), WithinRel(1.0, exact_rel));
  CHECK_THAT(Law::gamma(2.5, 0.4).variance(), WithinRel(0.4, exact_rel));
  const boost::math::gamma_distribution<double> g(0.3, 7.0);
  CHECK_THAT(Law::gamma(0.3, 7.0).mean(), WithinRel(boost::math::mean(g), exact_rel));
  CHECK_THAT(Law::gamma(0.3, 7.0).variance(), WithinRel(boost::math::variance(g), exact_rel));
  // lognormal(mu, sigma): e^(mu + s^2/2), (e^(s^2) - 1) e^(2 mu + s^2).
  for (const auto& [mu, sigma] : std::vector<std::pair<double, double>>{{0.1, 0.5}, {-2.0, 1.5}, {3.0, 0.05}}) {
    INFO("lognormal(" << mu << "," << sigma << ")");
    const boost::math::lognormal_distribution<double> ln(mu, sigma);
    CHECK_THAT(Law::lognormal(mu, sigma).mean(), WithinRel(std::exp(mu + sigma * sigma / 2), exact_rel));
    CHECK_THAT(Law::lognormal(mu, sigma).mean(), WithinRel(boost::math::mean(ln), exact_rel));
    CHECK_THAT(Law::lognormal(mu, sigma).variance(),
               WithinRel(std::expm1(sigma * sigma) * std::exp(2 * mu + sigma * sigma), exact_rel));
  }
  // Boost's own lognormal variance, (e^(s^2) - 1) e^(2 mu + s^2) with exp(s^2) - 1 as written,
  // loses digits for a small sigma; at sigma = 0.5 it still has them.
  CHECK_THAT(Law::lognormal(0.1, 0.5).variance(),
             WithinRel(boost::math::variance(boost::math::lognormal_distribution<double>(0.1, 0.5)), 1e-13));
  // weibull(shape, scale): shape 1 is exponential; shape 2 is Rayleigh (mean l sqrt(pi)/2,
  // variance l^2 (1 - pi/4)); any shape against Boost.Math and std::tgamma.
  CHECK_THAT(Law::weibull(1.0, 3.0).mean(), WithinRel(3.0, exact_rel));
  CHECK_THAT(Law::weibull(1.0, 3.0).variance(), WithinRel(9.0, exact_rel));
  CHECK_THAT(Law::weibull(2.0, 3.0).mean(), WithinRel(3.0 * std::sqrt(pi) / 2, exact_rel));
  CHECK_THAT(Law::weibull(2.0, 3.0).variance(), WithinRel(9.0 * (1 - pi / 4), exact_rel));
  for (const double k : {0.5, 1.5, 3.7}) {
    INFO("weibull(" << k << ",2)");
    const boost::math::weibull_distribution<double> w(k, 2.0);
    const double g1 = std::tgamma(1 + 1 / k), g2 = std::tgamma(1 + 2 / k);
    CHECK_THAT(Law::weibull(k, 2.0).mean(), WithinRel(2.0 * g1, exact_rel));
    CHECK_THAT(Law::weibull(k, 2.0).mean(), WithinRel(boost::math::mean(w), exact_rel));
    CHECK_THAT(Law::weibull(k, 2.0).variance(), WithinRel(4.0 * (g2 - g1 * g1), 1e-11));  // g2 - g1^2 cancels a digit
    CHECK_THAT(Law::weibull(k, 2.0).variance(), WithinRel(boost::math::variance(w), 1e-11));
  }
}

TEST_CASE("measured laws: a large Weibull shape keeps the variance's digits", "[law][measured]") {
  // Gamma(1 + 2/k) - Gamma(1 + 1/k)^2 cancels about log10(k^2) digits in double; the reference is
  // computed with 50 decimal digits.
  using big = boost::multiprecision::cpp_bin_float_50;
  for (const double k : {50.0, 400.0}) {
    INFO("weibull(" << k << ",1)");
    const big g1 = boost::math::tgamma(1 + 1 / big(k)), g2 = boost::math::tgamma(1 + 2 / big(k));
    CHECK_THAT(Law::weibull(k, 1.0).mean(), WithinRel(static_cast<double>(g1), exact_rel));
    CHECK_THAT(Law::weibull(k, 1.0).variance(), WithinRel(static_cast<double>(g2 - g1 * g1), 1e-11));
  }
}

// ---- cdf, pdf, support -------------------------------------------------------------------------

TEST_CASE("measured laws: cdf and pdf against closed forms", "[law][measured]") {
  for (const double x : {0.01, 0.3, 1.0, 2.5, 7.0}) {
    INFO("x = " << x);
    // exp(2): 1 - e^(-x/2).
    CHECK_THAT(Law::exponential(2.0).cdf(x), WithinRel(-std::expm1(-x / 2), exact_rel));
    CHECK_THAT(*Law::exponential(2.0).pdf(x), WithinRel(std::exp(-x / 2) / 2, exact_rel));
    // gamma(3, 0.5), an Erlang law: 1 - e^(-y) (1 + y + y^2/2), y = x / 0.5 (away from 0, where
    // the closed form cancels).
    const double y = x / 0.5;
    if (x >= 0.3) CHECK_THAT(Law::gamma(3.0, 0.5).cdf(x), WithinRel(1 - std::exp(-y) * (1 + y + y * y / 2), 1e-11));
    CHECK_THAT(*Law::gamma(3.0, 0.5).pdf(x), WithinRel(y * y * std::exp(-y) / 2 / 0.5, exact_rel));
    // lognormal(0.2, 0.7): Phi((ln x - mu) / sigma).
    const double z = (std::log(x) - 0.2) / 0.7;
    CHECK_THAT(Law::lognormal(0.2, 0.7).cdf(x), WithinRel(0.5 * std::erfc(-z / std::sqrt(2.0)), exact_rel));
    CHECK_THAT(*Law::lognormal(0.2, 0.7).pdf(x),
               WithinRel(std::exp(-z * z / 2) / (x * 0.7 * std::sqrt(2 * pi)), exact_rel));
    // weibull(1.5, 2): 1 - e^(-(x/2)^1.5).
    CHECK_THAT(Law::weibull(1.5, 2.0).cdf(x), WithinRel(-std::expm1(-std::pow(x / 2, 1.5)), exact_rel));
    CHECK_THAT(*Law::weibull(1.5, 2.0).pdf(x),
               WithinRel(1.5 / 2 * std::pow(x / 2, 0.5) * std::exp(-std::pow(x / 2, 1.5)), exact_rel));
    // A non-integer gamma shape against Boost.Math.
    CHECK_THAT(Law::gamma(0.7, 1.3).cdf(x),
               WithinRel(boost::math::cdf(boost::math::gamma_distribution<double>(0.7, 1.3), x), exact_rel));
    // a*X at a*x is X at x.
    CHECK_THAT(Law::scaled(0.25, Law::weibull(1.5, 2.0)).cdf(0.25 * x), WithinRel(Law::weibull(1.5, 2.0).cdf(x), exact_rel));
  }
  // No mass below 0, and none of it negative.
  for (const Law& law : {Law::exponential(1.0), Law::gamma(0.5, 1.0), Law::lognormal(0.0, 1.0), Law::weibull(0.5, 1.0)}) {
    INFO(law.to_string());
    CHECK(law.cdf(0.0) == 0.0);
    CHECK(law.cdf(-1.0) == 0.0);
    CHECK(*law.pdf(-1.0) == 0.0);
    CHECK(law.cdf(std::numeric_limits<double>::infinity()) == 1.0);
    CHECK(law.negative_probability() == 0.0);
  }
}

TEST_CASE("measured laws: support holds all but 1e-18 of the mean, and breakpoints", "[law][measured]") {
  using P = std::pair<double, double>;
  using V = std::vector<double>;
  // E[X; X > hi] / E[X] is the survival of the size-biased law: gamma(k + 1, theta) for gamma.
  const auto [glo, ghi] = Law::gamma(2.0, 0.5).support();
  CHECK(glo == 0.0);
  CHECK_THAT(boost::math::gamma_q(3.0, ghi / 0.5), WithinRel(1e-18, 1e-9));
  const auto ehi = Law::exponential(2.0).support().second;
  CHECK_THAT(boost::math::gamma_q(2.0, ehi / 2.0), WithinRel(1e-18, 1e-9));
  // lognormal(mu, sigma): E[X; X > x] / E[X] = Phi(sigma - (ln x - mu) / sigma).
  const auto lhi = Law::lognormal(0.5, 1.2).support().second;
  CHECK_THAT(0.5 * std::erfc(((std::log(lhi) - 0.5) / 1.2 - 1.2) / std::sqrt(2.0)), WithinRel(1e-18, 1e-9));
  // Weibull: Q(1 + 1/k, (x/l)^k).
  const auto whi = Law::weibull(0.7, 3.0).support().second;
  CHECK_THAT(boost::math::gamma_q(1 + 1 / 0.7, std::pow(whi / 3.0, 0.7)), WithinRel(1e-18, 1e-9));
  CHECK(Law::scaled(2.0, Law::weibull(0.7, 3.0)).support() == P{0.0, 2.0 * whi});

  CHECK(Law::exponential(1.0).breakpoints() == V{0.0});
  CHECK(Law::gamma(2.0, 1.0).breakpoints() == V{0.0});
  CHECK(Law::weibull(2.0, 1.0).breakpoints() == V{0.0});
  CHECK(Law::lognormal(0.0, 1.0).breakpoints().empty());
  // Quadrature cuts: the breakpoints plus points inside the support, sorted and unique.
  const auto cuts = Law::lognormal(0.0, 1.0).quadrature_cuts();
  CHECK(std::is_sorted(cuts.begin(), cuts.end()));
  CHECK(std::adjacent_find(cuts.begin(), cuts.end()) == cuts.end());
  CHECK(cuts.size() == 21);
  CHECK(cuts.back() < Law::lognormal(0.0, 1.0).support().second);
  // A normal's cuts are its mean +- 2 and 4 sd, as the quadrature has always cut it.
  CHECK(Law::normal(1.0, 4.0).quadrature_cuts() == V{-7.0, -3.0, 1.0, 5.0, 9.0});
  CHECK(Law::uniform(0.0, 1.0).quadrature_cuts() == V{0.0, 1.0});
}

TEST_CASE("measured laws: quadrature over support() gives the mean and the expected max", "[law][measured][bounds]") {
  // E[max of one law] is its mean: the quadrature loses nothing in the tail.
  for (const Law& law : {Law::exponential(2.0), Law::gamma(0.4, 3.0), Law::gamma(30.0, 0.1), Law::lognormal(0.0, 2.0),
                         Law::lognormal(1.0, 0.1), Law::weibull(0.5, 1.0), Law::weibull(8.0, 1.0),
                         Law::scaled(0.5, Law::gamma(2.0, 1.0)),
                         Law::mixture({{0.5, Law::exponential(1.0)}, {0.5, Law::uniform(0.0, 1.0)}}),
                         Law::empirical(sample_file)}) {
    INFO(law.to_string());
    CHECK_THAT(bounds::expected_max({law}), WithinRel(law.mean(), 1e-10));
  }
  // The max of n independent exp(m) has mean m H_n (H_n the harmonic number); n >= 64 takes the
  // quadrature's quantile cuts.
  for (const int n : {2, 3, 10, 100, 1000}) {
    INFO("n = " << n);
    double harmonic = 0.0;
    for (int i = 1; i <= n; ++i) harmonic += 1.0 / i;
    CHECK_THAT(bounds::expected_max(std::vector<Law>(n, Law::exponential(0.5))), WithinRel(0.5 * harmonic, 1e-10));
  }
  // Two exponentials of rates a and b: 1/a + 1/b - 1/(a + b).
  CHECK_THAT(bounds::expected_max({Law::exponential(1.0), Law::exponential(0.25)}), WithinRel(1 + 0.25 - 1 / 5.0, 1e-10));
}

// ---- The empirical law -------------------------------------------------------------------------

TEST_CASE("empirical law: the data's mean, variance and cdf", "[law][measured]") {
  TempDir dir;
  // Dyadic values: every sum is exact, so the mean and variance are known to the last bit.
  const std::string path = write_file(dir, "dyadic.txt", "# measured\n1.5\n\n  2.25  # a comment\n3.125\n0.5\n");
  const Law law = Law::empirical(path);
  CHECK(law.mean() == 7.375 / 4);
  const double m = 7.375 / 4;
  CHECK(law.variance() == ((1.5 - m) * (1.5 - m) + (2.25 - m) * (2.25 - m) + (3.125 - m) * (3.125 - m) + (0.5 - m) * (0.5 - m)) / 4);
  CHECK(law.cdf(0.4) == 0.0);
  CHECK(law.cdf(0.5) == 0.25);
  CHECK(law.cdf(2.0) == 0.5);
  CHECK(law.cdf(2.25) == 0.75);
  CHECK(law.cdf(3.125) == 1.0);
  CHECK(!law.pdf(1.0));
  CHECK(law.support() == std::pair<double, double>{0.5, 3.125});
  CHECK(law.breakpoints() == std::vector<double>{0.5, 1.5, 2.25, 3.125});
  CHECK(law.negative_probability() == 0.0);
  CHECK(Law::empirical(write_file(dir, "neg.txt", "-1\n2\n3\n-0.5\n0\n")).negative_probability() == 0.4);

  // The sample file: the mean is the data's mean, correctly rounded (a long double holds these
  // 200 sums exactly: 61 significant bits).
  const auto values = read_values(sample_file);
  REQUIRE(values.size() == 200);
  long double sum = 0;
  for (const double v : values) sum += v;
  const Law sample = Law::empirical(sample_file);
  CHECK(sample.mean() == static_cast<double>(sum) / 200.0);
  long double ss = 0;
  for (const double v : values) ss += (v - sample.mean()) * (v - sample.mean());
  CHECK_THAT(sample.variance(), WithinRel(static_cast<double>(ss / 200), exact_rel));
  // Scaled: the data times a.
  CHECK_THAT(Law::scaled(0.5, sample).mean(), WithinRel(0.5 * sample.mean(), exact_rel));
  CHECK(Law::scaled(0.5, sample).cdf(0.5 * values[7]) == sample.cdf(values[7]));
}

TEST_CASE("empirical law: data kept once, equality by data, the path round-trips", "[law][measured]") {
  TempDir dir;
  const std::string a = write_file(dir, "a.txt", "1\n2\n3\n"), b = write_file(dir, "b.txt", "3\n1\n2\n");
  const std::string c = write_file(dir, "c.txt", "1\n2\n4\n");
  const Law la = Law::empirical(a);
  const Law copy = la;
  CHECK(copy.components()[0].leaf.data == la.components()[0].leaf.data);  // shared, not copied
  CHECK(la == Law::empirical(b));                                          // same data, other order and file
  CHECK_FALSE(la == Law::empirical(c));
  CHECK_FALSE(la == Law::scaled(2.0, la));
  // The text is the path; parse_law reads it back to an equal law.
  CHECK(la.to_string() == "emp(" + a + ")");
  CHECK(parse_law(la.to_string()) == la);
  CHECK(parse_law("emp( " + a + " )") == la);
  CHECK(parse_law("emp(\"" + a + "\")") == la);
  // A path with spaces, ')' or '"' is quoted, with \" and \\ escapes.
  const std::string odd = write_file(dir, "my \"times\" (1).txt", "0.5\n1.5\n");
  const Law lo = Law::empirical(odd);
  CHECK_THAT(lo.to_string(), Contains("emp(\""));
  CHECK_THAT(lo.to_string(), Contains("\\\"times\\\""));
  CHECK(parse_law(lo.to_string()) == lo);
  // Scaled and mixed.
  for (const auto& text : {"0.5*emp(" + a + ")", "mix(0.25:emp(" + a + "),0.75:gamma(2,0.25))"}) {
    INFO(text);
    const Law law = parse_law(text);
    CHECK(law.to_string() == text);
    CHECK(parse_law(law.to_string()) == law);
  }
  CHECK_THAT(parse_law("mix(0.25:emp(" + a + "),0.75:gamma(2,0.25))").mean(), WithinRel(0.25 * 2 + 0.75 * 0.5, exact_rel));
}

TEST_CASE("empirical law: errors for a missing, empty or non-numeric file", "[law][measured]") {
  TempDir dir;
  const std::string missing = (dir.path / "missing.txt").string();
  CHECK_THAT(error_of([&] { Law::empirical(missing); }), Contains("emp(" + missing + "): cannot read the file"));
  CHECK_THAT(error_of([&] { Law::empirical(write_file(dir, "empty.txt", "")); }), Contains("the file has no task times"));
  CHECK_THAT(error_of([&] { Law::empirical(dir.path.string()); }), Contains("' is not a file"));
  CHECK_THAT(error_of([&] { Law::empirical("/dev/zero"); }), Contains("emp(/dev/zero): '/dev/zero' is not a file"));
  CHECK_THAT(error_of([&] { Law::empirical(write_file(dir, "comments.txt", "# only\n\n  # comments\n")); }),
             Contains("the file has no task times"));
  CHECK_THAT(error_of([&] { Law::empirical(write_file(dir, "text.txt", "1.5\n2\nabc\n")); }),
             Contains("line 3: 'abc' is not a number"));
  CHECK_THAT(error_of([&] { Law::empirical(write_file(dir, "two.txt", "1.5\n2 3\n")); }),
             Contains("line 2: '2 3' is not a number"));
  CHECK_THAT(error_of([&] { Law::empirical(write_file(dir, "csv.txt", "1.5,\n")); }), Contains("line 1: '1.5,' is not a number"));
  CHECK_THAT(error_of([&] { Law::empirical(write_file(dir, "inf.txt", "1\ninf\n")); }), Contains("line 2: 'inf' is not a number"));
  // Times that never vary are accepted as the constant they are (they were refused).
  CHECK(Law::empirical(write_file(dir, "same.txt", "2\n2.0\n2\n")) == Law::constant(2.0));
  CHECK(parse_law("emp(" + write_file(dir, "same2.txt", "0.5\n0.5\n") + ")") == Law::constant(0.5));
  CHECK_THAT(error_of([&] { Law::empirical(write_file(dir, "huge.txt", "1e300\n-1e300\n")); }), Contains("values too large"));
  CHECK_THAT(error_of([&] { Law::empirical(write_file(dir, "tiny.txt", "1e-200\n2e-200\n")); }), Contains("values too small"));
  // Through parse_law: the text and the position of the law.
  const std::string text = "mix(0.5:u(0,1),0.5:emp(" + missing + "))";
  const std::string e = error_of([&] { parse_law(text); });
  CHECK_THAT(e, Contains("law '" + text + "'"));
  CHECK_THAT(e, Contains("cannot read the file '" + missing + "' at position 19"));
  CHECK_THAT(error_of([] { parse_law("emp()"); }), Contains("expected a file path at position 4"));
  CHECK_THAT(error_of([] { parse_law("emp(\"abc"); }), Contains("unterminated quoted path"));
  CHECK_THAT(error_of([] { parse_law("emp(abc"); }), Contains("expected ')' at position 7"));
}

// ---- The law syntax ----------------------------------------------------------------------------

TEST_CASE("measured laws: parse_law reads them and to_string round-trips", "[law][measured]") {
  CHECK(parse_law("exp(2)") == Law::exponential(2.0));
  CHECK(parse_law(" gamma( 2 , 1/4 ) ") == Law::gamma(2.0, 0.25));
  CHECK(parse_law("lognormal(-1,0.5)") == Law::lognormal(-1.0, 0.5));
  CHECK(parse_law("weibull(1.5,2)") == Law::weibull(1.5, 2.0));
  for (const std::string text : {"exp(2)", "gamma(2,0.25)", "lognormal(-1,0.5)", "weibull(1.5,2)", "0.5*exp(0.1)",
                                 "mix(0.3:exp(1),0.2:gamma(0.5,3),0.5:0.25*lognormal(0,1))",
                                 "mix(0.5:weibull(3,1),0.5:n(0.5,0.08333333333333333))"}) {
    INFO(text);
    const Law law = parse_law(text);
    CHECK(law.to_string() == text);
    CHECK(parse_law(law.to_string()) == law);
  }
  // 2*gamma(2,0.25) is a scaled gamma, not gamma(2,0.5): the same variates, times 2.
  CHECK(parse_law("2*gamma(2,0.25)").to_string() == "2*gamma(2,0.25)");
  CHECK_THAT(parse_law("2*gamma(2,0.25)").variance(), WithinRel(Law::gamma(2.0, 0.5).variance(), exact_rel));
}

TEST_CASE("measured laws: invalid parameters and overflows are refused with a message", "[law][measured]") {
  const auto err = [](const std::string& text) { return error_of([&] { parse_law(text); }); };
  CHECK_THAT(err("exp(0)"), Contains("exp(mean) needs mean > 0, got 0 at position 0"));
  CHECK_THAT(err("exp(-1)"), Contains("exp(mean) needs mean > 0, got -1"));
  CHECK_THAT(err("gamma(-1,1)"), Contains("gamma(shape,scale) needs shape > 0, got -1"));
  CHECK_THAT(err("gamma(1,0)"), Contains("gamma(shape,scale) needs scale > 0, got 0"));
  CHECK_THAT(err("lognormal(0,0)"), Contains("lognormal(mu,sigma) needs sigma > 0, got 0"));
  CHECK_THAT(err("weibull(0,1)"), Contains("weibull(shape,scale) needs shape > 0, got 0"));
  CHECK_THAT(err("weibull(2,-3)"), Contains("weibull(shape,scale) needs scale > 0, got -3"));
  CHECK_THAT(err("gamma(2)"), Contains("expected ',' at position 7"));
  CHECK_THAT(err("exp(1,2)"), Contains("expected ')' at position 5"));
  CHECK_THAT(err("expo(1)"), Contains("unknown law 'expo' at position 0"));
  // Overflow: the mean, the variance or the end of the support (the guards parse_law documents).
  CHECK_THAT(err("lognormal(0,30)"), Contains("values too large"));
  CHECK_THAT(err("lognormal(700,1)"), Contains("values too large"));
  CHECK_THAT(err("gamma(1e300,1e10)"), Contains("values too large"));
  CHECK_THAT(err("weibull(0.001,1)"), Contains("values too large"));  // mean Gamma(1001)
  CHECK_THAT(err("exp(1e200)"), Contains("values too large"));       // variance 1e400
  CHECK_THAT(err("1e300*exp(1e10)"), Contains("values too large"));
  // Underflow: a variance below the smallest normal double.
  CHECK_THAT(err("exp(1e-200)"), Contains("values too small"));
  CHECK_THAT(err("1e-200*gamma(2,1)"), Contains("values too small"));
  CHECK_THAT(err("lognormal(-500,1)"), Contains("values too small"));
}

// ---- Sampling ----------------------------------------------------------------------------------

TEST_CASE("measured laws: Sampler draws have the law's mean and variance", "[law][measured]") {
  // 200000 draws per law, 5 standard errors; the seed is fixed.
  constexpr std::size_t draws = 200000;
  const std::vector<Law> laws = {
      Law::exponential(2.0),
      Law::gamma(0.4, 3.0),  // shape < 1: Boost's other branch
      Law::gamma(1.0, 0.5),
      Law::gamma(4.5, 0.2),
      Law::lognormal(0.1, 0.5),
      Law::weibull(0.8, 2.0),
      Law::weibull(3.0, 1.0),
      Law::empirical(sample_file),
      Law::scaled(0.5, Law::empirical(sample_file)),
      Law::mixture({{0.3, Law::exponential(1.0)}, {0.3, Law::lognormal(0.0, 0.3)}, {0.4, Law::empirical(sample_file)}}),
  };
  std::uint64_t seed = 20261124;
  for (const Law& law : laws) {
    INFO("law: " << law.to_string());
    boost::random::mt19937_64 eng(seed++);
    const Sampler sampler(law);
    const auto m = sample_moments(draws, [&] { return sampler(eng); });
    INFO("sample mean " << m.mean << " (SE " << m.se_mean << "), variance " << m.variance << " (SE " << m.se_variance << ")");
    CHECK(std::abs(m.mean - law.mean()) < 5.0 * m.se_mean);
    CHECK(std::abs(m.variance - law.variance()) < 5.0 * m.se_variance);
  }
}

TEST_CASE("measured laws: the empirical sampler draws only the data, each value alike", "[law][measured]") {
  TempDir dir;
  const Law law = Law::empirical(write_file(dir, "four.txt", "1\n2\n3\n10\n"));
  const Sampler sampler(law);
  boost::random::mt19937_64 eng(5);
  constexpr int draws = 40000;
  int counts[4] = {0, 0, 0, 0}, other = 0;
  for (int i = 0; i < draws; ++i) {
    const double x = sampler(eng);
    if (x == 1) ++counts[0];
    else if (x == 2) ++counts[1];
    else if (x == 3) ++counts[2];
    else if (x == 10) ++counts[3];
    else ++other;
  }
  CHECK(other == 0);
  // Each count is binomial(40000, 1/4): sd 86.6; 5 sd.
  for (const int c : counts) CHECK(std::abs(c - draws / 4) < 5 * std::sqrt(draws * 0.25 * 0.75));
}

TEST_CASE("measured laws: a*X is a times X on the same variates (common random numbers)", "[law][measured]") {
  for (const Law& base : {Law::exponential(1.0), Law::gamma(0.4, 1.0), Law::gamma(3.0, 1.0), Law::lognormal(0.0, 1.0),
                          Law::weibull(1.5, 1.0), Law::empirical(sample_file)}) {
    INFO("law: " << base.to_string());
    boost::random::mt19937_64 e1(42), e2(42);
    const Sampler x(base), y(Law::scaled(0.5, base));
    int mismatches = 0;
    for (int i = 0; i < 1000; ++i) mismatches += !(y(e2) == 0.5 * x(e1));
    CHECK(mismatches == 0);
    CHECK(e1() == e2());
  }
}

// ---- Simulations -------------------------------------------------------------------------------

TEST_CASE("measured laws: asynchronous structures against their exact expectations", "[law][measured][engine]") {
  // A processor's time is the sum of p task times: p * mean for width 1 whatever the law; for a
  // gamma(k, theta) law (exp is k = 1) the sum is gamma(p k, theta) (a*X: gamma(p k, a theta)),
  // so E[makespan] = E[max over processors] is the expected max of independent gamma laws.
  const int p = 20;
  const auto sample = Law::empirical(sample_file);
  for (const Law& law : {Law::lognormal(0.0, 0.8), Law::weibull(0.7, 1.0), sample, Law::exponential(0.5)}) {
    INFO("width 1: " << law.to_string());
    const auto e = simulate(structures::asynchronous(structures::heterogeneous(1, 0, 1.0, law), p), 4000, 11);
    CHECK(std::abs(e.mean - p * law.mean()) <= 4.0 * e.stderr_);
  }
  for (const auto& [k, theta] : std::vector<std::pair<double, double>>{{1.0, 0.5}, {2.0, 0.25}, {0.5, 1.0}}) {
    for (int n = 1; n <= 4; ++n) {
      const int m = n / 2;  // fast processors, a = 0.5
      INFO("gamma(" << k << "," << theta << "), width " << n << ", " << m << " fast");
      std::vector<Law> sums;
      for (int i = 0; i < n; ++i) sums.push_back(Law::gamma(p * k, i < m ? 0.5 * theta : theta));
      const double exact = bounds::expected_max(sums);
      const auto e = simulate(structures::asynchronous(structures::heterogeneous(n, m, 0.5, Law::gamma(k, theta)), p), 4000, 17);
      INFO("simulated " << e.mean << " +- " << e.stderr_ << ", exact " << exact);
      CHECK(std::abs(e.mean - exact) <= 4.0 * e.stderr_);
    }
  }
}

TEST_CASE("measured laws: synchronous structure at C = 0: levels * m * H_n for exp(m)", "[law][measured][engine]") {
  const int levels = 30;
  for (const int n : {2, 4, 8}) {
    INFO("n = " << n);
    double harmonic = 0.0;
    for (int i = 1; i <= n; ++i) harmonic += 1.0 / i;
    const auto s = structures::synchronous(structures::heterogeneous(n, 0, 1.0, Law::exponential(0.5)), levels);
    CHECK_THAT(bounds::synchronous_mean(s.laws, levels), WithinRel(levels * 0.5 * harmonic, 1e-10));
    const auto e = simulate(s, 2000, 23);
    CHECK(std::abs(e.mean - levels * 0.5 * harmonic) <= 4.0 * e.stderr_);
  }
}

TEST_CASE("measured laws: the same seed gives the same bits on 1 and 2 threads", "[law][measured][engine]") {
  const auto law = Law::mixture({{0.5, Law::gamma(2.0, 0.25)}, {0.5, Law::empirical(sample_file)}});
  for (const auto& s : {structures::asynchronous(structures::heterogeneous(4, 1, 0.5, law), 30),
                        structures::synchronous(structures::heterogeneous(4, 1, 0.5, Law::weibull(1.5, 1.0)), 30)}) {
    INFO(s.name);
    const auto one = simulate(s, 1000, 42, 1), two = simulate(s, 1000, 42, 2);
    CHECK(one.mean == two.mean);
    CHECK(one.stderr_ == two.stderr_);
    CHECK(one.min == two.min);
    CHECK(one.max == two.max);
  }
}

// The warning names what draws the negative times: an untruncated normal, a uniform or constant
// below 0, measured data with negative values (alone or in a mixture); never exp, gamma,
// lognormal, weibull or tn. Exact texts: the probabilities are P(X < 0) to 3 digits.
TEST_CASE("the negative-time warning names what can go negative", "[law][measured][warning]") {
  using engine::negative_time_warning;
  const auto warning = [](const std::vector<std::string>& texts) {
    std::vector<Law> laws;
    for (const auto& t : texts) laws.push_back(parse_law(t));
    return negative_time_warning(laws).value_or("none");
  };
  for (const char* never : {"exp(1)", "gamma(1/2,4)", "lognormal(-3,2)", "weibull(0.5,1)", "tn(-1,1)", "u(0,1)", "c(0)"})
    CHECK(warning({never}) == "none");
  const std::string normal = "normal laws are not truncated, as in Wilson's tables; tn(mean,variance) truncates at 0";
  // Wilson's normal law: the text the goldens hold.
  CHECK(warning({"n(1/2,1/12)"}) == "n(0.5,0.08333333333333333) draws a negative task time with probability 4.16% (" + normal + ")");
  CHECK(warning({"n(5,1)"}) == "none");  // P = 2.9e-7, below one in a hundred
  TempDir dir;
  const std::string data = write_file(dir, "neg.txt", "-1\n1\n2\n3\n");  // P(X < 0) = 1/4
  CHECK(warning({"exp(1)", "emp(" + data + ")"}) ==
        "emp(" + data + ") draws a negative task time with probability 25% (the measured data has negative values)");
  // 1/2 * 1/4 + 1/2 * Phi(-1) = 0.2043: both causes, in the mixture's order.
  CHECK(warning({"mix(0.5:emp(" + data + "),0.5:n(1,1))"}) ==
        "mix(0.5:emp(" + data + "),0.5:n(1,1)) draws a negative task time with probability 20.4% (the measured data has "
        "negative values; " + normal + ")");
  CHECK(warning({"mix(0.5:emp(" + data + "),0.5:gamma(2,1))"}).find("12.5% (the measured data has negative values)") !=
        std::string::npos);
  // The likeliest of the laws is named.
  CHECK(warning({"n(1/2,1/12)", "u(-1,1)"}) == "u(-1,1) draws a negative task time with probability 50% (a uniform law's "
                                               "range starts below 0)");
  CHECK(warning({"c(-1)"}) == "c(-1) draws a negative task time with probability 100% (a negative constant)");
  // Positive data is never negative.
  CHECK(warning({"emp(" + write_file(dir, "pos.txt", "0\n1\n2\n") + ")"}) == "none");
}

}  // namespace measured_laws_test
