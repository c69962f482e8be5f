// A user's own DAG from its file: the order on a processor (the file's, or explicit), edge and graph
// attributes, and the makespans of samples whose longest path is known by hand.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
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
#include "structures/task_graphs.h"

namespace graph_files_test {

using namespace hetstruct;
using testing::error_of;  // "" when nothing is thrown
using distributions::Law;
using structures::Structure;

namespace {

const std::string data_dir = HETSTRUCT_TEST_DATA;
[[maybe_unused]] std::string fixture(const std::string& name) { return data_dir + "/" + name; }


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
  // A trace's machines without recorded starts take their tasks as they become ready: no longest
  // path to hold the run against.
  if (!plan.ready_dispatch()) REQUIRE(engine::longest_path(plan, durations, finish) == estimate.mean);
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
          "bad.dot:1: vertex 't9': order 'x' is not a number (order=1, 2, 3, ... (smaller first))");
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
          "slip.dot:1: edge 'a' -> 'b': unknown attribute 'com' (did you mean comm=0.5 or comm=\"u(0,1)\" (the message's "
          "time)?)");
  REQUIRE(refused(ab_graph + "a -> b [cost=5];") ==
          "slip.dot:1: edge 'a' -> 'b': unknown attribute 'cost' (did you mean law=\"u(0,1)\"?)");
  REQUIRE(refused(ab_graph + "a -> b [latency=5];") ==
          "slip.dot:1: edge 'a' -> 'b': unknown attribute 'latency' (did you mean comm=0.5 or comm=\"u(0,1)\" (the "
          "message's time)?)");
  REQUIRE(refused("a [processor=0, law=\"c(1)\", comm=5];") ==
          "slip.dot:1: vertex 'a': 'comm' is an attribute of an edge, not of a vertex (write comm=0.5 or comm=\"u(0,1)\" "
          "(the message's time))");
  REQUIRE(refused("a [processor=0, law=\"c(1)\", Law=\"c(2)\"];") ==
          "slip.dot:1: vertex 'a': unknown attribute 'Law' (did you mean law=\"u(0,1)\"?)");
  REQUIRE(refused("a [processor=0, law=\"c(1)\", proccessor=1];") ==
          "slip.dot:1: vertex 'a': unknown attribute 'proccessor' (did you mean processor=0 (0-based)?)");
  REQUIRE(refused("graph [speeds=\"1,2\"]; a [processor=0, law=\"c(1)\"];") ==
          "slip.dot:1: unknown attribute 'speeds' (did you mean graph [processor_scale=\"1,1,1/2\"]?)");
  REQUIRE(refused(ab_graph + "a -> b [comm=-1];") == "slip.dot:1: edge 'a' -> 'b': comm: a message's time must be >= 0, got -1");
  CHECK_THAT(refused(ab_graph + "a -> b [comm=\"u(1,0)\"];"), Catch::StartsWith("slip.dot:1: edge 'a' -> 'b': "));
  REQUIRE(refused("graph [processor_scale=\"1\"]; " + ab_graph) ==
          "slip.dot: processor_scale gives 1 processors, but the tasks use processors 0 to 1 (give one scale per "
          "processor)");
  REQUIRE(refused("graph [processor_scale=\"1,0\"]; " + ab_graph) ==
          "slip.dot: a processor scale must be a finite number > 0 (1 is a reference processor, 1/2 one twice as fast)");
  REQUIRE(refused("graph [processor_scale=\"1,x\"]; " + ab_graph) ==
          "slip.dot:1: processor_scale '1,x': 'x' is not a number (a comma-separated list such as \"1,1,1/2\")");
  REQUIRE(refused(ab_graph + "a -> b; a -> b;") ==
          "slip.dot:1: the edge 'a' -> 'b' is given twice, first on line 1 (give each precedence once)");
}

