#include "bounds/hbsp/model.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <istream>
#include <set>
#include <sstream>

#include "distributions/format.h"
#include "distributions/input_error.h"

namespace hetstruct::bounds::hbsp {

namespace {

using distributions::format_brief;

std::string list_names(const Machine& m, int limit) {
  std::string s;
  for (int j = 0; j < std::min(limit, m.size()); ++j) s += (j ? ", " : "") + m.processors[j].name;
  if (m.size() > limit) s += ", ...";
  return s;
}

// "key=value" -> {key, value}; a token without '=' has an empty key.
std::pair<std::string, std::string> split_key(const std::string& token) {
  const auto eq = token.find('=');
  if (eq == std::string::npos) return {"", token};
  return {token.substr(0, eq), token.substr(eq + 1)};
}

double lg(double x) { return std::log2(x); }

}  // namespace

// ---- parsing helpers -------------------------------------------------------------------------

double parse_number(const std::string& where, const std::string& field, const std::string& text) {
  if (text.empty()) throw InputError(where, "field '" + field + "' is empty", "give a number");
  double value = 0.0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (*begin == '+') ++begin;  // from_chars does not take a leading '+'
  const auto r = std::from_chars(begin, end, value);
  if (r.ec != std::errc() || r.ptr != end || begin == end)
    throw InputError(where, "field '" + field + "': '" + text + "' is not a number");
  if (!std::isfinite(value)) throw InputError(where, "field '" + field + "': '" + text + "' is not a finite number");
  if (std::abs(value) > max_value)
    throw InputError(where, "field '" + field + "': '" + text + "' is out of range: the limit is 1e30 in magnitude",
                     "HBSP inputs keep their numbers within 1e-30 and 1e30: change the units");
  return value;
}

double parse_size(const std::string& where, const std::string& text, double item_size, bool bytes_allowed) {
  static const std::pair<const char*, double> units[] = {{"MB", kilobyte * kilobyte}, {"KB", kilobyte}, {"B", 1.0}};
  for (const auto& [suffix, factor] : units) {
    const std::string s = suffix;
    if (text.size() > s.size() && text.compare(text.size() - s.size(), s.size(), s) == 0) {
      if (!bytes_allowed) throw InputError(where, "'" + text + "': matmul's n is the matrix order, give a number");
      return parse_number(where, "n", text.substr(0, text.size() - s.size())) * factor / item_size;
    }
  }
  return parse_number(where, "n", text);
}

std::vector<std::string> tokens(const std::string& line) {
  const std::string content = line.substr(0, line.find('#'));
  std::istringstream in(content);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

// ---- the machine -----------------------------------------------------------------------------

void Machine::check_p(int p, const std::string& where) const {
  if (p < 1 || p > size())
    throw InputError(where, "p = " + std::to_string(p) + " is not between 1 and the " + std::to_string(size()) +
                                " processors of " + (source.empty() ? std::string("the machine") : source));
}

double Machine::latency(int p) const {
  if (const auto it = latency_by_p.find(p); it != latency_by_p.end()) return it->second;
  if (latency_any) return *latency_any;
  std::string given;
  for (const auto& [q, l] : latency_by_p) given += (given.empty() ? "" : ", ") + std::to_string(q);
  throw InputError(source.empty() ? "machine" : source,
                   "no L for p = " + std::to_string(p) + (given.empty() ? "" : " (the file gives L for p = " + given + ")"),
                   "add a line 'L p=" + std::to_string(p) + " VALUE' or a default 'L VALUE'");
}

int Machine::index_of(const std::string& name) const {
  for (int j = 0; j < size(); ++j)
    if (processors[j].name == name) return j;
  return -1;
}

int Machine::resolve(const std::string& text, int p, const std::string& where) const {
  int j = index_of(text);
  if (j < 0) {
    int value = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
      throw InputError(where, "processor '" + text + "' is not in " + (source.empty() ? "the machine" : source),
                       "its processors: " + list_names(*this, 12) + "; or give a 0-based index");
    j = value;
    if (j < 0 || j >= size())
      throw InputError(where, "processor index " + text + " is not between 0 and " + std::to_string(size() - 1));
  }
  if (j >= p)
    throw InputError(where, "processor '" + text + "' is not among the first p = " + std::to_string(p) +
                                " processors used (" + list_names(*this, p) + ")");
  return j;
}

double Machine::share(int j, int p) const {
  double sum = 0.0;
  for (int k = 0; k < p; ++k) sum += processors[k].speed;
  return processors[j].speed / sum;
}

double Machine::relative_speed(int j, int p) const {
  double slowest = processors[0].speed;
  for (int k = 1; k < p; ++k) slowest = std::min(slowest, processors[k].speed);
  return processors[j].speed / slowest;
}

double Machine::total_relative_speed(int p) const {
  double c = 0.0;
  for (int k = 0; k < p; ++k) c += relative_speed(k, p);
  return c;
}

double Machine::r_max(int p) const {
  double r = 0.0;
  for (int k = 0; k < p; ++k) r = std::max(r, processors[k].r);
  return r;
}

int Machine::fastest(int p) const {
  int best = 0;
  for (int k = 1; k < p; ++k) {
    const auto& a = processors[k];
    const auto& b = processors[best];
    if (a.speed > b.speed || (a.speed == b.speed && a.r < b.r)) best = k;
  }
  return best;
}

int Machine::slowest(int p) const {
  int worst = 0;
  for (int k = 1; k < p; ++k) {
    const auto& a = processors[k];
    const auto& b = processors[worst];
    if (a.speed < b.speed || (a.speed == b.speed && a.r > b.r)) worst = k;
  }
  return worst;
}

Machine parse_machine(std::istream& in, const std::string& source) {
  Machine m;
  m.source = source;
  bool have_g = false;
  std::string speed_field;  // the first processor's choice; all must agree
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = source + ":" + std::to_string(number);
    const auto t = tokens(line);
    if (t.empty()) continue;
    const std::string& key = t[0];
    if (key == "g") {
      if (t.size() != 2) throw InputError(where, "'g' takes one number: g VALUE");
      if (have_g) throw InputError(where, "a second 'g' line");
      m.g = parse_number(where, "g", t[1]);
      if (!(m.g > 0.0)) throw InputError(where, "field 'g': must be > 0, got " + t[1]);
      if (m.g < min_positive)
        throw InputError(where, "field 'g': '" + t[1] + "' is below the limit 1e-30", "change the units");
      have_g = true;
    } else if (key == "L") {
      if (t.size() == 2) {
        if (m.latency_any) throw InputError(where, "a second default 'L' line");
        const double l = parse_number(where, "L", t[1]);
        if (l < 0.0) throw InputError(where, "field 'L': must be >= 0, got " + t[1]);
        m.latency_any = l;
      } else if (t.size() == 3) {
        const auto [pk, pv] = split_key(t[1]);
        if (pk != "p") throw InputError(where, "expected 'L p=P VALUE', got '" + t[1] + "'");
        const double pd = parse_number(where, "p", pv);
        if (pd < 1.0 || pd != std::floor(pd) || pd > 1e6)
          throw InputError(where, "field 'p': '" + pv + "' is not a processor count (1, 2, ...)");
        const int p = static_cast<int>(pd);
        const double l = parse_number(where, "L", t[2]);
        if (l < 0.0) throw InputError(where, "field 'L': must be >= 0, got " + t[2]);
        if (!m.latency_by_p.emplace(p, l).second)
          throw InputError(where, "a second 'L' line for p = " + std::to_string(p));
      } else {
        throw InputError(where, "'L' takes 'L VALUE' or 'L p=P VALUE'");
      }
    } else if (key == "unit") {
      for (std::size_t i = 1; i < t.size(); ++i) {
        const auto [k, v] = split_key(t[i]);
        if (k == "time") m.time_unit = v;
        else if (k == "packet") m.packet_unit = v;
        else throw InputError(where, "unknown unit field '" + t[i] + "'", "use time=... and packet=...");
      }
    } else if (key == "processor") {
      if (t.size() < 2) throw InputError(where, "field 'name' is missing", "processor NAME r=R index=I");
      Processor proc;
      proc.name = t[1];
      if (proc.name.find('=') != std::string::npos)
        throw InputError(where, "field 'name' is missing (got '" + proc.name + "')", "processor NAME r=R index=I");
      if (m.index_of(proc.name) >= 0) throw InputError(where, "processor '" + proc.name + "' is listed twice");
      bool have_r = false, have_speed = false;
      for (std::size_t i = 2; i < t.size(); ++i) {
        const auto [k, v] = split_key(t[i]);
        if (k == "r") {
          proc.r = parse_number(where, "r", v);
          if (proc.r < 1.0)
            throw InputError(where, "field 'r' of " + proc.name + ": must be >= 1 (relative to the fastest), got " + v);
          have_r = true;
        } else if (k == "index" || k == "c") {
          if (have_speed) throw InputError(where, "give one of index= and c= for " + proc.name);
          proc.speed = parse_number(where, k, v);
          if (!(proc.speed > 0.0)) throw InputError(where, "field '" + k + "' of " + proc.name + ": must be > 0, got " + v);
          // Only ratios of speeds matter; within [1e-30, 1e30] the shares and relative speeds stay
          // within 1e-60 and 1e60 (sums and ratios of speeds 1e308 and 1e-308 overflowed).
          if (proc.speed < min_positive)
            throw InputError(where, "field '" + k + "' of " + proc.name + ": '" + v + "' is below the limit 1e-30",
                             "only ratios matter: scale the speeds to lie between 1e-30 and 1e30");
          if (speed_field.empty()) speed_field = k;
          if (k != speed_field)
            throw InputError(where, "field '" + k + "': every processor must give '" + speed_field + "=' like the first one");
          have_speed = true;
        } else {
          throw InputError(where, "unknown field '" + t[i] + "'", "processor NAME r=R index=I (or c=C)");
        }
      }
      if (!have_r) throw InputError(where, "field 'r' is missing for " + proc.name, "add r=R (>= 1)");
      if (!have_speed) throw InputError(where, "field 'index' (or 'c') is missing for " + proc.name, "add index=I or c=C");
      m.processors.push_back(proc);
    } else {
      throw InputError(where, "unknown line '" + key + "'", "lines are g, L, unit, processor, or # comments");
    }
  }
  if (in.bad()) throw InputError(source, "cannot read the machine file");
  if (!have_g) throw InputError(source, "no 'g' line", "add 'g VALUE' (time per packet of the fastest processor)");
  if (m.processors.empty()) throw InputError(source, "no processor lines", "add 'processor NAME r=R index=I'");
  for (const auto& [p, l] : m.latency_by_p)
    if (p > m.size())
      throw InputError(source, "an L for p = " + std::to_string(p) + " but only " + std::to_string(m.size()) + " processors");
  if (!speed_field.empty()) m.speed_field = speed_field;
  return m;
}

Machine load_machine(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, "is a directory, not a machine file");
  std::ifstream in(path);
  if (!in) throw InputError(path, "cannot open the machine file");
  return parse_machine(in, path);
}

