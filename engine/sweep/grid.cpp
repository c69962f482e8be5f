#include "engine/sweep/grid.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <unordered_set>

#include "distributions/format.h"
#include "distributions/input_error.h"
#include "distributions/law.h"
#include "distributions/law_syntax.h"
#include "engine/driver/resources.h"
#include "structures/structure.h"
#include "structures/task_graphs.h"

namespace hetstruct::engine {

namespace {

// Shortest exact text; empty for NaN (as the CSV writes an undefined number).
std::string number_text(double x) { return std::isnan(x) ? "" : distributions::format_exact(x); }

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

long long parse_integer(const std::string& option, const std::string& text) {
  long long v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw InputError(option, "'" + text + "' is not a whole number");
  return v;
}

std::vector<std::string> split_range(const std::string& option, const std::string& item) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto colon = item.find(':', start);
    parts.push_back(trim(item.substr(start, colon == std::string::npos ? std::string::npos : colon - start)));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (parts.size() > 3) throw InputError(option, "range '" + item + "': give start:stop or start:stop:step");
  for (const auto& p : parts)
    if (p.empty()) throw InputError(option, "range '" + item + "' has an empty bound", "give start:stop:step");
  return parts;
}

void check_limit(const std::string& option, const std::string& item, long double count, std::uint64_t limit) {
  if (count > static_cast<long double>(limit))
    throw InputError(option, "range '" + item + "' has more than " + std::to_string(limit) + " values",
                     "raise max_configs");
}

// A plain decimal "-12.345": its digits as an integer and its number of decimals.
bool plain_decimal(const std::string& s, long long& digits, int& decimals) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  long long v = 0;
  int d = -1, count = 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i) {
    if (s[i] == '.') {
      if (d >= 0) return false;
      d = 0;
      continue;
    }
    if (s[i] < '0' || s[i] > '9') return false;
    if (++count > 15) return false;
    v = v * 10 + (s[i] - '0');
    if (d >= 0) ++d;
  }
  digits = negative ? -v : v;
  decimals = d < 0 ? 0 : d;
  return true;
}

// A set: checked value by value in a list, 10^6 values (the default limit of configurations) took an hour.
void add_unique(const std::string& option, std::unordered_set<std::string>& seen_text, const std::string& text) {
  if (!seen_text.insert(text).second) throw InputError(option, "the value " + text + " appears twice");
}

}  // namespace

std::vector<std::string> split_list(const std::string& option, const std::string& text) {
  std::vector<std::string> items;
  // The law syntax's rules: a comma or ')' inside emp("a,b).txt") does not end an item.
  for (const auto& item : distributions::split_outside_laws(text, ',')) items.push_back(trim(item));
  if (items.size() == 1 && items[0].empty()) throw InputError(option, "empty list", "give a value, a list or a range");
  for (const auto& item : items)
    if (item.empty()) throw InputError(option, "empty value in the list '" + text + "'");
  return items;
}

std::vector<long long> expand_integers(const std::string& option, const std::string& text, std::uint64_t limit) {
  std::vector<long long> values;
  std::unordered_set<std::string> seen;
  for (const auto& item : split_list(option, text)) {
    if (item.find(':') == std::string::npos) {
      const long long v = parse_integer(option, item);
      add_unique(option, seen, std::to_string(v));
      values.push_back(v);
      continue;
    }
    const auto parts = split_range(option, item);
    if (parts.size() < 2) throw InputError(option, "range '" + item + "': give start:stop[:step]");
    const long long lo = parse_integer(option, parts[0]), hi = parse_integer(option, parts[1]);
    const long long step = parts.size() == 3 ? parse_integer(option, parts[2]) : 1;
    if (step == 0) throw InputError(option, "range '" + item + "' has a step of 0");
    if (step < 0) throw InputError(option, "range '" + item + "' has a negative step", "give start <= stop and a step > 0");
    if (lo > hi) throw InputError(option, "range '" + item + "' is inverted (start > stop)");
    const long double count = (static_cast<long double>(hi) - lo) / step + 1;
    check_limit(option, item, count, limit);
    // In unsigned arithmetic: stop - start can exceed LLONG_MAX (-1:9223372036854775807:...).
    const auto start = static_cast<unsigned long long>(lo), stride = static_cast<unsigned long long>(step);
    const unsigned long long n = (static_cast<unsigned long long>(hi) - start) / stride + 1;  // <= limit here
    for (unsigned long long k = 0; k < n; ++k) {
      const auto v = static_cast<long long>(start + k * stride);  // in [lo, hi]
      add_unique(option, seen, std::to_string(v));
      values.push_back(v);
    }
  }
  if (values.size() > limit) throw InputError(option, "more than " + std::to_string(limit) + " values", "raise max_configs");
  return values;
}

