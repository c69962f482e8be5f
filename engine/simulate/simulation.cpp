#include "engine/simulate/simulation.h"

#include <cmath>

#include "bounds/heterogeneity.h"
#include "distributions/input_error.h"

namespace hetstruct::engine {

double Simulation::z() const {
  return closed_form && estimate.has_error() && estimate.stderr_ > 0.0
             ? (estimate.mean - closed_form->value) / estimate.stderr_
             : std::nan("");
}

Simulation prepare(const Model& model) {
  Simulation sim;
  sim.model = model;
  sim.structure = model.build();
  sim.plan = compile(sim.structure, model.compile_options());
  if (sim.plan.slowed()) {
    // The closed forms, exact values, controls and twins assume independent task times.
    sim.estimators.no_twin = slowdown_reason;
    return sim;
  }
  if (!sim.custom() && sim.zero_comm())
    sim.closed_form = bounds::closed_form(sim.structure, model.is_paper_uniform(), model.scale.value);
  // Exact where the closed form is: everything but the asynchronous normal approximation.
  const bool exact = sim.closed_form && sim.closed_form->method != "normal_approx";
  sim.estimators = estimator_setup(sim.structure, sim.plan, exact ? std::optional(sim.closed_form->value) : std::nullopt,
                                   exact ? sim.closed_form->method : "");
  return sim;
}

std::optional<Estimator> check_run(Simulation& sim, const RunOptions& options, bool metrics, Estimator estimator,
                                   const StopRule& stop) {
  if (sim.plan.network) {  // a platform (engine/kernel/network.h): its controls and twins are not yet its own
    if (metrics) throw InputError("metrics", "the measures do not apply beside a platform yet", "run without metrics");
    if (estimator != Estimator::mc && estimator != Estimator::automatic)
      throw InputError("estimator", std::string(to_string(estimator)) + " does not apply beside a platform yet",
                       "beside a platform only plain Monte Carlo (mc) applies");
  }
  if (sim.plan.slowed()) {
    if (metrics)
      throw InputError("metrics", "the measures (power weights, speedup, efficiency) take the laws' means as the "
                                  "processors' speeds, which the slowdowns change",
                       "run without metrics");
    if (estimator != Estimator::mc && estimator != Estimator::automatic)
      throw InputError("estimator", std::string(to_string(estimator)) + ": " + slowdown_reason,
                       "with slowdowns only plain Monte Carlo (mc) applies");
  }
  if (metrics && sim.plan.multicore())
    throw InputError("metrics", "the measures (power weights, speedup, efficiency) take processors of one core",
                     "a processor of several cores has no one speed or busy time to weigh");
  if (metrics || sim.distribution_options.any() || sim.keep_makespans) {
    const std::string what = metrics                        ? "the measures (metrics)"
                             : sim.distribution_options.any() ? "the makespan's distribution"
                                                              : "the kept makespans";
    if (estimator != Estimator::mc && estimator != Estimator::automatic)
      throw InputError("estimator", what + " are estimated by plain Monte Carlo only");
    if (stop.active())
      throw InputError(metrics ? "metrics" : "target_se", what + " run a fixed number of replications (no target precision)");
    if (sim.distribution_options.any()) sim.distribution_options.validate();
    return Estimator::mc;
  }
  if (sim.plan.network) return Estimator::mc;
  fit_controls(sim.estimators, options.reps);
  const Estimator resolved = resolve_estimator(estimator, sim.estimators, options.reps);
  // auto on master-slave picks between its candidates by a pilot: not known before the run.
  if (estimator == Estimator::automatic && resolved == Estimator::antithetic_cv) return std::nullopt;
  return resolved;
}

void run(Simulation& sim, const RunOptions& options, bool metrics, Estimator estimator, const StopRule& stop) {
  const bool keep = sim.distribution_options.any() || sim.keep_makespans;
  (void)check_run(sim, options, metrics, estimator, stop);
  if (sim.plan.network) estimator = Estimator::mc;  // auto: plain Monte Carlo beside a platform (check_run)
  if (!metrics && !keep) {
    const auto result = estimate_mean(sim.plan, sim.estimators, estimator, options, stop);
    sim.estimate = result.estimate;
    sim.estimator = result.estimator;
    sim.variance_factor = result.variance_factor;
    sim.target_met = result.target_met;
    return;
  }
  // The measures and the distribution are read off plain replications, one by one: no control,
  // twin or exact value stands in for them, and they need the fixed count the memory guard checked.
  sim.estimator = Estimator::mc;
  sim.variance_factor = 1.0;
  std::vector<double> makespans;
  if (!metrics) {
    sim.estimate = run_sampled(sim.plan, options, makespans, sim.model.memory_check);
  } else {
    if (keep) check_stored_makespans(options.reps, 1.0, sim.model.memory_check);
    sim.power_weights = bounds::power_weights(mean_task_times(sim.structure));
    sim.metrics = run_with_metrics(sim.plan, options, sim.power_weights, keep ? &makespans : nullptr);
    sim.estimate = sim.metrics->makespan;
    sim.heterogeneity = bounds::heterogeneity(sim.power_weights);
  }
  if (sim.keep_makespans) sim.makespans = makespans;  // a copy: describe_distribution sorts its own
  if (sim.distribution_options.any()) sim.distribution = describe_distribution(makespans, sim.distribution_options);
}

Record simulation_record(const Simulation& sim, std::uint64_t seed) {
  const auto& s = sim.structure;
  const auto& e = sim.estimate;
  const bool custom = sim.custom();
  // The law as given where it is one of Wilson's names, else its canonical text.
  const std::string law = custom                                                       ? ""
                          : sim.model.law.text == "uniform" || sim.model.law.text == "normal" ? sim.model.law.text
                                                                                     : s.laws.back().to_string();
  Record r;
  // A text that does not apply (a graph's law, no fast law, no protocol or policy) is no value:
  // empty in CSV as before, null in JSON as every other command's missing values.
  const auto text = [&r](const char* name, const std::string& value) -> Record& {
    return value.empty() ? r.add_none(name) : r.add(name, value);
  };
  r.add("structure", s.name);
  text("law", law);
  text("fast_law", custom || s.fast_count == 0 ? "" : s.laws.front().to_string());
  r.add("n", s.width);
  // A graph has m and a only when they were given (its speeds may come from its file or a list).
  if (custom && s.fast_count == 0) r.add_none("m");
  else r.add("m", s.fast_count);
  r.add("a", custom && s.fast_count == 0 ? std::nan("") : sim.model.scale.value).add("levels", s.levels).add("reps", e.reps).add("seed", seed);
  r.add("mean", e.mean).add("stderr", e.stderr_).add("ci_low", e.ci_low).add("ci_high", e.ci_high);
  r.add("min", e.min).add("max", e.max);
  if (sim.closed_form) r.add("closed_form", sim.closed_form->value).add("closed_form_method", sim.closed_form->method);
  else r.add_none("closed_form").add_none("closed_form_method");
  const bool comm = !sim.zero_comm();
  r.add("z", sim.z()).add("comm", comm ? sim.plan.comm.comm_cost : 0.0);
  text("protocol", sim.plan.communication());
  text("policy", comm && sim.plan.structure == structures::StructureKind::master_slave ? to_string(sim.plan.comm.policy) : "");
  r.add("estimator", to_string(sim.estimator)).add("variance_factor", sim.variance_factor);
  // Only with slowdowns: every record without them keeps its columns.
  if (!sim.plan.slowdown.processor.empty()) r.add("slowdown", sim.plan.slowdown.processor_text());
  if (const auto& law = sim.plan.slowdown.machine) r.add("machine_slowdown", law->to_string());
  // A trace's makespan as it ran, beside the model's: how far the model is from the real run.
  if (s.recorded_makespan)
    r.add("recorded_makespan", *s.recorded_makespan).add("mean_to_recorded", e.mean / *s.recorded_makespan);
  if (sim.target_met) r.add_flag("target_met", *sim.target_met);  // a run with a target only
  if (const auto& m = sim.metrics) {
    r.add("power_weights", sim.power_weights).add("heterogeneity", sim.heterogeneity);
    r.add("p_deg", m->parallelism_degree.mean).add("p_deg_stderr", m->parallelism_degree.stderr_);
    r.add("speedup", m->speedup.mean).add("speedup_stderr", m->speedup.stderr_);
    r.add("speedup_property", bounds::property_speedup(m->parallelism_degree.mean, sim.heterogeneity));
    r.add("efficiency", bounds::efficiency(m->speedup.mean, sim.power_weights));
  }
  if (sim.distribution) add_distribution_fields(r, *sim.distribution);
  return r;
}

void add_distribution_fields(Record& r, const Distribution& d) {
  r.add("sd", d.sd.value).add("sd_stderr", d.sd.stderr_).add("sd_ci_low", d.sd.ci_low).add("sd_ci_high", d.sd.ci_high);
  for (const auto& q : d.quantiles) {
    const std::string name = quantile_name(q.level);
    r.add(name, q.value).add(name + "_ci_low", q.ci_low).add(name + "_ci_high", q.ci_high);
  }
  for (std::size_t i = 0; i < d.deadlines.size(); ++i) {
    const auto& e = d.deadlines[i];
    const std::string suffix = d.deadlines.size() == 1 ? "" : "_" + std::to_string(i + 1);
    r.add("deadline" + suffix, e.deadline).add("p_deadline" + suffix, e.p).add("p_deadline_stderr" + suffix, e.stderr_);
    r.add("p_deadline_ci_low" + suffix, e.ci_low).add("p_deadline_ci_high" + suffix, e.ci_high);
  }
}

std::vector<Record> histogram_records(const Distribution& d, const std::vector<HistogramMark>& marks) {
  std::vector<Record> rows;
  for (const auto& b : d.histogram) {
    Record r;
    r.add("bin_low", b.low).add("bin_high", b.high).add("count", b.count).add("density", b.density);
    r.add("cdf", b.cdf).add("normal_density", b.normal_density).add("normal_cdf", b.normal_cdf);
    for (const auto& m : marks) r.add(m.name, m.value);
    rows.push_back(std::move(r));
  }
  return rows;
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
    // A task on processor j takes processor_scale[j] times a draw of its law.
    const double scale = s.processor_scale.empty() ? 1.0 : s.processor_scale[static_cast<std::size_t>(t.processor)];
    sum[t.processor] += scale * s.laws[t.law].mean();
    count[t.processor] += 1.0;
  }
  for (int j = 0; j < s.width; ++j) sum[j] = count[j] > 0 ? sum[j] / count[j] : std::nan("");
  return sum;
}

}  // namespace hetstruct::engine
