#include "engine/kernel/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <functional>
#include <queue>
#include <stdexcept>
#include <unordered_map>

#include "distributions/input_error.h"
#include "engine/kernel/evaluators.h"

namespace hetstruct::engine {

using namespace detail;

namespace {

using structures::StructureKind;
using structures::TaskKind;

PlanKind regular_kind(const structures::Structure& s) {
  switch (s.kind) {
    case StructureKind::asynchronous: return PlanKind::asynchronous;
    case StructureKind::synchronous: return PlanKind::synchronous;
    case StructureKind::nearest_neighbor:
      return s.exchange == structures::NeighborExchange::sequential ? PlanKind::neighbor_sequential
                                                                     : PlanKind::neighbor_plain;
    case StructureKind::master_slave: return PlanKind::task_pool;
    case StructureKind::custom: break;
  }
  return PlanKind::dag;
}

// Topological order by Kahn's algorithm, smallest vertex first (deterministic).
std::vector<std::uint32_t> topological_order(const structures::PrecedenceGraph& g) {
  const std::size_t n = boost::num_vertices(g);
  std::vector<std::uint32_t> indegree(n);
  for (std::size_t v = 0; v < n; ++v) indegree[v] = static_cast<std::uint32_t>(boost::in_degree(v, g));
  std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
  for (std::uint32_t v = 0; v < n; ++v)
    if (indegree[v] == 0) ready.push(v);
  std::vector<std::uint32_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    const auto v = ready.top();
    ready.pop();
    order.push_back(v);
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      const auto t = static_cast<std::uint32_t>(boost::target(e, g));
      if (--indegree[t] == 0) ready.push(t);
    }
  }
  if (order.size() != n) throw InputError("graph", "the precedence graph has a cycle");
  return order;
}

// A message cannot take a negative time (its receiver would start before its sender ends): every
// edge law of a custom DAG must keep its draws >= 0, as a bare number must (the readers refuse
// comm=-1). InputError naming the graph (its file) and the edge.
void check_message_laws(const structures::Structure& s) {
  const auto& g = s.graph();
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    const int law = g[e].comm_law;
    if (law < 0 || law >= static_cast<int>(s.laws.size())) continue;
    const distributions::Law& l = s.laws[static_cast<std::size_t>(law)];
    const double p = l.negative_probability();
    if (!(p > 0.0)) continue;
    const bool normal = std::any_of(l.components().begin(), l.components().end(), [](const auto& c) {
      return c.leaf.kind == distributions::LeafKind::normal;
    });
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.3g%%", 100.0 * p);
    throw InputError(s.name.empty() ? std::string("graph") : s.name,
                     "edge '" + g[boost::source(e, g)].name + "' -> '" + g[boost::target(e, g)].name + "': the message law " +
                         l.to_string() + " draws a negative time with probability " + percent,
                     normal ? "a message's time must be >= 0: a normal law is unbounded below; tn(mean,variance) truncates at 0"
                            : "a message's time must be >= 0: give a law whose values are >= 0");
  }
}

// A custom DAG's messages: an edge whose ends are compute tasks on different processors carries
// one when it has a law of its own or C > 0. Message order: the file's edge order (file_index);
// edges without one (a graph built by hand) by sending vertex, then its out-edges in insertion order.
void compile_messages(const structures::Structure& s, const std::vector<std::uint32_t>& position, double comm_cost,
                      Plan& plan, std::unordered_map<const structures::Precedence*, int>& message_of) {
  const bool every = s.platform != nullptr;  // on a platform every crossing edge pays its route (0 bytes without bytes=)
  const auto& g = s.graph();
  int comm_law = -1;  // the model's C as a law, added on first use
  std::vector<std::pair<const structures::Precedence*, Message>> found;
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v) {
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      const auto w = boost::target(e, g);
      const auto& from = g[v];
      const auto& to = g[w];
      if (from.kind != TaskKind::compute || to.kind != TaskKind::compute || from.processor == to.processor) continue;
      int law = g[e].comm_law;
      if (law >= static_cast<int>(s.laws.size())) throw InputError("graph", "an edge's message law is out of range");
      if (law < 0 && (comm_cost > 0.0 || every)) {
        if (comm_law < 0) {
          comm_law = static_cast<int>(plan.laws.size());
          plan.laws.push_back(distributions::Law::constant(comm_cost));
          plan.samplers.emplace_back(plan.laws.back());
        }
        law = comm_law;
      }
      if (law < 0) continue;
      found.push_back({&g[e], {position[v], position[w], law}});
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& x, const auto& y) { return x.first->file_index < y.first->file_index; });
  for (const auto& [edge, message] : found) {
    message_of[edge] = static_cast<int>(plan.messages.size());
    plan.messages.push_back(message);
  }
}

// Keeps the arrays of processors of several cores only where one has several.
void compile_cores(const structures::Structure& s, Plan& plan) {
  const auto& cores = s.processor_cores;
  if (std::all_of(cores.begin(), cores.end(), [](int k) { return k == 1; })) {
    plan.start_after.clear();
    plan.task_cores.clear();
    return;
  }
  if (plan.port != Port::free)
    throw InputError("port", "the one-port models take processors of one core",
                     "use port " + std::string(to_string(Port::free)) + " with processors of several cores");
  plan.processor_cores.assign(static_cast<std::size_t>(plan.width), 1);
  std::copy_n(cores.begin(), std::min(cores.size(), plan.processor_cores.size()), plan.processor_cores.begin());
  // Each worker keeps every core's free time: 2^24 cores is 128 MB a thread.
  constexpr std::uint64_t max_total_cores = std::uint64_t{1} << 24;
  std::uint64_t total = 0;
  for (const int k : plan.processor_cores) total += static_cast<std::uint64_t>(k);
  if (total > max_total_cores)
    throw InputError("processor_cores", "the processors have " + std::to_string(total) + " cores in all, more than " +
                                            std::to_string(max_total_cores),
                     "give fewer processors or fewer cores");
  plan.core_begin.assign(1, 0);
  for (const int k : plan.processor_cores) plan.core_begin.push_back(plan.core_begin.back() + static_cast<std::uint32_t>(k));
}

// Ready dispatch's arrays, where some processor of the structure takes its tasks as they become ready.
void compile_dispatch(const structures::Structure& s, Plan& plan) {
  if (s.dispatch.empty()) return;
  if (plan.port != Port::free)
    throw InputError("dispatch", "the one-port models run each processor's tasks in a stated order, not as they become ready",
                     "give dispatch ordered with a one-port model, or the free port model");
  const std::size_t tasks = plan.task_sampler.size(), width = static_cast<std::size_t>(plan.width);
  plan.processor_ready.assign(width, 0);
  for (std::size_t p = 0; p < std::min(width, s.dispatch.size()); ++p)
    plan.processor_ready[p] = s.dispatch[p] == structures::Dispatch::ready;
  plan.queue_begin.assign(width + 1, 0);
  for (const int p : plan.task_processor) ++plan.queue_begin[static_cast<std::size_t>(p) + 1];
  for (std::size_t p = 0; p < width; ++p) plan.queue_begin[p + 1] += plan.queue_begin[p];
  if (plan.core_begin.empty())
    for (std::uint32_t p = 0; p <= width; ++p) plan.core_begin.push_back(p);
  plan.start_next.assign(tasks, Plan::no_task);
  for (std::size_t t = 0; t < plan.start_after.size(); ++t)
    if (plan.start_after[t] != Plan::no_task) plan.start_next[plan.start_after[t]] = static_cast<std::uint32_t>(t);
  for (std::uint32_t t = 0; t < tasks; ++t)
    if (plan.pred_begin[t] == plan.pred_begin[t + 1] && (plan.start_after.empty() || plan.start_after[t] == Plan::no_task))
      plan.ready_sources.push_back(t);
  std::sort(plan.ready_sources.begin(), plan.ready_sources.end(),
            [&plan](std::uint32_t a, std::uint32_t b) { return plan.task_vertex[a] < plan.task_vertex[b]; });
}

