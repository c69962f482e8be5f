// WfFormat traces as machines: every real sample reads with default options; a machine's tasks run
// in the order they started (else a topological order closest to the file's); tasks without a
// machine, machines the list lacks, files without a size; cores and the recorded makespan.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
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

namespace wfformat_test {

using namespace hetstruct;
using testing::error_of;  // "" when nothing is thrown
using structures::Structure;

namespace {

const std::string samples = std::string(HETSTRUCT_TEST_DATA) + "/wfinstances";
std::string sample(const std::string& name) { return samples + "/" + name; }
// The reading of a machine's order (dispatch ordered): without it a machine without recorded
// starts has no order at all (tests/dispatch_test.cpp).
const structures::TaskGraphOptions ordered = [] {
  structures::TaskGraphOptions o;
  o.dispatch = structures::Dispatch::ordered;
  return o;
}();


// The makespan at C = 0 with every task at its mean (the default task law is constant): the
// longest path of the graph the engine runs, one replication through the driver to agree.
double makespan(const Structure& s) {
  const auto plan = engine::compile(s);
  engine::RunOptions options;
  options.reps = 2;
  options.threads = 1;
  const auto estimate = engine::run(plan, options);
  REQUIRE(estimate.min == estimate.max);
  return estimate.mean;
}

// The tasks of one processor, by name, in the order the graph runs them: its chain links each
// task to the next, so the processor's tasks have one topological order.
std::vector<std::string> chain(const Structure& s, int processor) {
  const auto& g = s.graph();
  std::vector<structures::Vertex> left;
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v)
    if (g[v].processor == processor) left.push_back(v);
  std::vector<std::string> names;
  while (!left.empty()) {
    std::vector<structures::Vertex> first;
    for (const auto v : left)
      if (std::none_of(left.begin(), left.end(), [&](auto u) { return boost::edge(u, v, g).second; })) first.push_back(v);
    REQUIRE(first.size() == 1);  // a chain, not a choice
    names.push_back(g[first.front()].name);
    left.erase(std::find(left.begin(), left.end(), first.front()));
  }
  return names;
}

std::vector<std::string> names_on(const Structure& s, int processor) {
  std::vector<std::string> names;
  for (std::size_t v = 0; v < boost::num_vertices(s.graph()); ++v)
    if (s.graph()[v].processor == processor) names.push_back(s.graph()[v].name);
  return names;
}

// A 1.5 document from its specification tasks, execution tasks and machines.
std::string wf(const std::string& tasks, const std::string& executed, const std::string& machines = "",
               const std::string& extra = "") {
  return R"({"schemaVersion": "1.5", "workflow": {"specification": {"tasks": )" + tasks + extra +
         R"(}, "execution": {"makespanInSeconds": 1, "executedAt": "2024-01-01T00:00:00Z", "tasks": )" + executed +
         (machines.empty() ? "" : R"(, "machines": )" + machines) + "}}}";
}

}  // namespace

TEST_CASE("WfFormat: every sample trace reads with default options", "[wfformat]") {
  struct Expected {
    std::size_t tasks;
    int width;
    std::vector<int> cores;  // the first processors' (all of them when there are few)
    double recorded;
  };
  // Recorded makespans as the files give them; machines and cores from their machines lists.
  const std::map<std::string, Expected> expected = {
      {"child_listed_first.json", {2, 1, {4}, 3}},
      {"helloworld_helloworld-chain-5-chameleon.json", {5, 1, {64}, 661}},
      {"helloworld_helloworld-forkjoin-10-chameleon.json", {10, 1, {64}, 437}},
      {"makeflow_blast_blast-chameleon-small-001-schema-1.0.json", {43, 2, {24, 24}, 1279.3}},
      {"makeflow_blast_blast-chameleon-small-001-schema-1.4.json", {43, 2, {24, 24}, 1279.3}},
      {"makeflow_blast_blast-chameleon-small-001.json", {43, 2, {24, 24}, 1279.3}},
      {"nextflow_fetchngs-dirt02-001.json", {43, 43, {1, 1, 1}, 246}},  // no task names a machine
      {"no_files_list.json", {2, 2, {1, 1}, 3}},
      {"parallel_on_multicore.json", {2, 1, {4}, 5}},
      {"pegasus_epigenomics_epigenomics-chameleon-ilmn-1seq-100k-001.json", {125, 1, {48}, 653}},
      {"pegasus_montage_montage-chameleon-2mass-01d-001.json", {103, 1, {48}, 1362}},
      {"pegasus_srasearch_srasearch-chameleon-10a-002.json", {22, 1, {48}, 5645}},
      {"undeclared_machine.json", {2, 2, {1, 1}, 3}},
  };
  std::size_t read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(samples)) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    const auto s = structures::read_wfformat(entry.path().string());
    REQUIRE(expected.count(name) == 1);
    const auto& e = expected.at(name);
    REQUIRE(boost::num_vertices(s.graph()) == e.tasks);
    REQUIRE(s.width == e.width);
    REQUIRE(s.processor_cores.size() == static_cast<std::size_t>(s.width));
    REQUIRE(std::vector<int>(s.processor_cores.begin(), s.processor_cores.begin() + static_cast<long>(e.cores.size())) == e.cores);
    REQUIRE(s.recorded_makespan == e.recorded);
    for (std::size_t v = 0; v < e.tasks; ++v) REQUIRE(s.graph()[v].cores == 1);  // every sample's tasks take one core
    REQUIRE(makespan(s) > 0.0);
    ++read;
  }
  REQUIRE(read == expected.size());
}

