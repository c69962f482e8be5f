// The one builder of custom DAGs (structures/custom.h): every graph reader ends here.
#include "structures/custom.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <queue>
#include <set>
#include <sstream>

#include "distributions/input_error.h"

namespace hetstruct::structures {

namespace {

using Arc = std::pair<std::size_t, std::size_t>;

// Kahn's algorithm, smallest task index first. Returns the order; `indegree` is left > 0 exactly
// on the tasks that a cycle holds back.
std::vector<std::size_t> kahn(std::size_t n, const std::vector<Arc>& arcs, std::vector<std::size_t>& indegree) {
  std::vector<std::size_t> begin(n + 1, 0), next(arcs.size());
  indegree.assign(n, 0);
  for (const auto& [u, v] : arcs) {
    ++begin[u + 1];
    ++indegree[v];
  }
  for (std::size_t i = 0; i < n; ++i) begin[i + 1] += begin[i];
  std::vector<std::size_t> fill(begin.begin(), begin.end() - 1);
  for (const auto& [u, v] : arcs) next[fill[u]++] = v;
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (indegree[v] == 0) ready.push(v);
  std::vector<std::size_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    const std::size_t v = ready.top();
    ready.pop();
    order.push_back(v);
    for (std::size_t j = begin[v]; j < begin[v + 1]; ++j)
      if (--indegree[next[j]] == 0) ready.push(next[j]);
  }
  return order;
}

// After Kahn's algorithm stops short, the tasks left (indegree > 0) each have a predecessor that
// is left too. Walking back along such predecessors must repeat a task, and the walk from it to
// its repetition is a cycle. (The first task left may only lie downstream of a cycle.) Returns the
// cycle's tasks, starting at the smallest index.
std::vector<std::size_t> find_cycle(std::size_t n, const std::vector<Arc>& arcs, const std::vector<std::size_t>& indegree) {
  const std::size_t none = n;
  std::vector<std::size_t> back(n, none);  // the smallest predecessor left, of each task left
  for (const auto& [u, v] : arcs)
    if (indegree[u] > 0 && indegree[v] > 0 && (back[v] == none || u < back[v])) back[v] = u;
  std::size_t v = 0;
  while (indegree[v] == 0) ++v;
  std::vector<std::size_t> seen_at(n, none), walk;
  while (seen_at[v] == none) {
    seen_at[v] = walk.size();
    walk.push_back(v);
    v = back[v];
  }
  // The walk runs against the edges: reverse it, and start at the smallest task.
  std::vector<std::size_t> cycle(walk.begin() + static_cast<std::ptrdiff_t>(seen_at[v]), walk.end());
  std::reverse(cycle.begin(), cycle.end());
  std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
  return cycle;
}

std::string describe_cycle(const CustomDag& dag, const std::vector<std::size_t>& cycle) {
  constexpr std::size_t shown = 8;
  std::string text;
  for (std::size_t i = 0; i < cycle.size() && i < shown; ++i) text += "'" + dag.tasks[cycle[i]].name + "' -> ";
  if (cycle.size() > shown) text += "... (" + std::to_string(cycle.size()) + " vertices) -> ";
  return text + "'" + dag.tasks[cycle.front()].name + "'";
}

std::string format_order(double order) {
  std::ostringstream out;
  out << order;
  return out.str();
}

// Levels: the depth of each task (sources at 0) along the precedences, a processor's start order
// aside; the structure's levels are the longest chain.
void assign_levels(Structure& s) {
  PrecedenceGraph& g = s.custom_graph();
  const std::size_t n = boost::num_vertices(g);
  std::vector<Arc> arcs;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) arcs.emplace_back(boost::source(e, g), boost::target(e, g));
  std::vector<std::size_t> indegree;
  std::vector<int> depth(n, 0);
  for (const std::size_t v : kahn(n, arcs, indegree))
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      if (g[e].start_order) continue;
      const auto t = boost::target(e, g);
      depth[t] = std::max(depth[t], depth[v] + 1);
    }
  s.levels = 0;
  for (std::size_t v = 0; v < n; ++v) {
    g[v].level = depth[v];
    s.levels = std::max(s.levels, depth[v] + 1);
  }
}

