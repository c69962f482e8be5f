// The reference for `hetstruct simulate --platform` (issue 40, docs/platform.md): SimGrid 3.32 runs a
// DOT DAG at constant times on a platform file and prints the makespan. Independent of hetstruct's
// code: SimGrid reads the platform, routes the messages and shares the links itself.
//
//   simgrid_platform PLATFORM.xml DAG.dot --cfg=network/model:CM02 --cfg=network/TCP-gamma:0
//       --cfg=network/crosstraffic:0 --cfg=network/optim:Full
//
// SIMGRID_PLATFORM_VERBOSE=1 prints the routes and each activity's end on stderr.
// The DAG: vertices `name [host="id", law="c(FLOPS)", cores=C]`, edges `a -> b [bytes=N]` (none: 0
// bytes), one a line, in the subset tests/data/platforms/*.dot use. A task is an Exec of FLOPS on
// its host with C threads; an edge between two hosts is a Comm of N bytes between them, between
// tasks of one host a plain dependency. A host of one core runs its tasks one at a time in the
// file's order (dependencies between consecutive tasks), hetstruct's chain; a task of C cores is C
// threads of FLOPS/C each (SimGrid's flops amount is each thread's); the DAGs give hosts of
// several cores no more concurrent threads than cores, so that every task starts when its inputs are in.
// Built only on demand (tests/CMakeLists.txt: where pkg-config finds SimGrid); the outputs are
// stored in tests/data/platforms/simgrid_makespans.txt by tests/reference/simgrid_platform.sh.
#include <simgrid/s4u.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

struct Task {
  std::string name, host;
  double flops = 0.0;
  int cores = 1;
};

struct Edge {
  std::string from, to;
  std::uint64_t bytes = 0;
};

std::string attribute(const std::string& list, const std::string& key) {
  const std::regex re("(^|[ ,])" + key + "=\"?([^\",\\]]*)\"?");
  std::smatch m;
  return std::regex_search(list, m, re) ? m[2].str() : std::string();
}

}  // namespace

int main(int argc, char** argv) {
  sg4::Engine e(&argc, argv);
  if (argc != 3) {
    std::cerr << "usage: simgrid_platform PLATFORM.xml DAG.dot [--cfg=...]\n";
    return 2;
  }
  e.load_platform(argv[1]);
  std::ifstream in(argv[2]);
  if (!in) {
    std::cerr << "simgrid_platform: cannot open " << argv[2] << "\n";
    return 2;
  }
  std::vector<Task> tasks;
  std::vector<Edge> edges;
  const std::regex vertex(R"(^\s*(\w+)\s*\[(.*)\]\s*;\s*$)"), edge(R"(^\s*(\w+)\s*->\s*(\w+)\s*(\[(.*)\])?\s*;\s*$)");
  const std::regex constant(R"(c\(([^)]*)\))");
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, edge)) {
      Edge x{m[1].str(), m[2].str(), 0};
      const std::string bytes = attribute(m[4].str(), "bytes");
      if (!bytes.empty()) x.bytes = static_cast<std::uint64_t>(std::stod(bytes));
      edges.push_back(x);
    } else if (std::regex_match(line, m, vertex)) {
      Task t;
      t.name = m[1].str();
      t.host = attribute(m[2].str(), "host");
      std::smatch c;
      const std::string law = attribute(m[2].str(), "law");
      if (!std::regex_match(law, c, constant)) {
        std::cerr << "simgrid_platform: vertex " << t.name << ": law '" << law << "' is not c(FLOPS)\n";
        return 2;
      }
      t.flops = std::stod(c[1].str());
      const std::string cores = attribute(m[2].str(), "cores");
      if (!cores.empty()) t.cores = std::stoi(cores);
      tasks.push_back(t);
    }
  }
  std::map<std::string, sg4::ExecPtr> exec;
  std::map<std::string, std::string> host_of;
  std::vector<sg4::ActivityPtr> all;
  for (const auto& t : tasks) {
    sg4::Host* host = e.host_by_name(t.host);
    auto x = sg4::Exec::init()->set_name(t.name)->set_flops_amount(t.flops / t.cores)->set_host(host)->set_thread_count(t.cores);
    exec[t.name] = x;
    host_of[t.name] = t.host;
    all.push_back(x);
  }
  std::set<std::pair<std::string, std::string>> linked;
  for (const auto& x : edges) {
    if (host_of[x.from] == host_of[x.to]) {
      exec[x.from]->add_successor(exec[x.to]);
    } else {
      auto comm = sg4::Comm::sendto_init(e.host_by_name(host_of[x.from]), e.host_by_name(host_of[x.to]))
                      ->set_name(x.from + "->" + x.to)
                      ->set_payload_size(x.bytes);
      exec[x.from]->add_successor(comm);
      comm->add_successor(exec[x.to]);
      all.push_back(comm);
    }
    linked.insert({x.from, x.to});
  }
  // One-core hosts: their tasks one at a time, in the file's order.
  std::map<std::string, std::string> last_on;
  for (const auto& t : tasks) {
    if (e.host_by_name(t.host)->get_core_count() == 1) {
      const auto it = last_on.find(t.host);
      if (it != last_on.end() && !linked.count({it->second, t.name})) exec[it->second]->add_successor(exec[t.name]);
      last_on[t.host] = t.name;
    }
  }
  // SIMGRID_PLATFORM_VERBOSE=1: each activity's end on stderr.
  if (std::getenv("SIMGRID_PLATFORM_VERBOSE"))
    sg4::Activity::on_completion_cb([](const sg4::Activity& a) {
      std::fprintf(stderr, "%s %.17g\n", a.get_cname(), sg4::Engine::get_clock());
    });
  if (std::getenv("SIMGRID_PLATFORM_VERBOSE"))
    for (const auto& x : edges) {
      if (host_of[x.from] == host_of[x.to]) continue;
      std::vector<sg4::Link*> links;
      double latency = 0.0;
      e.host_by_name(host_of[x.from])->route_to(e.host_by_name(host_of[x.to]), links, &latency);
      std::fprintf(stderr, "route %s->%s latency %.17g:", host_of[x.from].c_str(), host_of[x.to].c_str(), latency);
      for (const auto* l : links) std::fprintf(stderr, " %s(%.17g)", l->get_cname(), l->get_bandwidth());
      std::fprintf(stderr, "\n");
    }
  for (auto& a : all) a->vetoable_start();
  e.run();
  std::printf("%.17g\n", sg4::Engine::get_clock());
  return 0;
}
