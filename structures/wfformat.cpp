// WfCommons' WfFormat JSON (github.com/wfcommons/WfFormat), read with nlohmann-json.
//
// 1.5 and later: workflow.specification.tasks[] {id, name, parents, children, inputFiles,
// outputFiles}, workflow.specification.files[] {id, sizeInBytes} (optional), workflow.execution
// {makespanInSeconds, tasks[] {id, runtimeInSeconds, machines, coreCount, executedAt}, machines[]
// {nodeName, cpu {coreCount}}}.
// 1.0 to 1.4: workflow {makespan or makespanInSeconds, tasks[] (jobs[] up to 1.2) {name, id,
// runtimeInSeconds or runtime, parents, children, files[] {name or id, sizeInBytes or size, link:
// input | output}, machine, cores}, machines[] {nodeName, cpu {count}}}; no task start times.
// Fields read nowhere: CPU speeds (a recorded runtime is the task's time on the machine it ran on),
// memory, energy, bytes read and written, priorities, commands.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "distributions/input_error.h"
#include "distributions/law.h"
#include "structures/custom.h"
#include "structures/task_graphs.h"

namespace hetstruct::structures {

namespace {

using json = nlohmann::json;

// nlohmann's parser keeps its own stack, but a value nested thousands deep is no workflow: refuse
// it before parsing, skipping strings.
constexpr int max_json_nesting = 64;

void check_json_nesting(const std::string& text, const std::string& source) {
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
      if (++depth > max_json_nesting)
        throw InputError(source, "JSON nested more than " + std::to_string(max_json_nesting) + " deep", "a WfFormat file is not");
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
  InputError error(const std::string& where, const std::string& problem, const std::string& hint = {}) const {
    return InputError(source_ + ": " + where, problem, hint);
  }
  const std::string& source() const { return source_; }

 private:
  std::string source_;
};

// A count of cores: a whole number from 1 to max_cores (WfFormat allows a task a fractional
// coreCount; a task here takes whole cores, so 1.5 is refused rather than rounded).
int cores(const Reader& r, const json& value, const std::string& where) {
  if (!value.is_number()) throw r.error(where, std::string("is a JSON ") + value.type_name() + ", not a number");
  const double x = value.get<double>();
  if (!(x >= 1.0) || x != std::floor(x) || x > static_cast<double>(max_cores))
    throw r.error(where, "must be a whole number of cores from 1 to " + std::to_string(max_cores) +
                             ", got " + value.dump());
  return static_cast<int>(x);
}

// An ISO 8601 date-time, as WfFormat 1.5 records a task's start (executedAt):
// 2024-01-31T12:00:00Z, with an optional fraction of a second and an offset Z, +HH:MM, +HHMM or
// +HH (none: read as UTC), or the basic form 20240131T120000Z. Seconds since 1970-01-01 UTC;
// nothing when the text is not one (a bad month, day, hour, ... included).
std::optional<double> parse_date_time(const std::string& s) {
  std::size_t i = 0;
  const auto digits = [&](std::size_t count, int& out) {
    out = 0;
    for (std::size_t k = 0; k < count; ++k, ++i) {
      if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
      out = out * 10 + (s[i] - '0');
    }
    return true;
  };
  const auto skip = [&](char c) {
    if (i >= s.size() || s[i] != c) return false;
    ++i;
    return true;
  };
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(4, year)) return {};
  const bool extended = skip('-');  // the separators, all or none
  if (!digits(2, month) || (extended && !skip('-')) || !digits(2, day)) return {};
  if (!skip('T') && !skip('t') && !skip(' ')) return {};
  if (!digits(2, hour) || (extended && !skip(':')) || !digits(2, minute) || (extended && !skip(':')) || !digits(2, second))
    return {};
  double fraction = 0.0;
  if (skip('.') || skip(',')) {
    const std::size_t first = i;
    for (double scale = 0.1; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10) fraction += (s[i] - '0') * scale;
    if (i == first) return {};
  }
  int offset = 0;
  if (skip('Z') || skip('z')) {
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    const int sign = s[i++] == '-' ? -1 : 1;
    int hours = 0, minutes = 0;
    if (!digits(2, hours)) return {};
    if (i < s.size()) {
      skip(':');
      if (!digits(2, minutes)) return {};
    }
    if (hours > 23 || minutes > 59) return {};
    offset = sign * (hours * 3600 + minutes * 60);
  }
  if (i != s.size()) return {};
  const std::chrono::year_month_day date{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60) return {};  // 60: a leap second
  const double days = static_cast<double>(std::chrono::sys_days{date}.time_since_epoch().count());
  return days * 86400.0 + hour * 3600.0 + minute * 60.0 + second + fraction - offset;
}

// One task as either layout gives it.
struct WfTask {
  std::string id, name;
  std::vector<std::string> parents, children, inputs, outputs, machines;
  std::optional<double> runtime;
  std::optional<double> started;  // its recorded start, seconds since 1970 (executedAt)
  int cores = 1;
  std::string category;             // its `category`, where the trace gives one
  std::optional<distributions::Law> law;  // its `law` (hetstruct's law syntax), where given
};

std::string label(const WfTask& t) { return "task '" + t.id + "'"; }

// Both layouts: a runtime in seconds, machines as a list or a single name, the cores the task took
// (coreCount; cores before 1.5) and its start (executedAt; before 1.5 the schema records none).
void read_execution(const Reader& r, const json& task, const std::string& where, WfTask& t) {
  if (const json* runtime = r.member(task, "runtimeInSeconds")) t.runtime = r.number(*runtime, where + " runtimeInSeconds");
  else if (const json* old = r.member(task, "runtime")) t.runtime = r.number(*old, where + " runtime");
  if (const json* machines = r.member(task, "machines")) t.machines = r.strings(*machines, where + " machines");
  else if (const json* machine = r.member(task, "machine")) t.machines = {r.string(*machine, where + " machine")};
  if (const json* count = r.member(task, "coreCount")) t.cores = cores(r, *count, where + " coreCount");
  else if (const json* old = r.member(task, "cores")) t.cores = cores(r, *old, where + " cores");
  if (const json* category = r.member(task, "category")) t.category = r.string(*category, where + " category");
  if (const json* law = r.member(task, "law")) {
    const std::string text = r.string(*law, where + " law");
    try {
      t.law = distributions::parse_law(text);
    } catch (const InputError& e) {
      throw r.error(where + " law", e.what());
    }
  }
  if (const json* at = r.member(task, "executedAt")) {
    const std::string text = r.string(*at, where + " executedAt");
    t.started = parse_date_time(text);
    if (!t.started)
      throw r.error(where + " executedAt", "'" + text + "' is not an ISO 8601 date-time",
                    "such as 2024-01-31T12:00:00Z or 2024-01-31T12:00:00.25+01:00");
  }
}

struct Machine {
  std::string name;
  std::optional<int> cores;  // cpu.coreCount (cpu.count before 1.5)
};

std::vector<Machine> read_machines(const Reader& r, const json* machines, const std::string& where) {
  std::vector<Machine> out;
  if (!machines) return out;
  for (const auto& m : r.array(*machines, where)) {
    r.object(m, where + " entry");
    Machine machine{r.string(r.required(m, "nodeName", where + " entry"), where + " nodeName"), std::nullopt};
    if (const json* cpu = r.member(m, "cpu")) {
      const std::string at = "machine '" + machine.name + "' cpu";
      r.object(*cpu, at);
      if (const json* count = r.member(*cpu, "coreCount")) machine.cores = cores(r, *count, at + ".coreCount");
      else if (const json* old = r.member(*cpu, "count")) machine.cores = cores(r, *old, at + ".count");
    }
    out.push_back(std::move(machine));
  }
  return out;
}

using Arc = std::pair<std::size_t, std::size_t>;


}  // namespace

