// What `schedule` prints, for any front end: the model's graph built with its tasks placed by the
// static schedule the model names (model.task_graph.schedule: HEFT, CPOP, heft-sd;
// structures/schedule.h), one record per task, and the schedule as a mapping file's text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/simulate/model.h"
#include "engine/simulate/record.h"
#include "structures/schedule.h"
#include "structures/structure.h"

namespace hetstruct::engine {

struct ScheduledGraph {
  structures::Structure structure;   // its schedule set
  std::vector<std::string> names;    // the tasks' names, in the file's order
  std::vector<Record> records;       // schedule_records
  std::optional<std::string> mapping;  // structures::mapping_text, when asked for
};

// The schedule of `model`'s graph on the free port model (HEFT when the model names none).
// InputError naming the parameter: graph missing, port or overlap given, the schedule's own
// (schedule, sd_weight, fast_count, processor_cores lists, ...); with `mapping`, a task name a mapping
// file cannot hold.
ScheduledGraph schedule_graph(const Model& model, bool mapping);

// One record per task, in the file's order: graph, algorithm, task, processor, core (the lowest of
// the cores it holds; only when some processor has several), start, finish (at the mean times),
// makespan, upward_rank.
std::vector<Record> schedule_records(const std::string& graph, const structures::Schedule& schedule,
                                     const std::vector<std::string>& names);

}  // namespace hetstruct::engine
