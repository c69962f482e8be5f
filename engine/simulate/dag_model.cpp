#include "engine/simulate/dag_model.h"

#include <algorithm>
#include <cmath>

#include "distributions/input_error.h"
#include "engine/driver/resources.h"

namespace hetstruct::engine {

namespace {

const char* bound_label(const bounds::DagEstimate& e) { return e.lower_bound ? "lower" : e.upper_bound ? "upper" : ""; }

// A normal law or a constant: Kamburowski's bounds hold for such times.
bool is_normal(const distributions::Law& law) {
  if (!law.is_leaf()) return false;
  const auto kind = law.components()[0].leaf.kind;
  return kind == distributions::LeafKind::normal || kind == distributions::LeafKind::constant;
}

double percent(double value, double reference) { return 100.0 * (value - reference) / reference; }

}  // namespace

bounds::StochasticDag stochastic_dag(const Plan& plan) {
  if (plan.kind != PlanKind::dag)
    throw InputError("graph", std::string("analytic DAG estimates need a DAG plan, not a ") + to_string(plan.kind) + " plan");
  bounds::StochasticDag dag;
  const std::size_t n = plan.task_sampler.size();
  dag.mean.resize(n);
  dag.variance.resize(n);
  if (plan.port != Port::free)
    throw InputError("port", "analytic DAG estimates are of the free port model",
                     "a one-port makespan is never below the free one: estimate with the free port (port free)");
  if (plan.network)
    throw InputError("platform", "analytic DAG estimates do not apply beside a platform yet",
                     "the estimates see message times, not routes whose links are shared: simulate instead");
  if (plan.multicore())
    throw InputError("graph", "analytic DAG estimates take processors of one core",
                     "the estimates see precedences only, not a processor's cores: simulate instead");
  if (plan.ready_dispatch())
    throw InputError("dispatch", "analytic DAG estimates take processors that run their tasks in a stated order",
                     "the estimates see precedences only, not an order made as the tasks run: simulate, or give dispatch ordered");
  for (std::size_t t = 0; t < n; ++t) {
    const int k = plan.task_sampler[t];
    // A task on a processor of scale a takes a times a draw of its law.
    const double a = plan.task_scale.empty() ? 1.0 : plan.task_scale[t];
    dag.mean[t] = k < 0 ? 0.0 : a * plan.laws.at(k).mean();
    dag.variance[t] = k < 0 ? 0.0 : a * a * plan.laws.at(k).variance();
  }
  dag.normal = true;
  for (const int k : plan.task_sampler)
    if (k >= 0) dag.normal = dag.normal && is_normal(plan.laws.at(k));
  dag.pred_begin = plan.pred_begin;
  dag.preds = plan.preds;
  dag.sinks = plan.sinks;
  // Edge weights: the messages of a DAG with communication (plan.pred_comm, a law per entry of
  // plan.preds, -1 for none), 0 for an edge without a message; Kamburowski's bounds hold only when
  // every message law is normal or constant too. Without messages the arrays stay empty.
  if (std::any_of(plan.pred_comm.begin(), plan.pred_comm.end(), [](int k) { return k >= 0; })) {
    dag.edge_mean.assign(plan.preds.size(), 0.0);
    dag.edge_variance.assign(plan.preds.size(), 0.0);
    for (std::size_t e = 0; e < plan.pred_comm.size(); ++e) {
      const int k = plan.pred_comm[e];
      if (k < 0) continue;
      dag.edge_mean[e] = plan.laws.at(k).mean();
      dag.edge_variance[e] = plan.laws.at(k).variance();
      dag.normal = dag.normal && is_normal(plan.laws.at(k));
    }
  }
  dag.validate();
  return dag;
}

bounds::StochasticDag stochastic_dag(const structures::Structure& structure, bool memory_check) {
  if (memory_check && structure.kind != structures::StructureKind::custom) {
    // At most two vertices a task (a barrier or an exchange each), each with its edges in Boost's
    // graph and the plan.
    const double vertices = 2.0 * structure.width * static_cast<double>(structure.levels);
    check_memory(400.0 * vertices, "levels",
                 std::to_string(static_cast<long long>(vertices)) + " vertices of the DAG the estimates run on");
  }
  CompileOptions options;
  options.generic = true;
  return stochastic_dag(compile(structure, options));
}

bounds::StochasticDag stochastic_dag(const Simulation& simulation) {
  if (simulation.plan.slowed())
    throw InputError(!simulation.plan.slowdown.processor.empty() ? "slowdown" : "machine_slowdown",
                     std::string("no analytic DAG estimates: ") + slowdown_reason, "leave the estimates out");
  if (simulation.plan.kind == PlanKind::dag) return stochastic_dag(simulation.plan);
  if (!simulation.zero_comm())
    throw InputError("comm_cost", "analytic DAG estimates are of a structure at zero communication");
  return stochastic_dag(simulation.structure, simulation.model.memory_check);
}

std::vector<Record> estimate_records(const std::string& structure, std::size_t tasks,
                                     const std::vector<bounds::DagEstimate>& estimates,
                                     const std::optional<bounds::ClosedForm>& closed_form) {
  std::vector<Record> out;
  for (const auto& e : estimates) {
    Record r;
    r.add("structure", structure).add("tasks", static_cast<std::uint64_t>(tasks)).add("method", e.method);
    r.add("bound", bound_label(e)).add("mean", e.moments.mean).add("sd", std::sqrt(e.moments.variance));
    if (closed_form) {
      r.add("closed_form", closed_form->value).add("closed_form_method", closed_form->method);
      r.add("difference_pct", percent(e.moments.mean, closed_form->value));
    } else {
      r.add_none("closed_form").add_none("closed_form_method").add_none("difference_pct");
    }
    out.push_back(std::move(r));
  }
  return out;
}

Estimator comparison_estimator(Estimator requested) {
  return requested == Estimator::automatic ? Estimator::mc : requested;
}

std::vector<Record> comparison_records(const std::string& structure, const std::vector<bounds::DagEstimate>& estimates,
                                       const Estimate& mc, std::uint64_t seed) {
  std::vector<Record> out;
  for (const auto& e : estimates) {
    const double difference = e.moments.mean - mc.mean;
    Record r;
    r.add("structure", structure).add("method", e.method).add("bound", bound_label(e));
    r.add("mean", e.moments.mean).add("sd", std::sqrt(e.moments.variance));
    r.add("mc_mean", mc.mean).add("mc_stderr", mc.has_error() ? mc.stderr_ : std::nan(""));
    r.add("mc_sd", mc.has_error() ? mc.stddev : std::nan(""));
    r.add("reps", mc.reps).add("seed", seed).add("difference", difference);
    r.add("z", mc.has_error() && mc.stderr_ > 0.0 ? difference / mc.stderr_ : std::nan(""));
    r.add("difference_pct", mc.mean != 0.0 ? percent(e.moments.mean, mc.mean) : std::nan(""));
    out.push_back(std::move(r));
  }
  return out;
}

bool dag_estimates_apply(const Simulation& simulation) {
  return !simulation.plan.slowed() && simulation.plan.kind == PlanKind::dag && simulation.plan.port == Port::free && !simulation.plan.multicore() &&
         !simulation.plan.ready_dispatch();
}

std::vector<HistogramMark> histogram_marks(const Simulation& simulation,
                                           const std::vector<bounds::DagEstimate>& dag_estimates) {
  std::vector<HistogramMark> marks;
  if (simulation.plan.slowed()) return marks;  // every mark assumes independent task times
  if (const auto& closed = simulation.closed_form) marks.push_back({"closed_form_" + closed->method, closed->value});
  const auto& s = simulation.structure;
  const double comm = simulation.model.comm.value;
  bool wilson_bounds = false;
  switch (s.kind) {
    case structures::StructureKind::synchronous: wilson_bounds = comm > 0.0; break;
    case structures::StructureKind::master_slave: wilson_bounds = true; break;
    case structures::StructureKind::asynchronous:      // never communicates: its closed form only
    case structures::StructureKind::nearest_neighbor:  // Eq. 12 builds on a simulated mean
    case structures::StructureKind::custom: break;
  }
  if (wilson_bounds) {
    const auto b = bounds::comm_bounds(s, simulation.model.is_paper_uniform(), simulation.model.scale.value, comm, 0.0);
    if (b) {
      marks.push_back({b->method + "_lower", b->bounds.lower});
      marks.push_back({b->method + "_upper", b->bounds.upper});
    }
  }
  for (const auto& e : dag_estimates) marks.push_back({e.method, e.moments.mean});
  return marks;
}

}  // namespace hetstruct::engine
