// The hetstruct command line: a thin layer over the library. Data goes to stdout, diagnostics and
// progress to stderr; any bad input is one line on stderr and exit status 2.
#include "cli/app.h"

#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <new>
#include <unistd.h>
#include <functional>
#include <iomanip>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>

#include <CLI/CLI.hpp>
#include <oneapi/tbb/info.h>

#include "bounds/closed_forms.h"
#include "bounds/structure_bounds.h"
#include "bounds/heterogeneity.h"
#include "cli/compare_command.h"
#include "cli/distribution.h"
#include "cli/gnuplot.h"
#include "cli/hbsp/command.h"
#include "cli/model.h"
#include "cli/options.h"
#include "cli/plot.h"
#include "cli/fit.h"
#include "cli/schedule_command.h"
#include "cli/parameters.h"
#include "engine/simulate/bounds_records.h"
#include "engine/simulate/criticality.h"
#include "engine/simulate/policies.h"
#include "engine/simulate/schedule_comparison.h"
#include "engine/driver/resources.h"
#include "engine/simulate/simulation.h"
#include "engine/sweep/sweep.h"
#include "engine/simulate/dag_model.h"
#include "cli/sweep.h"
#include "cli/output.h"
#include "distributions/input_error.h"
#include "engine/driver/interrupt.h"
#include "engine/driver/monte_carlo.h"
#include "engine/wilson/figures.h"
#include "engine/wilson/tables.h"

#include "hetstruct_version.h"  // HETSTRUCT_VERSION, written at build time (cli/version.cmake)
#include "structures/platform.h"
#include "structures/schedule.h"

namespace hetstruct::cli {

namespace {


double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string describe_laws(const structures::Structure& s) {
  if (s.kind == structures::StructureKind::custom) {
    std::string text = std::to_string(s.laws.size()) + " distinct laws";
    if (s.unrelated) text += ", unrelated processors (each task's costs)";
    if (!s.processor_scale.empty()) {
      text += ", processor scales ";
      for (std::size_t j = 0; j < s.processor_scale.size(); ++j) text += (j ? ";" : "") + full(s.processor_scale[j]);
    }
    return text;
  }
  const std::string slow = s.laws.back().to_string();
  if (s.fast_count == 0) return std::to_string(s.width) + " x " + slow;
  return std::to_string(s.fast_count) + " x " + s.laws.front().to_string() + " (fast), " +
         std::to_string(s.width - s.fast_count) + " x " + slow;
}

// ---- simulate --------------------------------------------------------------------------------

struct Simulate {
  ModelOptions options;
  SamplingOptions sampling;
  EstimatorOptions estimator;
  OutputOptions output;
  bool metrics = false;
  DistributionFlags distribution;
  bool estimates = false;
  bool criticality = false;
  std::vector<std::string> compare_to;
  const CLI::Option* estimator_option = nullptr;  // whether --estimator was given (--compare-to's default is mc)

  void add_to(CLI::App& app) {
    options.add_to(app, {.slowdown = true});
    sampling.add_to(app);
    estimator.add_to(app);
    output.add_to(app, engine::Format::text);
    app.add_flag("--metrics", metrics,
                 "Zhang-Yan measures: power weights, heterogeneity H, parallelism degree, speedup, efficiency")
        ->group("Output");
    distribution.add_to(app);
    app.add_flag("--estimates", estimates,
                 "Analytic DAG estimates (CPM, Kamburowski's bounds, Sculli, CorLCA, Clark canonical) beside the "
                 "simulated mean, with their differences in standard errors and percent (a graph's messages are edge "
                 "weights, free port model; Wilson's structures at zero communication)")
        ->group("Output");
    app.add_option("--compare-to", compare_to,
                   "OPTION=VALUE[,OPTION=VALUE...]: the paired difference and ratio of the means (common random "
                   "numbers) against the model with these options set, as sweep --compare-to (same grammar: "
                   "n=n-m,m=0); repeatable. Prints the one-configuration sweep's rows (mean by mc unless "
                   "--estimator); not with --metrics, --estimates or --histogram. With --quantiles or --deadline, the paired "
                   "difference of each quantile (bootstrap interval) and of each deadline's probability (Newcombe's "
                   "interval) too. schedule=" + structures::schedule_names("|", "|") + "|none|one-per-task compares a graph's "
                   "--schedule with another: each mean, the paired difference and ratio")
        ->group("Output");
    app.add_flag("--criticality", criticality,
                 "One record per task: its criticality (the fraction of replications in which it lies on a critical "
                 "path) with its binomial standard error, and its mean slack (latest finish minus finish; free port and "
                 "one core per processor only); plain Monte Carlo. A graph (every port model, any cores) or async, "
                 "sync, nn at --comm 0. "
                 "`hetstruct plot` draws the CSV")
        ->group("Output");
    estimator_option = app.get_option("--estimator");
  }

