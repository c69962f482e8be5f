#include "cli/schedule_command.h"

#include <iostream>
#include <sstream>

#include "cli/gnuplot.h"
#include "cli/options.h"
#include "cli/output.h"
#include "distributions/input_error.h"
#include "engine/simulate/schedule_records.h"

namespace hetstruct::cli {

void ScheduleCommand::add_to(CLI::App& app) {
  // A schedule is of a graph, on the free port model: no structure, protocol, policy or replication.
  options.add_to(app, {.structure = false, .structure_required = false, .protocol = false, .policy = false, .schedule = false});
  app.add_option("--algorithm", options.schedule,
                 structures::schedule_names(" | ", " | ") + " (heft-sd: HEFT on each time's mean + k standard deviations; k is --sd-weight; docs/schedule.md)")
      ->capture_default_str()->group("Schedule");
  options.schedule = "heft";
  app.add_option("--sd-weight", options.sd_weight, "With --algorithm heft-sd: k, the weight of each time's standard deviation")
      ->capture_default_str()->group("Schedule");
  app.add_option("--output-mapping", mapping_out,
                 "Write the schedule as a mapping file ('task processor' lines in each processor's order), for "
                 "simulate --graph FILE --mapping")
      ->check(non_empty("name the mapping file to write"))->group("Output");
  app.add_option("--gantt", gantt, "Draw the schedule's Gantt chart with gnuplot: BASE.gp, BASE.svg and BASE.png")
      ->check(non_empty("name the base of the chart's files"))->group("Output");
  output.add_to(app, engine::Format::csv);
}

std::string gantt_script(const std::string& graph, const structures::Schedule& schedule,
                         const std::vector<std::string>& names, const std::string& svg, const std::string& png) {
  std::ostringstream g;
  // With processors of several cores, one row per core (processor by processor), each task on the
  // row of the lowest of its cores; else one row per processor.
  const bool cores = schedule.multicore();
  std::vector<std::size_t> first_row(schedule.order.size() + 1, 0);
  for (std::size_t p = 0; p < schedule.order.size(); ++p)
    first_row[p + 1] = first_row[p] + (cores ? static_cast<std::size_t>(schedule.processor_cores.at(p)) : 1);
  g << "# The Gantt chart of a " << structures::to_string(schedule.algorithm) << " schedule, written by hetstruct schedule.\n"
    << "$schedule << EOD\n";
  for (std::size_t v = 0; v < schedule.tasks.size(); ++v) {
    std::string label = names.at(v);
    for (char& c : label)
      if (c == '"' || c == '\\') c = '\'';
    const auto& slot = schedule.tasks[v];
    g << '"' << label << "\" ";
    if (cores) g << first_row[static_cast<std::size_t>(slot.processor)] + static_cast<std::size_t>(slot.core);
    else g << slot.processor;
    g << ' ' << full(slot.start) << ' ' << full(slot.finish) << '\n';
  }
  std::string title = graph;
  for (char& c : title)
    if (c == '"' || c == '\\') c = '\'';
  g << "EOD\n"
    << "set title \"" << structures::to_string(schedule.algorithm) << " schedule of " << title << ": makespan "
    << full(schedule.makespan) << " at the mean times\" noenhanced\n"
    << "set xlabel 'time'\n";
  if (cores) {
    // A tic at each processor's first core, named 'processor:0'.
    g << "set ylabel 'processor:core'\n"
      << "set yrange [-0.6:" << first_row.back() << "-0.4]\n"
      << "set ytics (";
    for (std::size_t p = 0; p < schedule.order.size(); ++p) g << (p ? ", " : "") << '"' << p << ":0\" " << first_row[p];
    g << ")\n";
  } else {
    g << "set ylabel 'processor'\n"
      << "set yrange [-0.6:" << schedule.order.size() << "-0.4]\n"
      << "set ytics 1\n";
  }
  g << "set xrange [0:" << full(schedule.makespan) << "]\n"
    << "set grid x\n"
    << "unset key\n"
    << "set style fill solid 0.3 border lc rgb '#1f4e79'\n"
    << "plot $schedule using (($3+$4)/2):2:(($4-$3)/2):(0.35) with boxxyerror lc rgb '#1f4e79', \\\n"
    << "     $schedule using (($3+$4)/2):2:1 with labels noenhanced font ',10'\n";
  return "set terminal svg size 900,420 dynamic enhanced font 'sans,12'\nset output " + gnuplot_quote(svg, "svg") + "\n" +
         g.str() + "set terminal pngcairo size 1100,520 enhanced font 'sans,12'\nset output " + gnuplot_quote(png, "png") +
         "\nreplot\n";
}

namespace {

// The library names the algorithm `schedule` (simulate's --schedule); here it is --algorithm.
template <class F>
auto as_algorithm(F f) {
  try {
    return f();
  } catch (const InputError& e) {
    if (e.where() != "schedule") throw;
    throw InputError("--algorithm", e.problem(), e.hint());
  }
}

}  // namespace

int ScheduleCommand::execute() {
  // Before the model's own checks, which would ask for Wilson's width first.
  if (options.model.graph.empty()) throw InputError("--graph", "missing", "a schedule is of a graph file: give --graph FILE");
  const engine::Model model = as_algorithm([&] { return options.resolved(); });
  if (model.graph.empty()) throw InputError("--graph", "missing", "a schedule is of a graph file: give --graph FILE");
  if (model.port || model.overlap)
    throw InputError(model.port ? "--port" : "--overlap", "a schedule assumes the free port model",
                     "leave it out; simulate the schedule under a port model with simulate --schedule or --mapping");
  output.value();  // a bad --format fails before any work
  if (!gantt.empty()) check_gnuplot_base(gantt, "--gantt");
  const engine::ScheduledGraph scheduled = as_algorithm([&] { return engine::schedule_graph(model, !mapping_out.empty()); });
  const auto& schedule = *scheduled.structure.schedule;
  const auto& names = scheduled.names;
  if (scheduled.mapping) write_file_atomically(mapping_out, *scheduled.mapping);
  if (!gantt.empty())
    draw_with_gnuplot(
        gantt, "--gantt",
        [&](const std::string& svg, const std::string& png) { return gantt_script(model.graph, schedule, names, svg, png); },
        draw);
  output.emit(scheduled.records);
  if (!gantt.empty()) std::cerr << "hetstruct schedule: wrote " << gantt << ".gp, .svg, .png\n";
  return 0;
}

}  // namespace hetstruct::cli
