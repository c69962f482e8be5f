// A second independent simulation of ready dispatch (issue 38), on SimGrid's clock: it reads a
// WfFormat trace and runs the first-come-first-served rule of docs/graphs.md ("Dispatch: stated
// order or work-conserving", "WfFormat") at the trace's constant runtimes and communication 0,
// every task an Exec on a SimGrid host, and prints the makespan with 17 significant digits.
//
//   simgrid_fcfs TRACE.json [--verbose] [--host-per-core] [--cfg=...]
//
// Exit status: 0 done, 2 the trace is refused (one line on stderr says why), 1 usage.
//
// The reader is written from the documented rules, not from structures/wfformat.cpp nor from
// tests/reference/fcfs_wfformat.py, so that the three (hetstruct, the Python reference, this)
// can only agree by each following the text.
//
// The platform: one host per processor, of the processor's cores, each core 1 flop/s (so a task
// of runtime r is an Exec of r flops, and r flops over 1 flop/s is r exactly), no links (no
// communication). SimGrid's CPU model (Cas01) shares a host among its running executions, a
// single-threaded Exec taking at most one core's speed; so the queue is this program's, not
// SimGrid's: one dispatcher actor keeps each host's FIFO of ready tasks and the count of its free
// cores, starts a queue's head while its cores fit in the free ones, holding them until it ends,
// and runs it as one single-threaded Exec. A host then never runs more Execs than it has cores,
// so each Exec runs at exactly one core's speed whatever else runs on the host, and the time
// SimGrid gives it is its runtime (Exec::set_thread_count would make the timing of a task of c
// cores depend on how Cas01 bounds a multi-threaded action; the core tokens keep that out). Each
// Exec is made by this_actor::exec_init(flops)->set_host(host): in 3.32 Host::exec_async(flops)
// ran every Exec on the dispatcher's own host (three independent tasks of 1, 2 and 3 s on three
// hosts ended at 3, 5 and 6 s).
//
// How close SimGrid's times come: on a host running several Execs, Cas01 (cpu/optim:Lazy, the
// default) updates an Exec's remaining work at every start and finish on the host (runtime less
// rate x elapsed), so a finish can land a few units in the last place from start + runtime: up to
// 4 on the 167 WfInstances traces (5.94e-16 relative on srasearch-chameleon-50a-005;
// cpu/optim:Full, which updates at every event anywhere, gives up to 7.2e-15). --host-per-core
// makes each core a host of its own (a task takes the lowest-numbered free cores of its processor
// and runs on the first), so no Exec shares a host and its remaining work is never updated: the
// makespans are then bit-identical to hetstruct's and the Python reference's on the 167 traces,
// SimGrid's clock (moved by the difference to the next event) rounding once more on one of 200
// random traces (1.12e-16). The rule is the same in both modes; the cores are the dispatcher's.
//
// The batch rule: the dispatcher waits for any running Exec to finish (Exec::wait_any), then takes
// in every other Exec that finished at that instant (Exec::test, which does not move the clock)
// before it starts anything; an Exec of 0 flops started at an instant finishes at a later
// scheduling round of that instant, so it forms a later batch, as the rule says.
//
// Precision (SimGrid 3.32's names): surf/precision (default 1e-9 s) is the timing precision, an
// action whose remaining time is below it being done, and maxmin/precision (default 1e-5) the
// solver's, whose product with the first rounds a remaining amount of work to zero. The defaults
// would take finishes less than 1e-9 s apart as one instant. This program sets maxmin/precision to
// 1e-300 (nothing rounded in the solver) and surf/precision to 8 units in the last place of the sum
// of the runtimes, a bound on every clock value (some task runs at every instant before the end):
// the tightest that works, since a task's remaining work is its runtime less the products
// rate x elapsed of every update on its host, which leaves a residue of a few units in the last
// place of the clock; with surf/precision below one unit of the clock's last place that residue
// never ends (srasearch-chameleon-30a-001 deadlocks at 31.882 s with 1e-15, where one unit is
// 7.1e-15). Command-line --cfg=... settings come after these and win.

#include <simgrid/s4u.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;
using nlohmann::json;