std::string machine_text(const Machine& m, const MachineComments& comments) {
  const std::string where = m.source.empty() ? "machine" : m.source;
  // What tokens() and split_key() would split or cut, the file cannot hold.
  const auto writable = [&](const std::string& word, const std::string& what) {
    const bool bad = word.empty() || std::any_of(word.begin(), word.end(), [](char ch) {
                       return ch == '#' || ch == '=' || std::isspace(static_cast<unsigned char>(ch));
                     });
    if (bad) throw InputError(where, what + " '" + word + "' cannot be written in a machine file",
                              "no whitespace, '#' or '='");
    return word;
  };
  const auto number = [](double x) { return distributions::format_exact(x); };
  const auto pad = [](const std::string& s, std::size_t width) {
    return s.size() < width ? s + std::string(width - s.size(), ' ') : s;
  };
  std::ostringstream out;
  for (const auto& line : comments.header) out << "# " << line << "\n";
  if (!m.time_unit.empty() || !m.packet_unit.empty()) {
    out << "unit";
    if (!m.time_unit.empty()) out << " time=" << writable(m.time_unit, "time unit");
    if (!m.packet_unit.empty()) out << " packet=" << writable(m.packet_unit, "packet unit");
    out << "\n";
  }
  out << "g " << number(m.g) << "\n\n";
  if (m.latency_any) out << "L " << number(*m.latency_any) << "\n";
  for (const auto& [p, l] : m.latency_by_p) out << "L p=" << p << ' ' << number(l) << "\n";
  if (m.latency_any || !m.latency_by_p.empty()) out << "\n";
  std::size_t width = 0;
  for (const auto& proc : m.processors) width = std::max(width, writable(proc.name, "processor name").size());
  const std::string speed_key = m.speed_field == "c" ? "c=" : "index=";
  for (std::size_t j = 0; j < m.processors.size(); ++j) {
    const auto& proc = m.processors[j];
    const std::string note = j < comments.processors.size() ? comments.processors[j] : "";
    std::string line = "processor " + pad(proc.name, width) + "  " + pad("r=" + number(proc.r), 11) + ' ' +
                       (note.empty() ? speed_key + number(proc.speed) : pad(speed_key + number(proc.speed), 15));
    if (!note.empty()) line += "  # " + note;
    out << line << "\n";
  }
  return out.str();
}

