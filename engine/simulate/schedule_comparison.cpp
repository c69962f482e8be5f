#include "engine/simulate/schedule_comparison.h"

#include "distributions/input_error.h"
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
                     "choose heft, cpop, heft-sd, none (the file's own placement) or one-per-task");
  }
}

std::vector<Record> compare_schedules(const Model& base, const std::vector<ScheduleChoice>& against,
                                      const RunOptions& run) {
  if (!base.task_graph.schedule)
    throw InputError("schedule", "comparing schedules needs the schedule to compare them with", "give a schedule (heft, cpop or heft-sd)");
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
    if (other.placement == ScheduleChoice::Placement::schedule) {
      m.task_graph.schedule->algorithm = other.algorithm;
    } else {
      // A placement at the file's own speeds: the scales gave the schedule's machine.
      m.task_graph.schedule.reset();
      m.processor_scales.clear();
      m.task_graph.one_per_task = other.placement == ScheduleChoice::Placement::one_per_task;
    }
    sims.push_back(prepare(m));
  }
  const auto row = [&](const Simulation& sim, const std::string& vs, const char* quantity, std::uint64_t reps, double value,
                       double stderr_, double low, double high) {
    Record r;
    r.add("graph", base.graph).add("schedule", algorithm_of(sim.model));
    vs.empty() ? r.add_none("against") : r.add("against", vs);
    sim.structure.schedule ? r.add("planned_makespan", sim.structure.schedule->makespan) : r.add_none("planned_makespan");
    r.add("quantity", quantity);
    r.add("reps", static_cast<unsigned long long>(reps)).add("seed", static_cast<unsigned long long>(run.seed));
    r.add("value", value).add("stderr", stderr_).add("ci_low", low).add("ci_high", high);
    return r;
  };
  std::vector<Record> records;
  for (const auto& sim : sims) {
    const Estimate e = engine::run(sim.plan, run);
    records.push_back(row(sim, "", "mean", e.reps, e.mean, e.stderr_, e.ci_low, e.ci_high));
  }
  for (std::size_t i = 1; i < sims.size(); ++i) {
    const PairedRun paired = run_paired(sims[0].plan, sims[i].plan, run);
    const std::string vs = algorithm_of(sims[i].model);
    const auto& d = paired.difference;
    records.push_back(row(sims[0], vs, "difference", d.reps, d.mean, d.stderr_, d.ci_low, d.ci_high));
    const auto& q = paired.ratio;
    records.push_back(row(sims[0], vs, "ratio", q.reps, q.value, q.stderr_, q.ci_low, q.ci_high));
  }
  return records;
}

}  // namespace hetstruct::engine
