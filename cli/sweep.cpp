#include "cli/sweep.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>

#include "cli/distribution.h"
#include "cli/output.h"
#include "cli/parameters.h"
#include "distributions/format.h"
#include "distributions/input_error.h"
#include "engine/driver/interrupt.h"
#include "engine/driver/monte_carlo.h"
#include "engine/sweep/sweep.h"
#include "structures/task_graphs.h"

#ifdef HETSTRUCT_MPI
#include "cli/mpi_sweep.h"
#include "structures/schedule.h"
#endif

namespace hetstruct::cli {

namespace {

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

// ---- the sweep's state -------------------------------------------------------------------------

struct Settings {
  std::uint64_t reps = 0, seed = 0, max_configs = 0;
  engine::GraphSettings graph;                // --task-law, --task-cv, --mapping, --bandwidth, --scales, --cores
  engine::DistributionOptions distribution;   // --estimators: rows beyond the mean
  std::optional<engine::MeanEstimator> mean;  // --estimator and the targets; none: plain blocks
};

// A configuration's rows: simulated here, its records as a reader of their CSV takes them
// (engine::read_back; JSON and text are rendered from them) or, for a CSV, their lines (the CSV is
// what checkpoints and resumes); resumed, the file's lines as written.
struct ConfigRows {
  std::string csv;
  std::vector<engine::Record> records;
  bool empty() const { return csv.empty() && records.empty(); }
};

// The configurations (all of them, in grid order), those left to simulate and their runs, and the
// rows per configuration.
struct Sweep {
  std::vector<engine::Comparison> comparisons;
  engine::SweepEntries valid;
  std::vector<engine::Entry> todo;
  std::vector<engine::RunSpec> runs;
  std::vector<ConfigRows> rows;
  bool keep_records = false;  // the output is JSON or text: keep the simulated rows as records
  std::uint64_t resumed = 0;
  bool target = false;  // the means stop on a target: the column target_met
  bool slowdowns = false;  // correlated slowdowns: their columns
  std::uint64_t missed = 0;  // mean rows simulated here whose target the cap stopped first

  const std::vector<std::string>& columns() const { return engine::sweep_columns(target, slowdowns); }
  std::string csv() const {
    std::string text = engine::csv_header(columns());
    for (const auto& r : rows) text += r.csv;
    return text;
  }
  // The whole output in `format`: the CSV's text, or JSON and text rendered from the records (rows
  // resumed from a file, CSV lines, read once here); moves the records out.
  std::string output(engine::Format format) {
    if (format == engine::Format::csv) return csv();
    std::vector<engine::Record> records;
    for (auto& r : rows) {
      if (r.records.empty() && !r.csv.empty()) r.records = engine::records_of_csv(engine::csv_header(columns()) + r.csv);
      std::move(r.records.begin(), r.records.end(), std::back_inserter(records));
      r.records.clear();
    }
    return engine::render(records, format, columns());
  }
  std::map<std::string, std::uint64_t> mean_estimators;  // the simulated mean rows' estimators, counted

  ConfigRows rows_of(const engine::Entry& entry, const engine::Job& job, const std::vector<engine::Estimate>& estimates,
                     std::uint64_t seed, const std::vector<engine::RunExtras>& extras) {
    ConfigRows out;
    out.records = engine::config_records(entry, job, comparisons, estimates, seed, extras, target);
    ++mean_estimators[out.records.back().text("estimator")];  // the mean row is the last
    if (out.records.back().text("target_met") == "false") ++missed;
    if (!keep_records) {
      for (const auto& r : out.records) out.csv += engine::csv_line(r);
      out.records.clear();
    } else {
      for (auto& r : out.records) r = engine::read_back(r);  // an infinite number refused now, as a CSV line would be
    }
    return out;
  }
};

// The grid's entries; a configuration that cannot be built is reported with its cause's flag.
engine::SweepEntries entries_of(const std::vector<engine::SweepGrid>& grids, const std::vector<engine::Comparison>& comparisons,
                                bool skip_invalid, const engine::GraphSettings& graph) {
  try {
    return engine::build_entries(grids, comparisons, skip_invalid, graph);
  } catch (const engine::InvalidConfiguration& e) {
    const std::string comparison = e.comparison().empty() ? "" : "--compare-to " + e.comparison() + ": ";
    throw InputError("sweep", "configuration " + e.configuration() + ": " + comparison + flag_message(e.cause()),
                     "or --skip-invalid");
  }
}

// The --out file to resume: its text (none when there is no file yet: start afresh).
std::string read_resume_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in && ::access(path.c_str(), F_OK) == 0) throw InputError(path, "cannot read the file to resume");
  std::stringstream buffer;
  if (in) buffer << in.rdbuf();
  return buffer.str();
}

void check_writable_folder(const std::string& path) {
  if (const auto problem = output_file_problem(path); !problem.empty()) throw InputError("--out", problem);
}

// ---- the --config file --------------------------------------------------------------------------

// --reps, --seed and --max-configs: counts with their bounds.
struct CountOption {
  const char* flag;
  std::uint64_t max, min;
  const char* too_small;
};
constexpr std::array<CountOption, 3> scalar_options = {{
    {"--reps", engine::max_replications, 1, "the number of replications must be at least 1"},
    {"--seed", std::numeric_limits<std::uint64_t>::max(), 0, ""},
    {"--max-configs", std::numeric_limits<std::uint32_t>::max(), 1, "must be at least 1"},
}};

std::uint64_t count_option(const CountOption& o, const std::string& text) {
  const std::uint64_t v = parse_count(o.flag, text, o.max);
  if (v < o.min) throw InputError(o.flag, o.too_small);
  return v;
}

