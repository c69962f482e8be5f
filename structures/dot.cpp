// Custom structures from Graphviz DOT files, parsed by Boost's Graphviz parser.
//
// Boost's read_graphviz numbers vertices in the byte order of their names (it collects them in a
// std::map), and drops attributes it is not told about. So the file is parsed through Boost's own
// mutate_graph interface, which hands over every attribute as text, and the order the file lists
// the vertices in is recovered by a light scan of its tokens (file_order below).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include <boost/graph/graphviz.hpp>

#include "distributions/input_error.h"
#include "structures/custom.h"
#include "structures/structure.h"

namespace hetstruct::structures {

namespace {

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

// ---------------------------------------------------------------------------------------------
// The file's order of the vertices: the order in which their names first appear as vertex
// identifiers. The scan tokenises as Boost's parser does (identifiers, numerals, "quoted strings"
// with \" and backslash-newline, "a" + "b" concatenation, <HTML> strings, comments) and skips what
// is not a vertex: keywords, the name after graph/digraph/subgraph, attribute lists [ ... ],
// a = b statements and ports after ':'.

struct Token {
  enum Kind { id, quoted, html, punct } kind;
  std::string text;
};

bool id_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool id_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

std::vector<Token> tokenize(const std::string& text) {
  std::vector<Token> tokens;
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '\\' && i + 1 < n && text[i + 1] == '\n') {
      i += 2;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      const auto close = text.find("*/", i + 2);
      i = close == std::string::npos ? n : close + 2;
    } else if (c == '#' && (i == 0 || text[i - 1] == '\n')) {
      while (i < n && text[i] != '\n') ++i;
    } else if (c == '"') {
      std::string s;
      for (++i; i < n && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < n) {
          if (text[i + 1] == '\n') { ++i; continue; }
          if (text[i + 1] == '"') { s += '"'; ++i; continue; }
        }
        s += text[i];
      }
      ++i;
      // "a" + "b" is one string.
      if (tokens.size() >= 2 && tokens.back().kind == Token::punct && tokens.back().text == "+" &&
          tokens[tokens.size() - 2].kind == Token::quoted) {
        tokens.pop_back();
        tokens.back().text += s;
      } else {
        tokens.push_back({Token::quoted, s});
      }
    } else if (c == '<') {  // an HTML string: up to the '>' that closes the first '<'
      int depth = 0;
      for (; i < n; ++i) {
        if (text[i] == '<') ++depth;
        else if (text[i] == '>' && --depth == 0) break;
      }
      ++i;
      tokens.push_back({Token::html, {}});
    } else if (c == '-' && i + 1 < n && (text[i + 1] == '>' || text[i + 1] == '-')) {
      tokens.push_back({Token::punct, text.substr(i, 2)});
      i += 2;
    } else if (id_start(static_cast<unsigned char>(c))) {
      const std::size_t start = i;
      while (i < n && id_char(static_cast<unsigned char>(text[i]))) ++i;
      tokens.push_back({Token::id, text.substr(start, i - start)});
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-') {
      const std::size_t start = i;
      if (c == '-') ++i;
      while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      if (i < n && text[i] == '.') ++i;
      while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      tokens.push_back({Token::id, text.substr(start, i - start)});
    } else {
      tokens.push_back({Token::punct, std::string(1, c)});
      ++i;
    }
  }
  return tokens;
}

bool is_keyword(const Token& t) {
  if (t.kind != Token::id) return false;
  std::string lower = t.text;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "graph" || lower == "digraph" || lower == "subgraph" || lower == "node" || lower == "edge" ||
         lower == "strict";
}

bool is_punct(const Token& t, const char* p) { return t.kind == Token::punct && t.text == p; }

