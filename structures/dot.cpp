// Custom structures from Graphviz DOT files, read with boost::read_graphviz.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <queue>
#include <sstream>

#include <boost/graph/graphviz.hpp>

#include "distributions/input_error.h"
#include "structures/structure.h"

namespace hetstruct::structures {

namespace {

// What read_graphviz fills in: the attributes as text, checked afterwards.
struct DotVertex {
  std::string id, processor, law;
};
using DotGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, DotVertex>;

// Each processor index owns a random stream in every replication: a typo such as 999999 would
// make every replication reset a million streams, so indices stop well before that.
constexpr long max_processor = 65535;

int parse_processor(const std::string& where, const std::string& text) {
  std::size_t used = 0;
  long value = -1;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < 0)
    throw InputError(where, "processor '" + text + "' is not a processor index", "use 0, 1, 2, ...");
  if (value > max_processor)
    throw InputError(where, "processor " + text + " is beyond the limit " + std::to_string(max_processor),
                     "number processors 0, 1, 2, ...");
  return static_cast<int>(value);
}

// boost::read_graphviz parses nested subgraphs ('{' ... '}') by recursion: a few thousand nested
// braces overflow the stack, a crash rather than an error (Boost 1.74 sets no limit). The nesting
// is measured first, skipping what Boost's tokenizer reads as text, where a brace is no brace:
// "quoted strings" (with backslash escapes), <HTML strings> (nested tags), // and /* */
// comments, and lines starting with '#'.
constexpr int max_nesting = 100;

void check_nesting(const std::string& text, const std::string& source) {
  const std::size_t n = text.size();
  int depth = 0, line = 1;
  const auto skip_to = [&](std::size_t& i, auto done) {  // advance i to where done(i), counting lines
    for (; i < n && !done(i); ++i)
      if (text[i] == '\n') ++line;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (c == '"') {
      for (++i; i < n && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < n) ++i;
        if (text[i] == '\n') ++line;
      }
    } else if (c == '<') {  // tags and text up to the tag that closes the first one
      int open = 0;
      do {
        skip_to(i, [&](std::size_t k) { return text[k] == '<'; });
        if (i >= n) break;
        const bool closing = i + 1 < n && text[i + 1] == '/';
        char quote = 0;
        skip_to(i, [&](std::size_t k) {  // to the tag's '>', quoted '>' aside
          if (quote) quote = text[k] == quote ? 0 : quote;
          else if (text[k] == '"' || text[k] == '\'') quote = text[k];
          return !quote && text[k] == '>';
        });
        if (i >= n) break;
        if (closing) --open;
        else if (text[i - 1] != '/') ++open;  // <br/> opens nothing
        ++i;
      } while (open > 0);
      --i;  // the loop's ++i
    } else if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      skip_to(i, [&](std::size_t k) { return text[k] == '\n'; });
      if (i < n) ++line;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      i += 2;
      skip_to(i, [&](std::size_t k) { return text[k] == '*' && k + 1 < n && text[k + 1] == '/'; });
      ++i;
    } else if (c == '#' && (i == 0 || text[i - 1] == '\n')) {
      skip_to(i, [&](std::size_t k) { return text[k] == '\n'; });
      if (i < n) ++line;
    } else if (c == '{') {
      if (++depth > max_nesting)
        throw InputError(source + ":" + std::to_string(line),
                         "subgraphs nested more than " + std::to_string(max_nesting) + " deep",
                         "flatten the '{ ... }' nesting");
    } else if (c == '}') {
      depth = std::max(depth - 1, 0);
    }
  }
}

// After Kahn's algorithm stops short, the vertices left (indegree > 0) each have a predecessor
// that is left too. Walking back along such predecessors must repeat a vertex, and the walk from
// it to its repetition is a cycle. (The first vertex left may only lie downstream of a cycle.)
std::string describe_cycle(const DotGraph& g, const std::vector<std::size_t>& indegree) {
  const std::size_t n = boost::num_vertices(g), none = n;
  std::vector<std::size_t> back(n, none);  // the smallest predecessor left, of each vertex left
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    const std::size_t u = boost::source(e, g), v = boost::target(e, g);
    if (indegree[u] > 0 && indegree[v] > 0 && (back[v] == none || u < back[v])) back[v] = u;
  }
  std::size_t v = 0;
  while (indegree[v] == 0) ++v;
  std::vector<std::size_t> seen_at(n, none), walk;
  while (seen_at[v] == none) {
    seen_at[v] = walk.size();
    walk.push_back(v);
    v = back[v];
  }
  // The walk runs against the edges: reverse it, and start at the smallest vertex.
  std::vector<std::size_t> cycle(walk.begin() + static_cast<std::ptrdiff_t>(seen_at[v]), walk.end());
  std::reverse(cycle.begin(), cycle.end());
  std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
  constexpr std::size_t shown = 8;
  std::string text;
  for (std::size_t i = 0; i < cycle.size() && i < shown; ++i) text += "'" + g[cycle[i]].id + "' -> ";
  if (cycle.size() > shown) text += "... (" + std::to_string(cycle.size()) + " vertices) -> ";
  return text + "'" + g[cycle.front()].id + "'";
}

