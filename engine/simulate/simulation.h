// One simulation as `simulate` runs it, for any front end: the model built and compiled once, its
// closed form where one exists (at zero communication), the replications, and optionally Zhang and
// Yan's measures; and the result as one record.
#pragma once

#include <limits>
#include <optional>
#include <vector>

#include "bounds/structure_bounds.h"
#include "engine/estimators/distribution.h"
#include "engine/estimators/estimators.h"
#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/record.h"
#include "structures/structure.h"

namespace hetstruct::engine {

struct Simulation {
  Model model;
  structures::Structure structure;
  Plan plan;
  std::optional<bounds::ClosedForm> closed_form;  // zero-communication regular structures only
  DistributionOptions distribution_options;        // set before run(): what to estimate beyond the mean
  bool keep_makespans = false;                     // set before run(): keep the makespans (plain Monte Carlo)
  EstimatorSetup estimators;                      // controls, twin and exact value the model offers

  // After run():
  Estimate estimate;
  Estimator estimator = Estimator::mc;  // the one that ran
  double variance_factor = 1.0;         // against plain sampling, measured on the run
  std::optional<bool> target_met;       // with a stop rule: whether the run met it before the cap
  std::vector<double> power_weights;  // with metrics
  std::optional<MetricsRun> metrics;
  double heterogeneity = std::numeric_limits<double>::quiet_NaN();
  std::optional<Distribution> distribution;  // when distribution_options asked for any
  std::vector<double> makespans;             // with keep_makespans: every replication's, in order

  bool custom() const { return structure.kind == structures::StructureKind::custom; }
  bool zero_comm() const { return !plan.communicates(); }
  // The estimate's distance from the closed form in standard errors (NaN without either).
  double z() const;
};

// Why a model with slowdowns has no closed form, bound, analytic estimate, exact value, control
// variate or antithetic twin: all of them assume independent task times.
inline constexpr const char* slowdown_reason =
    "the closed forms, bounds, analytic estimates, exact values, control variates and antithetic twins assume "
    "independent task times, which slowdowns correlate";

// Validates, builds and compiles the model (InputError naming the parameter). With slowdowns
// (Model::slowdown, machine_slowdown) there is no closed form and no estimator but mc.
Simulation prepare(const Model& model);
// Runs the replications with `estimator` (engine/estimators/estimators.h; auto picks the best the model
// offers), stopping early on `stop`; with `metrics`, the power weights and the parallelism measures
// too, and with distribution_options the makespan's distribution: those two are plain Monte Carlo
// only (the makespan's bits are the same either way; the makespans are kept, checked against the
// memory guard unless the model's memory_check is off).
void run(Simulation& simulation, const RunOptions& options, bool metrics, Estimator estimator = Estimator::mc,
         const StopRule& stop = {});
// What run() checks before it samples, without sampling (InputError on the same bad combinations),
// so that a front end can validate before it announces a long run: the estimator that will run, or
// none where auto decides by a pilot (master-slave).
std::optional<Estimator> check_run(Simulation& simulation, const RunOptions& options, bool metrics, Estimator estimator,
                                   const StopRule& stop = {});
// The result: model columns, the estimate, the closed form, C, protocol and policy, the
// estimator and its variance factor, the slowdowns' laws when there are (slowdown,
// machine_slowdown), and the measures when measured, then the distribution's
// fields when estimated (distribution_fields). `seed` is the run's.
Record simulation_record(const Simulation& simulation, std::uint64_t seed);

// sd, sd_stderr, sd_ci_low, sd_ci_high; per quantile level q05, q05_ci_low, q05_ci_high; per
// deadline deadline, p_deadline, p_deadline_stderr, p_deadline_ci_low, p_deadline_ci_high (with
// several deadlines, their fields are suffixed _1, _2, ...). The histogram is a table of its own
// (histogram_records).
void add_distribution_fields(Record& r, const Distribution& d);

// An analytic value of the expected makespan (a closed form, a bound, a DAG estimate) that the
// histogram marks: `name` is its column, e.g. cpm, kamburowski_lower, closed_form_eq6.
struct HistogramMark {
  std::string name;
  double value = 0.0;
};
// One record per bin: bin_low, bin_high, count, density, cdf, normal_density, normal_cdf, then
// one column per mark holding its value on every row (a spreadsheet or gnuplot reads the file
// alone; `hetstruct plot` draws each as a vertical line).
std::vector<Record> histogram_records(const Distribution& d, const std::vector<HistogramMark>& marks = {});

// Each processor's mean task time: its law's mean; for a DAG, the mean over its tasks' laws.
std::vector<double> mean_task_times(const structures::Structure& s);

}  // namespace hetstruct::engine