void compile_generic(const structures::Structure& s, const CompileOptions& options, Plan& plan) {
  const auto& g = s.graph();
  const auto order = topological_order(g);
  std::vector<std::uint32_t> position(order.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  const bool custom = s.kind == StructureKind::custom;

  plan.samplers.clear();
  plan.laws = s.laws;
  for (const auto& law : s.laws) plan.samplers.emplace_back(law);
  std::unordered_map<const structures::Precedence*, int> message_of;
  if (custom) check_message_laws(s);
  if (custom) compile_messages(s, position, options.comm_cost, plan, message_of);

  plan.pred_begin.assign(1, 0);
  std::vector<std::pair<std::uint32_t, int>> in;  // a task's predecessors with their messages
  for (const auto v : order) {
    const auto& task = g[v];
    if (task.kind == TaskKind::pooled)
      throw InputError("structure", "a master-slave task pool has no fixed precedence graph",
                       "it is evaluated by dealing tasks at run time");
    plan.task_sampler.push_back(task.kind == TaskKind::compute ? task.law : -1);
    plan.task_vertex.push_back(v);
    plan.task_processor.push_back(std::max(task.processor, 0));
    in.clear();
    std::uint32_t start_after = Plan::no_task;
    for (const auto e : boost::make_iterator_range(boost::in_edges(v, g))) {
      if (g[e].start_order) {
        start_after = position[boost::source(e, g)];
        continue;
      }
      const auto found = message_of.find(&g[e]);
      in.emplace_back(position[boost::source(e, g)], found == message_of.end() ? -1 : found->second);
    }
    // Sorted predecessors: a fixed order of the max, and a friendlier memory walk.
    std::sort(in.begin(), in.end());
    for (const auto& [pred, message] : in) {
      plan.preds.push_back(pred);
      plan.pred_message.push_back(message);
      plan.pred_comm.push_back(message < 0 ? -1 : plan.messages[static_cast<std::size_t>(message)].law);
    }
    plan.pred_begin.push_back(static_cast<std::uint32_t>(plan.preds.size()));
    plan.start_after.push_back(start_after);
    plan.task_cores.push_back(static_cast<std::uint32_t>(std::max(task.cores, 1)));
    // A task followed only in its processor's start order may finish last.
    const auto out = boost::out_edges(v, g);
    if (std::none_of(out.first, out.second, [&g](const auto e) { return !g[e].start_order; }))
      plan.sinks.push_back(position[v]);
  }
  std::sort(plan.sinks.begin(), plan.sinks.end());
  int width = 0;
  for (const int p : plan.task_processor) width = std::max(width, p + 1);
  plan.width = std::max(width, 1);

  // Successors, for the one-port simulation.
  const std::size_t tasks = plan.task_sampler.size();
  plan.succ_begin.assign(tasks + 1, 0);
  for (const auto pred : plan.preds) ++plan.succ_begin[pred + 1];
  for (std::size_t t = 0; t < tasks; ++t) plan.succ_begin[t + 1] += plan.succ_begin[t];
  plan.succs.resize(plan.preds.size());
  plan.succ_message.resize(plan.preds.size());
  std::vector<std::uint32_t> next(plan.succ_begin.begin(), plan.succ_begin.end() - 1);
  for (std::uint32_t t = 0; t < tasks; ++t)
    for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j) {
      const auto at = next[plan.preds[j]]++;
      plan.succs[at] = t;
      plan.succ_message[at] = plan.pred_message[j];
    }

  compile_cores(s, plan);
  if (!custom) return;  // Wilson's streams: one per processor
  compile_dispatch(s, plan);
  plan.task_streams = TaskStreams::single;
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v)
    if (g[v].kind == TaskKind::compute) plan.draw_order.push_back(position[v]);
  const auto& scale = s.processor_scale;
  if (!scale.empty()) {
    if (static_cast<int>(scale.size()) < plan.width)
      throw InputError("processor_scale", "gives " + std::to_string(scale.size()) + " processors' scales for " +
                                              std::to_string(plan.width) + " processors");
    for (const double a : scale)
      if (!(a > 0.0) || !std::isfinite(a)) throw InputError("processor_scale", "a processor's scale must be a finite number > 0");
    if (std::any_of(scale.begin(), scale.end(), [](double a) { return a != 1.0; }))
      for (const int p : plan.task_processor) plan.task_scale.push_back(scale[static_cast<std::size_t>(p)]);
  }
  if (s.platform) compile_network(s, options.sharing.value_or(Sharing::rtt), plan);
  // When every task's law is one uniform (or one normal) leaf, the draws run monomorphic
  // (the same variates as the samplers), one per task in draw order.
  auto all_of_kind = [&](distributions::LeafKind kind) {
    return std::all_of(plan.draw_order.begin(), plan.draw_order.end(),
                       [&](std::uint32_t t) { return plan.samplers[static_cast<std::size_t>(plan.task_sampler[t])].single_kind() == kind; });
  };
  if (all_of_kind(distributions::LeafKind::uniform))
    for (const auto t : plan.draw_order) plan.uniform_draws.push_back(plan.samplers[static_cast<std::size_t>(plan.task_sampler[t])].uniform_draw());
  else if (all_of_kind(distributions::LeafKind::normal))
    for (const auto t : plan.draw_order) plan.normal_draws.push_back(plan.samplers[static_cast<std::size_t>(plan.task_sampler[t])].normal_draw());
}

}  // namespace

const char* to_string(PlanKind kind) {
  switch (kind) {
    case PlanKind::asynchronous: return "asynchronous";
    case PlanKind::synchronous: return "synchronous";
    case PlanKind::neighbor_sequential: return "neighbor-sequential";
    case PlanKind::neighbor_plain: return "neighbor-plain";
    case PlanKind::task_pool: return "task-pool";
    case PlanKind::dag: return "dag";
    case PlanKind::protocol: return "protocol";
  }
  return "?";
}

std::string Plan::communication() const {
  if (kind == PlanKind::protocol) return protocol->name;
  if (messages.empty()) return "";
  if (network) return std::string("platform-") + to_string(network->sharing);  // a platform's links (network.h)
  return port_spelling(port, overlap);
}

std::uint64_t Plan::compute_tasks() const {
  if (kind != PlanKind::dag) return static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(levels);
  return static_cast<std::uint64_t>(std::count_if(task_sampler.begin(), task_sampler.end(), [](int s) { return s >= 0; }));
}

namespace {

// Async has no communication between processors (its streams stay on one processor: Wilson 5.1),
// so C changes nothing; sync, nn and ms run a protocol when C > 0 or a protocol is named.
bool needs_protocol(const structures::Structure& s, const CompileOptions& options) {
  if (options.comm_cost < 0.0 || !std::isfinite(options.comm_cost))
    throw InputError("comm_cost", "the communication cost must be a finite number >= 0");
  if (options.policy && s.kind != StructureKind::master_slave)
    throw InputError("policy", "dealing policies apply to the master-slave structure (ms) only");
  if (s.kind != StructureKind::custom && (options.port || options.overlap))
    throw InputError(options.port ? "port" : "overlap", "port models apply to a DAG (graph) only",
                     "Wilson's structures communicate by their protocols");
  if (options.overlap && (!options.port || !port_model(*options.port).one_port))
    throw InputError("overlap", "applies to the one-port models only", "a free port model always overlaps");
  if (options.protocol && !in_family(s.kind, *options.protocol))  // refuses async and DAGs by name
    throw InputError("protocol", std::string("protocol '") + options.protocol->name + "' is not one of " +
                                     structures::to_string(s.kind) + "'s",
                     "choose " + [&] {
                       std::string list;
                       for (const auto& name : protocol_names(s.kind)) list += (list.empty() ? "" : ", ") + name;
                       return list;
                     }());
  const bool asked = options.comm_cost > 0.0 || options.protocol || options.policy;
  if (!asked) return false;
  switch (s.kind) {
    case StructureKind::synchronous:
    case StructureKind::nearest_neighbor:
    case StructureKind::master_slave: return true;
    case StructureKind::asynchronous:
    case StructureKind::custom: return false;
  }
  return false;
}

// One draw per processor without the Sampler's dispatch when every processor's law is one uniform
// (or one normal) leaf: the same variates, bit for bit.
void specialise_draws(Plan& plan) {
  auto all_of_kind = [&](distributions::LeafKind kind) {
    return std::all_of(plan.samplers.begin(), plan.samplers.end(), [&](const auto& d) { return d.single_kind() == kind; });
  };
  if (all_of_kind(distributions::LeafKind::uniform))
    for (const auto& d : plan.samplers) plan.uniform_draws.push_back(d.uniform_draw());
  else if (all_of_kind(distributions::LeafKind::normal))
    for (const auto& d : plan.samplers) plan.normal_draws.push_back(d.normal_draw());
}

}  // namespace

