// A DAG's messages on a SimGrid platform: compilation and the event loop (network.h).
#include "engine/kernel/network.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "distributions/input_error.h"
#include "engine/kernel/plan.h"
#include "structures/platform.h"
#include "structures/structure.h"

namespace hetstruct::engine {

const char* to_string(Sharing sharing) {
  switch (sharing) {
    case Sharing::none: return "none";
    case Sharing::max_min: return "max-min";
    case Sharing::rtt: return "rtt";
  }
  return "?";
}

Sharing parse_sharing(const std::string& name) {
  if (name == "none") return Sharing::none;
  if (name == "max-min") return Sharing::max_min;
  if (name == "rtt") return Sharing::rtt;
  throw InputError("sharing", "'" + name + "' is not a sharing model", "none, max-min or rtt");
}

struct NetworkWorkspace {
  std::vector<std::uint32_t> missing;
  std::vector<double> input, start, core_free;
  struct Event {
    double time;
    std::uint32_t key;  // tasks: their position; latency ends: latency_bit | message
  };
  static constexpr std::uint32_t latency_bit = 1u << 31;
  std::vector<Event> heap;
  std::vector<std::uint32_t> active;       // messages in transfer, in the order they started
  std::vector<double> remaining, rate;     // per message
  std::vector<double> capacity, usage;     // per link
  std::vector<std::uint32_t> unsettled;    // per link: unsettled messages crossing it
  std::vector<std::uint8_t> settled;       // per message
  std::vector<std::uint32_t> links_in_use, newly, ended;
  std::vector<std::uint8_t> in_use;        // per link
};

std::shared_ptr<NetworkWorkspace> make_network_workspace(const Plan& plan) {
  auto ws = std::make_shared<NetworkWorkspace>();
  const std::size_t tasks = plan.task_sampler.size(), messages = plan.messages.size();
  const std::size_t links = plan.network->bandwidth.size();
  ws->missing.resize(tasks);
  ws->input.resize(tasks);
  ws->start.resize(tasks);
  ws->core_free.resize(plan.core_begin.empty() ? 0 : plan.core_begin.back());
  ws->heap.reserve(tasks + messages);
  ws->active.reserve(messages);
  ws->remaining.resize(messages);
  ws->rate.resize(messages);
  ws->capacity.resize(links);
  ws->usage.resize(links);
  ws->unsettled.assign(links, 0);
  ws->settled.resize(messages);
  ws->in_use.assign(links, 0);
  ws->links_in_use.reserve(links);
  ws->newly.reserve(messages);
  ws->ended.reserve(messages);
  return ws;
}

void compile_network(const structures::Structure& s, Sharing sharing, Plan& plan) {
  const structures::Platform& platform = *s.platform;
  if (plan.port != Port::free)
    throw InputError("port", std::string("the one-port model ") + to_string(plan.port) + " does not apply beside a platform",
                     "the platform's links share the bandwidth (--sharing)");
  if (plan.ready_dispatch())
    throw InputError("dispatch", "ready dispatch does not apply beside a platform yet", "give --dispatch ordered");
  if (plan.width > static_cast<int>(platform.hosts.size()))
    throw InputError("platform", "the graph uses " + std::to_string(plan.width) + " processors, the platform has " +
                                     std::to_string(platform.hosts.size()) + " hosts");
  // The event loop's start of a task that waits for a free core of a host of several is not yet
  // settled against the free-port rule (docs/platform.md, the known open question): refused
  // rather than a number that may be off.
  if (sharing != Sharing::none) {
    std::vector<int> tasks(platform.hosts.size(), 0);
    for (const int p : plan.task_processor) ++tasks.at(static_cast<std::size_t>(p));
    for (std::size_t h = 0; h < platform.hosts.size(); ++h)
      if (platform.hosts[h].cores > 1 && tasks[h] > platform.hosts[h].cores)
        throw InputError("sharing", std::string(to_string(sharing)) + " on host " + platform.hosts[h].id + ": " +
                                        std::to_string(tasks[h]) + " tasks on " + std::to_string(platform.hosts[h].cores) +
                                        " cores may wait for a free core, which the shared-link model does not yet run "
                                        "exactly (docs/platform.md)",
                         "give --sharing none, or at most as many tasks as cores on a host of several cores");
  }
  auto net = std::make_shared<Network>();
  net->sharing = sharing;
  for (const auto& link : platform.links) {
    net->bandwidth.push_back(link.bandwidth);
    net->fatpipe.push_back(link.sharing == structures::LinkSharing::fatpipe);
  }
  net->route_begin.assign(1, 0);
  for (const Message& m : plan.messages) {
    const auto a = static_cast<std::size_t>(plan.task_processor[m.from]), b = static_cast<std::size_t>(plan.task_processor[m.to]);
    if (!platform.has_route(a, b)) {
      const auto& g = s.graph();
      throw InputError(platform.source, "no route from " + platform.hosts[a].id + " to " + platform.hosts[b].id + " (the message '" +
                                            g[plan.task_vertex[m.from]].name + "' -> '" + g[plan.task_vertex[m.to]].name + "')",
                       "add a <route src=\"" + platform.hosts[a].id + "\" dst=\"" + platform.hosts[b].id + "\">");
    }
    const auto& route = platform.route(a, b);
    net->route_links.insert(net->route_links.end(), route.begin(), route.end());
    net->route_begin.push_back(static_cast<std::uint32_t>(net->route_links.size()));
    const double latency = platform.route_latency(a, b);
    net->latency.push_back(latency);
    net->weight.push_back(sharing == Sharing::rtt && latency > 0.0 ? latency : 1.0);
    net->bottleneck.push_back(platform.route_bottleneck(a, b));
  }
  const std::size_t tasks = plan.task_sampler.size();
  net->succ_begin.assign(tasks + 1, 0);
  for (std::size_t t = 0; t < tasks; ++t)
    for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j) ++net->succ_begin[plan.preds[j] + 1];
  for (std::size_t t = 0; t < tasks; ++t) net->succ_begin[t + 1] += net->succ_begin[t];
  net->succs.resize(net->succ_begin.back());
  net->succ_message.resize(net->succ_begin.back());
  std::vector<std::uint32_t> fill(net->succ_begin.begin(), net->succ_begin.end() - 1);
  for (std::size_t t = 0; t < tasks; ++t)
    for (auto j = plan.pred_begin[t]; j < plan.pred_begin[t + 1]; ++j) {
      const auto at = fill[plan.preds[j]]++;
      net->succs[at] = static_cast<std::uint32_t>(t);
      net->succ_message[at] = plan.pred_message[j];
    }
  net->start_next.assign(tasks, Plan::no_task);
  if (plan.multicore())
    for (std::size_t t = 0; t < tasks; ++t)
      if (plan.start_after[t] != Plan::no_task) net->start_next[plan.start_after[t]] = static_cast<std::uint32_t>(t);
  // A task's work in flops over its host's speed times its cores.
  plan.task_scale.assign(tasks, 1.0);
  for (std::size_t t = 0; t < tasks; ++t) {
    const int p = plan.task_processor[t];
    if (p < 0) continue;
    const double speed = platform.hosts[static_cast<std::size_t>(p)].speed;
    plan.task_scale[t] = 1.0 / (speed * static_cast<double>(plan.cores_of_task(t)));
  }
  plan.network = std::move(net);
}

