// Exact expectations of the control variates the estimators regress on (engine/estimators/estimators.h):
// computed from the laws, never sampled, so that a control-variate estimate stays unbiased.
#pragma once

#include <cstdint>
#include <vector>

#include "distributions/law.h"

namespace hetstruct::bounds {

// E[sum of processor i's first counts[i] task times] = counts[i] * E(X_i).
std::vector<double> processor_sum_means(const std::vector<distributions::Law>& processor_laws,
                                        const std::vector<std::uint64_t>& counts);

// E[sum over processor i's first counts[i] task times of (X_i - E X_i)^d] = counts[i] times the
// law's d-th central moment, for d = 2..max_power (max_power <= 3; below 2: none), degree by
// degree (every processor's square, then every processor's cube). InputError where a third
// central moment is not known (Law::third_central_moment).
std::vector<double> processor_power_means(const std::vector<distributions::Law>& processor_laws,
                                          const std::vector<std::uint64_t>& counts, int max_power);

// E[sum over `levels` levels of the level's largest task time] = levels * E[max_i X_i], by the
// quadrature of expected_max (the synchronous zero-communication mean).
double level_max_sum_mean(const std::vector<distributions::Law>& processor_laws, int levels);

// E[sum over `levels` levels of the largest of neighbours' task times of the level]: for each pair
// (i, i+1), then each triple (i, i+1, i+2), `levels` times expected_max of their laws.
std::vector<double> neighbor_max_sum_means(const std::vector<distributions::Law>& processor_laws, int levels);

// `tasks` split in proportion to the processors' speeds 1/E(X_i) (largest remainders, lowest
// index first on ties): how many tasks each processor of a dynamic pool runs, roughly. Any split
// gives an exact control; this one makes the sums correlate with the makespan. An equal split
// where a mean is not > 0.
std::vector<std::uint64_t> speed_shares(const std::vector<distributions::Law>& processor_laws, std::uint64_t tasks);

}  // namespace hetstruct::bounds
