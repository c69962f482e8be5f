// Static schedules of one graph compared on common random numbers: the model's schedule against a
// comparison `schedule=B`. Each replication draws every task's time from the same stream
// position under both schedules (a graph's task times follow the file's order, whatever the
// mapping), so the paired difference and ratio of the mean makespans carry only the noise the two
// schedules do not share (engine/estimators/paired.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/simulate/model.h"
#include "engine/driver/monte_carlo.h"
#include "engine/simulate/record.h"
#include "structures/schedule.h"

namespace hetstruct::engine {

// `base` is a graph's model with a schedule (task_graph.schedule); each of `against` replaces its
// algorithm (the sd weight, machine and C kept). Records: one `mean` row per schedule, then per
// other schedule a `difference` (base - other) and a `ratio` (base / other) row, each with graph,
// schedule, against, planned_makespan (the schedule's own, at the mean times), reps, seed, value,
// stderr, ci_low, ci_high. Plain Monte Carlo. InputError naming `schedule` for a model without a
// schedule, `compare_to` for a schedule compared with itself.
std::vector<Record> compare_schedules(const Model& base, const std::vector<structures::ScheduleAlgorithm>& against,
                                      const RunOptions& run);

}  // namespace hetstruct::engine
