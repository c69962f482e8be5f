// The task-graph formats of the field, beside DOT: the Standard Task Graph Set (STG, Kasahara lab)
// and WfCommons' WfFormat JSON. Their files give each task a mean time only (an integer cost, a
// measured runtime); the options say which law to draw around it and where the tasks run.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "distributions/law.h"
#include "structures/custom.h"
#include "structures/schedule.h"
#include "structures/structure.h"

namespace hetstruct::structures {

// The law around a task's mean time mu, with coefficient of variation cv (standard deviation / mean):
//   normal:   n(mu, (cv mu)^2), the convention of the stochastic-DAG literature (untruncated);
//   uniform:  u(mu (1 - sqrt(3) cv), mu (1 + sqrt(3) cv)), the same mean and standard deviation;
//   constant: c(mu).
// cv = 0 gives c(mu) whatever the shape, and so does a task of mean 0 (STG's dummy tasks).
enum class TaskLawShape { normal, uniform, constant };

struct TaskLawOptions {
  TaskLawShape shape = TaskLawShape::normal;
  double cv = 0.0;
  bool operator==(const TaskLawOptions&) const = default;
};

// Checks cv (finite, >= 0; 0 with the constant shape) and throws InputError naming `task_cv`.
void validate(const TaskLawOptions& options);
distributions::Law task_law(double mean, const TaskLawOptions& options);
// normal, uniform, constant (InputError naming `task_law` otherwise).
TaskLawShape parse_task_law_shape(const std::string& name);
const char* to_string(TaskLawShape shape);

struct TaskGraphOptions {
  TaskLawOptions law;
  // A mapping file (`task processor` a line; the line order is the order on each processor). Empty:
  // each task on a processor of its own (STG: the pure longest path), or for WfFormat the machines
  // the trace ran its tasks on when it names them.
  std::string mapping;
  // WfFormat: bytes per unit of time (finite, > 0). A crossing edge's message takes the bytes of
  // the files the parent writes and the child reads, divided by this. None: edges carry the model's
  // communication cost instead. STG and DOT files refuse it.
  std::optional<double> bandwidth;
  // Instead of a mapping file: a static schedule computed from the graph's mean times
  // (structures/schedule.h), applied as a mapping. An STG file names no machine: the schedule's
  // scales give it; a WfFormat trace's machines and cores are the schedule's without scales.
  std::optional<ScheduleOptions> schedule;
  // Instead of both: each task on a processor of its own, of scale 1 and one core, whatever the
  // file names (the one-processor-per-task reference a schedule comparison can take).
  bool one_per_task = false;
  // How each processor takes its tasks (Structure::dispatch); none: ready where the input gives a
  // processor's tasks no order (a trace's machine without recorded starts), else ordered.
  std::optional<Dispatch> dispatch;
  // A SimGrid platform the DOT file's tasks run on (structures/platform.h; none: no platform).
  std::shared_ptr<const Platform> platform;
  // Field by field: the same options read a file into the same structure (engine::GraphReads).
  bool operator==(const TaskGraphOptions&) const = default;
};

// The reader's last step when the options place the tasks: the mapping file's or the schedule's
// processors and orders applied to `dag`, then build_custom. `dropped`: the reader's dummy tasks,
// which a mapping may name. A schedule is kept in the structure (Structure::schedule). InputError
// for a mapping with a schedule, or a schedule without a machine (`names_processors`: whether the
// file's tasks name their processors, a machine the schedule may take).
Structure build_placed(CustomDag dag, const TaskGraphOptions& options, const std::string& source,
                       const std::vector<std::string>& dropped, bool names_processors);

// Checks a bandwidth (none, or finite and > 0) and throws InputError naming `bandwidth`.
void validate_bandwidth(const std::optional<double>& bandwidth);

// STG: the number of tasks n, then n + 2 lines `id cost predecessor-count predecessor-ids...`
// (ids 0 to n+1; task 0 and task n+1 are the dummy entry and exit, of cost 0), then comment lines
// starting with '#'. The dummy entry and exit are dropped when their cost is 0 (a mapping file may
// name them or not); a dummy with a cost is kept as a task of that cost. A task is named by its id.
// Throws InputError naming file:line, also for n = 0 (no task) and for a bandwidth (an STG file
// gives no message sizes).
Structure read_stg(const std::string& path, const TaskGraphOptions& options = {});
Structure parse_stg(const std::string& text, const std::string& source, const TaskGraphOptions& options = {});

// WfFormat 1.5/1.6 (workflow.specification.tasks with id, parents, children, inputFiles,
// outputFiles; workflow.specification.files with id and sizeInBytes; workflow.execution with
// makespanInSeconds, tasks with id, runtimeInSeconds, machines, coreCount, executedAt, and machines
// with nodeName and cpu.coreCount) or the older layout (workflow.tasks or jobs with name or id,
// runtimeInSeconds or runtime, parents, children, files with name, sizeInBytes or size, and link
// input or output, machine or machines, cores; workflow.machines with cpu.count; workflow.makespan
// or makespanInSeconds). A task is named by its id (its name when it has none).
// Without a mapping (or with a schedule without scales, which places the tasks on these
// processors), a machine is a processor with the machine's cores (numbered: the listed
// machines that ran tasks in the list's order, then unlisted ones by first use, then a processor of
// its own for each task that names no machine), and its tasks run in the order they started
// (executedAt) when all of them have a start, else in the topological order closest to the
// file's; see parse_wfformat. Throws InputError naming the task or the field.
Structure read_wfformat(const std::string& path, const TaskGraphOptions& options = {});
// A task's `law` field (hetstruct's law syntax) draws its time in place of its runtime under
// options.law; a law that does not parse is refused naming the file and the task.

// One task's recorded run, as read_wfformat reads the trace (hetstruct fit's input): its id,
// name, category (empty where the trace gives none), first machine (empty: none) and runtime.
struct WfRun {
  std::string id, name, category, machine;
  double runtime = 0.0;
};
// The runs of the trace's tasks that record a runtime, in the file's task order.
std::vector<WfRun> read_wfformat_runs(const std::string& path);
// The trace at `path` (read_wfformat_runs has read it) again, every execution task whose id is in
// `laws` carrying that law in a "law" field: the JSON text (one-space indentation).
std::string wfformat_with_laws(const std::string& path, const std::map<std::string, std::string>& laws);
Structure parse_wfformat(const std::string& text, const std::string& source, const TaskGraphOptions& options = {});

enum class GraphFormat { dot, stg, wfformat };
// By extension: .dot or .gv, .stg, .json (InputError naming `graph` otherwise).
GraphFormat graph_format(const std::string& path);
// Whether a path's extension is one of a graph format's (graph_format would not throw).
bool has_graph_extension(const std::string& path);
// The graph files one `graph` item names, for sweeps over many graphs: a folder means every file in
// it with a graph extension, sorted by name; a pattern with *, ? or [...] (shell glob syntax; one in
// the last path component is enough) means the paths matching it, sorted; anything else is one
// file, as given. A folder without graph files, or a pattern that matches nothing, is an InputError
// naming `graph` and the item.
std::vector<std::string> expand_graph_paths(const std::string& item);
// Any graph file, by its extension. A DOT file's vertices carry their laws and processors, so
// options other than the defaults are refused for it (InputError naming the option).
Structure read_graph(const std::string& path, const TaskGraphOptions& options = {});

}  // namespace hetstruct::structures