// ---- one superstep ---------------------------------------------------------------------------

CostForm parse_cost_form(const std::string& text) {
  if (text == "hbsp1") return CostForm::hbsp1;
  if (text == "cj") return CostForm::cj;
  throw InputError("cost form", "'" + text + "' is not a cost form", "hbsp1 (w = max_j w_j) or cj (w = max_j w_j/c_j)");
}

const char* to_string(CostForm form) { return form == CostForm::hbsp1 ? "hbsp1" : "cj"; }

SuperstepCoster::SuperstepCoster(const Machine& m, int p, CostForm form) : g_(m.g), L_(m.latency(p)) {
  m.check_p(p);
  work_scale_.resize(static_cast<std::size_t>(p));
  for (int j = 0; j < p; ++j) work_scale_[j] = form == CostForm::cj ? m.relative_speed(j, p) : 1.0;
}

SuperstepCost SuperstepCoster::operator()(std::span<const double> work, std::span<const double> sent,
                                          std::span<const double> received, std::span<const double> r) const {
  SuperstepCost c;
  const std::size_t p = work_scale_.size();
  for (std::size_t j = 0; j < p; ++j) {
    c.w = std::max(c.w, work[j] / work_scale_[j]);
    c.h = std::max(c.h, r[j] * std::max(sent[j], received[j]));
  }
  // The critical processors: the lowest index within rounding of the maximum, so that equal loads
  // computed along different paths (c_j*n/c_j) name the same processor every time.
  constexpr double tie = 1e-9;
  for (std::size_t j = 0; j < p && c.w > 0.0; ++j)
    if (work[j] / work_scale_[j] >= c.w * (1.0 - tie)) {
      c.work_critical = static_cast<int>(j);
      break;
    }
  for (std::size_t j = 0; j < p && c.h > 0.0; ++j)
    if (r[j] * std::max(sent[j], received[j]) >= c.h * (1.0 - tie)) {
      c.comm_critical = static_cast<int>(j);
      break;
    }
  c.gh = g_ * c.h;
  c.L = L_;
  c.total = c.w + c.gh + c.L;
  return c;
}