namespace {

// A slowdown law draws factors >= 0 (a negative factor would make every task time negative).
void check_slowdown(const char* parameter, const distributions::Law& law) {
  if (law.negative_probability() > 0.0)
    throw InputError(parameter, "the law " + law.to_string() + " draws a negative factor",
                     "a slowdown factor must be >= 0: give a law whose values are >= 0 (c, u(a,b) with a >= 0, "
                     "tn, gamma, lognormal)");
}

void compile_slowdown(const CompileOptions& options, Plan& plan) {
  if (options.slowdown.machine) check_slowdown("machine_slowdown", *options.slowdown.machine);
  for (const auto& law : options.slowdown.processor) check_slowdown("slowdown", law);
  const std::size_t laws = options.slowdown.processor.size();
  if (laws > 1 && laws != static_cast<std::size_t>(plan.width))
    throw InputError("slowdown", "gives " + std::to_string(laws) + " laws, one per processor, but the model has " +
                                     std::to_string(plan.width) + " processors",
                     "give one law for every processor, or exactly one law per processor");
  plan.slowdown = options.slowdown;
  if (plan.slowdown.machine) plan.slowdown_samplers.emplace_back(*plan.slowdown.machine);
  for (const auto& law : plan.slowdown.processor) plan.slowdown_samplers.emplace_back(law);
}

Plan compile_unslowed(const structures::Structure& s, CompileOptions options);

}  // namespace

std::string Slowdown::processor_text() const {
  std::string text;
  for (const auto& law : processor) text += (text.empty() ? "" : ",") + law.to_string();
  return text;
}

Plan compile(const structures::Structure& s, CompileOptions options) {
  if (options.sharing && !s.platform) throw InputError("sharing", "applies beside a platform only", "give --platform FILE");
  if (s.platform && options.comm_cost > 0.0)
    throw InputError("comm_cost", "does not apply beside a platform", "the edges give bytes=, the routes price them");
  if (s.platform && ((options.port && *options.port != Port::free) || options.overlap))
    throw InputError(options.overlap ? "overlap" : "port", "the one-port models do not apply beside a platform",
                     "the platform's links share the bandwidth (sharing)");
  Plan plan = compile_unslowed(s, options);
  compile_slowdown(options, plan);
  return plan;
}

namespace {

Plan compile_unslowed(const structures::Structure& s, CompileOptions options) {
  Plan plan;
  plan.levels = s.levels;
  plan.width = s.width;
  if (!options.generic && needs_protocol(s, options)) {
    plan.kind = PlanKind::protocol;
    plan.structure = s.kind;
    plan.comm = {s.width, s.fast_count, s.levels, options.comm_cost, {}, options.policy.value_or(DealingPolicy::dynamic)};
    for (int i = 0; i < s.width; ++i) {
      plan.samplers.emplace_back(s.laws.at(i));
      plan.laws.push_back(s.laws.at(i));
      plan.comm.mean_task_time.push_back(s.laws.at(i).mean());
    }
    plan.protocol = options.protocol ? options.protocol : &protocol_family(s.kind).front();
    plan.protocol->make(plan.comm);  // validates the protocol's needs and the policy now
    specialise_draws(plan);  // for the controls (evaluate_controls); the protocols pick their own
    return plan;
  }
  plan.kind = options.generic ? PlanKind::dag : regular_kind(s);
  if (plan.kind == PlanKind::dag) {
    if (s.kind == StructureKind::custom) {
      plan.port = options.port.value_or(Port::free);
      plan.overlap = options.overlap;
      plan.comm.comm_cost = options.comm_cost;
    }
    compile_generic(s, options, plan);
    return plan;
  }
  for (int i = 0; i < s.width; ++i) plan.samplers.emplace_back(s.laws.at(i));
  plan.laws.assign(s.laws.begin(), s.laws.begin() + s.width);
  specialise_draws(plan);
  return plan;
}

}  // namespace

Workspace::Workspace(const Plan& plan)
    : streams(plan.width),
      first(plan.kind == PlanKind::dag ? plan.task_sampler.size() : plan.width),
      second(plan.width),
      processors(plan.width),
      busy(plan.width) {
  if (plan.network) network = make_network_workspace(plan);
  if (plan.kind == PlanKind::dag) {
    durations.resize(plan.task_sampler.size());
    message_times.resize(plan.messages.size());
    if (plan.multicore()) {
      starts.resize(plan.task_sampler.size());
      core_free.resize(plan.core_begin.back());
    }
    if (plan.ready_dispatch()) {
      const std::size_t tasks = plan.task_sampler.size(), width = static_cast<std::size_t>(plan.width);
      starts.resize(tasks);
      missing.resize(tasks);
      events.reserve(tasks + plan.messages.size());
      queue.resize(tasks);
      queue_head.resize(width);
      queue_tail.resize(width);
      free_cores.resize(width);
      newly_ready.reserve(tasks);
      touched.reserve(width);
      is_touched.assign(width, 0);
    }
    if (plan.port != Port::free && !plan.messages.empty()) {
      missing.resize(plan.task_sampler.size());
      input_time.resize(plan.task_sampler.size());
      send_free.resize(plan.width);
      receive_free.resize(plan.width);
      compute_free.resize(plan.width);
      events.reserve(plan.task_sampler.size() + plan.messages.size());
    }
    if (plan.port == Port::one_port_greedy && !plan.messages.empty()) {
      sending.resize(plan.width);
      receiving.resize(plan.width);
      computing.resize(plan.width);
      waiting_messages.reserve(plan.messages.size());
      waiting_tasks.reserve(plan.task_sampler.size());
    }
  }
  if (plan.kind == PlanKind::protocol) protocol = plan.protocol->make(plan.comm);
  if (plan.slowed()) factors.resize(plan.width);
}

namespace {

template <class Duration>
double propagate(const Plan& plan, double* finish, Duration duration) {
  const std::size_t tasks = plan.task_sampler.size();
  for (std::size_t t = 0; t < tasks; ++t) {
    double start = plan.pred_begin[t] == plan.pred_begin[t + 1] ? 0.0 : minus_infinity;
    for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j) start = std::max(start, finish[plan.preds[j]]);
    finish[t] = start + (plan.task_sampler[t] < 0 ? 0.0 : duration(t));
  }
  double makespan = minus_infinity;
  for (const auto t : plan.sinks) makespan = std::max(makespan, finish[t]);
  return makespan;
}

// The free port model: the longest path with edge weights (a message's time on a crossing edge).
double propagate_free(const Plan& plan, double* finish, const double* duration, const double* message) {
  const std::size_t tasks = plan.task_sampler.size();
  for (std::size_t t = 0; t < tasks; ++t) {
    double start = plan.pred_begin[t] == plan.pred_begin[t + 1] ? 0.0 : minus_infinity;
    for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j) {
      const int m = plan.pred_message[j];
      start = std::max(start, m < 0 ? finish[plan.preds[j]] : finish[plan.preds[j]] + message[m]);
    }
    finish[t] = start + duration[t];
  }
  double makespan = minus_infinity;
  for (const auto t : plan.sinks) makespan = std::max(makespan, finish[t]);
  return makespan;
}