TEST_CASE("DOT: a file whose order and names differ", "[graph_files]") {
  REQUIRE(makespan(structures::read_dot(fixture("file_order.dot"))) == 10.0);
}

// ---------------------------------------------------------------------------------------------
// STG

TEST_CASE("STG: the sample's longest path, on its own processors and through mapping files", "[graph_files]") {
  const auto s = structures::read_stg(fixture("sample.stg"));
  REQUIRE(s.name == fixture("sample.stg"));
  // The dummies 0 and 6 are dropped: tasks 1 to 5, each on a processor of its own.
  REQUIRE(boost::num_vertices(s.graph()) == 5);
  REQUIRE(boost::num_edges(s.graph()) == 5);
  REQUIRE(s.width == 5);
  REQUIRE(s.graph()[0].name == "1");
  REQUIRE(s.laws[static_cast<std::size_t>(s.graph()[3].law)] == Law::constant(6));  // task 4
  REQUIRE(s.levels == 3);
  REQUIRE(makespan(s) == 13.0);  // 1 -> 2 -> 4: 3 + 4 + 6

  structures::TaskGraphOptions serial;
  serial.mapping = fixture("sample_serial.map");
  const auto one = structures::read_stg(fixture("sample.stg"), serial);
  REQUIRE(one.width == 1);
  REQUIRE(makespan(one) == 16.0);  // the sum of the costs

  structures::TaskGraphOptions two;
  two.mapping = fixture("sample_two.map");
  REQUIRE(makespan(structures::read_stg(fixture("sample.stg"), two)) == 13.0);

  structures::TaskGraphOptions against;
  against.mapping = fixture("sample_against.map");
  REQUIRE(error_of([&] { structures::read_stg(fixture("sample.stg"), against); }) ==
          fixture("sample.stg") + ": the order of the tasks on processor 0 contradicts the precedences: '2' -> '4' -> "
                                  "'2' (a processor runs its tasks in the order they are listed or numbered; list "
                                  "them in an order the precedences allow)");
}

TEST_CASE("STG: more tasks than 65,536, each on a processor of its own", "[graph_files]") {
  // The processors an STG file implies are its tasks', not indices a typo could inflate: 70,000
  // tasks run on 70,000 processors (once refused beyond 65,536). Task i (1..n) costs i mod 7 + 1 and
  // follows task i - 1000 where there is one: the longest path is the heaviest chain of step 1000.
  const int n = 70000;
  std::string text = std::to_string(n) + "\n0 0 0\n";
  for (int i = 1; i <= n; ++i)
    text += std::to_string(i) + " " + std::to_string(i % 7 + 1) + " 1 " + std::to_string(i > 1000 ? i - 1000 : 0) + "\n";
  text += std::to_string(n + 1) + " 0 1 " + std::to_string(n) + "\n";
  const auto s = structures::parse_stg(text, "big.stg", {});
  REQUIRE(s.width == n);
  double longest = 0.0;
  for (int first = 1; first <= 1000; ++first) {
    double chain = 0.0;
    for (int i = first; i <= n; i += 1000) chain += i % 7 + 1;
    longest = std::max(longest, chain);
  }
  REQUIRE(makespan(s) == longest);
}

