// SimGrid platform files (structures/platform.h): SimGrid's units, a Full zone's hosts, links and
// routes (symmetrical or not), a cluster's hosts, links and routes named as SimGrid names them, and
// everything outside the subset refused with its line and element.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "structures/platform.h"
#include "support.h"

namespace platform_test {

using namespace hetstruct;
using structures::parse_platform;
using structures::Platform;
using testing::error_of;

namespace {

const std::string data = std::string(HETSTRUCT_TEST_DATA) + "/platforms/";

std::vector<std::string> route_names(const Platform& p, const std::string& a, const std::string& b) {
  std::vector<std::string> out;
  for (auto l : p.route(static_cast<std::size_t>(p.host_index(a)), static_cast<std::size_t>(p.host_index(b))))
    out.push_back(p.links[l].id);
  return out;
}

std::string zone(const std::string& body) {
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n" + body +
         "</zone>\n</platform>\n";
}

}  // namespace

TEST_CASE("platform units are SimGrid's", "[platform]") {
  using structures::parse_platform_bandwidth;
  using structures::parse_platform_latency;
  using structures::parse_platform_speed;
  CHECK(parse_platform_speed("1Gf", "s") == 1e9);
  CHECK(parse_platform_speed("2.5Mf", "s") == 2.5e6);
  CHECK(parse_platform_speed("3kf", "s") == 3e3);
  CHECK(parse_platform_speed("1Tf", "s") == 1e12);
  CHECK(parse_platform_speed("1Kif", "s") == 1024.0);
  CHECK(parse_platform_speed("2megaflops", "s") == 2e6);
  CHECK(parse_platform_speed("7", "s") == 7.0);
  CHECK(parse_platform_bandwidth("1Gbps", "b") == 1.25e8);
  CHECK(parse_platform_bandwidth("125MBps", "b") == 1.25e8);
  CHECK(parse_platform_bandwidth("8bps", "b") == 1.0);
  CHECK(parse_platform_bandwidth("1KiBps", "b") == 1024.0);
  CHECK(parse_platform_bandwidth("1Mibps", "b") == 1024.0 * 1024.0 / 8.0);
  CHECK(parse_platform_bandwidth("3kBps", "b") == 3000.0);
  CHECK(parse_platform_latency("50us", "l") == 50 * 1e-6);  // as SimGrid computes it
  CHECK(parse_platform_latency("2ms", "l") == 2e-3);
  CHECK(parse_platform_latency("3ns", "l") == 3 * 1e-9);
  CHECK(parse_platform_latency("1m", "l") == 60.0);
  CHECK(parse_platform_latency("0", "l") == 0.0);
  CHECK(error_of([] { parse_platform_speed("1Gflop", "x.xml:3: <host> speed"); }) ==
        "x.xml:3: <host> speed: '1Gflop': unknown unit 'Gflop' (SimGrid's units, e.g. speed=\"1Gf\" (f, kf, Mf, Gf, Tf))");
  CHECK(error_of([] { parse_platform_bandwidth("fast", "w"); }).find("'fast' is not a number with a unit") != std::string::npos);
  CHECK(error_of([] { parse_platform_bandwidth("0Bps", "w"); }).find("is not a finite value > 0") != std::string::npos);
  CHECK(error_of([] { parse_platform_latency("-1s", "w"); }).find("is not a finite value >= 0") != std::string::npos);
  CHECK(error_of([] { parse_platform_speed("1 Gf", "w"); }).find("unknown unit ' Gf'") != std::string::npos);
}

TEST_CASE("a Full zone gives its hosts links and routes", "[platform]") {
  const Platform p = structures::read_platform(data + "full_shared.xml");
  REQUIRE(p.hosts.size() == 4);
  CHECK(p.hosts[1].id == "cpu1");
  CHECK(p.hosts[1].speed == 2e9);
  CHECK(p.hosts[1].cores == 2);
  CHECK(p.hosts[3].speed == 5e8);
  CHECK(p.hosts[3].cores == 4);
  REQUIRE(p.links.size() == 6);
  CHECK(p.links[4].id == "switch");
  CHECK(p.links[4].bandwidth == 1.25e9);
  CHECK(p.links[4].latency == 1e-6);
  CHECK(route_names(p, "cpu0", "gpu1") == std::vector<std::string>{"cpu0_nic", "switch", "gpu1_nic"});
  // Symmetrical by default: the reverse route crosses the same links backwards.
  CHECK(route_names(p, "gpu1", "cpu0") == std::vector<std::string>{"gpu1_nic", "switch", "cpu0_nic"});
  CHECK(p.route_latency(0, 3) == Approx(61e-6).epsilon(1e-12));
  CHECK(p.route_bottleneck(0, 3) == 1.25e8);
  CHECK(p.has_route(2, 3));
  CHECK(!p.has_route(0, 0));
}

TEST_CASE("a route with symmetrical NO gives one direction", "[platform]") {
  const Platform p = structures::read_platform(data + "fatpipe.xml");
  CHECK(p.links[0].sharing == structures::LinkSharing::fatpipe);
  CHECK(p.links[1].sharing == structures::LinkSharing::shared);
  CHECK(p.links[2].latency == 0.0);
  CHECK(route_names(p, "b", "c") == std::vector<std::string>{"xbar", "up_c"});
  CHECK(route_names(p, "c", "b") == std::vector<std::string>{"up_c"});
  CHECK(route_names(p, "c", "a") == std::vector<std::string>{"up_c", "wan", "xbar"});
  CHECK(p.hosts[2].cores == 2);
}

TEST_CASE("a cluster names and routes its hosts as SimGrid does", "[platform]") {
  const Platform p = structures::read_platform(data + "cluster_backbone.xml");
  REQUIRE(p.hosts.size() == 5);
  CHECK(p.host_list() == "node-0.lab, node-1.lab, node-2.lab, node-3.lab, node-7.lab");
  CHECK(p.hosts[4].speed == 1e9);
  CHECK(p.hosts[4].cores == 2);
  CHECK(p.links[0].id == "c_backbone");
  CHECK(p.links[0].bandwidth == 2.5e8);
  CHECK(p.links[0].latency == Approx(20e-6).epsilon(1e-15));
  CHECK(route_names(p, "node-1.lab", "node-7.lab") ==
        std::vector<std::string>{"c_link_1_UP", "c_backbone", "c_link_7_DOWN"});
  CHECK(route_names(p, "node-7.lab", "node-0.lab") ==
        std::vector<std::string>{"c_link_7_UP", "c_backbone", "c_link_0_DOWN"});
  CHECK(p.route_latency(1, 4) == Approx(120e-6).epsilon(1e-12));

  // SHARED private links, no backbone: one link per host, named once per route end.
  const Platform q = parse_platform(
      "<platform version=\"4.1\"><cluster id=\"k\" prefix=\"h\" suffix=\"\" radical=\"2,0\" speed=\"1f\" "
      "bw=\"1Bps\" lat=\"1s\" sharing_policy=\"SHARED\"/></platform>",
      "k.xml");
  CHECK(q.host_list() == "h2, h0");
  CHECK(route_names(q, "h2", "h0") == std::vector<std::string>{"k_link_2", "k_link_0"});
  // A cluster alone in a Full zone reads the same.
  const Platform r = parse_platform(
      zone("<cluster id=\"k\" prefix=\"h\" suffix=\"\" radical=\"0-1\" speed=\"1f\" bw=\"1Bps\" lat=\"1s\"/>\n"), "r.xml");
  CHECK(route_names(r, "h0", "h1") == std::vector<std::string>{"k_link_0_UP", "k_link_1_DOWN"});
}

TEST_CASE("a platform file outside the subset is refused by line and element", "[platform]") {
  const auto error = [](const std::string& text) { return error_of([&] { parse_platform(text, "p.xml"); }); };
  const std::string host = "<host id=\"a\" speed=\"1Gf\"/>\n<host id=\"b\" speed=\"1Gf\"/>\n";
  CHECK(error(zone(host + "<router id=\"r\"/>\n")) ==
        "p.xml:6: <router> is outside the platform subset hetstruct reads (docs/platform.md: one Full zone of host, "
        "link and route, or one cluster)");
  CHECK(error("<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Floyd\">\n</zone></platform>") ==
        "p.xml:2: <zone> routing 'Floyd' is outside the platform subset hetstruct reads (routing=\"Full\")");
  CHECK(error("<platform version=\"4\"><zone id=\"z\" routing=\"Full\"/></platform>") ==
        "p.xml:1: platform version '4' (version=\"4.1\" (SimGrid 3.32's format))");
  CHECK(error(zone("<host id=\"a\" speed=\"1Gf\" pstate=\"0\"/>\n")) ==
        "p.xml:4: <host> attribute pstate is outside the platform subset hetstruct reads (docs/platform.md)");
  CHECK(error(zone("<host id=\"a\" speed=\"1Gf,2Gf\"/>\n")).find("lists several power states") != std::string::npos);
  CHECK(error(zone("<host id=\"a\" speed=\"1Gf\"><prop id=\"x\" value=\"y\"/></host>\n")) ==
        "p.xml:4: <prop> is outside the platform subset hetstruct reads (docs/platform.md: one Full zone of host, "
        "link and route, or one cluster)");
  CHECK(error(zone(host + "<link id=\"l\" bandwidth=\"1GBps\" sharing_policy=\"SPLITDUPLEX\"/>\n")) ==
        "p.xml:6: <link> sharing_policy 'SPLITDUPLEX' is outside the platform subset hetstruct reads (SHARED or FATPIPE)");
  CHECK(error(zone(host + "<link id=\"l\" bandwidth=\"1GBps\" latency=\"5 parsecs\"/>\n")) ==
        "p.xml:6: <link> latency: '5 parsecs': unknown unit ' parsecs' (SimGrid's units, e.g. latency=\"50us\" (s, ms, us, ns))");
  CHECK(error(zone(host + "<route src=\"a\" dst=\"b\"><link_ctn id=\"nope\"/></route>\n")) ==
        "p.xml:6: <link_ctn> id 'nope' is not a link of the zone (declare it with <link> before the routes)");
  CHECK(error(zone(host + "<route src=\"a\" dst=\"c\"><link_ctn id=\"nope\"/></route>\n")) ==
        "p.xml:6: <route> dst 'c' is not a host of the zone (its hosts: a, b)");
  const std::string link = "<link id=\"l\" bandwidth=\"1GBps\"/>\n";
  CHECK(error(zone(host + link + "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                                 "<route src=\"b\" dst=\"a\"><link_ctn id=\"l\"/></route>\n")) ==
        "p.xml:8: the route from b to a is given twice (one route per ordered pair (a symmetrical route gives both directions))");
  CHECK(error(zone(host + link + "<route src=\"a\" dst=\"a\"><link_ctn id=\"l\"/></route>\n")).find("a route from a to itself") !=
        std::string::npos);
  CHECK(error(zone(host + "<host id=\"a\" speed=\"1f\"/>\n")) ==
        "p.xml:6: the name 'a' is given twice (hosts, links and zones each need their own id)");
  CHECK(error(zone("<host id=\"a\" speed=\"1f\" core=\"0\"/>\n")).find("core '0' is not a core count") != std::string::npos);
  CHECK(error(zone("")) == "p.xml: the platform has no host (a <zone> of <host> elements or a <cluster>)");
  CHECK(error("<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\"/>\n<zone id=\"y\" routing=\"Full\"/>\n</platform>") ==
        "p.xml:3: <zone> beside the platform's first zone (one <zone routing=\"Full\"> or one <cluster>)");
  CHECK(error("<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"h\" suffix=\"\" radical=\"0-1\" speed=\"1f\" bw=\"1Bps\" "
              "lat=\"0s\" topology=\"TORUS\"/></platform>") ==
        "p.xml:2: <cluster> topology 'TORUS' is outside the platform subset hetstruct reads (FLAT)");
  CHECK(error("<platform version=\"4.1\"><cluster id=\"c\" prefix=\"h\" suffix=\"\" radical=\"3-1\" speed=\"1f\" bw=\"1Bps\" "
              "lat=\"0s\"/></platform>")
            .find("the range '3-1' is empty") != std::string::npos);
  CHECK(error("<platform version=\"4.1\"><cluster id=\"c\" prefix=\"h\" suffix=\"\" radical=\"0-1\" speed=\"1f\" bw=\"1Bps\" "
              "lat=\"0s\" loopback_bw=\"1Bps\"/></platform>") ==
        "p.xml:1: <cluster> attribute loopback_bw is outside the platform subset hetstruct reads (docs/platform.md)");
  CHECK(error("<platform version=\"4.1\"><cluster id=\"c\" prefix=\"h\" suffix=\"\" radical=\"0-1\" speed=\"1f\" bw=\"1Bps\" "
              "lat=\"0s\" sharing_policy=\"FATPIPE\"/></platform>")
            .find("sharing_policy 'FATPIPE' is outside") != std::string::npos);
  CHECK(error("<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1f\">\n</platform>")
            .rfind("p.xml:4: not XML: ", 0) == 0);
  CHECK(error("<simgrid/>") == "p.xml:1: <simgrid> is not <platform> (a SimGrid platform file (version 4.1))");
}

}  // namespace platform_test
