#include <algorithm>
#include <string>
#include <vector>

#include "distributions/input_error.h"
#include "structures/structure.h"

namespace hetstruct::structures {

void Processors::validate() const {
  if (width < 1) throw InputError("width", "the width must be at least 1, got " + std::to_string(width));
  if (fast_count < 0 || fast_count > width)
    throw InputError("fast_count", "the fast count must be between 0 and the width " + std::to_string(width) +
                                ", got " + std::to_string(fast_count));
}

Processors heterogeneous(int width, int fast_count, double scale, const distributions::Law& law) {
  Processors p{width, fast_count, law, law};
  p.validate();
  if (fast_count > 0) p.fast_law = distributions::Law::scaled(scale, law);
  return p;
}

namespace {

void require_levels(int levels) {
  if (levels < 1) throw InputError("levels", "the number of levels must be at least 1, got " + std::to_string(levels));
}

Structure make_regular(StructureKind kind, const Processors& procs, int levels) {
  procs.validate();
  require_levels(levels);
  Structure s;
  s.kind = kind;
  s.name = to_string(kind);
  s.width = procs.width;
  s.fast_count = procs.fast_count;
  s.levels = levels;
  for (int i = 0; i < procs.width; ++i) s.laws.push_back(procs.law_of(i));
  return s;
}

void link(PrecedenceGraph& g, Vertex from, Vertex to) {
  const bool crosses = g[from].processor != g[to].processor;
  boost::add_edge(from, to, Precedence{crosses}, g);
}

// Adds the level's compute tasks, one per processor, and returns the first one's descriptor
// (the others follow consecutively).
Vertex add_level(const Structure& s, PrecedenceGraph& g, int level) {
  Vertex first = boost::num_vertices(g);
  for (int i = 0; i < s.width; ++i) boost::add_vertex(Task{TaskKind::compute, i, level, i, {}}, g);
  return first;
}

void asynchronous_graph(const Structure& s, PrecedenceGraph& g) {
  Vertex prev = 0;
  for (int k = 0; k < s.levels; ++k) {
    const Vertex cur = add_level(s, g, k);
    if (k > 0)
      for (int i = 0; i < s.width; ++i) link(g, prev + i, cur + i);
    prev = cur;
  }
}

void synchronous_graph(const Structure& s, PrecedenceGraph& g) {
  // A zero-time barrier between levels stands for the all-to-all precedences of Figure 1c:
  // 2n edges per level instead of n^2, the same longest paths.
  for (int k = 0; k < s.levels; ++k) {
    const Vertex cur = add_level(s, g, k);
    if (k > 0) {
      const Vertex barrier = cur - 1;
      for (int i = 0; i < s.width; ++i) link(g, barrier, cur + i);
    }
    if (k + 1 < s.levels) {
      const Vertex barrier = boost::add_vertex(Task{TaskKind::barrier, -1, k, -1, {}}, g);
      for (int i = 0; i < s.width; ++i) link(g, cur + i, barrier);
    }
  }
}

void nearest_neighbor_graph(const Structure& s, PrecedenceGraph& g) {
  const int n = s.width;
  Vertex prev = add_level(s, g, 0);
  for (int k = 1; k < s.levels; ++k) {
    if (s.exchange == NeighborExchange::plain || n == 1) {
      const Vertex cur = add_level(s, g, k);
      for (int i = 0; i < n; ++i)
        for (int j = std::max(0, i - 1); j <= std::min(n - 1, i + 1); ++j) link(g, prev + j, cur + i);
      prev = cur;
      continue;
    }
    // Exchange e(i,i+1) waits for e(i-1,i) (processor i's left exchange) and for task k-1 on
    // processor i+1; processor i < n-1 resumes after e(i,i+1), processor n-1 after e(n-2,n-1).
    std::vector<Vertex> ex(n - 1);
    for (int i = 0; i + 1 < n; ++i) {
      ex[i] = boost::add_vertex(Task{TaskKind::exchange, i, k - 1, -1, {}}, g);
      link(g, i == 0 ? prev : ex[i - 1], ex[i]);
      link(g, prev + i + 1, ex[i]);
    }
    const Vertex cur = add_level(s, g, k);
    for (int i = 0; i < n; ++i) link(g, ex[std::min(i, n - 2)], cur + i);
    prev = cur;
  }
}

void master_slave_graph(const Structure& s, PrecedenceGraph& g) {
  // Figure 1d: the master (processor 0) deals every task of the pool and collects every result.
  const Vertex deal = boost::add_vertex(Task{TaskKind::barrier, 0, 0, -1, {}}, g);
  std::vector<Vertex> pool;
  for (long long t = 0; t < static_cast<long long>(s.width) * s.levels; ++t)
    pool.push_back(boost::add_vertex(Task{TaskKind::pooled, -1, static_cast<int>(t / s.width), -1, {}}, g));
  const Vertex collect = boost::add_vertex(Task{TaskKind::barrier, 0, s.levels - 1, -1, {}}, g);
  for (const Vertex t : pool) {
    boost::add_edge(deal, t, Precedence{true}, g);
    boost::add_edge(t, collect, Precedence{true}, g);
  }
}

}  // namespace

PrecedenceGraph regular_graph(const Structure& s) {
  PrecedenceGraph g;
  switch (s.kind) {
    case StructureKind::asynchronous: asynchronous_graph(s, g); break;
    case StructureKind::synchronous: synchronous_graph(s, g); break;
    case StructureKind::nearest_neighbor: nearest_neighbor_graph(s, g); break;
    case StructureKind::master_slave: master_slave_graph(s, g); break;
    case StructureKind::custom: break;  // read, not built
  }
  return g;
}

const PrecedenceGraph& Structure::graph() const {
  if (kind == StructureKind::custom) {
    if (!graph_) graph_ = std::make_shared<PrecedenceGraph>();
    return *graph_;
  }
  const std::array<int, 3> description{width, levels, static_cast<int>(exchange)};
  if (!graph_ || built_for_ != description) {
    graph_ = std::make_shared<PrecedenceGraph>(regular_graph(*this));
    built_for_ = description;
  }
  return *graph_;
}

PrecedenceGraph& Structure::custom_graph() {
  if (!graph_) graph_ = std::make_shared<PrecedenceGraph>();
  // A graph shared with copies (engine::GraphReads keeps one per file and settings) is copied
  // before it is written, so that a copy's change stays its own.
  else if (graph_.use_count() > 1) graph_ = std::make_shared<PrecedenceGraph>(*graph_);
  return *graph_;
}

Structure asynchronous(const Processors& procs, int levels) {
  return make_regular(StructureKind::asynchronous, procs, levels);
}

Structure synchronous(const Processors& procs, int levels) {
  return make_regular(StructureKind::synchronous, procs, levels);
}

Structure nearest_neighbor(const Processors& procs, int levels, NeighborExchange exchange) {
  Structure s = make_regular(StructureKind::nearest_neighbor, procs, levels);
  s.exchange = exchange;
  return s;
}

Structure master_slave(const Processors& procs, int levels) {
  return make_regular(StructureKind::master_slave, procs, levels);
}

const char* to_string(Dispatch dispatch) { return dispatch == Dispatch::ready ? "ready" : "ordered"; }

Dispatch parse_dispatch(const std::string& name) {
  if (name == "ready") return Dispatch::ready;
  if (name == "ordered") return Dispatch::ordered;
  throw InputError("dispatch", "unknown rule '" + name + "'", "choose ready or ordered");
}

const char* to_string(StructureKind kind) {
  switch (kind) {
    case StructureKind::asynchronous: return "async";
    case StructureKind::synchronous: return "sync";
    case StructureKind::nearest_neighbor: return "nn";
    case StructureKind::master_slave: return "ms";
    case StructureKind::custom: return "dag";
  }
  return "?";
}

StructureKind parse_structure_kind(const std::string& name) {
  if (name == "async" || name == "asynch" || name == "asynchronous") return StructureKind::asynchronous;
  if (name == "sync" || name == "synch" || name == "synchronous") return StructureKind::synchronous;
  if (name == "nn" || name == "nearest-neighbor") return StructureKind::nearest_neighbor;
  if (name == "ms" || name == "master-slave") return StructureKind::master_slave;
  throw InputError("structure", "unknown structure '" + name + "'", "choose async, sync, nn or ms");
}

}  // namespace hetstruct::structures
