// Custom structures from Graphviz DOT files, parsed by Boost's Graphviz parser.
//
// Boost's read_graphviz numbers vertices in the byte order of their names (it collects them in a
// std::map), and drops attributes it is not told about. So the file is parsed through Boost's own
// mutate_graph interface, which hands over every attribute as text.
//
// Boost's tokenizer reads an unquoted numeral as -?(\.[0-9]+|[0-9]+(\.[0-9]*)?) and stops there:
// comm=1e-3 would be comm=1 and a stray attribute e, 2x would be 2 and x. So a pre-pass (Walker
// below) first reads the file with a tokenizer that follows Boost's, line by line, and Boost's
// grammar: it refuses a numeral glued to letters or a second dot and an attribute without a value,
// checks every attribute where it is written (FILE:LINE, the attribute and the token), refuses a
// vertex given two values of one attribute, and records what Boost does not say: the order in
// which the file names the vertices and its edges, and the line of each thing. Boost then reads a
// copy of the text with the same lines (for_boost): numerals in exponent form and HTML strings
// quoted, anonymous subgraphs named, `strict` blanked.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include <boost/graph/graphviz.hpp>

#include "distributions/input_error.h"
#include "distributions/law_syntax.h"
#include "structures/custom.h"
#include "structures/platform.h"
#include "structures/structure.h"

