// What `bounds` prints, for any front end: per structure the closed forms of the expected makespan
// and Wilson's bounds (bounds/structure_bounds.h), or the analytic DAG estimates of a graph or of
// the structures compiled as DAGs at zero communication (bounds/dag_estimates.h), as records.
#pragma once

#include <functional>
#include <vector>

#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/simulate/record.h"

namespace hetstruct::engine {

// The records of `model`: with a graph or `estimates`, the DAG estimates (of the graph, or of each
// structure beside its closed form: the model's, else async and sync); otherwise the closed forms
// and bounds of the model's structure, else of async, sync and ms. E(nn) has no closed form (Wilson
// 4.1): it is simulated at C = 0 with the run options `nn_run` gives, called only then (so that a
// front end checks its sampling options only where they act). InputError naming the parameter.
std::vector<Record> bounds_records(const Model& model, bool estimates, const std::function<RunOptions()>& nn_run);

}  // namespace hetstruct::engine
