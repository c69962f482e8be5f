#include "cli/sweep.h"

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include "cli/output.h"
#include "cli/parameters.h"
#include "distributions/input_error.h"
#include "engine/interrupt.h"
#include "engine/monte_carlo.h"
#include "engine/sweep.h"

#ifdef HETSTRUCT_MPI
#include "cli/mpi_sweep.h"
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
};

// The configurations (all of them, in grid order), those left to simulate and their runs, and the
// CSV's text per configuration.
struct Sweep {
  std::vector<engine::Comparison> comparisons;
  engine::SweepEntries valid;
  std::vector<engine::Entry> todo;
  std::vector<engine::RunSpec> runs;
  std::vector<std::string> rows;
  std::uint64_t resumed = 0;

  std::string csv() const {
    std::string text = engine::csv_header(engine::sweep_columns());
    for (const auto& r : rows) text += r;
    return text;
  }
  std::string rows_of(const engine::Entry& entry, const engine::Job& job, const std::vector<engine::Estimate>& estimates,
                      std::uint64_t seed) const {
    std::string text;
    for (const auto& r : engine::config_records(entry, job, comparisons, estimates, seed)) text += engine::csv_line(r);
    return text;
  }
};

// The grid's entries; a configuration that cannot be built is reported with its cause's flag.
engine::SweepEntries entries_of(const engine::SweepGrid& grid, const std::vector<engine::Comparison>& comparisons,
                                   bool skip_invalid) {
  try {
    return engine::build_entries(grid, comparisons, skip_invalid);
  } catch (const engine::InvalidConfiguration& e) {
    const std::string comparison = e.comparison().empty() ? "" : "--compare-to " + e.comparison() + ": ";
    throw InputError("sweep", "configuration " + e.configuration() + ": " + comparison + flag_message(e.cause()),
                     "or --skip-invalid");
  }
}

// The complete configurations of the --out file to resume (none when there is no file yet).
std::map<std::string, std::string> read_resume_file(const std::string& path, const Settings& s,
                                                    const std::set<std::string>& grid_keys) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (::access(path.c_str(), F_OK) == 0) throw InputError(path, "cannot read the file to resume");
    return {};  // nothing to resume: start afresh
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return engine::complete_configurations(buffer.str(), path, s.reps, s.seed, grid_keys);
}

void check_writable_folder(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::access(dir.c_str(), W_OK) != 0) throw InputError(path, "cannot write into the folder '" + dir + "'");
}

}  // namespace

// ---- the command -----------------------------------------------------------------------------

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

