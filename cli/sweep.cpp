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
#include <sstream>

#include "cli/model.h"
#include "cli/output.h"
#include "distributions/input_error.h"
#include "distributions/law.h"
#include "engine/monte_carlo.h"

#ifdef HETSTRUCT_MPI
#include "cli/mpi_sweep.h"
#include "engine/interrupt.h"
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

void add_unique(const std::string& option, std::vector<std::string>& seen_text, const std::string& text) {
  if (std::find(seen_text.begin(), seen_text.end(), text) != seen_text.end())
    throw InputError(option, "the value " + text + " appears twice");
  seen_text.push_back(text);
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
  std::vector<std::string> seen;
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
    for (long long v = lo;; v += step) {
      add_unique(option, seen, std::to_string(v));
      values.push_back(v);
      if (hi - v < step) break;
    }
  }
  if (values.size() > limit) throw InputError(option, "more than " + std::to_string(limit) + " values", "raise --max-configs");
  return values;
}

std::vector<double> expand_numbers(const std::string& option, const std::string& text, std::uint64_t limit) {
  std::vector<double> values;
  std::vector<std::string> seen;
  auto add = [&](double v) {
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
    const auto last = static_cast<long long>(std::floor(q + 1e-9 * std::max(1.0, std::fabs(q))));
    for (long long k = 0; k <= last; ++k) {
      double v = lo + static_cast<double>(k) * step;
      if (k == last && std::fabs(v - hi) <= 1e-9 * std::max(std::fabs(hi), std::fabs(step))) v = hi;
      add(v);
    }
  }
  if (values.size() > limit) throw InputError(option, "more than " + std::to_string(limit) + " values", "raise --max-configs");
  return values;
}

bool parse_csv_line(const std::string& line, std::vector<std::string>& fields) {
  fields.clear();
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(field);
  return !quoted;
}