  int execute() {
    if (criticality) return execute_criticality();
    if (!compare_to.empty() && !options.platform.empty())  // the comparisons' models are the sweep's, without a platform yet
      throw InputError("--compare-to", "does not go with --platform yet", "run each model as its own simulate");
    if (!compare_to.empty()) return execute_comparisons();
    sampling.validate();
    const engine::DistributionOptions asked = distribution.resolved();
    const engine::Estimator requested = estimates ? engine::comparison_estimator(estimator.value()) : estimator.value();
    const engine::StopRule stop = estimator.stop();
    engine::Simulation sim = engine::prepare(options.resolved());
    sim.distribution_options = asked;
    std::vector<bounds::DagEstimate> dag_estimates;  // computed before the run: bad input fails first
    if (estimates || (asked.histogram_bins > 0 && engine::dag_estimates_apply(sim)))
      dag_estimates = bounds::dag_estimates(engine::stochastic_dag(sim));
    engine::RunOptions run = sampling.run_options();
    // Every option checked before anything is announced or run; the exact expectation samples nothing.
    const auto planned = engine::check_run(sim, run, metrics, requested, stop);
    if (planned != engine::Estimator::exact) {
      // A target stops the run at most at --target-reps N replications (fewer with a better
      // estimator); --target-se and --target-rel at a count the run finds: the cap bounds it.
      std::uint64_t reps = sampling.reps;
      if (stop.target_reps > 0 && stop.target_se == 0.0 && stop.target_rel == 0.0) reps = std::min(reps, stop.target_reps);
      const std::string what = "simulate " + sim.structure.name;
      const double seconds = engine::run_seconds(sim.plan.kind, static_cast<double>(sim.plan.compute_tasks()),
                                                 static_cast<double>(reps), sampling.effective_threads());
      if (!stop.active()) announce_duration(seconds, what);
      else announce_duration(seconds, what, " at most (" + std::to_string(reps) + " replications; the target may stop it sooner)");
    }
    Progress progress("simulate " + sim.structure.name);
    run.progress = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
    const auto t0 = std::chrono::steady_clock::now();
    engine::run(sim, run, metrics, requested, stop);
    const double elapsed = seconds_since(t0);
    progress.finish();  // the result starts on a clean line
    if (sim.target_met && !*sim.target_met) estimator.warn_missed(1, 1, "runs", sampling.reps, sim.estimate.stderr_);

    const engine::Record r = engine::simulation_record(sim, sampling.seed);
    r.check_finite();
    if (sim.distribution && asked.histogram_bins > 0)
      write_file_atomically(distribution.histogram_out,
                            engine::render(engine::histogram_records(*sim.distribution,
                                                                     engine::histogram_marks(sim, dag_estimates)),
                                           engine::Format::csv));
    if (estimates) {
      const auto rows = engine::comparison_records(sim.structure.name, dag_estimates, sim.estimate, sampling.seed);
      for (const auto& row : rows) row.check_finite();
      if (output.value() == engine::Format::text)
        output.emit(text_report(sim, r, elapsed) + estimates_text(rows, sim.estimate));
      else
        output.emit(rows);
      return 0;
    }
    if (output.value() == engine::Format::text) output.emit(text_report(sim, r, elapsed));
    else output.emit(std::span(&r, 1));  // JSON: an array of one, as every command prints
    return 0;
  }

  // --criticality: the replications on the plan that exposes each task's start and finish
  // (engine/simulate/criticality.h); its makespan is the mean's (the same replications, plain Monte Carlo).
  int execute_criticality() {
    const auto refuse = [](const char* flag, const std::string& hint) {
      throw InputError(flag, "does not go with --criticality", hint);
    };
    if (!compare_to.empty()) refuse("--compare-to", "run simulate --criticality without --compare-to");
    if (metrics) refuse("--metrics", "run simulate --metrics without --criticality");
    if (estimates) refuse("--estimates", "run simulate --estimates without --criticality");
    if (distribution.asked())
      refuse("--distribution", "--criticality prints one record per task; run the distribution without it");
    if (estimator.stop().active()) refuse("--target-se", "--criticality runs a fixed number of replications (--reps)");
    if (estimator_option && estimator_option->count() > 0 && estimator.value() != engine::Estimator::mc &&
        estimator.value() != engine::Estimator::automatic)
      refuse("--estimator", "--criticality is plain Monte Carlo: leave --estimator out or give mc");
    sampling.validate();
    const engine::Model model = options.resolved();
    engine::Simulation sim = engine::prepare(model);
    const engine::Plan plan = engine::criticality_plan(sim.structure, sim.plan, model.compile_options());
    engine::RunOptions run = sampling.run_options();
    announce_duration(engine::run_seconds(plan.kind, static_cast<double>(plan.compute_tasks()),
                                          static_cast<double>(sampling.reps), sampling.effective_threads()),
                      "simulate --criticality " + sim.structure.name);
    Progress progress("simulate " + sim.structure.name);
    run.progress = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
    const auto t0 = std::chrono::steady_clock::now();
    const engine::CriticalityRun result = engine::run_criticality(sim.structure, plan, run);
    const double elapsed = seconds_since(t0);
    progress.finish();
    sim.estimate = result.makespan;
    sim.estimator = engine::Estimator::mc;
    const engine::Record r = engine::simulation_record(sim, sampling.seed);
    r.check_finite();
    const auto rows = engine::criticality_records(result, sampling.seed);
    if (output.value() != engine::Format::text) {
      output.emit(rows);
      return 0;
    }
    output.emit(text_report(sim, r, elapsed) + criticality_text(result));
    return 0;
  }