// A key of the --config file: a list option (`index`: its grid dimension, SweepDim::count for
// compare_to, distribution_key for the distribution's, graph_key and port_key for --graph and
// --port, which make_grids reads apart from the dimensions) or a count (`index` into scalar_options).
struct ConfigKey {
  const char* name;
  std::vector<std::string> SweepCommand::*list;
  std::string SweepCommand::*scalar;
  std::size_t index;
};
using D = engine::SweepDim;
constexpr std::size_t distribution_key = D::count + 1, graph_key = D::count + 2, port_key = D::count + 3;
const std::array<ConfigKey, 23> config_keys = {{
    {"structure", &SweepCommand::structure, nullptr, D::structure}, {"graph", &SweepCommand::graph, nullptr, graph_key},
    {"port", &SweepCommand::port, nullptr, port_key}, {"law", &SweepCommand::law, nullptr, D::law},
    {"fast_law", &SweepCommand::fast_law, nullptr, D::fast_law}, {"fast-law", &SweepCommand::fast_law, nullptr, D::fast_law},
    {"n", &SweepCommand::n, nullptr, D::n}, {"m", &SweepCommand::m, nullptr, D::m}, {"a", &SweepCommand::a, nullptr, D::a},
    {"levels", &SweepCommand::levels, nullptr, D::levels}, {"comm", &SweepCommand::comm, nullptr, D::comm},
    {"protocol", &SweepCommand::protocol, nullptr, D::protocol}, {"policy", &SweepCommand::policy, nullptr, D::policy},
    {"exchange", &SweepCommand::exchange, nullptr, D::exchange},
    {"compare_to", &SweepCommand::compare_to, nullptr, D::count}, {"compare-to", &SweepCommand::compare_to, nullptr, D::count},
    {"reps", nullptr, &SweepCommand::reps_text, 0}, {"seed", nullptr, &SweepCommand::seed_text, 1},
    {"max_configs", nullptr, &SweepCommand::max_configs_text, 2}, {"max-configs", nullptr, &SweepCommand::max_configs_text, 2},
    {"estimators", &SweepCommand::estimators, nullptr, distribution_key}, {"quantiles", &SweepCommand::quantiles, nullptr, distribution_key},
    {"deadline", &SweepCommand::deadlines, nullptr, distribution_key},
}};

const ConfigKey* find_config_key(const std::string& name) {
  for (const auto& k : config_keys)
    if (name == k.name) return &k;
  return nullptr;
}

// Keys that set one of the command's options through CLI11, which parses and checks the value as
// it does on the command line: the graphs' settings, the mean rows' estimator and targets.
constexpr std::array<std::pair<const char*, const char*>, 23> option_keys = {{
    {"task_law", "--task-law"}, {"task-law", "--task-law"}, {"task_cv", "--task-cv"}, {"task-cv", "--task-cv"},
    {"mapping", "--mapping"}, {"bandwidth", "--bandwidth"}, {"scales", "--scales"}, {"cores", "--cores"},
    {"schedule", "--schedule"}, {"sd_weight", "--sd-weight"}, {"sd-weight", "--sd-weight"},
    {"estimator", "--estimator"}, {"target_se", "--target-se"}, {"target-se", "--target-se"},
    {"target_rel", "--target-rel"}, {"target-rel", "--target-rel"}, {"target_reps", "--target-reps"},
    {"target-reps", "--target-reps"}, {"se_floor", "--se-floor"}, {"se-floor", "--se-floor"},
    {"slowdown", "--slowdown"}, {"machine_slowdown", "--machine-slowdown"}, {"machine-slowdown", "--machine-slowdown"},
}};

const char* option_key_flag(const std::string& name) {
  for (const auto& [key, flag] : option_keys)
    if (name == key) return flag;
  return nullptr;
}

std::string config_keys_hint() {
  std::string hint = "keys:";
  for (const auto& k : config_keys)
    if (!std::strchr(k.name, '-')) hint += std::string(hint.size() > 5 ? ", " : " ") + k.name;
  for (const auto& [key, flag] : option_keys)
    if (!std::strchr(key, '-')) hint += std::string(", ") + key;
  return hint;
}

// The option a key sets, one for both spellings of a key.
const void* target(const SweepCommand& c, const ConfigKey& k) {
  return k.list ? static_cast<const void*>(&(c.*k.list)) : static_cast<const void*>(&(c.*k.scalar));
}

// Checks the values a key gave as execute() will read them (InputError naming the flag or parameter).
void check_value(const SweepCommand& c, const ConfigKey& k, std::uint64_t limit) {
  if (k.scalar) {
    (void)count_option(scalar_options[k.index], c.*k.scalar);
  } else if (k.index < D::count) {
    (void)engine::dimension_values(k.index, c.*k.list, limit);
  } else if (k.index == graph_key) {  // as make_grids expands them: a folder without graph files, a pattern matching none
    for (const auto& text : c.graph)
      for (const auto& item : engine::split_list("graph", text)) (void)structures::expand_graph_paths(item);
  } else if (k.index == port_key) {  // the values of the protocol column that to_model reads as port models
    for (const auto& port : engine::dimension_values(D::protocol, c.port, limit)) (void)engine::parse_sweep_port(port);
  } else if (k.index == distribution_key) {  // this key alone (p_deadline's deadline may come from elsewhere)
    (void)sweep_distribution(k.list == &SweepCommand::estimators ? c.estimators : std::vector<std::string>{},
                             k.list == &SweepCommand::quantiles ? c.quantiles : std::vector<std::string>{},
                             k.list == &SweepCommand::deadlines ? c.deadlines : std::vector<std::string>{"0"});
  } else {
    for (const auto& text : c.*k.list) (void)engine::Comparison(text);
  }
}