TEST_CASE("STG: laws around each task's cost", "[graph_files]") {
  const std::string text = "1\n0 0 0\n1 10 1 0\n2 0 1 1\n";
  structures::TaskGraphOptions options;
  options.law = {structures::TaskLawShape::normal, 0.1};
  const auto normal = structures::parse_stg(text, "n.stg", options);
  REQUIRE(boost::num_vertices(normal.graph()) == 1);
  REQUIRE(normal.laws.front() == Law::normal(10, 1.0));  // sd = 0.1 * 10
  options.law = {structures::TaskLawShape::uniform, 0.1};
  const auto uniform = structures::parse_stg(text, "u.stg", options);
  REQUIRE(uniform.laws.front().mean() == Approx(10.0).epsilon(1e-15));
  REQUIRE(uniform.laws.front().variance() == Approx(1.0).epsilon(1e-12));
  REQUIRE(structures::task_law(0.0, {structures::TaskLawShape::normal, 0.5}) == Law::constant(0));
  REQUIRE(structures::task_law(4.0, {structures::TaskLawShape::uniform, 0.0}) == Law::constant(4));
  REQUIRE(error_of([] { structures::validate(structures::TaskLawOptions{structures::TaskLawShape::constant, 0.2}); }) ==
          "task_cv: a constant task law has no coefficient of variation (choose the normal or uniform task law, or "
          "drop the coefficient)");
  REQUIRE(error_of([] { structures::validate(structures::TaskLawOptions{structures::TaskLawShape::normal, -1}); }) ==
          "task_cv: the coefficient of variation must be a finite number >= 0");
  REQUIRE(error_of([] { structures::parse_task_law_shape("gamma"); }) ==
          "task_law: unknown task law 'gamma' (choose normal, uniform or constant)");
}

TEST_CASE("STG: malformed files name the line and the problem", "[graph_files]") {
  const auto stg = [](const std::string& text) { return error_of([&] { structures::parse_stg(text, "bad.stg"); }); };
  REQUIRE(stg("") == "bad.stg: the file is empty (an STG file starts with its number of tasks)");
  REQUIRE(stg("# only a comment\n") == "bad.stg: the file is empty (an STG file starts with its number of tasks)");
  REQUIRE(stg("two\n") == "bad.stg:1: the number of tasks 'two' is not a non-negative integer");
  REQUIRE(stg("2\n0 0 0\n1 5 1 0\n") ==
          "bad.stg:3: the file ends where the id of task 2 was expected (an STG file lists n + 2 tasks: id, cost, "
          "predecessor count, predecessors)");
  REQUIRE(stg("1\n0 0 0\n2 5 1 0\n") ==
          "bad.stg:3: task 2 where task 1 was expected (an STG file lists its tasks 0 to n + 1 in order)");
  REQUIRE(stg("1\n0 0 0\n1 -5 1 0\n2 0 1 1\n") == "bad.stg:3: the cost of task 1 '-5' is not a number >= 0");
  REQUIRE(stg("1\n0 0 0\n1 5x 1 0\n2 0 1 1\n") == "bad.stg:3: the cost of task 1 '5x' is not a number >= 0");
  REQUIRE(stg("1\n0 0 0\n1 5 1 7\n2 0 1 1\n") ==
          "bad.stg:3: task 1 has predecessor 7, which is not a task (ids run from 0 to n + 1 = 2)");
  REQUIRE(stg("1\n0 0 0\n1 5 2 0\n") ==
          "bad.stg:3: the file ends where a predecessor of task 1 was expected (an STG file lists n + 2 tasks: id, "
          "cost, predecessor count, predecessors)");
  REQUIRE(stg("2\n0 0 0\n1 5 2 0 2\n2 5 1 1\n3 0 1 2\n") ==
          "bad.stg: the graph has a cycle: '1' -> '2' -> '1' (a precedence graph must be acyclic)");
  REQUIRE(stg("2\n0 0 0\n1 5 1 0\n2 5 2 1 1\n3 0 1 2\n") == "bad.stg: the edge '1' -> '2' is given twice (give each precedence once)");
  REQUIRE(stg("1\n0 0 0\n1 5 1 0\n2 0 1 1\n3\n") ==
          "bad.stg:5: unexpected '3' after the 3 tasks (the first line gives n, the tasks between the dummies; "
          "comments start with '#')");
  structures::TaskGraphOptions unmapped;
  unmapped.mapping = fixture("sample_two.map");
  REQUIRE(error_of([&] { structures::parse_stg("1\n0 0 0\n1 5 1 0\n2 0 1 1\n", "m.stg", unmapped); }) ==
          fixture("sample_two.map") + ":5: task '3' is not in the graph");
}