TEST_CASE("WfFormat: real traces' makespans on their machines' cores", "[wfformat]") {
  // At C = 0, tasks at their runtimes, each machine running as many at once as its coreCount
  // allows (the rule tests/cores_test.cpp holds against an independent simulation); pinned here.
  // Epigenomics lists its tasks out of the order they ran, which was refused; on its machine's 48
  // cores it takes 461.178 (one task at a time: 2578.345, the sum of its runtimes).
  // In the topological order closest to the file's (dispatch ordered); as real machines run it,
  // starting any ready task on a free core (the default, the trace recording no starts), 143.445.
  const auto epigenomics = structures::read_wfformat(sample("pegasus_epigenomics_epigenomics-chameleon-ilmn-1seq-100k-001.json"), ordered);
  REQUIRE(makespan(epigenomics) == Approx(461.178).epsilon(1e-12));
  REQUIRE(makespan(structures::read_wfformat(sample("pegasus_epigenomics_epigenomics-chameleon-ilmn-1seq-100k-001.json"))) ==
          Approx(143.445).epsilon(1e-12));
  REQUIRE(makespan(structures::read_wfformat(sample("helloworld_helloworld-chain-5-chameleon.json"))) == Approx(501.24).epsilon(1e-12));
  // The fork-join lists its join third, before six of the tasks it joins (refused too).
  const auto forkjoin = structures::read_wfformat(sample("helloworld_helloworld-forkjoin-10-chameleon.json"), ordered);
  REQUIRE(makespan(forkjoin) == Approx(307.36).epsilon(1e-12));
  REQUIRE(chain(forkjoin, 0).back() == "cpuhog_forkjoin_00000010");
  // srasearch: 2.78 times its recorded 5,645 s in the file's order, 3,011.61 as it ran.
  REQUIRE(makespan(structures::read_wfformat(sample("pegasus_srasearch_srasearch-chameleon-10a-002.json"), ordered)) ==
          Approx(15710.326).epsilon(1e-12));
  REQUIRE(makespan(structures::read_wfformat(sample("pegasus_srasearch_srasearch-chameleon-10a-002.json"))) ==
          Approx(3011.61).epsilon(1e-12));
  REQUIRE(makespan(structures::read_wfformat(sample("pegasus_montage_montage-chameleon-2mass-01d-001.json"), ordered)) ==
          Approx(59.979).epsilon(1e-12));
  REQUIRE(makespan(structures::read_wfformat(sample("pegasus_montage_montage-chameleon-2mass-01d-001.json"))) ==
          Approx(21.122).epsilon(1e-12));
  // Two machines of 24 cores: split_fasta on worker-1, then 40 blastall tasks of about 9.6 s on
  // worker-2 (two waves), then the merges.
  for (const char* file : {"makeflow_blast_blast-chameleon-small-001.json", "makeflow_blast_blast-chameleon-small-001-schema-1.0.json",
                           "makeflow_blast_blast-chameleon-small-001-schema-1.4.json"}) {
    CAPTURE(file);
    REQUIRE(makespan(structures::read_wfformat(sample(file))) == Approx(19.636217).epsilon(1e-12));
  }
  // No task names a machine: each on its own processor, the makespan is the longest path.
  REQUIRE(makespan(structures::read_wfformat(sample("nextflow_fetchngs-dirt02-001.json"))) == 13.0);
  // Two independent 5 s tasks on one machine of 4 cores: 5.
  REQUIRE(makespan(structures::read_wfformat(sample("parallel_on_multicore.json"))) == 5.0);
}