// Skips a TOML value from `i` on one line: strings (a multi-line one stays `open`), comments, and
// the depth of brackets (an array may span lines).
void skip_toml_value(const std::string& line, std::size_t i, int& depth, std::string& open) {
  for (; i < line.size(); ++i) {
    if (!open.empty()) {
      if (line.compare(i, 3, open) == 0) open.clear(), i += 2;
      continue;
    }
    const char c = line[i];
    if (c == '#') return;
    if (c == '[') ++depth;
    if (c == ']') depth = std::max(0, depth - 1);
    if (c != '"' && c != '\'') continue;
    if (line.compare(i, 3, std::string(3, c)) == 0) {
      open.assign(3, c), i += 2;
      continue;
    }
    for (++i; i < line.size() && line[i] != c; ++i)
      if (c == '"' && line[i] == '\\') ++i;
  }
}

// The line of each key of a TOML file, by section and name ("sweep.n"): CLI11's reader keeps no
// line, and reads a key given twice as one list of both values, so a key given twice in a section
// is an error here (InputError naming both lines).
std::map<std::string, int> toml_key_lines(const std::string& path, std::istream& in) {
  std::map<std::string, int> lines;
  std::string section, line, open;
  int depth = 0, number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto b = line.find_first_not_of(" \t");
    if (depth > 0 || !open.empty() || b == std::string::npos || line[b] == '#') {
      skip_toml_value(line, 0, depth, open);
      continue;
    }
    if (line[b] == '[') {  // [section] or [[section]]
      const auto name = line.find_first_not_of("[ \t", b), end = line.find(']', b);
      section = name < end && end != std::string::npos ? line.substr(name, line.find_last_not_of(" \t", end - 1) + 1 - name) + "." : "";
      continue;
    }
    const auto eq = line.find('=', b);
    if (eq == std::string::npos) continue;
    const auto last = eq > b ? line.find_last_not_of(" \t", eq - 1) : std::string::npos;
    std::string key = last == std::string::npos ? "" : line.substr(b, last + 1 - b);  // "= 1": no key
    if (key.size() >= 2 && (key[0] == '"' || key[0] == '\'') && key.back() == key[0]) key = key.substr(1, key.size() - 2);
    if (const auto [first, added] = lines.emplace(section + key, number); !added)
      throw InputError(path + ":" + std::to_string(number),
                       "key '" + key + "': given twice (first on line " + std::to_string(first->second) + ")");
    skip_toml_value(line, eq + 1, depth, open);
  }
  return lines;
}

}  // namespace

// ---- the command -----------------------------------------------------------------------------

void SweepCommand::add_to(CLI::App& app) {
  app_ = app.add_subcommand("sweep",
                            "Simulate the product grid of model options (lists, ranges) as one tidy CSV, with paired "
                            "differences, resume and progress");
  auto* g = "Grid";
  auto list = [&](const char* name, std::vector<std::string>& target, const std::string& help) {
    app_->add_option(name, target, help)->group(g)->allow_extra_args(true);
  };
  list("--structure,-s", structure, "async | sync | nn | ms, a list: sync,nn,ms (required, unless --graph)");
  list("--graph", graph, "Graph files (.dot, .gv, .stg, .json), a list a.dot,b.dot, a folder (its graph files) or a "
                         "pattern 'graphs/*.dot': values of the structure column, with --m, --a, --comm and --port "
                         "(--n, --law, --fast-law, --levels, --protocol, --policy and --exchange act on --structure only)");
  list("--port", port,
       "A graph's port models, a list: " + engine::port_names(",", ",", true) + " (the protocol column)");
  add_graph_settings();
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
  auto* slow = "Correlated slowdowns (every configuration; see simulate)";
  app_->add_option("--slowdown", slowdown,
                   "Each replication draws one factor per processor from this law (>= 0), or from its own law of a list "
                   "of one per processor (c(1),u(1,2)), and multiplies all its task times by it; the closed_form and "
                   "bound rows then have no value (they assume independent times)")
      ->check(non_empty("give a law such as u(1,2); leave --slowdown out for independent times"))->group(slow);
  app_->add_option("--machine-slowdown", machine_slowdown,
                   "Each replication draws one factor for the whole machine from this law and multiplies every task time by it")
      ->check(non_empty("give a law such as u(1,2); leave --machine-slowdown out for independent times"))->group(slow);
  app_->add_option("--config", config_path,
                   "TOML file giving any of these options (keys as the long names: n = [8, 16], comm = \"0:0.25:0.025\"); "
                   "the command line overrides it")
      ->group(g);
  app_->add_option("--compare-to", compare_to,
                   "OPTION=VALUE[,OPTION=VALUE...]: add each configuration's paired difference and ratio of the "
                   "means (common random numbers; the ratio's standard error by the delta method) against the "
                   "same configuration with these options set together; n, m, a, levels and "
                   "comm take expressions over the configuration's own columns (n=n-m,m=0 compares (n,m) with "
                   "(n-m,0)); repeatable. A target that cannot be built (n-m = 0) is an error, or with "
                   "--skip-invalid leaves out that difference row. schedule=" + structures::schedule_names("|", "|") + "|none|one-per-task "
                   "(alone) compares each graph's --schedule with another. With quantiles or deadlines, the paired "
                   "quantile_difference and p_deadline_difference rows too")
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
      ->check(non_empty("leave --out out to print on stdout"))
      ->group("Output");
  app_->add_option("--format,-f", format, "csv (checkpointed, resumable) | json | text (written once, at the end)")
      ->capture_default_str()->group("Output");
  app_->add_flag("--resume", resume, "Keep the configurations already complete in --out and simulate the others")
      ->group("Output");
  app_->add_flag("--quiet,-q", quiet, "No progress and no summary on stderr")->group("Output");
  add_sweep_distribution_options(*app_, estimators, quantiles, deadlines);
  estimator.add_to(*app_,
                   "The mean rows' estimator, mc | auto | cv | antithetic | antithetic-cv: auto takes control variates "
                   "(with antithetic pairs for ms) where they pay, else mc; the exact expectation is the closed_form "
                   "row. Any but mc, or a target, estimates each configuration's mean whole on one rank (the "
                   "differences stay plain Monte Carlo at --reps); not with --estimators (plain replications)");
}