namespace {

Settings read_settings(const SweepCommand& c) {
  Settings s;
  s.reps = parse_count("--reps", c.reps_text, 1'000'000'000);
  if (s.reps == 0) throw InputError("--reps", "the number of replications must be at least 1");
  s.seed = parse_count("--seed", c.seed_text, std::numeric_limits<std::uint64_t>::max());
  s.max_configs = parse_count("--max-configs", c.max_configs_text, std::numeric_limits<std::uint32_t>::max());
  if (s.max_configs == 0) throw InputError("--max-configs", "must be at least 1");
  if (c.threads < 0) throw InputError("--threads", "must be 0 (all cores) or more");
  if (c.resume && c.out_path.empty()) throw InputError("--resume", "needs --out FILE");
  if (c.structure.empty()) throw InputError("--structure", "missing", "give --structure sync or a list such as sync,nn,ms");
  if (c.n.empty()) throw InputError("--n", "missing", "give --n 8, a list 8,16 or a range 2:16:2");
  return s;
}

engine::SweepGrid make_grid(const SweepCommand& c, std::uint64_t max_configs) {
  const engine::SweepGrid grid = engine::make_grid(
      {c.structure, c.law, c.fast_law, c.n, c.m, c.a, c.levels, c.comm, c.protocol, c.policy, c.exchange}, max_configs);
  if (grid.product() > static_cast<long double>(max_configs)) {
    char count[64];
    std::snprintf(count, sizeof count, "%.0Lf", grid.product());
    throw InputError("sweep", std::string("the grid has ") + count + " configurations, more than --max-configs " +
                                  std::to_string(max_configs),
                     "raise --max-configs");
  }
  if (c.memory_check) engine::check_grid_memory(grid);
  return grid;
}

// The configurations (every one must build before anything runs or is written), those the
// --resume file holds, and the runs of the others.
Sweep prepare(const SweepCommand& c, const Settings& s) {
  const engine::SweepGrid grid = make_grid(c, s.max_configs);
  Sweep sweep;
  for (const auto& text : c.compare_to) sweep.comparisons.emplace_back(text);
  sweep.valid = entries_of(grid, sweep.comparisons, c.skip_invalid);
  if (!c.out_path.empty()) check_writable_folder(c.out_path);  // fail now, not after the simulation
  std::map<std::string, std::string> previous;
  if (c.resume) {
    std::set<std::string> keys;
    for (const auto& e : sweep.valid.entries) keys.insert(engine::config_key(e.c));
    previous = read_resume_file(c.out_path, s, keys);
  }
  sweep.rows.resize(sweep.valid.entries.size());
  for (const auto& e : sweep.valid.entries) {
    if (auto it = previous.find(engine::config_key(e.c)); it != previous.end()) {
      sweep.rows[e.row] = it->second;
      ++sweep.resumed;
    } else {
      sweep.todo.push_back(e);
    }
  }
  sweep.runs = engine::plan_runs(sweep.todo);
  return sweep;
}

// This rank's stretch of the runs' blocks (one process: every run whole), computed in order. One
// process: each configuration's rows as soon as its pieces are done, checkpointed to --out at most
// every --checkpoint-every; several: the pieces, for rank 0 (the blocks are on several ranks
// until the end).
struct Worker {
  const SweepCommand& cmd;
  const Settings& settings;
  Sweep& sweep;
  bool single_process;
  std::vector<engine::SweepPiece> mine;
  std::vector<engine::Estimate> estimates;
  std::vector<engine::BlockPiece> computed;
  std::uint64_t configs_done = 0, computed_configs = 0;
  std::chrono::steady_clock::time_point last_checkpoint = std::chrono::steady_clock::now();

  Worker(const SweepCommand& c, const Settings& s, Sweep& sw, int rank, int ranks)
      : cmd(c), settings(s), sweep(sw), single_process(ranks == 1), estimates(ranks == 1 ? sw.runs.size() : 0),
        configs_done(sw.resumed) {
    std::vector<std::pair<std::uint64_t, double>> work;
    for (const auto& r : sw.runs) work.emplace_back(engine::block_count(s.reps), r.work);
    mine = engine::deal_blocks(work, ranks)[static_cast<std::size_t>(rank)];
  }

  double work() const {
    double w = 0.0;
    for (const auto& p : mine) w += static_cast<double>(p.last - p.first) * sweep.runs[p.run].work;
    return w;
  }

  void run(Reporter& reporter) {
    const std::uint64_t configs = sweep.valid.entries.size();
    std::vector<std::size_t> pieces_left(sweep.todo.size(), 0);  // per configuration, its pieces here
    for (const auto& p : mine) ++pieces_left[sweep.runs[p.run].entry];
    engine::RunOptions options;
    options.seed = settings.seed;
    options.reps = settings.reps;
    options.threads = cmd.threads;
    double work_done = 0.0;
    std::optional<engine::Job> job;
    std::size_t job_entry = engine::no_run;
    for (const engine::SweepPiece& piece : mine) {
      const engine::RunSpec& spec = sweep.runs[piece.run];
      const engine::Entry& entry = sweep.todo[spec.entry];
      if (job_entry != spec.entry) {  // a rank's pieces come configuration after configuration
        job.emplace(entry.c, sweep.comparisons.size());
        job_entry = spec.entry;
      }
      const double w = static_cast<double>(piece.last - piece.first) * spec.work;
      options.progress = [&, w](std::uint64_t d, std::uint64_t t) {
        reporter.set(work_done + w * static_cast<double>(d) / static_cast<double>(t), configs_done, configs);
      };
      engine::BlockPiece result = engine::compute_piece(piece, spec, entry, *job, options);
      work_done += w;
      if (single_process) estimates[piece.run] = engine::summarize(result.blocks.front());  // the whole run, folded
      else computed.push_back(std::move(result));
      if (--pieces_left[spec.entry] > 0) continue;
      ++configs_done;  // this rank's part of the configuration is done
      reporter.set(work_done, configs_done, configs);
      if (single_process) finish(entry, *job);
    }
  }

  void finish(const engine::Entry& entry, const engine::Job& job) {
    sweep.rows[entry.row] = sweep.rows_of(entry, job, estimates, settings.seed);
    ++computed_configs;
    const auto now = std::chrono::steady_clock::now();
    if (!cmd.out_path.empty() && now - last_checkpoint >= std::chrono::duration<double>(cmd.checkpoint_interval)) {
      write_file_atomically(cmd.out_path, sweep.csv());
      last_checkpoint = now;
    }
  }
};

void print_summary(const SweepCommand& c, const Settings& s, const Sweep& sweep, double seconds) {
  std::ostringstream summary;
  summary << "hetstruct sweep: " << sweep.valid.entries.size() << " configurations (" << c.computed_configs
          << " simulated, " << c.resumed_configs << " resumed";
  if (sweep.valid.invalid) summary << ", " << sweep.valid.invalid << " invalid left out";
  if (const auto n = sweep.valid.comparisons_left_out)
    summary << ", " << n << (n == 1 ? " difference" : " differences") << " left out (target invalid)";
  summary << "), " << s.reps << " replications each, seed " << s.seed << ", " << fixed(seconds, 1) << " s";
  if (!c.out_path.empty()) summary << ", wrote " << c.out_path;
  std::cerr << summary.str() << "\n";
}

}  // namespace

int SweepCommand::execute() {
  apply_config_file();
  const Settings s = read_settings(*this);
  Sweep sweep = prepare(*this, s);
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
  const auto t0 = std::chrono::steady_clock::now();
  Worker worker(*this, s, sweep, rank, ranks);
  Reporter reporter(quiet || rank != 0, progress_interval, worker.work());
  try {
    worker.run(reporter);
  } catch (const engine::Interrupted&) {
    stop_all("interrupted", 130);
    // Keep what is complete, so that --resume loses nothing but the configuration under way.
    if (ranks == 1 && !out_path.empty() && worker.configs_done > 0) {
      write_file_atomically(out_path, sweep.csv());
      throw engine::Interrupted("interrupted; the " + std::to_string(worker.configs_done) +
                                " complete configurations are in " + out_path + " (--resume continues)");
    }
    throw;
  } catch (const InputError& e) {
    stop_all(e.what(), 2);
    throw;
  } catch (const std::exception& e) {
    stop_all(std::string("internal error: ") + e.what(), 1);
    throw;
  }
#ifdef HETSTRUCT_MPI
  if (ranks > 1) {
    if (!world.gather(worker.computed)) return 0;  // ranks other than 0 are done
    // Rank 0: every run folded in block order, then every configuration's rows.
    const auto estimates = engine::fold_pieces(worker.computed, sweep.runs.size(), engine::block_count(s.reps));
    for (const auto& entry : sweep.todo)
      sweep.rows[entry.row] = sweep.rows_of(entry, engine::Job(entry.c, sweep.comparisons.size()), estimates, s.seed);
    worker.computed_configs = sweep.todo.size();
  }
#endif
  computed_configs = worker.computed_configs;
  resumed_configs = sweep.resumed;
  if (out_path.empty()) std::cout << sweep.csv();
  else write_file_atomically(out_path, sweep.csv());
  if (!quiet && rank == 0) print_summary(*this, s, sweep, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return 0;
}

}  // namespace hetstruct::cli
