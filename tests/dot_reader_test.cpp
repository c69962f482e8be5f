// The DOT reader reads every value whole or refuses it with FILE:LINE, the attribute and the token
// (issue 27): numbers in exponent form, numerals glued to letters or dots, valueless attributes, a
// vertex given two different values of one attribute, the Graphviz constructs real files contain,
// and the multi-core attributes cores and processor_cores.
#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "structures/custom.h"
#include "structures/structure.h"
#include "support.h"

namespace dot_reader_test {

using namespace hetstruct;
using testing::error_of;  // "" when nothing is thrown
using distributions::Law;
using structures::parse_dot;
using structures::parse_dot_dag;

namespace {


std::string refused(const std::string& text) {
  return error_of([&] { parse_dot(text, "f.dot"); });
}

// Constant laws: every replication is the same makespan.
double makespan(const structures::Structure& s) {
  const auto plan = engine::compile(s);
  engine::RunOptions options;
  options.reps = 3;
  options.threads = 1;
  const auto estimate = engine::run(plan, options);
  REQUIRE(estimate.min == estimate.max);
  return estimate.mean;
}

// Two unit tasks on two processors, a -> b with the given edge attributes.
std::string two_tasks(const std::string& edge_attributes) {
  return "digraph {\n  a [processor=0, law=\"c(1)\"];\n  b [processor=1, law=\"c(1)\"];\n  a -> b [" + edge_attributes +
         "];\n}\n";
}

// The comm law of the edge u -> v.
Law comm_of(const structures::Structure& s, structures::Vertex u, structures::Vertex v) {
  const auto [e, found] = boost::edge(u, v, s.graph());
  REQUIRE(found);
  REQUIRE(s.graph()[e].comm_law >= 0);
  return s.laws[static_cast<std::size_t>(s.graph()[e].comm_law)];
}

}  // namespace

TEST_CASE("DOT: numbers in exponent form are read whole, quoted or not", "[dot]") {
  // Boost alone reads comm=1e-3 as comm=1 and a stray attribute e: a makespan of 3, not 2.001.
  REQUIRE(makespan(parse_dot(two_tasks("comm=1e-3"), "e.dot")) == 2.001);
  REQUIRE(makespan(parse_dot(two_tasks("comm=\"1e-3\""), "e.dot")) == 2.001);
  REQUIRE(comm_of(parse_dot(two_tasks("comm=2.5e-1"), "e.dot"), 0, 1) == Law::constant(0.25));
  REQUIRE(comm_of(parse_dot(two_tasks("comm=5E-1"), "e.dot"), 0, 1) == Law::constant(0.5));
  REQUIRE(comm_of(parse_dot(two_tasks("comm=.5e+1"), "e.dot"), 0, 1) == Law::constant(5));
  REQUIRE(comm_of(parse_dot(two_tasks("comm=1e0, label=x"), "e.dot"), 0, 1) == Law::constant(1));
  // An order in exponent form: 1e1 (10) runs after 2, so the chain is y -> x.
  const auto dag = parse_dot_dag(
      "digraph { x [processor=0, law=\"c(1)\", order=1e1]; y [processor=0, law=\"c(1)\", order=2]; }", "o.dot");
  REQUIRE(dag.tasks[0].order == 10.0);
  REQUIRE(dag.tasks[1].order == 2.0);
  // A negative exponent numeral is read whole too, and refused as a negative time.
  REQUIRE(refused(two_tasks("comm=-1e-3")) == "f.dot:4: edge 'a' -> 'b': comm: a message's time must be >= 0, got -1e-3");
  // Display attributes in exponent form pass.
  REQUIRE_NOTHROW(parse_dot(two_tasks("penwidth=1e0, weight=2E1"), "d.dot"));
}

TEST_CASE("DOT: a numeral glued to letters or dots is refused with its line and token", "[dot]") {
  const std::string hint = " (write a number whole, as 0.5 or 1e-3, or quote a name)";
  // Boost alone: comm=2 and a stray attribute x; comm=1.5 and .5; order 1 and attribute e1.
  REQUIRE(refused(two_tasks("comm=2x")) ==
          "f.dot:4: edge 'a' -> 'b': comm: '2x' is not a number: a numeral glued to letters or a dot" + hint);
  REQUIRE(refused(two_tasks("comm=1.5.5")) ==
          "f.dot:4: edge 'a' -> 'b': comm: '1.5.5' is not a number: a numeral glued to letters or a dot" + hint);
  REQUIRE(refused(two_tasks("comm=1e-3x")) ==
          "f.dot:4: edge 'a' -> 'b': comm: '1e-3x' is not a number: a numeral glued to letters or a dot" + hint);
  REQUIRE(refused(two_tasks("comm=1-2")) ==
          "f.dot:4: edge 'a' -> 'b': comm: '1-2' is not a number: a numeral glued to letters or a dot" + hint);
  REQUIRE(refused("digraph {\n a [processor=0,\n order=2x, law=\"c(1)\"];\n}") ==
          "f.dot:3: vertex 'a': order: '2x' is not a number: a numeral glued to letters or a dot" + hint);
  REQUIRE(refused("digraph {\n a [processor=1.5.5, law=\"c(1)\"];\n}") ==
          "f.dot:2: vertex 'a': processor: '1.5.5' is not a number: a numeral glued to letters or a dot" + hint);
  REQUIRE(refused("digraph {\n\n rankdir=2x;\n}") ==
          "f.dot:3: rankdir: '2x' is not a number: a numeral glued to letters or a dot" + hint);
  // Not in a value: a vertex's name.
  REQUIRE(refused("digraph {\n 2x -> b;\n}") ==
          "f.dot:2: '2x' is neither a number nor a name: a numeral glued to letters or a dot" + hint);
  // Quoted, the same texts are whole values, refused by what reads them.
  CHECK_THAT(refused(two_tasks("comm=\"2x\"")),
             Catch::StartsWith("f.dot:4: edge 'a' -> 'b': comm '2x': "));
  REQUIRE(refused("digraph {\n a [processor=\"1.5\", law=\"c(1)\"];\n}") ==
          "f.dot:2: vertex 'a': processor '1.5' is not a processor index (use 0, 1, 2, ...)");
}

TEST_CASE("DOT: an attribute without a value is refused, never read as 'true'", "[dot]") {
  REQUIRE(refused(two_tasks("comm=1 e")) ==
          "f.dot:4: edge 'a' -> 'b': attribute 'e' has no value (write name=value; a number is written whole, as 0.5 "
          "or 1e-3)");
  REQUIRE(refused("digraph {\n a [processor=0, law=\"c(1)\", e];\n}") ==
          "f.dot:2: vertex 'a': attribute 'e' has no value (write name=value; a number is written whole, as 0.5 or "
          "1e-3)");
  REQUIRE(refused("digraph {\n node [bold]; a [processor=0, law=\"c(1)\"];\n}") ==
          "f.dot:2: node defaults: attribute 'bold' has no value (write name=value; a number is written whole, as 0.5 "
          "or 1e-3)");
}

TEST_CASE("DOT: errors name the line of the vertex, the attribute or the statement", "[dot]") {
  REQUIRE(refused("digraph {\n a [processor=0, law=\"c(1)\"];\n\n b [processor=1];\n a -> b;\n}") ==
          "f.dot:4: vertex 'b': has no law attribute (add law=\"u(0,1)\")");
  // A vertex first named in an edge: that line.
  REQUIRE(refused("digraph {\n a [processor=0, law=\"c(1)\"];\n a -> ghost;\n}") ==
          "f.dot:3: vertex 'ghost': has no processor attribute (add processor=0 (0-based))");
  CHECK_THAT(refused("digraph {\n a [processor=0,\n   law=\"u(1,0)\"];\n}"),
             Catch::StartsWith("f.dot:3: vertex 'a': law 'u(1,0)': "));
  // A value over two lines is shown on one: an error is one line.
  const std::string split = refused("digraph {\n a [processor=0, law=\"u(1,\n0)\"];\n}");
  CHECK_THAT(split, Catch::StartsWith("f.dot:2: vertex 'a': law 'u(1,\\n0)': "));
  CHECK(split.find('\n') == std::string::npos);
  REQUIRE(refused(two_tasks("com=5")) ==
          "f.dot:4: edge 'a' -> 'b': unknown attribute 'com' (did you mean comm=0.5 or comm=\"u(0,1)\" (the message's "
          "time)?)");
  REQUIRE(refused("digraph {\n a [processor=0, law=\"c(1)\"]; b [processor=0, law=\"c(1)\"];\n a -> b;\n\n a - > b\n}") ==
          "f.dot:5: DOT syntax error: Invalid character (char is '-')");
}

TEST_CASE("DOT: a vertex given two different values of one attribute is refused", "[dot]") {
  REQUIRE(refused("digraph {\n a [processor=0, law=\"c(1)\"];\n a [law=\"c(2)\"];\n}") ==
          "f.dot:3: vertex 'a': law 'c(2)' contradicts law 'c(1)' given on line 2 (give each attribute once, or the "
          "same value)");
  REQUIRE(refused("digraph {\n a [processor=0, law=\"c(1)\", processor=1];\n}") ==
          "f.dot:2: vertex 'a': processor '1' contradicts processor '0' given on line 2 (give each attribute once, or "
          "the same value)");
  REQUIRE(refused(two_tasks("comm=1, comm=2")) ==
          "f.dot:4: edge 'a' -> 'b': comm '2' contradicts comm '1' given on line 4 (give each attribute once, or the "
          "same value)");
  REQUIRE(refused("digraph {\n graph [processor_scale=\"1\"];\n processor_scale=\"2\";\n a [processor=0, law=\"c(1)\"];\n}") ==
          "f.dot:3: processor_scale '2' contradicts processor_scale '1' given on line 2 (give each attribute once, or "
          "the same value)");
  // The same value twice, however written, is one value.
  const auto same = parse_dot_dag(
      "digraph { a [processor=0, law=\"c(1)\"]; a [processor=\"0\", law=\"c( 1 )\"]; a -> b; b [processor=0, "
      "law=\"c(2)\"]; }",
      "same.dot");
  REQUIRE(same.tasks.size() == 2);
  REQUIRE(same.laws[static_cast<std::size_t>(same.tasks[0].law)] == Law::constant(1));
  // Defaults are no conflict: the explicit attribute wins, as in Graphviz.
  const auto defaults = parse_dot_dag("digraph { node [processor=0, law=\"c(1)\"]; a; a [law=\"c(2)\"]; b; }", "d.dot");
  REQUIRE(defaults.laws[static_cast<std::size_t>(defaults.tasks[0].law)] == Law::constant(2));
  REQUIRE(defaults.laws[static_cast<std::size_t>(defaults.tasks[1].law)] == Law::constant(1));
}

TEST_CASE("DOT: Graphviz constructs real files contain", "[dot]") {
  SECTION("edge defaults reach every edge after them; an edge's own comm wins") {
    const auto s = parse_dot(
        "digraph { node [law=\"c(1)\"]; a [processor=0]; b [processor=1]; c [processor=2]; d [processor=3];"
        " a -> b; edge [comm=0.5]; a -> c; a -> d [comm=2]; }",
        "e.dot");
    REQUIRE(s.graph()[boost::edge(0, 1, s.graph()).first].comm_law == -1);
    REQUIRE(comm_of(s, 0, 2) == Law::constant(0.5));
    REQUIRE(comm_of(s, 0, 3) == Law::constant(2));
  }
  SECTION("an edge to a group is one edge to each member; a chain is one edge per step") {
    const auto s = parse_dot(
        "digraph { node [law=\"c(1)\"]; a [processor=0]; b [processor=1]; c [processor=2]; d [processor=3];"
        " a -> {b c} [comm=0.25]; c -> d -> e [comm=3]; e [processor=0]; }",
        "g.dot");
    REQUIRE(comm_of(s, 0, 1) == Law::constant(0.25));
    REQUIRE(comm_of(s, 0, 2) == Law::constant(0.25));
    REQUIRE(comm_of(s, 2, 3) == Law::constant(3));
    REQUIRE(comm_of(s, 3, 4) == Law::constant(3));
    REQUIRE(boost::num_edges(s.graph()) == 5);  // 4 file edges and the chain a -> e on processor 0
    // a: 1, b and c: 2.25, d: 6.25, e: 10.25.
    REQUIRE(makespan(s) == 10.25);
    // A group's edges in the file's order, not the names' (Boost's): a -> z is the file's first.
    const auto order = parse_dot("digraph { node [law=\"c(1)\"]; a [processor=0]; z [processor=1]; b [processor=2];"
                                 " a -> {z b}; }",
                                 "o.dot");
    REQUIRE(order.graph()[boost::edge(0, 1, order.graph()).first].file_index == 0);
    REQUIRE(order.graph()[boost::edge(0, 2, order.graph()).first].file_index == 1);
    // Boost leaves b and c out of {b -> c} at an edge's end (Graphviz counts them): refused.
    REQUIRE(refused("digraph {\n node [processor=0, law=\"c(1)\"];\n a -> {b -> c};\n}") ==
            "f.dot:3: edge 'a' -> {...}: a subgraph at an edge's end holds edge statements (Boost's reader would "
            "leave their vertices out; write those edges on their own)");
  }
  SECTION("subgraphs, clusters, HTML labels and graph attributes pass") {
    const auto s = parse_dot(
        "digraph G {\n  rankdir=LR; label=<<b>title</b> &amp; <font color=\"red\">x</font><br/>>;\n"
        "  subgraph cluster_0 { label=\"p0\"; color=blue; node [processor=0, law=\"c(1)\"]; a; b; }\n"
        "  { rank=same; c [processor=1, law=\"c(2)\", label=<<i>c</i>>]; }\n  a -> c -> b;\n}\n",
        "c.dot");
    REQUIRE(s.graph()[0].name == "a");
    REQUIRE(s.graph()[1].name == "b");
    REQUIRE(s.graph()[2].name == "c");
    REQUIRE(makespan(s) == 4.0);
    // Graphviz's HTML strings count '<' and '>' (Boost alone reads XML tags: <x> never ends, and
    // <<b>x</b>> ends after </b>); one over two lines keeps the lines after it.
    REQUIRE(refused("digraph {\n a [label=<plain>, processor=0, law=\"c(1)\", note=<<b>\nx</b>>];\n b [processor=1];\n}") ==
            "f.dot:4: vertex 'b': has no law attribute (add law=\"u(0,1)\")");
  }
  SECTION("hetstruct's graph attributes inside a subgraph, which Boost drops, are refused") {
    REQUIRE(refused("digraph {\n subgraph s {\n processor_scale=\"1\"; a [processor=0, law=\"c(1)\"];\n }\n}") ==
            "f.dot:3: subgraph: 'processor_scale' is not read inside a subgraph (give it in the top-level graph)");
  }
  SECTION("a strict graph's repeated edge is refused, not dropped with its attributes") {
    REQUIRE(refused("strict digraph {\n a [processor=0, law=\"c(1)\"]; b [processor=1, law=\"c(1)\"];\n"
                    " a -> b; a -> b [comm=5];\n}") ==
            "f.dot:3: the edge 'a' -> 'b' is given twice, first on line 3 (give each precedence once)");
    REQUIRE_NOTHROW(parse_dot("strict digraph { a [processor=0, law=\"c(1)\"]; }", "s.dot"));
  }
}

TEST_CASE("DOT: cores and processor_cores", "[dot]") {
  const auto dag = parse_dot_dag(
      "digraph {\n graph [processor_cores=\"4, 1\"];\n a [processor=0, law=\"c(1)\", cores=2];\n"
      " b [processor=0, law=\"c(1)\"]; c [processor=1, law=\"c(1)\", cores=\"1\"];\n}",
      "k.dot");
  REQUIRE(dag.processor_cores == std::vector<int>{4, 1});
  REQUIRE(dag.tasks[0].cores == 2);
  REQUIRE(dag.tasks[1].cores == 1);
  REQUIRE(dag.tasks[2].cores == 1);

  const std::string two = "a [processor=0, law=\"c(1)\"];\n b [processor=1, law=\"c(1)\"];\n";
  for (const std::string bad : {"0", "1.5", "-1", "x", "\"\"", "\"2 \""}) {
    CAPTURE(bad);
    CHECK_THAT(refused("digraph {\n a [processor=0, law=\"c(1)\", cores=" + bad + "];\n}"),
               Catch::StartsWith("f.dot:2: vertex 'a': cores '") && Catch::EndsWith("' is not a whole number >= 1 "
                                                                                   "(cores=1, 2, 4, ... (default 1))"));
  }
  REQUIRE(refused("digraph {\n a [processor=0, law=\"c(1)\", cores=70000];\n}") ==
          "f.dot:2: vertex 'a': cores 70000 is beyond the limit 65536");
  // A third processor that runs no task: its cores change nothing (it was refused; issue 38).
  REQUIRE(refused("digraph {\n processor_cores=\"4,1,1\";\n " + two + "}") == "");
  REQUIRE(refused("digraph {\n processor_cores=\"4\";\n " + two + "}") ==
          "f.dot:2: processor_cores gives 1 processors, but the tasks use processors 0 to 1 (give one core count per "
          "processor)");
  REQUIRE(refused("digraph {\n processor_cores=\"4,0\";\n " + two + "}") ==
          "f.dot:2: processor_cores '4,0': '0' is not a whole number >= 1 (a comma-separated list such as \"4,4,1\")");
  REQUIRE(refused("digraph {\n a [processor=0, law=\"c(1)\", processor_cores=2];\n}") ==
          "f.dot:2: vertex 'a': 'processor_cores' is an attribute of the graph, not of a vertex (write graph "
          "[processor_cores=\"4,4,1\"] (cores per processor))");
  REQUIRE(refused("digraph {\n a [processor=0, law=\"c(1)\", ncores=2];\n}") ==
          "f.dot:2: vertex 'a': unknown attribute 'ncores' (did you mean cores=2 (the cores of its processor it takes; "
          "default 1)?)");
}

}  // namespace dot_reader_test