std::vector<double> expand_numbers(const std::string& option, const std::string& text, std::uint64_t limit) {
  std::vector<double> values;
  std::unordered_set<std::string> seen;
  auto add = [&](double v) {
    v += 0.0;  // -0 is 0: one value, printed "0"
    add_unique(option, seen, number_text(v));
    values.push_back(v);
  };
  for (const auto& item : split_list(option, text)) {
    if (item.find(':') == std::string::npos) {
      add(distributions::parse_number(item, option));
      continue;
    }
    const auto parts = split_range(option, item);
    if (parts.size() < 2) throw InputError(option, "range '" + item + "': give start:stop[:step]");
    const double lo = distributions::parse_number(parts[0], option);
    const double hi = distributions::parse_number(parts[1], option);
    const double step = parts.size() == 3 ? distributions::parse_number(parts[2], option) : 1.0;
    if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(step))
      throw InputError(option, "range '" + item + "' has a bound that is not finite");
    if (step == 0.0) throw InputError(option, "range '" + item + "' has a step of 0");
    if (step < 0.0) throw InputError(option, "range '" + item + "' has a negative step", "give start <= stop and a step > 0");
    if (lo > hi) throw InputError(option, "range '" + item + "' is inverted (start > stop)");
    const double q = (hi - lo) / step;
    check_limit(option, item, static_cast<long double>(q) + 1, limit);

    // Plain decimals: exact integer arithmetic in units of 10^-d, one rounding per value.
    long long li = 0, hi_i = 0, si = 0;
    int dl = 0, dh = 0, ds = 0;
    const std::string step_text = parts.size() == 3 ? parts[2] : "1";
    if (plain_decimal(parts[0], li, dl) && plain_decimal(parts[1], hi_i, dh) && plain_decimal(step_text, si, ds)) {
      const int d = std::max({dl, dh, ds});
      auto scale = [d](long long v, int dv) {
        for (int i = dv; i < d; ++i) v *= 10;
        return v;
      };
      const long double bound = std::max({std::fabs(static_cast<double>(li)), std::fabs(static_cast<double>(hi_i)),
                                          std::fabs(static_cast<double>(si))}) *
                                std::pow(10.0L, d);
      if (d <= 15 && bound < 9.0e15L) {
        const long long L = scale(li, dl), H = scale(hi_i, dh), S = scale(si, ds);
        const double denom = std::pow(10.0, d);  // exact for d <= 22
        for (long long k = 0; L + k * S <= H; ++k) add(static_cast<double>(L + k * S) / denom);
        continue;
      }
    }
    // Otherwise start + k*step, the end included within a relative 1e-9.
    // (The allowance stays below one step; a last value past the stop is the stop; the start stays
    // the start: 0:1e-10 is {0}, not {1e-10}.)
    const auto last = static_cast<long long>(std::floor(q + std::min(0.5, 1e-9 * std::max(1.0, std::fabs(q)))));
    for (long long k = 0; k <= last; ++k) {
      double v = lo + static_cast<double>(k) * step;
      if (k == last && k > 0 && (v > hi || std::fabs(v - hi) <= 1e-9 * std::max(std::fabs(hi), std::fabs(step))))
        v = hi;
      add(v);
    }
  }
  if (values.size() > limit) throw InputError(option, "more than " + std::to_string(limit) + " values", "raise max_configs");
  return values;
}

// ---- the grid --------------------------------------------------------------------------------

std::string SweepConfig::column(std::size_t dim) const {
  switch (dim) {
    case SweepDim::structure: return structure;
    case SweepDim::law: return law;
    case SweepDim::fast_law: return fast_law;
    case SweepDim::n: return n ? std::to_string(*n) : "";
    case SweepDim::m: return std::to_string(m);
    case SweepDim::a: return a.text;
    case SweepDim::levels: return levels ? std::to_string(*levels) : "";
    case SweepDim::comm: return comm.text;
    case SweepDim::protocol: return protocol;
    case SweepDim::policy: return policy ? to_string(*policy) : "";
    case SweepDim::exchange: return exchange ? to_string(*exchange) : "";
  }
  throw std::out_of_range("SweepConfig::column: no dimension " + std::to_string(dim));
}