TEST_CASE("WfFormat: a machine's tasks run in the order they started", "[wfformat]") {
  // child_listed_first: b (a child of a) is listed first; the starts say a, then b.
  const auto listed = structures::read_wfformat(sample("child_listed_first.json"));
  REQUIRE(chain(listed, 0) == std::vector<std::string>{"a", "b"});
  REQUIRE(makespan(listed) == 3.0);

  // Independent tasks: the recorded starts, whatever the file's order; equal starts keep the
  // topological order (the file's here).
  const std::string tasks = R"([{"id": "x", "parents": [], "children": []}, {"id": "y", "parents": [], "children": []},
                               {"id": "z", "parents": [], "children": []}])";
  const auto started = structures::parse_wfformat(
      wf(tasks, R"([{"id": "x", "runtimeInSeconds": 1, "machines": ["n"], "executedAt": "2024-01-01T00:00:09Z"},
                    {"id": "y", "runtimeInSeconds": 1, "machines": ["n"], "executedAt": "2024-01-01T00:00:05Z"},
                    {"id": "z", "runtimeInSeconds": 1, "machines": ["n"], "executedAt": "2024-01-01T00:00:05Z"}])"),
      "t.json");
  REQUIRE(chain(started, 0) == std::vector<std::string>{"y", "z", "x"});

  // Offsets and fractions: 01:00:00+01:00 is 00:00:00Z, before 00:00:00.5Z; the basic form too.
  const auto zones = structures::parse_wfformat(
      wf(tasks, R"([{"id": "x", "runtimeInSeconds": 1, "machines": ["n"], "executedAt": "2024-01-01T00:00:00.5Z"},
                    {"id": "y", "runtimeInSeconds": 1, "machines": ["n"], "executedAt": "2024-01-01T01:00:00+01:00"},
                    {"id": "z", "runtimeInSeconds": 1, "machines": ["n"], "executedAt": "20231231T235959-0000"}])"),
      "t.json");
  REQUIRE(chain(zones, 0) == std::vector<std::string>{"z", "y", "x"});

  // Equal starts of a parent and its child listed first: the parent first.
  const auto tie = structures::parse_wfformat(
      wf(R"([{"id": "c", "parents": ["p"], "children": []}, {"id": "p", "parents": [], "children": ["c"]}])",
         R"([{"id": "c", "runtimeInSeconds": 1, "machines": ["n"], "executedAt": "2024-01-01T00:00:00Z"},
             {"id": "p", "runtimeInSeconds": 1, "machines": ["n"], "executedAt": "2024-01-01T00:00:00Z"}])"),
      "t.json");
  REQUIRE(chain(tie, 0) == std::vector<std::string>{"p", "c"});
}