int cores_of(const CustomDag& dag, int processor) {
  return dag.processor_cores.empty() ? 1 : dag.processor_cores[static_cast<std::size_t>(processor)];
}

// One core count per processor that runs a task, each within [1, max_cores]; each task's cores
// within its processor's.
void check_cores(const CustomDag& dag, int width, const std::string& source) {
  if (!dag.processor_cores.empty() && dag.processor_cores.size() != static_cast<std::size_t>(width))
    throw InputError(source, "the processors' cores are given for " + std::to_string(dag.processor_cores.size()) +
                                 " processors, but the tasks use processors 0 to " + std::to_string(width - 1),
                     "give one core count per processor");
  for (std::size_t p = 0; p < dag.processor_cores.size(); ++p)
    if (dag.processor_cores[p] < 1 || dag.processor_cores[p] > max_cores)
      throw InputError(source + ": processor " + std::to_string(p),
                       "has " + std::to_string(dag.processor_cores[p]) + " cores",
                       "a processor has 1 to " + std::to_string(max_cores) + " cores");
  for (const auto& t : dag.tasks) {
    if (t.cores < 1)
      throw InputError(source + ": task '" + t.name + "'", "takes " + std::to_string(t.cores) + " cores", "a task takes at least 1 core");
    if (t.cores > cores_of(dag, t.processor))
      throw InputError(source + ": task '" + t.name + "'",
                       "takes " + std::to_string(t.cores) + " cores, but its processor " + std::to_string(t.processor) +
                           " has " + std::to_string(cores_of(dag, t.processor)),
                       "map it to a processor with enough cores, or give its processor more");
  }
}

}  // namespace

void set_processor_cores(Structure& s, std::vector<int> cores, const std::string& where) {
  if (s.kind != StructureKind::custom) throw InputError(where, "cores apply to a graph's processors");
  CustomDag check;
  check.processor_cores = std::move(cores);
  const auto& g = s.graph();
  for (const auto v : boost::make_iterator_range(boost::vertices(g)))
    if (g[v].kind == TaskKind::compute) check.tasks.push_back({g[v].name, g[v].processor, 0, std::nullopt, g[v].cores, {}});
  // Processors beyond the tasks' run nothing: their cores change nothing.
  if (check.processor_cores.size() > static_cast<std::size_t>(s.width)) check.processor_cores.resize(static_cast<std::size_t>(s.width));
  check_cores(check, s.width, where);
  // A chain edge is a start order exactly where its processor has several cores.
  PrecedenceGraph& graph = s.custom_graph();
  for (const auto e : boost::make_iterator_range(boost::edges(graph))) {
    auto& edge = graph[e];
    if (edge.file_index != Precedence::not_a_file_edge) continue;
    edge.start_order = cores_of(check, graph[boost::source(e, graph)].processor) > 1;
  }
  s.processor_cores = std::move(check.processor_cores);
  assign_levels(s);
}

std::vector<std::size_t> file_topological_order(std::size_t n, const std::vector<Arc>& arcs) {
  std::vector<std::size_t> indegree;
  return kahn(n, arcs, indegree);
}

void check_acyclic(const CustomDag& dag, const std::vector<Arc>& arcs, const std::string& source) {
  std::vector<std::size_t> indegree;
  const std::size_t n = dag.tasks.size();
  if (kahn(n, arcs, indegree).size() != n)
    throw InputError(source, "the graph has a cycle: " + describe_cycle(dag, find_cycle(n, arcs, indegree)),
                     "a precedence graph must be acyclic");
}

int CustomDag::law_index(const distributions::Law& law) {
  const auto [it, added] = law_by_text_.try_emplace(law.to_string(), static_cast<int>(laws.size()));
  if (added) laws.push_back(law);
  return it->second;
}

std::string whole_digits(const std::string& text) {
  const auto dot = text.find('.');
  if (dot == std::string::npos || dot == 0) return text;
  if (!std::all_of(text.begin(), text.begin() + static_cast<long>(dot), [](char c) { return c >= '0' && c <= '9'; })) return text;
  if (!std::all_of(text.begin() + static_cast<long>(dot) + 1, text.end(), [](char c) { return c == '0'; })) return text;
  return text.substr(0, dot);
}