// The vertices' names in the order they first appear.
std::vector<std::string> vertex_mentions(const std::string& text) {
  const auto tokens = tokenize(text);
  std::vector<std::string> names;
  int brackets = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (is_punct(t, "[")) ++brackets;
    else if (is_punct(t, "]")) brackets = std::max(brackets - 1, 0);
    if (brackets > 0 || t.kind == Token::punct || t.kind == Token::html || is_keyword(t)) continue;
    if (i > 0) {
      const Token& before = tokens[i - 1];
      if (is_punct(before, ":") || is_punct(before, "=")) continue;  // a port, a value
      if (before.kind == Token::id && is_keyword(before)) {
        std::string lower = before.text;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower == "graph" || lower == "digraph" || lower == "subgraph") continue;  // a graph's name
      }
    }
    if (i + 1 < tokens.size() && is_punct(tokens[i + 1], "=")) continue;  // a graph attribute
    names.push_back(t.text);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Attributes. hetstruct's own are checked where they belong; Graphviz's drawing attributes pass;
// any other name passes too (a user's own metadata), unless it looks like a slip for one of
// hetstruct's (a near spelling, another case, or a name other tools use for the same thing).

enum class Owner { vertex, edge, graph };

const char* owner_name(Owner o) { return o == Owner::vertex ? "a vertex" : o == Owner::edge ? "an edge" : "the graph"; }

struct Known {
  const char* name;
  Owner owner;
  const char* hint;
};
constexpr Known known_attributes[] = {
    {"processor", Owner::vertex, "processor=0 (0-based)"},
    {"law", Owner::vertex, "law=\"u(0,1)\""},
    {"order", Owner::vertex, "order=1 (its place on its processor)"},
    {"comm", Owner::edge, "comm=0.5 or comm=\"u(0,1)\" (the message's time)"},
    {"processor_scale", Owner::graph, "graph [processor_scale=\"1,1,1/2\"]"},
};

// Names other tools give to what hetstruct calls by the second name.
constexpr std::pair<const char*, const char*> synonyms[] = {
    {"proc", "processor"}, {"cpu", "processor"}, {"machine", "processor"}, {"host", "processor"},
    {"cost", "law"}, {"time", "law"}, {"duration", "law"}, {"runtime", "law"}, {"work", "law"},
    {"distribution", "law"}, {"delay", "comm"}, {"latency", "comm"}, {"communication", "comm"},
    {"message", "comm"}, {"speed", "processor_scale"}, {"speeds", "processor_scale"},
    {"scales", "processor_scale"}, {"processor_speed", "processor_scale"}, {"rank_order", "order"},
};

// Graphviz's attributes (graphviz.org/doc/info/attrs.html), which drawings carry.
const std::set<std::string>& graphviz_attributes() {
  static const std::set<std::string> names = {
      "_background", "area", "arrowhead", "arrowsize", "arrowtail", "bb", "beautify", "bgcolor", "center",
      "charset", "class", "cluster", "clusterrank", "color", "colorscheme", "comment", "compound",
      "concentrate", "constraint", "damping", "decorate", "defaultdist", "dim", "dimen", "dir",
      "diredgeconstraints", "distortion", "dpi", "edgehref", "edgetarget", "edgetooltip", "edgeurl",
      "epsilon", "esep", "fillcolor", "fixedsize", "fontcolor", "fontname", "fontnames", "fontpath",
      "fontsize", "forcelabels", "gradientangle", "group", "head_lp", "headclip", "headhref", "headlabel",
      "headport", "headtarget", "headtooltip", "headurl", "height", "href", "id", "image", "imagepath",
      "imagepos", "imagescale", "inputscale", "k", "label", "label_scheme", "labelangle", "labeldistance",
      "labelfloat", "labelfontcolor", "labelfontname", "labelfontsize", "labelhref", "labeljust",
      "labelloc", "labeltarget", "labeltooltip", "labelurl", "landscape", "layer", "layerlistsep",
      "layers", "layerselect", "layersep", "layout", "len", "levels", "levelsgap", "lhead", "lheight",
      "linelength", "lp", "ltail", "lwidth", "margin", "maxiter", "mclimit", "mindist", "minlen", "mode",
      "model", "newrank", "nodesep", "nojustify", "normalize", "notranslate", "nslimit", "nslimit1",
      "oneblock", "ordering", "orientation", "outputorder", "overlap", "overlap_scaling",
      "overlap_shrink", "pack", "packmode", "pad", "page", "pagedir", "pencolor", "penwidth",
      "peripheries", "pin", "pos", "quadtree", "quantum", "radius", "rank", "rankdir", "ranksep", "ratio",
      "rects", "regular", "remincross", "repulsiveforce", "resolution", "root", "rotate", "rotation",
      "samehead", "sametail", "samplepoints", "scale", "searchsize", "sep", "shape", "shapefile",
      "showboxes", "sides", "size", "skew", "smoothing", "sortv", "splines", "start", "style",
      "stylesheet", "tail_lp", "tailclip", "tailhref", "taillabel", "tailport", "tailtarget",
      "tailtooltip", "tailurl", "target", "tbbalance", "tooltip", "truecolor", "url", "vertices",
      "viewport", "voro_margin", "weight", "width", "xdotversion", "xlabel", "xlp", "z"};
  return names;
}