namespace detail {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// The weighted max-min rates of the messages in transfer (SimGrid's progressive filling).
void share(const Network& net, NetworkWorkspace& w) {
  if (net.sharing == Sharing::none) {
    for (const auto m : w.active) w.rate[m] = net.bottleneck[m];
    return;
  }
  w.links_in_use.clear();
  for (const auto m : w.active) {
    w.settled[m] = 0;
    const double inverse = 1.0 / net.weight[m];
    for (auto i = net.route_begin[m]; i < net.route_begin[m + 1]; ++i) {
      const auto l = net.route_links[i];
      if (!w.in_use[l]) {
        w.in_use[l] = 1;
        w.links_in_use.push_back(l);
        w.capacity[l] = net.bandwidth[l];
        w.usage[l] = 0.0;
        w.unsettled[l] = 0;
      }
      ++w.unsettled[l];
      w.usage[l] = net.fatpipe[l] ? std::max(w.usage[l], inverse) : w.usage[l] + inverse;
    }
  }
  std::size_t left = w.active.size();
  while (left > 0) {
    double least = infinity;
    for (const auto l : w.links_in_use)
      if (w.unsettled[l] > 0) least = std::min(least, w.capacity[l] / w.usage[l]);
    // Every unsettled message crossing a link of that share settles at it over its weight.
    w.newly.clear();
    for (const auto m : w.active) {
      if (w.settled[m]) continue;
      for (auto i = net.route_begin[m]; i < net.route_begin[m + 1]; ++i) {
        const auto l = net.route_links[i];
        if (w.capacity[l] / w.usage[l] == least) {
          w.newly.push_back(m);
          break;
        }
      }
    }
    for (const auto m : w.newly) {
      w.settled[m] = 1;
      w.rate[m] = least / net.weight[m];
      --left;
    }
    for (const auto m : w.newly) {
      const double inverse = 1.0 / net.weight[m];
      for (auto i = net.route_begin[m]; i < net.route_begin[m + 1]; ++i) {
        const auto l = net.route_links[i];
        --w.unsettled[l];
        if (net.fatpipe[l]) continue;
        w.capacity[l] = std::max(0.0, w.capacity[l] - w.rate[m]);
        w.usage[l] = w.unsettled[l] == 0 ? 0.0 : w.usage[l] - inverse;
      }
    }
    // A FATPIPE link's share follows the largest 1/weight still unsettled across it.
    for (const auto m : w.newly)
      for (auto i = net.route_begin[m]; i < net.route_begin[m + 1]; ++i) {
        const auto l = net.route_links[i];
        if (net.fatpipe[l]) w.usage[l] = 0.0;
      }
    for (const auto m : w.active) {
      if (w.settled[m]) continue;
      const double inverse = 1.0 / net.weight[m];
      for (auto i = net.route_begin[m]; i < net.route_begin[m + 1]; ++i) {
        const auto l = net.route_links[i];
        if (net.fatpipe[l]) w.usage[l] = std::max(w.usage[l], inverse);
      }
    }
  }
  for (const auto l : w.links_in_use) w.in_use[l] = 0;
}

}  // namespace