// Settings of every graph, not columns (simulate's options of the same names).
void SweepCommand::add_graph_settings() {
  auto* graphs = "Graphs (every graph of the sweep)";
  app_->add_option("--task-law", task_law, "STG/WfFormat: the law around each task's mean: normal | uniform | constant")
      ->capture_default_str()->group(graphs);
  app_->add_option("--task-cv", task_cv, "STG/WfFormat: coefficient of variation of each task's time (0: the mean, constant)")
      ->capture_default_str()->group(graphs);
  app_->add_option("--mapping", mapping, "STG/WfFormat: a file of 'task processor' lines, in each processor's order")
      ->group(graphs);
  app_->add_option("--bandwidth", bandwidth, "WfFormat: bytes per unit of time for a crossing edge's files (default: --comm)")
      ->group(graphs);
  app_->add_option("--dispatch", dispatch,
                   "How a processor takes its tasks: ready (work-conserving, first come first served) | ordered (the "
                   "input's order). Default: ordered where the input states an order, ready where it does not")
      ->group(graphs);
  app_->add_option("--schedule", schedule,
                   "Place every graph's tasks by a static schedule from the mean times (and each configuration's "
                   "--comm): " + structures::schedule_names(" | ", " | ") + " (see hetstruct schedule)")
      ->group(graphs);
  app_->add_option("--sd-weight", sd_weight, "With --schedule heft-sd: k, the weight of each time's standard deviation")
      ->capture_default_str()->group(graphs);
  app_->add_option("--scales", scales, "Each processor's scale, a list 1,1,1/2 (replaces the file's speeds; not with --m)")
      ->group(graphs);
  app_->add_option("--cores", cores, "Each processor's cores, a list 4,4,1 or one count for all (replaces the file's)")
      ->group(graphs);
}

bool SweepCommand::parsed() const { return app_ != nullptr && app_->parsed(); }

bool SweepCommand::given(const char* flag) const {
  const auto* option = app_ ? app_->get_option_no_throw(flag) : nullptr;
  return option && option->count() > 0;
}

void SweepCommand::apply_config_file() {
  if (config_path.empty()) return;
  std::vector<CLI::ConfigItem> items;
  std::map<std::string, int> lines;
  try {
    std::ifstream in(config_path, std::ios::binary);
    if (!in) throw CLI::FileError(config_path);
    std::stringstream text;
    text << in.rdbuf();
    std::istringstream toml(text.str()), scan(text.str());
    items = CLI::ConfigTOML().from_config(toml);
    lines = toml_key_lines(config_path, scan);
  } catch (const CLI::Error&) {
    throw InputError("--config", "cannot read '" + config_path + "'");
  }
  std::map<const void*, int> given;  // option -> -1: on the command line (which wins), or the file's line
  for (const auto& k : config_keys) {
    const auto* flag = app_ && k.scalar ? app_->get_option_no_throw(scalar_options[k.index].flag) : nullptr;
    if (k.list ? !(this->*k.list).empty() : flag && flag->count() > 0) given.emplace(target(*this, k), -1);
  }
  for (const auto& [key, flag] : option_keys)
    if (const auto* option = app_ ? app_->get_option_no_throw(flag) : nullptr; option && option->count() > 0)
      given.emplace(option, -1);
  std::vector<std::tuple<const ConfigKey*, std::string, std::string>> read;  // key, where, name: checked below
  for (const auto& item : items) {
    if (item.name == "++" || item.name == "--") continue;  // CLI11's section markers
    const std::string section = item.parents.empty() ? "" : CLI::detail::join(item.parents, ".") + ".";
    const int line = lines[section + item.name];
    const std::string where = config_path + (line > 0 ? ":" + std::to_string(line) : "");
    if (!item.parents.empty() && !(item.parents.size() == 1 && item.parents[0] == "sweep"))
      throw InputError(where, "unknown section '" + item.parents[0] + "'", "use top-level keys or [sweep]");
    if (const char* flag = option_key_flag(item.name); flag && app_) {
      CLI::Option* option = app_->get_option(flag);
      if (const auto [first, added] = given.emplace(option, line); !added) {
        if (first->second < 0) continue;  // the command line wins
        throw InputError(where, "key '" + item.name + "': given twice (first on line " + std::to_string(first->second) + ")");
      }
      if (item.inputs.size() != 1) throw InputError(where, "key '" + item.name + "': takes one value");
      try {
        option->add_result(item.inputs[0]);
        option->run_callback();
        (void)estimator.value();  // the value checked now, so that its error names the line
        (void)estimator.stop(!config_path.empty());
        (void)structures::parse_task_law_shape(task_law);
      } catch (const CLI::Error& e) {
        throw InputError(where, "key '" + item.name + "': " + e.what());
      } catch (const InputError& e) {
        throw InputError(where, "key '" + item.name + "': " + e.problem(), e.hint());
      }
      continue;
    }
    const ConfigKey* k = find_config_key(item.name);
    if (!k) throw InputError(where, "unknown key '" + item.name + "'", config_keys_hint());
    if (const auto [first, added] = given.emplace(target(*this, *k), line); !added) {
      if (first->second < 0) continue;  // the command line wins
      throw InputError(where, "key '" + item.name + "': given twice (first on line " + std::to_string(first->second) + ")");
    }
    if (item.inputs.empty() || (k->scalar && item.inputs.size() != 1))
      throw InputError(where, "key '" + item.name + "': " + (k->scalar ? "takes one value" : "has no value"));
    if (k->scalar) this->*k->scalar = item.inputs[0];
    else (this->*k->list).insert((this->*k->list).end(), item.inputs.begin(), item.inputs.end());
    read.emplace_back(k, where, item.name);
  }
  // The file's values, checked now so that an error names the line and the key; scalars first:
  // max_configs bounds the lists.
  for (const bool scalars : {true, false}) {
    const std::uint64_t limit = scalars ? 0 : count_option(scalar_options[2], max_configs_text);
    for (const auto& [k, where, name] : read) {
      if ((k->scalar != nullptr) != scalars) continue;
      try {
        check_value(*this, *k, limit);
      } catch (const InputError& e) {
        throw InputError(where, "key '" + name + "': " + e.problem(), e.hint());
      }
    }
  }
}