namespace {

Structure parse_trace(const std::string& text, const std::string& source, const TaskGraphOptions& options,
                      std::vector<WfRun>* runs) {
  validate(options.law);
  validate_bandwidth(options.bandwidth);
  check_json_nesting(text, source);
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
  std::vector<Machine> declared_machines;
  std::map<std::string, std::map<std::string, double>> written;  // old layout: task -> file -> bytes
  CustomDag dag;
  // A schema this reader was not written for is read by the layout it has, and said.
  if (const json* version = r.member(root, "schemaVersion")) {
    const std::string v = version->is_string() ? version->get<std::string>() : version->dump();
    static const std::set<std::string> known = {"1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6"};
    if (!known.count(v))
      dag.notes.push_back(source + ": schemaVersion '" + v.substr(0, 40) + "' is not one this reader knows (1.0 to 1.6): read " +
                          "by the layout it has (" + (r.member(workflow, "specification") ? "1.5's" : "the older one") + ")");
  }
  const json* specification = r.member(workflow, "specification");
  if (specification) {
    r.object(*specification, "workflow.specification");
    for (const auto& task : r.array(r.required(*specification, "tasks", "workflow.specification"), "workflow.specification.tasks")) {
      const std::string where = "workflow.specification.tasks[" + std::to_string(tasks.size()) + "]";
      r.object(task, where);
      WfTask t;
      t.id = r.string(r.required(task, "id", where), where + " id");
      if (const json* name = r.member(task, "name")) t.name = r.string(*name, where + " name");
      if (const json* category = r.member(task, "category")) t.category = r.string(*category, where + " category");
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
      if (const json* makespan = r.member(*execution, "makespanInSeconds"))
        dag.recorded_makespan = r.number(*makespan, "workflow.execution.makespanInSeconds");
      const json& executed = r.array(r.required(*execution, "tasks", "workflow.execution"), "workflow.execution.tasks");
      // One record a task: a second would silently replace the first's runtime and machine.
      std::map<std::string, std::size_t> recorded_at;
      for (std::size_t i = 0; i < executed.size(); ++i) {
        const std::string where = "workflow.execution.tasks[" + std::to_string(i) + "]";
        r.object(executed[i], where);
        const std::string id = r.string(r.required(executed[i], "id", where), where + " id");
        const auto it = by_id.find(id);
        if (it == by_id.end()) throw r.error(where, "names task '" + id + "', which workflow.specification.tasks does not list");
        if (const auto [first, fresh] = recorded_at.emplace(id, i); !fresh)
          throw r.error(where, "records task '" + id + "' a second time (first at workflow.execution.tasks[" +
                                   std::to_string(first->second) + "])",
                        "give each task one execution record");
        read_execution(r, executed[i], "task '" + id + "'", tasks[it->second]);
      }
      declared_machines = read_machines(r, r.member(*execution, "machines"), "workflow.execution.machines");
    }
  } else {
    const json* list = r.member(workflow, "tasks");
    const char* key = "workflow.tasks";
    if (!list && (list = r.member(workflow, "jobs"))) key = "workflow.jobs";
    if (!list) throw r.error("workflow", "has neither 'specification' (WfFormat 1.5 and later) nor 'tasks' (before 1.5)");
    if (const json* makespan = r.member(workflow, "makespanInSeconds"))
      dag.recorded_makespan = r.number(*makespan, "workflow.makespanInSeconds");
    else if (const json* old = r.member(workflow, "makespan"))
      dag.recorded_makespan = r.number(*old, "workflow.makespan");
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
    declared_machines = read_machines(r, r.member(workflow, "machines"), "workflow.machines");
  }
  if (tasks.empty()) throw InputError(source, "the workflow has no tasks");

  // Tasks, with their names as given; edges from both parents and children, each once, in file order.
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
    if (!t.runtime && !t.law) throw r.error(label(t), "has no runtimeInSeconds");
    if (runs && t.runtime) runs->push_back({t.id, t.name, t.category, t.machines.empty() ? "" : t.machines[0], *t.runtime});
    CustomTask task;
    task.name = t.id;
    task.cores = t.cores;
    try {
      task.law = dag.law_index(t.law ? *t.law : task_law(*t.runtime, options.law));
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
      if (options.bandwidth) {
        // The bytes the parent writes and the child reads. A file's size matters only here: a
        // file the files list lacks is fine without a bandwidth.
        const auto& parent = tasks[arc.first];
        const std::set<std::string> reads(tasks[arc.second].inputs.begin(), tasks[arc.second].inputs.end());
        std::set<std::string> counted;
        double bytes = 0.0;
        for (const auto& f : parent.outputs)
          if (reads.count(f) && counted.insert(f).second) {
            const auto own = written.find(parent.id);
            if (own != written.end() && own->second.count(f)) {
              bytes += own->second.at(f);
            } else if (const auto size = file_bytes.find(f); size != file_bytes.end()) {
              bytes += size->second;
            } else {
              throw r.error(label(parent), "file '" + f + "', which it writes and task '" + tasks[arc.second].id +
                                               "' reads, has no size (workflow.specification.files does not list it)",
                            "the bandwidth needs the size of every file an edge carries; leave the bandwidth out "
                            "to give edges the communication cost (comm_cost)");
            }
          }
        e.comm_law = dag.law_index(distributions::Law::constant(bytes / *options.bandwidth));
      }
      dag.edges.push_back(e);
    }
  }