  // The most critical tasks (at most 20, by criticality, then in file order).
  static std::string criticality_text(const engine::CriticalityRun& run) {
    std::vector<const engine::TaskCriticality*> order;
    for (const auto& t : run.tasks) order.push_back(&t);
    std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->criticality > b->criticality; });
    const std::size_t shown = std::min<std::size_t>(order.size(), 20);
    std::ostringstream out;
    out << "critical    " << run.tasks.size() << " tasks" << (shown < order.size() ? ", the " + std::to_string(shown) + " most critical" : std::string())
        << " (--format csv lists every task)\n";
    out << "            " << std::left << std::setw(20) << "task" << std::right << std::setw(12) << "criticality" << std::setw(10)
        << "stderr" << std::setw(12) << "slack" << std::setw(10) << "stderr" << "\n";
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& t = *order[i];
      out << "            " << std::left << std::setw(20) << t.task << std::right << std::setw(12) << fixed(t.criticality, 4)
          << std::setw(10) << fixed(t.criticality_stderr, 4) << std::setw(12) << (run.slack ? fixed(t.slack.mean, 4) : "-")
          << std::setw(10) << (run.slack && t.slack.has_error() ? fixed(t.slack.stderr_, 4) : std::string()) << "\n";
    }
    if (!run.slack) out << "slack       none: " << engine::no_slack_reason << "\n";
    return out.str();
  }

  // --compare-to: the model as a one-configuration sweep (engine::model_sweep_records), its rows
  // printed as the sweep prints them, so the same bytes as `sweep` of that configuration.
  int compare_schedules(const std::function<bool(const std::string&)>& is_schedule) {
    if (!std::all_of(compare_to.begin(), compare_to.end(), is_schedule))
      throw InputError("--compare-to", "compares schedules (schedule=ALGORITHM) or model options, not both at once",
                       "run one simulate for each");
    if (estimator_option && estimator_option->count() > 0 && estimator.value() != engine::Estimator::mc)
      throw InputError("--estimator", "schedule comparisons are plain Monte Carlo", "leave it out, or give mc");
    sampling.validate();
    output.value();
    std::vector<engine::ScheduleChoice> against;
    for (const auto& text : compare_to) {
      const std::string name = text.substr(std::string("schedule=").size());
      try {
        against.push_back(engine::parse_schedule_choice(name));
      } catch (const InputError& e) {
        throw InputError("--compare-to", e.problem(), e.hint());
      }
    }
    const engine::Model model = options.resolved();
    if (!model.task_graph.schedule)
      throw InputError("--compare-to", "schedule=" + compare_to.front().substr(std::string("schedule=").size()) + " needs the schedule to compare it with",
                       "give --schedule " + structures::schedule_names());
    // --distribution, --quantiles and --deadline: each schedule's rows, and the paired differences.
    output.emit(engine::compare_schedules(model, against, sampling.run_options(), distribution.resolved()));
    return 0;
  }

  int execute_comparisons() {
    if (metrics) throw InputError("--metrics", "does not go with --compare-to (the sweep's rows have no metrics)",
                                  "run simulate --metrics without --compare-to");
    if (estimates)
      throw InputError("--estimates", "does not go with --compare-to", "run simulate --estimates without --compare-to");
    if (!distribution.histogram_bins.empty() || !distribution.histogram_out.empty())
      throw InputError("--histogram", "does not go with --compare-to (the sweep's rows have no histogram)",
                       "--distribution, --quantiles and --deadline give the sd, quantile and p_deadline rows");
    // schedule=B: the graph's --schedule against algorithm B, paired (engine/simulate/schedule_comparison.h).
    const auto is_schedule = [](const std::string& text) { return text.rfind("schedule=", 0) == 0; };
    if (std::any_of(compare_to.begin(), compare_to.end(), is_schedule)) return compare_schedules(is_schedule);
    std::vector<engine::Comparison> comparisons;
    for (const auto& text : compare_to) comparisons.emplace_back(text);
    sampling.validate();
    const engine::Format format = output.value();
    const engine::DistributionOptions asked = distribution.resolved();
    // The sweep's mean row: mc unless --estimator says otherwise (exact is the closed_form row).
    const engine::Estimator requested = estimator_option && estimator_option->count() > 0 ? estimator.value() : engine::Estimator::mc;
    if (requested == engine::Estimator::exact)
      throw InputError("--estimator", "--compare-to simulates the mean; the exact expectation is its closed_form row",
                       "choose auto, cv, antithetic, antithetic-cv or mc");
    const engine::Model model = options.resolved();
    const bool slowdowns = model.slowed();
    const auto mean = engine::mean_estimator(requested, estimator.stop(), asked.any(), slowdowns);
    Progress progress("simulate");
    engine::RunOptions run = sampling.run_options();
    run.progress = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
    std::vector<engine::Record> rows;
    try {
      rows = engine::model_sweep_records(model, comparisons, run, mean, asked);
      progress.finish();
    } catch (const engine::InvalidConfiguration& e) {
      if (e.comparison().empty()) throw InputError(e.cause());
      throw InputError("--compare-to", "'" + e.comparison() + "': " + flag_message(e.cause()));
    }
    // Rendered first: a number that overflowed is refused before any warning.
    const std::string text = engine::render_rows(rows, format, engine::sweep_columns(engine::has_target(mean), slowdowns));
    if (!rows.empty() && rows.back().text("target_met") == "false")  // the mean row, last
      estimator.warn_missed(1, 1, "runs", sampling.reps,
                            rows.back().text("stderr").empty() ? std::nan("") : std::stod(rows.back().text("stderr")));
    output.emit(text);
    return 0;
  }

  // The comparison records in the text report's style: 4 decimals, the difference in standard
  // errors (z) and in percent of the simulated mean.
  static std::string estimates_text(const std::vector<engine::Record>& rows, const engine::Estimate& mc) {
    auto number = [](const engine::Record& row, const std::string& name) {
      const std::string text = row.text(name);
      return text.empty() ? std::nan("") : std::stod(text);
    };
    std::ostringstream out;
    out << "estimates   " << std::left << std::setw(19) << "method" << std::setw(7) << "bound" << std::right
        << std::setw(12) << "mean" << std::setw(10) << "sd" << std::setw(12) << "difference" << std::setw(10) << "z"
        << std::setw(10) << "percent" << "\n";
    out << "            " << std::left << std::setw(26) << "monte_carlo" << std::right << std::setw(12) << fixed(mc.mean, 4)
        << std::setw(10) << (mc.has_error() ? fixed(mc.stddev, 4) : "") << "\n";
    for (const auto& row : rows) {
      const double z = number(row, "z");
      out << "            " << std::left << std::setw(19) << row.text("method") << std::setw(7) << row.text("bound")
          << std::right << std::setw(12) << fixed(number(row, "mean"), 4) << std::setw(10) << fixed(number(row, "sd"), 4)
          << std::setw(12) << fixed(number(row, "difference"), 4) << std::setw(10) << (std::isnan(z) ? "" : fixed(z, 2))
          << std::setw(10) << fixed(number(row, "difference_pct"), 2) << "\n";
    }
    return out.str();
  }

  // The human layout of the record, with the wall time and the cost per task.
  std::string text_report(const engine::Simulation& sim, const engine::Record& r, double elapsed) const {
    const auto& s = sim.structure;
    const auto& e = sim.estimate;
    std::ostringstream out;
    out << "structure   " << s.name << " (" << engine::to_string(sim.plan.kind) << " plan), width " << s.width
        << ", levels " << s.levels << "\n";
    if (!sim.zero_comm() && sim.plan.network)  // a platform's messages (engine/kernel/network.h)
      out << "comm        " << sim.plan.messages.size() << " message" << (sim.plan.messages.size() == 1 ? "" : "s")
          << " of their edges' bytes on the platform " << s.platform->source << ", sharing "
          << engine::to_string(sim.plan.network->sharing) << "\n";
    else if (!sim.zero_comm() && sim.plan.kind == engine::PlanKind::dag && sim.plan.comm.comm_cost == 0.0)
      // The messages are the edges' own (a DOT edge's comm, a trace's bytes over the bandwidth):
      // no C acts.
      out << "comm        " << sim.plan.messages.size() << " message" << (sim.plan.messages.size() == 1 ? "" : "s")
          << " of their edges' own times, port " << sim.plan.communication() << "\n";
    else if (!sim.zero_comm())
      out << "comm        C = " << full(sim.plan.comm.comm_cost) << ", "
          << (sim.plan.kind == engine::PlanKind::dag ? "port " : "protocol ") << sim.plan.communication()
          << (sim.plan.structure == structures::StructureKind::master_slave ? ", policy " + std::string(engine::to_string(sim.plan.comm.policy)) : std::string()) << "\n";
    out << "laws        " << describe_laws(s) << "\n";
    if (s.schedule)  // the deterministic makespan the schedule planned, beside the simulated mean
      out << "schedule    " << structures::to_string(s.schedule->algorithm) << " on " << s.schedule->order.size()
          << (s.schedule->order.size() == 1 ? " processor" : " processors") << ", makespan " << full(s.schedule->makespan)
          << " at the mean times\n";
    if (const auto& slow = sim.plan.slowdown; slow.any()) {
      out << "slowdown    ";
      if (slow.machine) out << "machine " << slow.machine->to_string() << (slow.processor.empty() ? "" : ", ");
      if (slow.processor.size() == 1) out << "per processor " << slow.processor.front().to_string();
      else if (!slow.processor.empty()) out << "processor by processor " << slow.processor_text();
      out << " (one factor per replication, multiplying the task times)\n";
    }
    if (std::any_of(s.processor_cores.begin(), s.processor_cores.end(), [](int k) { return k > 1; })) {
      out << "cores       ";
      for (std::size_t p = 0; p < s.processor_cores.size(); ++p) out << (p ? ", " : "") << s.processor_cores[p];
      out << " (per processor)\n";
    }
    if (!s.dispatch_reason.empty())  // which rule ran where a processor has several tasks, and why
      out << "dispatch    "
          << (s.dispatch.empty() ? "ordered: each processor starts its tasks in the input's order"
                                 : "ready: a task joins its processor's queue when its inputs are in, and the queue's "
                                   "head starts when it fits in the free cores")
          << " (" << s.dispatch_reason << ")\n";
    out << "mean        " << fixed(e.mean, 4);
    if (sim.estimator == engine::Estimator::exact)
      out << "  exact (" << sim.estimators.exact_method << "), no sampling: --estimator cv or mc simulates";
    else if (e.has_error())
      out << "  stderr " << fixed(e.stderr_, 4) << "  95% CI [" << fixed(e.ci_low, 4) << ", " << fixed(e.ci_high, 4) << "]";
    else
      out << "  stderr undefined with one replication";
    out << "\n";
    if (sim.estimator == engine::Estimator::exact) return out.str();
    out << "range       [" << fixed(e.min, 4) << ", " << fixed(e.max, 4) << "]\n";
    out << "estimator   " << engine::to_string(sim.estimator);
    if (sim.estimator != engine::Estimator::mc)
      out << "  variance factor " << (std::isnan(sim.variance_factor) ? std::string("undefined (no residual)")
                                                                       : fixed(sim.variance_factor, 2))
          << " (plain sampling's variance over this estimator's, per makespan evaluated)";
    out << "\n";
    out << "reps        " << e.reps << "  seed " << sampling.seed << "  threads " << sampling.effective_threads() << "  "
        << fixed(elapsed, 2) << " s  ("
        << fixed(elapsed * 1e9 / (static_cast<double>(e.reps) * static_cast<double>(sim.plan.compute_tasks())), 2)
        << " ns/task)\n";
    if (const auto& closed = sim.closed_form) {
      out << "closed form " << fixed(closed->value, 4) << " (" << closed->method << ")";
      if (!std::isnan(sim.z())) out << "  difference " << (sim.z() >= 0 ? "+" : "") << fixed(sim.z(), 2) << " standard errors";
      out << "\n";
    } else if (sim.plan.slowed()) {
      out << "closed form none with slowdowns: " << engine::slowdown_reason << "\n";
    } else {
      out << "closed form none for this structure\n";
    }
    if (const auto& recorded = s.recorded_makespan) {
      out << "recorded    " << fixed(*recorded, 4) << "  (the trace's makespan as it ran; the mean is "
          << fixed(e.mean / *recorded, 3) << " times it";
      // The trace ran on its own machine: say what the model changed of it.
      const auto& m = sim.model;
      std::vector<std::string> changed;
      if (!m.processor_scales.empty() || m.fast_count > 0 || m.wilson_machine) changed.push_back("speeds");
      if (!m.processor_cores.empty()) changed.push_back("cores");
      if (!m.task_graph.mapping.empty()) changed.push_back("mapping");
      if (m.task_graph.schedule) changed.push_back("schedule");
      if (m.task_graph.one_per_task) changed.push_back("one processor per task");
      if (!changed.empty()) {
        out << ", on a machine other than the one it ran on: ";
        for (std::size_t i = 0; i < changed.size(); ++i) out << (i ? ", " : "") << changed[i];
        out << " replaced";
      }
      out << ")\n";
    }
    if (const auto& m = sim.metrics) {
      out << "power      W = " << r.text("power_weights") << "  heterogeneity H = " << fixed(sim.heterogeneity, 4) << "\n";
      out << "parallel   P_deg " << fixed(m->parallelism_degree.mean, 4) << " +- " << fixed(m->parallelism_degree.stderr_, 4)
          << "  speedup SP " << fixed(m->speedup.mean, 4) << " +- " << fixed(m->speedup.stderr_, 4) << " (P_deg(1-H) = "
          << fixed(bounds::property_speedup(m->parallelism_degree.mean, sim.heterogeneity), 4) << ")  efficiency "
          << fixed(bounds::efficiency(m->speedup.mean, sim.power_weights), 4) << "\n";
    }
    if (const auto& d = sim.distribution) out << distribution_report(*d);
    return out.str();
  }

  // The distribution's lines: sd, the quantiles, the deadlines, the histogram's file.
  std::string distribution_report(const engine::Distribution& d) const {
    std::ostringstream out;
    const auto interval = [](double lo, double hi) {
      return "[" + (std::isnan(lo) ? std::string("-") : fixed(lo, 4)) + ", " + (std::isnan(hi) ? std::string("-") : fixed(hi, 4)) + "]";
    };
    out << "sd          " << fixed(d.sd.value, 4);
    if (!std::isnan(d.sd.stderr_)) out << "  stderr " << fixed(d.sd.stderr_, 4) << "  95% CI " << interval(d.sd.ci_low, d.sd.ci_high);
    out << "\n";
    for (const auto& q : d.quantiles)
      // A level of 6 or more characters (0.0025, 1e-300) keeps a space before its value.
      out << "quantile    " << std::left << std::setw(5) << full(q.level) << ' ' << std::right << fixed(q.value, 4)
          << "  95% CI " << interval(q.ci_low, q.ci_high) << "\n";
    for (const auto& e : d.deadlines)
      out << "deadline    P(makespan > " << full(e.deadline) << ") = " << fixed(e.p, 4) << "  stderr " << fixed(e.stderr_, 4)
          << "  95% CI " << interval(e.ci_low, e.ci_high) << "  (" << e.missed << " of " << d.reps << ")\n";
    if (!d.histogram.empty())
      out << "histogram   " << d.histogram.size() << " bins in " << distribution.histogram_out << "\n";
    return out.str();
  }
};