std::string lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// Throws for a hetstruct attribute in the wrong place or a name that looks like a slip for one.
void check_attribute(const std::string& where, Owner owner, const std::string& name) {
  for (const auto& k : known_attributes)
    if (name == k.name) {
      if (k.owner == owner) return;
      throw InputError(where, "'" + name + "' is an attribute of " + owner_name(k.owner) + ", not of " + owner_name(owner),
                       std::string("write ") + k.hint);
    }
  const std::string lower = lowercase(name);
  if (graphviz_attributes().count(lower)) return;
  const Known* meant = nullptr;
  for (const auto& k : known_attributes) {
    const std::string known = k.name;
    const std::size_t slack = known.size() <= 4 ? 1 : 2;
    if (lower == known || edit_distance(lower, known) <= slack) meant = &k;
  }
  for (const auto& [other, ours] : synonyms)
    if (lower == other)
      for (const auto& k : known_attributes)
        if (std::string(k.name) == ours) meant = &k;
  if (meant)
    throw InputError(where, "unknown attribute '" + name + "'", std::string("did you mean ") + meant->hint + "?");
}

// A message's time: a law, or a bare number for a constant (>= 0).
distributions::Law parse_time_law(const std::string& text) {
  double value = 0;
  try {
    value = distributions::parse_number(text, "comm");
  } catch (const InputError&) {
    return distributions::parse_law(text);
  }
  if (!(value >= 0.0)) throw InputError("comm", "a message's time must be >= 0, got " + text);
  return distributions::Law::constant(value);
}

// What Boost's parser hands over, every attribute as text.
class DotReader : public boost::detail::graph::mutate_graph {
 public:
  using Properties = std::map<std::string, std::string>;
  struct Edge {
    std::size_t from, to;
    Properties properties;
  };
  std::vector<std::string> names;  // in the byte order of the names (Boost's)
  std::map<std::string, std::size_t> index;
  std::vector<Properties> vertex_properties;
  std::vector<Edge> edges;  // in the file's order
  Properties graph_properties;

  bool is_directed() const override { return true; }
  void do_add_vertex(const boost::detail::graph::node_t& node) override {
    index.emplace(node, names.size());
    names.push_back(node);
    vertex_properties.emplace_back();
  }
  void do_add_edge(const boost::detail::graph::edge_t& edge, const boost::detail::graph::node_t& source,
                   const boost::detail::graph::node_t& target) override {
    edge_index_.emplace(edge, edges.size());
    edges.push_back({index.at(source), index.at(target), {}});
  }
  void set_node_property(const boost::detail::graph::id_t& key, const boost::detail::graph::node_t& node,
                         const boost::detail::graph::id_t& value) override {
    vertex_properties[index.at(node)][key] = value;
  }
  void set_edge_property(const boost::detail::graph::id_t& key, const boost::detail::graph::edge_t& edge,
                         const boost::detail::graph::id_t& value) override {
    edges[edge_index_.at(edge)].properties[key] = value;
  }
  void set_graph_property(const boost::detail::graph::id_t& key, const boost::detail::graph::id_t& value) override {
    graph_properties[key] = value;
  }
  void finish_building_graph() override {}

 private:
  std::map<boost::detail::graph::edge_t, std::size_t> edge_index_;
};

std::vector<double> parse_scales(const std::string& where, const std::string& text) {
  std::vector<double> scales;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    try {
      scales.push_back(distributions::parse_number(item, "processor_scale"));
    } catch (const InputError&) {
      throw InputError(where, "processor_scale '" + text + "': '" + item + "' is not a number",
                       "a comma-separated list such as \"1,1,1/2\"");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return scales;
}

}  // namespace