SweepColumns SweepConfig::columns() const {
  SweepColumns c;
  for (std::size_t d = 0; d < SweepDim::count; ++d) c[d] = column(d);
  return c;
}

void SweepConfig::set(std::size_t dim, const std::string& v) {
  // Canonical values only (dimension_values checked the user's texts): whole numbers in int range,
  // shortest exact decimals, policy and exchange names.
  const auto whole = [&v] { return v.empty() ? std::nullopt : std::optional<int>(std::stoi(v)); };
  const auto number = [&v] {
    double x = 0.0;
    std::from_chars(v.data(), v.data() + v.size(), x);
    return SweepNumber{x, v};
  };
  switch (dim) {
    case SweepDim::structure: structure = v; return;
    case SweepDim::law: law = v; return;
    case SweepDim::fast_law: fast_law = v; return;
    case SweepDim::n: n = whole(); return;
    case SweepDim::m: m = v.empty() ? 0 : std::stoi(v); return;
    case SweepDim::a: a = number(); return;
    case SweepDim::levels: levels = whole(); return;
    case SweepDim::comm: comm = number(); return;
    case SweepDim::protocol: protocol = v; return;
    case SweepDim::policy: policy = v.empty() ? std::nullopt : std::optional(parse_policy(v)); return;
    case SweepDim::exchange: exchange = v.empty() ? std::nullopt : std::optional(parse_exchange(v)); return;
  }
  throw std::out_of_range("SweepConfig::set: no dimension " + std::to_string(dim));
}

double SweepConfig::number(std::size_t dim) const {
  const auto none = [dim]() -> double {
    throw InputError("", "column " + sweep_dimensions[dim] + " has no value");
  };
  switch (dim) {
    case SweepDim::n: return n ? *n : none();
    case SweepDim::m: return m;
    case SweepDim::a: return a.text.empty() ? none() : a.value;
    case SweepDim::levels: return levels ? *levels : none();
    case SweepDim::comm: return comm.text.empty() ? none() : comm.value;
    default: return none();
  }
}

std::string config_key(const SweepColumns& c) {
  std::string k;
  for (const auto& f : c) k += f + '\x1f';
  return k;
}

std::string config_key(const SweepConfig& c) { return config_key(c.columns()); }

long double SweepGrid::product() const {
  long double p = 1;
  for (const auto& v : values) p *= v.size();
  return p;
}

std::uint64_t SweepGrid::size() const {
  std::uint64_t s = 1;
  for (const auto& v : values) s *= v.size();
  return s;
}

SweepConfig SweepGrid::at(std::uint64_t index) const {
  SweepConfig c;
  for (std::size_t d = SweepDim::count; d-- > 0;) {
    c.set(d, values[d][index % values[d].size()]);
    index /= values[d].size();
  }
  c.slowdown = slowdown;
  c.machine_slowdown = machine_slowdown;
  return c;
}

std::vector<std::string> dimension_values(std::size_t d, const std::vector<std::string>& texts, std::uint64_t limit) {
  const std::string parameter = sweep_parameters.at(d);
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  auto add = [&](const std::string& v) {
    if (!seen.insert(v).second) throw InputError(parameter, "the value " + v + " appears twice");
    out.push_back(v);
  };
  for (const auto& text : texts) {
    switch (d) {
      case SweepDim::n:
      case SweepDim::m:
      case SweepDim::levels:
        for (const long long v : expand_integers(parameter, text, limit)) {
          if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
            throw InputError(parameter, std::to_string(v) + " is out of range");
          add(std::to_string(v));
        }
        break;
      case SweepDim::a:
      case SweepDim::comm:
        for (const double v : expand_numbers(parameter, text, limit)) add(number_text(v));
        break;
      case SweepDim::policy:
        for (const auto& v : split_list(parameter, text)) add(v == "default" ? "" : to_string(parse_policy(v)));
        break;
      case SweepDim::exchange:
        for (const auto& v : split_list(parameter, text)) add(v == "default" ? "" : to_string(parse_exchange(v)));
        break;
      default:
        for (const auto& v : split_list(parameter, text)) add(v == "default" ? "" : v);
    }
    if (out.size() > limit) throw InputError(parameter, "more than " + std::to_string(limit) + " values", "raise max_configs");
  }
  return out;
}

