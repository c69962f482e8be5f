#include "engine/simulate/schedule_comparison.h"

#include "distributions/input_error.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/driver/blocks.h"
#include "engine/estimators/paired.h"
#include "engine/simulate/simulation.h"

namespace hetstruct::engine {

std::string ScheduleChoice::name() const {
  switch (placement) {
    case Placement::schedule: return structures::to_string(algorithm);
    case Placement::none: return "none";
    case Placement::one_per_task: return "one-per-task";
  }
  return "";
}

ScheduleChoice parse_schedule_choice(const std::string& name) {
  if (name == "none") return ScheduleChoice(ScheduleChoice::Placement::none);
  if (name == "one-per-task") return ScheduleChoice(ScheduleChoice::Placement::one_per_task);
  try {
    return structures::parse_schedule_algorithm(name);
  } catch (const InputError& e) {
    throw InputError("schedule", e.problem(),
                     "choose " + structures::schedule_names() + ", none (the file's own placement) or one-per-task");
  }
}

void apply_schedule_choice(const ScheduleChoice& choice, structures::TaskGraphOptions& options,
                           std::vector<double>& processor_scales) {
  if (choice.placement == ScheduleChoice::Placement::schedule) {
    options.schedule->algorithm = choice.algorithm;
    return;
  }
  // A placement at the file's own speeds: the scales gave the schedule's machine.
  options.schedule.reset();
  processor_scales.clear();
  options.one_per_task = choice.placement == ScheduleChoice::Placement::one_per_task;
}

std::vector<Record> compare_schedules(const Model& base, const std::vector<ScheduleChoice>& against,
                                      const RunOptions& run, const DistributionOptions& distribution,
                                      std::vector<std::vector<double>>* makespans_out) {
  if (!base.task_graph.schedule)
    throw InputError("schedule", "comparing schedules needs the schedule to compare them with", "give a schedule (" + structures::schedule_names() + ")");
  distribution.validate();
  const auto algorithm_of = [](const Model& m) {
    if (m.task_graph.schedule) return std::string(structures::to_string(m.task_graph.schedule->algorithm));
    return std::string(m.task_graph.one_per_task ? "one-per-task" : "none");
  };
  // Every model built before anything runs: bad input fails first.
  std::vector<Simulation> sims{prepare(base)};
  for (const auto& other : against) {
    if (other == ScheduleChoice(base.task_graph.schedule->algorithm))
      throw InputError("compare_to", "compares the schedule " + algorithm_of(base) + " with itself", "compare it with another algorithm");
    Model m = base;
    apply_schedule_choice(other, m.task_graph, m.processor_scales);
    sims.push_back(prepare(m));
  }
  const bool described = distribution.any();
  // Each schedule's makespans and their sorted copy; a pair's two makespans, split, and their orders.
  if (described) check_stored_makespans(run.reps, against.empty() ? 2.0 : 6.0, base.memory_check);
  if (makespans_out) {
    check_stored_makespans(run.reps, static_cast<double>(sims.size()), base.memory_check);
    makespans_out->clear();
  }
  const double none = std::nan("");
  const auto row = [&](const Simulation& sim, const std::string& vs, const char* quantity, std::uint64_t reps, double value,
                       double stderr_, double low, double high, double level = std::nan(""), double deadline = std::nan("")) {
    Record r;
    r.add("graph", base.graph).add("schedule", algorithm_of(sim.model));
    vs.empty() ? r.add_none("against") : r.add("against", vs);
    sim.structure.schedule ? r.add("planned_makespan", sim.structure.schedule->makespan) : r.add_none("planned_makespan");
    r.add("quantity", quantity);
    if (described) {
      std::isnan(level) ? r.add_none("level") : r.add("level", level);
      std::isnan(deadline) ? r.add_none("deadline") : r.add("deadline", deadline);
    }
    r.add("reps", static_cast<unsigned long long>(reps)).add("seed", static_cast<unsigned long long>(run.seed));
    r.add("value", value).add("stderr", stderr_).add("ci_low", low).add("ci_high", high);
    return r;
  };
  std::vector<Record> records;
  for (const auto& sim : sims) {
    if (!described && !makespans_out) {
      const Estimate e = engine::run(sim.plan, run);
      records.push_back(row(sim, "", "mean", e.reps, e.mean, e.stderr_, e.ci_low, e.ci_high));
      continue;
    }
    std::vector<double> makespans;
    const Estimate e = run_sampled(sim.plan, run, makespans, false);  // run()'s bits
    records.push_back(row(sim, "", "mean", e.reps, e.mean, e.stderr_, e.ci_low, e.ci_high));
    if (makespans_out) makespans_out->push_back(makespans);
    if (!described) continue;
    const Distribution d = describe_distribution(makespans, distribution);
    if (d.sd_asked) records.push_back(row(sim, "", "sd", d.reps, d.sd.value, d.sd.stderr_, d.sd.ci_low, d.sd.ci_high));
    for (const auto& q : d.quantiles) records.push_back(row(sim, "", "quantile", d.reps, q.value, none, q.ci_low, q.ci_high, q.level));
    for (const auto& t : d.deadlines)
      records.push_back(row(sim, "", "p_deadline", d.reps, t.p, t.stderr_, t.ci_low, t.ci_high, none, t.deadline));
  }
  for (std::size_t i = 1; i < sims.size(); ++i) {
    const std::string vs = algorithm_of(sims[i].model);
    PairedRun paired;
    std::vector<double> a, b;
    if (!described || !(!distribution.quantile_levels.empty() || !distribution.deadlines.empty())) {
      paired = run_paired(sims[0].plan, sims[i].plan, run);
    } else {
      // The same blocks as run_paired (the same bits), keeping both makespans of each replication.
      PairedBlock total;
      a.reserve(run.reps);
      b.reserve(run.reps);
      run_paired_sample_blocks(sims[0].plan, sims[i].plan, run, BlockRange{0, block_count(run.reps)},
                               [&](std::span<const PairedSampleBlock> wave) {
                                 for (const auto& block : wave) {
                                   fold_blocks(total, std::span<const PairedBlock>(&block.paired, 1));
                                   for (std::size_t k = 0; k < block.values.size(); k += 2) {
                                     a.push_back(block.values[k]);
                                     b.push_back(block.values[k + 1]);
                                   }
                                 }
                               });
      paired = {summarize(total.difference), ratio_of_means(total.moments)};
    }
    const auto& d = paired.difference;
    records.push_back(row(sims[0], vs, "difference", d.reps, d.mean, d.stderr_, d.ci_low, d.ci_high));
    const auto& q = paired.ratio;
    records.push_back(row(sims[0], vs, "ratio", q.reps, q.value, q.stderr_, q.ci_low, q.ci_high));
    if (a.empty()) continue;
    RunOptions bootstrap = run;
    bootstrap.progress = nullptr;
    const PairedDistribution p = describe_paired(a, b, distribution, bootstrap);
    for (const auto& x : p.quantiles)
      records.push_back(row(sims[0], vs, "quantile_difference", p.reps, x.value, x.stderr_, x.ci_low, x.ci_high, x.level));
    for (const auto& t : p.deadlines)
      records.push_back(row(sims[0], vs, "p_deadline_difference", p.reps, t.value, t.stderr_, t.ci_low, t.ci_high, none, t.deadline));
  }
  return records;
}

ScheduleSet parse_schedule_set(const std::vector<std::string>& names, const std::string& baseline) {
  const auto parsed = [](const char* parameter, const std::string& name) {
    try {
      return parse_schedule_choice(name);
    } catch (const InputError& e) {
      throw InputError(parameter, e.problem(), e.hint());
    }
  };
  std::vector<ScheduleChoice> choices;
  for (const auto& name : names) {
    const ScheduleChoice choice = parsed("schedules", name);
    if (std::find(choices.begin(), choices.end(), choice) != choices.end())
      throw InputError("schedules", "names " + name + " twice", "name each schedule once");
    choices.push_back(choice);
  }
  if (choices.size() < 2) throw InputError("schedules", "needs at least two schedules to compare", "add another: heft,peft");
  const std::string base = baseline.empty() ? names.front() : baseline;
  const ScheduleChoice base_choice = parsed("baseline", base);
  const auto at = std::find(choices.begin(), choices.end(), base_choice);
  if (at == choices.end()) throw InputError("baseline", base + " is not one of the schedules", "add it to the schedules, or leave the baseline out");
  if (base_choice.placement != ScheduleChoice::Placement::schedule)
    throw InputError("baseline", base + " is a placement without a schedule, and the baseline must be a schedule",
                     "choose an algorithm (" + structures::schedule_names() + ") as the baseline");
  choices.erase(at);
  return {base_choice, std::move(choices)};
}

std::vector<Record> compare_schedule_set(const Model& base, const std::vector<ScheduleChoice>& against,
                                         const RunOptions& run, const DistributionOptions& distribution,
                                         std::vector<std::vector<double>>* makespans) {
  std::vector<Record> records = compare_schedules(base, against, run, distribution, makespans);
  const auto number = [](const Record& r, const std::string& name) {
    for (const auto& f : r.fields())
      if (f.name == name) return std::get<double>(f.value);
    throw std::logic_error("compare_schedule_set: a comparison row without " + name);
  };
  for (auto& r : records) {
    const std::string quantity = r.text("quantity");
    if (quantity == "difference" || quantity == "quantile_difference" || quantity == "p_deadline_difference")
      r.add_flag("excludes_0", number(r, "ci_low") > 0.0 || number(r, "ci_high") < 0.0);
    else
      r.add_none("excludes_0");
  }
  return records;
}

}  // namespace hetstruct::engine