// Traced evaluations (DagTrace): an item's binders are the candidates whose time equals its start.
class Binding {
 public:
  Binding(DagTrace& trace, double start) : trace_(trace), begin_(static_cast<std::uint32_t>(trace.binders.size())), start_(start) {}
  void operator()(double time, DagTrace::Binder b) const {
    if (b.item != DagTrace::no_item && time == start_) trace_.binders.push_back(b);
  }
  void operator()(double time, DagTrace::Bound bound, std::uint32_t item) const { (*this)(time, DagTrace::Binder{bound, item}); }
  DagTrace::Range range() const { return {begin_, static_cast<std::uint32_t>(trace_.binders.size())}; }

 private:
  DagTrace& trace_;
  std::uint32_t begin_;
  double start_;
};

void reset_trace(const Plan& plan, DagTrace& trace) {
  const std::size_t tasks = plan.task_sampler.size(), messages = plan.messages.size();
  const std::size_t width = static_cast<std::size_t>(plan.width);
  trace.start.assign(tasks, 0.0);
  trace.finish.assign(tasks, 0.0);
  trace.task_binders.assign(tasks, {});
  trace.message_start.assign(messages, 0.0);
  trace.arrival.assign(messages, 0.0);
  trace.message_binders.assign(messages, {});
  trace.binders.clear();
  trace.send_holder.assign(width, {});
  trace.receive_holder.assign(width, {});
  trace.compute_holder.assign(width, {});
  const std::size_t cores = plan.core_begin.empty() ? 0 : plan.core_begin.back();
  trace.core_holder.assign(cores, {});
  trace.core_free.assign(cores, minus_infinity);
}

// Under the free port model: task t's inputs as binders of its start (a predecessor's finish, or
// its message's arrival, the message leaving at the sender's finish: both recorded here), and then
// each message's binder, its sender's finish.
void bind_free_inputs(const Plan& plan, const double* finish, const double* message, DagTrace& trace, std::size_t t,
                      const Binding& bind) {
  for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j) {
    const auto u = plan.preds[j];
    const int m = message ? plan.pred_message[j] : -1;
    if (m < 0) {
      bind(finish[u], DagTrace::Bound::finish, u);
      continue;
    }
    const auto mi = static_cast<std::size_t>(m);
    trace.message_start[mi] = finish[u];
    trace.arrival[mi] = finish[u] + message[m];
    bind(trace.arrival[mi], DagTrace::Bound::arrival, static_cast<std::uint32_t>(m));
  }
}

void bind_free_messages(const Plan& plan, const double* finish, const double* message, DagTrace& trace, std::size_t t) {
  for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j) {
    const int m = message ? plan.pred_message[j] : -1;
    if (m < 0) continue;
    const Binding data(trace, finish[plan.preds[j]]);
    data(finish[plan.preds[j]], DagTrace::Bound::finish, plan.preds[j]);
    trace.message_binders[static_cast<std::size_t>(m)] = data.range();
  }
}

// Processors of several cores (the rule is in plan.h), with the free port model's messages when
// `message` is given. Traced (`traced`, with the trace), it also runs plans of one core a processor:
// the free port model's longest path, the same operations as propagate and propagate_free. The
// untraced instances, evaluate()'s, have no trace branch at all.
template <bool traced = false>
double propagate_cores(const Plan& plan, double* finish, const double* duration, const double* message, Workspace& ws,
                       DagTrace* trace = nullptr) {
  using Bound = DagTrace::Bound;
  const std::size_t tasks = plan.task_sampler.size();
  const bool multicore = plan.multicore();
  double* start_of = traced ? trace->start.data() : ws.starts.data();
  std::fill(ws.core_free.begin(), ws.core_free.end(), minus_infinity);
  for (std::size_t t = 0; t < tasks; ++t) {
    double start = plan.pred_begin[t] == plan.pred_begin[t + 1] ? 0.0 : minus_infinity;
    for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j) {
      const int m = message ? plan.pred_message[j] : -1;
      start = std::max(start, m < 0 ? finish[plan.preds[j]] : finish[plan.preds[j]] + message[m]);
    }
    const int p = plan.task_processor[t];
    const auto k = multicore ? static_cast<std::uint32_t>(plan.processor_cores[static_cast<std::size_t>(p)]) : 1u;
    const auto bind_inputs = [&](const Binding& bind) { bind_free_inputs(plan, finish, message, *trace, t, bind); };
    const auto bind_messages = [&] { bind_free_messages(plan, finish, message, *trace, t); };
    if (k == 1) {  // its order is a chain of precedences
      start_of[t] = start;
      finish[t] = start + duration[t];
      if constexpr (traced) {
        const Binding bind(*trace, start);
        bind_inputs(bind);
        trace->task_binders[t] = bind.range();
        bind_messages();
      }
      continue;
    }
    if (plan.start_after[t] != Plan::no_task) start = std::max(start, start_of[plan.start_after[t]]);
    // The processor's core free times as a min-heap: the task pops the c earliest (the last popped
    // is the c-th earliest) and pushes its end c times.
    double* free = ws.core_free.data() + plan.core_begin[static_cast<std::size_t>(p)];
    double* last = free + k;
    const std::uint32_t c = plan.task_cores[t];
    for (std::uint32_t i = 0; i < c; ++i) std::pop_heap(free, last - i, std::greater<>());
    start = std::max(start, *(last - c));
    const double end = start + duration[t];
    for (std::uint32_t i = c; i > 0; --i) {
      *(last - i) = end;
      std::push_heap(free, last - i + 1, std::greater<>());
    }
    start_of[t] = start;
    finish[t] = end;
    if constexpr (traced) {
      const Binding bind(*trace, start);
      bind_inputs(bind);
      if (plan.start_after[t] != Plan::no_task) bind(start_of[plan.start_after[t]], Bound::start, plan.start_after[t]);
      // The heap keeps no owners: the same free times kept with their holders, the c earliest
      // taken (the same c-th earliest value, so the same start).
      const std::uint32_t first = plan.core_begin[static_cast<std::size_t>(p)];
      auto& pick = trace->core_pick;
      pick.resize(k);
      std::iota(pick.begin(), pick.end(), first);
      std::partial_sort(pick.begin(), pick.begin() + c, pick.end(), [&](std::uint32_t a, std::uint32_t b) {
        const double x = trace->core_free[a], y = trace->core_free[b];
        return x != y ? x < y : a < b;
      });
      for (std::uint32_t i = 0; i < c; ++i) {
        bind(trace->core_free[pick[i]], trace->core_holder[pick[i]]);
        trace->core_free[pick[i]] = end;
        trace->core_holder[pick[i]] = {Bound::finish, static_cast<std::uint32_t>(t)};
      }
      trace->task_binders[t] = bind.range();
      bind_messages();
    }
  }
  double makespan = minus_infinity;
  for (const auto t : plan.sinks) makespan = std::max(makespan, finish[t]);
  return makespan;
}

// The one-port model, event by event (the rules are in plan.h).
constexpr std::uint32_t task_bit = std::uint32_t{1} << 31;

