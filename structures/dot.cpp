// Custom structures from Graphviz DOT files, read in one pass by the reader's own tokenizer and
// walker, which follow the Graphviz grammar as Boost's reader (read_graphviz_new.cpp, Boost 1.74)
// reads it, so that a file means what it meant when Boost read it.
//
// The walk reads the file line by line: it refuses a numeral glued to letters or a second dot
// (Boost would split 2x into 2 and x) and an attribute without a value (Boost would read true),
// checks every attribute where it is written (FILE:LINE, the attribute and the token), refuses a
// vertex given two values of one attribute, and keeps hetstruct's attributes as Boost hands them
// over: a vertex takes the node defaults of the subgraph where it is first named, then its own; an
// edge its statement's edge defaults, then its own; the graph the top-level graph's. The vertices
// are numbered in the order the file first names them, the edges in the file's order.
//
// Boost's parser is asked only for its verdict on a file the walk cannot follow, or one Boost
// would refuse though the walk reads it (an undirected graph, '--', a port given twice, a name
// beyond ASCII): its syntax error is the message, as it always was. It reads a copy of the text
// with the same lines (for_boost): numerals in exponent form and HTML strings quoted, anonymous
// subgraphs named, `strict` blanked.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

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

// The index of one of hetstruct's attributes in known_attributes, or -1.
int attribute_id(std::string_view name) {
  for (std::size_t i = 0; i < std::size(known_attributes); ++i)
    if (name == known_attributes[i].name) return static_cast<int>(i);
  return -1;
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
  bool wide = false;               // an identifier with bytes beyond ASCII, which Boost's regex may refuse
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool id_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool id_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// Where the numeral starting at `i` ends: Boost's -?(\.[0-9]+|[0-9]+(\.[0-9]*)?), then an exponent
// (which Boost would split off), then, when it is glued to a letter, a digit or a dot (2x, 1.5.5)
// or to a signed numeral (1-2), where Boost would read two tokens where the file shows one, what
// ends a token (`glued`: the token is bad).
std::size_t numeral_end(const std::string& text, std::size_t i, bool& exponent, bool& glued) {
  const std::size_t n = text.size();
  std::size_t k = i + (text[i] == '-' ? 1 : 0);
  while (k < n && is_digit(text[k])) ++k;
  if (k < n && text[k] == '.') ++k;
  while (k < n && is_digit(text[k])) ++k;
  exponent = false;
  if (k < n && (text[k] == 'e' || text[k] == 'E')) {
    std::size_t e = k + 1;
    if (e < n && (text[e] == '+' || text[e] == '-')) ++e;
    if (e < n && is_digit(text[e])) {
      while (e < n && is_digit(text[e])) ++e;
      k = e;
      exponent = true;
    }
  }
  const auto glue = [&](std::size_t at) {
    return at < n && (id_char(static_cast<unsigned char>(text[at])) || text[at] == '.' ||
                      ((text[at] == '-' || text[at] == '+') && at + 1 < n && (is_digit(text[at + 1]) || text[at + 1] == '.')));
  };
  glued = glue(k);
  while (glue(k)) ++k;
  return k;
}

// Boost's tokens one at a time, as the walk asks for them: the file is read once, and no list of its
// tokens is kept (some 20 bytes per byte of the file).
class Lexer {
 public:
  explicit Lexer(const std::string& text) : text_(text) {}

  // The next token, "a" + "b" joined; nothing at the end of the text.
  std::optional<Token> next() {
    std::optional<Token> t = take_raw();
    if (!t || t->kind != Token::quoted) return t;
    while (true) {
      fill_raw(2);
      if (raw_.size() < 2 || raw_[0].kind != Token::punct || raw_[0].text != "+" || raw_[1].kind != Token::quoted) return t;
      t->text += raw_[1].text;
      t->end = raw_[1].end;
      raw_.pop_front();
      raw_.pop_front();
    }
  }

 private:
  const std::string& text_;
  std::size_t i_ = 0, line_ = 1;
  bool done_ = false;
  std::deque<Token> raw_;

  std::optional<Token> take_raw() {
    fill_raw(1);
    if (raw_.empty()) return std::nullopt;
    Token t = std::move(raw_.front());
    raw_.pop_front();
    return t;
  }
  void fill_raw(std::size_t count) {
    while (raw_.size() < count && !done_)
      if (auto t = scan()) raw_.push_back(std::move(*t));
      else done_ = true;
  }

  // The next token of the text (Boost's), or nothing at its end or after an unreadable one.
  std::optional<Token> scan() {
    const std::string& text = text_;
    const std::size_t n = text.size();
    std::size_t& i = i_;
    std::size_t& line = line_;
    std::optional<Token> out;
    const auto advance_to = [&](std::size_t to) {
      for (; i < to && i < n; ++i)
        if (text[i] == '\n') ++line;
    };
    const auto push = [&](Token::Kind kind, std::string s, std::size_t begin, std::size_t at_line) {
      out = Token{kind, std::move(s), at_line, begin, i, false};
    };
    while (i < n && !out) {
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
          i = n;
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
        push(Token::quoted, s, begin, at_line);  // "a" + "b" is one string: next() joins them
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
          i = n;
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
        out->wide = std::any_of(out->text.begin(), out->text.end(),
                                         [](char ch) { return static_cast<unsigned char>(ch) >= 0x80; });
      } else if (is_digit(c) || (c == '.' && is_digit(next)) ||
                 (c == '-' && (is_digit(next) || (next == '.' && i + 2 < n && is_digit(text[i + 2]))))) {
        bool exponent = false, glued = false;
        advance_to(numeral_end(text, i, exponent, glued));
        push(glued ? Token::bad : Token::numeral, text.substr(begin, i - begin), begin, at_line);
        out->exponent = exponent && !glued;
      } else {
        advance_to(i + 1);
        push(Token::punct, std::string(1, c), begin, at_line);
      }
    }
    return out;
  }
};

