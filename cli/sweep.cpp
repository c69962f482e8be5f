#include "cli/sweep.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <functional>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_set>
#include <span>
#include <stdexcept>
#include <tuple>
#include <sstream>

#include "bounds/structure_bounds.h"
#include "engine/model.h"
#include "cli/output.h"
#include "cli/parameters.h"
#include "engine/resources.h"
#include "distributions/input_error.h"
#include "distributions/law.h"
#include "engine/interrupt.h"
#include "engine/monte_carlo.h"
#include "structures/structure.h"

#ifdef HETSTRUCT_MPI
#include "cli/mpi_sweep.h"
#endif

namespace hetstruct::cli {

const char* const sweep_header =
    "structure,law,fast_law,n,m,a,levels,comm,protocol,policy,exchange,estimator,method,compare_to,value,stderr,"
    "ci_low,ci_high,reps,seed";

namespace {

constexpr std::size_t dimension_count = 11;
enum Dim { d_structure, d_law, d_fast_law, d_n, d_m, d_a, d_levels, d_comm, d_protocol, d_policy, d_exchange };

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
                     "raise --max-configs");
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

// A set: checked value by value in a list, 10^6 values (the default --max-configs) took an hour.
void add_unique(const std::string& option, std::unordered_set<std::string>& seen_text, const std::string& text) {
  if (!seen_text.insert(text).second) throw InputError(option, "the value " + text + " appears twice");
}

}  // namespace