// Ready dispatch, event by event (the rule is in plan.h), with the free port model's messages when
// `message` is given. Events are finishes (task_bit | task) and arrivals of messages of positive
// time (the message's index). Traced, it also keeps each processor's free cores in the order they
// freed, so that a start's binders name the tasks that held the cores it takes.
template <bool traced = false>
double simulate_ready(const Plan& plan, double* finish, const double* duration, const double* message, Workspace& ws,
                      DagTrace* trace = nullptr) {
  using Bound = DagTrace::Bound;
  using Event = Workspace::Event;
  const std::size_t tasks = plan.task_sampler.size(), width = static_cast<std::size_t>(plan.width);
  double* start_of = traced ? trace->start.data() : ws.starts.data();
  const bool start_orders = !plan.start_after.empty();
  for (std::size_t t = 0; t < tasks; ++t) {
    ws.missing[t] = plan.pred_begin[t + 1] - plan.pred_begin[t] + (start_orders && plan.start_after[t] != Plan::no_task);
  }
  for (std::size_t p = 0; p < width; ++p) {
    ws.queue_head[p] = ws.queue_tail[p] = plan.queue_begin[p];
    ws.free_cores[p] = static_cast<std::uint32_t>(plan.cores_of(static_cast<int>(p)));
  }
  if constexpr (traced) {
    const std::size_t cores = plan.core_begin.back();
    trace->core_ring.resize(cores);
    std::iota(trace->core_ring.begin(), trace->core_ring.end(), 0u);
    trace->ring_head.assign(width, 0);
    trace->ring_count.assign(width, 0);
    for (std::size_t p = 0; p < width; ++p) trace->ring_count[p] = plan.core_begin[p + 1] - plan.core_begin[p];
    trace->held.clear();
    trace->held_begin.assign(tasks, 0);
  }
  auto& events = ws.events;
  events.clear();
  const auto later = [](const Event& a, const Event& b) { return a.time > b.time; };
  const auto touch = [&ws](std::size_t p) {
    if (!ws.is_touched[p]) {
      ws.is_touched[p] = 1;
      ws.touched.push_back(static_cast<std::uint32_t>(p));
    }
  };
  const auto enqueue = [&](std::uint32_t t) {
    const auto p = static_cast<std::size_t>(plan.task_processor[t]);
    ws.queue[ws.queue_tail[p]++] = t;
    touch(p);
  };
  const auto input = [&ws](std::uint32_t w) {
    if (--ws.missing[w] == 0) ws.newly_ready.push_back(w);
  };
  // The binders of a task's start: its inputs, the task before it in its processor's start order
  // or queue, and the holders of the cores it takes (freed at its start).
  const auto start_task = [&](std::uint32_t v, std::size_t p, double now) {
    const std::uint32_t c = plan.cores_of_task(v);
    ws.free_cores[p] -= c;
    start_of[v] = now;
    finish[v] = now + duration[v];
    if constexpr (traced) {
      const Binding bind(*trace, now);
      bind_free_inputs(plan, finish, message, *trace, v, bind);
      if (start_orders && plan.start_after[v] != Plan::no_task) bind(start_of[plan.start_after[v]], Bound::start, plan.start_after[v]);
      if (const auto ahead = trace->compute_holder[p]; plan.processor_ready[p] && ahead.item != DagTrace::no_item)
        bind(start_of[ahead.item], ahead);
      trace->compute_holder[p] = {Bound::start, v};
      trace->held_begin[v] = static_cast<std::uint32_t>(trace->held.size());
      const std::uint32_t first = plan.core_begin[p], k = plan.core_begin[p + 1] - first;
      for (std::uint32_t i = 0; i < c; ++i) {
        const std::uint32_t core = trace->core_ring[first + trace->ring_head[p]];
        trace->ring_head[p] = (trace->ring_head[p] + 1) % k;
        --trace->ring_count[p];
        bind(trace->core_free[core], trace->core_holder[core]);
        trace->core_holder[core] = {Bound::finish, v};
        trace->held.push_back(core);
      }
      trace->task_binders[v] = bind.range();
      bind_free_messages(plan, finish, message, *trace, v);
    }
    events.push_back({finish[v], task_bit | v});
    std::push_heap(events.begin(), events.end(), later);
    if (start_orders && plan.start_next[v] != Plan::no_task && --ws.missing[plan.start_next[v]] == 0) enqueue(plan.start_next[v]);
  };
  // Starts what each touched processor's queue allows at `now`.
  const auto start_ready = [&](double now) {
    for (std::size_t i = 0; i < ws.touched.size(); ++i) {  // a start may touch its processor again
      const std::size_t p = ws.touched[i];
      ws.is_touched[p] = 0;
      while (ws.queue_head[p] < ws.queue_tail[p]) {
        const std::uint32_t v = ws.queue[ws.queue_head[p]];
        if (ws.free_cores[p] < plan.cores_of_task(v)) break;
        ++ws.queue_head[p];
        start_task(v, p, now);
      }
    }
    ws.touched.clear();
  };
  for (const auto t : plan.ready_sources) enqueue(t);
  start_ready(0.0);
  // One instant's events: every finish and arrival at the earliest time left.
  const auto take = [&](std::uint32_t key, double now) {
    if (!(key & task_bit)) {
      input(plan.messages[key].to);
      return;
    }
    const std::uint32_t u = key & ~task_bit;
    const auto p = static_cast<std::size_t>(plan.task_processor[u]);
    const std::uint32_t c = plan.cores_of_task(u);
    ws.free_cores[p] += c;
    touch(p);
    if constexpr (traced) {
      const std::uint32_t first = plan.core_begin[p], k = plan.core_begin[p + 1] - first;
      for (std::uint32_t i = 0; i < c; ++i) {
        const std::uint32_t core = trace->held[trace->held_begin[u] + i];
        trace->core_free[core] = finish[u];
        trace->core_ring[first + (trace->ring_head[p] + trace->ring_count[p]) % k] = core;
        ++trace->ring_count[p];
      }
    }
    for (auto j = plan.succ_begin[u]; j < plan.succ_begin[u + 1]; ++j) {
      const std::uint32_t w = plan.succs[j];
      const int m = message ? plan.succ_message[j] : -1;
      if (m < 0) {
        input(w);
        continue;
      }
      const double arrival = finish[u] + message[m];
      if (arrival == now) {
        input(w);
      } else {
        events.push_back({arrival, static_cast<std::uint32_t>(m)});
        std::push_heap(events.begin(), events.end(), later);
      }
    }
  };
  while (!events.empty()) {
    const double now = events.front().time;
    if constexpr (traced) {
      // The instant's events in a fixed order (finishes before arrivals, each by index), so that
      // the cores freed together enter the ring in an order of the input's, not of the heap's.
      auto& batch = trace->batch;
      batch.clear();
      while (!events.empty() && events.front().time == now) {
        std::pop_heap(events.begin(), events.end(), later);
        batch.push_back(events.back().key ^ task_bit);
        events.pop_back();
      }
      std::sort(batch.begin(), batch.end());
      for (const auto key : batch) take(key ^ task_bit, now);
    } else {
      while (!events.empty() && events.front().time == now) {
        std::pop_heap(events.begin(), events.end(), later);
        const std::uint32_t key = events.back().key;
        events.pop_back();
        take(key, now);
      }
    }
    // The instant's newly ready tasks in listing order: a few at a time, by insertion.
    auto& ready = ws.newly_ready;
    const std::uint32_t* listed = plan.task_vertex.data();
    for (std::size_t i = 1; i < ready.size(); ++i) {
      const std::uint32_t w = ready[i];
      std::size_t j = i;
      for (; j > 0 && listed[ready[j - 1]] > listed[w]; --j) ready[j] = ready[j - 1];
      ready[j] = w;
    }
    for (const auto w : ready) enqueue(w);
    ready.clear();
    start_ready(now);
  }
  double makespan = minus_infinity;
  for (const auto t : plan.sinks) makespan = std::max(makespan, finish[t]);
  return makespan;
}

// A task's inputs as binders of its start (traced one-port models).
void bind_task_inputs(const Plan& plan, const double* finish, const DagTrace& trace, std::size_t t, const Binding& bind) {
  for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j) {
    const int m = plan.pred_message[j];
    if (m < 0)
      bind(finish[plan.preds[j]], DagTrace::Bound::finish, plan.preds[j]);
    else
      bind(trace.arrival[static_cast<std::size_t>(m)], DagTrace::Bound::arrival, static_cast<std::uint32_t>(m));
  }
}

