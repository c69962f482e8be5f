// Master-slave dealing policies side by side (Morin's three ways to use heterogeneous processors,
// and the others of master_slave_policies()): dealing to whichever slave is idle
// (overpartitioning), an equal static split (the ostrich approach), a speed-proportional static
// split (HCGM), ... on one master-slave structure and one seed, so that the differences are paired.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/estimators/estimators.h"
#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/simulate/record.h"

namespace hetstruct::engine {

// One record per policy, dynamic dealing first: the model's columns, C, the protocol, the policy
// and its approach; its expected makespan by `estimator` (auto: the best the model offers, as
// `simulate` picks it) stopping on `stop`, with the estimator, its replications and its variance
// factor; its paired difference against dynamic dealing (minus_dynamic, plain Monte Carlo on the
// same streams, options.reps replications: the target precision is the mean's); and the
// structure's bounds (lower, upper) where they exist. `model` is taken as master-slave, whatever
// its structure and policy. `progress`, when set, is asked for each policy's progress callback
// as that policy starts.
std::vector<Record> compare_policies(
    const Model& model, const RunOptions& options, Estimator estimator = Estimator::mc, const StopRule& stop = {},
    const std::function<std::function<void(std::uint64_t, std::uint64_t)>(const std::string&)>& progress = {});

}  // namespace hetstruct::engine