TEST_CASE("mapping files: bad lines", "[graph_files]") {
  REQUIRE(error_of([] { structures::parse_mapping("a 0\nb\n", "m.map"); }) ==
          "m.map:2: expected 'task processor', got 'b' (one task and its processor index a line)");
  REQUIRE(error_of([] { structures::parse_mapping("a 0\na 1\n", "m.map"); }) == "m.map:2: task 'a' is mapped twice (map each task once)");
  REQUIRE(error_of([] { structures::parse_mapping("a x\n", "m.map"); }) ==
          "m.map:1: processor 'x' is not a processor index (use 0, 1, 2, ...)");
  REQUIRE(error_of([] { structures::parse_mapping("# nothing\n", "m.map"); }) ==
          "m.map: the mapping file maps no task (write one 'task processor' a line)");
  structures::TaskGraphOptions missing;
  missing.mapping = fixture("sample_against.map");
  CHECK_THAT(error_of([&] { structures::parse_stg("1\n0 0 0\n1 5 1 0\n2 0 1 1\n", "m.stg", missing); }),
             Catch::EndsWith("sample_against.map:5: task '3' is not in the graph"));
  missing.mapping = fixture("no_such.map");
  REQUIRE(error_of([&] { structures::read_stg(fixture("sample.stg"), missing); }) ==
          fixture("no_such.map") + ": cannot open the mapping file");
}

// ---------------------------------------------------------------------------------------------
// WfFormat

TEST_CASE("WfFormat: the sample's longest path, its machines and its messages", "[graph_files]") {
  for (const std::string file : {"sample_wf.json", "sample_wf_old.json"}) {
    CAPTURE(file);
    const auto s = structures::read_wfformat(fixture(file));
    const auto& g = s.graph();
    REQUIRE(boost::num_vertices(g) == 4);
    REQUIRE(s.width == 2);  // node1 and node2
    REQUIRE(g[0].processor == 0);
    REQUIRE(g[1].processor == 0);
    REQUIRE(g[2].processor == 1);
    REQUIRE(g[3].processor == 1);
    // Four precedences (given as parents and as children, each once); no chain edge is new.
    REQUIRE(boost::num_edges(g) == 4);
    for (const auto e : boost::make_iterator_range(boost::edges(g))) REQUIRE(g[e].comm_law == -1);
    REQUIRE(makespan(s) == 45.0);  // split + b + join

    structures::TaskGraphOptions options;
    options.bandwidth = 100;  // bytes per second
    const auto messages = structures::read_wfformat(fixture(file), options);
    const auto& m = messages.graph();
    const auto comm = [&](structures::Vertex a, structures::Vertex b) {
      return messages.laws[static_cast<std::size_t>(m[boost::edge(a, b, m).first].comm_law)];
    };
    REQUIRE(comm(0, 1) == Law::constant(10));  // chunk_a: 1000 bytes
    REQUIRE(comm(0, 2) == Law::constant(20));  // chunk_b: 2000 bytes
    REQUIRE(comm(1, 3) == Law::constant(5));   // res_a: 500 bytes
    REQUIRE(comm(2, 3) == Law::constant(1));   // res_b: 100 bytes
    REQUIRE(m[boost::edge(0, 2, m).first].crosses_processors);
    REQUIRE_FALSE(m[boost::edge(0, 1, m).first].crosses_processors);
  }
  // Without machines each task has a processor of its own; the longest path is the same.
  structures::TaskGraphOptions separate;
  const std::string text = R"({"workflow": {"specification": {"tasks": [
      {"id": "x", "parents": [], "children": ["y"]}, {"id": "y", "parents": ["x"], "children": []},
      {"id": "z", "parents": [], "children": []}]},
    "execution": {"tasks": [{"id": "x", "runtimeInSeconds": 2.5}, {"id": "y", "runtimeInSeconds": 4},
                            {"id": "z", "runtimeInSeconds": 6}]}}})";
  const auto own = structures::parse_wfformat(text, "own.json", separate);
  REQUIRE(own.width == 3);
  REQUIRE(makespan(own) == 6.5);
}