template <bool traced = false>
double simulate_one_port(const Plan& plan, double* finish, const double* duration, const double* message, Workspace& ws,
                         DagTrace* trace = nullptr) {
  using Event = Workspace::Event;
  using Bound = DagTrace::Bound;
  const auto later = [](const Event& a, const Event& b) { return a.time != b.time ? a.time > b.time : a.key > b.key; };
  const std::size_t tasks = plan.task_sampler.size();
  auto& heap = ws.events;
  heap.clear();
  std::fill(ws.send_free.begin(), ws.send_free.end(), minus_infinity);
  std::fill(ws.receive_free.begin(), ws.receive_free.end(), minus_infinity);
  std::fill(ws.compute_free.begin(), ws.compute_free.end(), minus_infinity);
  for (std::size_t t = 0; t < tasks; ++t) {
    ws.missing[t] = plan.pred_begin[t + 1] - plan.pred_begin[t];
    ws.input_time[t] = minus_infinity;
    if (ws.missing[t] == 0) heap.push_back({0.0, task_bit | static_cast<std::uint32_t>(t)});  // sources at 0
  }
  std::make_heap(heap.begin(), heap.end(), later);
  const auto deliver = [&](std::uint32_t t, double time) {
    ws.input_time[t] = std::max(ws.input_time[t], time);
    if (--ws.missing[t] == 0) {
      heap.push_back({ws.input_time[t], task_bit | t});
      std::push_heap(heap.begin(), heap.end(), later);
    }
  };
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const Event e = heap.back();
    heap.pop_back();
    if (e.key & task_bit) {
      const std::uint32_t t = e.key & ~task_bit;
      const int p = plan.task_processor[t];
      double start = e.time;
      if (!plan.overlap) start = std::max({start, ws.send_free[p], ws.receive_free[p]});
      finish[t] = start + duration[t];
      if constexpr (traced) {
        trace->start[t] = start;
        const Binding bind(*trace, start);
        bind_task_inputs(plan, finish, *trace, t, bind);
        if (!plan.overlap) {
          bind(ws.send_free[p], trace->send_holder[p]);
          bind(ws.receive_free[p], trace->receive_holder[p]);
          if (finish[t] >= ws.compute_free[p]) trace->compute_holder[p] = {Bound::finish, t};
        }
        trace->task_binders[t] = bind.range();
      }
      if (!plan.overlap) ws.compute_free[p] = std::max(ws.compute_free[p], finish[t]);
      for (auto j = plan.succ_begin[t]; j < plan.succ_begin[t + 1]; ++j) {
        const int m = plan.succ_message[j];
        if (m < 0) {
          deliver(plan.succs[j], finish[t]);
        } else {
          heap.push_back({finish[t], static_cast<std::uint32_t>(m)});
          std::push_heap(heap.begin(), heap.end(), later);
        }
      }
    } else {
      const Message& m = plan.messages[e.key];
      const int from = plan.task_processor[m.from], to = plan.task_processor[m.to];
      double start = std::max({e.time, ws.send_free[from], ws.receive_free[to]});
      if (!plan.overlap) start = std::max({start, ws.compute_free[from], ws.compute_free[to]});
      const double end = start + message[e.key];
      if constexpr (traced) {
        trace->message_start[e.key] = start;
        trace->arrival[e.key] = end;
        const Binding bind(*trace, start);
        bind(e.time, Bound::finish, m.from);
        bind(ws.send_free[from], trace->send_holder[from]);
        bind(ws.receive_free[to], trace->receive_holder[to]);
        if (!plan.overlap) {
          bind(ws.compute_free[from], trace->compute_holder[from]);
          bind(ws.compute_free[to], trace->compute_holder[to]);
        }
        trace->message_binders[e.key] = bind.range();
        if (end >= ws.send_free[from]) trace->send_holder[from] = {Bound::arrival, e.key};
        if (end >= ws.receive_free[to]) trace->receive_holder[to] = {Bound::arrival, e.key};
      }
      ws.send_free[from] = std::max(ws.send_free[from], end);
      ws.receive_free[to] = std::max(ws.receive_free[to], end);
      deliver(m.to, end);
    }
  }
  double makespan = minus_infinity;
  for (const auto t : plan.sinks) makespan = std::max(makespan, finish[t]);
  return makespan;
}

// The greedy (work-conserving) one-port model, event by event (the rules are in plan.h): a
// resource is busy from the start of its item until that item's end is processed; after each
// instant's ends, the waiting messages (by ready time, then message order) and then the waiting
// tasks (plan order) start where their resources are idle. Per instant it scans what waits.
template <bool traced = false>
double simulate_one_port_greedy(const Plan& plan, double* finish, const double* duration, const double* message,
                                Workspace& ws, DagTrace* trace = nullptr) {
  using Event = Workspace::Event;
  using Bound = DagTrace::Bound;
  const auto later = [](const Event& a, const Event& b) { return a.time != b.time ? a.time > b.time : a.key > b.key; };
  const std::size_t tasks = plan.task_sampler.size();
  const bool overlap = plan.overlap;
  const int* processor = plan.task_processor.data();
  auto& heap = ws.events;
  auto& messages = ws.waiting_messages;
  auto& ready_tasks = ws.waiting_tasks;
  heap.clear();
  messages.clear();
  ready_tasks.clear();
  std::fill(ws.send_free.begin(), ws.send_free.end(), minus_infinity);
  std::fill(ws.receive_free.begin(), ws.receive_free.end(), minus_infinity);
  std::fill(ws.compute_free.begin(), ws.compute_free.end(), minus_infinity);
  std::fill(ws.sending.begin(), ws.sending.end(), std::uint8_t{0});
  std::fill(ws.receiving.begin(), ws.receiving.end(), std::uint8_t{0});
  std::fill(ws.computing.begin(), ws.computing.end(), std::uint8_t{0});
  for (std::size_t t = 0; t < tasks; ++t) {
    ws.missing[t] = plan.pred_begin[t + 1] - plan.pred_begin[t];
    ws.input_time[t] = minus_infinity;
    if (ws.missing[t] == 0) {
      ws.input_time[t] = 0.0;  // sources at 0
      ready_tasks.push_back(static_cast<std::uint32_t>(t));
    }
  }
  const auto ready_before = [&](std::uint32_t a, std::uint32_t b) {
    const double x = finish[plan.messages[a].from], y = finish[plan.messages[b].from];
    return x != y ? x < y : a < b;
  };
  const auto deliver = [&](std::uint32_t t, double time) {
    ws.input_time[t] = std::max(ws.input_time[t], time);
    if (--ws.missing[t] == 0) ready_tasks.insert(std::upper_bound(ready_tasks.begin(), ready_tasks.end(), t), t);
  };
  for (;;) {
    // Start what can start now: messages first, then tasks.
    std::size_t kept = 0;
    for (const std::uint32_t k : messages) {
      const Message& m = plan.messages[k];
      const int from = processor[m.from], to = processor[m.to];
      if (ws.sending[from] || ws.receiving[to] || (!overlap && (ws.computing[from] || ws.computing[to]))) {
        messages[kept++] = k;
        continue;
      }
      double start = std::max({finish[m.from], ws.send_free[from], ws.receive_free[to]});
      if (!overlap) start = std::max({start, ws.compute_free[from], ws.compute_free[to]});
      const double end = start + message[k];
      if constexpr (traced) {
        trace->message_start[k] = start;
        trace->arrival[k] = end;
        const Binding bind(*trace, start);
        bind(finish[m.from], Bound::finish, m.from);
        bind(ws.send_free[from], trace->send_holder[from]);
        bind(ws.receive_free[to], trace->receive_holder[to]);
        if (!overlap) {
          bind(ws.compute_free[from], trace->compute_holder[from]);
          bind(ws.compute_free[to], trace->compute_holder[to]);
        }
        trace->message_binders[k] = bind.range();
        trace->send_holder[from] = trace->receive_holder[to] = {Bound::arrival, k};
      }
      ws.sending[from] = ws.receiving[to] = 1;
      ws.send_free[from] = ws.receive_free[to] = end;  // each resource: the end of the last item it ran
      heap.push_back({end, k});
      std::push_heap(heap.begin(), heap.end(), later);
    }
    messages.resize(kept);
    kept = 0;
    for (const std::uint32_t t : ready_tasks) {
      const int p = processor[t];
      if (ws.computing[p] || (!overlap && (ws.sending[p] || ws.receiving[p]))) {
        ready_tasks[kept++] = t;
        continue;
      }
      double start = std::max(ws.input_time[t], ws.compute_free[p]);
      if (!overlap) start = std::max({start, ws.send_free[p], ws.receive_free[p]});
      finish[t] = start + duration[t];
      if constexpr (traced) {
        trace->start[t] = start;
        const Binding bind(*trace, start);
        bind_task_inputs(plan, finish, *trace, t, bind);
        bind(ws.compute_free[p], trace->compute_holder[p]);
        if (!overlap) {
          bind(ws.send_free[p], trace->send_holder[p]);
          bind(ws.receive_free[p], trace->receive_holder[p]);
        }
        trace->task_binders[t] = bind.range();
        trace->compute_holder[p] = {Bound::finish, t};
      }
      ws.computing[p] = 1;
      ws.compute_free[p] = finish[t];
      heap.push_back({finish[t], task_bit | t});
      std::push_heap(heap.begin(), heap.end(), later);
    }
    ready_tasks.resize(kept);
    if (heap.empty()) break;
    // The next instant: every end at the earliest time left.
    const double now = heap.front().time;
    while (!heap.empty() && heap.front().time == now) {
      std::pop_heap(heap.begin(), heap.end(), later);
      const Event e = heap.back();
      heap.pop_back();
      if (e.key & task_bit) {
        const std::uint32_t t = e.key & ~task_bit;
        ws.computing[processor[t]] = 0;
        for (auto j = plan.succ_begin[t]; j < plan.succ_begin[t + 1]; ++j) {
          const int m = plan.succ_message[j];
          if (m < 0) {
            deliver(plan.succs[j], finish[t]);
          } else {
            const auto k = static_cast<std::uint32_t>(m);
            messages.insert(std::upper_bound(messages.begin(), messages.end(), k, ready_before), k);
          }
        }
      } else {
        const Message& m = plan.messages[e.key];
        ws.sending[processor[m.from]] = 0;
        ws.receiving[processor[m.to]] = 0;
        deliver(m.to, e.time);
      }
    }
  }
  double makespan = minus_infinity;
  for (const auto t : plan.sinks) makespan = std::max(makespan, finish[t]);
  return makespan;
}