SweepGrid make_grid(const std::array<std::vector<std::string>, SweepDim::count>& texts, std::uint64_t limit) {
  static const std::array<const char*, SweepDim::count> defaults = {"", "uniform", "", "", "0", "1/2", "1000", "0", "", "", "sequential"};
  SweepGrid grid;
  for (std::size_t d = 0; d < SweepDim::count; ++d) {
    if (texts[d].empty() && std::string(defaults[d]).empty()) grid.values[d] = {""};
    else grid.values[d] = dimension_values(d, texts[d].empty() ? std::vector<std::string>{defaults[d]} : texts[d], limit);
  }
  for (const auto& v : grid.values[SweepDim::structure])
    if (v.empty()) throw InputError("structure", "empty value");
  return grid;
}

std::vector<SweepGrid> make_grids(const std::array<std::vector<std::string>, SweepDim::count>& texts,
                                  const std::vector<std::string>& graphs, const std::vector<std::string>& ports,
                                  std::uint64_t limit, const SweepSlowdowns& slowdowns) {
  // Checked once here, not per configuration: the laws parse (parse_law_of, parse_slowdown) and
  // draw no negative factor (as compile() refuses them). A list of one law per processor is checked
  // against each configuration's width when it compiles.
  std::vector<std::pair<const char*, distributions::Law>> laws;
  if (!slowdowns.machine.empty()) laws.emplace_back("machine_slowdown", parse_law_of("machine_slowdown", slowdowns.machine).value);
  if (!slowdowns.processor.empty())
    for (auto& law : parse_slowdown(slowdowns.processor).value) laws.emplace_back("slowdown", std::move(law));
  for (const auto& [parameter, law] : laws)
    if (law.negative_probability() > 0.0)
      throw InputError(parameter, "the law " + law.to_string() + " draws a negative factor",
                       "a slowdown factor must be >= 0: give a law whose values are >= 0 (c, u(a,b) with a >= 0, "
                       "tn, gamma, lognormal)");
  const bool structures = !texts[SweepDim::structure].empty();
  if (!structures && graphs.empty())
    throw InputError("structure", "missing", "give a structure (sync, or a list such as sync,nn,ms) or a graph");
  // The protocol column is a graph's port model, so the structures' protocols do nothing to it.
  const auto graph_option = [](std::size_t d) { return graph_column(d) && d != SweepDim::protocol; };
  if (!structures)
    for (std::size_t d = 0; d < SweepDim::count; ++d)
      if (!graph_option(d) && !texts[d].empty())
        throw InputError(sweep_parameters[d], "has no effect on a graph",
                         "a graph's width, laws and levels are its file's, and it communicates by its port model; "
                         "vary fast_count, scale, comm_cost or port");
  if (graphs.empty() && !ports.empty()) throw InputError("port", "applies to a graph only", "give a graph file");
  std::vector<SweepGrid> grids;
  if (structures) grids.push_back(make_grid(texts, limit));
  if (!graphs.empty()) {
    std::array<std::vector<std::string>, SweepDim::count> graph_texts;
    for (std::size_t d = 0; d < SweepDim::count; ++d)
      if (graph_option(d) && d != SweepDim::structure) graph_texts[d] = texts[d];
    graph_texts[SweepDim::protocol] = ports;
    for (const auto& text : graphs)
      for (const auto& item : split_list("graph", text))
        for (auto& path : structures::expand_graph_paths(item)) graph_texts[SweepDim::structure].push_back(std::move(path));
    grids.push_back(make_grid(graph_texts, limit));
  }
  for (auto& grid : grids) {
    grid.slowdown = slowdowns.processor;
    grid.machine_slowdown = slowdowns.machine;
  }
  long double product = 0;
  for (const auto& grid : grids) product += grid.product();
  if (product > static_cast<long double>(limit)) {
    char count[64];
    std::snprintf(count, sizeof count, "%.0Lf", product);
    throw InputError("sweep",
                     std::string("the grid has ") + count + " configurations, more than max_configs " + std::to_string(limit),
                     "raise max_configs");
  }
  return grids;
}