// Every token of the text (for the copy Boost reads on the error path).
std::vector<Token> tokenize(const std::string& text) {
  std::vector<Token> tokens;
  Lexer lexer(text);
  while (auto t = lexer.next()) tokens.push_back(std::move(*t));
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

// The vertices' names -> their indices: an open-addressing table of (hash, index), one probe a
// cache line, the names themselves kept by the caller (a chained hash map of 10^6 names spends a
// third of the walk on its cache misses).
class NameIndex {
 public:
  // The index of `name` if it is there (`name_of` gives a stored index's name), else `fresh`, added.
  template <class NameOf>
  std::pair<std::size_t, bool> find_or_add(std::string_view name, std::size_t fresh, const NameOf& name_of) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    const std::uint64_t h = std::hash<std::string_view>{}(name) | 1;  // 0 marks an empty slot
    for (std::size_t i = h & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      auto& [hash, index] = slots_[i];
      if (hash == 0) {
        slots_[i] = {h, fresh};
        ++count_;
        return {fresh, true};
      }
      if (hash == h && name_of(index) == name) return {index, false};
    }
  }

 private:
  std::vector<std::pair<std::uint64_t, std::size_t>> slots_;
  std::size_t count_ = 0;
  void grow() {
    std::vector<std::pair<std::uint64_t, std::size_t>> old(std::max<std::size_t>(64, 2 * slots_.size()));
    old.swap(slots_);
    for (const auto& [hash, index] : old)
      if (hash != 0)
        for (std::size_t i = hash & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1))
          if (slots_[i].first == 0) {
            slots_[i] = {hash, index};
            break;
          }
  }
};

struct Site {
  std::string written, canonical;
  std::size_t line = 0;
};

class Walker {
 public:
  Walker(const std::string& text, const std::string& source) : lexer_(text), source_(source) {}

  struct Lost {
    std::size_t line;
  };

  // Throws InputError for a glued numeral, a valueless attribute or deep nesting, Lost where the
  // walk cannot follow the file (Boost then names the syntax error).
  void run() {
    if (peek_keyword("strict")) advance();
    if (!peek_keyword("graph") && !peek_keyword("digraph")) lost();
    if (peek_keyword("graph")) needs_boost = true;  // Boost refuses an undirected graph
    advance();
    if (is_id(peek())) take_id();  // the graph's name
    expect("{");
    statements();
    expect("}");
    if (!at_end()) lost();
  }

  // The first attribute the checks refused, in the file's order. The walk goes on after it, so
  // that a syntax error anywhere in the file (Boost's verdict) comes first, as it always has.
  std::exception_ptr attribute_error;