// ---- bounds ----------------------------------------------------------------------------------

struct Bounds {
  ModelOptions options;
  SamplingOptions sampling;  // only for E(nn), which has no closed form
  OutputOptions output;
  bool estimates = false;

  void add_to(CLI::App& app) {
    // Bounds are of the structures at C: no protocol or policy changes them.
    options.add_to(app, {.structure_required = false, .protocol = false, .policy = false});
    sampling.add_to(app);
    output.add_to(app, engine::Format::csv);
    app.add_flag("--estimates", estimates,
                 "Analytic DAG estimates of the structure compiled as a DAG at zero communication, beside its "
                 "closed form (always on with --graph)")
        ->group("Output");
  }

  int execute() {
    // The records are the library's (engine/simulate/bounds_records.h); --reps and --seed act on nn only.
    output.emit(engine::bounds_records(options.resolved(), estimates, [&] {
      sampling.validate();
      return sampling.run_options();
    }));
    return 0;
  }
};

// ---- table -----------------------------------------------------------------------------------

struct Table {
  std::string which;
  SamplingOptions sampling;
  EstimatorOptions estimator{"mc"};
  std::string master_slave_reps_text;
  OutputOptions output;
  CLI::Option* master_slave_reps_option = nullptr;

  void add_to(CLI::App& app) {
    app.add_option("table", which, "1..8 | all (Wilson's Tables 1-8)")->required();
    sampling.add_to(app);
    master_slave_reps_option =
        app.add_option("--ms-reps", master_slave_reps_text,
                       "Replications for the master-slave Tables 5 and 8, at least 1 (default: the same as --reps)")
            ->group("Sampling");
    estimator.add_to(app,
                     "mc | auto | cv | antithetic | antithetic-cv: auto takes control variates (with antithetic pairs "
                     "for ms) where they pay, else mc; a table simulates every cell, and the exact expectation, where "
                     "one exists, is its column 'exact'");
    output.add_to(app, engine::Format::csv);
  }