bool is_graph(const std::string& structure) { return structures::has_graph_extension(structure); }

bool graph_column(std::size_t dim) {
  return dim == SweepDim::structure || dim == SweepDim::m || dim == SweepDim::a || dim == SweepDim::comm ||
         dim == SweepDim::protocol;
}

SweepPort parse_sweep_port(const std::string& value) {
  if (value.empty()) return {};
  try {
    const SpelledPort spelled = parse_port_spelling(value);
    return {spelled.port, spelled.overlap};
  } catch (const InputError&) {  // the sweep's own hint: it lists the overlap spellings
    throw InputError("port", "unknown port model '" + value + "'",
                     "choose " + port_names(", ", " or ", true));
  }
}

std::string sweep_port_value(std::optional<Port> port, bool overlap) {
  if (!port) return "";
  return port_spelling(*port, overlap);
}

GraphSettings graph_settings(ModelTexts texts) {
  texts.set("graph", "every-graph.dot");  // parsed as a graph's (no file is read here: each configuration names its own)
  const Model m = parse_model(texts);
  GraphSettings g;
  g.task_graph = m.task_graph;
  g.processor_scales = m.processor_scales;
  g.processor_cores = m.processor_cores;
  structures::validate(g.task_graph.law);
  structures::validate_bandwidth(g.task_graph.bandwidth);
  return g;
}

Model to_model(const SweepConfig& c, const GraphSettings& graph) {
  // The configuration's values as the model parser's texts (engine/simulate/model.h parse_model, the
  // command line's and Python's parser): every column is given, so nothing is refused for doing
  // nothing (what ran is Entry::ran's to say).
  ModelTexts t;
  t.refuse_unused = false;
  const bool is_file = is_graph(c.structure);
  if (is_file) {
    if (c.n) throw InputError("width", "a graph's width is its file's", "leave n out of a graph's sweep");
    t.set("graph", c.structure);
    const SweepPort port = parse_sweep_port(c.protocol);
    if (port.port) t.set("port", to_string(*port.port));
    t.set("overlap", port.overlap ? "true" : "false");
  } else {
    t.set("structure", c.structure);
    if (!c.n) throw InputError("width", "missing", "give n");
    if (!c.levels) throw InputError("levels", "missing", "give levels");
    t.set("width", std::to_string(*c.n)).set("levels", std::to_string(*c.levels)).set("law", c.law).set("fast_law", c.fast_law);
    t.set("protocol", c.protocol);
    if (c.exchange) t.set("exchange", to_string(*c.exchange));
  }
  t.set("fast_count", std::to_string(c.m)).set("scale", c.a.text).set("comm_cost", c.comm.text);
  if (c.policy) t.set("policy", to_string(*c.policy));
  if (!c.slowdown.empty()) t.set("slowdown", c.slowdown);
  if (!c.machine_slowdown.empty()) t.set("machine_slowdown", c.machine_slowdown);
  t.set("memory_check", "false");  // checked once for the grid (check_grid_memory)
  Model m = parse_model(t);
  if (is_file) {  // the sweep's settings of every graph, already typed
    m.task_graph = graph.task_graph;
    m.processor_scales = graph.wilson_machine ? std::vector<double>{} : graph.processor_scales;
    m.processor_cores = graph.processor_cores;
    m.wilson_machine = graph.wilson_machine;
    m.graph_reads = graph.reads;
  }
  return m;
}

std::string describe(const SweepColumns& c) {
  std::string s;
  for (std::size_t d = 0; d < SweepDim::count; ++d) {
    if (c[d].empty()) continue;
    s += (s.empty() ? "" : " ") + sweep_dimensions[d] + "=" + c[d];
  }
  return s;
}

std::string describe(const SweepConfig& c) { return describe(c.columns()); }

// One configuration at a time is in memory: the widest decides (engine/driver/resources.h).
void check_grid_memory(const SweepGrid& grid) {
  long long widest = 0;
  for (const auto& v : grid.values[SweepDim::n])
    if (!v.empty()) widest = std::max(widest, std::stoll(v));
  check_model_memory(static_cast<std::uint64_t>(widest), 0, "width", "the sweep's " + std::to_string(widest) + " processors");
}

