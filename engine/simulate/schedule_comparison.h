// Static schedules of one graph compared on common random numbers: the model's schedule against a
// comparison `schedule=B`. Each replication draws every task's time from the same stream
// position under both schedules (a graph's task times follow the file's order, whatever the
// mapping), so the paired difference and ratio of the mean makespans carry only the noise the two
// schedules do not share (engine/estimators/paired.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/estimators/distribution.h"
#include "engine/simulate/record.h"
#include "structures/schedule.h"

namespace hetstruct::engine {

// A schedule to compare with: an algorithm, or a placement without a schedule, at the file's own
// speeds (the processors' scales, which gave the schedule's machine, are dropped with it):
//  - none: the tasks where the file puts them (DOT's processor=, WfFormat's recorded machines;
//    each STG task, and each WfFormat task that names no machine, on a processor of its own);
//  - one-per-task: each task on a processor of its own, of scale 1 and one core, whatever the
//    file names (structures::TaskGraphOptions::one_per_task): the longest path with every edge's
//    message. A graph of costs has only its costs' processors: refused beyond them.
struct ScheduleChoice {
  enum class Placement { schedule, none, one_per_task };
  Placement placement = Placement::schedule;
  structures::ScheduleAlgorithm algorithm = structures::ScheduleAlgorithm::heft;  // with Placement::schedule
  ScheduleChoice(structures::ScheduleAlgorithm a) : algorithm(a) {}  // NOLINT: an algorithm is a choice
  explicit ScheduleChoice(Placement p) : placement(p) {}
  std::string name() const;
  bool operator==(const ScheduleChoice&) const = default;
};
// heft, cpop, heft-sd, none or one-per-task (InputError naming `schedule` otherwise).
ScheduleChoice parse_schedule_choice(const std::string& name);

// A graph's placement options with `choice` for their schedule: its algorithm replacing the
// schedule's (the sd weight kept), or no schedule, the processors' scales (which gave the
// schedule's machine) dropped with it, and one_per_task for one-per-task. `options` has a
// schedule (the caller's check).
void apply_schedule_choice(const ScheduleChoice& choice, structures::TaskGraphOptions& options,
                           std::vector<double>& processor_scales);

// `base` is a graph's model with a schedule (task_graph.schedule); each of `against` replaces it
// (apply_schedule_choice; the machine's cores and C kept). Records: one `mean` row per schedule, then per
// other schedule a `difference` (base - other) and a `ratio` (base / other) row, each with graph,
// schedule, against, planned_makespan (the schedule's own, at the mean times), reps, seed, value,
// stderr, ci_low, ci_high. Plain Monte Carlo. InputError naming `schedule` for a model without a
// schedule, `compare_to` for a schedule compared with itself.
// With `distribution` asking for anything, every record has the columns level and deadline after
// quantity (empty where they do not apply), each schedule's mean row is followed by its `sd` row
// (when asked), a `quantile` row per level and a `p_deadline` row per deadline (the distribution's
// estimates, engine/estimators/distribution.h), and each other schedule's ratio row by a
// `quantile_difference` row per level and a `p_deadline_difference` row per deadline (base - other,
// paired: describe_paired, its bootstrap on run's seed). The mean, difference and ratio rows keep
// their bits.
// With `makespans`, each schedule's makespans in replication order (base first, then `against`'s),
// the same bits as the rows (for a figure of their distributions).
std::vector<Record> compare_schedules(const Model& base, const std::vector<ScheduleChoice>& against,
                                      const RunOptions& run, const DistributionOptions& distribution = {},
                                      std::vector<std::vector<double>>* makespans = nullptr);

// `hetstruct compare`'s schedules: the baseline (an algorithm) and the others, in the list's order.
struct ScheduleSet {
  ScheduleChoice baseline;
  std::vector<ScheduleChoice> others;
};
// From the names of the list (each parse_schedule_choice's, each once, at least two) and the
// baseline's (empty: the list's first; one of the list, and an algorithm, not a placement).
// InputError naming `schedules` or `baseline`.
ScheduleSet parse_schedule_set(const std::vector<std::string>& names, const std::string& baseline);

// `hetstruct compare`'s rows: compare_schedules' rows for the baseline `base` (its schedule) and the
// schedules `against`, each with one more field, excludes_0: on the difference,
// quantile_difference and p_deadline_difference rows (baseline - other), whether the 95% interval
// leaves 0 out (ci_low > 0 or ci_high < 0: the replications tell the two schedules apart at that
// level); none on the others. The other fields keep compare_schedules' bits.
std::vector<Record> compare_schedule_set(const Model& base, const std::vector<ScheduleChoice>& against,
                                         const RunOptions& run, const DistributionOptions& distribution = {},
                                         std::vector<std::vector<double>>* makespans = nullptr);

}  // namespace hetstruct::engine