TEST_CASE("WfFormat: without starts, the topological order closest to the file's", "[wfformat]") {
  // c (a child of a) listed first, then a, then b: a, c, b (c runs as soon as a allows, before b,
  // which the file lists after it).
  const std::string tasks = R"([{"id": "c", "parents": ["a"], "children": []}, {"id": "a", "parents": [], "children": ["c"]},
                               {"id": "b", "parents": [], "children": []}])";
  const std::string executed = R"([{"id": "c", "runtimeInSeconds": 1, "machines": ["n"]},
      {"id": "a", "runtimeInSeconds": 2, "machines": ["n"]}, {"id": "b", "runtimeInSeconds": 4, "machines": ["n"]}])";
  const auto s = structures::parse_wfformat(wf(tasks, executed), "t.json", ordered);
  REQUIRE(chain(s, 0) == std::vector<std::string>{"a", "c", "b"});
  REQUIRE(makespan(s) == 7.0);
  // By default no order: a and b ready at 0 (a listed first), c once a is done, behind b.
  const auto ready = structures::parse_wfformat(wf(tasks, executed), "t.json");
  REQUIRE(ready.dispatch == std::vector<structures::Dispatch>{structures::Dispatch::ready});
  REQUIRE(boost::num_edges(ready.graph()) == 1);  // a -> c alone, no chain
  REQUIRE(makespan(ready) == 7.0);
  // One task of the machine without a start: the whole machine in the topological order.
  const auto mixed = structures::parse_wfformat(wf(tasks, R"([{"id": "c", "runtimeInSeconds": 1, "machines": ["n"]},
      {"id": "a", "runtimeInSeconds": 2, "machines": ["n"], "executedAt": "2024-01-01T00:00:09Z"},
      {"id": "b", "runtimeInSeconds": 4, "machines": ["n"], "executedAt": "2024-01-01T00:00:00Z"}])"),
                                                "t.json", ordered);
  REQUIRE(chain(mixed, 0) == std::vector<std::string>{"a", "c", "b"});
}

TEST_CASE("WfFormat: starts that contradict the precedences give way to the topological order", "[wfformat]") {
  // On n1 the child b is recorded as starting before its parent a: the trace contradicts itself.
  // Every machine then runs in the topological order, n2's recorded v-before-u included.
  const std::string tasks = R"([{"id": "b", "parents": ["a"], "children": []}, {"id": "a", "parents": [], "children": ["b"]},
                               {"id": "u", "parents": [], "children": []}, {"id": "v", "parents": [], "children": []}])";
  const auto s = structures::parse_wfformat(
      wf(tasks, R"([{"id": "b", "runtimeInSeconds": 1, "machines": ["n1"], "executedAt": "2024-01-01T00:00:00Z"},
                    {"id": "a", "runtimeInSeconds": 1, "machines": ["n1"], "executedAt": "2024-01-01T00:00:05Z"},
                    {"id": "u", "runtimeInSeconds": 1, "machines": ["n2"], "executedAt": "2024-01-01T00:00:05Z"},
                    {"id": "v", "runtimeInSeconds": 1, "machines": ["n2"], "executedAt": "2024-01-01T00:00:00Z"}])"),
      "t.json", ordered);
  REQUIRE(chain(s, 0) == std::vector<std::string>{"a", "b"});
  REQUIRE(chain(s, 1) == std::vector<std::string>{"u", "v"});
  // Said, not silent, as is the core count assumed for machines that give none.
  REQUIRE(s.notes == std::vector<std::string>{
                         "t.json: no cpu.coreCount for 2 machines ('n1' first), which ran several tasks: each runs as many at "
                         "once as its largest task's cores (1 for 'n1'); the processors' cores (processor_cores) set them",
                         "t.json: the recorded start times contradict the precedences on some machine: every machine runs its "
                         "tasks in a topological order of the file instead"});
  // Clocks of two machines may disagree: a child recorded before its parent on another machine
  // changes nothing, each machine keeps its own recorded order.
  const auto skew = structures::parse_wfformat(
      wf(R"([{"id": "p", "parents": [], "children": ["c"]}, {"id": "c", "parents": ["p"], "children": []},
             {"id": "q", "parents": [], "children": []}])",
         R"([{"id": "p", "runtimeInSeconds": 1, "machines": ["n1"], "executedAt": "2024-01-01T00:00:10Z"},
             {"id": "c", "runtimeInSeconds": 1, "machines": ["n2"], "executedAt": "2024-01-01T00:00:05Z"},
             {"id": "q", "runtimeInSeconds": 1, "machines": ["n2"], "executedAt": "2024-01-01T00:00:07Z"}])"),
      "t.json");
  REQUIRE(chain(skew, 1) == std::vector<std::string>{"c", "q"});
  REQUIRE(makespan(skew) == 3.0);  // p, c, q
  REQUIRE(skew.notes == std::vector<std::string>{"t.json: no cpu.coreCount for machine 'n2', which ran several tasks: each "
                                                 "runs as many at once as its largest task's cores (1 for 'n2'); the processors' cores (processor_cores) set them"});
}

