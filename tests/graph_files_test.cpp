// A user's own DAG from its file: the order on a processor (the file's, or explicit), edge and graph
// attributes, and the makespans of samples whose longest path is known by hand.
#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "engine/monte_carlo.h"
#include "engine/plan.h"
#include "structures/custom.h"
#include "structures/structure.h"

using namespace hetstruct;
using distributions::Law;
using structures::Structure;

namespace {

const std::string data_dir = HETSTRUCT_TEST_DATA;
[[maybe_unused]] std::string fixture(const std::string& name) { return data_dir + "/" + name; }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// The makespan through the Monte Carlo driver (a few replications: with constant laws every one is
// the same) and through the longest path with each task at its law's mean; both must agree.
double makespan(const Structure& s) {
  const auto plan = engine::compile(s);
  engine::RunOptions options;
  options.reps = 5;
  options.threads = 1;
  const auto estimate = engine::run(plan, options);
  REQUIRE(estimate.min == estimate.max);
  std::vector<double> durations(plan.task_sampler.size(), 0.0), finish(durations.size());
  for (std::size_t t = 0; t < durations.size(); ++t)
    if (plan.task_sampler[t] >= 0) durations[t] = plan.laws[static_cast<std::size_t>(plan.task_sampler[t])].mean();
  REQUIRE(engine::longest_path(plan, durations, finish) == estimate.mean);
  return estimate.mean;
}

bool has_edge(const Structure& s, structures::Vertex a, structures::Vertex b) { return boost::edge(a, b, s.graph()).second; }

// Three tasks: t9 and t10 on processor 0, u on processor 1, u -> t10. In the file's order t9 runs
// beside u, then t10: 10. Chained by name (t10 first) t10 waits for u and t9 for t10: 15.
std::string three_tasks(const std::string& t9, const std::string& extra9 = "", const std::string& extra10 = "") {
  return "digraph { " + t9 + " [processor=0, law=\"c(5)\"" + extra9 + "]; t10 [processor=0, law=\"c(5)\"" + extra10 +
         "]; u [processor=1, law=\"c(5)\"]; u -> t10; }";
}

}  // namespace

TEST_CASE("DOT: a processor runs its tasks in the file's order, not the names'", "[graph_files]") {
  const auto s = structures::parse_dot(three_tasks("t9"), "three");
  REQUIRE(s.graph()[0].name == "t9");
  REQUIRE(has_edge(s, 0, 1));  // t9 -> t10
  REQUIRE(makespan(s) == 10.0);
  // Renaming t9 to t09 (which now sorts first by name) changes nothing.
  const auto renamed = structures::parse_dot(three_tasks("t09"), "renamed");
  REQUIRE(has_edge(renamed, 0, 1));
  REQUIRE(makespan(renamed) == 10.0);
  // A vertex first named in an edge is listed there.
  const auto by_edge = structures::parse_dot(
      "digraph { node [processor=0, law=\"c(1)\"]; zz -> aa; b; aa [law=\"c(2)\"]; }", "edges");
  REQUIRE(by_edge.graph()[0].name == "zz");
  REQUIRE(by_edge.graph()[1].name == "aa");
  REQUIRE(by_edge.graph()[2].name == "b");
  REQUIRE(has_edge(by_edge, 1, 2));  // aa -> b: the chain follows the file, zz -> aa is the file's edge
  // Graph names, ports, attribute values and quoted names are not mistaken for vertices.
  const auto tricky = structures::parse_dot(
      "digraph b { graph [label=a]; rankdir=LR; subgraph cluster_x { \"q \\\"r\" [processor=0, law=\"c(1)\"]; }"
      " b:n -> a:s [color=b]; a [processor=0, law=\"c(1)\"]; b [processor=1, law=\"c(1)\"]; }",
      "tricky");
  REQUIRE(tricky.graph()[0].name == "q \"r");
  REQUIRE(tricky.graph()[1].name == "b");
  REQUIRE(tricky.graph()[2].name == "a");
  REQUIRE(has_edge(tricky, 0, 2));  // processor 0: q "r, then a
}

TEST_CASE("DOT: an explicit order attribute wins over the file's order", "[graph_files]") {
  const auto s = structures::parse_dot(three_tasks("t9", ", order=2", ", order=1"), "ordered");
  REQUIRE(has_edge(s, 1, 0));  // t10 -> t9
  REQUIRE(makespan(s) == 15.0);
  REQUIRE(error_of([] { structures::parse_dot(three_tasks("t9", ", order=1", ""), "half.dot"); }) ==
          "half.dot: processor 0: task 't9' has an order but task 't10' has none (give every task of a processor an "
          "order, or none)");
  REQUIRE(error_of([] { structures::parse_dot(three_tasks("t9", ", order=1", ", order=1"), "tie.dot"); }) ==
          "tie.dot: processor 0: tasks 't9' and 't10' have the same order 1 (give the tasks of a processor distinct "
          "orders)");
  REQUIRE(error_of([] { structures::parse_dot(three_tasks("t9", ", order=x", ", order=1"), "bad.dot"); }) ==
          "bad.dot: vertex 't9': order 'x' is not a number (order=1, 2, 3, ... (smaller first))");
}

