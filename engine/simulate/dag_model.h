// The compiled generic plan as a DAG with random times (bounds/dag_estimates.h), and the analytic
// estimates of its makespan as records, alone or beside a Monte Carlo estimate.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bounds/dag_estimates.h"
#include "bounds/structure_bounds.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/record.h"
#include "engine/simulate/simulation.h"
#include "engine/driver/statistics.h"
#include "structures/structure.h"

namespace hetstruct::engine {

// The generic plan's DAG: each task's time is its sampler's law (Plan::laws), a zero-time task
// has none; the chains of tasks on one processor are predecessors already. InputError ("graph")
// for a plan of another kind.
bounds::StochasticDag stochastic_dag(const Plan& plan);

// A structure compiled as a DAG at zero communication (Wilson's regular structures too): InputError
// for the task pool (ms), which has no fixed DAG. A regular structure's graph is built for this
// (about 400 bytes a task): with `memory_check`, one larger than the available memory is refused
// (InputError on levels) before it is built.
bounds::StochasticDag stochastic_dag(const structures::Structure& structure, bool memory_check = true);

// The DAG a simulation runs: its plan where that is generic, else its structure compiled as a DAG;
// InputError ("comm_cost") for a structure with communication, which runs a protocol, not a DAG.
bounds::StochasticDag stochastic_dag(const Simulation& simulation);

// Whether a simulation's DAG estimates come with its histogram unasked: a graph's plan on the free
// port (the estimators' model) on processors of one core. Wilson's structures build a DAG for them
// only when the estimates are asked for.
bool dag_estimates_apply(const Simulation& simulation);

// What a simulation's histogram marks (simulation.h): its closed form (closed_form_METHOD, zero
// communication), Wilson's bounds at C where none rests on a simulated mean (METHOD_lower,
// METHOD_upper: sync at C > 0, ms; at C = 0 sync's equal its closed form, nn's need a simulation),
// then each of `dag_estimates` by its method (the caller's: bounds::dag_estimates(stochastic_dag(simulation))).
std::vector<HistogramMark> histogram_marks(const Simulation& simulation,
                                           const std::vector<bounds::DagEstimate>& dag_estimates);

// One record per estimate: structure, tasks, method, bound (lower, upper or empty), mean, sd, and
// where the structure has one the exact closed form and the estimate's difference from it in
// percent.
std::vector<Record> estimate_records(const std::string& structure, std::size_t tasks,
                                     const std::vector<bounds::DagEstimate>& estimates,
                                     const std::optional<bounds::ClosedForm>& closed_form);

// One record per estimate beside the simulated mean: structure, method, bound, mean, sd, mc_mean,
// mc_stderr, mc_sd (the simulated makespan's standard deviation), reps, seed, difference (estimate - mc_mean), z (the difference in standard errors of
// the Monte Carlo mean; empty with one replication) and difference_pct (of mc_mean).
std::vector<Record> comparison_records(const std::string& structure, const std::vector<bounds::DagEstimate>& estimates,
                                       const Estimate& mc, std::uint64_t seed);
// The estimator of the mean that comparison_records compares the estimates with, for `requested`:
// auto simulates (mc) where it would otherwise take an exact expectation, since the comparison is
// with a simulated mean and its standard error; any other is the user's choice.
Estimator comparison_estimator(Estimator requested);

}  // namespace hetstruct::engine