TEST_CASE("WfFormat: tasks without a machine and machines the list lacks", "[wfformat]") {
  // undeclared_machine: a on n1 (listed), b on n2 (not listed): a processor each.
  const auto undeclared = structures::read_wfformat(sample("undeclared_machine.json"));
  REQUIRE(names_on(undeclared, 0) == std::vector<std::string>{"a"});
  REQUIRE(names_on(undeclared, 1) == std::vector<std::string>{"b"});
  REQUIRE(makespan(undeclared) == 3.0);

  // Listed machines that ran tasks first (in the list's order, n3 ran none), then unlisted ones by
  // first use, then each task without a machine on its own processor.
  const std::string tasks = R"([{"id": "w", "parents": [], "children": []}, {"id": "x", "parents": [], "children": []},
      {"id": "y", "parents": [], "children": []}, {"id": "z", "parents": [], "children": []}, {"id": "k", "parents": [], "children": []}])";
  const auto s = structures::parse_wfformat(
      wf(tasks, R"([{"id": "w", "runtimeInSeconds": 1}, {"id": "x", "runtimeInSeconds": 2, "machines": ["u"]},
                    {"id": "y", "runtimeInSeconds": 3, "machines": ["n2"]}, {"id": "z", "runtimeInSeconds": 4, "machines": ["n1"]},
                    {"id": "k", "runtimeInSeconds": 5, "machines": ["n1"], "coreCount": 2}])",
         R"([{"nodeName": "n3"}, {"nodeName": "n1", "cpu": {"coreCount": 8}}, {"nodeName": "n2"}])"),
      "t.json");
  REQUIRE(s.width == 4);
  REQUIRE(names_on(s, 0) == std::vector<std::string>{"z", "k"});  // n1
  REQUIRE(names_on(s, 1) == std::vector<std::string>{"y"});       // n2
  REQUIRE(names_on(s, 2) == std::vector<std::string>{"x"});       // u
  REQUIRE(names_on(s, 3) == std::vector<std::string>{"w"});       // w's own
  REQUIRE(s.processor_cores == std::vector<int>{8, 1, 1, 1});
  REQUIRE(s.graph()[4].cores == 2);
}

TEST_CASE("WfFormat: files without a size matter only with --bandwidth", "[wfformat]") {
  const auto s = structures::read_wfformat(sample("no_files_list.json"));
  REQUIRE(s.width == 2);
  REQUIRE(makespan(s) == 3.0);
  structures::TaskGraphOptions options;
  options.bandwidth = 100;
  REQUIRE(error_of([&] { structures::read_wfformat(sample("no_files_list.json"), options); }) ==
          sample("no_files_list.json") +
              ": task 'a': file 'mid.dat', which it writes and task 'b' reads, has no size (workflow.specification.files "
              "does not list it) (the bandwidth needs the size of every file an edge carries; leave the bandwidth out to "
              "give edges the communication cost (comm_cost))");
  // A file no edge carries (an input from outside) needs no size, even with --bandwidth.
  const auto outside = structures::parse_wfformat(
      wf(R"([{"id": "x", "parents": [], "children": [], "inputFiles": ["in.dat"]}])", R"([{"id": "x", "runtimeInSeconds": 2}])"),
      "t.json", options);
  REQUIRE(makespan(outside) == 2.0);
  // Bandwidths: finite and > 0.
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::infinity()}) {
    options.bandwidth = bad;
    CHECK_THAT(error_of([&] { structures::read_wfformat(sample("no_files_list.json"), options); }),
               Catch::StartsWith("bandwidth: must be a finite number > 0, got "));
  }
}