  // What the file gives a vertex, an edge or the graph: hetstruct's attributes only (the others
  // served their checks), each with the text of its value, as Boost's reader would hand it over
  // (the last one given; of a vertex's own values, which must agree, the first).
  struct Props {
    struct Item {
      int id;             // in known_attributes
      bool own = false;   // set on the vertex itself, not by the node defaults
      std::size_t line = 0;
      std::string value;
    };
    std::vector<Item> items;
    Item* item(int id) {
      for (auto& i : items)
        if (i.id == id) return &i;
      return nullptr;
    }
    void set(int id, const std::string& value, std::size_t line = 0, bool own = false) {
      if (Item* i = item(id)) *i = {id, own, line, value};
      else items.push_back({id, own, line, value});
    }
    const std::string* find(const char* key) const {
      const int id = attribute_id(key);
      for (const auto& i : items)
        if (i.id == id) return &i.value;
      return nullptr;
    }
  };
  struct Vertex {
    std::string name;
    std::size_t line = 0;  // where the file first names it
    Props props;           // the node defaults where it is first named, then its own
  };
  struct Edge {
    std::size_t from = 0, to = 0;  // indices into `vertices`
    std::size_t line = 0;
    std::size_t props = 0;         // index into edge_props: its statement's
  };
  std::deque<Vertex> vertices;  // in the order the file first names them (a deque: names stay put)
  NameIndex vertex_index;
  std::vector<Props> edge_props;  // one per edge statement: the edge defaults, then its own
  Props graph_props;              // the top-level graph's
  // Boost's reader refuses what the walk reads: an undirected graph, '--' in a digraph, a port
  // given twice. The file then goes to Boost for its verdict (its message), as one the walk
  // cannot follow does.
  bool needs_boost = false;
  std::map<std::string, Site> graph_attributes;           // hetstruct's, of the top-level graph
  std::vector<Edge> edges;  // in the file's order
  std::vector<std::size_t> anonymous_braces;  // where the '{' that open a subgraph without `subgraph` begin

 private:
  // What an attribute list belongs to.
  struct Context {
    Owner owner;
    std::string what;    // "vertex 'a'", "edge 'a' -> 'b'", "node defaults", ... ("" for the graph)
    Props* vertex = nullptr;  // a vertex statement's vertex
  };

  Lexer lexer_;
  const std::string& source_;
  std::deque<Token> ahead_;  // the tokens peeked at and not yet taken
  std::size_t last_line_ = 1;  // of the last token the lexer gave
  bool lexer_done_ = false;
  int subgraphs_ = 0;  // how deep in subgraphs the walk is

