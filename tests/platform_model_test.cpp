// DAGs on SimGrid platforms (engine/kernel/network.h, docs/platform.md): the makespans SimGrid 3.32
// gives (tests/reference/simgrid_platform.cpp, stored in data/platforms/simgrid_makespans.txt) to
// 1e-9 relative under --sharing rtt; --sharing none against latency plus bytes over the bottleneck
// summed by hand; max-min and rtt against shares worked out by hand; what a platform refuses.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "engine/kernel/network.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/model.h"
#include "structures/platform.h"
#include "structures/task_graphs.h"
#include "support.h"

namespace platform_model_test {

using namespace hetstruct;
using testing::error_of;

namespace {

const std::string data = std::string(HETSTRUCT_TEST_DATA) + "/platforms/";

structures::Structure on_platform(const std::string& dag, const std::string& platform) {
  structures::TaskGraphOptions options;
  options.platform = std::make_shared<const structures::Platform>(structures::read_platform(platform));
  return structures::read_graph(dag, options);
}

double makespan(const structures::Structure& s, std::optional<engine::Sharing> sharing = std::nullopt) {
  engine::CompileOptions options;
  options.sharing = sharing;
  const engine::Plan plan = engine::compile(s, options);
  engine::Workspace ws(plan);
  return engine::evaluate(plan, 1, 0, ws);
}

std::string write(const testing::TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = (dir.path / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("simulate on a platform equals SimGrid 3.32 to 1e-9", "[platform]") {
  std::ifstream in(data + "simgrid_makespans.txt");
  REQUIRE(in);
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string platform, dag;
    double simgrid = 0.0;
    REQUIRE(fields >> platform >> dag >> simgrid);
    INFO(platform << " " << dag);
    const double ours = makespan(on_platform(data + dag, data + platform));
    CHECK(std::abs(ours - simgrid) <= 1e-9 * simgrid);
    ++rows;
  }
  CHECK(rows == 4);
}

TEST_CASE("sharing none is latency plus bytes over the bottleneck", "[platform]") {
  // fork_join.dot on full_shared.xml, by hand: src 2e9 f at 1 Gf = 2 s; the path src -> b -> c ->
  // sink: 61 us + 2e8 B / 125 MB/s, b 8e9 f at 4 Gf, 100 us + 5e7 B / 125 MB/s, c 1e9 f on 2 cores
  // of 0.5 Gf, 61 us + 2e7 B / 125 MB/s, sink 1e9 f at 1 Gf.
  const double fork_join = 2.0 + (61e-6 + 1.6) + 2.0 + (100e-6 + 0.4) + 1.0 + (61e-6 + 0.16) + 1.0;
  const auto s = on_platform(data + "fork_join.dot", data + "full_shared.xml");
  CHECK(makespan(s, engine::Sharing::none) == Approx(fork_join).epsilon(1e-12));
  // rtt.dot on full_rtt.xml: s 0.5 s; s -> c 510 us + 4e8 / 3e8; b -> c after a -> b; c -> t; t.
  const double b_end = 0.5 + (11e-6 + 0.75) + 0.5 + (501e-6 + 0.25) + 0.5;
  const double c_start = std::max(0.5 + 510e-6 + 4.0 / 3.0, b_end + 1.0 / 3.0);
  const double rtt = c_start + 0.5 + (510e-6 + 2.0 / 3.0) + 0.5;
  CHECK(makespan(on_platform(data + "rtt.dot", data + "full_rtt.xml"), engine::Sharing::none) == Approx(rtt).epsilon(1e-12));
}

TEST_CASE("the event loop under sharing none equals the free-port rule on its message times", "[platform]") {
  // Hosts of two cores, random works and bytes: no message slows another, so the event loop on
  // the drawn bytes and the free-port propagation of latency + bytes / bottleneck agree.
  testing::TempDir dir("hetstruct_platform");
  std::ostringstream dot;
  dot << "digraph g {\n";
  const char* hosts[] = {"node-0.lab", "node-1.lab", "node-2.lab", "node-3.lab", "node-7.lab"};
  for (int t = 0; t < 60; ++t) dot << "  t" << t << " [host=\"" << hosts[(t * 7) % 5] << "\", law=\"u(5e8,1.5e9)\"];\n";
  for (int t = 5; t < 60; ++t) {
    std::set<int> from;
    for (int k = 1; k <= 3; ++k) from.insert((t * 13 + k * 5) % t);
    for (const int f : from) dot << "  t" << f << " -> t" << t << " [bytes=\"u(5e6,1.5e7)\"];\n";
  }
  dot << "}\n";
  const char* other = std::getenv("HETSTRUCT_PLATFORM_DAG");  // another DAG to check by hand
  const auto s = on_platform(other ? std::string(other) : write(dir, "g.dot", dot.str()), data + "cluster_backbone.xml");
  engine::CompileOptions options;
  options.sharing = engine::Sharing::none;
  const engine::Plan plan = engine::compile(s, options);
  engine::Workspace ws(plan);
  std::vector<double> finish(plan.task_sampler.size());
  for (std::uint64_t rep = 0; rep < 20; ++rep) {
    engine::draw_dag_times(plan, 9, rep, ws);
    const double loop = engine::detail::simulate_network(plan, finish.data(), ws.durations.data(), ws.message_times.data(), ws);
    CHECK(engine::evaluate(plan, 9, rep, ws) == Approx(loop).epsilon(1e-12));
  }
}

TEST_CASE("max-min shares a link equally and rtt by the inverse of the latency", "[platform]") {
  testing::TempDir dir("hetstruct_platform");
  const std::string platform = write(dir, "p.xml", R"X(<?xml version='1.0'?>
<platform version="4.1"><zone id="z" routing="Full">
  <host id="h0" speed="1f"/><host id="h1" speed="1f"/><host id="h2" speed="1f"/>
  <link id="L" bandwidth="100MBps" latency="0"/>
  <link id="x1" bandwidth="1TBps" latency="1ms"/><link id="x2" bandwidth="1TBps" latency="3ms"/>
  <route src="h0" dst="h1"><link_ctn id="L"/><link_ctn id="x1"/></route>
  <route src="h0" dst="h2"><link_ctn id="L"/><link_ctn id="x2"/></route>
</zone></platform>
)X");
  const std::string dag = write(dir, "g.dot", R"X(digraph g {
  s [host="h0", law="c(1)"];
  a [host="h1", law="c(10)"];
  b [host="h2", law="c(0)"];
  s -> a [bytes=1e8];
  s -> b [bytes=1e8];
})X");
  const auto s = on_platform(dag, platform);
  // From 1.001 to 1.003 a's message is alone on L (2e5 bytes), then the two share it: max-min
  // halves it, rtt gives a 3/4 (weights 1 ms and 3 ms); a's task runs 10 s after its message.
  CHECK(makespan(s, engine::Sharing::max_min) == Approx(1.003 + (1e8 - 2e5) / 5e7 + 10.0).epsilon(1e-12));
  CHECK(makespan(s, engine::Sharing::rtt) == Approx(1.003 + (1e8 - 2e5) / 7.5e7 + 10.0).epsilon(1e-12));
  CHECK(makespan(s) == makespan(s, engine::Sharing::rtt));
  CHECK(makespan(s, engine::Sharing::none) == Approx(1.001 + 1.0 + 10.0).epsilon(1e-12));
}

TEST_CASE("a platform refuses what it already says", "[platform]") {
  testing::TempDir dir("hetstruct_platform");
  const std::string platform = data + "full_shared.xml";
  const auto graph = [&](const std::string& body) { return write(dir, "g.dot", "digraph g {\n" + body + "}\n"); };
  CHECK(error_of([&] { on_platform(graph("a [host=\"nope\", law=\"c(1)\"];\n"), platform); }) ==
        dir.path.string() + "/g.dot: vertex 'a': host 'nope' is not a host of " + platform + " (its hosts: cpu0, cpu1, gpu0, gpu1)");
  CHECK(error_of([&] { on_platform(graph("a [processor=4, law=\"c(1)\"];\n"), platform); })
            .find("processor 4 is not one of the 4 hosts of") != std::string::npos);
  CHECK(error_of([&] {
          on_platform(graph("a [host=\"cpu0\", law=\"c(1)\"];\nb [host=\"cpu1\", law=\"c(1)\"];\na -> b [comm=1];\n"), platform);
        }) == dir.path.string() + "/g.dot: edge 'a' -> 'b': comm does not apply beside a platform (give the message's size as bytes=, the route prices it)");
  CHECK(error_of([&] {
          on_platform(write(dir, "h.dot", "digraph g {\ngraph [processor_scale=\"1,2\"];\na [processor=0, law=\"c(1)\"];\n}\n"), platform);
        }).find("processor_scale does not apply beside a platform") != std::string::npos);
  CHECK(error_of([&] { structures::read_graph(graph("a [host=\"cpu0\", law=\"c(1)\"];\n")); })
            .find("host 'cpu0' names a platform host, but no platform is given") != std::string::npos);
  CHECK(error_of([&] {
          structures::read_graph(graph("a [processor=0, law=\"c(1)\"];\nb [processor=1, law=\"c(1)\"];\na -> b [bytes=5];\n"));
        }).find("bytes= is a message's size on a platform, but no platform is given") != std::string::npos);
  // A message between hosts the platform does not route.
  const std::string lone = write(dir, "lone.xml",
                                 "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"p\" speed=\"1f\"/>"
                                 "<host id=\"q\" speed=\"1f\"/></zone></platform>");
  CHECK(error_of([&] {
          makespan(on_platform(graph("a [host=\"q\", law=\"c(1)\"];\nb [host=\"p\", law=\"c(1)\"];\na -> b;\n"), lone));
        }) == lone + ": no route from q to p (the message 'a' -> 'b') (add a <route src=\"q\" dst=\"p\">)");
  const auto two = on_platform(graph("a [host=\"cpu0\", law=\"c(1)\"];\nb [host=\"cpu1\", law=\"c(1)\"];\na -> b [bytes=8];\n"), platform);
  engine::CompileOptions one_port;
  one_port.port = engine::Port::one_port;
  CHECK(error_of([&] { engine::compile(two, one_port); }) ==
        "port: the one-port models do not apply beside a platform (the platform's links share the bandwidth (sharing))");
  engine::CompileOptions comm;
  comm.comm_cost = 1.0;
  CHECK(error_of([&] { engine::compile(two, comm); }) ==
        "comm_cost: does not apply beside a platform (the edges give bytes=, the routes price them)");
  engine::CompileOptions sharing;
  sharing.sharing = engine::Sharing::none;
  CHECK(error_of([&] { engine::compile(structures::read_graph(graph("a [processor=0, law=\"c(1)\"];\n")), sharing); }) ==
        "sharing: applies beside a platform only (give --platform FILE)");
  CHECK(error_of([] { engine::parse_sharing("fair"); }) == "sharing: 'fair' is not a sharing model (none, max-min or rtt)");
  // An edge without bytes= pays its route's latency alone: 2 s of work each, 21 us between.
  const auto bare = on_platform(graph("a [host=\"cpu0\", law=\"c(2e9)\"];\nb [host=\"cpu1\", law=\"c(4e9)\"];\na -> b;\n"), platform);
  CHECK(makespan(bare) == Approx(4.0 + 21e-6).epsilon(1e-12));
}

}  // namespace platform_model_test
