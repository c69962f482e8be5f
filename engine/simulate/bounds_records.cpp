#include "engine/simulate/bounds_records.h"

#include <cmath>
#include <optional>

#include "bounds/closed_forms.h"
#include "bounds/dag_estimates.h"
#include "bounds/structure_bounds.h"
#include "distributions/input_error.h"
#include "engine/simulate/dag_model.h"
#include "engine/kernel/plan.h"

namespace hetstruct::engine {

namespace {

// The analytic DAG estimates: of the graph, or of each structure beside its closed form.
std::vector<Record> estimate_rows(const Model& model) {
  std::vector<Record> records;
  auto add = [&](const structures::Structure& s, const std::optional<bounds::ClosedForm>& closed) {
    const auto dag = stochastic_dag(s, model.memory_check);
    const auto rows = estimate_records(s.name, dag.tasks(), bounds::dag_estimates(dag), closed);
    records.insert(records.end(), rows.begin(), rows.end());
  };
  if (!model.graph.empty()) {
    // A graph as the simulation compiles it: its speeds, and its messages as edge weights.
    const structures::Structure s = model.build();
    const auto dag = stochastic_dag(compile(s, model.compile_options()));
    const auto rows = estimate_records(s.name, dag.tasks(), bounds::dag_estimates(dag), std::nullopt);
    records.insert(records.end(), rows.begin(), rows.end());
  } else {
    if (model.comm.value > 0.0)
      throw InputError("comm_cost", "analytic DAG estimates are of a structure at zero communication");
    std::vector<structures::StructureKind> kinds = {structures::StructureKind::asynchronous,
                                                    structures::StructureKind::synchronous};
    if (model.structure) kinds = {*model.structure};
    for (const auto kind : kinds) {
      const structures::Structure s = model.build(kind);
      add(s, bounds::closed_form(s, model.is_paper_uniform(), model.scale.value));
    }
  }
  return records;
}

}  // namespace

std::vector<Record> bounds_records(const Model& model, bool estimates, const std::function<RunOptions()>& nn_run) {
  if (!model.graph.empty() || estimates) return estimate_rows(model);
  std::vector<structures::StructureKind> kinds;
  if (!model.structure)
    kinds = {structures::StructureKind::asynchronous, structures::StructureKind::synchronous,
             structures::StructureKind::master_slave};
  else
    kinds = {*model.structure};
  const double comm = model.comm.value;

  std::vector<Record> records;
  for (const auto kind : kinds) {
    const structures::Structure s = model.build(kind);
    const double a = model.scale.value;
    // E(nn) has no closed form (Wilson 4.1): simulated at C = 0 with the Tables 1-2 rule.
    double nn_zero = std::nan("");
    if (kind == structures::StructureKind::nearest_neighbor) nn_zero = run(compile(s), nn_run()).mean;
    for (const auto& q : bounds::structure_quantities(s, model.is_paper_uniform(), a, comm, nn_zero)) {
      Record r;
      r.add("structure", s.name).add("law", model.law.text).add("fast_law", s.fast_count ? s.laws.front().to_string() : "");
      r.add("n", s.width).add("m", s.fast_count).add("a", a).add("levels", s.levels).add("comm", comm);
      r.add("quantity", q.quantity).add("method", q.method).add("value", q.value);
      r.add("lower", q.bounds ? q.bounds->bounds.lower : std::nan(""));
      r.add("upper", q.bounds ? q.bounds->bounds.upper : std::nan(""));
      records.push_back(std::move(r));
    }
  }
  return records;
}

}  // namespace hetstruct::engine
