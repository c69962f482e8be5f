// Tests of hetstruct fit: the maximum-likelihood fits against scipy's (tests/data/fit/, written by
// tests/reference/fit_reference.py: parameters to 1e-4 relative, the log-likelihood and the KS and
// AD statistics for scipy's own parameters to 1e-9), the bootstrap p-values (uniform under the true
// law over seeds, small under a wrong one, the same on 1 and 2 threads), the small-group rows, the
// refusals, and the fitted law written into a trace and read back.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/random/exponential_distribution.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <tbb/task_arena.h>

#include "distributions/fit/fit.h"
#include "distributions/input_error.h"
#include "distributions/law.h"
#include "engine/fit/fit.h"
#include "structures/task_graphs.h"

namespace fit_test {

using namespace hetstruct;
namespace fit = distributions::fit;

const std::string data = std::string(HETSTRUCT_TEST_DATA) + "/fit/";

double relative(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

std::vector<double> sorted_samples(const std::string& file) {
  return engine::groups_of_samples(data + file)[0].runs;  // emp() keeps them sorted
}

TEST_CASE("fit: the MLE equals scipy's, the statistics for the same parameters to 1e-9", "[fit]") {
  std::ifstream in(data + "reference.csv");
  std::string line;
  std::getline(in, line);
  int rows = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string item; std::getline(ss, item, ',');) f.push_back(item);
    REQUIRE(f.size() == 7);
    INFO(line);
    const std::vector<double> xs = sorted_samples(f[0]);
    const fit::Family family = fit::parse_family(f[1]);
    const fit::FittedLaw ours = fit::fit_mle(family, xs);
    const double p1 = std::stod(f[2]), p2 = std::stod(f[3]);
    CHECK(relative(ours.p1, p1) < 1e-4);
    if (family != fit::Family::exp) CHECK(relative(ours.p2, p2) < 1e-4);
    const fit::FittedLaw theirs{family, p1, p2, {}, {}, {}};
    CHECK(relative(fit::log_likelihood(theirs, xs), std::stod(f[4])) < 1e-9);
    CHECK(relative(fit::ks_statistic(theirs, xs), std::stod(f[5])) < 1e-9);
    CHECK(relative(fit::ad_statistic(theirs, xs), std::stod(f[6])) < 1e-9);
    // Our fit is a maximum: no lower log-likelihood than scipy's.
    CHECK(fit::log_likelihood(ours, xs) >= fit::log_likelihood(theirs, xs) - 1e-9);
    ++rows;
  }
  CHECK(rows == 6);
}

TEST_CASE("fit: the EM mixture of lognormals rises above the single lognormal", "[fit]") {
  std::vector<double> xs = sorted_samples("lognormal.txt");
  const std::vector<double> more = sorted_samples("gamma.txt");
  for (double x : more) xs.push_back(20.0 * x);
  std::sort(xs.begin(), xs.end());
  const double single = fit::log_likelihood(fit::fit_mle(fit::Family::lognormal, xs), xs);
  const fit::FittedLaw two = fit::fit_mle(fit::Family::lognormal_mix2, xs);
  const fit::FittedLaw three = fit::fit_mle(fit::Family::lognormal_mix3, xs);
  CHECK(fit::log_likelihood(two, xs) > single + 10.0);
  CHECK(fit::log_likelihood(three, xs) >= fit::log_likelihood(two, xs) - 1e-6);
  CHECK(std::abs(two.weights[0] + two.weights[1] - 1.0) < 1e-12);
  CHECK(two.parameters() == 5);
  CHECK(three.parameters() == 8);
  // The printed law reads back as the same mixture.
  const distributions::Law law = distributions::parse_law(two.text());
  CHECK(relative(law.mean(), two.mean()) < 1e-12);
  CHECK(std::abs(law.cdf(10.0) - two.cdf(10.0)) < 1e-12);
}

std::vector<double> exponential_draws(std::uint64_t seed, int n) {
  boost::random::mt19937_64 engine(seed);
  boost::random::exponential_distribution<double> d(1.0);
  std::vector<double> xs(n);
  for (double& x : xs) x = d(engine);
  std::sort(xs.begin(), xs.end());
  return xs;
}