std::vector<std::string> split_list(const std::string& option, const std::string& text) {
  std::vector<std::string> items;
  int depth = 0;
  std::string current;
  for (const char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      items.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  items.push_back(trim(current));
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
  if (values.size() > limit) throw InputError(option, "more than " + std::to_string(limit) + " values", "raise --max-configs");
  return values;
}

std::vector<double> expand_numbers(const std::string& option, const std::string& text, std::uint64_t limit) {
  std::vector<double> values;
  std::unordered_set<std::string> seen;
  auto add = [&](double v) {
    v += 0.0;  // -0 is 0: one value, printed "0"
    add_unique(option, seen, full(v));
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
  if (values.size() > limit) throw InputError(option, "more than " + std::to_string(limit) + " values", "raise --max-configs");
  return values;
}

namespace {

// ---- the grid --------------------------------------------------------------------------------

// One configuration: the canonical text of each dimension (what the CSV holds).
using Config = SweepConfig;
static_assert(std::tuple_size_v<Config> == dimension_count);

std::string config_key(const Config& c) {
  std::string k;
  for (const auto& f : c) k += f + '\x1f';
  return k;
}

struct Grid {
  std::array<std::vector<std::string>, dimension_count> values;

  std::uint64_t size() const {
    std::uint64_t s = 1;
    for (const auto& v : values) s *= v.size();
    return s;
  }
  Config at(std::uint64_t index) const {
    Config c;
    for (std::size_t d = dimension_count; d-- > 0;) {
      c[d] = values[d][index % values[d].size()];
      index /= values[d].size();
    }
    return c;
  }
};

// Canonical values of one dimension from its option's texts.
std::vector<std::string> dimension_values(Dim d, const std::vector<std::string>& texts, std::uint64_t limit) {
  const std::string option = "--" + std::string(d == d_fast_law ? "fast-law" : sweep_dimensions[d]);
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  auto add = [&](const std::string& v) {
    if (!seen.insert(v).second) throw InputError(option, "the value " + v + " appears twice");
    out.push_back(v);
  };
  for (const auto& text : texts) {
    switch (d) {
      case d_n:
      case d_m:
      case d_levels:
        for (const long long v : expand_integers(option, text, limit)) {
          if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
            throw InputError(option, std::to_string(v) + " is out of range");
          add(std::to_string(v));
        }
        break;
      case d_a:
      case d_comm:
        for (const double v : expand_numbers(option, text, limit)) add(full(v));
        break;
      default:
        for (const auto& v : split_list(option, text)) add(v == "default" ? "" : v);
    }
    if (out.size() > limit) throw InputError(option, "more than " + std::to_string(limit) + " values", "raise --max-configs");
  }
  return out;
}

engine::Model to_model(const Config& c) {
  engine::Model m;
  m.structure = structures::parse_structure_kind(c[d_structure]);
  m.law = c[d_law];
  m.fast_law = c[d_fast_law];
  m.width = std::stoi(c[d_n]);
  m.fast_count = std::stoi(c[d_m]);
  m.scale = c[d_a];
  m.levels = std::stoi(c[d_levels]);
  m.comm = c[d_comm];
  m.protocol = c[d_protocol];
  m.policy = c[d_policy];
  m.exchange = engine::parse_exchange(c[d_exchange]);
  m.memory_check = false;  // checked once for the grid
  return m;
}

std::string describe(const Config& c) {
  std::string s;
  for (std::size_t d = 0; d < dimension_count; ++d) {
    if (c[d].empty()) continue;
    s += (s.empty() ? "" : " ") + sweep_dimensions[d] + "=" + c[d];
  }
  return s;
}

// Builds and compiles a configuration with one level (enough to catch bad combinations).
void validate(const Config& c) {
  engine::Model m = to_model(c);
  m.levels = 1;
  const auto s = m.build();
  (void)engine::compile(s, m.compile_options());
}

// ---- comparisons -------------------------------------------------------------------------------

constexpr std::array<Dim, 5> numeric_dims = {d_n, d_m, d_a, d_levels, d_comm};

bool is_numeric(std::size_t d) { return std::find(numeric_dims.begin(), numeric_dims.end(), d) != numeric_dims.end(); }

bool is_integer_dim(std::size_t d) { return d == d_n || d == d_m || d == d_levels; }

// A column's value in a configuration, as a number.
double column_value(const Config& c, int column) {
  const std::string& text = c[static_cast<std::size_t>(column)];
  double v = 0.0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw InputError("", "column " + sweep_dimensions[static_cast<std::size_t>(column)] + " = '" + text +
                             "' is not a number");
  return v;
}

// The canonical text of a value of numeric dimension `d` (what the grid's CSV holds); `what`
// names the value in the error.
std::string canonical_number(std::size_t d, double v, const std::string& what) {
  if (!std::isfinite(v)) throw InputError("", what + " = " + full(v) + " is not a finite number");
  v += 0.0;  // -0 -> 0
  if (!is_integer_dim(d)) return full(v);
  if (v != std::floor(v)) throw InputError("", what + " = " + full(v) + " is not a whole number");
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    throw InputError("", what + " = " + full(v) + " is out of range");
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
      for (const Dim d : numeric_dims)
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

Comparison::Comparison(const std::string& text) {
  if (trim(text).empty()) throw InputError("--compare-to", "empty comparison", "give OPTION=VALUE, for example m=0");
  for (const auto& item : split_list("--compare-to", text)) {
    const auto eq = item.find('=');
    const std::string name = eq == std::string::npos ? "" : trim(item.substr(0, eq));
    const auto it = std::find_if(sweep_dimensions.begin(), sweep_dimensions.end(), [&](const std::string& d) {
      return d == name || (d == "fast_law" && name == "fast-law");
    });
    if (eq == std::string::npos || it == sweep_dimensions.end())
      throw InputError("--compare-to", "'" + item + "' is not OPTION=VALUE with a model option",
                       "for example m=0, protocol=coordinator, n=n-m,m=0");
    const auto d = static_cast<std::size_t>(it - sweep_dimensions.begin());
    for (const auto& a : assignments_)
      if (a.dim == d) throw InputError("--compare-to", "'" + text + "' sets " + *it + " twice");
    const std::string value = trim(item.substr(eq + 1));
    Assignment a{d, "", std::nullopt};
    if (is_numeric(d)) {
      NumericExpression e("--compare-to", value);
      if (e.constant()) {
        try {
          a.value = canonical_number(d, e.evaluate({}), *it);
        } catch (const InputError& error) {
          throw InputError("--compare-to", error.problem());
        }
      } else {
        a.expression = std::move(e);
      }
    } else {
      const auto values = dimension_values(static_cast<Dim>(d), {value}, 1);
      a.value = values[0];
    }
    label_ += (label_.empty() ? "" : ",") + *it + "=" + (a.expression ? a.expression->text() : a.value);
    assignments_.push_back(std::move(a));
  }
}

SweepConfig Comparison::target(const SweepConfig& c) const {
  SweepConfig t = c;
  for (const auto& a : assignments_) {
    if (!a.expression) {
      t[a.dim] = a.value;
      continue;
    }
    t[a.dim] = canonical_number(a.dim, a.expression->evaluate(c), a.expression->text());
  }
  return t;
}

std::vector<std::vector<SweepPiece>> deal_blocks(const std::vector<std::pair<std::uint64_t, double>>& runs, int ranks) {
  if (ranks < 1) throw std::invalid_argument("deal_blocks: no rank");
  std::vector<std::vector<SweepPiece>> pieces(static_cast<std::size_t>(ranks));
  long double total = 0;
  for (const auto& [blocks, work] : runs) {
    if (!(work > 0.0) || !std::isfinite(work)) throw std::invalid_argument("deal_blocks: a run's work must be > 0");
    total += static_cast<long double>(blocks) * work;
  }
  int r = 0;
  auto cut_after = [&](int rank) { return total * (rank + 1) / ranks; };  // where rank's stretch ends
  long double cut = cut_after(0), start = 0;  // start: where the current run begins
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto [blocks, work] = runs[i];
    std::uint64_t b = 0;
    while (b < blocks) {
      // Rank r takes the blocks that begin before its cut.
      std::uint64_t end = blocks;
      if (r < ranks - 1) {
        const long double x = std::ceil((cut - start) / work);  // the first block that begins at or after the cut
        end = x <= static_cast<long double>(b) ? b : x >= static_cast<long double>(blocks) ? blocks : static_cast<std::uint64_t>(x);
      }
      if (end > b) {
        pieces[static_cast<std::size_t>(r)].push_back({i, b, end});
        b = end;
      }
      if (b < blocks) cut = cut_after(++r);
    }
    start += static_cast<long double>(blocks) * work;
  }
  return pieces;
}

namespace {

// ---- estimating configurations ---------------------------------------------------------------

// The runs that a configuration's rows need: its own plan (mc), a paired run per comparison whose
// target can be built (difference), and for nn the C = 0 run of its shape (Eq. 12), which the
// configurations of one shape share: the first of them in the sweep owns it.
enum class RunKind { nn_zero, difference, mc };

struct RunSpec {
  RunKind kind;
  std::size_t entry;           // the configuration (position in the sweep's entries) whose plans it runs
  std::size_t comparison = 0;  // a difference's comparison
  double work = 0.0;           // seconds per replication (estimated): for the deal and the progress
};

constexpr std::size_t no_run = std::numeric_limits<std::size_t>::max();

struct Entry {
  std::size_t row;                                // index into the CSV's rows
  Config c;
  std::vector<std::optional<Config>> targets;     // per comparison; empty: left out (--skip-invalid)
  std::size_t nn_zero_run = no_run;
  std::vector<std::size_t> difference_runs;       // per comparison; no_run when left out
  std::size_t mc_run = no_run;
};

// A replication's estimated time (cli/resources.h): event-driven protocols cost ~30 times a loop
// plan per task, so the ranks' shares are weighed by time, not by tasks.
double tasks(const Config& c) {
  const double count = static_cast<double>(std::stoll(c[d_n])) * std::stoll(c[d_levels]);
  const auto kind = structures::parse_structure_kind(c[d_structure]);
  const bool comm = !c[d_comm].empty() && distributions::parse_number(c[d_comm], "--comm") > 0.0;
  engine::PlanKind plan = engine::PlanKind::synchronous;
  if (comm && kind != structures::StructureKind::asynchronous) plan = engine::PlanKind::protocol;
  else if (kind == structures::StructureKind::master_slave) plan = engine::PlanKind::task_pool;
  else if (kind == structures::StructureKind::nearest_neighbor) plan = engine::PlanKind::neighbor_sequential;
  return run_seconds(plan, count, 1.0, 1);
}

// Lays out the runs of the entries, in order: per configuration, its shape's C = 0 run if it is
// the first of the shape, then one difference per comparison, then mc.
std::vector<RunSpec> plan_runs(std::vector<Entry>& entries) {
  std::vector<RunSpec> runs;
  std::map<std::string, std::size_t> nn_zero_of_shape;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    Entry& e = entries[k];
    if (structures::parse_structure_kind(e.c[d_structure]) == structures::StructureKind::nearest_neighbor) {
      Config shape = e.c;
      shape[d_comm] = shape[d_protocol] = shape[d_policy] = "";
      const auto [it, added] = nn_zero_of_shape.emplace(config_key(shape), runs.size());
      if (added) runs.push_back({RunKind::nn_zero, k, 0, tasks(e.c)});
      e.nn_zero_run = it->second;
    }
    e.difference_runs.assign(e.targets.size(), no_run);
    for (std::size_t i = 0; i < e.targets.size(); ++i) {
      if (!e.targets[i]) continue;
      e.difference_runs[i] = runs.size();
      runs.push_back({RunKind::difference, k, i, tasks(e.c) + tasks(*e.targets[i])});
    }
    e.mc_run = runs.size();
    runs.push_back({RunKind::mc, k, 0, tasks(e.c)});
  }
  return runs;
}

// A configuration's structure and plans, compiled when first needed.
struct Job {
  engine::Model model;
  structures::Structure s;
  engine::Plan plan;
  std::vector<std::optional<engine::Plan>> bases;
  std::optional<engine::Plan> nn_zero_plan;

  Job(const Config& c, std::size_t comparisons)
      : model(to_model(c)), s(model.build()), plan(engine::compile(s, model.compile_options())), bases(comparisons) {}

  const engine::Plan& base(std::size_t i, const Config& target) {
    if (!bases[i]) {
      const engine::Model other = to_model(target);
      bases[i].emplace(engine::compile(other.build(), other.compile_options()));
    }
    return *bases[i];
  }
  const engine::Plan& nn_zero() {
    if (!nn_zero_plan) nn_zero_plan.emplace(engine::compile(s));
    return *nn_zero_plan;
  }
};

// Computes a piece of a run. A piece from block 0 is folded here (the fold's state after its
// blocks); any other keeps its blocks, to be folded after the pieces before it.
BlockPiece compute_piece(const SweepPiece& piece, const RunSpec& spec, const Entry& entry, Job& job,
                         const engine::RunOptions& options) {
  BlockPiece out{piece.run, piece.first, piece.last, {}};
  engine::Accumulator total;
  engine::BlockSink sink;
  if (piece.first == 0) sink = [&](std::span<const engine::Accumulator> blocks) { engine::fold_blocks(total, blocks); };
  else sink = [&](std::span<const engine::Accumulator> blocks) { out.blocks.insert(out.blocks.end(), blocks.begin(), blocks.end()); };
  const engine::BlockRange range{piece.first, piece.last};
  switch (spec.kind) {
    case RunKind::nn_zero: engine::run_blocks(job.nn_zero(), options, range, sink); break;
    case RunKind::difference:
      engine::run_difference_blocks(job.plan, job.base(spec.comparison, *entry.targets[spec.comparison]), options, range, sink);
      break;
    case RunKind::mc: engine::run_blocks(job.plan, options, range, sink); break;
  }
  if (piece.first == 0) out.blocks = {total};
  return out;
}

// Every run's estimate from its pieces (any order, from any ranks): each run's pieces folded in
// block order into an empty total, engine::fold_blocks, so the estimate is one process's bit for bit.
std::vector<engine::Estimate> fold_pieces(std::vector<BlockPiece>& pieces, std::size_t runs, std::uint64_t blocks) {
  std::sort(pieces.begin(), pieces.end(),
            [](const BlockPiece& x, const BlockPiece& y) { return std::tie(x.run, x.first) < std::tie(y.run, y.first); });
  std::vector<engine::Accumulator> totals(runs);
  std::vector<std::uint64_t> next(runs, 0);
  for (const auto& p : pieces) {
    const std::uint64_t expected = p.first == 0 ? 1 : p.last - p.first;
    if (p.run >= runs || p.first != next[p.run] || p.last <= p.first || p.blocks.size() != expected)
      throw std::runtime_error("sweep: the gathered blocks of run " + std::to_string(p.run) + " do not follow on");
    engine::fold_blocks(totals[p.run], std::span<const engine::Accumulator>(p.blocks));
    next[p.run] = p.last;
  }
  std::vector<engine::Estimate> estimates(runs);
  for (std::size_t i = 0; i < runs; ++i) {
    if (next[i] != blocks) throw std::runtime_error("sweep: blocks of run " + std::to_string(i) + " are missing");
    estimates[i] = engine::summarize(totals[i]);
  }
  return estimates;
}

// A configuration's rows from its runs' estimates.
std::string config_rows(const Entry& entry, const Job& job, const std::vector<Comparison>& comparisons,
                        const std::vector<engine::Estimate>& estimates, std::uint64_t seed_value) {
  const Config& c = entry.c;
  std::string prefix;
  for (const auto& f : c) prefix += csv_field(f) + ',';
  const std::string seed = std::to_string(seed_value);
  std::ostringstream out;
  auto row = [&](const std::string& estimator, const std::string& method, const std::string& compare, double value,
                 const engine::Estimate* e) {
    out << prefix << estimator << ',' << csv_field(method) << ',' << csv_field(compare) << ',' << full(value) << ','
        << (e ? full(e->stderr_) : "") << ',' << (e ? full(e->ci_low) : "") << ',' << (e ? full(e->ci_high) : "")
        << ',' << (e ? std::to_string(e->reps) : "") << ',' << (e ? seed : "") << '\n';
  };
  const structures::Structure& s = job.s;
  const engine::Plan& plan = job.plan;
  const bool zero_comm = plan.kind != engine::PlanKind::protocol;
  const bool paper_uniform = job.model.is_paper_uniform();
  const double a = job.model.scale_value(), comm = job.model.comm_value();

  if (zero_comm) {
    if (const auto closed = bounds::closed_form(s, paper_uniform, a)) row("closed_form", closed->method, "", closed->value, nullptr);
  }
  const double nn_zero = entry.nn_zero_run == no_run ? 0.0 : estimates[entry.nn_zero_run].mean;
  if (const auto b = bounds::comm_bounds(s, paper_uniform, a, comm, nn_zero)) {
    if (!std::isnan(b->bounds.lower)) row("lower_bound", b->method, "", b->bounds.lower, nullptr);
    if (!std::isnan(b->bounds.upper)) row("upper_bound", b->method, "", b->bounds.upper, nullptr);
  }
  for (std::size_t i = 0; i < comparisons.size(); ++i) {
    if (entry.difference_runs[i] == no_run) continue;  // its target cannot be built (--skip-invalid)
    const engine::Estimate& d = estimates[entry.difference_runs[i]];
    row("difference", "paired", comparisons[i].label(), d.mean, &d);
  }
  const engine::Estimate& e = estimates[entry.mc_run];
  row("mc", zero_comm ? engine::to_string(plan.kind) : plan.protocol, "", e.mean, &e);
  return out.str();
}

// ---- progress ----------------------------------------------------------------------------------

class Reporter {
 public:
  Reporter(bool quiet, double interval, double total)
      : quiet_(quiet), tty_(::isatty(STDERR_FILENO) != 0), interval_(interval), total_(total),
        start_(std::chrono::steady_clock::now()), last_(start_), progress_("sweep") {}

  void set(double done, std::uint64_t configs_done, std::uint64_t configs_total) {
    if (quiet_) return;
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock) return;
    if (tty_) {
      progress_.set_label("sweep " + std::to_string(configs_done) + "/" + std::to_string(configs_total) + " configurations");
      progress_.update(static_cast<std::uint64_t>(done), static_cast<std::uint64_t>(total_));
      return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_).count() < interval_) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double f = total_ > 0 ? done / total_ : 1.0;
    std::fprintf(stderr, "hetstruct sweep: %llu/%llu configurations, %.1f%% of the work, %.0f s elapsed, ETA %.0f s\n",
                 static_cast<unsigned long long>(configs_done), static_cast<unsigned long long>(configs_total),
                 100.0 * f, elapsed, f > 0 ? elapsed * (1 - f) / f : 0.0);
    std::fflush(stderr);
  }

 private:
  bool quiet_, tty_;
  double interval_, total_;
  std::chrono::steady_clock::time_point start_, last_;
  std::mutex mutex_;
  Progress progress_;
};

// ---- resume ----------------------------------------------------------------------------------

// The complete configurations of a previous run's file: their rows, by configuration key.
std::map<std::string, std::string> read_resume_file(const std::string& path, std::uint64_t reps, std::uint64_t seed,
                                                    const std::set<std::string>& grid_keys) {
  std::map<std::string, std::string> complete;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (::access(path.c_str(), F_OK) == 0) throw InputError(path, "cannot read the file to resume");
    return complete;  // nothing to resume: start afresh
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  if (text.empty()) return complete;
  std::size_t pos = 0, lineno = 0;
  std::string pending_key, pending_rows;
  std::vector<std::string> fields;
  std::set<std::string> outside;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    if (nl == std::string::npos) break;  // a last line cut short: its configuration is incomplete
    const std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++lineno;
    if (lineno == 1) {
      if (line != sweep_header)
        throw InputError(path, "has another header than a sweep CSV; refusing to resume into it",
                         "give another --out, or remove the file");
      continue;
    }
    if (!parse_csv_line(line, fields) || fields.size() != 20)
      throw InputError(path + ":" + std::to_string(lineno), "not a row of a sweep CSV (" + std::to_string(fields.size()) +
                                                                " fields, expected 20)");
    Config c;
    for (std::size_t d = 0; d < dimension_count; ++d) c[d] = fields[d];
    const std::string key = config_key(c);
    if (key != pending_key) pending_rows.clear();
    pending_key = key;
    pending_rows += line + '\n';
    if (fields[11] == "mc") {
      if (!grid_keys.count(key)) {
        outside.insert(describe(c));
      } else if (fields[18] == std::to_string(reps) && fields[19] == std::to_string(seed)) {
        complete[key] = pending_rows;
      }
      pending_rows.clear();
      pending_key.clear();
    }
  }
  if (!outside.empty())
    throw InputError(path, std::to_string(outside.size()) + " configuration(s) outside this grid (first: " +
                               *outside.begin() + "); refusing to drop them",
                     "give another --out");
  return complete;
}

}  // namespace