namespace {

// A refusal: the trace is not one the documented rules read (exit status 2).
struct Refused {
  std::string what;
};

// The trace as the rules make it: tasks in the listing order, each with its runtime, cores,
// processor and parents; processors with their cores.
struct Trace {
  std::vector<std::string> name;
  std::vector<double> runtime;
  std::vector<int> cores;
  std::vector<int> processor;
  std::vector<std::vector<int>> children;
  std::vector<int> parent_count;
  std::vector<int> processor_cores;
};

const json* field(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

// The first of two keys an object holds (null counts as absent).
const json* either(const json& object, const char* key, const char* other) {
  const json* value = field(object, key);
  return value != nullptr ? value : field(object, other);
}

double number(const json& value, const std::string& what) {
  if (!value.is_number()) throw Refused{what + ": not a number (" + value.dump() + ")"};
  double x = value.get<double>();
  if (!std::isfinite(x)) throw Refused{what + ": not finite"};
  return x;
}

// A count: a whole number of at least 1, given as an integer or a float that states one.
int whole(const json& value, const std::string& what) {
  double x = number(value, what);
  if (x != std::floor(x)) throw Refused{what + ": " + value.dump() + " is not a whole number"};
  if (x < 1) throw Refused{what + ": " + value.dump() + " is below 1"};
  if (x > 65536) throw Refused{what + ": " + value.dump() + " is more cores than a processor has"};
  return static_cast<int>(x);
}

std::string machine_name(const json& entry, const std::string& what) {
  const json* name = entry.is_object() ? field(entry, "nodeName") : &entry;
  if (name == nullptr || !name->is_string())
    throw Refused{what + ": a machine that is not a name (" + entry.dump() + ")"};
  return name->get<std::string>();
}

Trace read_trace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Refused{"cannot open the file"};
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    throw Refused{std::string("cannot read JSON: ") + e.what()};
  }
  const json* workflow = field(doc, "workflow");
  if (workflow == nullptr || !workflow->is_object()) throw Refused{"no 'workflow' object"};

  // One record a task: its key (id, else name), its specification (parents, children) and its
  // execution record (runtime, cores, machines), which in the older layouts is the same object.
  struct Record {
    std::string key;
    const json* spec;
    const json* run;
  };
  std::vector<Record> records;
  const json* machines = nullptr;
  static const json empty = json::object();
  const json* specification = field(*workflow, "specification");
  if (specification != nullptr && specification->is_object()) {
    const json* listing = field(*specification, "tasks");
    if (listing == nullptr || !listing->is_array())
      throw Refused{"workflow.specification.tasks is not a list"};
    const json* execution = field(*workflow, "execution");
    if (execution == nullptr || !execution->is_object())
      throw Refused{"a specification without execution (no runtimes)"};
    const json* runs = field(*execution, "tasks");
    if (runs == nullptr || !runs->is_array()) throw Refused{"workflow.execution.tasks is not a list"};
    std::map<std::string, const json*> run_of;
    for (const json& run : *runs) {
      const json* id = field(run, "id");
      if (id != nullptr && id->is_string()) run_of.emplace(id->get<std::string>(), &run);
    }
    machines = field(*execution, "machines");
    for (std::size_t k = 0; k < listing->size(); ++k) {
      const json& task = (*listing)[k];
      if (!task.is_object()) throw Refused{"task #" + std::to_string(k) + ": not an object"};
      const json* key = either(task, "id", "name");
      if (key == nullptr || !key->is_string()) throw Refused{"task #" + std::to_string(k) + ": no id"};
      auto it = run_of.find(key->get<std::string>());
      records.push_back({key->get<std::string>(), &task, it == run_of.end() ? &empty : it->second});
    }
  } else {
    const json* listing = either(*workflow, "tasks", "jobs");
    if (listing == nullptr || !listing->is_array())
      throw Refused{"no workflow.tasks, workflow.jobs or workflow.specification"};
    machines = field(*workflow, "machines");
    for (std::size_t k = 0; k < listing->size(); ++k) {
      const json& task = (*listing)[k];
      if (!task.is_object()) throw Refused{"task #" + std::to_string(k) + ": not an object"};
      const json* key = either(task, "id", "name");
      if (key == nullptr || !key->is_string())
        throw Refused{"task #" + std::to_string(k) + ": no id or name"};
      records.push_back({key->get<std::string>(), &task, &task});
    }
  }
  const int n = static_cast<int>(records.size());
  if (n == 0) throw Refused{"no tasks"};