void price_alone(const Plan& plan, double* bytes) {
  const Network& net = *plan.network;
  for (std::size_t m = 0; m < plan.messages.size(); ++m) bytes[m] = net.latency[m] + bytes[m] / net.bottleneck[m];
}

double simulate_network(const Plan& plan, double* finish, const double* duration, const double* bytes, Workspace& ws) {
  const Network& net = *plan.network;
  NetworkWorkspace& w = *ws.network;
  using Event = NetworkWorkspace::Event;
  const auto later = [](const Event& a, const Event& b) { return a.time != b.time ? a.time > b.time : a.key > b.key; };
  const std::size_t tasks = plan.task_sampler.size();
  const bool multicore = plan.multicore();
  w.heap.clear();
  w.active.clear();
  std::fill(w.core_free.begin(), w.core_free.end(), 0.0);
  const auto push = [&](double time, std::uint32_t key) {
    w.heap.push_back({time, key});
    std::push_heap(w.heap.begin(), w.heap.end(), later);
  };
  // A task whose inputs are all in starts as the free-port rule says (plan.h).
  std::function<void(std::uint32_t)> start;
  const auto deliver = [&](std::uint32_t v, double time) {
    w.input[v] = std::max(w.input[v], time);
    if (--w.missing[v] == 0) start(v);
  };
  start = [&](std::uint32_t t) {
    double begin = w.input[t];
    const int p = plan.task_processor[t];
    const auto k = p < 0 ? 1u : static_cast<std::uint32_t>(plan.cores_of(p));
    if (multicore && k > 1) {
      double* free = w.core_free.data() + plan.core_begin[static_cast<std::size_t>(p)];
      double* last = free + k;
      const std::uint32_t c = plan.task_cores[t];
      for (std::uint32_t i = 0; i < c; ++i) std::pop_heap(free, last - i, std::greater<>());
      begin = std::max(begin, *(last - c));
      const double end = begin + duration[t];
      for (std::uint32_t i = c; i > 0; --i) {
        *(last - i) = end;
        std::push_heap(free, last - i + 1, std::greater<>());
      }
    }
    w.start[t] = begin;
    finish[t] = begin + duration[t];
    push(finish[t], t);
    if (net.start_next[t] != Plan::no_task) deliver(net.start_next[t], begin);
  };
  bool dirty = false;
  const auto transfer = [&](std::uint32_t m, double time) {
    if (!(bytes[m] > 0.0)) {
      deliver(plan.messages[m].to, time);
      return;
    }
    w.remaining[m] = bytes[m];
    w.active.push_back(m);
    dirty = true;
  };
  for (std::size_t t = 0; t < tasks; ++t) {
    w.missing[t] = plan.pred_begin[t + 1] - plan.pred_begin[t];
    w.input[t] = w.missing[t] == 0 ? 0.0 : -infinity;
  }
  if (multicore)
    for (std::size_t t = 0; t < tasks; ++t)
      if (plan.start_after[t] != Plan::no_task) ++w.missing[t];
  for (std::size_t t = 0; t < tasks; ++t)
    if (w.missing[t] == 0) start(static_cast<std::uint32_t>(t));
  double now = 0.0;
  while (!w.heap.empty() || !w.active.empty()) {
    if (dirty) {
      share(net, w);
      dirty = false;
    }
    double next = w.heap.empty() ? infinity : w.heap.front().time;
    for (const auto m : w.active) next = std::min(next, now + w.remaining[m] / w.rate[m]);
    // Transfers advance to `next`; those that end there leave.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < w.active.size(); ++i) {
      const auto m = w.active[i];
      if (now + w.remaining[m] / w.rate[m] <= next) {
        w.ended.push_back(m);
      } else {
        w.remaining[m] -= w.rate[m] * (next - now);
        w.active[kept++] = m;
      }
    }
    now = next;
    if (kept != w.active.size()) {
      dirty = true;
      w.active.resize(kept);
    }
    for (const auto m : w.ended) deliver(plan.messages[m].to, now);
    w.ended.clear();
    while (!w.heap.empty() && w.heap.front().time <= now) {
      std::pop_heap(w.heap.begin(), w.heap.end(), later);
      const Event e = w.heap.back();
      w.heap.pop_back();
      if (e.key & NetworkWorkspace::latency_bit) {
        transfer(e.key & ~NetworkWorkspace::latency_bit, e.time);
        continue;
      }
      const auto t = e.key;
      for (auto j = net.succ_begin[t]; j < net.succ_begin[t + 1]; ++j) {
        const int m = net.succ_message[j];
        if (m < 0) {
          deliver(net.succs[j], e.time);
        } else if (net.latency[static_cast<std::size_t>(m)] > 0.0) {
          push(e.time + net.latency[static_cast<std::size_t>(m)], NetworkWorkspace::latency_bit | static_cast<std::uint32_t>(m));
        } else {
          transfer(static_cast<std::uint32_t>(m), e.time);
        }
      }
    }
  }
  double makespan = -infinity;
  for (const auto t : plan.sinks) makespan = std::max(makespan, finish[t]);
  return makespan;
}

}  // namespace detail

}  // namespace hetstruct::engine