// Kahn's algorithm, smallest vertex index first: a deterministic topological order. read_graphviz
// numbers the vertices in the byte order of their names (it collects them in a std::map), not in
// the file's order, so that is the order wherever the precedences allow. Throws on a cycle, naming
// the vertices of one cycle.
std::vector<std::size_t> topological_order(const DotGraph& g, const std::string& source) {
  const std::size_t n = boost::num_vertices(g);
  std::vector<std::size_t> indegree(n, 0);
  for (const auto e : boost::make_iterator_range(boost::edges(g))) ++indegree[boost::target(e, g)];
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (indegree[v] == 0) ready.push(v);
  std::vector<std::size_t> order;
  while (!ready.empty()) {
    const std::size_t v = ready.top();
    ready.pop();
    order.push_back(v);
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g)))
      if (--indegree[boost::target(e, g)] == 0) ready.push(boost::target(e, g));
  }
  if (order.size() != n) throw InputError(source, "the graph has a cycle: " + describe_cycle(g, indegree),
                                           "a precedence graph must be acyclic");
  return order;
}

}  // namespace

Structure parse_dot(const std::string& text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(source, "the graph is empty", "write a digraph { ... } with one vertex per task");
  check_nesting(text, source);
  DotGraph dot;
  boost::dynamic_properties dp(boost::ignore_other_properties);
  dp.property("node_id", boost::get(&DotVertex::id, dot));
  dp.property("processor", boost::get(&DotVertex::processor, dot));
  dp.property("law", boost::get(&DotVertex::law, dot));
  try {
    if (!boost::read_graphviz(text, dot, dp, "node_id"))
      throw InputError(source, "not a Graphviz graph");
  } catch (const boost::bad_graphviz_syntax& e) {
    throw InputError(source, std::string("DOT syntax error: ") + e.what());
  } catch (const boost::graph_exception& e) {
    throw InputError(source, std::string("unreadable DOT graph: ") + e.what(),
                     "use a digraph whose vertices carry processor and law attributes");
  }
  if (boost::num_vertices(dot) == 0) throw InputError(source, "the graph has no vertices");

  const auto order = topological_order(dot, source);

  Structure s;
  s.kind = StructureKind::custom;
  s.name = "dag";
  PrecedenceGraph& g = s.custom_graph();
  std::map<std::string, int> law_index;  // identical law texts share one law
  std::vector<Vertex> vertex_of(order.size());
  std::vector<int> depth(order.size(), 0);
  for (std::size_t v = 0; v < order.size(); ++v) {
    const DotVertex& d = dot[v];
    const std::string where = source + ": vertex '" + d.id + "'";
    if (d.processor.empty()) throw InputError(where, "has no processor attribute", "add processor=0 (0-based)");
    if (d.law.empty()) throw InputError(where, "has no law attribute", "add law=\"u(0,1)\"");
    Task t;
    t.processor = parse_processor(where, d.processor);
    auto [it, added] = law_index.try_emplace(d.law, static_cast<int>(s.laws.size()));
    if (added) {
      try {
        s.laws.push_back(distributions::parse_law(d.law));
      } catch (const InputError& e) {
        throw InputError(where, e.what());
      }
    }
    t.law = it->second;
    s.width = std::max(s.width, t.processor + 1);
    vertex_of[v] = boost::add_vertex(t, g);
  }
  for (const auto e : boost::make_iterator_range(boost::edges(dot))) {
    const Vertex a = vertex_of[boost::source(e, dot)], b = vertex_of[boost::target(e, dot)];
    boost::add_edge(a, b, Precedence{g[a].processor != g[b].processor}, g);
  }
  // A processor runs one task at a time: chain its tasks in topological order. Chain edges go
  // forward in that order, so the graph stays acyclic.
  std::vector<long> last_on(s.width, -1);
  for (const std::size_t v : order) {
    const int p = g[vertex_of[v]].processor;
    if (last_on[p] >= 0 && !boost::edge(vertex_of[last_on[p]], vertex_of[v], g).second)
      boost::add_edge(vertex_of[last_on[p]], vertex_of[v], Precedence{false}, g);
    last_on[p] = static_cast<long>(v);
  }
  // Levels: depth of each task in the graph (sources at 0).
  for (const std::size_t v : order)
    for (const auto e : boost::make_iterator_range(boost::out_edges(vertex_of[v], g))) {
      const auto t = boost::target(e, g);
      depth[t] = std::max(depth[t], depth[vertex_of[v]] + 1);
    }
  for (std::size_t v = 0; v < order.size(); ++v) {
    g[vertex_of[v]].level = depth[vertex_of[v]];
    s.levels = std::max(s.levels, depth[vertex_of[v]] + 1);
  }
  return s;
}

Structure read_dot(const std::string& path) {
  // A directory opens as a stream on Linux and then reads as nothing: say what it is.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "is a directory, not a graph file");
  std::ifstream in(path);
  if (!in) throw InputError(path, "cannot open the graph file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw InputError(path, "cannot read the graph file");
  Structure s = parse_dot(buffer.str(), path);
  s.name = path;
  return s;
}

}  // namespace hetstruct::structures
