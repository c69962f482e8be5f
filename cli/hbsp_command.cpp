#include "cli/hbsp_command.h"

#include "bounds/heterogeneity.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <vector>

#include "bounds/hbsp.h"
#include "bounds/hbsp_predictions.h"
#include "cli/figures.h"
#include "cli/output.h"
#include "distributions/input_error.h"
#include "engine/hbsp_replay.h"

namespace hetstruct::cli {

extern const char hbsp_cluster_machine[];  // generated from bounds/data/hbsp-cluster-2001.txt

namespace {

namespace model = bounds::hbsp;
namespace replay_engine = engine::hbsp;

// "1000" (items), or bytes with a unit: "4096B", "100KB", "2MB" (binary units) -> items.
double parse_size(const std::string& text, double item_size, bool bytes_allowed) {
  using model::kilobyte;
  static const std::pair<const char*, double> units[] = {{"MB", kilobyte * kilobyte}, {"KB", kilobyte}, {"B", 1.0}};
  for (const auto& [suffix, factor] : units) {
    const std::string s = suffix;
    if (text.size() > s.size() && text.compare(text.size() - s.size(), s.size(), s) == 0) {
      if (!bytes_allowed) throw InputError("--size", "'" + text + "': matmul's n is the matrix order, give a number");
      const double bytes = model::parse_number("--size", "n", text.substr(0, text.size() - s.size())) * factor;
      return bytes / item_size;
    }
  }
  return model::parse_number("--size", "n", text);
}

// The library names its parameters in the papers' words; the command line names the option.
const std::pair<const char*, const char*> option_of_parameter[] = {
    {"processors", "--processors"}, {"size", "--size"},           {"item size", "--item-size"},
    {"root", "--root"},             {"oversampling", "--oversampling"}, {"algorithm", "--algorithm"},
    {"workload", "--workload"},     {"accounting", "--accounting"}, {"cost form", "--form"},
    {"measurements", "hbsp probe"},  // engine/hbsp_probe.h: the timings the probe took
};

// In hbsp these spellings meant other things than in the rest of the tool (--n the width, -m the
// fast count, -a the scale, -p the levels): refused at once, naming the option that replaced them.
void refuse_old_spelling(CLI::App& command, const std::string& name, const std::string& message) {
  command
      .add_option_function<std::vector<std::string>>(
          name, [name, message](const std::vector<std::string>&) { throw InputError(name, message); })
      ->expected(0, 1)
      ->trigger_on_parse()
      ->group("");
}

std::string processor_name(const model::Machine& m, int j) { return j < 0 ? "" : m.processors[j].name; }

const char* const replay_header =
    "program,p,form,trace,row,superstep,w,gh,L,cost,work_critical,comm_critical,reps,seed,stderr,ci_low,ci_high,"
    "min,q05,q25,q50,q75,q95,max,closed_form,paper_form";

// ---- predict ---------------------------------------------------------------------------------

const char* const predict_header = "figure,operation,panel,ratio,accounting,p,n_kb,n_bytes,numerator,denominator,factor";

std::string predict_csv(const model::Machine& m, const model::Prediction& pr) {
  std::ostringstream out;
  out << predict_header << '\n';
  for (const auto& r : model::predict(m, pr))
    out << r.figure << ',' << model::to_string(r.operation) << ',' << r.panel << ',' << r.ratio << ','
        << model::to_string(r.accounting) << ',' << r.p << ',' << r.n_kb << ',' << full(r.n_bytes) << ','
        << full(r.numerator) << ',' << full(r.denominator) << ',' << full(r.factor) << '\n';
  return out.str();
}

std::string predict_script(const model::Machine& m, const model::Prediction& pr, const std::string& csv,
                           const std::string& svg, const std::string& png) {
  // Columns of predict_header: 3 panel, 5 accounting, 6 p, 7 n_kb, 11 factor.
  static const char* const colours[] = {"#1f4e79", "#c0392b", "#27ae60", "#8e44ad", "#d68910",
                                        "#17a589", "#7f8c8d", "#2c3e50", "#e84393"};
  const auto ps = model::predicted_p(m);
  std::ostringstream g;
  g << "# Figure " << pr.figure << " of the HBSP^1 paper (Williams & Parsons 2001), predicted by hetstruct.\n"
    << "set datafile separator ','\n"
    << "set xlabel 'problem size n (KB of integers)'\n"
    << "set ylabel 'predicted improvement factor'\n"
    << "set xrange [100:1000]\n"
    << "set xtics 100,100,1000\n"
    << "set grid\n"
    << "set key top left box opaque spacing 1.1 font ',10'\n"
    << "set multiplot layout 1,2 title \"Figure " << pr.figure << ": " << pr.title
    << ", HBSP^1 model predictions on the paper's cluster (g = " << full(m.g)
    << " us/byte, L from Table 4)\\n{/*0.8 solid: messages to self counted, as in the paper's closed forms;"
    << " dashed: not counted, as in its implementation}\"\n";
  for (const char* panel : {"a", "b"}) {
    const bool a = panel[0] == 'a';
    g << "set title \"(" << panel << ") " << (a ? "T_s/T_f: root slowest vs fastest, c_j = 1/p" : "T_u/T_b: equal (1/p) vs balanced (c_j) workload, root fastest")
      << "\"\n";
    g << "plot ";
    for (std::size_t i = 0; i < ps.size(); ++i) {
      const std::string colour = colours[i % 9];
      for (const char* acc : {"paper", "exact"}) {
        const bool paper = acc[0] == 'p';
        g << (i || !paper ? ", \\\n     " : "") << "'" << csv << "' skip 1 using 7:((strcol(3) eq '" << panel
          << "' && strcol(5) eq '" << acc << "' && $6 == " << ps[i] << ") ? $11 : 1/0) with linespoints lw 2 pt "
          << (paper ? 7 : 6) << " ps 0.7 " << (paper ? "dt 1" : "dt 2") << " lc rgb '" << colour << "' "
          << (paper ? "title 'p = " + std::to_string(ps[i]) + "'" : std::string("notitle"));
      }
    }
    g << "\n";
  }
  g << "unset multiplot\n";
  const std::string plot = g.str();
  return "set terminal svg size 1200,520 dynamic enhanced font 'sans,12'\nset output '" + svg + "'\n" + plot +
         "set terminal pngcairo size 1500,650 enhanced font 'sans,12'\nset output '" + png + "'\n" + plot;
}

}  // namespace

void HbspCommand::add_to(CLI::App& app) {
  hbsp_ = app.add_subcommand(
      "hbsp", "Heterogeneous BSP: replay superstep programs, regenerate the HBSP^1 predictions, probe a machine");
  hbsp_->require_subcommand(1);

  replay_ = hbsp_->add_subcommand(
      "replay", "Replay a superstep program (CSV or built-in algorithm) on a machine: per-superstep CSV and total");
  replay_->add_option("--machine", machine_path_, "Machine file (g, L, processors with r_j and speed)")
      ->required()->group("Machine");
  processors_ = replay_->add_option("--processors", p_, "Use the first p processors of the machine (default: all)")
                    ->group("Machine");
  replay_->add_option("--form", form_, "Superstep cost: hbsp1 (w = max w_j), cj (w = max w_j/c_j), auto")
      ->capture_default_str()->group("Machine");
  auto* program = replay_->add_option("--program", program_path_, "Program CSV: superstep,processor,work,sent,received")
                      ->group("Program");
  auto* algorithm = replay_->add_option("--algorithm", algorithm_,
                                        "Built-in: scatter, broadcast1, broadcast2, prefix, matmul, samplesort")
                        ->group("Program");
  program->excludes(algorithm);
  algorithm->excludes(program);
  replay_->add_option("--size", n_text_, "Problem size n: items (matmul: the matrix order), or bytes as 4096B, 100KB, 2MB")
      ->capture_default_str()->group("Algorithm");
  replay_->add_option("--item-size", item_size_, "Packets per item (bytes per integer on the paper's cluster: 4)")
      ->capture_default_str()->group("Algorithm");
  replay_->add_option("--root", root_, "fastest | slowest | a processor name or 0-based index")
      ->capture_default_str()->group("Algorithm");
  replay_->add_option("--workload", workload_, "balanced (P_j holds c_j*n) | equal (n/p)")
      ->capture_default_str()->group("Algorithm");
  replay_->add_option("--accounting", accounting_, "paper (messages to self count) | exact (they do not)")
      ->capture_default_str()->group("Algorithm");
  replay_->add_option("--oversampling", oversampling_, "Sample sort: keys sampled per processor")
      ->capture_default_str()->group("Algorithm");
  replay_->add_flag("--metrics", metrics_,
                    "Zhang-Yan measures on the total row: power weights, H, P_deg, speedup, efficiency")
      ->group("Output");
  replay_->add_option("--trace", trace_path_, "r_j trace (step functions of superstep or time)")->group("Trace");
  replay_->add_option("--reps,-r", reps_text_, "Monte Carlo replay: replications bootstrapping r_j from the trace")
      ->group("Sampling");
  replay_->add_option("--seed", seed_text_, "Seed: the same seed gives the same numbers on any thread count")
      ->capture_default_str()->group("Sampling");
  replay_->add_option("--threads,-t", threads_, "Worker threads (0: all cores)")->capture_default_str()->group("Sampling");
  refuse_old_spelling(*replay_, "--n", "in hbsp the problem size is --size (--n is the width elsewhere)");
  refuse_old_spelling(*replay_, "--p", "in hbsp the number of processors is --processors (-p is the levels elsewhere)");
  refuse_old_spelling(*replay_, "-a", "in hbsp the algorithm is --algorithm (-a is the scale elsewhere)");

  predict_ = hbsp_->add_subcommand(
      "predict", "Regenerate the HBSP^1 paper's Figures 4 and 6 (predicted T_s/T_f, T_u/T_b): CSV, SVG, PNG");
  predict_->add_option("--machine", predict_machine_, "Machine file (default: the paper's cluster, embedded)");
  predict_->add_option("--out-dir", out_dir_, "Folder for figure4/figure6 .csv, .gp, .svg, .png")->capture_default_str();

  probe_ = hbsp_->add_subcommand(
      "probe", "Under mpirun: measure r_j, c_j, g and L of the ranks (HBSP^1 Section 4.4); machine file and r_j trace");
  auto& o = probe_options_;
  probe_->add_option("--machine", o.machine_path, "Machine file to write (rank 0)")->required();
  probe_->add_option("--trace", o.trace_path, "r_j trace to write (rank 0): one r_j per rank and round")->required();
  probe_->add_option("--rounds", o.rounds, "Rounds of measurements: the trace's points")->capture_default_str();
  probe_->add_option("--interval", o.interval, "Seconds between the end of a round and the start of the next")
      ->capture_default_str();
  probe_->add_option("--message-kb", o.message_kb, "Message for r_j and g, in KB (1024 bytes)")->capture_default_str();
  probe_->add_option("--repeats", o.repeats, "Repetitions of each measurement in a round (the median is kept)")
      ->capture_default_str();
  probe_->add_option("--clock", o.clock, "Trace clock: time (us since the first round) or superstep (round k)")
      ->capture_default_str();
  for (CLI::App* command : {replay_, predict_, probe_})
    refuse_old_spelling(*command, "-m", "in hbsp the machine file is --machine (-m is the fast count elsewhere)");
}

bool HbspCommand::parsed() const { return hbsp_ != nullptr && hbsp_->parsed(); }

int HbspCommand::execute() {
  try {
    if (replay_->parsed()) return replay();
    if (predict_->parsed()) return predict();
    if (probe_->parsed()) return probe();
  } catch (const InputError& e) {
    // A file given on the command line keeps its name, even one called "size".
    for (const std::string* path : {&machine_path_, &program_path_, &trace_path_, &predict_machine_,
                                    &probe_options_.machine_path, &probe_options_.trace_path})
      if (e.where() == *path) throw;
    for (const auto& [parameter, option] : option_of_parameter)
      if (e.where() == parameter) throw InputError(option, e.problem(), e.hint());
    throw;
  }
  throw InputError("hbsp", "give a command: replay, predict or probe");
}

int HbspCommand::probe() {
#ifdef HETSTRUCT_MPI
  return run_probe(probe_options_);
#else
  throw InputError("hbsp probe", "this hetstruct was built without MPI",
                   "rebuild with -DHETSTRUCT_MPI=ON; needs libopenmpi-dev");
#endif
}

namespace {

// Zhang and Yan's measures of one replay, as CSV fields: a processor's busy time is its work as
// time (the cj form gives work in the slowest processor's time: it takes w_j / c_j), its power
// weight its speed over the fastest's.
std::string replay_metrics(const model::Machine& m, const replay_engine::Program& program, model::CostForm form,
                           double total) {
  const int p = program.p;
  std::vector<double> busy(p, 0.0), mean_time(p);
  for (const auto& step : program.steps)
    for (int j = 0; j < p; ++j)
      busy[j] += form == model::CostForm::cj ? step.work[j] / m.relative_speed(j, p) : step.work[j];
  for (int j = 0; j < p; ++j) mean_time[j] = 1.0 / m.processors[j].speed;
  const auto w = bounds::power_weights(mean_time);
  double sum = 0.0, on_fastest = 0.0;
  for (int j = 0; j < p; ++j) {
    sum += busy[j];
    on_fastest += w[j] * busy[j];
  }
  if (!(total > 0.0)) throw InputError("--metrics", "the replay takes no time");
  std::string weights;
  for (const double x : w) weights += (weights.empty() ? "" : ";") + full(x);
  const double h = bounds::heterogeneity(w), p_deg = sum / total, speedup = on_fastest / total;
  return ',' + weights + ',' + full(h) + ',' + full(p_deg) + ',' + full(speedup) + ',' +
         full(bounds::property_speedup(p_deg, h)) + ',' + full(bounds::efficiency(speedup, w));
}

}  // namespace

int HbspCommand::replay() {
  if (metrics_ && !reps_text_.empty())
    throw InputError("--metrics", "the measures come from one replay: leave out --reps");
  const model::Machine m = model::load_machine(machine_path_);
  // Not given: every processor. Given, even 0, it must be one of 1..size (0 once meant all).
  const int p = processors_->count() ? p_ : m.size();
  m.check_p(p);
  if (program_path_.empty() == algorithm_.empty())
    throw InputError("hbsp replay", "give --program FILE or --algorithm NAME");

  std::optional<model::AlgorithmParams> params;
  replay_engine::Program program;
  if (!algorithm_.empty()) {
    model::AlgorithmParams a;
    a.algorithm = model::parse_algorithm(algorithm_);
    a.p = p;
    a.item_size = item_size_;
    if (!(item_size_ > 0.0)) throw InputError("--item-size", "must be > 0");
    a.n = parse_size(n_text_, item_size_, a.algorithm != model::Algorithm::matrix_multiplication);
    a.root = model::parse_root(m, p, root_);
    a.workload = model::parse_workload(workload_);
    a.accounting = model::parse_accounting(accounting_);
    a.oversampling = oversampling_;
    a.form = form_ == "auto" ? model::auto_cost_form(a.algorithm) : model::parse_cost_form(form_);
    program = replay_engine::generate(m, a);
    params = a;
  } else {
    program = replay_engine::load_program(program_path_, m, p);
  }
  const model::CostForm form =
      params ? params->form : (form_ == "auto" ? model::auto_cost_form(std::nullopt) : model::parse_cost_form(form_));

  std::optional<replay_engine::Trace> trace;
  if (!trace_path_.empty()) trace = replay_engine::load_trace(trace_path_, m);
  const bool monte_carlo = !reps_text_.empty();
  if (monte_carlo && !trace) throw InputError("--reps", "a Monte Carlo replay draws r_j from a trace: give --trace");

  const std::string closed = params ? full(model::closed_form(m, *params)) : "";
  const std::string paper = params ? full(model::paper_form(m, *params)) : "";
  const std::string prefix = csv_field(program.name) + ',' + std::to_string(p) + ',' + model::to_string(form) + ',' +
                             csv_field(trace ? trace->source : "") + ',';
  std::ostringstream out;
  out << replay_header << (metrics_ ? ",power_weights,heterogeneity,p_deg,speedup,speedup_property,efficiency" : "")
      << '\n';
  if (!monte_carlo) {
    const auto r = replay_engine::replay(m, program, form, trace ? &*trace : nullptr);
    for (const auto& s : r.steps)
      out << prefix << "superstep," << s.number << ',' << full(s.cost.w) << ',' << full(s.cost.gh) << ','
          << full(s.cost.L) << ',' << full(s.cost.total) << ',' << csv_field(processor_name(m, s.cost.work_critical))
          << ',' << csv_field(processor_name(m, s.cost.comm_critical)) << ",,,,,,,,,,,,,,\n";
    out << prefix << "total,," << full(r.w) << ',' << full(r.gh) << ',' << full(r.L) << ',' << full(r.total)
        << ",,,,,,,,,,,,,,," << closed << ',' << paper;
    if (metrics_) out << replay_metrics(m, program, form, r.total);
    out << '\n';
  } else {
    replay_engine::BootstrapOptions options;
    options.reps = parse_count("--reps", reps_text_, replay_engine::max_bootstrap_reps);
    options.seed = parse_count("--seed", seed_text_, std::numeric_limits<std::uint64_t>::max());
    if (threads_ < 0) throw InputError("--threads", "must be 0 (all cores) or more");
    options.threads = threads_;
    Progress progress("hbsp replay " + program.name);
    options.progress = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
    const auto b = replay_engine::monte_carlo_replay(m, program, form, *trace, options);
    const auto fixed = replay_engine::replay(m, program, form);
    const std::string sampling = std::to_string(b.total.reps) + ',' + std::to_string(options.seed) + ',';
    for (std::size_t i = 0; i < b.steps.size(); ++i) {
      const auto& s = b.steps[i];
      out << prefix << "superstep," << s.number << ',' << full(s.w) << ',' << full(s.gh.mean) << ',' << full(s.L)
          << ',' << full(s.cost.mean) << ',' << csv_field(processor_name(m, fixed.steps[i].cost.work_critical)) << ','
          << csv_field(processor_name(m, s.modal_comm_critical)) << ',' << sampling << full(s.cost.stderr_) << ','
          << full(s.cost.ci_low) << ',' << full(s.cost.ci_high) << ',' << full(s.cost.min) << ",,,,,,"
          << full(s.cost.max) << ",,\n";
    }
    out << prefix << "total,," << full(b.w) << ',' << full(b.gh.mean) << ',' << full(b.L) << ',' << full(b.total.mean)
        << ",,," << sampling << full(b.total.stderr_) << ',' << full(b.total.ci_low) << ',' << full(b.total.ci_high)
        << ',' << full(b.total.min);
    for (const double q : b.quantiles) out << ',' << full(q);
    out << ',' << full(b.total.max) << ',' << closed << ',' << paper << '\n';
  }
  std::cout << out.str();
  return 0;
}

int HbspCommand::predict() {
  model::Machine m;
  if (predict_machine_.empty()) {
    std::istringstream in(hbsp_cluster_machine);
    m = model::parse_machine(in, "bounds/data/hbsp-cluster-2001.txt (embedded)");
  } else {
    m = model::load_machine(predict_machine_);
  }
  std::error_code ec;
  std::filesystem::create_directories(out_dir_, ec);
  if (ec) throw InputError(out_dir_, "cannot create the output folder: " + ec.message());
  for (const auto& pr : model::paper_predictions()) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::string base = out_dir_ + "/figure" + pr.figure;
    write_file_atomically(base + ".csv", predict_csv(m, pr));
    write_file_atomically(base + ".gp", predict_script(m, pr, base + ".csv", base + ".svg", base + ".png"));
    run_gnuplot(base + ".gp");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << "hetstruct hbsp predict: Figure " << pr.figure << " (" << pr.title << "): wrote " << base
              << ".csv, .gp, .svg, .png (" << fixed(seconds, 1) << " s)\n";
  }
  return 0;
}

}  // namespace hetstruct::cli
