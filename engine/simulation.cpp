#include "engine/simulation.h"

#include <cmath>

#include "bounds/heterogeneity.h"

namespace hetstruct::engine {

double Simulation::z() const {
  return closed_form && estimate.has_error() ? (estimate.mean - closed_form->value) / estimate.stderr_ : std::nan("");
}

Simulation prepare(const Model& model) {
  Simulation sim{model, model.build(), {}, std::nullopt};
  sim.plan = compile(sim.structure, model.compile_options());
  if (!sim.custom() && sim.zero_comm())
    sim.closed_form = bounds::closed_form(sim.structure, model.is_paper_uniform(), model.scale_value());
  return sim;
}

void run(Simulation& sim, const RunOptions& options, bool metrics) {
  if (!metrics) {
    sim.estimate = run(sim.plan, options);
    return;
  }
  sim.power_weights = bounds::power_weights(mean_task_times(sim.structure));
  sim.metrics = run_with_metrics(sim.plan, options, sim.power_weights);
  sim.estimate = sim.metrics->makespan;
  sim.heterogeneity = bounds::heterogeneity(sim.power_weights);
}

Record simulation_record(const Simulation& sim, std::uint64_t seed) {
  const auto& s = sim.structure;
  const auto& e = sim.estimate;
  const bool custom = sim.custom();
  // The law as given where it is one of Wilson's names, else its canonical text.
  const std::string law = custom                                                       ? ""
                          : sim.model.law == "uniform" || sim.model.law == "normal" ? sim.model.law
                                                                                     : s.laws.back().to_string();
  Record r;
  r.add("structure", s.name).add("law", law).add("fast_law", custom || s.fast_count == 0 ? "" : s.laws.front().to_string());
  r.add("n", s.width);
  // A graph has m and a only when they were given (its speeds may come from its file or a list).
  if (custom && s.fast_count == 0) r.add_none("m");
  else r.add("m", s.fast_count);
  r.add("a", custom && s.fast_count == 0 ? std::nan("") : sim.model.scale_value()).add("levels", s.levels).add("reps", e.reps).add("seed", seed);
  r.add("mean", e.mean).add("stderr", e.stderr_).add("ci_low", e.ci_low).add("ci_high", e.ci_high);
  r.add("min", e.min).add("max", e.max);
  if (sim.closed_form) r.add("closed_form", sim.closed_form->value).add("closed_form_method", sim.closed_form->method);
  else r.add_none("closed_form").add_none("closed_form_method");
  const bool comm = !sim.zero_comm();
  r.add("z", sim.z()).add("comm", comm ? sim.plan.comm.comm_cost : 0.0).add("protocol", sim.plan.communication());
  r.add("policy", comm && sim.plan.structure == "ms" ? sim.plan.comm.policy : "");
  if (const auto& m = sim.metrics) {
    r.add("power_weights", sim.power_weights).add("heterogeneity", sim.heterogeneity);
    r.add("p_deg", m->parallelism_degree.mean).add("p_deg_stderr", m->parallelism_degree.stderr_);
    r.add("speedup", m->speedup.mean).add("speedup_stderr", m->speedup.stderr_);
    r.add("speedup_property", bounds::property_speedup(m->parallelism_degree.mean, sim.heterogeneity));
    r.add("efficiency", bounds::efficiency(m->speedup.mean, sim.power_weights));
  }
  return r;
}

std::vector<double> mean_task_times(const structures::Structure& s) {
  if (s.kind != structures::StructureKind::custom) {
    std::vector<double> m;
    for (const auto& law : s.laws) m.push_back(law.mean());
    return m;
  }
  std::vector<double> sum(s.width, 0.0), count(s.width, 0.0);
  for (const auto v : boost::make_iterator_range(boost::vertices(s.graph()))) {
    const auto& t = s.graph()[v];
    if (t.kind != structures::TaskKind::compute || t.law < 0) continue;
    sum[t.processor] += s.laws[t.law].mean();
    count[t.processor] += 1.0;
  }
  for (int j = 0; j < s.width; ++j) sum[j] = count[j] > 0 ? sum[j] / count[j] : std::nan("");
  return sum;
}

}  // namespace hetstruct::engine
