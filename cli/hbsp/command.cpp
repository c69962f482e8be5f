#include "cli/hbsp/command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "bounds/hbsp/model.h"
#include "bounds/hbsp/predictions.h"
#include "cli/gnuplot.h"
#include "cli/output.h"
#include "cli/parameters.h"
#include "distributions/input_error.h"
#include "engine/hbsp/records.h"
#include "engine/hbsp/replay.h"
#include "engine/simulate/record.h"

namespace hetstruct::cli {

extern const char hbsp_cluster_machine[];  // generated from bounds/data/hbsp-cluster-2001.txt

namespace {

namespace model = bounds::hbsp;
namespace replay_engine = engine::hbsp;

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

// ---- predict ---------------------------------------------------------------------------------

// Paths are quoted for gnuplot (a folder may hold a quote); `columns` names the CSV's columns.
std::string predict_script(const model::Machine& m, const model::Prediction& pr, const std::vector<std::string>& columns,
                           const std::string& csv, const std::string& svg, const std::string& png) {
  static const char* const colours[] = {"#1f4e79", "#c0392b", "#27ae60", "#8e44ad", "#d68910",
                                        "#17a589", "#7f8c8d", "#2c3e50", "#e84393"};
  const auto ps = model::predicted_p(m);
  const auto col = [&](const char* name) { return std::to_string(gnuplot_column(columns, name)); };
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
        g << (i || !paper ? ", \\\n     " : "") << gnuplot_quote(csv, "--out-dir") << " skip 1 using " << col("n_kb")
          << ":((strcol(" << col("panel") << ") eq '" << panel << "' && strcol(" << col("accounting") << ") eq '" << acc
          << "' && $" << col("p") << " == " << ps[i] << ") ? $" << col("factor")
          << " : 1/0) with linespoints lw 2 pt " << (paper ? 7 : 6) << " ps 0.7 " << (paper ? "dt 1" : "dt 2")
          << " lc rgb '" << colour << "' " << (paper ? "title 'p = " + std::to_string(ps[i]) + "'" : std::string("notitle"));
      }
    }
    g << "\n";
  }
  g << "unset multiplot\n";
  const std::string plot = g.str();
  return "set terminal svg size 1200,520 dynamic enhanced font 'sans,12'\nset output " + gnuplot_quote(svg, "--out-dir") +
         "\n" + plot + "set terminal pngcairo size 1500,650 enhanced font 'sans,12'\nset output " +
         gnuplot_quote(png, "--out-dir") + "\n" + plot;
}

}  // namespace

void HbspCommand::add_to(CLI::App& app) {
  hbsp_ = app.add_subcommand(
      "hbsp", "Heterogeneous BSP: replay superstep programs, regenerate the HBSP^1 predictions, probe a machine");
  hbsp_->require_subcommand(1);

  add_replay_options();
  add_predict_and_probe_options();
  for (CLI::App* command : {replay_, predict_, probe_})
    refuse_old_spelling(*command, "-m", "in hbsp the machine file is --machine (-m is the fast count elsewhere)");
}

void HbspCommand::add_replay_options() {
  replay_ = hbsp_->add_subcommand(
      "replay", "Replay a superstep program (CSV or built-in algorithm) on a machine: a record per superstep and a total");
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
  sampling_.add_to(*replay_);
  // Optional here: without --reps the replay is static, so no default is shown.
  reps_ = replay_->get_option("--reps");
  reps_->description("Monte Carlo replay: replications bootstrapping r_j from the trace")->default_str("");
  output_.add_to(*replay_, engine::Format::csv);
  refuse_old_spelling(*replay_, "--n", "in hbsp the problem size is --size (--n is the width elsewhere)");
  refuse_old_spelling(*replay_, "--p", "in hbsp the number of processors is --processors (-p is the levels elsewhere)");
  refuse_old_spelling(*replay_, "-a", "in hbsp the algorithm is --algorithm (-a is the scale elsewhere)");
}

void HbspCommand::add_predict_and_probe_options() {
  predict_ = hbsp_->add_subcommand(
      "predict", "Regenerate the HBSP^1 paper's Figures 4 and 6 (predicted T_s/T_f, T_u/T_b): CSV, SVG, PNG");
  predict_->add_option("--machine", predict_machine_, "Machine file (default: the paper's cluster, embedded)");
  predict_out_dir_ = predict_->add_option("--out-dir", out_dir_,
                                          "Folder for figure4/figure6 .csv, .gp, .svg, .png (with --format or --out, only when given)")
                         ->capture_default_str();
  predict_output_.add_to(*predict_, engine::Format::csv);

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
}