SuperstepCost superstep_cost(const Machine& m, int p, CostForm form, std::span<const double> work,
                             std::span<const double> sent, std::span<const double> received,
                             std::span<const double> r) {
  return SuperstepCoster(m, p, form)(work, sent, received, r);
}

// ---- the built-in algorithms -----------------------------------------------------------------

Algorithm parse_algorithm(const std::string& text) {
  if (text == "scatter") return Algorithm::scatter;
  if (text == "broadcast1") return Algorithm::broadcast_one_phase;
  if (text == "broadcast2" || text == "broadcast") return Algorithm::broadcast_two_phase;
  if (text == "prefix") return Algorithm::prefix_sums;
  if (text == "matmul") return Algorithm::matrix_multiplication;
  if (text == "samplesort") return Algorithm::sample_sort;
  throw InputError("algorithm", "'" + text + "' is not a built-in HBSP algorithm",
                   "scatter, broadcast1, broadcast2, prefix, matmul, samplesort");
}

const char* to_string(Algorithm a) {
  switch (a) {
    case Algorithm::scatter: return "scatter";
    case Algorithm::broadcast_one_phase: return "broadcast1";
    case Algorithm::broadcast_two_phase: return "broadcast2";
    case Algorithm::prefix_sums: return "prefix";
    case Algorithm::matrix_multiplication: return "matmul";
    case Algorithm::sample_sort: return "samplesort";
  }
  return "?";
}

int superstep_count(Algorithm a, int p) {
  switch (a) {
    case Algorithm::scatter: return 1;
    case Algorithm::broadcast_one_phase: return 1;
    case Algorithm::broadcast_two_phase: return 2;
    case Algorithm::prefix_sums: return 3;
    case Algorithm::matrix_multiplication: return p;
    case Algorithm::sample_sort: return 4;
  }
  return 0;
}

CostForm auto_cost_form(std::optional<Algorithm> a) {
  const bool computes = a && (*a == Algorithm::prefix_sums || *a == Algorithm::matrix_multiplication ||
                              *a == Algorithm::sample_sort);
  return computes ? CostForm::cj : CostForm::hbsp1;
}