// ---- the command -----------------------------------------------------------------------------

void SweepCommand::add_to(CLI::App& app) {
  app_ = app.add_subcommand("sweep",
                            "Simulate the product grid of model options (lists, ranges) as one tidy CSV, with paired "
                            "differences, resume and progress");
  auto* g = "Grid";
  auto list = [&](const char* name, std::vector<std::string>& target, const char* help) {
    app_->add_option(name, target, help)->group(g)->allow_extra_args(true);
  };
  list("--structure,-s", structure, "async | sync | nn | ms, a list: sync,nn,ms (required)");
  list("--law", law, "Laws, a list (commas inside parentheses belong to the law): uniform,normal,u(0,2) [uniform]");
  list("--fast-law", fast_law, "Laws of the fast processors (default: a times --law)");
  list("--n", n, "Widths: a list 3,4,8 or a range 2:16:2 (required)");
  list("--m", m, "Fast processors: list or range [0]");
  list("--a", a, "Scales of the fast processors: 1/2,4/5 or 0.1:1:0.1 [1/2]");
  list("--levels,-p", levels, "Tasks per processor: list or range [1000]");
  list("--comm,-C", comm, "Communication costs: 0:0.25:0.025 [0]");
  list("--protocol", protocol, "Protocols (default: each structure's own; 'default' names it in a list)");
  list("--policy", policy, "Master-slave dealing policies: dynamic,equal,proportional");
  list("--exchange", exchange, "Nearest-neighbour rules: sequential,plain [sequential]");
  app_->add_option("--config", config_path,
                   "TOML file giving any of these options (keys as the long names: n = [8, 16], comm = \"0:0.25:0.025\"); "
                   "the command line overrides it")
      ->group(g);
  app_->add_option("--compare-to", compare_to,
                   "OPTION=VALUE[,OPTION=VALUE...]: add each configuration's paired difference (common random "
                   "numbers) against the same configuration with these options set together; n, m, a, levels and "
                   "comm take expressions over the configuration's own columns (n=n-m,m=0 compares (n,m) with "
                   "(n-m,0)); repeatable. A target that cannot be built (n-m = 0) is an error, or with "
                   "--skip-invalid leaves out that difference row")
      ->group(g);
  app_->add_option("--checkpoint-every", checkpoint_interval,
                   "Seconds between checkpoints of --out (the complete configurations so far; 0: after each one)")
      ->check(CLI::Range(0.0, 86400.0))->capture_default_str()->group("Output");
  app_->add_flag("--no-memory-check{false}", memory_check,
                 "Run even when the widest configuration's estimated memory exceeds what the machine has available")
      ->group(g);
  app_->add_flag("--skip-invalid", skip_invalid,
                 "Leave out configurations that cannot be built (m > n, ...), and differences whose --compare-to "
                 "target cannot be, instead of failing")
      ->group(g);
  app_->add_option("--max-configs", max_configs_text, "Refuse a grid of more configurations")->capture_default_str()->group(g);
  app_->add_option("--reps,-r", reps_text, "Replications per configuration")->capture_default_str()->group("Sampling");
  app_->add_option("--seed", seed_text, "Seed, the same for every configuration (common random numbers)")
      ->capture_default_str()->group("Sampling");
  app_->add_option("--threads,-t", threads, "Worker threads (0: all cores)")->capture_default_str()->group("Sampling");
  app_->add_option("--out,-o", out_path, "Write the CSV to this file (atomically, checkpointed) instead of stdout")
      ->group("Output");
  app_->add_flag("--resume", resume, "Keep the configurations already complete in --out and simulate the others")
      ->group("Output");
  app_->add_flag("--quiet,-q", quiet, "No progress and no summary on stderr")->group("Output");
}