  // Tasks by key, and by name for the older traces whose tasks carry both and whose parents
  // name them by name (a name that several tasks share names none of them).
  std::map<std::string, int> by_key;
  std::map<std::string, std::vector<int>> by_name;
  for (int i = 0; i < n; ++i) {
    if (!by_key.emplace(records[i].key, i).second)
      throw Refused{"task '" + records[i].key + "' listed twice"};
    const json* name = field(*records[i].spec, "name");
    if (name != nullptr && name->is_string()) by_name[name->get<std::string>()].push_back(i);
  }
  auto resolve = [&](const json& ref, const std::string& who) {
    if (ref.is_string()) {
      auto key = by_key.find(ref.get<std::string>());
      if (key != by_key.end()) return key->second;
      auto name = by_name.find(ref.get<std::string>());
      if (name != by_name.end() && name->second.size() == 1) return name->second.front();
    }
    throw Refused{"task '" + who + "' names a missing task " + ref.dump()};
  };

  Trace trace;
  trace.name.resize(n);
  trace.runtime.resize(n);
  trace.cores.resize(n);
  std::vector<std::set<int>> parents(n), children(n);
  std::vector<std::optional<std::string>> machine(n);
  for (int i = 0; i < n; ++i) {
    const Record& r = records[i];
    const std::string& key = r.key;
    trace.name[i] = key;
    // The execution record first, then the specification (the same object before 1.5).
    auto look = [&](const char* a, const char* b) {
      const json* value = either(*r.run, a, b);
      return value != nullptr ? value : either(*r.spec, a, b);
    };
    const json* runtime = look("runtimeInSeconds", "runtime");
    if (runtime == nullptr) throw Refused{"task '" + key + "': no runtime"};
    trace.runtime[i] = number(*runtime, "task '" + key + "' runtime");
    if (trace.runtime[i] < 0) throw Refused{"task '" + key + "': a negative runtime"};
    const json* cores = look("coreCount", "cores");
    trace.cores[i] = cores == nullptr ? 1 : whole(*cores, "task '" + key + "' cores");
    const json* list = look("machines", "machines");
    if (list != nullptr && !list->is_array()) throw Refused{"task '" + key + "': machines is not a list"};
    if (list != nullptr && !list->empty()) {
      machine[i] = machine_name(list->front(), "task '" + key + "'");
    } else if (const json* one = look("machine", "machine"); one != nullptr) {
      machine[i] = machine_name(*one, "task '" + key + "'");
    }
    for (const char* which : {"parents", "children"}) {
      const json* refs = field(*r.spec, which);
      if (refs == nullptr) continue;
      if (!refs->is_array()) throw Refused{"task '" + key + "': " + which + " is not a list"};
      for (const json& ref : *refs) {
        int j = resolve(ref, key);
        if (j == i) throw Refused{"task '" + key + "' is its own " + std::string(which)};
        bool mine = std::string(which) == "parents";
        int parent = mine ? j : i, child = mine ? i : j;
        parents[child].insert(parent);
        children[parent].insert(child);
      }
    }
  }