int parse_processor(const std::string& where, const std::string& given) {
  const std::string text = whole_digits(given);
  std::size_t used = 0;
  long value = -1;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < 0)
    throw InputError(where, "processor '" + text + "' is not a processor index", "use 0, 1, 2, ...");
  if (value > max_processor)
    throw InputError(where, "processor " + text + " is beyond the limit " + std::to_string(max_processor),
                     "number processors 0, 1, 2, ...");
  return static_cast<int>(value);
}

Structure build_custom(const CustomDag& dag, const std::string& source) {
  const std::size_t n = dag.tasks.size();
  if (n == 0) throw InputError(source, "the graph has no vertices");
  int width = 0;
  // Unrelated processors: each task's law is its processor's entry of its costs.
  const std::size_t cost_processors = dag.tasks.front().costs.size();
  std::vector<int> resolved_law(n);
  for (std::size_t v = 0; v < n; ++v) {
    const auto& t = dag.tasks[v];
    if (t.costs.size() != cost_processors)
      throw InputError(source + ": task '" + t.name + "'", "gives costs for " + std::to_string(t.costs.size()) +
                                                               " processors, but task '" + dag.tasks.front().name + "' for " +
                                                               std::to_string(cost_processors),
                       "give every task one time per processor, or none");
    if (cost_processors > 0 && t.processor < 0)
      throw InputError(source + ": task '" + t.name + "'", "has no processor",
                       "give processor=, a mapping file (mapping) or a schedule");
    // Indices read from a file stop at max_processor where they are read (parse_processor_index);
    // processors a reader made, one per task, go as far as the tasks.
    if (t.processor < 0 || t.processor > max_made_processors)
      throw InputError(source + ": task '" + t.name + "'", "processor " + std::to_string(t.processor) + " is out of range");
    if (cost_processors > 0 && static_cast<std::size_t>(t.processor) >= cost_processors)
      throw InputError(source + ": task '" + t.name + "'",
                       "processor " + std::to_string(t.processor) + " is not one of the " + std::to_string(cost_processors) +
                           " processors its costs give (0 to " + std::to_string(cost_processors - 1) + ")");
    resolved_law[v] = cost_processors > 0 ? t.costs[static_cast<std::size_t>(t.processor)] : t.law;
    if (resolved_law[v] < 0 || static_cast<std::size_t>(resolved_law[v]) >= dag.laws.size())
      throw InputError(source + ": task '" + t.name + "'", "has no law");
    width = std::max(width, t.processor + 1);
  }
  width = std::max(width, dag.machine_width);
  if (cost_processors > 0) {
    if (!dag.processor_scale.empty())
      throw InputError(source, "processor_scale does not apply to tasks with costs", "each task's costs give its time on each processor");
    width = static_cast<int>(cost_processors);  // the machine the costs describe, idle processors too
  }
  if (!dag.processor_scale.empty()) {
    if (dag.processor_scale.size() > static_cast<std::size_t>(width))
      throw InputError(source, "processor_scale gives " + std::to_string(dag.processor_scale.size()) +
                                   " processors, but the tasks use processors 0 to " + std::to_string(width - 1),
                       "give one scale per processor that runs a task");
    if (dag.processor_scale.size() < static_cast<std::size_t>(width))
      throw InputError(source, "processor_scale gives " + std::to_string(dag.processor_scale.size()) +
                                   " processors, but the tasks use processors 0 to " + std::to_string(width - 1),
                       "give one scale per processor");
    if (dag.processor_scale.size() > static_cast<std::size_t>(max_processor) + 1)
      throw InputError(source, "processor_scale gives more than " + std::to_string(max_processor + 1) + " processors");
    for (const double x : dag.processor_scale)
      if (!(x > 0.0) || !std::isfinite(x))
        throw InputError(source, "a processor scale must be a finite number > 0", "1 is a reference processor, 1/2 one twice as fast");
  }

  check_cores(dag, width, source);

  // The file's precedences: no duplicates, no cycle.
  std::vector<Arc> arcs;
  arcs.reserve(dag.edges.size() + n);
  std::set<Arc> linked;
  for (const auto& e : dag.edges) {
    if (e.from >= n || e.to >= n) throw InputError(source, "an edge names a task that does not exist");
    if (e.comm_law < -1 || (e.comm_law >= 0 && static_cast<std::size_t>(e.comm_law) >= dag.laws.size()))
      throw InputError(source, "an edge's communication law does not exist");
    if (!linked.insert({e.from, e.to}).second)
      throw InputError(source, "the edge '" + dag.tasks[e.from].name + "' -> '" + dag.tasks[e.to].name + "' is given twice",
                       "give each precedence once");
    arcs.emplace_back(e.from, e.to);
  }
  check_acyclic(dag, arcs, source);

  // Each processor's tasks in the user's order: explicit orders, else the file's; none on a
  // processor of ready dispatch.
  std::vector<std::vector<std::size_t>> on(static_cast<std::size_t>(width));
  for (std::size_t v = 0; v < n; ++v) on[static_cast<std::size_t>(dag.tasks[v].processor)].push_back(v);
  std::vector<Dispatch> dispatch(static_cast<std::size_t>(width), Dispatch::ordered);
  for (std::size_t p = 0; p < on.size(); ++p) {
    const bool stated = dag.listing_is_order ||
                        std::any_of(on[p].begin(), on[p].end(), [&](std::size_t v) { return dag.tasks[v].order.has_value(); });
    dispatch[p] = dag.dispatch.value_or(stated ? Dispatch::ordered : Dispatch::ready);
  }
  const std::size_t file_arcs = arcs.size();
  for (std::size_t p = 0; p < on.size(); ++p) {
    auto& tasks = on[p];
    if (tasks.empty() || dispatch[p] == Dispatch::ready) continue;
    const auto ordered = [&](std::size_t v) { return dag.tasks[v].order.has_value(); };
    const auto first_ordered = std::find_if(tasks.begin(), tasks.end(), ordered);
    if (first_ordered != tasks.end()) {
      const auto unordered = std::find_if_not(tasks.begin(), tasks.end(), ordered);
      if (unordered != tasks.end())
        throw InputError(source + ": processor " + std::to_string(p),
                         "task '" + dag.tasks[*first_ordered].name + "' has an order but task '" +
                             dag.tasks[*unordered].name + "' has none",
                         "give every task of a processor an order, or none");
      std::stable_sort(tasks.begin(), tasks.end(), [&](std::size_t a, std::size_t b) { return *dag.tasks[a].order < *dag.tasks[b].order; });
      for (std::size_t i = 1; i < tasks.size(); ++i)
        if (*dag.tasks[tasks[i - 1]].order == *dag.tasks[tasks[i]].order)
          throw InputError(source + ": processor " + std::to_string(p),
                           "tasks '" + dag.tasks[tasks[i - 1]].name + "' and '" + dag.tasks[tasks[i]].name +
                               "' have the same order " + format_order(*dag.tasks[tasks[i]].order),
                           "give the tasks of a processor distinct orders");
    }
    for (std::size_t i = 1; i < tasks.size(); ++i)
      if (!linked.count({tasks[i - 1], tasks[i]})) arcs.emplace_back(tasks[i - 1], tasks[i]);
  }
  // A chain that runs against the precedences closes a cycle: name it, and the processors whose
  // order closes it (the cycle's steps that are not the file's edges).
  std::vector<std::size_t> indegree;
  const auto order = kahn(n, arcs, indegree);
  if (order.size() != n) {
    const auto cycle = find_cycle(n, arcs, indegree);
    std::set<int> processors;
    for (std::size_t i = 0; i < cycle.size(); ++i) {
      const std::size_t u = cycle[i], v = cycle[(i + 1) % cycle.size()];
      if (!linked.count({u, v})) processors.insert(dag.tasks[u].processor);
    }
    std::string which;
    for (const int p : processors) which += (which.empty() ? "" : ", ") + std::to_string(p);
    throw InputError(source, "the order of the tasks on processor" + std::string(processors.size() > 1 ? "s " : " ") +
                                 which + " contradicts the precedences: " + describe_cycle(dag, cycle),
                     "a processor runs its tasks in the order they are listed or numbered; list them in an order the "
                     "precedences allow");
  }

  Structure s;
  s.kind = StructureKind::custom;
  s.name = "dag";
  s.laws = dag.laws;
  s.processor_scale = dag.processor_scale;
  s.width = width;  // a scale list is one per processor that runs a task (checked above)
  s.processor_cores = dag.processor_cores;
  s.recorded_makespan = dag.recorded_makespan;
  s.notes = dag.notes;
  // Where a processor runs more than one task, the rule matters: say which ran and why.
  std::size_t ready = 0, shared = 0;
  for (std::size_t p = 0; p < on.size(); ++p) {
    if (on[p].size() < 2) continue;
    ++shared;
    ready += dispatch[p] == Dispatch::ready;
  }
  if (ready > 0) {
    s.dispatch = dispatch;
    s.dispatch_reason = dag.dispatch ? "as asked"
                        : ready == shared ? (dag.unordered.empty() ? "the input gives no order" : dag.unordered)
                                          : std::to_string(ready) + " of " + std::to_string(shared) +
                                                " processors; the others in the order " +
                                                (dag.unordered.empty() ? "the input gives" : "their tasks started");
  } else if (dag.dispatch && shared > 0) {
    s.dispatch_reason = "as asked";
  }
  PrecedenceGraph& g = s.custom_graph();
  s.unrelated = cost_processors > 0;
  for (std::size_t v = 0; v < n; ++v) {
    const auto& t = dag.tasks[v];
    Task task;
    task.processor = t.processor;
    task.law = resolved_law[v];
    task.name = t.name;
    task.cores = t.cores;
    boost::add_vertex(task, g);
  }
  for (std::size_t i = 0; i < dag.edges.size(); ++i) {
    const auto& e = dag.edges[i];
    Precedence p;
    p.crosses_processors = dag.tasks[e.from].processor != dag.tasks[e.to].processor;
    p.comm_law = e.comm_law;
    p.file_index = static_cast<std::uint32_t>(i);
    boost::add_edge(e.from, e.to, p, g);
  }
  // A processor of one core chains its tasks: each starts after the one before it finishes. On one
  // of several cores the chain is a start order only (Precedence::start_order).
  for (std::size_t i = file_arcs; i < arcs.size(); ++i) {
    Precedence chain;
    chain.start_order = cores_of(dag, dag.tasks[arcs[i].first].processor) > 1;
    boost::add_edge(arcs[i].first, arcs[i].second, chain, g);
  }
  assign_levels(s);
  return s;
}