bool SweepCommand::parsed() const { return app_ != nullptr && app_->parsed(); }

void SweepCommand::apply_config_file() {
  if (config_path.empty()) return;
  std::vector<CLI::ConfigItem> items;
  try {
    items = CLI::ConfigTOML().from_file(config_path);
  } catch (const CLI::Error& e) {
    throw InputError("--config", "cannot read '" + config_path + "'");
  }
  std::map<std::string, std::vector<std::string>*> targets = {
      {"structure", &structure}, {"law", &law},       {"fast_law", &fast_law}, {"fast-law", &fast_law},
      {"n", &n},                 {"m", &m},           {"a", &a},               {"levels", &levels},
      {"comm", &comm},           {"protocol", &protocol}, {"policy", &policy}, {"exchange", &exchange},
      {"compare_to", &compare_to}, {"compare-to", &compare_to}};
  std::map<std::string, std::string*> scalars = {{"reps", &reps_text}, {"seed", &seed_text},
                                                 {"max_configs", &max_configs_text}, {"max-configs", &max_configs_text}};
  std::set<std::vector<std::string>*> given;
  for (auto& [name, target] : targets)
    if (!target->empty()) given.insert(target);  // the command line wins
  std::set<std::vector<std::string>*> from_file;
  for (const auto& item : items) {
    if (item.name == "++" || item.name == "--") continue;  // CLI11's section markers
    if (!item.parents.empty() && !(item.parents.size() == 1 && item.parents[0] == "sweep"))
      throw InputError(config_path, "unknown section '" + item.parents[0] + "'", "use top-level keys or [sweep]");
    if (auto it = targets.find(item.name); it != targets.end()) {
      if (given.count(it->second)) continue;
      if (!from_file.insert(it->second).second) throw InputError(config_path, "key '" + item.name + "' given twice");
      if (item.inputs.empty()) throw InputError(config_path, "key '" + item.name + "' has no value");
      for (const auto& v : item.inputs) it->second->push_back(v);
    } else if (auto s = scalars.find(item.name); s != scalars.end()) {
      const auto* opt = app_ ? app_->get_option_no_throw("--" + std::string(item.name == "max_configs" ? "max-configs" : item.name)) : nullptr;
      if (opt && opt->count() > 0) continue;
      if (item.inputs.size() != 1) throw InputError(config_path, "key '" + item.name + "' takes one value");
      *s->second = item.inputs[0];
    } else {
      throw InputError(config_path, "unknown key '" + item.name + "'",
                       "keys: structure, law, fast_law, n, m, a, levels, comm, protocol, policy, exchange, compare_to, "
                       "reps, seed, max_configs");
    }
  }
}

