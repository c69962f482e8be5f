// A machine as a SimGrid platform file describes it (version 4.1, the subset that describes a
// cluster; docs/platform.md): hosts with a speed per core and a number of cores, links with a
// bandwidth, a latency and a sharing policy, and the route between two hosts as a list of links.
//
// The subset: one <zone routing="Full"> of <host>, <link> and <route> of <link_ctn>, or one
// <cluster> (directly under <platform> or alone in a Full zone), whose hosts, private links and
// backbone are named and routed as SimGrid names and routes them:
//  - hosts prefix + radical + suffix, in the radical's order ("0-3,7": 0, 1, 2, 3, 7);
//  - host i's private link id_link_i (sharing_policy SHARED), or, with SPLITDUPLEX (SimGrid's
//    default for a cluster), two links id_link_i_UP and id_link_i_DOWN, each of bandwidth bw;
//  - a backbone id_backbone of bb_bw and bb_lat when bb_bw or bb_lat is given (bb_sharing_policy
//    SHARED or FATPIPE);
//  - the route from host i to host j: i's link (its UP half), the backbone, j's link (its DOWN
//    half), a link named once even when both ends would name it.
// A Full zone's route is symmetrical unless symmetrical="NO": the reverse route takes the same
// links in the reverse order. Everything else a platform file may hold is refused by its element
// or attribute name and its line, never skipped. Units are SimGrid's: speed f, kf, Mf, Gf, ...
// (and Kif, Mif, ...; flops, kiloflops, ...), bandwidth Bps, kBps, ..., bps, kbps, ... (a bit is
// 1/8 byte) and the KiBps/Kibps families, latency s, ms, us, ns, ps, m, h, d, w; a bare number is
// the base unit (f, Bps, s), as in SimGrid.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hetstruct::structures {

struct CustomDag;

struct PlatformHost {
  std::string id;
  double speed = 0.0;  // flop/s of one core
  int cores = 1;
  int line = 0;        // where the file declares it (a cluster's line for its hosts)
};

enum class LinkSharing { shared, fatpipe };
const char* to_string(LinkSharing sharing);

struct PlatformLink {
  std::string id;
  double bandwidth = 0.0;  // bytes/s
  double latency = 0.0;    // seconds
  LinkSharing sharing = LinkSharing::shared;
};

struct Platform {
  std::string source;               // the file's name, for messages
  std::vector<PlatformHost> hosts;  // in the file's order (a cluster's: its radical's)
  std::vector<PlatformLink> links;  // in the file's order
  // The route from host a to host b: indices into links, in the order a message crosses them.
  // routes[a * hosts.size() + b]; route_defined says whether the file gives one.
  std::vector<std::vector<std::uint32_t>> routes;
  std::vector<std::uint8_t> route_defined;

  int host_index(const std::string& id) const;  // -1 when no host has that id
  bool has_route(std::size_t a, std::size_t b) const { return route_defined[a * hosts.size() + b] != 0; }
  const std::vector<std::uint32_t>& route(std::size_t a, std::size_t b) const { return routes[a * hosts.size() + b]; }
  // The sum of the route's latencies, and its smallest bandwidth (its bottleneck).
  double route_latency(std::size_t a, std::size_t b) const;
  double route_bottleneck(std::size_t a, std::size_t b) const;
  // The host ids comma-separated (for errors naming the choices).
  std::string host_list() const;
};

// Throws InputError with FILE:LINE and the element or attribute for anything outside the subset,
// a value that does not parse whole in its unit, a name given twice or a link a route does not know.
Platform read_platform(const std::string& path);
Platform parse_platform(const std::string& text, const std::string& source_name);

// A DAG on a platform (docs/platform.md): each task's host= (by id) or processor= (an index in the
// platform's host order) becomes its processor, the platform's host p; each processor takes its
// host's cores; an edge's bytes= is its message's size (none: 0 bytes, the route's latency alone).
// Refused beside a platform, by name: processor_scale, processor_cores, costs, an edge's comm=, a
// host the platform lacks (its hosts listed), a processor index beyond its hosts.
void apply_platform(CustomDag& dag, const Platform& platform, const std::string& source);
// Without a platform: host= and bytes= are refused by name (they need --platform).
void refuse_platform_attributes(const CustomDag& dag, const std::string& source);

// SimGrid's units, exposed for the tests: the value in f, Bps or s; InputError naming `what`.
double parse_platform_speed(const std::string& text, const std::string& what);
double parse_platform_bandwidth(const std::string& text, const std::string& what);
double parse_platform_latency(const std::string& text, const std::string& what);

}  // namespace hetstruct::structures