  // A makespan of 0 is what generated instances record for "not measured": nothing to compare with.
  if (dag.recorded_makespan && *dag.recorded_makespan == 0.0) {
    dag.recorded_makespan.reset();
    dag.notes.push_back(source + ": the trace records a makespan of 0, taken as not recorded");
  }

  // Processors: the mapping file (its processors have one core, and each task takes one), or a
  // schedule's processors' scales (the same), else the machines the tasks ran on (a schedule
  // without scales places the tasks on them, with their cores), else one per task.
  const bool scheduled_here = options.schedule && options.schedule->scales.empty() && options.mapping.empty() && !options.one_per_task;
  if (!scheduled_here && (!options.mapping.empty() || options.schedule || options.one_per_task)) {
    for (auto& t : dag.tasks) t.cores = 1;
    return build_placed(std::move(dag), options, source, {}, false);
  }
  // Numbered: the listed machines that ran tasks, in the list's order; then machines the list
  // lacks, in the order the tasks first name them; then one processor for each task that names
  // none, in the file's order. A task that names several machines runs on the first.
  std::map<std::string, const Machine*> listed;
  for (const auto& m : declared_machines) listed.emplace(m.name, &m);
  std::set<std::string> used;
  for (const auto& t : tasks)
    if (!t.machines.empty()) used.insert(t.machines.front());
  std::map<std::string, int> processor;
  std::vector<std::string> processor_machine;  // empty for a task's own processor
  const auto add = [&](const std::string& machine, const std::string& what) {
    if (processor_machine.size() >= static_cast<std::size_t>(max_made_processors))
      throw InputError(source, what + " makes more than " + std::to_string(max_made_processors) + " processors",
                       "give a mapping file");
    processor_machine.push_back(machine);
    return static_cast<int>(processor_machine.size() - 1);
  };
  for (const auto& m : declared_machines)
    if (used.count(m.name) && !processor.count(m.name)) processor.emplace(m.name, add(m.name, "machine '" + m.name + "'"));
  for (const auto& t : tasks)
    if (!t.machines.empty() && !processor.count(t.machines.front()))
      processor.emplace(t.machines.front(), add(t.machines.front(), "machine '" + t.machines.front() + "'"));
  for (std::size_t i = 0; i < tasks.size(); ++i)
    dag.tasks[i].processor = tasks[i].machines.empty() ? add("", label(tasks[i]) + ", on a processor of its own,")
                                                       : processor.at(tasks[i].machines.front());
  // Cores: the machine's cpu.coreCount; when the trace gives none (an unlisted machine, a task's
  // own processor), as many as its largest task takes. A task may not take more cores than its
  // machine has.
  dag.processor_cores.assign(processor_machine.size(), 0);
  for (std::size_t p = 0; p < processor_machine.size(); ++p)
    if (const auto it = listed.find(processor_machine[p]); it != listed.end() && it->second->cores)
      dag.processor_cores[p] = *it->second->cores;
  std::vector<bool> known(processor_machine.size());
  for (std::size_t p = 0; p < known.size(); ++p) known[p] = dag.processor_cores[p] > 0;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const auto p = static_cast<std::size_t>(dag.tasks[i].processor);
    if (!known[p]) {
      dag.processor_cores[p] = std::max(dag.processor_cores[p], tasks[i].cores);
    } else if (tasks[i].cores > dag.processor_cores[p]) {
      throw r.error(label(tasks[i]), "takes " + std::to_string(tasks[i].cores) + " cores, but machine '" +
                                         processor_machine[p] + "' has " + std::to_string(dag.processor_cores[p]),
                    "a task's coreCount is at most its machine's cpu.coreCount");
    }
  }
  // Machines of unknown cores that ran several tasks may have run them at once: say what is assumed.
  std::vector<std::size_t> ran(processor_machine.size(), 0);
  for (const auto& t : dag.tasks) ++ran[static_cast<std::size_t>(t.processor)];
  std::vector<std::size_t> unknown;
  for (std::size_t p = 0; p < known.size(); ++p)
    if (!known[p] && ran[p] > 1 && !processor_machine[p].empty()) unknown.push_back(p);
  if (!unknown.empty()) {
    const std::string& first = processor_machine[unknown.front()];
    dag.notes.push_back(source + ": no cpu.coreCount for " +
                        (unknown.size() == 1 ? "machine '" + first + "'"
                                             : std::to_string(unknown.size()) + " machines ('" + first + "' first)") +
                        ", which ran several tasks: each runs as many at once as its largest task's cores (" +
                        std::to_string(dag.processor_cores[unknown.front()]) + " for '" + first + "'); the processors' cores (processor_cores) set them");
  }
  if (scheduled_here) return build_placed(std::move(dag), options, source, {}, true);
  // Each machine's tasks in the order they ran, by their recorded starts, when every task of the
  // machine has one (ties in the topological order); else the trace states no order (its listing
  // means nothing) and the machine dispatches its tasks as they become ready. Starts are compared
  // only within one machine, so clocks that disagree between machines do no harm; starts that
  // contradict the precedences (one machine's order closing a cycle through the edges) are set
  // aside on every machine. Under dispatch ordered, a machine without starts runs its tasks in the
  // topological order closest to the file's.
  dag.dispatch = options.dispatch;
  dag.listing_is_order = false;
  dag.unordered = "the trace records no start times";
  std::vector<Arc> arcs;
  for (const auto& e : dag.edges) arcs.emplace_back(e.from, e.to);
  const auto topological = file_topological_order(tasks.size(), arcs);
  const bool ordered = options.dispatch == Dispatch::ordered;
  if (topological.size() == tasks.size() && options.dispatch != Dispatch::ready) {  // else a cycle, which build_custom names
    std::vector<std::vector<std::size_t>> on(processor_machine.size());
    for (const std::size_t v : topological) on[static_cast<std::size_t>(dag.tasks[v].processor)].push_back(v);
    for (auto& list : on) {
      const bool started = std::all_of(list.begin(), list.end(), [&](std::size_t v) { return tasks[v].started.has_value(); });
      if (!started && !ordered) continue;
      if (started)
        std::stable_sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) { return *tasks[a].started < *tasks[b].started; });
      for (std::size_t k = 0; k < list.size(); ++k) {
        dag.tasks[list[k]].order = static_cast<double>(k);
        if (k > 0) arcs.emplace_back(list[k - 1], list[k]);
      }
    }
    if (file_topological_order(tasks.size(), arcs).size() != tasks.size()) {
      for (auto& t : dag.tasks) t.order.reset();
      if (ordered) {
        for (std::size_t k = 0; k < topological.size(); ++k) dag.tasks[topological[k]].order = static_cast<double>(k);
        dag.notes.push_back(source + ": the recorded start times contradict the precedences on some machine: every "
                            "machine runs its tasks in a topological order of the file instead");
      } else {
        dag.unordered = "the recorded start times contradict the precedences";
        dag.notes.push_back(source + ": the recorded start times contradict the precedences on some machine: every "
                            "machine dispatches its tasks as they become ready instead");
      }
    }
  }
  return build_custom(dag, source);
}

}  // namespace

