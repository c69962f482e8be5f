// The distribution's lists, parsed once for every front end: quantile levels and deadlines (lists
// and ranges of numbers), and a sweep's estimators (quantile, sd, p_deadline). Errors name the
// parameter in the table's terms (quantiles, deadline, estimators: engine/simulate/parameters.h).
#pragma once

#include <string>
#include <vector>

#include "engine/estimators/distribution.h"

namespace hetstruct::engine {

// At most this many numbers in one list of levels or deadlines.
inline constexpr std::uint64_t max_distribution_levels = 1000;

// Lists and ranges of numbers ("0.1,0.9", "0.05:0.95:0.05"), in order; errors name `parameter`.
std::vector<double> number_lists(const char* parameter, const std::vector<std::string>& texts);

// A sweep's rows beyond the mean: each estimator named (quantile, sd, p_deadline), the quantiles'
// and the deadlines' lists implying theirs. `deadline_hint` is how the caller asks for a deadline
// ("--deadline T", "deadline=T"): p_deadline without one names it.
DistributionOptions sweep_distribution(const std::vector<std::string>& estimators, const std::vector<std::string>& quantiles,
                                       const std::vector<std::string>& deadlines, const std::string& deadline_hint);

}  // namespace hetstruct::engine
