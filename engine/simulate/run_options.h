// The run around a model, parsed once for every front end as parse_model is for the model: the
// replications (at most engine::max_replications), the seed, the threads and the target
// precision. Errors name the parameter in the table's terms (reps, seed, threads, target_se,
// target_rel, target_reps, se_floor: engine/simulate/parameters.h), which each front end spells as
// its flag or keyword.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/driver/monte_carlo.h"
#include "engine/estimators/estimators.h"

namespace hetstruct::engine {

// A whole number >= 0 written whole ("12"; not "", "1.5", "+3" or "12x"), at most `max`:
// InputError on `parameter` otherwise.
std::uint64_t parse_count(const std::string& parameter, const std::string& text, std::uint64_t max);

// The replications (1 .. max_replications), the seed (any 64-bit value) and the threads (0: all
// cores; at most the cores this process may use).
RunOptions parse_run(const std::string& reps, const std::string& seed, int threads);

// The target precision: each target a finite number >= 0; target_reps (when given) a count of at
// most max_replications, at least 1 unless `zero_overrides` (a sweep's file may set it to 0 to
// turn off the command line's).
StopRule parse_stop(double target_se, double target_rel, double se_floor, const std::optional<std::string>& target_reps,
                    bool zero_overrides = false);

}  // namespace hetstruct::engine