int SweepCommand::execute() {
  apply_config_file();
  const std::uint64_t reps = parse_count("--reps", reps_text, 1'000'000'000);
  if (reps == 0) throw InputError("--reps", "the number of replications must be at least 1");
  const std::uint64_t seed = parse_count("--seed", seed_text, std::numeric_limits<std::uint64_t>::max());
  const std::uint64_t max_configs = parse_count("--max-configs", max_configs_text, std::numeric_limits<std::uint32_t>::max());
  if (max_configs == 0) throw InputError("--max-configs", "must be at least 1");
  if (threads < 0) throw InputError("--threads", "must be 0 (all cores) or more");
  if (resume && out_path.empty()) throw InputError("--resume", "needs --out FILE");
  if (structure.empty()) throw InputError("--structure", "missing", "give --structure sync or a list such as sync,nn,ms");
  if (n.empty()) throw InputError("--n", "missing", "give --n 8, a list 8,16 or a range 2:16:2");

  // The grid.
  const std::array<const std::vector<std::string>*, dimension_count> options = {
      &structure, &law, &fast_law, &n, &m, &a, &levels, &comm, &protocol, &policy, &exchange};
  const std::array<const char*, dimension_count> defaults = {"", "uniform", "", "", "0", "1/2", "1000", "0", "", "", "sequential"};
  Grid grid;
  long double size = 1;
  for (std::size_t d = 0; d < dimension_count; ++d) {
    const std::vector<std::string> texts = options[d]->empty() ? std::vector<std::string>{defaults[d]} : *options[d];
    if (options[d]->empty() && std::string(defaults[d]).empty()) grid.values[d] = {""};
    else grid.values[d] = dimension_values(static_cast<Dim>(d), texts, max_configs);
    size *= grid.values[d].size();
  }
  if (size > static_cast<long double>(max_configs)) {
    char count[64];
    std::snprintf(count, sizeof count, "%.0Lf", size);
    throw InputError("sweep", std::string("the grid has ") + count + " configurations, more than --max-configs " +
                                  std::to_string(max_configs),
                     "raise --max-configs");
  }
  for (const auto& v : grid.values[d_structure])
    if (v.empty()) throw InputError("--structure", "empty value");
  // One configuration at a time is in memory: the widest decides (cli/resources.h).
  if (memory_check) {
    long long widest = 0;
    for (const auto& v : grid.values[d_n]) widest = std::max(widest, std::stoll(v));
    engine::check_model_memory(static_cast<std::uint64_t>(widest), 0, "width", "the sweep's " + std::to_string(widest) + " processors");
  }

  std::vector<Comparison> comparisons;
  for (const auto& text : compare_to) comparisons.emplace_back(text);

  // Every configuration (and its comparisons' targets) must build before anything runs or is
  // written; --skip-invalid leaves out a configuration that cannot be built, or the difference
  // rows of a configuration whose comparison target cannot be.
  std::vector<Entry> entries;  // the configurations, in grid order (their rows, then their runs)
  std::uint64_t invalid = 0, comparisons_left_out = 0;
  std::set<std::string> grid_keys;
  for (std::uint64_t i = 0; i < grid.size(); ++i) {
    const Config c = grid.at(i);
    try {
      validate(c);
    } catch (const InputError& e) {
      if (!skip_invalid) throw InputError("sweep", "configuration " + describe(c) + ": " + flag_message(e), "or --skip-invalid");
      ++invalid;
      continue;
    }
    Entry entry{entries.size(), c, {}, no_run, {}, no_run};
    for (const auto& cmp : comparisons) {
      try {
        const Config t = cmp.target(c);
        validate(t);
        entry.targets.emplace_back(t);
      } catch (const InputError& e) {
        if (!skip_invalid)
          throw InputError("sweep", "configuration " + describe(c) + ": --compare-to " + cmp.label() + ": " + flag_message(e),
                           "or --skip-invalid");
        ++comparisons_left_out;
        entry.targets.emplace_back();
      }
    }
    entries.push_back(std::move(entry));
    grid_keys.insert(config_key(c));
  }
  if (entries.empty()) throw InputError("sweep", "no configuration of the grid can be built");

  if (!out_path.empty()) {  // fail now, not after the simulation
    const auto slash = out_path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : out_path.substr(0, slash);
    if (::access(dir.c_str(), W_OK) != 0) throw InputError(out_path, "cannot write into the folder '" + dir + "'");
  }
  std::map<std::string, std::string> previous;
  if (resume) previous = read_resume_file(out_path, reps, seed, grid_keys);

  engine::RunOptions run;
  run.seed = seed;
  run.reps = reps;
  run.threads = threads;

  // The configurations left to simulate, and their runs.
  std::vector<std::string> rows(entries.size());
  std::vector<Entry> todo;
  for (const auto& e : entries) {
    if (auto it = previous.find(config_key(e.c)); it != previous.end()) {
      rows[e.row] = it->second;
      ++resumed_configs;
    } else {
      todo.push_back(e);
    }
  }
  const std::vector<RunSpec> runs = plan_runs(todo);
  const std::uint64_t blocks = engine::block_count(reps);

  auto assemble = [&] {
    std::string text = std::string(sweep_header) + "\n";
    for (const auto& r : rows) text += r;
    return text;
  };

  // Each rank's share: a stretch of the runs' blocks laid end to end (one process: every run whole).
#ifdef HETSTRUCT_MPI
  const MpiWorld world;  // one process unless started by mpirun
  const int rank = world.rank(), ranks = world.size();
#else
  const int rank = 0, ranks = 1;
#endif
  const bool single_process = ranks == 1;
  const bool report = !quiet && rank == 0;
  std::vector<std::pair<std::uint64_t, double>> run_work;
  for (const auto& r : runs) run_work.emplace_back(blocks, r.work);
  const std::vector<SweepPiece> mine = deal_blocks(run_work, ranks)[static_cast<std::size_t>(rank)];

  const auto t0 = std::chrono::steady_clock::now();
  auto last_checkpoint = t0;
  double my_work = 0.0;
  std::vector<std::size_t> pieces_left(todo.size(), 0);  // per configuration, its pieces on this rank
  for (const auto& p : mine) {
    my_work += static_cast<double>(p.last - p.first) * runs[p.run].work;
    ++pieces_left[runs[p.run].entry];
  }
  Reporter reporter(!report, progress_interval, my_work);
  double work_done = 0.0;
  std::uint64_t configs_done = resumed_configs;
  std::vector<engine::Estimate> estimates(single_process ? runs.size() : 0);
  std::vector<BlockPiece> computed;  // under MPI: for rank 0
  std::optional<Job> job;
  std::size_t job_entry = no_run;
  try {
    for (const SweepPiece& piece : mine) {
      const RunSpec& spec = runs[piece.run];
      const Entry& entry = todo[spec.entry];
      if (job_entry != spec.entry) {  // a rank's pieces come configuration after configuration
        job.emplace(entry.c, comparisons.size());
        job_entry = spec.entry;
      }
      const double w = static_cast<double>(piece.last - piece.first) * spec.work;
      engine::RunOptions r = run;
      r.progress = [&](std::uint64_t d, std::uint64_t t) {
        reporter.set(work_done + w * static_cast<double>(d) / static_cast<double>(t), configs_done, entries.size());
      };
      BlockPiece result = compute_piece(piece, spec, entry, *job, r);
      work_done += w;
      if (single_process) estimates[piece.run] = engine::summarize(result.blocks.front());  // the whole run, folded
      else computed.push_back(std::move(result));
      if (--pieces_left[spec.entry] > 0) continue;
      ++configs_done;  // this rank's part of the configuration is done
      reporter.set(work_done, configs_done, entries.size());
      if (!single_process) continue;
      rows[entry.row] = config_rows(entry, *job, comparisons, estimates, seed);
      ++computed_configs;
      // Checkpoint: the complete configurations so far, atomically, at most every
      // checkpoint_interval (one process only: under MPI the blocks are on several ranks until the end).
      const auto now = std::chrono::steady_clock::now();
      if (!out_path.empty() && now - last_checkpoint >= std::chrono::duration<double>(checkpoint_interval)) {
        write_file_atomically(out_path, assemble());
        last_checkpoint = now;
      }
    }
  } catch (const engine::Interrupted&) {
#ifdef HETSTRUCT_MPI
    if (!single_process) world.abort("interrupted", 130);
#endif
    // Keep what is complete, so that --resume loses nothing but the configuration under way.
    if (single_process && !out_path.empty() && configs_done > 0) {
      write_file_atomically(out_path, assemble());
      throw engine::Interrupted("interrupted; the " + std::to_string(configs_done) + " complete configurations are in " +
                                out_path + " (--resume continues)");
    }
    throw;
  } catch (const InputError& e) {
#ifdef HETSTRUCT_MPI
    if (!single_process) world.abort(e.what(), 2);
#endif
    throw;
  } catch (const std::exception& e) {
#ifdef HETSTRUCT_MPI
    if (!single_process) world.abort(std::string("internal error: ") + e.what(), 1);
#endif
    throw;
  }
#ifdef HETSTRUCT_MPI
  if (!single_process) {
    if (!world.gather(computed)) return 0;  // ranks other than 0 are done
    // Rank 0: every run folded in block order, then every configuration's rows.
    estimates = fold_pieces(computed, runs.size(), blocks);
    for (const auto& entry : todo) {
      const Job formatting(entry.c, comparisons.size());
      rows[entry.row] = config_rows(entry, formatting, comparisons, estimates, seed);
    }
    computed_configs = todo.size();
  }
#endif


  if (out_path.empty()) std::cout << assemble();
  else write_file_atomically(out_path, assemble());
  if (report) {
    std::ostringstream summary;
    summary << "hetstruct sweep: " << entries.size() << " configurations (" << computed_configs << " simulated, "
            << resumed_configs << " resumed";
    if (invalid) summary << ", " << invalid << " invalid left out";
    if (comparisons_left_out)
      summary << ", " << comparisons_left_out << (comparisons_left_out == 1 ? " difference" : " differences")
              << " left out (target invalid)";
    summary << "), " << reps << " replications each, seed " << seed << ", "
            << fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1) << " s";
    if (!out_path.empty()) summary << ", wrote " << out_path;
    std::cerr << summary.str() << "\n";
  }
  return 0;
}

}  // namespace hetstruct::cli