TEST_CASE("WfFormat: malformed files name the task and the problem", "[graph_files]") {
  const auto wf = [](const std::string& tasks, const std::string& execution = "") {
    return error_of([&] {
      structures::parse_wfformat(R"({"workflow": {"specification": {"tasks": )" + tasks + "}" +
                                     (execution.empty() ? "" : R"(, "execution": {"tasks": )" + execution + "}") + "}}",
                                 "w.json");
    });
  };
  const std::string one_runtime = R"([{"id": "x", "runtimeInSeconds": 1}])";
  CHECK_THAT(error_of([] { structures::parse_wfformat("{\"workflow\": ", "w.json"); }),
             Catch::StartsWith("w.json: JSON syntax error: parse error at line 1, column 14: syntax error while parsing value"));
  // A number beyond a double is nlohmann's out_of_range, not its parse_error (found by fuzz_wfformat).
  REQUIRE(error_of([] { structures::parse_wfformat("33333e333e", "w.json"); }) ==
          "w.json: JSON syntax error: number overflow parsing '33333e333'");
  REQUIRE(error_of([] { structures::parse_wfformat("[1, 2]", "w.json"); }) == "w.json: the document: is a JSON array, not an object");
  REQUIRE(error_of([] { structures::parse_wfformat("{}", "w.json"); }) == "w.json: the document: has no 'workflow'");
  REQUIRE(error_of([] { structures::parse_wfformat(R"({"workflow": {}})", "w.json"); }) ==
          "w.json: workflow: has neither 'specification' (WfFormat 1.5 and later) nor 'tasks' (before 1.5)");
  REQUIRE(wf("{}") == "w.json: workflow.specification.tasks: is a JSON object, not an array");
  REQUIRE(wf("[]") == "w.json: the workflow has no tasks");
  REQUIRE(wf(R"([{"id": 7}])") == "w.json: workflow.specification.tasks[0] id: is a JSON number, not a string");
  REQUIRE(wf(R"([{"id": "x"}])") == "w.json: task 'x': has no runtimeInSeconds");
  REQUIRE(wf(R"([{"id": "x"}])", R"([{"id": "x", "runtimeInSeconds": "1"}])") ==
          "w.json: task 'x' runtimeInSeconds: is a JSON string, not a number");
  REQUIRE(wf(R"([{"id": "x"}])", R"([{"id": "x", "runtimeInSeconds": -1}])") ==
          "w.json: task 'x' runtimeInSeconds: must be a finite number >= 0, got -1");
  REQUIRE(wf(R"([{"id": "x"}])", R"([{"id": "q", "runtimeInSeconds": 1}])") ==
          "w.json: workflow.execution.tasks[0]: names task 'q', which workflow.specification.tasks does not list");
  REQUIRE(wf(R"([{"id": "x", "parents": ["ghost"]}])", one_runtime) ==
          "w.json: task 'x': parent 'ghost' is not a task of the workflow");
  REQUIRE(wf(R"([{"id": "x", "parents": "y"}])", one_runtime) == "w.json: task 'x' parents: is a JSON string, not an array");
  REQUIRE(wf(R"([{"id": "x"}, {"id": "x"}])", one_runtime) == "w.json: task 'x': is listed twice");
  REQUIRE(wf(R"([{"id": "x", "children": ["y"]}, {"id": "y", "children": ["x"]}])",
             R"([{"id": "x", "runtimeInSeconds": 1}, {"id": "y", "runtimeInSeconds": 1}])") ==
          "w.json: the graph has a cycle: 'x' -> 'y' -> 'x' (a precedence graph must be acyclic)");
  CHECK_THAT(error_of([] { structures::parse_wfformat(std::string(100, '[') + std::string(100, ']'), "deep.json"); }),
             Catch::StartsWith("deep.json: JSON nested more than 64 deep"));
  CHECK_THAT(error_of([] { structures::read_wfformat(data_dir); }), Catch::EndsWith("is a directory, not a graph file"));
}