  int execute() {
    sampling.validate();
    std::vector<int> tables;
    if (which == "all") {
      tables = engine::supported_tables();
    } else {
      int t = 0;
      try {
        std::size_t used = 0;
        t = std::stoi(which, &used);
        if (used != which.size()) t = 0;
      } catch (const std::exception&) {
      }
      if (t < 1 || t > 8) throw InputError("table", "'" + which + "' is not a table of the paper", "give 1..8 or all");
      tables = {t};
    }
    engine::TableRun run;
    run.reps = sampling.reps;
    run.seed = sampling.seed;
    run.threads = sampling.threads;
    run.estimator = estimator.value();
    run.stop = estimator.stop();
    if (master_slave_reps_option->count()) {
      run.master_slave_reps = parse_count("--ms-reps", master_slave_reps_text, SamplingOptions::max_reps);
      if (*run.master_slave_reps == 0)
        throw InputError("--ms-reps", "the number of replications must be at least 1", "leave it out to use --reps");
    }

    Progress progress("table " + which);
    const auto t0 = std::chrono::steady_clock::now();
    const auto results = engine::regenerate(tables, run, [&](std::size_t done, std::size_t total) { progress.update(done, total); });
    progress.finish();
    const double elapsed = seconds_since(t0);

    std::vector<engine::Record> records;
    for (const auto& r : results) records.push_back(engine::cell_record(r));
    output.emit(records);

    std::ostringstream summary;
    summary << "hetstruct table " << which << ": " << results.size() << " cells, seed " << sampling.seed << ", "
            << fixed(elapsed, 1) << " s\n";
    for (const auto& s : engine::summarize(results, tables)) {
      if (!s.worst) continue;
      const auto& w = *s.worst;
      const auto& c = w.cell;
      summary << "  table " << s.table << ": " << s.within << " of " << s.checked << " cells within "
              << full(engine::TableSummary::acceptance_pct) << "% of the paper, mean |dev| "
              << fixed(s.mean_abs_deviation_pct, 3) << "%";
      if (s.flagged) summary << ", " << s.flagged << " flagged (the paper contradicts itself)";
      summary << "; worst " << c.law << " a=" << c.a << " C=" << full(c.comm) << ' ' << c.structure << " (" << c.n << ','
              << c.m << "): paper " << full(c.paper) << ", simulated " << fixed(w.estimate.mean, 2) << " +- "
              << fixed(w.estimate.stderr_, 2) << " (" << (w.deviation_pct >= 0 ? "+" : "") << fixed(w.deviation_pct, 3)
              << "%, " << w.estimate.reps << " reps)\n";
      summary << "    " << fixed(s.seconds, 1) << " s, " << s.replications << " replications, estimator";
      for (const auto& [e, cells] : s.estimators) summary << ' ' << engine::to_string(e) << " (" << cells << " cells)";
      summary << ", variance factor median " << fixed(s.median_variance_factor, 2) << " (min "
              << fixed(s.min_variance_factor, 2) << ")\n";
    }
    std::cerr << summary.str();
    const auto missed = std::count_if(results.begin(), results.end(), [](const auto& r) { return r.target_met == false; });
    estimator.warn_missed(static_cast<std::uint64_t>(missed), results.size(), "cells", sampling.reps);
    return 0;
  }
};

