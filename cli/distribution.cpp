#include "cli/distribution.h"

#include <algorithm>

#include "cli/output.h"
#include "distributions/input_error.h"
#include "cli/parameters.h"
#include "engine/sweep/distribution_lists.h"

namespace hetstruct::cli {

namespace {

constexpr const char* group = "Distribution";

// Lists and ranges of numbers; errors name `parameter` (quantiles, deadline: cli/parameters.cpp).
std::vector<double> numbers(const char* parameter, const std::vector<std::string>& texts) {
  return engine::number_lists(parameter, texts);
}

void add_levels_and_deadlines(CLI::App& app, std::vector<std::string>& quantiles, std::vector<std::string>& deadlines) {
  app.add_option("--quantiles", quantiles,
                 "Quantile levels in (0,1), a list or range: 0.1,0.9 or 0.05:0.95:0.05 [0.05,0.25,0.5,0.75,0.95]; "
                 "each with its distribution-free 95% CI (order statistics)")
      ->group(group)->allow_extra_args(true);
  app.add_option("--deadline", deadlines, "Deadline T, or a list: P(makespan > T) with its exact (Clopper-Pearson) 95% CI")
      ->group(group)->allow_extra_args(true);
}

}  // namespace

void DistributionFlags::add_to(CLI::App& app, bool histogram) {
  app.add_flag("--distribution", distribution,
               "The makespan's sd (with its standard error) and quantiles 0.05,0.25,0.5,0.75,0.95; implied by "
               "--quantiles, --deadline and --histogram")
      ->group(group);
  add_levels_and_deadlines(app, quantiles, deadlines);
  if (!histogram) return;
  app.add_option("--histogram", histogram_bins, "Histogram of the makespan: BINS equal bins over [min, max], to --histogram-out")
      ->type_name("BINS")->group(group);
  app.add_option("--histogram-out", histogram_out,
                 "The histogram's CSV (bin_low,bin_high,count,density,cdf,normal_density,normal_cdf, then a column "
                 "per analytic estimate that applies), written atomically; `hetstruct plot FILE` draws it")
      ->group(group);
}

engine::DistributionOptions DistributionFlags::resolved() const {
  engine::DistributionOptions o;
  if (!asked()) return o;
  o.sd = true;
  o.quantile_levels = quantiles.empty() ? engine::default_quantile_levels : numbers("quantiles", quantiles);
  o.deadlines = numbers("deadline", deadlines);
  if (!histogram_bins.empty()) {
    o.histogram_bins = parse_count("--histogram", histogram_bins, engine::max_histogram_bins);
    if (o.histogram_bins == 0) throw InputError("--histogram", "needs at least 1 bin");
    if (histogram_out.empty()) throw InputError("--histogram", "needs --histogram-out FILE (the histogram's CSV)");
  } else if (!histogram_out.empty()) {
    throw InputError("--histogram-out", "needs --histogram BINS");
  }
  o.validate();  // its errors name quantiles, deadline, histogram: flags by cli/parameters.cpp
  return o;
}

void add_sweep_distribution_options(CLI::App& app, std::vector<std::string>& estimators,
                                    std::vector<std::string>& quantiles, std::vector<std::string>& deadlines) {
  app.add_option("--estimators", estimators,
                 "Rows beyond the mean, a list: quantile (the --quantiles levels), sd (with its standard error), "
                 "p_deadline (needs --deadline)")
      ->group(group)->allow_extra_args(true);
  add_levels_and_deadlines(app, quantiles, deadlines);
}

engine::DistributionOptions sweep_distribution(const std::vector<std::string>& estimators,
                                               const std::vector<std::string>& quantiles,
                                               const std::vector<std::string>& deadlines) {
  return engine::sweep_distribution(estimators, quantiles, deadlines, flag_of("deadline") + " T");
}

}  // namespace hetstruct::cli