Structure parse_dot(const std::string& text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(source, "the graph is empty", "write a digraph { ... } with one vertex per task");
  check_nesting(text, source);
  DotReader dot;
  try {
    if (!boost::detail::graph::read_graphviz_new(text, &dot)) throw InputError(source, "not a Graphviz graph");
  } catch (const boost::bad_graphviz_syntax& e) {
    throw InputError(source, std::string("DOT syntax error: ") + e.what());
  } catch (const boost::graph_exception& e) {
    throw InputError(source, std::string("unreadable DOT graph: ") + e.what(),
                     "use a digraph whose vertices carry processor and law attributes");
  }
  const std::size_t n = dot.names.size();
  if (n == 0) throw InputError(source, "the graph has no vertices");

  // Boost's vertex -> its place in the file.
  std::vector<std::size_t> place(n, n);
  std::size_t placed = 0;
  for (const auto& name : vertex_mentions(text)) {
    const auto it = dot.index.find(name);
    if (it != dot.index.end() && place[it->second] == n) place[it->second] = placed++;
  }
  for (std::size_t v = 0; v < n; ++v)
    if (place[v] == n)
      throw InputError(source + ": vertex '" + dot.names[v] + "'", "cannot tell where the file lists it",
                       "name the vertex with a plain identifier or quoted string");

  CustomDag dag;
  dag.tasks.resize(n);
  std::map<std::string, int> law_of_text;  // identical law texts share one law
  const auto law_from = [&](const std::string& where, const std::string& law_text, bool bare_number) {
    const std::string key = (bare_number ? "comm:" : "law:") + law_text;
    const auto it = law_of_text.find(key);
    if (it != law_of_text.end()) return it->second;
    int index = -1;
    try {
      index = dag.law_index(bare_number ? parse_time_law(law_text) : distributions::parse_law(law_text));
    } catch (const InputError& e) {
      throw InputError(where, e.what());
    }
    law_of_text.emplace(key, index);
    return index;
  };
  for (std::size_t v = 0; v < n; ++v) {
    const auto& props = dot.vertex_properties[v];
    const std::string where = source + ": vertex '" + dot.names[v] + "'";
    for (const auto& [key, value] : props) check_attribute(where, Owner::vertex, key);
    CustomTask& t = dag.tasks[place[v]];
    t.name = dot.names[v];
    const auto processor = props.find("processor"), law = props.find("law"), order = props.find("order");
    if (processor == props.end() || processor->second.empty())
      throw InputError(where, "has no processor attribute", "add processor=0 (0-based)");
    if (law == props.end() || law->second.empty()) throw InputError(where, "has no law attribute", "add law=\"u(0,1)\"");
    t.processor = parse_processor(where, processor->second);
    t.law = law_from(where, law->second, false);
    if (order != props.end()) {
      double k = 0;
      try {
        k = distributions::parse_number(order->second, "order");
      } catch (const InputError&) {
        throw InputError(where, "order '" + order->second + "' is not a number", "order=1, 2, 3, ... (smaller first)");
      }
      if (!std::isfinite(k)) throw InputError(where, "order '" + order->second + "' is not a finite number");
      t.order = k;
    }
  }
  for (const auto& e : dot.edges) {
    const std::string where = source + ": edge '" + dot.names[e.from] + "' -> '" + dot.names[e.to] + "'";
    for (const auto& [key, value] : e.properties) check_attribute(where, Owner::edge, key);
    CustomEdge edge{place[e.from], place[e.to], -1};
    if (const auto comm = e.properties.find("comm"); comm != e.properties.end())
      edge.comm_law = law_from(where, comm->second, true);
    dag.edges.push_back(edge);
  }
  for (const auto& [key, value] : dot.graph_properties) check_attribute(source, Owner::graph, key);
  if (const auto scales = dot.graph_properties.find("processor_scale"); scales != dot.graph_properties.end())
    dag.processor_scale = parse_scales(source, scales->second);
  return build_custom(dag, source);
}

Structure read_dot(const std::string& path) {
  Structure s = parse_dot(read_text_file(path, "graph file"), path);
  s.name = path;
  return s;
}

}  // namespace hetstruct::structures
