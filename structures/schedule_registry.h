// The scheduler registry: one declaration per static scheduler (its name, a one-line summary, the
// function that computes it and whether it places by insertion). Parsing, help texts and error
// messages read the names from here (structures/schedule.h: parse_schedule_algorithm,
// schedule_names); docs/architecture.md says what adding a scheduler touches.
#pragma once

#include <vector>

#include "structures/schedule.h"

namespace hetstruct::structures {

struct SchedulerInfo {
  ScheduleAlgorithm algorithm;
  const char* name;
  const char* summary;
  Schedule (*run)(const SchedulingProblem&);
  // Insertion (HEFT's rule: the first idle interval that holds the task) or append (after the
  // processor's last task). Append schedulers take processors and tasks of one core only.
  bool insertion;
};

// Every scheduler, in the order help texts list them.
const std::vector<SchedulerInfo>& schedulers();
const SchedulerInfo& scheduler(ScheduleAlgorithm algorithm);

}  // namespace hetstruct::structures