// How many records say target_met false (a run its cap stopped before its target).
std::uint64_t missed_targets(const std::vector<engine::Record>& records) {
  return static_cast<std::uint64_t>(
      std::count_if(records.begin(), records.end(), [](const engine::Record& r) { return r.text("target_met") == "false"; }));
}

// ---- policies --------------------------------------------------------------------------------

// Morin's three ways to use heterogeneous processors, on one master-slave structure: dealing to
// whichever slave is idle (overpartitioning), an equal static split (the ostrich approach) and a
// speed-proportional static split (HCGM). Same seed, so the differences are paired.
struct Policies {
  ModelOptions options;
  SamplingOptions sampling;
  EstimatorOptions estimator;
  OutputOptions output;

  void add_to(CLI::App& app) {
    // Always the master-slave structure, under every policy: neither is an option here.
    options.add_to(app, {.structure = false,
                         .structure_required = false,
                         .graph = false,
                         .policy = false,
                         .fixed_structure = structures::StructureKind::master_slave});
    sampling.add_to(app);
    estimator.add_to(app);
    output.add_to(app, engine::Format::csv);
  }

  int execute() {
    sampling.validate();
    std::optional<Progress> progress;
    const auto records = engine::compare_policies(
        options.resolved(), sampling.run_options(), estimator.value(), estimator.stop(), [&](const std::string& name) {
          progress.emplace("policy " + name);
          return [&](std::uint64_t done, std::uint64_t total) { progress->update(done, total); };
        });
    progress.reset();
    output.emit(records);
    estimator.warn_missed(missed_targets(records), records.size(), "policies", sampling.reps);
    return 0;
  }
};

// ---- figure ----------------------------------------------------------------------------------

struct Figure {
  std::string which;
  SamplingOptions sampling;
  engine::FigureRun run;
  EstimatorOptions estimator{"mc"};
  std::string out_dir = "results";
  const CLI::Option* out_dir_option = nullptr;
  OutputOptions output;  // the points also on stdout or --out, when a format or a file is asked for

  void add_to(CLI::App& app) {
    app.add_option("figure", which, "5..10 | all (Wilson's Figures 5-10)")->required();
    app.add_option("--law", run.law, "uniform | normal | a law")->capture_default_str()->group("Model");
    app.add_option("--a", run.scale, "Scale of the fast processors' law")->capture_default_str()->group("Model");
    app.add_option("--levels,-p", run.levels, "Tasks per processor (p)")->capture_default_str()->group("Model");
    sampling.add_to(app);
    estimator.add_to(app,
                     "mc | auto | cv | antithetic | antithetic-cv: auto takes control variates (with antithetic pairs "
                     "for ms) where they pay, else mc (a figure's points communicate: no exact expectation)");
    out_dir_option = app.add_option("--out-dir", out_dir,
                                    "Folder for figureN.csv, .gp, .svg and .png (with --format or --out, only when given)")
                         ->capture_default_str()
                         ->group("Output");
    output.add_to(app, engine::Format::csv);
  }

