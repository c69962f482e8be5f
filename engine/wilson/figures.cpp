#include "engine/wilson/figures.h"

#include "bounds/structure_bounds.h"
#include "distributions/format.h"
#include "distributions/input_error.h"
#include "engine/simulate/model.h"
#include "engine/simulate/simulation.h"

namespace hetstruct::engine {

FigureSpec wilson_figure(int number) {
  using structures::StructureKind;
  static const StructureKind structures[] = {StructureKind::synchronous, StructureKind::nearest_neighbor,
                                             StructureKind::master_slave};
  if (number < 5 || number > 10)
    throw InputError("figure", "'" + std::to_string(number) + "' is not one of the paper's Figures 5-10");
  const bool big = number >= 8;
  return {number, structures[(number - 5) % 3], big ? 16 : 8, big ? 8 : 3};
}

std::vector<double> figure_comm_values() {
  std::vector<double> c;
  for (int k = 1; k <= 10; ++k) c.push_back(k / 40.0);  // the nearest double to each k/40: no drift
  return c;
}

std::vector<Record> figure_points(const FigureSpec& spec, const FigureRun& run,
                                  const std::function<void(std::size_t, std::size_t)>& progress) {
  Model model = Model::wilson(spec.structure, spec.n, spec.m, run.scale, run.law, run.levels);
  const structures::Structure s = model.build();
  const double a = model.scale.value;

  const bool plain = run.estimator == Estimator::mc && !run.stop.active();
  std::optional<Estimate> surrogate_mean;
  // One point: plain Monte Carlo as it always was (the same bits), else the estimator layer;
  // `protocol` gets the name of the protocol that ran. Each compiles its plan once.
  const auto estimate = [&](const Model& at, std::string* protocol = nullptr) {
    EstimatorResult out;
    if (plain) {
      const Plan plan = compile(s, at.compile_options());
      if (protocol) *protocol = plan.protocol->name;
      out.estimate = engine::run(plan, run.sampling);
      return out;
    }
    Simulation sim = prepare(at);
    if (protocol) *protocol = sim.plan.protocol->name;
    share_surrogate_mean(sim.estimators, run.estimator, surrogate_mean, run.sampling, run.stop);  // one for the points
    engine::run(sim, run.sampling, false, run.estimator, run.stop);
    out.estimate = sim.estimate;
    out.estimator = sim.estimator;
    out.variance_factor = sim.variance_factor;
    out.target_met = sim.target_met;
    return out;
  };
  // E(nn) at C = 0 under the Tables 1-2 rule: the paper's bounds build on its own E(nn).
  const double nn_zero = spec.structure == structures::StructureKind::nearest_neighbor ? estimate(model).estimate.mean : 0.0;

  std::vector<Record> points;
  const auto comms = figure_comm_values();
  for (std::size_t i = 0; i < comms.size(); ++i) {
    model.comm = distributions::spelled_exactly(comms[i]);
    std::string protocol;
    const EstimatorResult result = estimate(model, &protocol);
    const Estimate& e = result.estimate;
    const auto b = bounds::comm_bounds(s, model.is_paper_uniform(), a, comms[i], nn_zero)->bounds;
    Record p;
    p.add("figure", spec.number).add("structure", structures::to_string(spec.structure)).add("law", run.law).add("a", a);
    p.add("n", spec.n).add("m", spec.m).add("levels", run.levels).add("comm", comms[i]).add("protocol", protocol);
    p.add("mean", e.mean).add("stderr", e.stderr_).add("ci_low", e.ci_low).add("ci_high", e.ci_high);
    p.add("lower", b.lower).add("upper", b.upper).add("reps", e.reps).add("seed", run.sampling.seed);
    p.add("estimator", to_string(result.estimator)).add("variance_factor", result.variance_factor);
    if (result.target_met) p.add_flag("target_met", *result.target_met);  // a run with a target only
    points.push_back(std::move(p));
    if (progress) progress(i + 1, comms.size());
  }
  return points;
}

}  // namespace hetstruct::engine