namespace {

Settings read_settings(const SweepCommand& c) {
  Settings s;
  s.reps = count_option(scalar_options[0], c.reps_text);
  s.seed = count_option(scalar_options[1], c.seed_text);
  s.max_configs = count_option(scalar_options[2], c.max_configs_text);
  if (c.threads < 0) throw InputError("--threads", "must be 0 (all cores) or more");
  for (const char* flag : {"--task-law", "--task-cv", "--mapping", "--bandwidth", "--scales", "--cores", "--schedule", "--sd-weight", "--dispatch"})
    if (c.given(flag) && c.graph.empty()) throw InputError(flag, "applies to a graph only", "give --graph FILE.dot");
  // The graphs' settings, parsed as simulate's (engine::graph_settings calls engine::parse_model).
  engine::ModelTexts graph;
  const auto put = [&](const char* flag, const char* parameter, const std::string& text) {
    if (c.given(flag)) graph.set(parameter, text);
  };
  put("--task-law", "task_law", c.task_law);
  put("--task-cv", "task_cv", distributions::format_exact(c.task_cv));
  put("--mapping", "mapping", c.mapping);
  put("--bandwidth", "bandwidth", distributions::format_exact(c.bandwidth));
  put("--scales", "processor_scale", c.scales);
  put("--cores", "processor_cores", c.cores);
  put("--schedule", "schedule", c.schedule);
  put("--sd-weight", "sd_weight", distributions::format_exact(c.sd_weight));
  put("--dispatch", "dispatch", c.dispatch);
  s.graph = engine::graph_settings(graph);
  if (c.resume && c.out_path.empty()) throw InputError("--resume", "needs --out FILE");
  if (engine::parse_format(c.format) != engine::Format::csv && c.resume)
    throw InputError("--resume", "resumes a CSV file only", "leave out --format or give --format csv");
  if (c.structure.empty() && c.graph.empty())
    throw InputError("--structure", "missing", "give --structure sync or a list such as sync,nn,ms, or --graph");
  if (c.n.empty() && !c.structure.empty()) throw InputError("--n", "missing", "give --n 8, a list 8,16 or a range 2:16:2");
  s.distribution = sweep_distribution(c.estimators, c.quantiles, c.deadlines);
  s.mean = engine::mean_estimator(c.estimator.value(), c.estimator.stop(!c.config_path.empty()), s.distribution.any(),
                                  !c.slowdown.empty() || !c.machine_slowdown.empty());
  return s;
}

// The grids of the structures and of the graphs (engine::make_grids), checked for memory.
std::vector<engine::SweepGrid> make_grids(const SweepCommand& c, std::uint64_t max_configs) {
  std::array<std::vector<std::string>, D::count> texts;
  for (const auto& k : config_keys)
    if (k.list && k.index < D::count) texts[k.index] = c.*k.list;
  const auto grids = engine::make_grids(texts, c.graph, c.port, max_configs, {c.slowdown, c.machine_slowdown});
  if (c.memory_check)
    for (const auto& grid : grids) engine::check_grid_memory(grid);
  return grids;
}

// The configurations (every one must build before anything runs or is written), those the
// --resume file's text holds, and the runs of the others.
Sweep prepare(const SweepCommand& c, const Settings& s, const std::string& resume_text) {
  const auto grids = make_grids(c, s.max_configs);
  Sweep sweep;
  sweep.target = engine::has_target(s.mean);
  sweep.slowdowns = !c.slowdown.empty() || !c.machine_slowdown.empty();
  for (const auto& text : c.compare_to) sweep.comparisons.emplace_back(text);
  sweep.valid = entries_of(grids, sweep.comparisons, c.skip_invalid, s.graph);
  if (!c.out_path.empty()) check_writable_folder(c.out_path);  // fail now, not after the simulation
  sweep.keep_records = engine::parse_format(c.format) != engine::Format::csv;
  sweep.rows.resize(sweep.valid.entries.size());
  if (c.resume) {
    auto resumed = engine::resumed_rows(sweep.valid.entries, resume_text, c.out_path, s.reps, s.seed, s.mean);
    for (std::size_t i = 0; i < resumed.size(); ++i) sweep.rows[i].csv = std::move(resumed[i]);
  }
  for (const auto& e : sweep.valid.entries) {
    if (sweep.rows[e.row].empty()) sweep.todo.push_back(e);
    else ++sweep.resumed;
  }
  sweep.runs = engine::plan_runs(sweep.todo, s.mean);
  return sweep;
}

// This rank's stretch of the runs' blocks (one process: every run whole).
engine::SweepShare share_of(const Sweep& sweep, const Settings& s, int rank, int ranks) {
  engine::SweepShare share;
  share.pieces = engine::deal_blocks(engine::run_work(sweep.runs, s.reps), ranks)[static_cast<std::size_t>(rank)];
  share.keep_pieces = ranks > 1;
  share.distribution = s.distribution;
  return share;
}

// The runs' options: every configuration's seed and replications, on --threads.
engine::RunOptions run_options_of(const Settings& s, int threads) {
  engine::RunOptions options;
  options.seed = s.seed;
  options.reps = s.reps;
  options.threads = threads;
  return options;
}

// Writes the complete configurations to --out (a CSV) at most every --checkpoint-every seconds.
class Checkpoint {
 public:
  Checkpoint(const SweepCommand& c, const Sweep& sweep) : c_(c), sweep_(sweep) {}
  // True when it wrote.
  bool operator()() {
    if (c_.out_path.empty() || c_.format != "csv") return false;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::duration<double>(c_.checkpoint_interval)) return false;
    write_file_atomically(c_.out_path, sweep_.csv());
    last_ = now;
    return true;
  }