TEST_CASE("graph files: the reader follows the extension", "[graph_files]") {
  REQUIRE(structures::graph_format("a/b.DOT") == structures::GraphFormat::dot);
  REQUIRE(structures::graph_format("b.gv") == structures::GraphFormat::dot);
  REQUIRE(structures::graph_format("b.stg") == structures::GraphFormat::stg);
  REQUIRE(structures::graph_format("b.json") == structures::GraphFormat::wfformat);
  REQUIRE(error_of([] { structures::graph_format("b.txt"); }) ==
          "graph: cannot tell the format of 'b.txt' from its extension (name it .dot or .gv (Graphviz), .stg (Standard "
          "Task Graph Set) or .json (WfFormat))");
  REQUIRE(makespan(structures::read_graph(fixture("sample.stg"))) == 13.0);
  REQUIRE(makespan(structures::read_graph(fixture("sample_wf.json"))) == 45.0);
  structures::TaskGraphOptions cv;
  cv.law.cv = 0.1;
  REQUIRE(error_of([&] { structures::read_graph(fixture("diamond.dot"), cv); }) ==
          "task_cv: applies to STG and WfFormat files, not to a DOT file (a DOT vertex gives its own law)");
}

TEST_CASE("graph files: a folder or a pattern names several, sorted", "[graph_files]") {
  namespace fs = std::filesystem;
  // A pattern in the last component, on tests/data: the matches in byte order.
  REQUIRE(structures::expand_graph_paths(fixture("s*.dot")) ==
          std::vector<std::string>{fixture("same_processor.dot"), fixture("shared_fork.dot"), fixture("stencil4x4.dot"), fixture("syntax_error.dot")});
  REQUIRE(error_of([] { structures::expand_graph_paths(fixture("sample_wf?.json")); }) ==
          "graph: no file matches '" + fixture("sample_wf?.json") + "'");
  REQUIRE(structures::expand_graph_paths(fixture("[cd]*.dot")) ==
          std::vector<std::string>{fixture("cholesky5.dot"), fixture("comm_typo.dot"), fixture("cycle.dot"),
                                   fixture("diamond.dot")});
  // Anything else is one file, as given (whether it exists is the reader's business).
  REQUIRE(structures::expand_graph_paths(fixture("diamond.dot")) == std::vector<std::string>{fixture("diamond.dot")});
  REQUIRE(structures::expand_graph_paths("no/such.dot") == std::vector<std::string>{"no/such.dot"});

  // A folder: its files with a graph extension (any case), sorted by name; not its subfolders.
  const fs::path dir = fs::temp_directory_path() / ("hetstruct-graphs-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "sub.dot");
  for (const char* name : {"b.stg", "a.dot", "C.GV", "d.json", "notes.txt", "e.map"}) std::ofstream(dir / name) << "x";
  const std::string d = dir.string();
  REQUIRE(structures::expand_graph_paths(d) ==
          std::vector<std::string>{d + "/C.GV", d + "/a.dot", d + "/b.stg", d + "/d.json"});
  REQUIRE(error_of([&] { structures::expand_graph_paths(d + "/sub.dot"); }) ==
          "graph: the folder '" + d + "/sub.dot' holds no graph file (graph files end in .dot, .gv, .stg or .json)");
  REQUIRE(error_of([&] { structures::expand_graph_paths(d + "/*.xml"); }) == "graph: no file matches '" + d + "/*.xml'");
  fs::remove_all(dir);
}

}  // namespace graph_files_test
