// Task laws around a file's mean times, and the choice of reader by a graph file's extension.
#include "structures/task_graphs.h"
#include "structures/platform.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <glob.h>

#include "distributions/input_error.h"

namespace hetstruct::structures {

void validate(const TaskLawOptions& options) {
  if (!(options.cv >= 0.0) || !std::isfinite(options.cv))
    throw InputError("task_cv", "the coefficient of variation must be a finite number >= 0");
  if (options.shape == TaskLawShape::constant && options.cv > 0.0)
    throw InputError("task_cv", "a constant task law has no coefficient of variation",
                     "choose the normal or uniform task law, or drop the coefficient");
}

void validate_bandwidth(const std::optional<double>& bandwidth) {
  if (!bandwidth || (*bandwidth > 0.0 && std::isfinite(*bandwidth))) return;
  std::ostringstream value;
  value << *bandwidth;
  throw InputError("bandwidth", "must be a finite number > 0, got " + value.str(), "bytes per unit of time");
}

distributions::Law task_law(double mean, const TaskLawOptions& options) {
  if (options.cv == 0.0 || mean == 0.0) return distributions::Law::constant(mean);
  const double sd = options.cv * mean;
  switch (options.shape) {
    case TaskLawShape::normal: return distributions::Law::normal(mean, sd * sd);
    case TaskLawShape::uniform: {
      const double half = std::sqrt(3.0) * sd;
      return distributions::Law::uniform(mean - half, mean + half);
    }
    case TaskLawShape::constant: break;
  }
  return distributions::Law::constant(mean);
}

TaskLawShape parse_task_law_shape(const std::string& name) {
  if (name == "normal") return TaskLawShape::normal;
  if (name == "uniform") return TaskLawShape::uniform;
  if (name == "constant") return TaskLawShape::constant;
  throw InputError("task_law", "unknown task law '" + name + "'", "choose normal, uniform or constant");
}

const char* to_string(TaskLawShape shape) {
  switch (shape) {
    case TaskLawShape::normal: return "normal";
    case TaskLawShape::uniform: return "uniform";
    case TaskLawShape::constant: return "constant";
  }
  return "normal";
}

GraphFormat graph_format(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".dot" || extension == ".gv") return GraphFormat::dot;
  if (extension == ".stg") return GraphFormat::stg;
  if (extension == ".json") return GraphFormat::wfformat;
  throw InputError("graph", "cannot tell the format of '" + path + "' from its extension",
                   "name it .dot or .gv (Graphviz), .stg (Standard Task Graph Set) or .json (WfFormat)");
}

bool has_graph_extension(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".dot" || extension == ".gv" || extension == ".stg" || extension == ".json";
}

std::vector<std::string> expand_graph_paths(const std::string& item) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  std::error_code ec;
  if (fs::is_directory(item, ec)) {
    for (const auto& entry : fs::directory_iterator(item, ec))
      if (entry.is_regular_file(ec) && has_graph_extension(entry.path().string())) paths.push_back(entry.path().string());
    if (ec) throw InputError("graph", "cannot list the folder '" + item + "'");
    if (paths.empty())
      throw InputError("graph", "the folder '" + item + "' holds no graph file", "graph files end in .dot, .gv, .stg or .json");
    std::sort(paths.begin(), paths.end());  // by name: the same order on every machine
    return paths;
  }
  if (fs::path(item).filename().string().find_first_of("*?[") == std::string::npos) return {item};
  glob_t found{};
  const int status = ::glob(item.c_str(), 0, nullptr, &found);
  for (std::size_t i = 0; status == 0 && i < found.gl_pathc; ++i) paths.emplace_back(found.gl_pathv[i]);
  ::globfree(&found);
  if (paths.empty()) throw InputError("graph", "no file matches '" + item + "'");
  std::sort(paths.begin(), paths.end());  // byte order, whatever the locale's collation
  return paths;
}

Structure build_placed(CustomDag dag, const TaskGraphOptions& options, const std::string& source,
                       const std::vector<std::string>& dropped, bool names_processors) {
  dag.dispatch = options.dispatch;
  if (options.one_per_task) {
    if (options.schedule || !options.mapping.empty())
      throw InputError("mapping", "one processor per task goes with neither a mapping file nor a schedule");
    // Processor v runs task v alone: one core, scale 1 (a costs list's entry v, which must exist).
    for (std::size_t v = 0; v < dag.tasks.size(); ++v) {
      dag.tasks[v].processor = static_cast<int>(v);
      dag.tasks[v].order.reset();
      dag.tasks[v].cores = 1;
    }
    dag.processor_cores.clear();
    dag.processor_scale.clear();
    return build_custom(dag, source);
  }
  if (!options.schedule) {
    apply_mapping(read_mapping(options.mapping), dag, dropped);
    return build_custom(dag, source);
  }
  if (!options.mapping.empty())
    throw InputError("mapping", "give either a mapping file or a schedule, not both");
  const bool unrelated = !dag.tasks.empty() && !dag.tasks.front().costs.empty();
  if (!names_processors && !unrelated && options.schedule->scales.empty())
    throw InputError("graph", "the file names no processors to schedule on",
                     "give the machine as the processors' scales (processor_scale), one per processor");
  Schedule schedule = schedule_dag(dag, *options.schedule, source);
  apply_schedule(schedule, dag);
  dag.machine_width = static_cast<int>(schedule.order.size());
  Structure s = build_custom(dag, source);
  s.schedule = std::move(schedule);
  return s;
}

Structure read_graph(const std::string& path, const TaskGraphOptions& options) {
  if (options.platform) {  // a DOT file on a SimGrid platform (structures/platform.h)
    if (graph_format(path) != GraphFormat::dot)
      throw InputError("platform", "applies to DOT files for now", "give the graph as DOT with host= and bytes=");
    if (!options.mapping.empty() || options.schedule || options.one_per_task)
      throw InputError("platform", "goes with neither a mapping file nor a schedule for now", "name each task's host= in the DOT file");
    CustomDag dag = parse_dot_dag(read_text_file(path, "graph file"), path);
    apply_platform(dag, *options.platform, path);
    dag.dispatch = options.dispatch;
    Structure s = build_custom(dag, path);
    s.platform = options.platform;
    s.name = path;
    return s;
  }
  switch (graph_format(path)) {
    case GraphFormat::stg: return read_stg(path, options);
    case GraphFormat::wfformat: return read_wfformat(path, options);
    case GraphFormat::dot: break;
  }
  // A DOT file's vertices carry their own laws and processors.
  const TaskGraphOptions defaults;
  if (options.law.shape != defaults.law.shape || options.law.cv != defaults.law.cv)
    throw InputError(options.law.cv != defaults.law.cv ? "task_cv" : "task_law",
                     "applies to STG and WfFormat files, not to a DOT file", "a DOT vertex gives its own law");
  if (options.bandwidth != defaults.bandwidth)
    throw InputError("bandwidth", "applies to WfFormat files only", "a DOT edge gives its own comm");
  if (options.mapping.empty() && !options.schedule && !options.one_per_task && !options.dispatch) return read_dot(path);
  // A mapping file or a schedule replaces the vertices' processors and orders.
  CustomDag dag = parse_dot_dag(read_text_file(path, "graph file"), path);
  refuse_platform_attributes(dag, path);
  Structure s = options.mapping.empty() && !options.schedule && !options.one_per_task
                    ? (dag.dispatch = options.dispatch, build_custom(dag, path))
                    : build_placed(std::move(dag), options, path, {}, true);
  s.name = path;
  return s;
}

}  // namespace hetstruct::structures