// A custom DAG's task times for one replication, in draw order from its one stream.
template <class Draw>
void draw_tasks(const Plan& plan, const Draw& draw, ProcessorStream& stream, double* duration) {
  const auto* order = plan.draw_order.data();
  const std::size_t n = plan.draw_order.size();
  if (plan.task_scale.empty()) {
    for (std::size_t i = 0; i < n; ++i) duration[order[i]] = draw(i, stream);
  } else {
    const double* scale = plan.task_scale.data();
    for (std::size_t i = 0; i < n; ++i) duration[order[i]] = scale[order[i]] * draw(i, stream);
  }
}

// A custom DAG's task times of a replication from its one stream into ws.durations (plan order),
// each times its processor's slowdown factor when `factor` is given.
void draw_single_stream(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws, const double* factor) {
  ProcessorStream& stream = ws.protocol_stream;
  stream.reset(seed, rep, 0, ProcessorStream::dag_tasks);
  double* duration = ws.durations.data();
  if (!plan.uniform_draws.empty()) {
    const auto* draws = plan.uniform_draws.data();
    draw_tasks(plan, [draws](std::size_t i, ProcessorStream& s) { return draws[i](s); }, stream, duration);
  } else if (!plan.normal_draws.empty()) {
    const auto* draws = plan.normal_draws.data();
    draw_tasks(plan, [draws](std::size_t i, ProcessorStream& s) { return draws[i](s); }, stream, duration);
  } else {
    const auto* order = plan.draw_order.data();
    draw_tasks(plan, [&plan, order](std::size_t i, ProcessorStream& s) {
      return plan.samplers[static_cast<std::size_t>(plan.task_sampler[order[i]])](s);
    }, stream, duration);
  }
  if (factor)
    for (const auto t : plan.draw_order) duration[t] = factor[plan.task_processor[t]] * duration[t];
}

// A DAG's message times of a replication into ws.message_times.
void draw_messages(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws) {
  ProcessorStream& stream = ws.protocol_stream;
  stream.reset(seed, rep, 0, ProcessorStream::messages);
  double* message = ws.message_times.data();
  for (std::size_t k = 0; k < plan.messages.size(); ++k)
    message[k] = plan.samplers[static_cast<std::size_t>(plan.messages[k].law)](stream);
}

// The makespan of a custom DAG's replication whose task times are in ws.durations: its messages
// drawn, then the propagation its port model and cores call for.
double propagate_drawn(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws) {
  double* duration = ws.durations.data();
  if (plan.ready_dispatch()) {
    if (!plan.messages.empty()) draw_messages(plan, seed, rep, ws);
    return simulate_ready(plan, ws.first.data(), duration, plan.messages.empty() ? nullptr : ws.message_times.data(), ws);
  }
  if (plan.messages.empty()) {
    if (plan.multicore()) return propagate_cores(plan, ws.first.data(), duration, nullptr, ws);
    return propagate(plan, ws.first.data(), [duration](std::size_t t) { return duration[t]; });
  }
  draw_messages(plan, seed, rep, ws);
  double* message = ws.message_times.data();
  if (plan.network) {
    if (plan.network->sharing != Sharing::none) return detail::simulate_network(plan, ws.first.data(), duration, message, ws);
    detail::price_alone(plan, message);  // then the free-port rule on those times
  }
  if (plan.multicore()) return propagate_cores(plan, ws.first.data(), duration, message, ws);
  if (plan.port == Port::free) return propagate_free(plan, ws.first.data(), duration, message);
  return (plan.port == Port::one_port ? simulate_one_port<false> : simulate_one_port_greedy<false>)(plan, ws.first.data(), duration, message, ws, nullptr);
}

// A generic plan of Wilson's structure drawn with its slowdown factors (the draws in plan order,
// as propagate makes them).
double evaluate_dag_per_processor_slowed(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws,
                                         const double* factor) {
  reset_streams(plan, seed, rep, ws);
  return propagate(plan, ws.first.data(), [&](std::size_t t) {
    const int p = plan.task_processor[t];
    return factor[p] * plan.samplers[plan.task_sampler[t]](ws.streams[p]);
  });
}

// A DAG's replication with slowdown factors, out of line: evaluate_dag stays as lean as without them.
[[gnu::noinline]] double evaluate_dag_slowed(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws,
                                             const double* factor) {
  if (plan.task_streams == TaskStreams::per_processor) return evaluate_dag_per_processor_slowed(plan, seed, rep, ws, factor);
  draw_single_stream(plan, seed, rep, ws, factor);
  return propagate_drawn(plan, seed, rep, ws);
}

}  // namespace

namespace detail {

double evaluate_dag(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws, double* busy) {
  if (plan.task_streams == TaskStreams::per_processor) {
    reset_streams(plan, seed, rep, ws);
    return propagate(plan, ws.first.data(), [&](std::size_t t) {
      const int p = plan.task_processor[t];
      const double x = plan.samplers[plan.task_sampler[t]](ws.streams[p]);
      if (busy) busy[p] += x;
      return x;
    });
  }
  draw_single_stream(plan, seed, rep, ws, nullptr);
  if (busy)
    for (const auto t : plan.draw_order) busy[plan.task_processor[t]] += ws.durations[t];
  return propagate_drawn(plan, seed, rep, ws);
}


}  // namespace detail