 private:
  const SweepCommand& c_;
  const Sweep& sweep_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// Rank 0 under MPI: every rank's pieces as they arrive; each run folded once its blocks are all in
// (engine::fold_pieces of that run alone, whose fold is the one of every run's pieces together:
// each run is folded apart, in block order), and each configuration's rows made as soon as its
// runs are folded (an nn configuration's C = 0 run may be another's), then checkpointed. The rows
// are those of one process, bit for bit: the same estimates, in the same rows_of.
class Collector {
 public:
  Collector(SweepCommand& c, Sweep& sweep, const Settings& s, const engine::DistributionOptions& distribution)
      : estimates(sweep.runs.size()), extras(sweep.runs.size()), c_(c), sweep_(sweep), s_(s),
        distribution_(distribution), run_(run_options_of(s, c.threads)), checkpoint_(c, sweep), pieces_(sweep.runs.size()),
        blocks_in_(sweep.runs.size(), 0), waiting_(sweep.runs.size()), runs_left_(sweep.todo.size(), 0) {
    for (std::size_t k = 0; k < sweep.todo.size(); ++k) {
      const engine::Entry& e = sweep.todo[k];
      std::vector<std::size_t> runs(e.difference_runs.begin(), e.difference_runs.end());
      runs.push_back(e.nn_zero_run);
      runs.push_back(e.mc_run);
      for (const std::size_t run : runs)
        if (run != engine::no_run) waiting_[run].push_back(k), ++runs_left_[k];
    }
  }

  // Takes `pieces` (leaving it empty), makes the rows of the configurations complete now, and
  // checkpoints them when it is time and the file lacks some.
  void add(std::vector<engine::BlockPiece>& pieces) {
    for (auto& piece : pieces) {
      const std::size_t run = piece.run;
      if (run >= pieces_.size()) throw std::runtime_error("sweep: a rank sent a piece of no run");
      blocks_in_[run] += piece.last - piece.first;
      pieces_[run].push_back(std::move(piece));
      if (blocks_in_[run] == engine::blocks_of(sweep_.runs[run], s_.reps)) fold(run);
    }
    pieces.clear();
    if (complete_ > checkpointed_ && checkpoint_()) checkpointed_ = complete_;
  }
  std::uint64_t complete() const { return complete_; }

#ifdef HETSTRUCT_MPI
  // After rank 0's own share: the other ranks' last pieces, until every rank has finished; then
  // every configuration's rows are made (std::runtime_error if some lack blocks).
  void drain(PieceStream& stream, std::vector<engine::BlockPiece>& arrived) {
    for (bool all = false; !all; std::this_thread::sleep_for(std::chrono::milliseconds(10))) {
      engine::throw_if_interrupted();  // mpirun's SIGTERM when a rank is lost: keep what is complete
      all = stream.poll(arrived);
      add(arrived);
    }
    if (complete_ != sweep_.todo.size())
      throw std::runtime_error("MPI: " + std::to_string(sweep_.todo.size() - complete_) +
                               " configurations lack blocks after every rank finished");
  }
#endif

  std::vector<engine::Estimate> estimates;  // per run, once folded
  std::vector<engine::RunExtras> extras;    // likewise (an mc run's distribution until its rows are made)

 private:
  void fold(std::size_t run) {
    std::vector<engine::BlockPiece> pieces = std::move(pieces_[run]);
    for (auto& piece : pieces) piece.run = 0;  // the one run of this fold
    std::vector<engine::RunExtras> extra;
    estimates[run] = engine::fold_pieces(pieces, {sweep_.runs[run]}, s_.reps, &extra, distribution_, &run_).front();
    extras[run] = std::move(extra.front());
    for (const std::size_t k : waiting_[run]) {
      if (--runs_left_[k] > 0) continue;
      const engine::Entry& entry = sweep_.todo[k];
      sweep_.rows[entry.row] =
          sweep_.rows_of(entry, engine::Job(entry, sweep_.comparisons.size()), estimates, s_.seed, extras);
      extras[entry.mc_run].distribution.reset();  // its rows are made: keep memory bounded
      ++complete_;
      ++c_.computed_configs;
    }
  }