TEST_CASE("DOT: an order that contradicts a precedence is an error naming the tasks", "[graph_files]") {
  // The file lists b before a on processor 0, but a -> b.
  REQUIRE(error_of([] {
            structures::parse_dot("digraph { b [processor=0, law=\"c(1)\"]; a [processor=0, law=\"c(1)\"]; a -> b; }",
                                  "against.dot");
          }) ==
          "against.dot: the order of the tasks on processor 0 contradicts the precedences: 'b' -> 'a' -> 'b' (a "
          "processor runs its tasks in the order they are listed or numbered; list them in an order the precedences "
          "allow)");
  // Through two processors: p0 runs x then y, p1 runs z then w; y -> z and w -> x close a cycle.
  CHECK_THAT(error_of([] {
               structures::parse_dot("digraph { node [law=\"c(1)\"]; x [processor=0]; y [processor=0]; "
                                     "z [processor=1]; w [processor=1]; y -> z; w -> x; }",
                                     "two.dot");
             }),
             Catch::Equals("two.dot: the order of the tasks on processors 0, 1 contradicts the precedences: 'x' -> "
                           "'y' -> 'z' -> 'w' -> 'x' (a processor runs its tasks in the order they are listed or "
                           "numbered; list them in an order the precedences allow)"));
}

TEST_CASE("DOT: edge comm, graph processor_scale, and attributes that look like slips", "[graph_files]") {
  const auto s = structures::parse_dot(
      "digraph { graph [processor_scale=\"1, 1/2\", label=\"demo\"]; a [processor=0, law=\"c(1)\", color=red];"
      " b [processor=1, law=\"c(1)\", shape=box, mydata=7]; c [processor=1, law=\"c(2)\"];"
      " a -> b [comm=5, label=\"msg\"]; a -> c [comm=\"u(0,1)\"]; b -> c; }",
      "attributes");
  REQUIRE(s.processor_scale == std::vector<double>{1.0, 0.5});
  REQUIRE(s.width == 2);
  const auto& g = s.graph();
  const auto ab = boost::edge(0, 1, g).first, ac = boost::edge(0, 2, g).first, bc = boost::edge(1, 2, g).first;
  REQUIRE(s.laws[static_cast<std::size_t>(g[ab].comm_law)] == Law::constant(5));
  REQUIRE(s.laws[static_cast<std::size_t>(g[ac].comm_law)] == Law::uniform(0, 1));
  REQUIRE(g[bc].comm_law == -1);
  REQUIRE(g[ab].crosses_processors);
  REQUIRE_FALSE(g[bc].crosses_processors);

  const auto refused = [](const std::string& text) {
    return error_of([&] { structures::parse_dot("digraph { " + text + " }", "slip.dot"); });
  };
  const std::string ab_graph = "a [processor=0, law=\"c(1)\"]; b [processor=1, law=\"c(1)\"]; ";
  REQUIRE(refused(ab_graph + "a -> b [com=5];") ==
          "slip.dot: edge 'a' -> 'b': unknown attribute 'com' (did you mean comm=0.5 or comm=\"u(0,1)\" (the message's "
          "time)?)");
  REQUIRE(refused(ab_graph + "a -> b [cost=5];") ==
          "slip.dot: edge 'a' -> 'b': unknown attribute 'cost' (did you mean law=\"u(0,1)\"?)");
  REQUIRE(refused(ab_graph + "a -> b [latency=5];") ==
          "slip.dot: edge 'a' -> 'b': unknown attribute 'latency' (did you mean comm=0.5 or comm=\"u(0,1)\" (the "
          "message's time)?)");
  REQUIRE(refused("a [processor=0, law=\"c(1)\", comm=5];") ==
          "slip.dot: vertex 'a': 'comm' is an attribute of an edge, not of a vertex (write comm=0.5 or comm=\"u(0,1)\" "
          "(the message's time))");
  REQUIRE(refused("a [processor=0, law=\"c(1)\", Law=\"c(2)\"];") ==
          "slip.dot: vertex 'a': unknown attribute 'Law' (did you mean law=\"u(0,1)\"?)");
  REQUIRE(refused("a [processor=0, law=\"c(1)\", proccessor=1];") ==
          "slip.dot: vertex 'a': unknown attribute 'proccessor' (did you mean processor=0 (0-based)?)");
  REQUIRE(refused("graph [speeds=\"1,2\"]; a [processor=0, law=\"c(1)\"];") ==
          "slip.dot: unknown attribute 'speeds' (did you mean graph [processor_scale=\"1,1,1/2\"]?)");
  REQUIRE(refused(ab_graph + "a -> b [comm=-1];") == "slip.dot: edge 'a' -> 'b': comm: a message's time must be >= 0, got -1");
  CHECK_THAT(refused(ab_graph + "a -> b [comm=\"u(1,0)\"];"), Catch::StartsWith("slip.dot: edge 'a' -> 'b': "));
  REQUIRE(refused("graph [processor_scale=\"1\"]; " + ab_graph) ==
          "slip.dot: processor_scale gives 1 processors, but the tasks use processors 0 to 1 (give one scale per "
          "processor)");
  REQUIRE(refused("graph [processor_scale=\"1,0\"]; " + ab_graph) ==
          "slip.dot: a processor scale must be a finite number > 0 (1 is a reference processor, 1/2 one twice as fast)");
  REQUIRE(refused("graph [processor_scale=\"1,x\"]; " + ab_graph) ==
          "slip.dot: processor_scale '1,x': 'x' is not a number (a comma-separated list such as \"1,1,1/2\")");
  REQUIRE(refused(ab_graph + "a -> b; a -> b;") ==
          "slip.dot: the edge 'a' -> 'b' is given twice (give each precedence once)");
}