namespace hetstruct::structures {

namespace {

// boost::read_graphviz parses nested subgraphs ('{' ... '}') by recursion: a few thousand nested
// braces overflow the stack, a crash rather than an error (Boost 1.74 sets no limit). The nesting
// of the text Boost reads is measured first, skipping what Boost's tokenizer reads as text, where a brace is no brace:
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
    {"cores", Owner::vertex, "cores=2 (the cores of its processor it takes; default 1)"},
    {"costs", Owner::vertex, "costs=\"14,16,9\" (its time on each processor: numbers or laws)"},
    {"processor_scale", Owner::graph, "graph [processor_scale=\"1,1,1/2\"]"},
    {"processor_cores", Owner::graph, "graph [processor_cores=\"4,4,1\"] (cores per processor)"},
    {"host", Owner::vertex, "host=\"node-0\" (a host of the --platform file)"},
    {"bytes", Owner::edge, "bytes=1e6 or bytes=\"u(0,1e6)\" (the message's bytes, with --platform)"},
};

// Names other tools give to what hetstruct calls by the second name.
constexpr std::pair<const char*, const char*> synonyms[] = {
    {"proc", "processor"}, {"cpu", "processor"}, {"machine", "processor"},
    {"cost", "law"}, {"time", "law"}, {"duration", "law"}, {"runtime", "law"}, {"work", "law"},
    {"distribution", "law"}, {"delay", "comm"}, {"latency", "comm"}, {"communication", "comm"},
    {"message", "comm"}, {"speed", "processor_scale"}, {"speeds", "processor_scale"},
    {"scales", "processor_scale"}, {"processor_speed", "processor_scale"}, {"rank_order", "order"},
    {"threads", "cores"}, {"ncores", "cores"}, {"num_cores", "cores"}, {"core", "cores"},
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

// ---------------------------------------------------------------------------------------------
// The values of hetstruct's attributes, each parsed whole or refused at `where` (FILE:LINE and
// what it belongs to). Each returns a canonical text, so that the same value written twice in two
// ways ("0" and 0, c(1) and c( 1 )) is not taken for a conflict.

int parse_count(const std::string& where, const std::string& attribute, const std::string& given, const char* hint) {
  const std::string text = whole_digits(given);
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  long value = 0;
  if (digits) {
    const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    if (r.ec != std::errc() || value > max_cores)
      throw InputError(where, attribute + " " + text + " is beyond the limit " + std::to_string(max_cores));
  }
  if (!digits || value < 1) throw InputError(where, attribute + " '" + text + "' is not a whole number >= 1", hint);
  return static_cast<int>(value);
}

// A message's time: a law, or a bare number for a constant (>= 0).
distributions::Law parse_time_law(const std::string& where, const std::string& text) {
  double value = 0;
  try {
    value = distributions::parse_number(text, "comm");
  } catch (const InputError&) {
    try {
      return distributions::parse_law(text);
    } catch (const InputError& e) {
      throw InputError(where, "comm '" + text + "': " + e.problem(), e.hint());
    }
  }
  if (!(value >= 0.0)) throw InputError(where, "comm: a message's time must be >= 0, got " + text);
  return distributions::Law::constant(value);
}

distributions::Law parse_vertex_law(const std::string& where, const std::string& text) {
  try {
    return distributions::parse_law(text);
  } catch (const InputError& e) {
    throw InputError(where, e.what());
  }
}

// A task's time on each processor (unrelated processors): a comma-separated list of laws or bare
// numbers (constants >= 0), one per processor.
std::vector<distributions::Law> parse_costs(const std::string& where, const std::string& text) {
  std::vector<distributions::Law> laws;
  for (std::string item : distributions::split_outside_laws(text, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    const auto refuse = [&](const std::string& problem, const std::string& hint) {
      throw InputError(where, "costs '" + text + "': '" + item + "'" + problem, hint);
    };
    double value = 0;
    try {
      value = distributions::parse_number(item, "costs");
    } catch (const InputError&) {
      try {
        laws.push_back(distributions::parse_law(item));
      } catch (const InputError& e) {
        refuse(": " + e.problem(), e.hint().empty() ? "a comma-separated list of numbers or laws, one per processor" : e.hint());
      }
      continue;
    }
    if (!(value >= 0.0) || !std::isfinite(value)) refuse(" is not a time >= 0", "a comma-separated list such as \"14,16,9\"");
    laws.push_back(distributions::Law::constant(value));
  }
  return laws;
}

std::string join_laws(const std::vector<distributions::Law>& laws) {
  std::string s;
  for (const auto& law : laws) s += (s.empty() ? "" : ",") + law.to_string();
  return s;
}

double parse_order(const std::string& where, const std::string& text) {
  double k = 0;
  try {
    k = distributions::parse_number(text, "order");
  } catch (const InputError&) {
    throw InputError(where, "order '" + text + "' is not a number", "order=1, 2, 3, ... (smaller first)");
  }
  if (!std::isfinite(k)) throw InputError(where, "order '" + text + "' is not a finite number");
  return k;
}

// A comma-separated list, one item a processor; `item` parses one (trimmed) item or throws.
template <class T, class Item>
std::vector<T> parse_list(const std::string& text, Item item) {
  std::vector<T> values;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    std::string one = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    one.erase(0, one.find_first_not_of(" \t"));
    one.erase(one.find_last_not_of(" \t") + 1);
    values.push_back(item(one));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return values;
}

std::vector<double> parse_scales(const std::string& where, const std::string& text) {
  return parse_list<double>(text, [&](const std::string& item) {
    try {
      return distributions::parse_number(item, "processor_scale");
    } catch (const InputError&) {
      throw InputError(where, "processor_scale '" + text + "': '" + item + "' is not a number",
                       "a comma-separated list such as \"1,1,1/2\"");
    }
  });
}

std::vector<int> parse_processor_cores(const std::string& where, const std::string& text) {
  return parse_list<int>(text, [&](const std::string& item) {
    return parse_count(where, "processor_cores '" + text + "':", item, "a comma-separated list such as \"4,4,1\"");
  });
}

std::string join(const std::vector<double>& values) {
  std::string s;
  for (const double x : values) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    s += (s.empty() ? "" : ",") + std::string(buffer);
  }
  return s;
}

// Parses one of hetstruct's attributes whole (InputError at `where`); returns its canonical text,
// or nothing for an attribute that is not hetstruct's.
std::optional<std::string> check_value(const std::string& where, const std::string& key, const std::string& value) {
  if (key == "processor") return std::to_string(parse_processor(where, value));
  if (key == "law") return parse_vertex_law(where, value).to_string();
  if (key == "order") return join({parse_order(where, value)});
  if (key == "cores") return std::to_string(parse_count(where, "cores", value, "cores=1, 2, 4, ... (default 1)"));
  if (key == "comm") return parse_time_law(where, value).to_string();
  if (key == "bytes") return parse_time_law(where, value).to_string();
  if (key == "host") return value;
  if (key == "costs") return join_laws(parse_costs(where, value));
  if (key == "processor_scale") return join(parse_scales(where, value));
  if (key == "processor_cores") {
    const auto cores = parse_processor_cores(where, value);
    return join(std::vector<double>(cores.begin(), cores.end()));
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// The tokenizer: Boost's tokens (read_graphviz_new.cpp: identifiers, numerals, "quoted strings"
// with \" and backslash-newline, "a" + "b", <HTML strings> with their tags and CDATA, comments,
// lines starting with '#'), each with its line and place in the text, plus what Boost misreads:
// numerals in exponent form and numerals glued to letters or dots.

struct Token {
  enum Kind { id, numeral, quoted, html, punct, bad, unreadable } kind;
  std::string text;  // as Boost hands it over: quotes removed, \" and backslash-newline undone
  std::size_t line = 0;
  std::size_t begin = 0, end = 0;  // the bytes it takes in the file
  bool exponent = false;           // a numeral in exponent form (1e-3), which Boost would split
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool id_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool id_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

std::vector<Token> tokenize(const std::string& text) {
  std::vector<Token> tokens;
  const std::size_t n = text.size();
  std::size_t i = 0, line = 1;
  const auto advance_to = [&](std::size_t to) {
    for (; i < to && i < n; ++i)
      if (text[i] == '\n') ++line;
  };
  const auto push = [&](Token::Kind kind, std::string s, std::size_t begin, std::size_t at_line) {
    tokens.push_back({kind, std::move(s), at_line, begin, i, false});
  };
  while (i < n) {
    const char c = text[i];
    const char next = i + 1 < n ? text[i + 1] : '\0';
    const std::size_t begin = i, at_line = line;
    if (std::isspace(static_cast<unsigned char>(c)) || (c == '\\' && next == '\n')) {
      advance_to(i + (c == '\\' ? 2 : 1));
    } else if (c == '/' && next == '/') {
      advance_to(std::min(text.find('\n', i), n));
    } else if (c == '/' && next == '*') {
      const auto close = text.find("*/", i + 2);
      advance_to(close == std::string::npos ? n : close + 2);
    } else if (c == '#' && (i == 0 || text[i - 1] == '\n')) {
      advance_to(std::min(text.find('\n', i), n));
    } else if (c == '"') {
      std::size_t k = i + 1;
      while (k < n && text[k] != '"') k += text[k] == '\\' && k + 1 < n ? 2 : 1;
      if (k >= n) {  // unclosed: Boost says so
        push(Token::unreadable, "\"", begin, at_line);
        break;
      }
      std::string s = text.substr(i + 1, k - i - 1);
      // Boost's unescaping, exactly: \" and backslash-newline, nothing else.
      for (std::size_t j = 0; j + 1 < s.size(); ++j) {
        if (s[j] == '\\' && s[j + 1] == '"') {
          s.erase(j, 1);
        } else if (s[j] == '\\' && s[j + 1] == '\n') {
          s.erase(j, 2);
          --j;  // wraps and comes back to j with the loop's ++j
        }
      }
      advance_to(k + 1);
      // "a" + "b" is one string.
      if (tokens.size() >= 2 && tokens.back().kind == Token::punct && tokens.back().text == "+" &&
          tokens[tokens.size() - 2].kind == Token::quoted) {
        tokens.pop_back();
        tokens.back().text += s;
        tokens.back().end = i;
      } else {
        push(Token::quoted, s, begin, at_line);
      }
    } else if (c == '<') {
      // An HTML string as Graphviz reads it: up to the '>' that closes the first '<', counting
      // them. Boost reads <...> as XML tags instead, so that label=<<b>x</b>> ends after </b> and
      // label=<x> never ends: Boost gets a quoted string in its place (for_boost), this text.
      int depth = 0;
      do {
        if (text[i] == '<') ++depth;
        else if (text[i] == '>') --depth;
        advance_to(i + 1);
      } while (i < n && depth > 0);
      if (depth > 0) {  // unclosed: Boost says so
        push(Token::unreadable, "<", begin, at_line);
        break;
      }
      std::string s = text.substr(begin, i - begin);
      for (char& ch : s)  // nothing Boost would unescape or end its string at
        if (ch == '"') ch = '\'';
        else if (ch == '\\') ch = '/';
      push(Token::html, s, begin, at_line);
    } else if (c == '-' && (next == '>' || next == '-')) {
      advance_to(i + 2);
      push(Token::punct, text.substr(begin, 2), begin, at_line);
    } else if (id_start(static_cast<unsigned char>(c))) {
      while (i < n && id_char(static_cast<unsigned char>(text[i]))) advance_to(i + 1);
      push(Token::id, text.substr(begin, i - begin), begin, at_line);
    } else if (is_digit(c) || (c == '.' && is_digit(next)) ||
               (c == '-' && (is_digit(next) || (next == '.' && i + 2 < n && is_digit(text[i + 2]))))) {
      std::size_t k = i + (c == '-' ? 1 : 0);
      while (k < n && is_digit(text[k])) ++k;
      if (k < n && text[k] == '.') ++k;
      while (k < n && is_digit(text[k])) ++k;
      bool exponent = false;
      if (k < n && (text[k] == 'e' || text[k] == 'E')) {
        std::size_t e = k + 1;
        if (e < n && (text[e] == '+' || text[e] == '-')) ++e;
        if (e < n && is_digit(text[e])) {
          while (e < n && is_digit(text[e])) ++e;
          k = e;
          exponent = true;
        }
      }
      // Glued to a letter, a digit or a dot (2x, 1.5.5), or to a signed numeral (1-2): Boost would
      // read two tokens where the file shows one. The bad token runs to what ends a token.
      const auto glue = [&](std::size_t at) {
        return at < n && (id_char(static_cast<unsigned char>(text[at])) || text[at] == '.' ||
                          ((text[at] == '-' || text[at] == '+') && at + 1 < n && (is_digit(text[at + 1]) || text[at + 1] == '.')));
      };
      const bool glued = glue(k);
      while (glue(k)) ++k;
      advance_to(k);
      push(glued ? Token::bad : Token::numeral, text.substr(begin, i - begin), begin, at_line);
      tokens.back().exponent = exponent && !glued;
    } else {
      advance_to(i + 1);
      push(Token::punct, std::string(1, c), begin, at_line);
    }
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// The walker: Boost's grammar (parse_graph, parse_stmt, ... in read_graphviz_new.cpp) over the
// tokens above. It checks each attribute where it is written and records the vertices in the order
// the file first names them (Boost's order of creation), with their lines. Where it cannot follow
// the file it stops (Lost) at that line: Boost then reports the syntax error.

bool is_keyword(const Token& t, const char* word) {
  if (t.kind != Token::id || t.text.size() != std::strlen(word)) return false;
  for (std::size_t i = 0; i < t.text.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(t.text[i])) != word[i]) return false;
  return true;
}

bool is_keyword(const Token& t) {
  for (const char* word : {"strict", "graph", "digraph", "node", "edge", "subgraph"})
    if (is_keyword(t, word)) return true;
  return false;
}

std::string quote(const std::string& name) { return "'" + name + "'"; }

struct Site {
  std::string written, canonical;
  std::size_t line = 0;
};

class Walker {
 public:
  Walker(const std::vector<Token>& tokens, const std::string& source) : tokens_(tokens), source_(source) {}

  struct Lost {
    std::size_t line;
  };

  // Throws InputError for a glued numeral, a valueless attribute or deep nesting, Lost where the
  // walk cannot follow the file (Boost then names the syntax error).
  void run() {
    if (peek_keyword("strict")) ++pos_;
    if (!peek_keyword("graph") && !peek_keyword("digraph")) lost();
    ++pos_;
    if (is_id(peek())) ++pos_;  // the graph's name
    expect("{");
    statements();
    expect("}");
    if (pos_ != tokens_.size()) lost();
  }

  // The pending attributes point into the tokens; the vertices' attributes served the checks.
  void forget_tokens() {
    std::vector<Pending>().swap(pending_);
    vertex_attributes.clear();
  }

  // Once the file's syntax is known to be sound: every attribute in the file's order.
  void check_attributes() {
    std::map<std::pair<std::size_t, std::string>, Site> in_statement;
    for (const auto& p : pending_)
      if (const auto site = attribute(p)) {
        const auto [it, added] = in_statement.emplace(std::pair{p.statement, p.key->text}, *site);
        if (!added && it->second.canonical != site->canonical) conflict(p.context, *p.key, *site, it->second);
      }
  }

  std::vector<std::string> vertices;                      // in the order the file first names them
  std::map<std::string, std::size_t> first_line;          // of each vertex
  std::map<std::string, std::map<std::string, Site>> vertex_attributes;  // hetstruct's, set explicitly (for conflicts)
  std::map<std::string, Site> graph_attributes;           // hetstruct's, of the top-level graph
  std::vector<std::pair<std::string, std::string>> edges;  // in the file's order
  std::vector<std::size_t> edge_lines;                      // the line of each
  std::vector<std::size_t> anonymous_braces;  // the tokens '{' that open a subgraph without `subgraph`

 private:
  // What an attribute list belongs to.
  struct Context {
    Owner owner;
    std::string what;    // "vertex 'a'", "edge 'a' -> 'b'", "node defaults", ... ("" for the graph)
    std::string vertex;  // a vertex statement's vertex
  };

  // An attribute as the file writes it, checked once the walk is through (a syntax error first).
  struct Pending {
    Context context;
    const Token *key, *value;
    bool in_subgraph;
    std::size_t statement;  // one attribute given twice in one statement is a conflict too
  };

  const std::vector<Token>& tokens_;
  const std::string& source_;
  std::size_t pos_ = 0;
  std::vector<Pending> pending_;
  std::size_t statements_ = 0;
  int subgraphs_ = 0;  // how deep in subgraphs the walk is

  const Token& peek(std::size_t ahead = 0) const {
    static const Token end{Token::punct, "", 0, 0, 0, false};
    return pos_ + ahead < tokens_.size() ? tokens_[pos_ + ahead] : end;
  }
  std::size_t line() const {
    if (pos_ < tokens_.size()) return tokens_[pos_].line;
    return tokens_.empty() ? 1 : tokens_.back().line;
  }
  [[noreturn]] void lost() const { throw Lost{line()}; }
  bool peek_punct(const char* p, std::size_t ahead = 0) const {
    return peek(ahead).kind == Token::punct && peek(ahead).text == p;
  }
  bool peek_keyword(const char* word) const { return is_keyword(peek(), word); }
  void expect(const char* p) {
    if (!peek_punct(p)) lost();
    ++pos_;
  }
  // Boost's identifier: a name, a numeral, a quoted or HTML string.
  bool is_id(const Token& t) const {
    if (t.kind == Token::bad) refuse_bad(t, "");
    return (t.kind == Token::id && !is_keyword(t)) || t.kind == Token::numeral || t.kind == Token::quoted ||
           t.kind == Token::html;
  }
  const Token& take_id() {
    if (!is_id(peek())) lost();
    return tokens_[pos_++];
  }
  std::string at(std::size_t line, const std::string& what) const {
    return source_ + ":" + std::to_string(line) + (what.empty() ? "" : ": " + what);
  }
  // A numeral glued to letters or dots: in an attribute's value (`where` names it), or elsewhere.
  [[noreturn]] void refuse_bad(const Token& t, const std::string& where) const {
    const char* hint = "write a number whole, as 0.5 or 1e-3, or quote a name";
    if (where.empty())
      throw InputError(at(t.line, ""), "'" + t.text + "' is neither a number nor a name: a numeral glued to letters or a dot", hint);
    throw InputError(where, "'" + t.text + "' is not a number: a numeral glued to letters or a dot", hint);
  }

  void statements() {
    while (!peek_punct("}")) {
      if (pos_ >= tokens_.size()) lost();
      statement();
      if (peek_punct(";")) ++pos_;
    }
  }

  void statement() {
    if (peek_keyword("graph") || peek_keyword("node") || peek_keyword("edge")) {
      const bool node = peek_keyword("node"), edge = peek_keyword("edge");
      ++pos_;
      if (node) attributes({Owner::vertex, "node defaults", ""});
      else if (edge) attributes({Owner::edge, "edge defaults", ""});
      else attributes(graph_context());
    } else if (is_id(peek()) && peek_punct("=", 1)) {  // a graph attribute: name = value
      const Token& key = take_id();
      ++pos_;
      if (peek().kind == Token::bad) refuse_bad(peek(), at(peek().line, graph_context().what) + ": " + key.text);
      pending_.push_back({graph_context(), &key, &take_id(), subgraphs_ > 0, statements_++});
    } else if (peek_keyword("subgraph") || peek_punct("{") || is_id(peek())) {
      const Endpoint first = endpoint();
      if (peek_punct("->") || peek_punct("--")) {
        std::vector<Endpoint> ends{first};
        std::string what = "edge " + first.label;
        for (int steps = 0; peek_punct("->") || peek_punct("--"); ++steps) {
          const std::string arrow = peek().text;
          ++pos_;
          ends.push_back(endpoint());
          if (steps < 3) what += " " + arrow + " " + ends.back().label;
          else if (steps == 3) what += " " + arrow + " ...";  // a long chain is named by its start
        }
        subgraph_[current_].has_edges = true;
        for (std::size_t i = 0; i + 1 < ends.size(); ++i)
          for (const auto& from : members(ends[i], what))
            for (const auto& to : members(ends[i + 1], what)) {
              edges.emplace_back(from, to);
              edge_lines.push_back(ends[i + 1].line);
            }
        if (peek_punct("[")) attributes({Owner::edge, what, ""});
      } else {
        subgraph_[current_].members.push_back(first);
        if (!first.subgraph && peek_punct("[")) attributes({Owner::vertex, "vertex " + first.label, first.key});
      }
    } else {
      lost();
    }
  }

  // An edge's end: a vertex (its name) or a subgraph (Boost's name for it).
  struct Endpoint {
    bool subgraph = false;
    std::string key, label;  // label: how messages name it
    std::size_t line = 0;
  };
  struct Subgraph {
    std::vector<Endpoint> members;  // its vertex statements and subgraphs, as Boost lists them
    bool has_edges = false;
  };
  std::map<std::string, Subgraph> subgraph_{{"___root___", {}}};
  std::string current_ = "___root___";
  int anonymous_ = 0;

  // The vertices an edge's end stands for, in the file's order (Boost takes them in the order of
  // their names: the caller restores the file's). Boost leaves out of a subgraph the vertices
  // named only in its edge statements, which Graphviz counts: such a subgraph is refused.
  std::vector<std::string> members(const Endpoint& end, const std::string& what) {
    if (!end.subgraph) return {end.key};
    std::vector<std::string> names;
    std::set<std::string> seen, done;
    const auto visit = [&](const auto& self, const std::string& key) -> void {
      if (!done.insert(key).second) return;
      const auto it = subgraph_.find(key);
      if (it == subgraph_.end()) return;
      if (it->second.has_edges)
        throw InputError(at(end.line, what), "a subgraph at an edge's end holds edge statements",
                         "Boost's reader would leave their vertices out; write those edges on their own");
      for (const auto& m : it->second.members) {
        if (m.subgraph) self(self, m.key);
        else if (seen.insert(m.key).second) names.push_back(m.key);
      }
    };
    visit(visit, end.key);
    return names;
  }

  Context graph_context() const { return {Owner::graph, subgraphs_ > 0 ? "subgraph" : "", ""}; }

  // A vertex (with its port) or a subgraph, as Boost's parse_endpoint reads it.
  Endpoint endpoint() {
    if (peek_keyword("subgraph") || peek_punct("{")) {
      Endpoint end{true, "", "{...}", peek().line};
      if (peek_punct("{")) anonymous_braces.push_back(pos_);
      if (peek_keyword("subgraph")) {
        ++pos_;
        if (is_id(peek())) {
          end.key = take_id().text;
          end.label = "subgraph " + quote(end.key);
        }
      }
      const bool anonymous = end.key.empty();
      if (anonymous) end.key = "___subgraph_" + std::to_string(++anonymous_);
      subgraph_.try_emplace(end.key);
      if (!anonymous && !peek_punct("{")) return end;  // a reference to a subgraph
      expect("{");
      if (subgraphs_ >= max_nesting)  // the walk recurses as Boost does
        throw InputError(at(end.line, ""), "subgraphs nested more than " + std::to_string(max_nesting) + " deep",
                         "flatten the '{ ... }' nesting");
      const std::string outer = current_;
      current_ = end.key;
      ++subgraphs_;
      statements();
      --subgraphs_;
      current_ = outer;
      expect("}");
      return end;
    }
    const Token& name = take_id();
    while (true) {  // ports: @angle, :location, :location:location, :(x,y)
      if (peek_punct("@")) {
        ++pos_;
        take_id();
      } else if (peek_punct(":")) {
        ++pos_;
        if (peek_punct("(")) {
          ++pos_;
          take_id();
          expect(",");
          take_id();
          expect(")");
        } else {
          take_id();
          if (peek_punct(":")) {
            ++pos_;
            take_id();
          }
        }
      } else {
        break;
      }
    }
    if (first_line.emplace(name.text, name.line).second) vertices.push_back(name.text);
    return {false, name.text, quote(name.text), name.line};
  }

  // [a=1, b=2][c=3]: every value whole, a name without a value refused; one attribute given twice
  // in one statement, or twice on one vertex, with different values is refused.
  void attributes(const Context& c) {
    const std::size_t statement = statements_++;
    do {
      expect("[");
      while (!peek_punct("]")) {
        const Token& key = take_id();
        if (!peek_punct("=")) {
          // Boost would read it as name=true; anything else after it is a syntax error, Boost's to report.
          if (!peek_punct(",") && !peek_punct(";") && !peek_punct("]") && !is_id(peek())) lost();
          throw InputError(at(key.line, c.what), "attribute '" + key.text + "' has no value",
                           "write name=value; a number is written whole, as 0.5 or 1e-3");
        }
        ++pos_;
        if (peek().kind == Token::bad) refuse_bad(peek(), at(peek().line, c.what) + ": " + key.text);
        pending_.push_back({c, &key, &take_id(), subgraphs_ > 0, statement});
        if (peek_punct(",") || peek_punct(";")) ++pos_;
      }
      expect("]");
    } while (peek_punct("["));
  }

  [[noreturn]] void conflict(const Context& c, const Token& key, const Site& now, const Site& before) const {
    throw InputError(at(now.line, c.what),
                     key.text + " '" + now.written + "' contradicts " + key.text + " '" + before.written +
                         "' given on line " + std::to_string(before.line),
                     "give each attribute once, or the same value");
  }

  // Checks one attribute where it is written; returns its site if it is one of hetstruct's.
  std::optional<Site> attribute(const Pending& p) {
    const Context& c = p.context;
    const Token &key = *p.key, &value = *p.value;
    const std::string where = at(key.line, c.what);
    check_attribute(where, c.owner, key.text);
    const auto canonical = check_value(where, key.text, value.text);
    if (!canonical) return std::nullopt;
    const Site site{value.text, *canonical, key.line};
    const auto record = [&](std::map<std::string, Site>& sites) {
      const auto [it, added] = sites.emplace(key.text, site);
      if (!added && it->second.canonical != site.canonical) conflict(c, key, site, it->second);
    };
    if (c.owner == Owner::graph) {
      // Boost keeps the top-level graph's attributes only.
      if (p.in_subgraph)
        throw InputError(where, "'" + key.text + "' is not read inside a subgraph", "give it in the top-level graph");
      record(graph_attributes);
    } else if (!c.vertex.empty()) {
      record(vertex_attributes[c.vertex]);
    }
    return site;
  }
};

// The text Boost reads, its lines unchanged: numerals in exponent form quoted (1e-3 -> "1e-3"),
// HTML strings quoted, `subgraph` written before an anonymous subgraph's '{' (Boost 1.74 wants a
// second '{' after a bare one: `a -> {b c}` and `{rank=same; a; b}` are syntax errors to it), and
// `strict` blanked, so that an edge given twice or a loop is refused (with its line) rather than
// dropped (Boost drops a strict graph's repeated edge with its attributes).
std::string for_boost(const std::string& text, const std::vector<Token>& tokens, const std::vector<std::size_t>& anonymous) {
  std::string out;
  out.reserve(text.size() + 16);
  std::size_t copied = 0;
  for (std::size_t i = 0, next_anonymous = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (next_anonymous < anonymous.size() && anonymous[next_anonymous] == i) {
      ++next_anonymous;
      out.append(text, copied, t.begin - copied);
      out += "subgraph {";
      copied = t.end;
    } else if (t.exponent || t.kind == Token::html) {
      out.append(text, copied, t.begin - copied);
      out += '"' + t.text + '"';
      copied = t.end;
    } else if (i == 0 && is_keyword(t, "strict")) {
      out.append(text, copied, t.begin - copied);
      out.append(t.end - t.begin, ' ');
      copied = t.end;
    }
  }
  out.append(text, copied, std::string::npos);
  return out;
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

}  // namespace

namespace {

// A value or a name may hold a newline ("a\nb", a law split over lines); an error is one line.
std::string one_line(std::string s) {
  for (std::size_t i = 0; (i = s.find_first_of("\r\n", i)) != std::string::npos; i += 2)
    s.replace(i, 1, s[i] == '\n' ? "\\n" : "\\r");
  return s;
}

template <class Read>
auto on_one_line(Read read) {
  try {
    return read();
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.find_first_of("\r\n") == std::string::npos) throw;
    throw InputError(one_line(e.where()), one_line(e.problem()), one_line(e.hint()));
  }
}

CustomDag read_dot_dag(const std::string& text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(source, "the graph is empty", "write a digraph { ... } with one vertex per task");
  auto tokens = tokenize(text);
  Walker walk(tokens, source);
  std::optional<std::size_t> lost_at;  // the line where the walk could not follow the file
  try {
    walk.run();
  } catch (const Walker::Lost& lost) {
    lost_at = lost.line;
  }
  // A walk through the whole file has checked Boost's syntax: the attributes are checked now,
  // so that the tokens (some 20 bytes per byte of the file) are gone before Boost's parse.
  if (!lost_at) walk.check_attributes();
  const std::string boost_text = for_boost(text, tokens, walk.anonymous_braces);
  walk.forget_tokens();
  std::vector<Token>().swap(tokens);
  check_nesting(boost_text, source);  // Boost reads on where the walk stopped
  const std::string syntax_where = lost_at ? source + ":" + std::to_string(*lost_at) : source;
  DotReader dot;
  try {
    if (!boost::detail::graph::read_graphviz_new(boost_text, &dot))
      throw InputError(syntax_where, "not a Graphviz graph");
  } catch (const boost::bad_graphviz_syntax& e) {
    throw InputError(syntax_where, std::string("DOT syntax error: ") + e.what());
  } catch (const boost::graph_exception& e) {
    throw InputError(source, std::string("unreadable DOT graph: ") + e.what(),
                     "use a digraph whose vertices carry processor and law attributes");
  }
  // Boost read what the walk could not follow: refuse rather than guess at the vertices' order.
  if (lost_at)
    throw InputError(syntax_where, "hetstruct cannot follow this DOT statement", "write it in plainer DOT");
  const std::size_t n = dot.names.size();
  if (n == 0) throw InputError(source, "the graph has no vertices");

  // Boost's vertex -> its place in the file.
  std::vector<std::size_t> place(n, n);
  for (std::size_t i = 0; i < walk.vertices.size(); ++i)
    if (const auto it = dot.index.find(walk.vertices[i]); it != dot.index.end()) place[it->second] = i;
  for (std::size_t v = 0; v < n; ++v)
    if (place[v] == n || walk.vertices.size() != n)
      throw InputError(source + ": vertex '" + dot.names[v] + "'", "cannot tell where the file lists it",
                       "name the vertex with a plain identifier or quoted string");

  CustomDag dag;
  dag.tasks.resize(n);
  std::map<std::string, int> law_of_text;  // identical law texts share one law
  const auto law_from = [&](const std::string& where, const std::string& law_text, bool bare_number) {
    const std::string key = (bare_number ? "comm:" : "law:") + law_text;
    const auto it = law_of_text.find(key);
    if (it != law_of_text.end()) return it->second;
    const int index = dag.law_index(bare_number ? parse_time_law(where, law_text) : parse_vertex_law(where, law_text));
    law_of_text.emplace(key, index);
    return index;
  };
  // Every value below was checked where the file writes it; these are the vertices' and edges'.
  int width = 0;
  const auto vertex_where = [&](std::size_t v) {
    return source + ":" + std::to_string(walk.first_line.at(dot.names[v])) + ": vertex '" + dot.names[v] + "'";
  };
  // Unrelated processors: the first vertex in the file with costs sets how many processors every
  // vertex's costs give; a vertex without costs beside it is refused.
  std::size_t first_costs = n;
  for (std::size_t v = 0; v < n; ++v)
    if (dot.vertex_properties[v].count("costs") && (first_costs == n || place[v] < place[first_costs])) first_costs = v;
  std::size_t cost_processors = 0;
  if (first_costs < n) {
    cost_processors = parse_costs(vertex_where(first_costs), dot.vertex_properties[first_costs].at("costs")).size();
    width = static_cast<int>(cost_processors);
    if (dot.graph_properties.count("processor_scale"))
      throw InputError(source + ":" + std::to_string(walk.graph_attributes.count("processor_scale")
                                                         ? walk.graph_attributes.at("processor_scale").line
                                                         : walk.first_line.at(dot.names[first_costs])),
                       "processor_scale does not apply beside costs", "each vertex's costs give its time on each processor");
  }
  for (std::size_t v = 0; v < n; ++v) {
    const auto& props = dot.vertex_properties[v];
    const std::string where = vertex_where(v);
    for (const auto& [key, value] : props) check_attribute(where, Owner::vertex, key);
    CustomTask& t = dag.tasks[place[v]];
    t.name = dot.names[v];
    const auto processor = props.find("processor"), law = props.find("law"), order = props.find("order"),
               cores = props.find("cores"), costs = props.find("costs"), host = props.find("host");
    if (host != props.end()) {  // a platform's host (structures/platform.h: apply_platform resolves it)
      if (processor != props.end()) throw InputError(where, "gives both host and processor", "give one: host=\"id\" or processor=index");
      if (host->second.empty()) throw InputError(where, "has an empty host", "host=\"id\" of a platform host");
      t.host = host->second;
    }
    if (costs != props.end()) {
      // Its law is its processor's entry: build_custom resolves it once the processor is known
      // (this attribute, a mapping file or a schedule).
      if (law != props.end())
        throw InputError(where, "gives both law and costs", "give law= (one law, times its processor's scale) or costs= (a time per processor)");
      for (const auto& cost : parse_costs(where, costs->second)) t.costs.push_back(dag.law_index(cost));
      if (t.costs.size() != cost_processors)
        throw InputError(where,
                         "costs '" + costs->second + "' gives " + std::to_string(t.costs.size()) + " times, but vertex '" +
                             dot.names[first_costs] + "' gives " + std::to_string(cost_processors),
                         "give every vertex one time per processor");
      t.processor = processor == props.end() || processor->second.empty() ? -1 : parse_processor(where, processor->second);
      if (t.processor >= static_cast<int>(cost_processors))
        throw InputError(where, "processor " + processor->second + " is not one of the " + std::to_string(cost_processors) +
                                    " processors its costs give", "number processors 0 to " + std::to_string(cost_processors - 1));
    } else {
      if (cost_processors > 0)
        throw InputError(where, "has no costs, but vertex '" + dot.names[first_costs] + "' gives them",
                         "give every vertex its costs, one time per processor");
      if ((processor == props.end() || processor->second.empty()) && t.host.empty())
        throw InputError(where, "has no processor attribute", "add processor=0 (0-based)");
      if (law == props.end() || law->second.empty()) throw InputError(where, "has no law attribute", "add law=\"u(0,1)\"");
      t.processor = t.host.empty() ? parse_processor(where, processor->second) : -1;
      width = std::max(width, t.processor + 1);
      t.law = law_from(where, law->second, false);
    }
    if (order != props.end()) t.order = parse_order(where, order->second);
    if (cores != props.end()) t.cores = parse_count(where, "cores", cores->second, "cores=1, 2, 4, ... (default 1)");
  }
  // Boost lists the edges of `a -> {c b}` in the order of the names; the file's order is the
  // walk's (a one-port model serves messages ready together in the file's order).
  std::map<std::pair<std::string, std::string>, std::size_t> file_place;
  for (std::size_t i = 0; i < walk.edges.size(); ++i)
    if (const auto [it, added] = file_place.emplace(walk.edges[i], i); !added)
      throw InputError(source + ":" + std::to_string(walk.edge_lines[i]),
                       "the edge '" + walk.edges[i].first + "' -> '" + walk.edges[i].second + "' is given twice, first on line " +
                           std::to_string(walk.edge_lines[it->second]),
                       "give each precedence once");
  std::vector<std::size_t> edge_place;
  for (const auto& e : dot.edges) {
    const auto it = file_place.find({dot.names[e.from], dot.names[e.to]});
    if (it == file_place.end())
      throw InputError(source + ": edge '" + dot.names[e.from] + "' -> '" + dot.names[e.to] + "'",
                       "cannot tell where the file lists it", "write the edge as a plain a -> b");
    edge_place.push_back(it->second);
  }
  std::vector<std::size_t> edge_order(dot.edges.size());
  for (std::size_t i = 0; i < edge_order.size(); ++i) edge_order[i] = i;
  std::stable_sort(edge_order.begin(), edge_order.end(), [&](std::size_t a, std::size_t b) { return edge_place[a] < edge_place[b]; });
  for (const std::size_t i : edge_order) {
    const auto& e = dot.edges[i];
    const std::string where = source + ": edge '" + dot.names[e.from] + "' -> '" + dot.names[e.to] + "'";
    for (const auto& [key, value] : e.properties) check_attribute(where, Owner::edge, key);
    CustomEdge edge{place[e.from], place[e.to], -1};
    if (const auto comm = e.properties.find("comm"); comm != e.properties.end())
      edge.comm_law = law_from(where, comm->second, true);
    if (const auto bytes = e.properties.find("bytes"); bytes != e.properties.end()) {  // with a platform
      if (edge.comm_law >= 0) throw InputError(where, "gives both comm and bytes", "comm= is a time, bytes= a size under --platform: give one");
      edge.comm_law = law_from(where, bytes->second, true);
      edge.bytes = true;
    }
    dag.edges.push_back(edge);
  }
  for (const auto& [key, value] : dot.graph_properties) check_attribute(source, Owner::graph, key);
  const auto graph_where = [&](const char* key) {
    const auto site = walk.graph_attributes.find(key);
    return site == walk.graph_attributes.end() ? source : source + ":" + std::to_string(site->second.line);
  };
  if (const auto scales = dot.graph_properties.find("processor_scale"); scales != dot.graph_properties.end())
    dag.processor_scale = parse_scales(graph_where("processor_scale"), scales->second);
  if (const auto cores = dot.graph_properties.find("processor_cores"); cores != dot.graph_properties.end()) {
    const std::string where = graph_where("processor_cores");
    dag.processor_cores = parse_processor_cores(where, cores->second);
    // Processors beyond the tasks' run nothing: their cores change nothing.
    if (dag.processor_cores.size() > static_cast<std::size_t>(width)) dag.processor_cores.resize(static_cast<std::size_t>(width));
    if (dag.processor_cores.size() != static_cast<std::size_t>(width))
      throw InputError(where,
                       "processor_cores gives " + std::to_string(dag.processor_cores.size()) +
                           " processors, but the tasks use processors 0 to " + std::to_string(width - 1),
                       "give one core count per processor");
  }
  return dag;
}

}  // namespace

CustomDag parse_dot_dag(const std::string& text, const std::string& source) {
  return on_one_line([&] { return read_dot_dag(text, source); });
}

Structure parse_dot(const std::string& text, const std::string& source) {
  return on_one_line([&] {
    CustomDag dag = read_dot_dag(text, source);
    refuse_platform_attributes(dag, source);
    return build_custom(std::move(dag), source);
  });
}

Structure read_dot(const std::string& path) {
  Structure s = parse_dot(read_text_file(path, "graph file"), path);
  s.name = path;
  return s;
}

}  // namespace hetstruct::structures