TEST_CASE("fit: the bootstrap p-values are uniform under the true law, small under a wrong one", "[fit]") {
  // 60 samples of 20 exp(1) draws, each p-value from 199 refitted bootstrap samples: under the true
  // law p is (nearly) uniform on {1/200, ..., 1}: mean 0.5025 (sd of the mean over 60: 0.037), and
  // P(p <= 0.1) = 0.1 (expected 6 of 60; 15 or more has probability < 0.001).
  double sum_ks = 0.0, sum_ad = 0.0;
  int low_ks = 0, low_ad = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const std::vector<double> xs = exponential_draws(seed, 20);
    const fit::FittedLaw law = fit::fit_mle(fit::Family::exp, xs);
    const fit::Goodness g = fit::bootstrap_goodness(law, xs, seed, 0, 199);
    sum_ks += g.ks_p, sum_ad += g.ad_p;
    low_ks += g.ks_p <= 0.1, low_ad += g.ad_p <= 0.1;
  }
  CHECK(std::abs(sum_ks / 60 - 0.5025) < 4 * 0.037);
  CHECK(std::abs(sum_ad / 60 - 0.5025) < 4 * 0.037);
  CHECK(low_ks < 15);
  CHECK(low_ad < 15);
  // The normal law fitted to 60 exp(1) draws: rejected.
  const std::vector<double> xs = exponential_draws(7, 60);
  const fit::Goodness wrong = fit::bootstrap_goodness(fit::fit_mle(fit::Family::normal, xs), xs, 1, 0, 199);
  CHECK(wrong.ks_p <= 0.02);
  CHECK(wrong.ad_p <= 0.01);
}

TEST_CASE("fit: the bootstrap gives the same bytes on 1 and 2 threads", "[fit]") {
  const std::vector<double> xs = sorted_samples("gamma.txt");
  for (const fit::Family family : {fit::Family::gamma, fit::Family::tn, fit::Family::lognormal_mix2}) {
    const fit::FittedLaw law = fit::fit_mle(family, xs);
    fit::Goodness one, two;
    tbb::task_arena(1).execute([&] { one = fit::bootstrap_goodness(law, xs, 5, 3, 200); });
    tbb::task_arena(2).execute([&] { two = fit::bootstrap_goodness(law, xs, 5, 3, 200); });
    CHECK(one.ks_p == two.ks_p);
    CHECK(one.ad_p == two.ad_p);
    // Another seed, another stream.
    const fit::Goodness other = fit::bootstrap_goodness(law, xs, 6, 3, 200);
    CHECK((other.ks_p != one.ks_p || other.ad_p != one.ad_p));
  }
}

TEST_CASE("fit: a group of fewer than 20 runs gets its empirical law, exactly", "[fit]") {
  std::vector<std::string> warnings;
  const auto warn = [&](const std::string& w) { warnings.push_back(w); };
  const auto rows = engine::fit_rows({{"g", {3, 1, 3, 2.5, 3}}, {"h", {4, 4}}}, {}, warn);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].text("law") == "mix(1/5:c(1),1/5:c(2.5),3/5:c(3))");
  CHECK(rows[0].text("n") == "5");
  CHECK(rows[0].text("loglik").empty());
  CHECK(rows[0].text("ks_p").empty());
  CHECK(rows[0].text("mean_obs") == "2.5");
  CHECK(rows[0].text("mean_fit") == "2.5");
  CHECK(rows[0].text("q05_obs") == rows[0].text("q05_fit"));
  CHECK(rows[0].text("q05_obs") == "1.3");  // type 7: 1 + 0.2 (2.5 - 1)
  CHECK(rows[0].text("best") == "true");
  CHECK(rows[1].text("law") == "c(4)");
  CHECK(warnings.empty());
  // The empirical law reads back.
  CHECK(distributions::parse_law(rows[0].text("law")).mean() == Approx(2.5).epsilon(1e-15));
}