TEST_CASE("WfFormat: cores and the recorded makespan, read exactly", "[wfformat]") {
  const auto multicore = structures::read_wfformat(sample("parallel_on_multicore.json"), ordered);
  REQUIRE(multicore.processor_cores == std::vector<int>{4});
  REQUIRE(multicore.graph()[0].cores == 1);
  REQUIRE(multicore.graph()[1].cores == 1);
  REQUIRE(multicore.recorded_makespan == 5.0);
  REQUIRE(chain(multicore, 0) == std::vector<std::string>{"a", "b"});  // the file's order, no starts

  const std::string one = R"([{"id": "x", "parents": [], "children": []}])";
  const auto cores = [&](const std::string& task_cores, const std::string& machine_cpu) {
    return structures::parse_wfformat(
        wf(one, R"([{"id": "x", "runtimeInSeconds": 1, "machines": ["n"])" + task_cores + "}]",
           R"([{"nodeName": "n")" + machine_cpu + "}]"),
        "t.json");
  };
  const auto three = cores(R"(, "coreCount": 3)", R"(, "cpu": {"coreCount": 4, "speedInMHz": 2400})");
  REQUIRE(three.graph()[0].cores == 3);
  REQUIRE(three.processor_cores == std::vector<int>{4});
  REQUIRE(cores(R"(, "coreCount": 2.0)", "").processor_cores == std::vector<int>{2});  // no cpu: the largest task's
  REQUIRE(error_of([&] { cores(R"(, "coreCount": 5)", R"(, "cpu": {"coreCount": 4})"); }) ==
          "t.json: task 'x': takes 5 cores, but machine 'n' has 4 (a task's coreCount is at most its machine's "
          "cpu.coreCount)");
  REQUIRE(error_of([&] { cores(R"(, "coreCount": 1.5)", ""); }) ==
          "t.json: task 'x' coreCount: must be a whole number of cores from 1 to 65536, got 1.5");
  REQUIRE(error_of([&] { cores(R"(, "coreCount": -2)", ""); }) ==
          "t.json: task 'x' coreCount: must be a whole number of cores from 1 to 65536, got -2");
  REQUIRE(error_of([&] { cores(R"(, "coreCount": 0)", ""); }) ==
          "t.json: task 'x' coreCount: must be a whole number of cores from 1 to 65536, got 0");
  REQUIRE(error_of([&] { cores(R"(, "coreCount": "4")", ""); }) ==
          "t.json: task 'x' coreCount: is a JSON string, not a number");
  REQUIRE(error_of([&] { cores("", R"(, "cpu": {"coreCount": 1e9})"); }) ==
          "t.json: machine 'n' cpu.coreCount: must be a whole number of cores from 1 to 65536, got 1000000000.0");
  REQUIRE(error_of([&] { cores("", R"(, "cpu": 4)"); }) == "t.json: machine 'n' cpu: is a JSON number, not an object");

  // Before 1.5: cores, cpu.count, makespan or makespanInSeconds.
  const auto old = structures::read_wfformat(sample("makeflow_blast_blast-chameleon-small-001-schema-1.0.json"));
  REQUIRE(old.processor_cores == std::vector<int>{24, 24});
  REQUIRE(old.recorded_makespan == 1279.3);
  const auto old_text = [](const std::string& workflow) {
    return structures::parse_wfformat(R"({"workflow": {)" + workflow +
                                          R"("tasks": [{"name": "x", "runtime": 2, "cores": 2, "machine": "n"}],
                                          "machines": [{"nodeName": "n", "cpu": {"count": 6}}]}})",
                                      "old.json");
  };
  const auto counted = old_text(R"("makespan": 12.5, )");
  REQUIRE(counted.recorded_makespan == 12.5);
  REQUIRE(counted.processor_cores == std::vector<int>{6});
  REQUIRE(counted.graph()[0].cores == 2);
  REQUIRE(old_text(R"("makespanInSeconds": 7, )").recorded_makespan == 7.0);
  REQUIRE_FALSE(old_text("").recorded_makespan.has_value());
  REQUIRE(error_of([&] { old_text(R"("makespan": "long", )"); }) == "old.json: workflow.makespan: is a JSON string, not a number");

  // A mapping file's processors have one core each, and each task takes one.
  const auto map = std::filesystem::temp_directory_path() / ("hetstruct-wf-" + std::to_string(::getpid()) + ".map");
  std::ofstream(map) << "x 0\n";
  structures::TaskGraphOptions mapped;
  mapped.mapping = map.string();
  const auto moved = structures::parse_wfformat(
      wf(one, R"([{"id": "x", "runtimeInSeconds": 1, "machines": ["n"], "coreCount": 3}])", R"([{"nodeName": "n", "cpu": {"coreCount": 4}}])"),
      "t.json", mapped);
  std::filesystem::remove(map);
  REQUIRE(moved.graph()[0].cores == 1);
  REQUIRE(moved.processor_cores.empty());
  REQUIRE(moved.recorded_makespan == 1.0);
}

