#include "engine/simulate/schedule_records.h"

#include <stdexcept>

#include <boost/range/iterator_range.hpp>

#include "distributions/input_error.h"

namespace hetstruct::engine {

ScheduledGraph schedule_graph(const Model& model, bool mapping) {
  if (model.graph.empty()) throw InputError("graph", "missing", "a schedule is of a graph file: give a graph file");
  // The schedule's start and finish times are the free port model's.
  if (model.port || model.overlap)
    throw InputError(model.port ? "port" : "overlap", "a schedule assumes the free port model",
                     "leave it out; simulate the schedule under a port model with a schedule or a mapping file");
  Model scheduled = model;
  if (!scheduled.task_graph.schedule) scheduled.task_graph.schedule = structures::ScheduleOptions{};
  ScheduledGraph out{scheduled.build(), {}, {}, {}};
  if (!out.structure.schedule) throw std::logic_error("schedule_graph: the graph was not scheduled");
  for (const auto v : boost::make_iterator_range(boost::vertices(out.structure.graph())))
    out.names.push_back(out.structure.graph()[v].name);
  out.records = schedule_records(model.graph, *out.structure.schedule, out.names);
  if (mapping) out.mapping = structures::mapping_text(*out.structure.schedule, out.names);
  return out;
}

std::vector<Record> schedule_records(const std::string& graph, const structures::Schedule& schedule,
                                     const std::vector<std::string>& names) {
  std::vector<Record> records;
  // A task's core only where a processor has several: the records of one-core machines keep their fields.
  const bool cores = schedule.multicore();
  for (std::size_t v = 0; v < schedule.tasks.size(); ++v) {
    const auto& slot = schedule.tasks[v];
    Record r;
    r.add("graph", graph).add("algorithm", structures::to_string(schedule.algorithm)).add("task", names.at(v));
    r.add("processor", slot.processor);
    if (cores) r.add("core", slot.core);
    r.add("start", slot.start).add("finish", slot.finish);
    r.add("makespan", schedule.makespan).add("upward_rank", schedule.upward_rank.at(v));
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace hetstruct::engine