TEST_CASE("fit: rows by AIC, the best marked, laws that cannot be fitted left out with a warning", "[fit]") {
  // Exponential-like runs with cv^2 >= 1: tn has no maximum.
  std::vector<double> xs = exponential_draws(3, 40);
  xs.push_back(30.0);
  std::vector<std::string> warnings;
  engine::FitOptions options;
  options.laws = fit::parse_families("tn,exp,gamma");
  options.bootstrap_samples = 19;
  const auto rows = engine::fit_rows({{"g", xs}}, options, [&](const std::string& w) { warnings.push_back(w); });
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("tn left out of group 'g'") != std::string::npos);
  REQUIRE(rows.size() == 2);
  CHECK(std::stod(rows[0].text("aic")) <= std::stod(rows[1].text("aic")));
  CHECK(rows[0].text("best") == "true");
  CHECK(rows[1].text("best") == "false");
  // A run <= 0 leaves gamma, lognormal, weibull out.
  CHECK(fit::unfittable(fit::Family::gamma, std::vector<double>{0.0, 1.0}));
  CHECK(!fit::unfittable(fit::Family::exp, std::vector<double>{0.0, 1.0}));
  CHECK(fit::unfittable(fit::Family::exp, std::vector<double>{0.0, 0.0}));
}

TEST_CASE("fit: refusals name the law, the file and line, the token", "[fit]") {
  CHECK_THROWS_WITH(fit::parse_families("exp,pareto"), Catch::Contains("pareto"));
  CHECK_THROWS_AS(fit::parse_families("exp,,gamma"), InputError);
  CHECK_THROWS_AS(fit::parse_families("exp,exp"), InputError);
  CHECK_THROWS_WITH(engine::groups_of_samples(data + "bad_samples.txt"), Catch::Contains("line 3: '12x'"));
  CHECK(engine::parse_elapsed("01:02") == 62.0);
  CHECK(engine::parse_elapsed("01:02:03") == 3723.0);
  CHECK(engine::parse_elapsed("2-01:02:03") == 2 * 86400.0 + 3723.0);
  CHECK(!engine::parse_elapsed("1:2:3:4"));
  CHECK(!engine::parse_elapsed("00:61"));
  CHECK(!engine::parse_elapsed("a:00"));
  CHECK_THROWS_WITH(engine::groups_of_sacct(data + "bad_sacct.txt", [](const std::string&) {}),
                    Catch::Contains("bad_sacct.txt:3: '1:2:3:4'"));
  CHECK(engine::name_group("individuals_ID0000001") == "individuals");
  CHECK(engine::name_group("mProject") == "mProject");
  CHECK(engine::name_group("_ID12") == "");
  CHECK(engine::name_group("task_12") == "task_12");
}

TEST_CASE("fit: sacct runs grouped by job name and partition, COMPLETED only", "[fit]") {
  std::vector<std::string> warnings;
  const auto groups = engine::groups_of_sacct(data + "sacct.txt", [&](const std::string& w) { warnings.push_back(w); });
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].name == "blast@compute");
  CHECK(groups[0].runs == std::vector<double>{65.0, 3723.0});
  CHECK(groups[1].name == "align@gpu");
  CHECK(groups[1].runs == std::vector<double>{90061.0});
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("columns ignored: MaxRSS") != std::string::npos);
}

TEST_CASE("fit: a trace's law field draws its task, a malformed one is refused naming file and task", "[fit]") {
  const std::string trace = std::string(HETSTRUCT_TEST_DATA) + "/wfinstances/pegasus_montage_montage-chameleon-2mass-01d-001.json";
  const auto groups = engine::groups_of_traces({trace}, engine::parse_grouping("category"));
  REQUIRE(!groups.empty());
  CHECK(groups[0].name == "mProject");
  engine::FitOptions options;
  options.laws = {fit::Family::gamma};
  options.bootstrap_samples = 9;
  const auto rows = engine::fit_rows(groups, options, [](const std::string&) {});
  const std::string text = engine::fitted_trace(trace, engine::parse_grouping("category"), rows);
  const structures::Structure s = structures::parse_wfformat(text, "fitted.json");
  const auto chosen = engine::chosen_laws(rows);
  const std::string first = chosen.at("mProject");
  CHECK(first.rfind("gamma(", 0) == 0);
  bool found = false;
  for (const auto& law : s.laws) found = found || law == distributions::parse_law(first);
  CHECK(found);
  std::string bad = text;
  bad.replace(bad.find("\"law\": \"gamma("), 14, "\"law\": \"gamma(x");
  CHECK_THROWS_WITH(structures::parse_wfformat(bad, "bad.json"), Catch::Contains("bad.json") && Catch::Contains("law"));
}

}  // namespace fit_test