RootChoice parse_root(const Machine& m, int p, const std::string& text) {
  RootChoice r;
  if (text == "fastest") return r;
  if (text == "slowest") {
    r.kind = RootChoice::slowest;
    return r;
  }
  r.kind = RootChoice::given;
  r.index = m.resolve(text, p, "root");
  return r;
}

Workload parse_workload(const std::string& text) {
  if (text == "balanced") return Workload::balanced;
  if (text == "equal") return Workload::equal;
  throw InputError("workload", "'" + text + "' is not a workload", "balanced (c_j) or equal (1/p)");
}

Accounting parse_accounting(const std::string& text) {
  if (text == "paper") return Accounting::paper;
  if (text == "exact") return Accounting::exact;
  throw InputError("accounting", "'" + text + "' is not an accounting",
                   "paper (messages to self count, as in the closed forms) or exact (they do not)");
}

const char* to_string(Workload w) { return w == Workload::balanced ? "balanced" : "equal"; }
const char* to_string(Accounting a) { return a == Accounting::paper ? "paper" : "exact"; }

void validate(const Machine& m, const AlgorithmParams& a) {
  m.check_p(a.p);
  if (a.p < 2) throw InputError("processors", "the built-in algorithms need at least 2 processors");
  if (!(a.n > 0.0) || !std::isfinite(a.n)) throw InputError("size", "the problem size must be > 0, got " + format_brief(a.n));
  if (a.n > max_value)
    throw InputError("size", "the problem size " + format_brief(a.n) + " is more than the limit 1e30");
  if (!(a.item_size > 0.0) || !std::isfinite(a.item_size))
    throw InputError("item size", "must be > 0, got " + format_brief(a.item_size));
  if (a.item_size > max_value)
    throw InputError("item size", "the item size " + format_brief(a.item_size) + " is more than the limit 1e30");
  if (a.root.kind == RootChoice::given && (a.root.index < 0 || a.root.index >= a.p))
    throw InputError("root", "processor " + std::to_string(a.root.index) + " is not among the first p = " +
                                   std::to_string(a.p));
  if (a.algorithm == Algorithm::sample_sort && a.n < 1.0)
    throw InputError("size", "sample sort needs at least 1 key, got " + format_brief(a.n));
  if (a.algorithm == Algorithm::sample_sort && !(a.oversampling >= 1.0 && std::isfinite(a.oversampling)))
    throw InputError("oversampling", "must be >= 1, got " + format_brief(a.oversampling));
  if (a.algorithm == Algorithm::sample_sort && a.oversampling > max_value)
    throw InputError("oversampling", format_brief(a.oversampling) + " is more than the limit 1e30");
  m.latency(a.p);  // throws when the machine has no L for p
}

int root_index(const Machine& m, const AlgorithmParams& a) {
  switch (a.root.kind) {
    case RootChoice::fastest: return m.fastest(a.p);
    case RootChoice::slowest: return m.slowest(a.p);
    case RootChoice::given: return a.root.index;
  }
  return 0;
}

std::vector<double> shares(const Machine& m, int p, Workload w) {
  std::vector<double> f(static_cast<std::size_t>(p));
  for (int j = 0; j < p; ++j) f[j] = w == Workload::equal ? 1.0 / p : m.share(j, p);
  return f;
}