namespace {

// ---- comparisons -------------------------------------------------------------------------------

constexpr std::array<std::size_t, 5> numeric_dims = {SweepDim::n, SweepDim::m, SweepDim::a, SweepDim::levels, SweepDim::comm};

bool is_numeric(std::size_t d) { return std::find(numeric_dims.begin(), numeric_dims.end(), d) != numeric_dims.end(); }

bool is_integer_dim(std::size_t d) { return d == SweepDim::n || d == SweepDim::m || d == SweepDim::levels; }

// A column's value in a configuration, as a number.
double column_value(const SweepConfig& c, int column) { return c.number(static_cast<std::size_t>(column)); }

// The canonical text of a value of numeric dimension `d` (what the grid's CSV holds); `what`
// names the value in the error.
std::string canonical_number(std::size_t d, double v, const std::string& what) {
  if (!std::isfinite(v)) throw InputError("", what + " = " + number_text(v) + " is not a finite number");
  v += 0.0;  // -0 -> 0
  if (!is_integer_dim(d)) return number_text(v);
  if (v != std::floor(v)) throw InputError("", what + " = " + number_text(v) + " is not a whole number");
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    throw InputError("", what + " = " + number_text(v) + " is out of range");
  return std::to_string(static_cast<long long>(v));
}

class ExpressionParser {
 public:
  ExpressionParser(const std::string& where, const std::string& text) : where_(where), text_(text) {}

  template <class Op>
  void parse(std::vector<Op>& program, bool& constant) {
    emit_ = [&](char kind, double value, int column) {
      program.push_back(Op{kind, value, column});
      if (kind == 'c') constant = false;
    };
    expression();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
  }

 private:
  static constexpr int max_depth = 100;  // nesting by recursion: bounded, like the law parser's

  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(where_,
                     "expression '" + text_ + "': " + problem +
                         (pos_ < text_.size() ? " at position " + std::to_string(pos_) : " at the end"),
                     "numbers, the columns n, m, a, levels, comm, + - * / and parentheses");
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  // expression := term (('+' | '-') term)*
  void expression() {
    term();
    for (;;) {
      if (accept('+')) term(), emit_('+', 0, 0);
      else if (accept('-')) term(), emit_('-', 0, 0);
      else return;
    }
  }
  // term := unary (('*' | '/') unary)*
  void term() {
    unary();
    for (;;) {
      if (accept('*')) unary(), emit_('*', 0, 0);
      else if (accept('/')) unary(), emit_('/', 0, 0);
      else return;
    }
  }
  // unary := ('-' | '+') unary | primary
  void unary() {
    if (++depth_ > max_depth) fail("nested more than " + std::to_string(max_depth) + " deep");
    if (accept('-')) unary(), emit_('~', 0, 0);
    else if (accept('+')) unary();
    else primary();
    --depth_;
  }
  // primary := number | column | '(' expression ')'
  void primary() {
    skip_space();
    if (accept('(')) {
      expression();
      if (!accept(')')) fail("expected ')'");
      return;
    }
    const char c = pos_ < text_.size() ? text_[pos_] : '\0';
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      double v = 0.0;
      const auto r = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v, std::chars_format::general);
      if (r.ec == std::errc::result_out_of_range) fail("number out of range");
      if (r.ec != std::errc()) fail("not a number");
      pos_ = static_cast<std::size_t>(r.ptr - text_.data());
      emit_('#', v, 0);
      return;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
      const std::string name = text_.substr(start, pos_ - start);
      for (const std::size_t d : numeric_dims)
        if (sweep_dimensions[d] == name) return emit_('c', 0, d);
      pos_ = start;
      fail("unknown column '" + name + "'");
    }
    fail("expected a number, a column or '('");
  }

  const std::string& where_;
  const std::string& text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::function<void(char, double, int)> emit_;
};

}  // namespace

NumericExpression::NumericExpression(const std::string& where, const std::string& text) {
  ExpressionParser(where, text).parse(program_, constant_);
  for (const char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) text_ += c;
}

double NumericExpression::evaluate(const SweepConfig& c) const {
  std::vector<double> stack;
  stack.reserve(program_.size());
  for (const Op& op : program_) {
    if (op.kind == '#') {
      stack.push_back(op.value);
    } else if (op.kind == 'c') {
      stack.push_back(column_value(c, op.column));
    } else if (op.kind == '~') {
      stack.back() = -stack.back();
    } else {
      const double y = stack.back();
      stack.pop_back();
      double& x = stack.back();
      switch (op.kind) {
        case '+': x += y; break;
        case '-': x -= y; break;
        case '*': x *= y; break;
        default: x /= y; break;
      }
    }
  }
  return stack.back();
}