namespace {

// ---- the grid --------------------------------------------------------------------------------

// One configuration: the canonical text of each dimension (what the CSV holds).
using Config = std::array<std::string, dimension_count>;

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
  auto add = [&](const std::string& v) {
    if (std::find(out.begin(), out.end(), v) != out.end()) throw InputError(option, "the value " + v + " appears twice");
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

ModelOptions to_model(const Config& c) {
  ModelOptions m;
  m.structure = c[d_structure];
  m.law = c[d_law];
  m.fast_law = c[d_fast_law];
  m.width = std::stoi(c[d_n]);
  m.fast_count = std::stoi(c[d_m]);
  m.scale = c[d_a];
  m.levels = std::stoi(c[d_levels]);
  m.comm = c[d_comm];
  m.protocol = c[d_protocol];
  m.policy = c[d_policy];
  m.exchange = c[d_exchange];
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

struct Comparison {
  Dim dim;
  std::string value;
  std::string label;  // "m=0"
};

Config with(Config c, const Comparison& cmp) {
  c[cmp.dim] = cmp.value;
  return c;
}

// Builds and compiles a configuration with one level (enough to catch bad combinations).
void validate(const Config& c) {
  ModelOptions m = to_model(c);
  m.levels = 1;
  const auto s = m.build();
  (void)engine::compile(s, m.compile_options());
}

// ---- estimating one configuration ------------------------------------------------------------

struct Estimators {
  engine::RunOptions run;
  std::vector<Comparison> comparisons;
  std::map<std::string, double> nn_zero_cache;  // E(nn) at C = 0 per shape, for Eq. 12

  // Work units (replications x tasks) of a configuration, for the progress estimate.
  static double work(const Config& c, std::size_t comparisons) {
    return static_cast<double>(std::stoll(c[d_n])) * std::stoll(c[d_levels]) * (1.0 + 2.0 * comparisons);
  }

  std::string rows(const Config& c, const std::function<void(double)>& fraction) {
    const std::string prefix = [&] {
      std::string p;
      for (const auto& f : c) p += csv_field(f) + ',';
      return p;
    }();
    const std::string seed = std::to_string(run.seed);
    std::ostringstream out;
    auto row = [&](const std::string& estimator, const std::string& method, const std::string& compare,
                   double value, const engine::Estimate* e) {
      out << prefix << estimator << ',' << csv_field(method) << ',' << csv_field(compare) << ',' << full(value) << ','
          << (e ? full(e->stderr_) : "") << ',' << (e ? full(e->ci_low) : "") << ',' << (e ? full(e->ci_high) : "")
          << ',' << (e ? std::to_string(e->reps) : "") << ',' << (e ? seed : "") << '\n';
    };

    const ModelOptions model = to_model(c);
    const structures::Structure s = model.build();
    const engine::Plan plan = engine::compile(s, model.compile_options());
    const bool zero_comm = plan.kind != engine::PlanKind::protocol;
    const bool paper_uniform = model.is_paper_uniform();
    const double a = model.scale_value(), comm = model.comm_value();
    const double steps = 1.0 + 2.0 * comparisons.size();
    double done = 0.0;
    engine::RunOptions r = run;
    r.progress = [&](std::uint64_t d, std::uint64_t t) { fraction((done + static_cast<double>(d) / t) / steps); };

    if (zero_comm) {
      if (const auto closed = closed_form(s, paper_uniform, a)) row("closed_form", closed->method, "", closed->value, nullptr);
    }
    double nn_zero = 0.0;
    std::optional<engine::Estimate> nn_zero_estimate;
    if (s.kind == structures::StructureKind::nearest_neighbor) {
      Config shape = c;
      shape[d_comm] = shape[d_protocol] = shape[d_policy] = "";
      const auto key = config_key(shape);
      if (auto it = nn_zero_cache.find(key); it != nn_zero_cache.end()) {
        nn_zero = it->second;
      } else {
        engine::RunOptions quiet = run;
        nn_zero = engine::run(engine::compile(s), quiet).mean;
        nn_zero_cache.emplace(key, nn_zero);
      }
    }
    if (const auto b = comm_bounds(s, paper_uniform, a, comm, nn_zero)) {
      const char* method = s.kind == structures::StructureKind::synchronous ? "eq11"
                           : s.kind == structures::StructureKind::nearest_neighbor
                               ? "simulated+eq12"
                               : (0 < s.fast_count && s.fast_count < s.width ? "eq13+eq17" : "eq13");
      if (!std::isnan(b->lower)) row("lower_bound", method, "", b->lower, nullptr);
      if (!std::isnan(b->upper)) row("upper_bound", method, "", b->upper, nullptr);
    }
    for (const auto& cmp : comparisons) {
      const ModelOptions other = to_model(with(c, cmp));
      const engine::Plan base = engine::compile(other.build(), other.compile_options());
      const engine::Estimate d = engine::run_difference(plan, base, r);
      done += 2.0;
      row("difference", "paired", cmp.label, d.mean, &d);
    }
    const engine::Estimate e = engine::run(plan, r);
    row("mc", zero_comm ? engine::to_string(plan.kind) : plan.protocol, "", e.mean, &e);
    return out.str();
  }
};

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
                   "OPTION=VALUE: add each configuration's paired difference against the same configuration with "
                   "OPTION = VALUE (common random numbers); repeatable")
      ->group(g);
  app_->add_flag("--skip-invalid", skip_invalid, "Leave out configurations that cannot be built (m > n, ...) instead of failing")
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

  std::vector<Comparison> comparisons;
  for (const auto& text : compare_to) {
    const auto eq = text.find('=');
    const std::string name = eq == std::string::npos ? "" : trim(text.substr(0, eq));
    const auto it = std::find_if(sweep_dimensions.begin(), sweep_dimensions.end(), [&](const std::string& d) {
      return d == name || (d == "fast_law" && name == "fast-law");
    });
    if (eq == std::string::npos || it == sweep_dimensions.end())
      throw InputError("--compare-to", "'" + text + "' is not OPTION=VALUE with a model option",
                       "for example m=0, protocol=coordinator");
    const Dim d = static_cast<Dim>(it - sweep_dimensions.begin());
    const auto values = dimension_values(d, {trim(text.substr(eq + 1))}, max_configs);
    if (values.size() != 1) throw InputError("--compare-to", "'" + text + "' must give one value");
    comparisons.push_back({d, values[0], *it + "=" + values[0]});
  }

  // Every configuration (and its baselines) must build before anything runs or is written.
  std::vector<std::uint64_t> indices;
  std::uint64_t invalid = 0;
  std::set<std::string> grid_keys;
  for (std::uint64_t i = 0; i < grid.size(); ++i) {
    const Config c = grid.at(i);
    try {
      validate(c);
      for (const auto& cmp : comparisons) {
        try {
          validate(with(c, cmp));
        } catch (const InputError& e) {
          throw InputError("--compare-to " + cmp.label, e.what());
        }
      }
    } catch (const InputError& e) {
      if (!skip_invalid) throw InputError("sweep", "configuration " + describe(c) + ": " + e.what(), "or --skip-invalid");
      ++invalid;
      continue;
    }
    indices.push_back(i);
    grid_keys.insert(config_key(c));
  }
  if (indices.empty()) throw InputError("sweep", "no configuration of the grid can be built");

  if (!out_path.empty()) {  // fail now, not after the simulation
    const auto slash = out_path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : out_path.substr(0, slash);
    if (::access(dir.c_str(), W_OK) != 0) throw InputError(out_path, "cannot write into the folder '" + dir + "'");
  }
  std::map<std::string, std::string> previous;
  if (resume) previous = read_resume_file(out_path, reps, seed, grid_keys);

  Estimators estimators;
  estimators.run.seed = seed;
  estimators.run.reps = reps;
  estimators.run.threads = threads;
  estimators.comparisons = comparisons;

  std::vector<std::string> rows(indices.size());
  std::vector<std::size_t> todo;
  double total_work = 0.0;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const Config c = grid.at(indices[k]);
    if (auto it = previous.find(config_key(c)); it != previous.end()) {
      rows[k] = it->second;
      ++resumed_configs;
    } else {
      todo.push_back(k);
      total_work += Estimators::work(c, comparisons.size());
    }
  }