namespace {

// A cost that overflows is refused, never returned to be printed as inf or NaN.
double finite_cost(double cost, const Machine& m, const AlgorithmParams& a, const char* what) {
  if (!std::isfinite(cost))
    throw InputError(m.source.empty() ? "hbsp" : m.source,
                     std::string("the ") + what + " of " + to_string(a.algorithm) + " on p = " + std::to_string(a.p) +
                         " with n = " + format_brief(a.n) + " overflows a double",
                     "give a smaller n or item size");
  return cost;
}

double closed_form_cost(const Machine& m, const AlgorithmParams& a) {
  validate(m, a);
  const int p = a.p;
  const int root = root_index(m, a);
  const auto f = shares(m, p, a.workload);
  const bool paper = a.accounting == Accounting::paper;
  const double g = m.g, L = m.latency(p), s = a.item_size, n = a.n, N = n * s;
  const double k = paper ? p : p - 1;  // copies a processor sends when it sends to everyone
  const auto r = [&](int j) { return m.processors[j].r; };
  // W(x): the work term of a superstep in which P_j does x_j units.
  const auto W = [&](auto x) {
    double w = 0.0;
    for (int j = 0; j < p; ++j) w = std::max(w, a.form == CostForm::cj ? x(j) / m.relative_speed(j, p) : x(j));
    return w;
  };
  const double W_root_scale = a.form == CostForm::cj ? m.relative_speed(root, p) : 1.0;
  // max over the processors other than the root of r_j * x_j
  const auto max_others = [&](auto x) {
    double h = 0.0;
    for (int j = 0; j < p; ++j)
      if (j != root) h = std::max(h, r(j) * x(j));
    return h;
  };

  const auto scatter = [&] {
    const double root_sends = paper ? N : (1.0 - f[root]) * N;
    return g * std::max(r(root) * root_sends, max_others([&](int j) { return f[j] * N; })) + L;
  };

  switch (a.algorithm) {
    case Algorithm::scatter: return scatter();
    case Algorithm::broadcast_one_phase:
      return g * std::max(r(root) * k * N, max_others([&](int) { return N; })) + L;
    case Algorithm::broadcast_two_phase: {
      double h2 = 0.0;
      for (int j = 0; j < p; ++j)
        h2 = std::max(h2, r(j) * (paper ? std::max(k * f[j], 1.0) : std::max((p - 1) * f[j], 1.0 - f[j])) * N);
      return scatter() + g * h2 + L;
    }
    case Algorithm::prefix_sums: {
      const double local = W([&](int j) { return f[j] * n; });
      const double comm = g * std::max(max_others([](int) { return 1.0; }), k * r(root)) * s;
      return local + comm + L + p / W_root_scale + comm + L + local + L;
    }
    case Algorithm::matrix_multiplication:
      return p * W([&](int j) { return f[j] * n * (n / p) * n; }) + g * m.r_max(p) * n * n * s + p * L;
    case Algorithm::sample_sort: {
      const double o = a.oversampling;
      const double step1 = W([&](int) { return o; }) +
                           g * std::max(max_others([&](int) { return o; }), k * r(root) * o) * s + L;
      const double step2 = p * o * lg(p * o) / W_root_scale +
                           g * std::max(max_others([](int) { return 1.0; }), k * r(root)) * (p - 1) * s + L;
      double h3 = 0.0;
      for (int j = 0; j < p; ++j) h3 = std::max(h3, r(j) * (paper ? f[j] : f[j] * (1.0 - f[j])) * N);
      const double step3 = W([&](int j) { return f[j] * n; }) + g * h3 + L;
      const double step4 = W([&](int j) { return f[j] * n * lg(n); }) + L;
      return step1 + step2 + step3 + step4;
    }
  }
  return 0.0;
}

double paper_form_cost(const Machine& m, const AlgorithmParams& a) {
  validate(m, a);
  const int p = a.p;
  const double g = m.g, L = m.latency(p), s = a.item_size, n = a.n, N = n * s;
  const int fast = m.fastest(p);
  const double r_s = m.r_max(p), g_s = g * r_s, g_f = g * m.processors[fast].r;
  const double c = m.total_relative_speed(p), c_f = m.relative_speed(fast, p);
  switch (a.algorithm) {
    case Algorithm::scatter: return g * N + L;
    case Algorithm::broadcast_one_phase: return g * N * p + L;
    case Algorithm::broadcast_two_phase: return g * N * (1.0 + r_s) + 2.0 * L;
    case Algorithm::prefix_sums: return 2.0 * n / c + p / c_f + 2.0 * std::max(g_s, g_f * p) * s + 3.0 * L;
    case Algorithm::matrix_multiplication: return n * n * n / c + g_s * n * n * s + p * L;
    case Algorithm::sample_sort: {
      const double o = a.oversampling;
      const double X = g_s <= p * g_f ? p * g_f : g_s;
      double last = 0.0;
      for (int i = 0; i < p; ++i) last = std::max(last, g * m.processors[i].r * m.share(i, p) * N);
      return o + p * o * lg(p * o) / c_f + n / c + n * lg(n) / c + X * (o + p - 1) * s + last + 4.0 * L;
    }
  }
  return 0.0;
}

}  // namespace

double closed_form(const Machine& m, const AlgorithmParams& a) {
  return finite_cost(closed_form_cost(m, a), m, a, "closed form");
}

double paper_form(const Machine& m, const AlgorithmParams& a) {
  return finite_cost(paper_form_cost(m, a), m, a, "paper's form");
}

}  // namespace hetstruct::bounds::hbsp
