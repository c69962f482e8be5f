// Structures: the Figure 1 builders, processor placement, structure names and DOT graph files.
#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/topological_sort.hpp>
#include <catch2/catch.hpp>

#include "distributions/input_error.h"
#include "distributions/law.h"
#include "structures/structure.h"

namespace structures_test {

namespace {

using hetstruct::InputError;
using hetstruct::distributions::Law;
using namespace hetstruct::structures;

const std::string data_dir = HETSTRUCT_TEST_DATA;

std::string fixture(const std::string& name) { return data_dir + "/" + name; }

std::size_t vertices(const Structure& s) { return boost::num_vertices(s.graph()); }
std::size_t edges(const Structure& s) { return boost::num_edges(s.graph()); }

std::size_t crossing_edges(const Structure& s) {
  std::size_t count = 0;
  for (const auto e : boost::make_iterator_range(boost::edges(s.graph())))
    if (s.graph()[e].crosses_processors) ++count;
  return count;
}

std::size_t count_kind(const Structure& s, TaskKind kind) {
  std::size_t count = 0;
  for (const auto v : boost::make_iterator_range(boost::vertices(s.graph())))
    if (s.graph()[v].kind == kind) ++count;
  return count;
}

bool acyclic(const PrecedenceGraph& g) {
  std::vector<Vertex> order;
  try {
    boost::topological_sort(g, std::back_inserter(order));
  } catch (const boost::not_a_dag&) {
    return false;
  }
  return order.size() == boost::num_vertices(g);
}

std::vector<Vertex> predecessors(const PrecedenceGraph& g, Vertex v) {
  std::vector<Vertex> out;
  for (const auto e : boost::make_iterator_range(boost::in_edges(v, g))) out.push_back(boost::source(e, g));
  std::sort(out.begin(), out.end());
  return out;
}

// Compute task (level k, processor i) -> vertex; fails if a (k, i) is missing or repeated, or a
// compute task has the wrong law index.
std::vector<std::vector<Vertex>> compute_grid(const Structure& s) {
  std::vector<std::vector<Vertex>> grid(s.levels, std::vector<Vertex>(s.width, boost::graph_traits<PrecedenceGraph>::null_vertex()));
  std::size_t seen = 0;
  for (const auto v : boost::make_iterator_range(boost::vertices(s.graph()))) {
    const Task& t = s.graph()[v];
    if (t.kind != TaskKind::compute) continue;
    REQUIRE(t.level >= 0);
    REQUIRE(t.level < s.levels);
    REQUIRE(t.processor >= 0);
    REQUIRE(t.processor < s.width);
    REQUIRE(t.law == t.processor);
    REQUIRE(grid[t.level][t.processor] == boost::graph_traits<PrecedenceGraph>::null_vertex());
    grid[t.level][t.processor] = v;
    ++seen;
  }
  REQUIRE(seen == static_cast<std::size_t>(s.width) * s.levels);
  return grid;
}

// The compute tasks reached backwards from v through zero-time vertices only.
std::set<Vertex> nearest_compute_ancestors(const PrecedenceGraph& g, Vertex v) {
  std::set<Vertex> found;
  std::vector<Vertex> stack = predecessors(g, v);
  std::set<Vertex> visited;
  while (!stack.empty()) {
    const Vertex u = stack.back();
    stack.pop_back();
    if (!visited.insert(u).second) continue;
    if (g[u].kind == TaskKind::compute) {
      found.insert(u);
      continue;
    }
    for (const Vertex w : predecessors(g, u)) stack.push_back(w);
  }
  return found;
}

// Every edge is marked exactly when its ends sit on different processors.
void require_marking_follows_processors(const Structure& s) {
  for (const auto e : boost::make_iterator_range(boost::edges(s.graph()))) {
    const Task& a = s.graph()[boost::source(e, s.graph())];
    const Task& b = s.graph()[boost::target(e, s.graph())];
    REQUIRE(s.graph()[e].crosses_processors == (a.processor != b.processor));
  }
}

struct Shape {
  int n, m, p;
};

// Includes n = 1, m = 0, m = n and p = 1.
const std::vector<Shape> shapes = {{1, 0, 1}, {1, 1, 4}, {2, 0, 1}, {2, 2, 2}, {3, 1, 4},
                                   {4, 0, 3}, {5, 5, 1}, {8, 3, 6}, {16, 8, 5}};

std::string required_error(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("no InputError was thrown");
  return {};
}

}  // namespace

TEST_CASE("asynchronous: n*p tasks, each processor a chain of its own tasks", "[structures]") {
  for (const auto [n, m, p] : shapes) {
    CAPTURE(n, m, p);
    const auto s = asynchronous(heterogeneous(n, m, 0.5, Law::paper_uniform()), p);
    REQUIRE(s.kind == StructureKind::asynchronous);
    REQUIRE(s.name == "async");
    REQUIRE(s.width == n);
    REQUIRE(s.fast_count == m);
    REQUIRE(s.levels == p);
    REQUIRE(vertices(s) == static_cast<std::size_t>(n * p));
    REQUIRE(edges(s) == static_cast<std::size_t>(n * (p - 1)));
    REQUIRE(crossing_edges(s) == 0);
    REQUIRE(count_kind(s, TaskKind::compute) == static_cast<std::size_t>(n * p));
    REQUIRE(acyclic(s.graph()));
    require_marking_follows_processors(s);
    const auto grid = compute_grid(s);
    for (int k = 0; k < p; ++k)
      for (int i = 0; i < n; ++i) {
        const auto preds = predecessors(s.graph(), grid[k][i]);
        if (k == 0)
          REQUIRE(preds.empty());
        else
          REQUIRE(preds == std::vector<Vertex>{grid[k - 1][i]});
        REQUIRE(boost::out_degree(grid[k][i], s.graph()) == (k + 1 < p ? 1u : 0u));
      }
  }
}

TEST_CASE("synchronous: one zero-time barrier between consecutive levels", "[structures]") {
  for (const auto [n, m, p] : shapes) {
    CAPTURE(n, m, p);
    const auto s = synchronous(heterogeneous(n, m, 0.8, Law::paper_normal()), p);
    REQUIRE(s.kind == StructureKind::synchronous);
    REQUIRE(s.name == "sync");
    REQUIRE(s.levels == p);
    REQUIRE(vertices(s) == static_cast<std::size_t>(n * p + (p - 1)));
    REQUIRE(edges(s) == static_cast<std::size_t>(2 * n * (p - 1)));
    REQUIRE(count_kind(s, TaskKind::barrier) == static_cast<std::size_t>(p - 1));
    REQUIRE(count_kind(s, TaskKind::compute) == static_cast<std::size_t>(n * p));
    // A barrier is on no processor: every precedence crosses processors.
    REQUIRE(crossing_edges(s) == edges(s));
    REQUIRE(acyclic(s.graph()));
    const auto grid = compute_grid(s);
    for (int k = 1; k < p; ++k)
      for (int i = 0; i < n; ++i) {
        const auto preds = predecessors(s.graph(), grid[k][i]);
        REQUIRE(preds.size() == 1);
        const Task& barrier = s.graph()[preds[0]];
        REQUIRE(barrier.kind == TaskKind::barrier);
        REQUIRE(barrier.processor == -1);
        REQUIRE(barrier.level == k - 1);
        REQUIRE(barrier.law == -1);
        // The barrier waits for the whole previous level, and for nothing else.
        std::vector<Vertex> level(grid[k - 1].begin(), grid[k - 1].end());
        std::sort(level.begin(), level.end());
        REQUIRE(predecessors(s.graph(), preds[0]) == level);
        REQUIRE(boost::out_degree(preds[0], s.graph()) == static_cast<std::size_t>(n));
      }
    for (int i = 0; i < n; ++i) REQUIRE(predecessors(s.graph(), grid[0][i]).empty());
  }
}

TEST_CASE("nearest neighbour, plain: task (k+1,i) waits for (k,i-1), (k,i), (k,i+1)", "[structures]") {
  for (const auto [n, m, p] : shapes) {
    CAPTURE(n, m, p);
    const auto s = nearest_neighbor(heterogeneous(n, m, 0.5, Law::paper_uniform()), p, NeighborExchange::plain);
    REQUIRE(s.kind == StructureKind::nearest_neighbor);
    REQUIRE(s.exchange == NeighborExchange::plain);
    REQUIRE(s.name == "nn");
    REQUIRE(vertices(s) == static_cast<std::size_t>(n * p));
    REQUIRE(edges(s) == static_cast<std::size_t>((3 * n - 2) * (p - 1)));
    REQUIRE(crossing_edges(s) == static_cast<std::size_t>(2 * (n - 1) * (p - 1)));
    REQUIRE(count_kind(s, TaskKind::exchange) == 0);
    REQUIRE(acyclic(s.graph()));
    require_marking_follows_processors(s);
    const auto grid = compute_grid(s);
    for (int k = 0; k < p; ++k)
      for (int i = 0; i < n; ++i) {
        std::vector<Vertex> expected;
        if (k > 0)
          for (int j = std::max(0, i - 1); j <= std::min(n - 1, i + 1); ++j) expected.push_back(grid[k - 1][j]);
        std::sort(expected.begin(), expected.end());
        REQUIRE(predecessors(s.graph(), grid[k][i]) == expected);
        if (k + 1 == p) REQUIRE(boost::out_degree(grid[k][i], s.graph()) == 0);
      }
  }
}

TEST_CASE("nearest neighbour, sequential: a chain of n-1 exchanges between levels", "[structures]") {
  for (const auto [n, m, p] : shapes) {
    CAPTURE(n, m, p);
    const auto s = nearest_neighbor(heterogeneous(n, m, 0.5, Law::paper_uniform()), p, NeighborExchange::sequential);
    REQUIRE(s.exchange == NeighborExchange::sequential);
    REQUIRE(vertices(s) == static_cast<std::size_t>(n * p + (n - 1) * (p - 1)));
    REQUIRE(edges(s) == static_cast<std::size_t>((3 * n - 2) * (p - 1)));
    REQUIRE(count_kind(s, TaskKind::exchange) == static_cast<std::size_t>((n - 1) * (p - 1)));
    // Per level: e(0,1) <- (k,1); e(i,i+1) <- e(i-1,i) and (k,i+1); (k+1,n-1) <- e(n-2,n-1).
    REQUIRE(crossing_edges(s) == static_cast<std::size_t>(2 * (n - 1) * (p - 1)));
    REQUIRE(acyclic(s.graph()));
    require_marking_follows_processors(s);
    const auto grid = compute_grid(s);
    for (int i = 0; i < n; ++i) REQUIRE(predecessors(s.graph(), grid[0][i]).empty());
    for (int k = 1; k < p; ++k) {
      if (n == 1) {
        REQUIRE(predecessors(s.graph(), grid[k][0]) == std::vector<Vertex>{grid[k - 1][0]});
        continue;
      }
      // The exchange e(j,j+1) after level k-1, found through the task that resumes after it.
      std::vector<Vertex> ex(n - 1);
      for (int i = 0; i < n; ++i) {
        const auto preds = predecessors(s.graph(), grid[k][i]);
        REQUIRE(preds.size() == 1);
        const Task& e = s.graph()[preds[0]];
        REQUIRE(e.kind == TaskKind::exchange);
        REQUIRE(e.processor == std::min(i, n - 2));
        REQUIRE(e.level == k - 1);
        REQUIRE(e.law == -1);
        ex[std::min(i, n - 2)] = preds[0];
      }
      for (int j = 0; j + 1 < n; ++j) {
        std::vector<Vertex> expected{j == 0 ? grid[k - 1][0] : ex[j - 1], grid[k - 1][j + 1]};
        std::sort(expected.begin(), expected.end());
        REQUIRE(predecessors(s.graph(), ex[j]) == expected);
      }
      // Hence task (k,i) waits, through the chain, for (k-1,0) .. (k-1,i+1).
      for (int i = 0; i < n; ++i) {
        std::set<Vertex> expected;
        for (int j = 0; j <= std::min(i + 1, n - 1); ++j) expected.insert(grid[k - 1][j]);
        REQUIRE(nearest_compute_ancestors(s.graph(), grid[k][i]) == expected);
      }
    }
    for (int i = 0; i < n; ++i) REQUIRE(boost::out_degree(grid[p - 1][i], s.graph()) == 0);
  }
}

TEST_CASE("nearest neighbour, sequential n=3 p=2: the exact graph", "[structures]") {
  // Vertices in build order: level 0 = 0,1,2; e(0,1) = 3; e(1,2) = 4; level 1 = 5,6,7.
  const auto s = nearest_neighbor(heterogeneous(3, 1, 0.5, Law::paper_uniform()), 2);
  REQUIRE(vertices(s) == 8);
  REQUIRE(edges(s) == 7);
  std::set<std::pair<Vertex, Vertex>> actual;
  for (const auto e : boost::make_iterator_range(boost::edges(s.graph())))
    actual.emplace(boost::source(e, s.graph()), boost::target(e, s.graph()));
  const std::set<std::pair<Vertex, Vertex>> expected{{0, 3}, {1, 3}, {3, 4}, {2, 4}, {3, 5}, {4, 6}, {4, 7}};
  REQUIRE(actual == expected);
  REQUIRE(s.graph()[3].kind == TaskKind::exchange);
  REQUIRE(s.graph()[4].kind == TaskKind::exchange);
  REQUIRE(s.graph()[4].processor == 1);
}

TEST_CASE("master-slave: a deal vertex, n*p pooled tasks, a collect vertex", "[structures]") {
  for (const auto [n, m, p] : shapes) {
    CAPTURE(n, m, p);
    const auto s = master_slave(heterogeneous(n, m, 0.5, Law::paper_uniform()), p);
    REQUIRE(s.kind == StructureKind::master_slave);
    REQUIRE(s.name == "ms");
    REQUIRE(s.levels == p);
    REQUIRE(vertices(s) == static_cast<std::size_t>(n * p + 2));
    REQUIRE(edges(s) == static_cast<std::size_t>(2 * n * p));
    REQUIRE(crossing_edges(s) == edges(s));
    REQUIRE(count_kind(s, TaskKind::pooled) == static_cast<std::size_t>(n * p));
    REQUIRE(count_kind(s, TaskKind::barrier) == 2);
    REQUIRE(count_kind(s, TaskKind::compute) == 0);
    REQUIRE(acyclic(s.graph()));
    std::vector<int> per_level(p, 0);
    int deals = 0, collects = 0;
    for (const auto v : boost::make_iterator_range(boost::vertices(s.graph()))) {
      const Task& t = s.graph()[v];
      if (t.kind == TaskKind::pooled) {
        REQUIRE(t.processor == -1);
        REQUIRE(t.law == -1);
        REQUIRE(boost::in_degree(v, s.graph()) == 1);
        REQUIRE(boost::out_degree(v, s.graph()) == 1);
        ++per_level.at(t.level);
      } else if (boost::in_degree(v, s.graph()) == 0) {
        ++deals;
        REQUIRE(t.processor == 0);
        REQUIRE(boost::out_degree(v, s.graph()) == static_cast<std::size_t>(n * p));
      } else {
        ++collects;
        REQUIRE(t.processor == 0);
        REQUIRE(t.level == p - 1);
        REQUIRE(boost::in_degree(v, s.graph()) == static_cast<std::size_t>(n * p));
        REQUIRE(boost::out_degree(v, s.graph()) == 0);
      }
    }
    REQUIRE(deals == 1);
    REQUIRE(collects == 1);
    REQUIRE(per_level == std::vector<int>(p, n));
  }
}

TEST_CASE("placement: processors 0..m-1 draw a*law, the others law", "[structures]") {
  const Law base = Law::paper_uniform();
  const Law fast = Law::scaled(0.5, base);
  const auto procs = heterogeneous(5, 2, 0.5, base);
  REQUIRE(procs.width == 5);
  REQUIRE(procs.fast_count == 2);
  REQUIRE(procs.slow_law == base);
  REQUIRE(procs.fast_law == fast);
  REQUIRE(procs.fast_law.mean() == 0.25);
  for (int i = 0; i < 5; ++i) REQUIRE(procs.law_of(i) == (i < 2 ? fast : base));

  for (const auto& s : {asynchronous(procs, 3), synchronous(procs, 3), nearest_neighbor(procs, 3),
                        nearest_neighbor(procs, 3, NeighborExchange::plain), master_slave(procs, 3)}) {
    CAPTURE(s.name);
    REQUIRE(s.laws == std::vector<Law>{fast, fast, base, base, base});
  }
  // m = 0: nobody is scaled; m = n: everybody is.
  REQUIRE(asynchronous(heterogeneous(3, 0, 0.5, base), 2).laws == std::vector<Law>(3, base));
  REQUIRE(asynchronous(heterogeneous(3, 3, 0.5, base), 2).laws == std::vector<Law>(3, fast));
  const Law normal_fast = heterogeneous(2, 1, 0.8, Law::paper_normal()).fast_law;
  REQUIRE(normal_fast == Law::scaled(0.8, Law::paper_normal()));
  REQUIRE(normal_fast.mean() == Approx(0.4).epsilon(1e-15));
}

TEST_CASE("processor counts and levels are checked", "[structures]") {
  const Law u = Law::paper_uniform();
  REQUIRE_THROWS_AS(heterogeneous(3, 4, 0.5, u), InputError);
  REQUIRE_THROWS_AS(heterogeneous(3, -1, 0.5, u), InputError);
  REQUIRE_THROWS_AS(heterogeneous(0, 0, 0.5, u), InputError);
  REQUIRE_THROWS_AS(heterogeneous(-2, 0, 0.5, u), InputError);
  REQUIRE_NOTHROW(heterogeneous(1, 0, 0.5, u));
  REQUIRE_NOTHROW(heterogeneous(3, 3, 0.5, u));
  // A fast processor needs a valid scale; with m = 0 the scale is never used.
  REQUIRE_THROWS_AS(heterogeneous(3, 1, 0.0, u), InputError);
  REQUIRE_NOTHROW(heterogeneous(3, 0, 0.0, u));

  Processors bad{4, 5, u, u};
  REQUIRE_THROWS_AS(bad.validate(), InputError);
  REQUIRE_THROWS_AS(asynchronous(bad, 2), InputError);
  bad = Processors{4, -1, u, u};
  REQUIRE_THROWS_AS(bad.validate(), InputError);
  bad = Processors{0, 0, u, u};
  REQUIRE_THROWS_AS(bad.validate(), InputError);
  REQUIRE_THROWS_AS(synchronous(bad, 2), InputError);
  REQUIRE_NOTHROW(Processors{4, 4, u, u}.validate());

  REQUIRE(required_error([&] { heterogeneous(3, 4, 0.5, u); }) ==
          "fast_count: the fast count must be between 0 and the width 3, got 4");
  REQUIRE(required_error([&] { heterogeneous(0, 0, 0.5, u); }) == "width: the width must be at least 1, got 0");

  const auto procs = heterogeneous(3, 1, 0.5, u);
  REQUIRE_THROWS_AS(asynchronous(procs, 0), InputError);
  REQUIRE_THROWS_AS(synchronous(procs, 0), InputError);
  REQUIRE_THROWS_AS(nearest_neighbor(procs, 0), InputError);
  REQUIRE_THROWS_AS(nearest_neighbor(procs, -1, NeighborExchange::plain), InputError);
  REQUIRE_THROWS_AS(master_slave(procs, 0), InputError);
  REQUIRE(required_error([&] { asynchronous(procs, 0); }) == "levels: the number of levels must be at least 1, got 0");
}

TEST_CASE("structure names", "[structures]") {
  REQUIRE(parse_structure_kind("async") == StructureKind::asynchronous);
  REQUIRE(parse_structure_kind("asynch") == StructureKind::asynchronous);
  REQUIRE(parse_structure_kind("sync") == StructureKind::synchronous);
  REQUIRE(parse_structure_kind("synch") == StructureKind::synchronous);
  REQUIRE(parse_structure_kind("nn") == StructureKind::nearest_neighbor);
  REQUIRE(parse_structure_kind("ms") == StructureKind::master_slave);
  for (const auto kind : {StructureKind::asynchronous, StructureKind::synchronous, StructureKind::nearest_neighbor,
                          StructureKind::master_slave})
    REQUIRE(parse_structure_kind(to_string(kind)) == kind);
  REQUIRE(std::string(to_string(StructureKind::custom)) == "dag");
  for (const std::string bad : {"", "dag", "asyn", "nearest", "m-s", "sync ", "x"}) {
    CAPTURE(bad);
    REQUIRE_THROWS_AS(parse_structure_kind(bad), InputError);
  }
  REQUIRE(required_error([] { parse_structure_kind("tree"); }) ==
          "structure: unknown structure 'tree' (choose async, sync, nn or ms)");
}

// ---------------------------------------------------------------------------------------------
// DOT files

namespace {

std::map<std::string, Vertex> by_name(const std::vector<std::string>& names) {
  // A custom DAG's vertices are numbered in the order the file lists them.
  std::map<std::string, Vertex> out;
  for (std::size_t i = 0; i < names.size(); ++i) out[names[i]] = i;
  return out;
}

bool has_edge(const Structure& s, Vertex a, Vertex b) { return boost::edge(a, b, s.graph()).second; }

}  // namespace

TEST_CASE("DOT: a diamond on two processors", "[structures]") {
  const std::string path = fixture("diamond.dot");
  const auto s = read_dot(path);
  REQUIRE(s.kind == StructureKind::custom);
  REQUIRE(s.name == path);
  REQUIRE(vertices(s) == 4);
  REQUIRE(edges(s) == 4);  // the chains a -> b and c -> d are already precedences
  REQUIRE(s.width == 2);
  REQUIRE(s.levels == 3);
  REQUIRE(acyclic(s.graph()));
  // Three distinct law texts: u(0,1) is shared by a and c.
  REQUIRE(s.laws.size() == 3);
  const auto v = by_name({"a", "b", "c", "d"});
  const auto& g = s.graph();
  REQUIRE(g[v.at("c")].name == "c");
  REQUIRE(g[v.at("a")].law == g[v.at("c")].law);
  REQUIRE(s.laws[g[v.at("a")].law] == Law::uniform(0, 1));
  REQUIRE(s.laws[g[v.at("b")].law] == Law::normal(0.5, 1.0 / 12.0));
  REQUIRE(s.laws[g[v.at("d")].law] == Law::constant(2));
  REQUIRE(g[v.at("a")].processor == 0);
  REQUIRE(g[v.at("b")].processor == 0);
  REQUIRE(g[v.at("c")].processor == 1);
  REQUIRE(g[v.at("d")].processor == 1);
  REQUIRE(g[v.at("a")].level == 0);
  REQUIRE(g[v.at("b")].level == 1);
  REQUIRE(g[v.at("c")].level == 1);
  REQUIRE(g[v.at("d")].level == 2);
  for (const auto u : boost::make_iterator_range(boost::vertices(g))) REQUIRE(g[u].kind == TaskKind::compute);
  REQUIRE(has_edge(s, v.at("a"), v.at("b")));
  REQUIRE(has_edge(s, v.at("a"), v.at("c")));
  REQUIRE(has_edge(s, v.at("b"), v.at("d")));
  REQUIRE(has_edge(s, v.at("c"), v.at("d")));
  REQUIRE(crossing_edges(s) == 2);  // a -> c and b -> d
  require_marking_follows_processors(s);
}

TEST_CASE("DOT: a fork-join on two processors", "[structures]") {
  const auto s = read_dot(fixture("fork_join.dot"));
  const auto v = by_name({"fork", "w0", "w1", "join"});
  REQUIRE(v.at("join") == 3);  // the file's order, not the names'
  REQUIRE(s.graph()[3].name == "join");
  REQUIRE(vertices(s) == 4);
  REQUIRE(edges(s) == 4);
  REQUIRE(s.width == 2);
  REQUIRE(s.levels == 3);
  REQUIRE(s.laws.size() == 2);
  REQUIRE(s.laws[s.graph()[v.at("fork")].law] == Law::constant(0.25));
  REQUIRE(s.laws[s.graph()[v.at("w0")].law] == Law::paper_uniform());
  REQUIRE(s.graph()[v.at("join")].law == s.graph()[v.at("fork")].law);
  REQUIRE(s.graph()[v.at("w1")].law == s.graph()[v.at("w0")].law);
  REQUIRE(s.graph()[v.at("join")].level == 2);
  REQUIRE(crossing_edges(s) == 2);  // fork -> w1 and w1 -> join
  require_marking_follows_processors(s);
  REQUIRE(boost::out_degree(v.at("join"), s.graph()) == 0);
  REQUIRE(boost::in_degree(v.at("fork"), s.graph()) == 0);
  REQUIRE(has_edge(s, v.at("fork"), v.at("w1")));
  REQUIRE(has_edge(s, v.at("w1"), v.at("join")));
}

TEST_CASE("DOT: tasks on one processor are chained in the file's order", "[structures]") {
  const auto s = read_dot(fixture("same_processor.dot"));
  const auto v = by_name({"a", "b", "c", "e"});
  // Processor 2 is the highest index: width 3 although processor 1 runs nothing.
  REQUIRE(s.width == 3);
  REQUIRE(vertices(s) == 4);
  // The file's c -> a, plus the chain a -> b -> e on processor 0 (the file lists a, b, e).
  REQUIRE(edges(s) == 3);
  REQUIRE(has_edge(s, v.at("c"), v.at("a")));
  REQUIRE(has_edge(s, v.at("a"), v.at("b")));
  REQUIRE(has_edge(s, v.at("b"), v.at("e")));
  REQUIRE_FALSE(has_edge(s, v.at("b"), v.at("a")));
  REQUIRE(s.graph()[boost::edge(v.at("a"), v.at("b"), s.graph()).first].crosses_processors == false);
  REQUIRE(s.graph()[boost::edge(v.at("c"), v.at("a"), s.graph()).first].crosses_processors == true);
  REQUIRE(s.levels == 4);
  REQUIRE(s.graph()[v.at("e")].level == 3);
  REQUIRE(s.laws.size() == 3);
  REQUIRE(acyclic(s.graph()));
}

TEST_CASE("DOT: text parsed in memory, defaults and plain chains", "[structures]") {
  // Default node attributes apply; two independent tasks on processor 0 get chained x -> y.
  const auto s = parse_dot(
      "digraph { node [law=\"u(0,1)\"]; x [processor=0]; y [processor=0]; z [processor=1, law=\"c(1)\"]; }",
      "inline");
  REQUIRE(s.name == "dag");
  REQUIRE(vertices(s) == 3);
  REQUIRE(edges(s) == 1);
  REQUIRE(has_edge(s, 0, 1));
  REQUIRE(s.laws.size() == 2);
  REQUIRE(s.levels == 2);
  REQUIRE(s.width == 2);

  // A longest chain of 5 over three processors, with a redundant edge.
  const auto chain = parse_dot(
      "digraph { a [processor=0, law=\"c(1)\"]; b [processor=1, law=\"c(1)\"]; c [processor=2, law=\"c(1)\"];"
      " d [processor=0, law=\"c(1)\"]; e [processor=1, law=\"c(1)\"]; a -> b -> c -> d -> e; a -> e; }",
      "chain");
  REQUIRE(chain.levels == 5);
  // 5 file edges plus the processor chains a -> d and b -> e (implied by the path, yet added).
  REQUIRE(edges(chain) == 7);
  REQUIRE(has_edge(chain, 0, 3));
  REQUIRE(has_edge(chain, 1, 4));
  REQUIRE(chain.graph()[4].level == 4);

  // Independent tasks on one processor run in the file's order, not the byte order of their names.
  const auto named = parse_dot(
      "digraph { t9 [processor=0, law=\"c(1)\"]; t10 [processor=0, law=\"c(2)\"]; }", "names");
  REQUIRE(edges(named) == 1);
  REQUIRE(has_edge(named, 0, 1));  // t9 (vertex 0) -> t10 (vertex 1)
  REQUIRE(named.graph()[0].name == "t9");
  REQUIRE(named.laws[named.graph()[0].law] == Law::constant(1));
  REQUIRE(named.graph()[1].level == 1);
}

TEST_CASE("DOT: bad files throw InputError naming the file and the problem", "[structures]") {
  SECTION("a cycle names the vertices of a cycle") {
    // "done" (vertex 0) is downstream of the cycle x -> y -> x, not on it.
    const std::string path = fixture("cycle.dot");
    REQUIRE(required_error([&] { read_dot(path); }) ==
            path + ": the graph has a cycle: 'x' -> 'y' -> 'x' (a precedence graph must be acyclic)");
  }
  SECTION("a self-loop is a cycle") {
    REQUIRE(required_error([] { parse_dot("digraph { a [processor=0, law=\"c(1)\"]; a -> a; }", "loop.dot"); }) ==
            "loop.dot: the graph has a cycle: 'a' -> 'a' (a precedence graph must be acyclic)");
  }
  SECTION("a long cycle is shortened") {
    std::string text = "digraph { node [processor=0, law=\"c(1)\"]; ";
    for (int i = 0; i < 12; ++i) {
      text += 'v';
      text += std::to_string(10 + i);
      text += " -> v";
      text += std::to_string(10 + (i + 1) % 12);
      text += "; ";
    }
    text += "v10 -> w; w -> v15; }";
    REQUIRE(required_error([&] { parse_dot(text, "long.dot"); }) ==
            "long.dot: the graph has a cycle: 'v10' -> 'v11' -> 'v12' -> 'v13' -> 'v14' -> 'v15' -> 'v16' -> "
            "'v17' -> ... (12 vertices) -> 'v10' (a precedence graph must be acyclic)");
  }
  SECTION("a missing processor") {
    const std::string path = fixture("missing_processor.dot");
    REQUIRE(required_error([&] { read_dot(path); }) ==
            path + ":3: vertex 'b': has no processor attribute (add processor=0 (0-based))");
  }
  SECTION("a missing law") {
    const std::string path = fixture("missing_law.dot");
    REQUIRE(required_error([&] { read_dot(path); }) == path + ":3: vertex 'b': has no law attribute (add law=\"u(0,1)\")");
  }
  SECTION("a vertex named only in an edge has no attributes") {
    const std::string message =
        required_error([] { parse_dot("digraph { a [processor=0, law=\"c(1)\"]; a -> ghost; }", "g.dot"); });
    REQUIRE(message == "g.dot:1: vertex 'ghost': has no processor attribute (add processor=0 (0-based))");
  }
  SECTION("a law that does not parse or is invalid") {
    const std::string bounds = fixture("bad_law_bounds.dot");
    const std::string message = required_error([&] { read_dot(bounds); });
    CHECK_THAT(message, Catch::StartsWith(bounds + ":3: vertex 'b': ") && Catch::Contains("u(1,0)") &&
                            Catch::Contains("lo < hi"));
    const std::string name = fixture("bad_law_name.dot");
    CHECK_THAT(required_error([&] { read_dot(name); }), Catch::StartsWith(name + ":2: vertex 'a': ") && Catch::Contains("x(1)"));
  }
  SECTION("a processor that is not an index") {
    for (const std::string text : {"-1", "1.5", "one", "2x"}) {
      CAPTURE(text);
      const std::string message = required_error([&] {
        parse_dot("digraph { a [processor=\"" + text + "\", law=\"c(1)\"]; }", "p.dot");
      });
      REQUIRE(message == "p.dot:1: vertex 'a': processor '" + text + "' is not a processor index (use 0, 1, 2, ...)");
    }
  }
  SECTION("a DOT syntax error") {
    const std::string path = fixture("syntax_error.dot");
    CHECK_THAT(required_error([&] { read_dot(path); }), Catch::StartsWith(path + ":4: DOT syntax error"));
  }
  SECTION("an undirected graph") {
    CHECK_THAT(required_error([] { parse_dot("graph { a [processor=0, law=\"c(1)\"]; b [processor=0, law=\"c(1)\"]; a -- b; }", "u.dot"); }),
               Catch::StartsWith("u.dot: "));
  }
  SECTION("an empty graph") {
    REQUIRE(required_error([] { parse_dot("digraph { }", "empty.dot"); }) == "empty.dot: the graph has no vertices");
  }
  SECTION("an empty text or file, a directory") {
    REQUIRE(required_error([] { parse_dot(" \n\t", "blank.dot"); }) ==
            "blank.dot: the graph is empty (write a digraph { ... } with one vertex per task)");
    REQUIRE(required_error([] { read_dot(data_dir); }) == data_dir + ": is a directory, not a graph file");
  }
  SECTION("a file that does not exist") {
    const std::string path = fixture("no_such_file.dot");
    REQUIRE(required_error([&] { read_dot(path); }) == path + ": cannot open the graph file");
  }
}

TEST_CASE("a regular structure's graph is built on first use, and again when it has changed", "[structures]") {
  auto s = nearest_neighbor(heterogeneous(3, 1, 0.5, Law::paper_uniform()), 4);
  REQUIRE_FALSE(s.graph_built());
  REQUIRE(vertices(s) == 3 * 4 + 2 * 3);  // n*p tasks and n-1 exchanges between consecutive levels
  REQUIRE(s.graph_built());
  auto copy = s;  // shares the built graph
  copy.exchange = NeighborExchange::plain;
  REQUIRE(vertices(copy) == 3 * 4);  // rebuilt: no exchange vertices
  REQUIRE(vertices(s) == 3 * 4 + 2 * 3);  // the original's is untouched
  copy.levels = 2;
  REQUIRE(vertices(copy) == 3 * 2);
}

}  // namespace structures_test