bool NumericExpression::reads(std::size_t dim) const {
  return std::any_of(program_.begin(), program_.end(),
                     [dim](const Op& op) { return op.kind == 'c' && static_cast<std::size_t>(op.column) == dim; });
}

Comparison::Comparison(const std::string& text) {
  if (trim(text).empty()) throw InputError("compare_to", "empty comparison", "give OPTION=VALUE, for example m=0");
  const auto items = split_list("compare_to", text);
  for (const auto& item : items) {
    const auto eq = item.find('=');
    const std::string name = eq == std::string::npos ? "" : trim(item.substr(0, eq));
    if (name == "schedule") {  // a graph's schedule against another: alone, no column set
      if (items.size() > 1)
        throw InputError("compare_to", "'" + text + "' sets the schedule beside other options",
                         "compare schedules alone (schedule=B), and the other options in comparisons of their own");
      try {
        schedule_ = parse_schedule_choice(trim(item.substr(eq + 1)));
      } catch (const InputError& e) {
        throw InputError("compare_to", e.problem(), e.hint());
      }
      label_ = "schedule=" + schedule_->name();
      return;
    }
    const auto it = std::find_if(sweep_dimensions.begin(), sweep_dimensions.end(), [&](const std::string& d) {
      return d == name || (d == "fast_law" && name == "fast-law");
    });
    if (eq == std::string::npos || it == sweep_dimensions.end())
      throw InputError("compare_to", "'" + item + "' is not OPTION=VALUE with a model option",
                       "for example m=0, protocol=coordinator, n=n-m,m=0");
    const auto d = static_cast<std::size_t>(it - sweep_dimensions.begin());
    for (const auto& a : assignments_)
      if (a.dim == d) throw InputError("compare_to", "'" + text + "' sets " + *it + " twice");
    const std::string value = trim(item.substr(eq + 1));
    Assignment a{d, "", std::nullopt};
    if (is_numeric(d)) {
      NumericExpression e("compare_to", value);
      if (e.constant()) {
        try {
          a.value = canonical_number(d, e.evaluate({}), *it);
        } catch (const InputError& error) {
          throw InputError("compare_to", error.problem());
        }
      } else {
        a.expression = std::move(e);
      }
    } else {
      const auto values = dimension_values(d, {value}, 1);
      a.value = values[0];
    }
    label_ += (label_.empty() ? "" : ",") + *it + "=" + (a.expression ? a.expression->text() : a.value);
    assignments_.push_back(std::move(a));
  }
}

bool Comparison::applies_to(const SweepConfig& c) const {
  if (schedule_) return is_graph(c.structure);  // only a graph has a schedule
  if (!is_graph(c.structure)) return true;
  for (const auto& a : assignments_)  // a graph against one of Wilson's structures
    if (a.dim == SweepDim::structure && !is_graph(a.value)) return false;
  for (std::size_t d = 0; d < SweepDim::count; ++d)
    if (!graph_column(d))
      for (const auto& a : assignments_)
        if (a.dim == d || (a.expression && a.expression->reads(d))) return false;
  return true;
}

bool Comparison::sets(std::size_t dim) const {
  return std::any_of(assignments_.begin(), assignments_.end(), [dim](const Assignment& a) { return a.dim == dim; });
}

SweepConfig Comparison::target(const SweepConfig& c) const {
  SweepConfig t = c;
  for (const auto& a : assignments_) {
    if (!a.expression) {
      // A graph and one of Wilson's structures share no model but m, a and C: the target would
      // have no width, laws or levels (or a graph would get them).
      if (a.dim == SweepDim::structure && is_graph(a.value) != is_graph(c.structure))
        throw InputError("structure",
                         std::string("compares ") + (is_graph(a.value) ? "a structure with a graph" : "a graph with a structure") +
                             ", which share no width, laws or levels",
                         "compare graphs with graphs and structures with structures");
      t.set(a.dim, a.value);
      continue;
    }
    t.set(a.dim, canonical_number(a.dim, a.expression->evaluate(c), a.expression->text()));
  }
  return t;
}

}  // namespace hetstruct::engine