  int execute() {
    sampling.validate();
    run.sampling = sampling.run_options();
    run.estimator = estimator.value();
    run.stop = estimator.stop();
    if (run.estimator == engine::Estimator::exact)
      throw InputError("--estimator", "a figure's points communicate: no exact expectation", "choose auto, cv or mc");
    output.value();  // a bad --format fails before any work
    std::vector<int> numbers;
    if (which == "all") numbers = {5, 6, 7, 8, 9, 10};
    else numbers = {static_cast<int>(parse_count("figure", which, 1000))};
    std::vector<engine::FigureSpec> specs;
    for (const int n : numbers) specs.push_back(engine::wilson_figure(n));  // validate all before any work
    const auto base_of = [&](const engine::FigureSpec& spec) { return out_dir + "/figure" + std::to_string(spec.number); };
    // Asked for the points (--format, --out), the figure writes its files only where --out-dir
    // says: the default folder holds the committed figures, which a look at the numbers must not
    // replace.
    const bool files = !output.asked() || out_dir_option->count() > 0;
    if (files) {
      for (const auto& spec : specs) check_gnuplot_base(base_of(spec), "--out-dir");
      std::error_code ec;  // the folder, as hbsp predict makes its own, before any work
      std::filesystem::create_directories(out_dir, ec);
      if (ec) throw InputError(out_dir, "cannot create the output folder: " + ec.message());
    }
    std::vector<engine::Record> all_points;
    for (const auto& spec : specs) {
      const auto t0 = std::chrono::steady_clock::now();
      Progress progress("figure " + std::to_string(spec.number));
      const std::string base = base_of(spec);
      const auto points = engine::figure_points(spec, run, [&](std::size_t d, std::size_t t) { progress.update(d, t); });
      progress.finish();
      if (files) {
        write_file_atomically(base + ".csv", engine::render(points, engine::Format::csv));
        draw_with_gnuplot(base, "--out-dir", [&](const std::string& svg, const std::string& png) {
          return figure_script(spec, run, points.front().names(), base + ".csv", svg, png, figure_sampling(points, run));
        });
        std::cerr << "hetstruct figure " << spec.number << ": wrote " << base << ".csv, .gp, .svg, .png ("
                  << fixed(seconds_since(t0), 1) << " s)\n";
      }
      all_points.insert(all_points.end(), points.begin(), points.end());
    }
    if (output.asked()) output.emit(all_points);
    estimator.warn_missed(missed_targets(all_points), all_points.size(), "points", sampling.reps);
    return 0;
  }
};

constexpr const char* overview = R"(hetstruct: Monte Carlo analysis of parallel algorithmic structures on heterogeneous processors.

Structures (Wilson, Figure 1): async (asynchronous), sync (synchronous), nn (nearest-neighbor),
ms (asynchronous master-slave task pool), or any DAG in a Graphviz DOT file.
Width n processors, of which m are fast and draw a*X where the others draw X.
Laws: uniform = u(0,1), normal = n(1/2,1/12) (second argument: the variance), or any law such as
  u(0,1)  n(0.5,1/12)  tn(1,1/4)  c(0.5)  0.5*u(0,1)  mix(0.3:u(0,1),0.7:n(0.5,1/12))
  exp(mean)  gamma(shape,scale)  lognormal(mu,sigma) (of log X)  weibull(shape,scale)
  emp(times.txt) (measured task times, one per line, each drawn with probability 1/count)

Examples:
  hetstruct simulate --structure sync --n 8 --m 3 --a 1/2 --law uniform --reps 10000
  hetstruct simulate --graph pipeline.dot --reps 1000 --format csv
  hetstruct bounds --structure sync --n 16 --m 8 --a 4/5
  hetstruct simulate --graph pipeline.dot --reps 10000 --estimates
  hetstruct bounds --graph pipeline.dot
  hetstruct schedule --graph pipeline.dot --algorithm heft --output-mapping heft.map --gantt heft
  hetstruct simulate --graph pipeline.dot --schedule heft --reps 10000
  hetstruct simulate --structure nn --n 8 --m 3 --law normal --comm 0.1
  hetstruct table all --reps 10000 --out tables.csv
  hetstruct figure 5 --reps 2000 --out-dir results
  hetstruct policies --n 8 --m 3 --a 1/2 --law normal --comm 0.025
  hetstruct sweep -s sync,nn,ms --n 8 --m 3 --comm 0:0.25:0.025 --compare-to m=0 --out s.csv
  hetstruct plot s.csv --x comm --series structure
)";

// Ctrl-C raises the engine's flag: runs stop at the next replication and nothing half-done is
// written (every file is written whole, then renamed). A second Ctrl-C kills at once. SIGTERM
// (what mpirun forwards, what a batch system sends) stops the same way.
//
// Where nothing looks at the flag (reading a file, validating a sweep's grid, waiting on a FIFO,
// building a plan: outside every engine::CooperativeStop), the handler ends the process at once
// with status 130 and the same line, since nothing is half-written there.
void install_interrupt_handlers() {
  struct sigaction on_interrupt {};
  on_interrupt.sa_handler = [](int) {
    if (engine::cooperative_depth().load(std::memory_order_relaxed) == 0) {
      constexpr char line[] = "\nhetstruct: interrupted\n";
      [[maybe_unused]] const auto written = ::write(STDERR_FILENO, line, sizeof line - 1);
      remove_output_locks();  // --out's PATH.lock (cli/output.h): the kernel releases the lock itself
      ::_exit(130);
    }
    engine::interrupt_flag().store(true, std::memory_order_relaxed);
  };
  on_interrupt.sa_flags = SA_RESETHAND | SA_RESTART;  // system calls resume; the flag does the rest
  sigemptyset(&on_interrupt.sa_mask);
  sigaction(SIGINT, &on_interrupt, nullptr);
  sigaction(SIGTERM, &on_interrupt, nullptr);
}

// A message as one line: a newline or carriage return inside a quoted value (a file's multi-line
// string, an option's text) is written as \n or \r.
std::string one_line(std::string text) {
  for (std::size_t at = 0; (at = text.find_first_of("\n\r", at)) != std::string::npos; at += 2)
    text.replace(at, 1, text[at] == '\n' ? "\\n" : "\\r");
  return text;
}

