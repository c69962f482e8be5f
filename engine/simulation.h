// One simulation as `simulate` runs it, for any front end: the model built and compiled once, its
// closed form where one exists (at zero communication), the replications, and optionally Zhang and
// Yan's measures; and the result as one record.
#pragma once

#include <limits>
#include <optional>
#include <vector>

#include "bounds/structure_bounds.h"
#include "engine/model.h"
#include "engine/monte_carlo.h"
#include "engine/plan.h"
#include "engine/record.h"
#include "structures/structure.h"

namespace hetstruct::engine {

struct Simulation {
  Model model;
  structures::Structure structure;
  Plan plan;
  std::optional<bounds::ClosedForm> closed_form;  // zero-communication regular structures only

  // After run():
  Estimate estimate;
  std::vector<double> power_weights;  // with metrics
  std::optional<MetricsRun> metrics;
  double heterogeneity = std::numeric_limits<double>::quiet_NaN();

  bool custom() const { return structure.kind == structures::StructureKind::custom; }
  bool zero_comm() const { return !plan.communicates(); }
  // The estimate's distance from the closed form in standard errors (NaN without either).
  double z() const;
};

// Validates, builds and compiles the model (InputError naming the parameter).
Simulation prepare(const Model& model);
// Runs the replications; with `metrics`, the power weights and the parallelism measures too (the
// makespan's bits are the same either way).
void run(Simulation& simulation, const RunOptions& options, bool metrics);
// The result: model columns, the estimate, the closed form, C, protocol and policy, and the
// measures when measured. `seed` is the run's.
Record simulation_record(const Simulation& simulation, std::uint64_t seed);

// Each processor's mean task time: its law's mean; for a DAG, the mean over its tasks' laws.
std::vector<double> mean_task_times(const structures::Structure& s);

}  // namespace hetstruct::engine
