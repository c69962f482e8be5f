// WfCommons' WfFormat JSON (github.com/wfcommons/WfFormat), read with nlohmann-json.
//
// 1.5 and later: workflow.specification.tasks[] {id, name, parents, children, inputFiles,
// outputFiles}, workflow.specification.files[] {id, sizeInBytes}, workflow.execution.tasks[] {id,
// runtimeInSeconds, machines}, workflow.execution.machines[] {nodeName}.
// Before 1.5: workflow.tasks[] (or jobs[]) {name, id, runtimeInSeconds or runtime, parents,
// children, files[] {name or id, sizeInBytes or size, link: input | output}, machine or machines},
// workflow.machines[] {nodeName}.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "distributions/input_error.h"
#include "structures/custom.h"
#include "structures/task_graphs.h"

namespace hetstruct::structures {

namespace {

using json = nlohmann::json;

// nlohmann's parser keeps its own stack, but a value nested thousands deep is no workflow: refuse
// it before parsing, skipping strings.
constexpr int max_nesting = 64;

void check_nesting(const std::string& text, const std::string& source) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_nesting)
        throw InputError(source, "JSON nested more than " + std::to_string(max_nesting) + " deep", "a WfFormat file is not");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

// Typed access that names what is wrong and where.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  const json* member(const json& object, const char* key) const {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
  }
  const json& required(const json& object, const char* key, const std::string& where) const {
    const json* value = member(object, key);
    if (!value) throw error(where, "has no '" + std::string(key) + "'");
    return *value;
  }
  const json& object(const json& value, const std::string& where) const {
    if (!value.is_object()) throw error(where, std::string("is a JSON ") + value.type_name() + ", not an object");
    return value;
  }
  const json& array(const json& value, const std::string& where) const {
    if (!value.is_array()) throw error(where, std::string("is a JSON ") + value.type_name() + ", not an array");
    return value;
  }
  std::string string(const json& value, const std::string& where) const {
    if (!value.is_string()) throw error(where, std::string("is a JSON ") + value.type_name() + ", not a string");
    return value.get<std::string>();
  }
  double number(const json& value, const std::string& where) const {
    if (!value.is_number()) throw error(where, std::string("is a JSON ") + value.type_name() + ", not a number");
    const double x = value.get<double>();
    if (!(x >= 0.0) || !std::isfinite(x)) throw error(where, "must be a finite number >= 0, got " + value.dump());
    return x;
  }
  std::vector<std::string> strings(const json& value, const std::string& where) const {
    std::vector<std::string> out;
    for (const auto& item : array(value, where)) out.push_back(string(item, where + " entry"));
    return out;
  }
  std::vector<std::string> optional_strings(const json& object, const char* key, const std::string& where) const {
    const json* value = member(object, key);
    return value ? strings(*value, where + " " + key) : std::vector<std::string>{};
  }
  InputError error(const std::string& where, const std::string& problem) const {
    return InputError(source_ + ": " + where, problem);
  }
  const std::string& source() const { return source_; }

 private:
  std::string source_;
};

// One task as either layout gives it.
struct WfTask {
  std::string id, name;
  std::vector<std::string> parents, children, inputs, outputs, machines;
  std::optional<double> runtime;
};

std::string label(const WfTask& t) { return "task '" + t.id + "'"; }

// Both layouts: a runtime in seconds, and machines as a list or a single name.
void read_execution(const Reader& r, const json& task, const std::string& where, WfTask& t) {
  if (const json* runtime = r.member(task, "runtimeInSeconds")) t.runtime = r.number(*runtime, where + " runtimeInSeconds");
  else if (const json* old = r.member(task, "runtime")) t.runtime = r.number(*old, where + " runtime");
  if (const json* machines = r.member(task, "machines")) t.machines = r.strings(*machines, where + " machines");
  else if (const json* machine = r.member(task, "machine")) t.machines = {r.string(*machine, where + " machine")};
}

std::vector<std::string> machine_names(const Reader& r, const json* machines, const std::string& where) {
  std::vector<std::string> names;
  if (!machines) return names;
  for (const auto& m : r.array(*machines, where)) {
    r.object(m, where + " entry");
    names.push_back(r.string(r.required(m, "nodeName", where + " entry"), where + " nodeName"));
  }
  return names;
}

}  // namespace