  SweepCommand& c_;
  Sweep& sweep_;
  const Settings& s_;
  engine::DistributionOptions distribution_;
  engine::RunOptions run_;  // the fold's: a difference run's paired bootstrap draws from its seed on these threads
  Checkpoint checkpoint_;
  std::vector<std::vector<engine::BlockPiece>> pieces_;  // per run, until all its blocks are in
  std::vector<std::uint64_t> blocks_in_;                 // per run, the blocks arrived
  std::vector<std::vector<std::size_t>> waiting_;        // per run, the configurations (todo) that need it
  std::vector<std::size_t> runs_left_;                   // per configuration, its runs not folded yet
  std::uint64_t complete_ = 0, checkpointed_ = 0;  // configurations complete, and in the last checkpoint
};

// Progress, and with one process each configuration's rows as soon as it is done, checkpointed to
// --out at most every --checkpoint-every. Under MPI `pieces_done` takes this rank's pieces of each
// configuration as soon as they are done (rank 0's collector, or the stream to it), and `poll`
// runs from the progress of the main thread, at most every 50 ms (rank 0 takes what has arrived).
void follow(engine::SweepShare& share, SweepCommand& c, Sweep& sweep, const Settings& s, Reporter& reporter,
            std::uint64_t& configs_done, Checkpoint& checkpoint,
            std::function<void(std::vector<engine::BlockPiece>&)> pieces_done = {}, std::function<void()> poll = {}) {
  share.progress = [&, poll, main = std::this_thread::get_id(), last_poll = std::chrono::steady_clock::now()](
                       double done) mutable {
    reporter.set(done, configs_done, sweep.valid.entries.size());
    if (!poll || std::this_thread::get_id() != main) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_poll < std::chrono::milliseconds(50)) return;
    last_poll = now;
    poll();
  };
  share.entry_done = [&, pieces_done](const engine::Entry& entry, const engine::Job& job) {
    ++configs_done;  // this rank's part of the configuration is done
    if (share.keep_pieces) {
      pieces_done(share.computed);
      return;
    }
    sweep.rows[entry.row] = sweep.rows_of(entry, job, share.estimates, s.seed, share.extras);
    ++c.computed_configs;
    checkpoint();
  };
}

void print_summary(const SweepCommand& c, const Settings& s, const Sweep& sweep, double seconds, std::uint64_t mean_reps) {
  std::ostringstream summary;
  summary << "hetstruct sweep: " << sweep.valid.entries.size() << " configurations (" << c.computed_configs
          << " simulated, " << c.resumed_configs << " resumed";
  if (sweep.valid.invalid) summary << ", " << sweep.valid.invalid << " invalid left out";
  if (const auto n = sweep.valid.comparisons_left_out)
    summary << ", " << n << (n == 1 ? " difference" : " differences") << " left out (target invalid)";
  if (const auto n = sweep.valid.not_applicable)
    summary << ", " << n << (n == 1 ? " difference" : " differences") << " not made (the comparison has no meaning for a graph)";
  if (const auto n = sweep.valid.no_effect)
    summary << ", " << n << (n == 1 ? " difference" : " differences") << " not made (the comparison has no effect there)";
  summary << "), " << s.reps << " replications each";
  if (s.mean) {
    summary << " (" << (s.mean->stop.active() ? "at most, " : "") << "the means by " << engine::to_string(s.mean->estimator);
    if (c.computed_configs > 0) {
      // What auto chose, configuration by configuration: "cv 2, antithetic-cv 1".
      if (s.mean->estimator == engine::Estimator::automatic) {
        const char* separator = ": ";
        for (const auto& [name, count] : sweep.mean_estimators) summary << std::exchange(separator, ", ") << name << " " << count;
      }
      summary << "; " << mean_reps << " replications in all";
    }
    summary << ")";
  }
  summary << ", seed " << s.seed << ", " << fixed(seconds, 1) << " s";
  if (!c.out_path.empty()) summary << ", wrote " << c.out_path;
  std::cerr << summary.str() << "\n";
}

// The makespans an mc run keeps for the distribution: one run's at a time in one process; under
// MPI rank 0 gathers every run's (8 bytes a replication, in MPI's 2 GB) and holds them twice.
void check_kept_makespans(const Sweep& sweep, const Settings& s, int ranks, bool memory_check) {
  // A difference run keeps two makespans a replication for the paired rows (quantiles, deadlines).
  const double pairs = engine::keeps_pairs(s.distribution) ? 2.0 * static_cast<double>(sweep.comparisons.size()) : 0.0;
  const double runs = ranks > 1 ? static_cast<double>(sweep.todo.size()) * (1.0 + pairs) : pairs > 0.0 ? 3.0 : 1.0;
  if (ranks > 1 && runs * static_cast<double>(s.reps) * sizeof(double) > 2147483647.0)
    throw InputError("--reps", "the makespans of " + std::to_string(sweep.todo.size()) + " configurations of " +
                                   std::to_string(s.reps) + " replications exceed what MPI gathers (2 GB)",
                     "fewer replications or configurations, or leave out the distribution's estimators");
  engine::check_stored_makespans(s.reps, 2.0 * runs, memory_check);
}

// --out locked before anything is read or computed, by the one process that writes it (rank 0),
// and held to the end: a second sweep writing the same file is refused at once. Returns the file
// to resume (--resume), read under the lock; refused, every rank stops.
std::string lock_output(const SweepCommand& c, OutputLock& lock, int rank,
                        const std::function<void(const std::string&, int)>& stop_all) {
  if (rank != 0 || c.out_path.empty()) return {};
  try {
    lock = OutputLock(c.out_path);
    return c.resume ? read_resume_file(c.out_path) : std::string();
  } catch (const InputError& e) {
    stop_all(e.what(), 2);
    throw;
  }
}