// The processes of this launch, as the MPI launchers tell each of them (Open MPI's mpirun, MPICH's
// and Intel's Hydra); 1 when not launched by one.
int mpi_launch_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* value = std::getenv(name)) {
      const int n = std::atoi(value);
      if (n > 1) return n;
    }
  return 1;
}

// The exit status of a failure, after its one line on stderr.
int report_failure(const CLI::App& app, int argc, char** argv, const std::string& command_names) {
  try {
    throw;
  } catch (const CLI::ParseError& e) {
    // With no command recognised, CLI11 only says one is required: name what was given instead.
    // CLI11's messages quote the command line as InputError's are quoted: readable (printable, a
    // long token cut).
    if (app.get_subcommands().empty() && argc > 1)
      std::cerr << "hetstruct: " << input_error_detail::readable("unknown command or option '" + std::string(argv[1]) + "'")
                << " (commands: " << command_names << "; see hetstruct --help)\n";
    else
      std::cerr << "hetstruct: " << input_error_detail::readable(parse_error_message(e.what())) << " (see hetstruct --help)\n";
    return 2;
  } catch (const InputError& e) {
    std::cerr << "hetstruct: " << one_line(flag_message(e)) << "\n";
    return 2;
  } catch (const engine::Interrupted& e) {
    std::cerr << "\nhetstruct: " << e.what() << "\n";
    return 130;  // 128 + SIGINT, as a shell reports a process killed by Ctrl-C
  } catch (const SystemFailure& e) {
    std::cerr << "hetstruct: " << one_line(e.what()) << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    // The memory estimate (engine/driver/resources.h) refuses most runs too large up front; one
    // it let through is the same bad input, found late.
    std::cerr << "hetstruct: not enough memory for this run (an allocation failed): make the model or the graph "
                 "smaller, or keep fewer makespans (--distribution, --quantiles and --deadline keep one a replication)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hetstruct: internal error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int run(int argc, char** argv) {
  install_interrupt_handlers();
  // The library's warnings, printed after the result, in the command line's words.
  engine::set_warning_handler([](const std::string& text) { warn_later(flag_text(text)); });

  CLI::App app(overview, "hetstruct");
  app.set_version_flag("--version", std::string("hetstruct ") + HETSTRUCT_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  // The one list of commands: each registers its options on its subcommand and runs when parsed.
  // Order: the --help listing's.
  Simulate simulate;
  Bounds bounds;
  Table table;
  Figure figure;
  Policies policies;
  SweepCommand sweep;
  PlotCommand plot;
  HbspCommand hbsp;
  ScheduleCommand schedule;
  FitCommand fit;
  CompareCommand compare;
  struct Command {
    std::function<bool()> parsed;
    std::function<int()> execute;
  };
  std::vector<Command> commands;
  auto subcommand = [&](const std::string& name, const std::string& summary, auto& command) {
    command.add_to(*app.add_subcommand(name, summary));
    commands.push_back({[&app, name] { return app.get_subcommand(name)->parsed(); }, [&command] { return command.execute(); }});
  };
  auto self_registered = [&](auto& command) {  // commands that make their own subcommand (and sub-subcommands)
    command.add_to(app);
    commands.push_back({[&command] { return command.parsed(); }, [&command] { return command.execute(); }});
  };
  subcommand("simulate", "Simulate a structure: mean makespan with its standard error and 95% CI", simulate);
  subcommand("bounds", "Closed forms of the expected makespan (Eq. 1-7, quadrature) and Wilson's bounds, or analytic DAG estimates (--graph, --estimates); no sampling", bounds);
  subcommand("table", "Regenerate Wilson's tables as tidy CSV, against the paper's values", table);
  subcommand("figure", "Regenerate Wilson's Figures 5-10: CSV, gnuplot script, SVG and PNG", figure);
  std::string policy_list;
  for (const auto& p : engine::master_slave_policies()) policy_list += (policy_list.empty() ? "" : ", ") + p.name + " (" + p.approach + ")";
  subcommand("policies", "Master-slave dealing policies side by side with paired differences against the first: " + policy_list,
             policies);
  subcommand("schedule", "A static schedule of a graph (" + structures::schedule_names() + ") from its mean times: one record per task, a mapping file, a Gantt chart", schedule);
  subcommand("compare", "Several schedules of a graph on the same draws: each one's mean, quantiles and deadline probabilities, and paired differences from a baseline with 95% intervals", compare);
  subcommand("fit", "Task-time laws fitted by maximum likelihood to measured runs (samples, WfFormat traces, sacct), with KS/AD bootstrap p-values", fit);
  self_registered(sweep);
  self_registered(plot);
  self_registered(hbsp);
  std::string command_names;
  for (const auto* sub : app.get_subcommands({})) command_names += (command_names.empty() ? "" : ", ") + sub->get_name();

  try {
    app.parse(argc, argv);
    // Under mpirun only sweep shares its work between the processes (and hbsp probe measures
    // them): any other command would run once in each, and print its result as many times.
    if (const int launched = mpi_launch_size(); launched > 1 && !sweep.parsed() && !hbsp.probing())
      throw InputError("mpirun", "this launch has " + std::to_string(launched) +
                                     " processes, and only sweep shares its work between them: this command would run " +
                                     std::to_string(launched) + " times",
                       "run it without mpirun, or as a sweep");
    int status = 0;
    for (const auto& command : commands)
      if (command.parsed()) status = command.execute();
    if (status == 0) flush_warnings();
    return status;
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version: text on stdout, status 0
  } catch (...) {
    return report_failure(app, argc, argv, command_names);
  }
  return 0;
}

}  // namespace hetstruct::cli