bool HbspCommand::parsed() const { return hbsp_ != nullptr && hbsp_->parsed(); }

int HbspCommand::execute() {
  try {
    if (replay_->parsed()) return replay();
    if (predict_->parsed()) return predict();
    if (probe_->parsed()) return probe();
  } catch (const InputError& e) {
    // A file given on the command line keeps its name, even one called "size".
    for (const std::string* path : {&machine_path_, &program_path_, &trace_path_, &output_.out_path, &predict_machine_,
                                    &probe_options_.machine_path, &probe_options_.trace_path})
      if (e.where() == *path) throw;
    // The library names its parameters in the papers' words; the command line names the option.
    throw InputError(flag_of(e.where(), true), e.problem(), e.hint());
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

engine::hbsp::ReplayInput HbspCommand::replay_input(const model::Machine& m, int p) const {
  replay_engine::ReplayTexts t;
  t.program = program_path_;
  t.algorithm = algorithm_;
  t.form = form_;
  t.size = n_text_;
  t.item_size = item_size_;
  t.root = root_;
  t.workload = workload_;
  t.accounting = accounting_;
  t.oversampling = oversampling_;
  return replay_engine::replay_input(m, p, t);  // errors name the table's parameters: execute() spells them
}

int HbspCommand::replay() {
  output_.value();  // a bad --format is refused before any work
  const bool monte_carlo = reps_->count() > 0;
  if (metrics_ && monte_carlo) throw InputError("--metrics", "the measures come from one replay: leave out --reps");
  const model::Machine m = model::load_machine(machine_path_);
  // Not given: every processor. Given, even 0, it must be one of 1..size (0 once meant all).
  const int p = processors_->count() ? p_ : m.size();
  m.check_p(p);
  const replay_engine::ReplayInput input = replay_input(m, p);

  std::optional<replay_engine::Trace> trace;
  if (!trace_path_.empty()) trace = replay_engine::load_trace(trace_path_, m);
  if (monte_carlo && !trace) throw InputError("--reps", "a Monte Carlo replay draws r_j from a trace: give --trace");

  replay_engine::ReplayRecordOptions options;
  options.trace = trace ? &*trace : nullptr;
  options.metrics = metrics_;
  std::optional<Progress> progress;
  if (monte_carlo) {
    sampling_.validate();
    auto& b = options.bootstrap.emplace();
    b.reps = sampling_.reps;
    b.seed = sampling_.seed;
    b.threads = sampling_.threads;
    progress.emplace("hbsp replay " + input.program.name);
    b.progress = [&](std::uint64_t done, std::uint64_t total) { progress->update(done, total); };
  }
  const std::vector<engine::Record> records = replay_engine::replay_records(m, input, options);
  progress.reset();  // the progress line cleared before the records print
  output_.emit(records, records.back().names());
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
  const auto base_of = [&](const model::Prediction& pr) { return out_dir_ + "/figure" + pr.figure; };
  // As figure: asked for the rows (--format, --out), the files go only where --out-dir says, so
  // that a look at the numbers does not replace the committed figures.
  const bool files = !predict_output_.asked() || predict_out_dir_->count() > 0;
  if (files) {
    for (const auto& pr : model::paper_predictions()) check_gnuplot_base(base_of(pr), "--out-dir");  // before any work
    std::error_code ec;
    std::filesystem::create_directories(out_dir_, ec);
    if (ec) throw InputError(out_dir_, "cannot create the output folder: " + ec.message());
  }
  predict_output_.value();  // a bad --format fails before any work
  std::vector<engine::Record> all;
  for (const auto& pr : model::paper_predictions()) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::string base = base_of(pr);
    const auto records = replay_engine::prediction_records(m, pr);
    all.insert(all.end(), records.begin(), records.end());
    if (!files) continue;
    write_file_atomically(base + ".csv", engine::render(records, engine::Format::csv));
    draw_with_gnuplot(base, "--out-dir", [&](const std::string& svg, const std::string& png) {
      return predict_script(m, pr, records.front().names(), base + ".csv", svg, png);
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << "hetstruct hbsp predict: Figure " << pr.figure << " (" << pr.title << "): wrote " << base
              << ".csv, .gp, .svg, .png (" << fixed(seconds, 1) << " s)\n";
  }
  // As figure does: the rows also on stdout or --out when a format or a file is asked for.
  if (predict_output_.asked()) predict_output_.emit(all);
  return 0;
}

}  // namespace hetstruct::cli