// The end of a sweep on the process that writes (one process, or rank 0): its rows to stdout or
// --out, then the summary (with the replications the mean rows took, each its own under a stop
// rule) and the targets missed.
void write_result(SweepCommand& c, const Settings& s, Sweep& sweep, double seconds,
                  const std::vector<engine::Estimate>& estimates) {
  c.resumed_configs = sweep.resumed;
  const std::string text = sweep.output(engine::parse_format(c.format));
  if (c.out_path.empty()) std::cout << text;
  else write_file_atomically(c.out_path, text);
  std::uint64_t reps_of_means = 0;
  for (const auto& entry : sweep.todo) reps_of_means += estimates[entry.mc_run].reps;
  if (!c.quiet) print_summary(c, s, sweep, seconds, reps_of_means);
  c.estimator.warn_missed(sweep.missed, sweep.todo.size(), "configurations", s.reps);
}

}  // namespace

int SweepCommand::execute() {
  apply_config_file();
  const Settings s = read_settings(*this);
#ifdef HETSTRUCT_MPI
  const MpiWorld world;  // one process unless started by mpirun
  const int rank = world.rank(), ranks = world.size();
  auto stop_all = [&](const std::string& message, int status) {
    if (ranks > 1) world.abort(message, status);
  };
#else
  const int rank = 0, ranks = 1;
  auto stop_all = [](const std::string&, int) {};
#endif
  OutputLock lock;
  std::string resume_text = lock_output(*this, lock, rank, stop_all);
#ifdef HETSTRUCT_MPI
  // Every rank resumes from rank 0's reading of the file, which rank 0 alone replaces later.
  if (resume) world.broadcast(resume_text);
#endif
  Sweep sweep = prepare(*this, s, resume_text);
  const auto t0 = std::chrono::steady_clock::now();
  engine::SweepShare share = share_of(sweep, s, rank, ranks);
  if (share.distribution.any()) check_kept_makespans(sweep, s, ranks, memory_check);
  Reporter reporter(quiet || rank != 0, progress_interval, share.work(sweep.runs, s.reps));
  std::uint64_t configs_done = sweep.resumed;
  Checkpoint checkpoint(*this, sweep);
#ifdef HETSTRUCT_MPI
  // Under MPI: the other ranks send each configuration's pieces as they are done; rank 0 collects
  // them with its own, and makes and checkpoints the rows of each configuration complete.
  PieceStream stream(world);
  std::optional<Collector> collector;
  std::vector<engine::BlockPiece> arrived;
  const auto take_arrivals = [&] {
    stream.poll(arrived);
    collector->add(arrived);
  };
  if (ranks > 1 && rank == 0) {
    collector.emplace(*this, sweep, s, share.distribution);
    follow(share, *this, sweep, s, reporter, configs_done, checkpoint,
           [&](std::vector<engine::BlockPiece>& pieces) {
             collector->add(pieces);
             take_arrivals();
           },
           take_arrivals);
  } else if (ranks > 1) {
    follow(share, *this, sweep, s, reporter, configs_done, checkpoint,
           [&](std::vector<engine::BlockPiece>& pieces) { stream.send(pieces); });
  } else
#endif
    follow(share, *this, sweep, s, reporter, configs_done, checkpoint);
  const engine::RunOptions options = run_options_of(s, threads);
  // The configurations complete here (with one process, or on rank 0), kept when a run stops.
  const auto complete = [&]() -> std::uint64_t {
#ifdef HETSTRUCT_MPI
    if (collector) return sweep.resumed + collector->complete();
#endif
    return ranks == 1 ? configs_done : 0;
  };
  try {
    // Interruptible as a whole, the ranks' waits for each other included (they look at the flag):
    // a stop keeps the configurations complete.
    const engine::CooperativeStop cooperative;
    share.compute(sweep.todo, sweep.runs, sweep.comparisons.size(), options);
#ifdef HETSTRUCT_MPI
    if (ranks > 1 && rank != 0) stream.finish();  // rank 0 has everything this rank computed
    if (collector) collector->drain(stream, arrived);
#endif
  } catch (const engine::Interrupted&) {
    // Keep what is complete, so that --resume loses nothing but the configurations under way (under
    // MPI rank 0 writes them, then stops every rank).
    std::string message = "interrupted";
    if (rank == 0 && !out_path.empty() && format == "csv" && complete() > 0) {
      try {
#ifdef HETSTRUCT_MPI
        if (collector) take_arrivals();
#endif
        write_file_atomically(out_path, sweep.csv());
        message += "; the " + std::to_string(complete()) + " complete configurations are in " + out_path +
                   " (--resume continues)";
      } catch (const InputError& e) {
        message += "; " + std::string(e.what());
      }
    }
    stop_all(message, 130);
    throw engine::Interrupted(message);
  } catch (const InputError& e) {
    stop_all(e.what(), 2);
    throw;
  } catch (const std::exception& e) {
    stop_all(std::string("internal error: ") + e.what(), 1);
    throw;
  }
  const std::vector<engine::Estimate>* estimates = &share.estimates;
#ifdef HETSTRUCT_MPI
  if (ranks > 1 && rank != 0) return 0;  // ranks other than 0 are done
  if (collector) estimates = &collector->estimates;
#endif
  write_result(*this, s, sweep, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), *estimates);
  return 0;
}

}  // namespace hetstruct::cli
