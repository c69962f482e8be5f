// The distribution's options (engine/estimators/distribution.h), shared by `simulate` and `sweep`:
// --quantiles LEVELS and --deadline T; for simulate --distribution and --histogram BINS with
// --histogram-out FILE; for sweep --estimators quantile,sd,p_deadline.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/estimators/distribution.h"

namespace hetstruct::cli {

// simulate's options.
struct DistributionFlags {
  bool distribution = false;           // sd and the default quantiles
  std::vector<std::string> quantiles;  // lists or ranges of levels (fractions allowed)
  std::vector<std::string> deadlines;  // lists of deadlines T
  std::string histogram_bins;
  std::string histogram_out;

  // `histogram`: --histogram and --histogram-out too (compare has no histogram).
  void add_to(CLI::App& app, bool histogram = true);
  bool asked() const {
    return distribution || !quantiles.empty() || !deadlines.empty() || !histogram_bins.empty() || !histogram_out.empty();
  }
  // Anything asked gives sd and the quantiles (the default levels unless --quantiles), with the
  // deadlines and the histogram when given. InputError naming the flag on a bad value.
  engine::DistributionOptions resolved() const;
};

// sweep's: --estimators, --quantiles, --deadline on these lists.
void add_sweep_distribution_options(CLI::App& app, std::vector<std::string>& estimators,
                                    std::vector<std::string>& quantiles, std::vector<std::string>& deadlines);
// Each estimator asked (quantile, sd, p_deadline); --quantiles and --deadline imply theirs.
engine::DistributionOptions sweep_distribution(const std::vector<std::string>& estimators,
                                               const std::vector<std::string>& quantiles,
                                               const std::vector<std::string>& deadlines);

}  // namespace hetstruct::cli