  void fill(std::size_t count) {
    while (ahead_.size() < count && !lexer_done_)
      if (auto t = lexer_.next()) {
        last_line_ = t->line;
        ahead_.push_back(std::move(*t));
      } else {
        lexer_done_ = true;
      }
  }
  bool at_end() {
    fill(1);
    return ahead_.empty();
  }
  void advance() {
    fill(1);
    if (!ahead_.empty()) ahead_.pop_front();
  }
  const Token& peek(std::size_t ahead = 0) {
    static const Token end{Token::punct, "", 0, 0, 0, false};
    fill(ahead + 1);
    return ahead < ahead_.size() ? ahead_[ahead] : end;
  }
  std::size_t line() {
    fill(1);
    return ahead_.empty() ? last_line_ : ahead_.front().line;
  }
  [[noreturn]] void lost() { throw Lost{line()}; }
  bool peek_punct(const char* p, std::size_t ahead = 0) {
    const Token& t = peek(ahead);
    return t.kind == Token::punct && t.text == p;
  }
  bool peek_keyword(const char* word) { return is_keyword(peek(), word); }
  void expect(const char* p) {
    if (!peek_punct(p)) lost();
    advance();
  }
  // Boost's identifier: a name, a numeral, a quoted or HTML string.
  bool is_id(const Token& t) const {
    if (t.kind == Token::bad) refuse_bad(t, "");
    return (t.kind == Token::id && !is_keyword(t)) || t.kind == Token::numeral || t.kind == Token::quoted ||
           t.kind == Token::html;
  }
  Token take_id() {
    if (!is_id(peek())) lost();
    if (ahead_.front().wide) needs_boost = true;  // Boost's verdict on a name beyond ASCII
    Token t = std::move(ahead_.front());
    ahead_.pop_front();
    return t;
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
      if (at_end()) lost();
      statement();
      if (peek_punct(";")) advance();
    }
  }

  void statement() {
    if (peek_keyword("graph") || peek_keyword("node") || peek_keyword("edge")) {
      const bool node = peek_keyword("node"), edge = peek_keyword("edge");
      advance();
      Subgraph& here = subgraph_[current_];
      if (node) attributes({Owner::vertex, "node defaults"}, &here.node_defaults);
      else if (edge) attributes({Owner::edge, "edge defaults"}, &here.edge_defaults);
      else attributes(graph_context(), subgraphs_ == 0 ? &graph_props : nullptr);
    } else if (is_id(peek()) && peek_punct("=", 1)) {  // a graph attribute: name = value
      const Token key = take_id();
      advance();
      if (peek().kind == Token::bad) refuse_bad(peek(), at(peek().line, graph_context().what) + ": " + key.text);
      const Token value = take_id();
      Sites sites;
      attribute(graph_context(), key, value, subgraphs_ == 0 ? &graph_props : nullptr, sites);
    } else if (peek_keyword("subgraph") || peek_punct("{") || is_id(peek())) {
      const Endpoint first = endpoint();
      if (peek_punct("->") || peek_punct("--")) {
        std::vector<Endpoint> ends{first};
        std::string what = "edge " + first.label;
        for (int steps = 0; peek_punct("->") || peek_punct("--"); ++steps) {
          const std::string arrow = peek().text;
          if (arrow == "--") needs_boost = true;  // Boost: "Using -- in directed graph"
          advance();
          ends.push_back(endpoint());
          if (steps < 3) what += " " + arrow + " " + ends.back().label;
          else if (steps == 3) what += " " + arrow + " ...";  // a long chain is named by its start
        }
        Subgraph& here = subgraph_[current_];
        here.has_edges = true;
        edge_props.push_back(here.edge_defaults);
        for (std::size_t i = 0; i + 1 < ends.size(); ++i) {
          const auto sources = members(ends[i], what), targets = members(ends[i + 1], what);
          for (const std::size_t from : sources)
            for (const std::size_t to : targets) edges.push_back({from, to, ends[i + 1].line, edge_props.size() - 1});
        }
        if (peek_punct("[")) attributes({Owner::edge, what}, &edge_props.back());
      } else {
        subgraph_[current_].members.push_back(first);
        if (!first.subgraph && peek_punct("["))
          attributes({Owner::vertex, "vertex " + first.label, &vertices[first.vertex].props}, &vertices[first.vertex].props);
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
    std::size_t vertex = 0;  // a vertex's index
  };
  struct Subgraph {
    std::vector<Endpoint> members;  // its vertex statements and subgraphs, as Boost lists them
    bool has_edges = false;
    Props node_defaults, edge_defaults;  // as Boost keeps them: a new subgraph starts from its parent's
  };
  std::map<std::string, Subgraph> subgraph_{{"___root___", {}}};
  std::string current_ = "___root___";
  int anonymous_ = 0;

  // The vertices an edge's end stands for, in the file's order (Boost takes them in the order of
  // their names: the caller restores the file's). Boost leaves out of a subgraph the vertices
  // named only in its edge statements, which Graphviz counts: such a subgraph is refused.
  std::vector<std::size_t> members(const Endpoint& end, const std::string& what) {
    if (!end.subgraph) return {end.vertex};
    std::vector<std::size_t> names;
    std::set<std::size_t> seen;
    std::set<std::string> done;
    const auto visit = [&](const auto& self, const std::string& key) -> void {
      if (!done.insert(key).second) return;
      const auto it = subgraph_.find(key);
      if (it == subgraph_.end()) return;
      if (it->second.has_edges)
        throw InputError(at(end.line, what), "a subgraph at an edge's end holds edge statements",
                         "Boost's reader would leave their vertices out; write those edges on their own");
      for (const auto& m : it->second.members) {
        if (m.subgraph) self(self, m.key);
        else if (seen.insert(m.vertex).second) names.push_back(m.vertex);
      }
    };
    visit(visit, end.key);
    return names;
  }

  Context graph_context() const { return {Owner::graph, subgraphs_ > 0 ? "subgraph" : ""}; }

  // A vertex (with its port) or a subgraph, as Boost's parse_endpoint reads it.
  Endpoint endpoint() {
    if (peek_keyword("subgraph") || peek_punct("{")) {
      Endpoint end{true, "", "{...}", peek().line};
      if (peek_punct("{")) anonymous_braces.push_back(peek().begin);
      if (peek_keyword("subgraph")) {
        advance();
        if (is_id(peek())) {
          end.key = take_id().text;
          end.label = "subgraph " + quote(end.key);
        }
      }
      const bool anonymous = end.key.empty();
      if (anonymous) end.key = "___subgraph_" + std::to_string(++anonymous_);
      if (!subgraph_.count(end.key)) {  // Boost: a new subgraph takes its parent's defaults
        Subgraph fresh;
        fresh.node_defaults = subgraph_[current_].node_defaults;
        fresh.edge_defaults = subgraph_[current_].edge_defaults;
        subgraph_.emplace(end.key, std::move(fresh));
      }
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
    const Token name = take_id();
    bool angle = false, location = false;
    while (true) {  // ports: @angle, :location, :location:location, :(x,y)
      if (peek_punct("@")) {
        advance();
        take_id();
        if (std::exchange(angle, true)) needs_boost = true;  // Boost: "Duplicate port angle"
      } else if (peek_punct(":")) {
        advance();
        if (std::exchange(location, true)) needs_boost = true;  // Boost: "Duplicate port location"
        if (peek_punct("(")) {
          advance();
          take_id();
          expect(",");
          take_id();
          expect(")");
        } else {
          take_id();
          if (peek_punct(":")) {
            advance();
            take_id();
          }
        }
      } else {
        break;
      }
    }
    const auto [index, first] =
        vertex_index.find_or_add(name.text, vertices.size(), [&](std::size_t v) -> std::string_view { return vertices[v].name; });
    if (first) vertices.push_back({name.text, name.line, subgraph_[current_].node_defaults});  // the node defaults of where it is
    return {false, name.text, quote(name.text), name.line, index};
  }

  // One statement's attributes: one given twice in it must agree.
  using Sites = std::vector<std::pair<std::string, Site>>;

  // [a=1, b=2][c=3]: every value whole, a name without a value refused; one attribute given twice
  // in one statement, or twice on one vertex, with different values is refused.
  void attributes(const Context& c, Props* target) {
    Sites sites;
    do {
      expect("[");
      while (!peek_punct("]")) {
        const Token key = take_id();
        if (!peek_punct("=")) {
          // Boost would read it as name=true; anything else after it is a syntax error, Boost's to report.
          if (!peek_punct(",") && !peek_punct(";") && !peek_punct("]") && !is_id(peek())) lost();
          throw InputError(at(key.line, c.what), "attribute '" + key.text + "' has no value",
                           "write name=value; a number is written whole, as 0.5 or 1e-3");
        }
        advance();
        if (peek().kind == Token::bad) refuse_bad(peek(), at(peek().line, c.what) + ": " + key.text);
        const Token value = take_id();
        attribute(c, key, value, target, sites);
        if (peek_punct(",") || peek_punct(";")) advance();
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

  // A value of hetstruct's attribute `id` parsed whole (InputError at where()), as its canonical
  // text. Files repeat a few laws and processors over every vertex: those are parsed once (a
  // value that parsed is the same value again; one that did not throws before it is kept).
  std::unordered_map<std::string, std::string> canonical_of_;
  template <class Where>
  std::string canonical(int id, const std::string& value, const Where& where) {
    const std::string key = known_attributes[id].name;
    if (key == "order") return *check_value(where(), key, value);  // one a vertex: not worth keeping
    std::string memo_key(1, static_cast<char>('a' + id));
    memo_key += value;
    if (const auto it = canonical_of_.find(memo_key); it != canonical_of_.end()) return it->second;
    std::string text = *check_value(where(), key, value);
    if (canonical_of_.size() < 4096) canonical_of_.emplace(std::move(memo_key), text);
    return text;
  }

  // Checks one attribute where it is written and hands it to `target` (hetstruct's only). The first
  // refusal is kept in attribute_error, and nothing is checked after it.
  void attribute(const Context& c, const Token& key, const Token& value, Props* target, Sites& sites) {
    if (attribute_error) return;
    const int id = attribute_id(key.text);
    try {
      const auto where = [&] { return at(key.line, c.what); };
      // One of hetstruct's where it belongs passes its name's check.
      if (id < 0 || known_attributes[id].owner != c.owner) check_attribute(where(), c.owner, key.text);
      if (id < 0) return;  // not hetstruct's: it served its check
      const Site site{value.text, canonical(id, value.text, where), key.line};
      bool keep_first = false;  // a vertex's own value given again, the same: the first stands
      if (c.owner == Owner::graph) {
        // Boost keeps the top-level graph's attributes only.
        if (subgraphs_ > 0)
          throw InputError(where(), "'" + key.text + "' is not read inside a subgraph", "give it in the top-level graph");
        const auto [it, added] = graph_attributes.emplace(key.text, site);
        if (!added && it->second.canonical != site.canonical) conflict(c, key, site, it->second);
      } else if (c.vertex) {
        if (const Props::Item* before = c.vertex->item(id); before && before->own) {
          const Site earlier{before->value, canonical(id, before->value, where), before->line};
          if (earlier.canonical != site.canonical) conflict(c, key, site, earlier);
          keep_first = true;
        }
      }
      for (const auto& [name, given] : sites)
        if (name == key.text && given.canonical != site.canonical) conflict(c, key, site, given);
      sites.emplace_back(key.text, site);
      if (target && !keep_first) target->set(id, value.text, key.line, c.vertex != nullptr);
    } catch (const InputError&) {
      attribute_error = std::current_exception();
    }
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
    if (next_anonymous < anonymous.size() && anonymous[next_anonymous] == t.begin) {
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

// Boost's parser, asked only for its verdict on a file the walk cannot follow (or one it reads
// and Boost refuses): its syntax error is the message. Nothing it builds is kept.
class BoostVerdict : public boost::detail::graph::mutate_graph {
 public:
  bool is_directed() const override { return true; }
  void do_add_vertex(const boost::detail::graph::node_t&) override {}
  void do_add_edge(const boost::detail::graph::edge_t&, const boost::detail::graph::node_t&,
                   const boost::detail::graph::node_t&) override {}
  void set_node_property(const boost::detail::graph::id_t&, const boost::detail::graph::node_t&,
                         const boost::detail::graph::id_t&) override {}
  void set_edge_property(const boost::detail::graph::id_t&, const boost::detail::graph::edge_t&,
                         const boost::detail::graph::id_t&) override {}
  void set_graph_property(const boost::detail::graph::id_t&, const boost::detail::graph::id_t&) override {}
  void finish_building_graph() override {}
};

// Throws Boost's syntax error (at `lost_at`'s line when the walk stopped there), or, when Boost
// reads what the walk could not follow, refuses rather than guess at the vertices.
void boost_verdict(const std::string& text, const std::vector<Token>& tokens, const std::vector<std::size_t>& anonymous,
                   const std::optional<std::size_t>& lost_at, const std::string& source) {
  const std::string boost_text = for_boost(text, tokens, anonymous);
  check_nesting(boost_text, source);  // Boost reads on where the walk stopped
  const std::string syntax_where = lost_at ? source + ":" + std::to_string(*lost_at) : source;
  BoostVerdict verdict;
  try {
    if (!boost::detail::graph::read_graphviz_new(boost_text, &verdict))
      throw InputError(syntax_where, "not a Graphviz graph");
  } catch (const boost::bad_graphviz_syntax& e) {
    throw InputError(syntax_where, std::string("DOT syntax error: ") + e.what());
  } catch (const boost::graph_exception& e) {
    throw InputError(source, std::string("unreadable DOT graph: ") + e.what(),
                     "use a digraph whose vertices carry processor and law attributes");
  }
  if (lost_at) throw InputError(syntax_where, "hetstruct cannot follow this DOT statement", "write it in plainer DOT");
}

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

// The task graph from what the walk read: every value was checked where the file writes it;
// these checks are the vertices', the edges' and the graph's as a whole.
class DagBuilder {
 public:
  DagBuilder(const Walker& walk, const std::string& source) : walk_(walk), source_(source) {}

  CustomDag build() {
    const std::size_t n = walk_.vertices.size();
    dag_.tasks.resize(n);
    find_costs();
    read_vertices();
    read_edges();
    read_graph_attributes();
    return std::move(dag_);
  }

 private:
  const Walker& walk_;
  const std::string& source_;
  CustomDag dag_;
  std::map<std::string, int> law_of_text_;  // identical law texts share one law
  int width_ = 0;
  // Unrelated processors: the first vertex in the file with costs sets how many processors every
  // vertex's costs give (none: n).
  std::size_t first_costs_ = 0, cost_processors_ = 0;

  int law_from(const std::string& where, const std::string& law_text, bool bare_number) {
    const std::string key = (bare_number ? "comm:" : "law:") + law_text;
    const auto it = law_of_text_.find(key);
    if (it != law_of_text_.end()) return it->second;
    const int index = dag_.law_index(bare_number ? parse_time_law(where, law_text) : parse_vertex_law(where, law_text));
    law_of_text_.emplace(key, index);
    return index;
  }
  std::string vertex_where(std::size_t v) const {
    return source_ + ":" + std::to_string(walk_.vertices[v].line) + ": vertex '" + walk_.vertices[v].name + "'";
  }

  // A vertex without costs beside one with them is refused (read_vertex).
  void find_costs() {
    const std::size_t n = walk_.vertices.size();
    first_costs_ = n;
    for (std::size_t v = 0; v < n && first_costs_ == n; ++v)
      if (walk_.vertices[v].props.find("costs")) first_costs_ = v;
    if (first_costs_ == n) return;
    cost_processors_ = parse_costs(vertex_where(first_costs_), *walk_.vertices[first_costs_].props.find("costs")).size();
    width_ = static_cast<int>(cost_processors_);
    if (walk_.graph_props.find("processor_scale"))
      throw InputError(source_ + ":" + std::to_string(walk_.graph_attributes.count("processor_scale")
                                                          ? walk_.graph_attributes.at("processor_scale").line
                                                          : walk_.vertices[first_costs_].line),
                       "processor_scale does not apply beside costs", "each vertex's costs give its time on each processor");
  }

  void read_vertices() {
    const std::size_t n = walk_.vertices.size();
    try {
      for (std::size_t v = 0; v < n; ++v) read_vertex(v);
    } catch (const InputError&) {
      // The error names the first vertex at fault in the byte order of the names (Boost's order,
      // in which this reader has always reported), not in the file's.
      std::vector<std::size_t> by_name(n);
      std::iota(by_name.begin(), by_name.end(), std::size_t{0});
      std::sort(by_name.begin(), by_name.end(), [&](std::size_t a, std::size_t b) { return walk_.vertices[a].name < walk_.vertices[b].name; });
      for (const std::size_t v : by_name) read_vertex(v);
      throw;
    }
  }

  // One vertex's task (InputError naming it); run again on the error path, so it only sets.
  void read_vertex(std::size_t v) {
  const auto& props = walk_.vertices[v].props;
  const std::string& name = walk_.vertices[v].name;
  CustomTask& t = dag_.tasks[v];
  t.name = name;
  const std::string *processor = props.find("processor"), *law = props.find("law"), *order = props.find("order"),
                    *cores = props.find("cores"), *costs = props.find("costs"), *host = props.find("host");
  const auto where = [&] { return vertex_where(v); };
  if (host) {  // a platform's host (structures/platform.h: apply_platform resolves it)
    if (processor) throw InputError(where(), "gives both host and processor", "give one: host=\"id\" or processor=index");
    if (host->empty()) throw InputError(where(), "has an empty host", "host=\"id\" of a platform host");
    t.host = *host;
  }
  if (costs) {
    // Its law is its processor's entry: build_custom resolves it once the processor is known
    // (this attribute, a mapping file or a schedule).
    if (law)
      throw InputError(where(), "gives both law and costs", "give law= (one law, times its processor's scale) or costs= (a time per processor)");
    t.costs.clear();
    for (const auto& cost : parse_costs(where(), *costs)) t.costs.push_back(dag_.law_index(cost));
    if (t.costs.size() != cost_processors_)
      throw InputError(where(),
                       "costs '" + *costs + "' gives " + std::to_string(t.costs.size()) + " times, but vertex '" +
                           walk_.vertices[first_costs_].name + "' gives " + std::to_string(cost_processors_),
                       "give every vertex one time per processor");
    t.processor = !processor || processor->empty() ? -1 : parse_processor(where(), *processor);
    if (t.processor >= static_cast<int>(cost_processors_))
      throw InputError(where(), "processor " + *processor + " is not one of the " + std::to_string(cost_processors_) +
                                    " processors its costs give", "number processors 0 to " + std::to_string(cost_processors_ - 1));
  } else {
    if (cost_processors_ > 0)
      throw InputError(where(), "has no costs, but vertex '" + walk_.vertices[first_costs_].name + "' gives them",
                       "give every vertex its costs, one time per processor");
    if ((!processor || processor->empty()) && t.host.empty())
      throw InputError(where(), "has no processor attribute", "add processor=0 (0-based)");
    if (!law || law->empty()) throw InputError(where(), "has no law attribute", "add law=\"u(0,1)\"");
    t.processor = t.host.empty() ? parse_processor(where(), *processor) : -1;
    width_ = std::max(width_, t.processor + 1);
    t.law = law_from(where(), *law, false);
  }
  if (order) t.order = parse_order(where(), *order);
  if (cores) t.cores = parse_count(where(), "cores", *cores, "cores=1, 2, 4, ... (default 1)");
  }

  // The edges in the file's order (a one-port model serves messages ready together in this order).
  void read_edges() {
    std::unordered_map<std::uint64_t, std::size_t> first_place;
    first_place.reserve(walk_.edges.size());
    for (std::size_t i = 0; i < walk_.edges.size(); ++i) {
      const auto& e = walk_.edges[i];
      const auto [it, added] = first_place.emplace((std::uint64_t{e.from} << 32) | e.to, i);
      if (!added)
        throw InputError(source_ + ":" + std::to_string(e.line),
                         "the edge '" + walk_.vertices[e.from].name + "' -> '" + walk_.vertices[e.to].name +
                             "' is given twice, first on line " + std::to_string(walk_.edges[it->second].line),
                         "give each precedence once");
    }
    dag_.edges.reserve(walk_.edges.size());
    for (const auto& e : walk_.edges) {
      CustomEdge edge{e.from, e.to, -1};
      const auto where = [&] { return source_ + ": edge '" + walk_.vertices[e.from].name + "' -> '" + walk_.vertices[e.to].name + "'"; };
      if (const std::string* comm = walk_.edge_props[e.props].find("comm")) edge.comm_law = law_from(where(), *comm, true);
      if (const std::string* bytes = walk_.edge_props[e.props].find("bytes")) {  // with a platform
        if (edge.comm_law >= 0) throw InputError(where(), "gives both comm and bytes", "comm= is a time, bytes= a size under --platform: give one");
        edge.comm_law = law_from(where(), *bytes, true);
        edge.bytes = true;
      }
      dag_.edges.push_back(edge);
    }
  }

  void read_graph_attributes() {
    const auto graph_where = [&](const char* key) {
      const auto site = walk_.graph_attributes.find(key);
      return site == walk_.graph_attributes.end() ? source_ : source_ + ":" + std::to_string(site->second.line);
    };
    if (const std::string* scales = walk_.graph_props.find("processor_scale"))
      dag_.processor_scale = parse_scales(graph_where("processor_scale"), *scales);
    if (const std::string* cores = walk_.graph_props.find("processor_cores")) {
      const std::string where = graph_where("processor_cores");
      dag_.processor_cores = parse_processor_cores(where, *cores);
      // Processors beyond the tasks' run nothing: their cores change nothing.
      const auto width = static_cast<std::size_t>(width_);
      if (dag_.processor_cores.size() > width) dag_.processor_cores.resize(width);
      if (dag_.processor_cores.size() != width)
        throw InputError(where,
                         "processor_cores gives " + std::to_string(dag_.processor_cores.size()) +
                             " processors, but the tasks use processors 0 to " + std::to_string(width_ - 1),
                         "give one core count per processor");
    }
  }
};

// One pass: the walk reads the file and every attribute as Boost's reader would hand it over
// (node and edge defaults where a vertex is first named or an edge written, the top-level graph's
// attributes); Boost is asked only for the syntax error of a file the walk cannot follow.
CustomDag read_dot_dag(const std::string& text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(source, "the graph is empty", "write a digraph { ... } with one vertex per task");
  std::optional<std::size_t> lost_at;  // the line where the walk could not follow the file
  Walker walk(text, source);
  try {
    walk.run();
  } catch (const Walker::Lost& lost) {
    lost_at = lost.line;
  }
  // A syntax error first (Boost's), then the first attribute refused, then what Boost would refuse.
  if (lost_at) boost_verdict(text, tokenize(text), walk.anonymous_braces, lost_at, source);
  if (walk.attribute_error) std::rethrow_exception(walk.attribute_error);
  if (walk.needs_boost) boost_verdict(text, tokenize(text), walk.anonymous_braces, lost_at, source);
  if (walk.vertices.empty()) throw InputError(source, "the graph has no vertices");
  return DagBuilder(walk, source).build();
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