Mapping parse_mapping(const std::string& text, const std::string& source) {
  Mapping m;
  m.source = source;
  std::istringstream in(text);
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = source + ":" + std::to_string(number);
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    std::string task, processor, extra;
    if (!(fields >> task)) continue;
    if (!(fields >> processor) || (fields >> extra))
      throw InputError(where, "expected 'task processor', got '" + line + "'", "one task and its processor index a line");
    Mapping::Entry entry{parse_processor(where, processor), number};
    if (!m.task.emplace(task, entry).second)
      throw InputError(where, "task '" + task + "' is mapped twice", "map each task once");
  }
  if (m.task.empty()) throw InputError(source, "the mapping file maps no task", "write one 'task processor' a line");
  return m;
}

Mapping read_mapping(const std::string& path) { return parse_mapping(read_text_file(path, "mapping file"), path); }

void apply_mapping(const Mapping& mapping, CustomDag& dag, const std::vector<std::string>& dropped) {
  std::set<std::string> names(dropped.begin(), dropped.end());
  for (auto& t : dag.tasks) {
    const auto it = mapping.task.find(t.name);
    if (it == mapping.task.end())
      throw InputError(mapping.source, "task '" + t.name + "' has no processor", "map every task of the graph");
    t.processor = it->second.processor;
    t.order = static_cast<double>(it->second.line);
    names.insert(t.name);
  }
  // The file's machine stays whole: a mapping may leave its last processors idle.
  dag.machine_width = std::max(dag.machine_width, static_cast<int>(dag.processor_scale.size()));
  for (const auto& [name, entry] : mapping.task)
    if (!names.count(name))
      throw InputError(mapping.source + ":" + std::to_string(entry.line), "task '" + name + "' is not in the graph");
}

std::string read_text_file(const std::string& path, const std::string& what) {
  // A directory opens as a stream on Linux and then reads as nothing: say what it is.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "is a directory, not a " + what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "cannot open the " + what);
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw InputError(path, "cannot read the " + what);
  return buffer.str();
}

}  // namespace hetstruct::structures