  // Processors: the listed machines that ran tasks in the list's order, then machines the list
  // lacks in the order tasks first name them, then one of its own for each task naming none.
  std::vector<std::string> listed;
  std::map<std::string, std::optional<int>> listed_cores;
  if (machines != nullptr && machines->is_array()) {
    for (const json& entry : *machines) {
      const json* name = field(entry, "nodeName");
      if (name == nullptr || !name->is_string()) continue;
      std::string m = name->get<std::string>();
      if (listed_cores.count(m) != 0) continue;
      listed.push_back(m);
      const json* cpu = field(entry, "cpu");
      const json* count = cpu != nullptr && cpu->is_object() ? either(*cpu, "coreCount", "count") : nullptr;
      listed_cores[m] = count == nullptr ? std::nullopt
                                         : std::optional<int>(whole(*count, "machine '" + m + "' cores"));
    }
  }
  std::set<std::string> used;
  for (const auto& m : machine)
    if (m) used.insert(*m);
  std::vector<std::optional<std::string>> processor_name;
  std::map<std::string, int> processor_of;
  for (const std::string& m : listed)
    if (used.count(m) != 0 && processor_of.emplace(m, static_cast<int>(processor_name.size())).second)
      processor_name.push_back(m);
  for (const auto& m : machine)
    if (m && processor_of.emplace(*m, static_cast<int>(processor_name.size())).second)
      processor_name.push_back(*m);
  trace.processor.resize(n);
  for (int i = 0; i < n; ++i) {
    if (machine[i]) {
      trace.processor[i] = processor_of.at(*machine[i]);
    } else {
      trace.processor[i] = static_cast<int>(processor_name.size());
      processor_name.emplace_back();
    }
  }
  const int p = static_cast<int>(processor_name.size());
  std::vector<int> largest(p, 0);
  for (int i = 0; i < n; ++i) largest[trace.processor[i]] = std::max(largest[trace.processor[i]], trace.cores[i]);
  trace.processor_cores.resize(p);
  for (int q = 0; q < p; ++q) {
    std::optional<int> given;
    if (processor_name[q]) {
      auto it = listed_cores.find(*processor_name[q]);
      if (it != listed_cores.end()) given = it->second;
    }
    trace.processor_cores[q] = given ? *given : largest[q];
  }
  for (int i = 0; i < n; ++i)
    if (trace.cores[i] > trace.processor_cores[trace.processor[i]])
      throw Refused{"task '" + trace.name[i] + "' takes " + std::to_string(trace.cores[i]) +
                    " cores, more than its machine has"};

  trace.children.resize(n);
  trace.parent_count.resize(n);
  for (int i = 0; i < n; ++i) {
    trace.children[i].assign(children[i].begin(), children[i].end());
    trace.parent_count[i] = static_cast<int>(parents[i].size());
  }
  return trace;
}

// The dispatcher's result: each task's start and finish on SimGrid's clock, or a cycle.
struct Outcome {
  std::vector<double> start, finish;
  int done = 0;
};

