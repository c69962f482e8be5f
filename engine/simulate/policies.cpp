#include "engine/simulate/policies.h"

#include <cmath>

#include "bounds/structure_bounds.h"
#include "engine/kernel/communication.h"
#include "engine/estimators/paired.h"
#include "engine/simulate/simulation.h"

namespace hetstruct::engine {

std::vector<Record> compare_policies(
    const Model& model, const RunOptions& options, Estimator estimator, const StopRule& stop,
    const std::function<std::function<void(std::uint64_t, std::uint64_t)>(const std::string&)>& progress) {
  Model ms = model;
  ms.structure = structures::StructureKind::master_slave;
  const auto policies = master_slave_policies();  // dynamic first: the others pair against it
  std::vector<Simulation> sims;
  for (const auto& p : policies) {  // every policy built before anything runs: bad input fails first
    ms.policy = p.policy;
    sims.push_back(prepare(ms));
  }
  const auto& s = sims.front().structure;
  const auto sb = bounds::comm_bounds(s, false, model.scale.value, model.comm.value, 0.0);
  const double lower = sb ? sb->bounds.lower : std::nan(""), upper = sb ? sb->bounds.upper : std::nan("");
  std::vector<Record> records;
  for (std::size_t i = 0; i < sims.size(); ++i) {
    Simulation& sim = sims[i];
    RunOptions run = options;
    if (progress) run.progress = progress(policies[i].name);
    engine::run(sim, run, false, estimator, stop);
    // Paired with dynamic dealing on the same streams (common random numbers).
    const Estimate d = i == 0 ? Estimate{} : run_difference(sim.plan, sims.front().plan, run);
    const Estimate& e = sim.estimate;
    Record r;
    r.add("structure", "ms").add("law", model.law.text).add("fast_law", s.fast_count ? s.laws.front().to_string() : "");
    r.add("n", s.width).add("m", s.fast_count).add("a", model.scale.value).add("levels", s.levels);
    r.add("comm", sim.plan.comm.comm_cost).add("protocol", sim.plan.protocol->name).add("policy", policies[i].name);
    r.add("approach", policies[i].approach).add("reps", e.reps).add("seed", options.seed).add("mean", e.mean);
    r.add("stderr", e.stderr_).add("ci_low", e.ci_low).add("ci_high", e.ci_high);
    r.add("estimator", to_string(sim.estimator)).add("variance_factor", sim.variance_factor);
    if (sim.target_met) r.add_flag("target_met", *sim.target_met);
    r.add("minus_dynamic", i == 0 ? 0.0 : d.mean).add("minus_dynamic_stderr", i == 0 ? 0.0 : d.stderr_);
    r.add("lower", lower).add("upper", upper);
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace hetstruct::engine