  auto assemble = [&] {
    std::string text = std::string(sweep_header) + "\n";
    for (const auto& r : rows) text += r;
    return text;
  };

#ifdef HETSTRUCT_MPI
  const MpiWorld world;  // one process unless started by mpirun
  const std::vector<std::size_t> mine = world.share(todo);
  const bool single_process = world.size() == 1;
  const bool report = !quiet && world.rank() == 0;
#else
  const std::vector<std::size_t>& mine = todo;
  const bool single_process = true;
  const bool report = !quiet;
#endif
  const auto t0 = std::chrono::steady_clock::now();
  auto last_checkpoint = t0;
  double my_work = 0.0;
  for (const std::size_t k : mine) my_work += Estimators::work(grid.at(indices[k]), comparisons.size());
  Reporter reporter(!report, progress_interval, single_process ? total_work : my_work);
  double work_done = 0.0;
  std::uint64_t configs_done = resumed_configs;
  for (const std::size_t k : mine) {
    const Config c = grid.at(indices[k]);
    const double w = Estimators::work(c, comparisons.size());
    try {
      rows[k] = estimators.rows(c, [&](double f) { reporter.set(work_done + f * w, configs_done, indices.size()); });
    } catch (const engine::Interrupted&) {
      // Keep what is complete, so that --resume loses nothing but the configuration under way.
      if (single_process && !out_path.empty() && configs_done > 0) {
        write_file_atomically(out_path, assemble());
        throw engine::Interrupted("interrupted; the " + std::to_string(configs_done) + " complete configurations are in " +
                                  out_path + " (--resume continues)");
      }
      throw;
    }
    work_done += w;
    ++configs_done;
    ++computed_configs;
    reporter.set(work_done, configs_done, indices.size());
    // Checkpoint: the complete configurations so far, atomically, at most every 2 s (one process
    // only: under MPI the rows are on several ranks until the end).
    const auto now = std::chrono::steady_clock::now();
    if (single_process && !out_path.empty() && now - last_checkpoint > std::chrono::seconds(2)) {
      write_file_atomically(out_path, assemble());
      last_checkpoint = now;
    }
  }
#ifdef HETSTRUCT_MPI
  if (!world.gather(rows, mine, computed_configs)) return 0;  // ranks other than 0 are done
#endif

  if (out_path.empty()) std::cout << assemble();
  else write_file_atomically(out_path, assemble());
  if (report) {
    std::ostringstream summary;
    summary << "hetstruct sweep: " << indices.size() << " configurations (" << computed_configs << " simulated, "
            << resumed_configs << " resumed";
    if (invalid) summary << ", " << invalid << " invalid left out";
    summary << "), " << reps << " replications each, seed " << seed << ", "
            << fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1) << " s";
    if (!out_path.empty()) summary << ", wrote " << out_path;
    std::cerr << summary.str() << "\n";
  }
  return 0;
}

}  // namespace hetstruct::cli