namespace {

template <class Draw>
double evaluate_regular(const Plan& plan, const Draw* draws, std::uint64_t seed, std::uint64_t rep, Workspace& ws) {
  switch (plan.kind) {
    case PlanKind::asynchronous: return evaluate_asynchronous(plan, draws, seed, rep, ws);
    case PlanKind::synchronous: return evaluate_synchronous(plan, draws, seed, rep, ws);
    case PlanKind::neighbor_sequential:
    case PlanKind::neighbor_plain: return evaluate_neighbor(plan, draws, seed, rep, ws);
    case PlanKind::task_pool: return evaluate_task_pool(plan, draws, seed, rep, ws);
    case PlanKind::dag:
    case PlanKind::protocol: break;
  }
  return evaluate_dag(plan, seed, rep, ws);
}

}  // namespace

namespace detail {

double evaluate_protocol(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws, double* busy,
                         DrawLog* log, const double* factors) {
  reset_streams(plan, seed, rep, ws);
  ws.protocol_stream.reset(seed, rep, 0, ProcessorStream::protocol);
  TaskTimes times(plan.samplers.data(), ws.streams.data(), ws.protocol_stream, busy, log, factors);
  return ws.protocol->run(times);
}

}  // namespace detail

namespace {

// A replication with slowdowns: the factors first, then the plan's own evaluation on scaled times.
// Kept out of line so that evaluate()'s own paths compile as before.
[[gnu::noinline]] double evaluate_slowed(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws) {
  draw_slowdowns(plan, seed, rep, ws);
  const double* factors = ws.factors.data();
  if (plan.kind == PlanKind::dag) return evaluate_dag_slowed(plan, seed, rep, ws, factors);
  if (plan.kind == PlanKind::protocol) return evaluate_protocol(plan, seed, rep, ws, nullptr, nullptr, factors);
  const auto scaled = [&](auto& draws, const auto* of) {
    if (draws.size() != ws.factors.size() || draws.front().factor != factors) {  // first use, or moved
      draws.clear();
      for (int i = 0; i < plan.width; ++i) draws.push_back({&of[i], &ws.factors[i]});
    }
    return evaluate_regular(plan, draws.data(), seed, rep, ws);
  };
  if (!plan.uniform_draws.empty()) return scaled(ws.scaled_uniform_draws, plan.uniform_draws.data());
  if (!plan.normal_draws.empty()) return scaled(ws.scaled_normal_draws, plan.normal_draws.data());
  return scaled(ws.scaled_draws, plan.samplers.data());
}

}  // namespace

double evaluate_busy(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws) {
  if (plan.slowed()) throw std::logic_error("evaluate_busy: a plan with slowdowns has no busy times here");
  std::fill(ws.busy.begin(), ws.busy.end(), 0.0);
  if (plan.kind == PlanKind::dag) return evaluate_dag(plan, seed, rep, ws, ws.busy.data());
  if (plan.kind == PlanKind::protocol) return evaluate_protocol(plan, seed, rep, ws, ws.busy.data());
  // The Sampler draws the same variates as the monomorphic leaf draws.
  auto& draws = ws.busy_draws;
  if (draws.size() != ws.busy.size() || draws.front().busy != ws.busy.data()) {  // first use, or moved
    draws.clear();
    for (int i = 0; i < plan.width; ++i) draws.push_back({&plan.samplers[i], &ws.busy[i]});
  }
  return evaluate_regular(plan, draws.data(), seed, rep, ws);
}

double evaluate_on_task_times(const Plan& plan, const double* task_times, Workspace& ws) {
  if (plan.slowed()) throw std::logic_error("evaluate_on_task_times: the given times would not be slowed");
  switch (plan.kind) {
    case PlanKind::asynchronous:
    case PlanKind::synchronous:
    case PlanKind::neighbor_sequential:
    case PlanKind::neighbor_plain: break;
    case PlanKind::task_pool:
    case PlanKind::dag:
    case PlanKind::protocol: throw std::logic_error("evaluate_on_task_times: not a plan of levels");
  }
  ws.replay.resize(static_cast<std::size_t>(plan.width));
  for (int i = 0; i < plan.width; ++i) ws.replay[i].next = task_times + static_cast<std::size_t>(i) * plan.levels;
  return evaluate_regular(plan, ws.replay.data(), 0, 0, ws);  // the streams are reset, never drawn
}

void draw_slowdowns(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws) {
  if (!plan.slowed()) {
    ws.factors.clear();
    return;
  }
  ws.factors.resize(static_cast<std::size_t>(plan.width));
  ProcessorStream& stream = ws.slowdown_stream;
  stream.reset(seed, rep, 0, ProcessorStream::slowdown);
  const distributions::Sampler* sampler = plan.slowdown_samplers.data();
  const double machine = plan.slowdown.machine ? (*sampler++)(stream) : 1.0;
  const std::size_t laws = plan.slowdown.processor.size();  // 0, 1 (every processor's) or the width
  for (std::size_t i = 0; i < static_cast<std::size_t>(plan.width); ++i) {
    const distributions::Sampler& law = sampler[laws > 1 ? i : 0];
    ws.factors[i] = laws > 0 ? (plan.slowdown.machine ? machine * law(stream) : law(stream)) : machine;
  }
}

void draw_dag_times(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws) {
  if (plan.kind != PlanKind::dag) throw std::logic_error("draw_dag_times: not a DAG plan");
  draw_slowdowns(plan, seed, rep, ws);
  const double* factor = plan.slowed() ? ws.factors.data() : nullptr;
  if (plan.task_streams == TaskStreams::per_processor) {
    reset_streams(plan, seed, rep, ws);
    for (std::size_t t = 0; t < plan.task_sampler.size(); ++t) {
      if (plan.task_sampler[t] < 0) {
        ws.durations[t] = 0.0;
        continue;
      }
      const int p = plan.task_processor[t];
      const double x = plan.samplers[plan.task_sampler[t]](ws.streams[p]);
      ws.durations[t] = factor ? factor[p] * x : x;
    }
  } else {
    draw_single_stream(plan, seed, rep, ws, factor);
  }
  if (!plan.messages.empty()) draw_messages(plan, seed, rep, ws);
}

double trace_dag(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws, DagTrace& trace) {
  if (plan.network) throw InputError("platform", "a DAG's trace (criticality, schedules) does not apply beside a platform yet");
  draw_dag_times(plan, seed, rep, ws);
  reset_trace(plan, trace);
  const double* duration = ws.durations.data();
  const double* message = plan.messages.empty() ? nullptr : ws.message_times.data();
  double* finish = trace.finish.data();
  if (plan.ready_dispatch())
    trace.makespan = simulate_ready<true>(plan, finish, duration, message, ws, &trace);
  else if (plan.port == Port::free || !message)
    trace.makespan = propagate_cores<true>(plan, finish, duration, message, ws, &trace);
  else
    trace.makespan = (plan.port == Port::one_port ? simulate_one_port<true> : simulate_one_port_greedy<true>)(plan, finish, duration, message, ws, &trace);
  return trace.makespan;
}

double evaluate(const Plan& plan, std::uint64_t seed, std::uint64_t rep, Workspace& ws) {
  if (plan.slowed()) [[unlikely]] return evaluate_slowed(plan, seed, rep, ws);
  if (plan.kind == PlanKind::dag) return evaluate_dag(plan, seed, rep, ws);
  if (plan.kind == PlanKind::protocol) return evaluate_protocol(plan, seed, rep, ws, nullptr);
  if (!plan.uniform_draws.empty()) return evaluate_regular(plan, plan.uniform_draws.data(), seed, rep, ws);
  if (!plan.normal_draws.empty()) return evaluate_regular(plan, plan.normal_draws.data(), seed, rep, ws);
  return evaluate_regular(plan, plan.samplers.data(), seed, rep, ws);
}

double longest_path(const Plan& plan, std::span<const double> durations, std::span<double> finish) {
  if (plan.multicore() || plan.ready_dispatch())
    throw std::logic_error("longest_path: a plan of processors of several cores or of ready dispatch has no longest path");
  return propagate(plan, finish.data(), [&](std::size_t t) { return durations[t]; });
}

}  // namespace hetstruct::engine