Structure parse_wfformat(const std::string& text, const std::string& source, const TaskGraphOptions& options) {
  validate(options.law);
  if (!(options.bandwidth >= 0.0) || !std::isfinite(options.bandwidth))
    throw InputError("bandwidth", "must be a finite number > 0 (bytes per unit of time)");
  check_nesting(text, source);
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {
    // parse_error for bad syntax, out_of_range for a number beyond a double (1e999): both are the file's fault.
    std::string what = e.what();
    if (const auto close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos)
      what.erase(0, close + 2);
    throw InputError(source, "JSON syntax error: " + what);
  }
  const Reader r(source);
  r.object(root, "the document");
  const json& workflow = r.object(r.required(root, "workflow", "the document"), "workflow");

  std::vector<WfTask> tasks;
  std::map<std::string, double> file_bytes;  // 1.5: declared files
  std::vector<std::string> declared_machines;
  std::map<std::string, std::map<std::string, double>> written;  // old layout: task -> file -> bytes
  const json* specification = r.member(workflow, "specification");
  if (specification) {
    r.object(*specification, "workflow.specification");
    for (const auto& task : r.array(r.required(*specification, "tasks", "workflow.specification"), "workflow.specification.tasks")) {
      const std::string where = "workflow.specification.tasks[" + std::to_string(tasks.size()) + "]";
      r.object(task, where);
      WfTask t;
      t.id = r.string(r.required(task, "id", where), where + " id");
      if (const json* name = r.member(task, "name")) t.name = r.string(*name, where + " name");
      t.parents = r.optional_strings(task, "parents", label(t));
      t.children = r.optional_strings(task, "children", label(t));
      t.inputs = r.optional_strings(task, "inputFiles", label(t));
      t.outputs = r.optional_strings(task, "outputFiles", label(t));
      tasks.push_back(std::move(t));
    }
    if (const json* files = r.member(*specification, "files"))
      for (const auto& file : r.array(*files, "workflow.specification.files")) {
        const std::string where = "workflow.specification.files[" + std::to_string(file_bytes.size()) + "]";
        r.object(file, where);
        const std::string id = r.string(r.required(file, "id", where), where + " id");
        if (!file_bytes.emplace(id, r.number(r.required(file, "sizeInBytes", "file '" + id + "'"), "file '" + id + "' sizeInBytes")).second)
          throw r.error("file '" + id + "'", "is declared twice");
      }
    std::map<std::string, std::size_t> by_id;
    for (std::size_t i = 0; i < tasks.size(); ++i) by_id.emplace(tasks[i].id, i);
    if (const json* execution = r.member(workflow, "execution")) {
      r.object(*execution, "workflow.execution");
      const json& executed = r.array(r.required(*execution, "tasks", "workflow.execution"), "workflow.execution.tasks");
      for (std::size_t i = 0; i < executed.size(); ++i) {
        const std::string where = "workflow.execution.tasks[" + std::to_string(i) + "]";
        r.object(executed[i], where);
        const std::string id = r.string(r.required(executed[i], "id", where), where + " id");
        const auto it = by_id.find(id);
        if (it == by_id.end()) throw r.error(where, "names task '" + id + "', which workflow.specification.tasks does not list");
        read_execution(r, executed[i], "task '" + id + "'", tasks[it->second]);
      }
      declared_machines = machine_names(r, r.member(*execution, "machines"), "workflow.execution.machines");
    }
  } else {
    const json* list = r.member(workflow, "tasks");
    const char* key = "workflow.tasks";
    if (!list && (list = r.member(workflow, "jobs"))) key = "workflow.jobs";
    if (!list) throw r.error("workflow", "has neither 'specification' (WfFormat 1.5 and later) nor 'tasks' (before 1.5)");
    for (const auto& task : r.array(*list, key)) {
      const std::string where = std::string(key) + "[" + std::to_string(tasks.size()) + "]";
      r.object(task, where);
      WfTask t;
      if (const json* name = r.member(task, "name")) t.name = r.string(*name, where + " name");
      if (const json* id = r.member(task, "id")) t.id = r.string(*id, where + " id");
      if (t.id.empty()) t.id = t.name;
      if (t.id.empty()) throw r.error(where, "has neither 'id' nor 'name'");
      t.parents = r.optional_strings(task, "parents", label(t));
      t.children = r.optional_strings(task, "children", label(t));
      read_execution(r, task, label(t), t);
      if (const json* files = r.member(task, "files"))
        for (const auto& file : r.array(*files, label(t) + " files")) {
          const std::string fwhere = label(t) + " files entry";
          r.object(file, fwhere);
          const json* fname = r.member(file, "name");
          if (!fname) fname = &r.required(file, "id", fwhere);
          const std::string name = r.string(*fname, fwhere + " name");
          const json* size = r.member(file, "sizeInBytes");
          if (!size) size = &r.required(file, "size", "file '" + name + "' of " + label(t));
          const double bytes = r.number(*size, "file '" + name + "' size");
          const std::string link = r.string(r.required(file, "link", "file '" + name + "' of " + label(t)), "file '" + name + "' link");
          if (link == "input") t.inputs.push_back(name);
          else if (link == "output") t.outputs.push_back(name), written[t.id][name] = bytes;
          else throw r.error("file '" + name + "' of " + label(t), "link '" + link + "' is neither input nor output");
          file_bytes.emplace(name, bytes);
        }
      tasks.push_back(std::move(t));
    }
    declared_machines = machine_names(r, r.member(workflow, "machines"), "workflow.machines");
  }
  if (tasks.empty()) throw InputError(source, "the workflow has no tasks");

  // Tasks, with their names as given; edges from both parents and children, each once, in file order.
  CustomDag dag;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::size_t> by_name;  // old files may link tasks by name
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (!index.emplace(tasks[i].id, i).second) throw r.error(label(tasks[i]), "is listed twice");
    if (!tasks[i].name.empty()) by_name.emplace(tasks[i].name, i);
  }
  const auto find = [&](const std::string& ref, const WfTask& from, const char* role) {
    auto it = index.find(ref);
    if (it != index.end()) return it->second;
    if (!specification) {
      const auto named = by_name.find(ref);
      if (named != by_name.end()) return named->second;
    }
    throw r.error(label(from), std::string(role) + " '" + ref + "' is not a task of the workflow");
  };
  for (const auto& t : tasks) {
    for (const auto& f : t.inputs)
      if (specification && !file_bytes.count(f))
        throw r.error(label(t), "input file '" + f + "' is not in workflow.specification.files");
    for (const auto& f : t.outputs)
      if (specification && !file_bytes.count(f))
        throw r.error(label(t), "output file '" + f + "' is not in workflow.specification.files");
    if (!t.runtime) throw r.error(label(t), "has no runtimeInSeconds");
    CustomTask task;
    task.name = t.id;
    try {
      task.law = dag.law_index(task_law(*t.runtime, options.law));
    } catch (const InputError& e) {
      throw r.error(label(t), e.what());
    }
    dag.tasks.push_back(task);
  }
  std::set<std::pair<std::size_t, std::size_t>> linked;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    std::vector<std::pair<std::size_t, std::size_t>> arcs;
    for (const auto& p : tasks[i].parents) arcs.emplace_back(find(p, tasks[i], "parent"), i);
    for (const auto& c : tasks[i].children) arcs.emplace_back(i, find(c, tasks[i], "child"));
    for (const auto& arc : arcs) {
      if (!linked.insert(arc).second) continue;
      CustomEdge e{arc.first, arc.second, -1};
      if (options.bandwidth > 0.0) {
        // The bytes the parent writes and the child reads.
        const auto& parent = tasks[arc.first];
        const std::set<std::string> reads(tasks[arc.second].inputs.begin(), tasks[arc.second].inputs.end());
        std::set<std::string> counted;
        double bytes = 0.0;
        for (const auto& f : parent.outputs)
          if (reads.count(f) && counted.insert(f).second) {
            const auto own = written.find(parent.id);
            bytes += own != written.end() && own->second.count(f) ? own->second.at(f) : file_bytes.at(f);
          }
        e.comm_law = dag.law_index(distributions::Law::constant(bytes / options.bandwidth));
      }
      dag.edges.push_back(e);
    }
  }

  // Processors: the mapping file, else the machines the trace names, else one per task.
  if (!options.mapping.empty()) {
    apply_mapping(read_mapping(options.mapping), dag);
  } else if (std::any_of(tasks.begin(), tasks.end(), [](const WfTask& t) { return !t.machines.empty(); })) {
    std::map<std::string, int> processor;
    for (const auto& m : declared_machines) processor.emplace(m, static_cast<int>(processor.size()));
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      if (tasks[i].machines.empty())
        throw r.error(label(tasks[i]), "names no machine, while other tasks do (give a mapping file)");
      const std::string& m = tasks[i].machines.front();
      if (!declared_machines.empty() && !processor.count(m))
        throw r.error(label(tasks[i]), "runs on machine '" + m + "', which the workflow's machines do not list");
      dag.tasks[i].processor = processor.emplace(m, static_cast<int>(processor.size())).first->second;
      if (dag.tasks[i].processor > max_processor) throw r.error(label(tasks[i]), "more machines than processors allowed");
    }
  } else {
    if (tasks.size() > static_cast<std::size_t>(max_processor) + 1)
      throw InputError(source, std::to_string(tasks.size()) + " tasks, one per processor, are more than " +
                                   std::to_string(max_processor + 1) + " processors", "give a mapping file");
    for (std::size_t i = 0; i < tasks.size(); ++i) dag.tasks[i].processor = static_cast<int>(i);
  }
  return build_custom(dag, source);
}

Structure read_wfformat(const std::string& path, const TaskGraphOptions& options) {
  Structure s = parse_wfformat(read_text_file(path, "graph file"), path, options);
  s.name = path;
  return s;
}

}  // namespace hetstruct::structures
