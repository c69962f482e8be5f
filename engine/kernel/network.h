// A DAG's messages on a SimGrid platform (structures/platform.h; docs/platform.md).
//
// Under a platform, processor p is the platform's host p; a task's draw is its work in flops and
// runs in work / (speed * c) seconds on c cores of a host of speed s per core. A message between
// tasks on two hosts leaves when its sender finishes, waits its route's latency (the sum of its
// links'), then transfers its bytes at the rate it gets; rates are recomputed whenever a transfer
// starts or ends:
//  - Sharing::rtt (the default): SimGrid's CM02 model with no correction factors, no TCP window and
//    no cross-traffic: a weighted max-min share over the links, each message of weight its route's
//    latency (1 when the latency is 0) getting a rate inversely proportional to its weight;
//  - Sharing::max_min: the same with every weight 1 (the textbook max-min fairness);
//  - Sharing::none: each message alone on its route, at its bottleneck bandwidth.
// The weighted max-min share is SimGrid's progressive filling: every link's fair share is its
// remaining bandwidth over the sum of 1/weight of the unsettled messages crossing it (a FATPIPE
// link: their largest 1/weight, its bandwidth never used up); the links of the smallest share
// saturate, each unsettled message crossing one gets that share over its weight, and the filling
// goes on with what is left. A FATPIPE link thus gives a message its whole bandwidth when the
// weights are equal. A message of 0 bytes arrives when its latency has passed.
//
// The event loop (simulate_network) takes, at each step, the earliest of the next task finish, the
// next latency end and the next transfer end; tasks on each host start as the plan's free-port
// rule says (a chain on one core; in order, on free cores, on several).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hetstruct::structures {
struct Structure;
}

namespace hetstruct::engine {

class Plan;
class Workspace;

enum class Sharing { none, max_min, rtt };
const char* to_string(Sharing sharing);
// Accepts none, max-min and rtt (InputError naming `sharing` otherwise).
Sharing parse_sharing(const std::string& name);

// A plan's network (Plan::network), compiled once from the structure's platform.
struct Network {
  Sharing sharing = Sharing::rtt;
  std::vector<double> bandwidth;      // per link, bytes/s
  std::vector<std::uint8_t> fatpipe;  // per link
  // Message m crosses links route_links[route_begin[m] .. route_begin[m+1]).
  std::vector<std::uint32_t> route_begin, route_links;
  std::vector<double> latency, weight, bottleneck;  // per message
  // Successors of task t: succs[succ_begin[t] .. succ_begin[t+1]), each with its message (-1: none).
  std::vector<std::uint32_t> succ_begin, succs;
  std::vector<int> succ_message;
  std::vector<std::uint32_t> start_next;  // on a host of several cores, the task it starts just after (or none)
};

// Per-thread buffers of the event loop.
struct NetworkWorkspace;
std::shared_ptr<NetworkWorkspace> make_network_workspace(const Plan& plan);

// Compiles the structure's platform into plan.network and the tasks' scales (1 / (speed * cores)).
// InputError for what the platform model does not take: a one-port model, ready dispatch, a
// message between hosts the platform gives no route for (both named).
void compile_network(const structures::Structure& s, Sharing sharing, Plan& plan);

namespace detail {
// One replication on drawn task works (duration: already divided by speed * cores) and message
// bytes; fills finish[] and returns the makespan.
double simulate_network(const Plan& plan, double* finish, const double* duration, const double* bytes, Workspace& ws);
// Sharing::none: no message slows another, so each message's bytes become its time, latency +
// bytes / bottleneck, in place, and the plan's free-port propagation runs on them (the same
// makespan as the event loop's, up to the rounding of that sum).
void price_alone(const Plan& plan, double* bytes);
}  // namespace detail

}  // namespace hetstruct::engine