// The dispatcher actor: the queues, the free cores, the running Execs; see the file's comment.
// hosts[q]: processor q's one host of all its cores, or (--host-per-core) a host for each core, of
// which a task takes the lowest-numbered free ones and runs on the first.
void dispatcher(const Trace& trace, const std::vector<std::vector<sg4::Host*>>& hosts, Outcome& outcome) {
  const int n = static_cast<int>(trace.name.size());
  const int p = static_cast<int>(hosts.size());
  std::vector<std::set<int>> idle(p);
  for (int q = 0; q < p; ++q)
    for (int k = 0; k < static_cast<int>(hosts[q].size()); ++k) idle[q].insert(k);
  std::vector<std::vector<int>> held(n);
  std::vector<int> missing = trace.parent_count;
  std::vector<int> free_cores = trace.processor_cores;
  std::vector<std::deque<int>> queue(p);
  std::vector<sg4::ExecPtr> running;
  std::vector<int> running_task;
  outcome.start.assign(n, NAN);
  outcome.finish.assign(n, NAN);

  auto dispatch = [&](const std::set<int>& touched) {
    for (int q : touched) {
      while (!queue[q].empty() && trace.cores[queue[q].front()] <= free_cores[q]) {
        int i = queue[q].front();
        queue[q].pop_front();
        free_cores[q] -= trace.cores[i];
        sg4::Host* host = hosts[q].front();
        if (hosts[q].size() > 1) {
          for (int c = 0; c < trace.cores[i]; ++c) {
            held[i].push_back(*idle[q].begin());
            idle[q].erase(idle[q].begin());
          }
          host = hosts[q][held[i].front()];
        }
        outcome.start[i] = sg4::Engine::get_clock();
        running.push_back(sg4::this_actor::exec_init(trace.runtime[i])->set_host(host)->start());
        running_task.push_back(i);
      }
    }
  };

  std::set<int> touched;
  for (int i = 0; i < n; ++i)
    if (missing[i] == 0) {
      queue[trace.processor[i]].push_back(i);
      touched.insert(trace.processor[i]);
    }
  dispatch(touched);

  while (!running.empty()) {
    // The batch: the Exec that wait_any returns and every other already finished at this instant.
    std::vector<int> ending;
    auto take = [&](std::size_t k) {
      ending.push_back(running_task[k]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
      running_task.erase(running_task.begin() + static_cast<std::ptrdiff_t>(k));
    };
    take(static_cast<std::size_t>(sg4::Exec::wait_any(running)));
    for (std::size_t k = running.size(); k-- > 0;)
      if (running[k]->test()) take(k);
    const double now = sg4::Engine::get_clock();
    touched.clear();
    std::vector<int> ready;
    for (int i : ending) {
      outcome.finish[i] = now;
      ++outcome.done;
      free_cores[trace.processor[i]] += trace.cores[i];
      for (int k : held[i]) idle[trace.processor[i]].insert(k);
      touched.insert(trace.processor[i]);
      for (int c : trace.children[i])
        if (--missing[c] == 0) ready.push_back(c);
    }
    std::sort(ready.begin(), ready.end());  // ties within a batch: the listing order
    for (int c : ready) {
      queue[trace.processor[c]].push_back(c);
      touched.insert(trace.processor[c]);
    }
    dispatch(touched);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args;
  std::vector<char*> given;
  bool verbose = false;
  bool host_per_core = false;
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    if (a.rfind("--cfg=", 0) == 0 || a.rfind("--log=", 0) == 0) {
      given.push_back(argv[k]);
    } else if (a == "-v" || a == "--verbose") {
      verbose = true;
    } else if (a == "--host-per-core") {
      host_per_core = true;
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "usage: simgrid_fcfs TRACE.json [--verbose] [--host-per-core] [--cfg=...]\n";
      return 1;
    } else {
      args.push_back(a);
    }
  }
  if (args.size() != 1) {
    std::cerr << "usage: simgrid_fcfs TRACE.json [--verbose] [--host-per-core] [--cfg=...]\n";
    return 1;
  }
  Trace trace;
  try {
    trace = read_trace(args[0]);
  } catch (const Refused& r) {
    std::cerr << "simgrid_fcfs: " << args[0] << ": " << r.what << "\n";
    return 2;
  }

  // The precision (the file's comment says why), then the command line's settings.
  double bound = 1;
  for (double r : trace.runtime) bound += r;
  char timing_text[64];
  std::snprintf(timing_text, sizeof timing_text, "--cfg=surf/precision:%.17g",
                std::ldexp(8.0, std::ilogb(bound) - 52));
  std::string timing = timing_text;
  std::string work = "--cfg=maxmin/precision:1e-300";
  std::string quiet = "--log=root.thresh:critical";
  std::vector<char*> engine_args{argv[0], timing.data(), work.data(), quiet.data()};
  engine_args.insert(engine_args.end(), given.begin(), given.end());
  int engine_argc = static_cast<int>(engine_args.size());
  engine_args.push_back(nullptr);
  sg4::Engine engine(&engine_argc, engine_args.data());
  auto* zone = sg4::create_full_zone("trace");
  std::vector<std::vector<sg4::Host*>> hosts;
  for (std::size_t q = 0; q < trace.processor_cores.size(); ++q) {
    const std::string name = "p" + std::to_string(q);
    hosts.emplace_back();
    if (host_per_core) {
      for (int k = 0; k < trace.processor_cores[q]; ++k)
        hosts.back().push_back(zone->create_host(name + "c" + std::to_string(k), 1.0)->seal());
    } else {
      hosts.back().push_back(zone->create_host(name, 1.0)->set_core_count(trace.processor_cores[q])->seal());
    }
  }
  zone->seal();
  Outcome outcome;
  sg4::Actor::create("dispatcher", hosts.front().front(), [&] { dispatcher(trace, hosts, outcome); });
  engine.run();

  const int n = static_cast<int>(trace.name.size());
  if (outcome.done != n) {
    int first = 0;
    while (first < n && !std::isnan(outcome.finish[first])) ++first;
    std::cerr << "simgrid_fcfs: " << args[0] << ": the precedences close a cycle (" << n - outcome.done
              << " tasks never ready, '" << trace.name[first] << "' first)\n";
    return 2;
  }
  double makespan = 0;
  for (double f : outcome.finish) makespan = std::max(makespan, f);
  if (verbose) {
    for (int i = 0; i < n; ++i)
      std::printf("# %s p%d cores %d start %.17g finish %.17g\n", trace.name[i].c_str(), trace.processor[i],
                  trace.cores[i], outcome.start[i], outcome.finish[i]);
  }
  std::printf("%.17g\n", makespan);
  return 0;
}