TEST_CASE("WfFormat: a start that is not an ISO 8601 date-time is refused", "[wfformat]") {
  const auto at = [](const std::string& date) {
    return error_of([&] {
      structures::parse_wfformat(
          wf(R"([{"id": "x", "parents": [], "children": []}])",
             R"([{"id": "x", "runtimeInSeconds": 1, "machines": ["n"], "executedAt": ")" + date + "\"}]"),
          "t.json");
    });
  };
  REQUIRE(at("2024-01-31T12:00:00Z") == "");
  REQUIRE(at("2024-01-31 12:00:00.125") == "");  // no offset: read as UTC
  REQUIRE(at("2024-02-29T00:00:00+05:30") == "");
  for (const std::string bad : {"2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01",
                                "yesterday", "05-10-23T16:23:32Z", "2024-01-01T00:00:00Zjunk", "2024-01-01T00:00:00+5",
                                "2024-0101T000000Z", ""}) {
    CAPTURE(bad);
    REQUIRE(at(bad) == "t.json: task 'x' executedAt: '" + bad +
                           "' is not an ISO 8601 date-time (such as 2024-01-31T12:00:00Z or 2024-01-31T12:00:00.25+01:00)");
  }
}

TEST_CASE("STG: no task, a dummy with a cost, a bandwidth", "[wfformat][stg]") {
  const auto stg_error = [](const std::string& text, const structures::TaskGraphOptions& options = {}) {
    return error_of([&] { structures::parse_stg(text, "s.stg", options); });
  };
  REQUIRE(stg_error("0\n0 0 0\n1 0 1 0\n") ==
          "s.stg:1: the number of tasks is 0: the graph has no vertices (n counts the tasks between the dummies)");
  REQUIRE(stg_error("# header\n0\n0 3 0\n1 0 1 0\n") ==
          "s.stg:2: the number of tasks is 0: the graph has no vertices (n counts the tasks between the dummies)");
  // A dummy with a cost is kept, a task of that cost: entry 3 + task 5 + exit 2.
  const auto costly = structures::parse_stg("1\n0 3 0\n1 5 1 0\n2 2 1 1\n", "s.stg");
  REQUIRE(boost::num_vertices(costly.graph()) == 3);
  REQUIRE(makespan(costly) == 10.0);
  REQUIRE(boost::num_vertices(structures::parse_stg("1\n0 0 0\n1 5 1 0\n2 0 1 1\n", "s.stg").graph()) == 1);
  structures::TaskGraphOptions bandwidth;
  bandwidth.bandwidth = 100;
  REQUIRE(stg_error("1\n0 0 0\n1 5 1 0\n2 0 1 1\n", bandwidth) ==
          "bandwidth: applies to WfFormat files only (an STG file gives no message sizes; give the communication cost (comm_cost))");
}

TEST_CASE("WfFormat: a task recorded twice under workflow.execution.tasks is refused", "[wfformat]") {
  // The later record used to win silently (119 instead of 30 here).
  const std::string tasks = R"([{"id": "x", "parents": [], "children": []}])";
  CHECK(error_of([&] {
          structures::parse_wfformat(wf(tasks, R"([{"id": "x", "runtimeInSeconds": 30, "machines": ["n"]},
                                                   {"id": "x", "runtimeInSeconds": 119, "machines": ["n"]}])"),
                                     "twice.json");
        }) == "twice.json: workflow.execution.tasks[1]: records task 'x' a second time (first at "
              "workflow.execution.tasks[0]) (give each task one execution record)");
}

TEST_CASE("WfFormat: a schemaVersion the reader does not know is read with a note", "[wfformat]") {
  std::string text = wf(R"([{"id": "x", "parents": [], "children": []}])", R"([{"id": "x", "runtimeInSeconds": 3}])");
  text.replace(text.find("\"1.5\""), 5, "\"9.9\"");
  const auto s = structures::parse_wfformat(text, "v.json");
  REQUIRE(s.notes == std::vector<std::string>{"v.json: schemaVersion '9.9' is not one this reader knows (1.0 to 1.6): read "
                                              "by the layout it has (1.5's)"});
  REQUIRE(structures::parse_wfformat(wf(R"([{"id": "x", "parents": [], "children": []}])", R"([{"id": "x", "runtimeInSeconds": 3}])"),
                                     "v.json").notes.empty());
}

}  // namespace wfformat_test