Structure parse_wfformat(const std::string& text, const std::string& source, const TaskGraphOptions& options) {
  return parse_trace(text, source, options, nullptr);
}

std::vector<WfRun> read_wfformat_runs(const std::string& path) {
  std::vector<WfRun> runs;
  parse_trace(read_text_file(path, "graph file"), path, {}, &runs);
  return runs;
}

std::string wfformat_with_laws(const std::string& path, const std::map<std::string, std::string>& laws) {
  json root = json::parse(read_text_file(path, "graph file"));  // read_wfformat_runs has read it
  json& workflow = root["workflow"];
  json* tasks = nullptr;
  if (workflow.contains("specification") && workflow.contains("execution")) tasks = &workflow["execution"]["tasks"];
  else if (workflow.contains("tasks")) tasks = &workflow["tasks"];
  else if (workflow.contains("jobs")) tasks = &workflow["jobs"];
  if (tasks)
    for (auto& task : *tasks) {
      const std::string id = task.contains("id") ? task["id"].get<std::string>() : task["name"].get<std::string>();
      if (const auto it = laws.find(id); it != laws.end()) task["law"] = it->second;
    }
  return root.dump(1) + "\n";
}

Structure read_wfformat(const std::string& path, const TaskGraphOptions& options) {
  Structure s = parse_wfformat(read_text_file(path, "graph file"), path, options);
  s.name = path;
  return s;
}

}  // namespace hetstruct::structures
