#include "cli/compare_command.h"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli/gnuplot.h"
#include "cli/output.h"
#include "cli/schedule_command.h"
#include "distributions/input_error.h"
#include "engine/simulate/schedule_comparison.h"
#include "engine/simulate/schedule_records.h"
#include "structures/schedule_registry.h"

namespace hetstruct::cli {

void CompareCommand::add_to(CLI::App& app) {
  // The schedules are of a graph; each runs under the model's port model and cores.
  options.add_to(app, {.structure = false, .structure_required = false, .protocol = false, .policy = false, .schedule = false});
  app.add_option("--schedules", schedules,
                 "The schedules to compare, a list of at least two: " + structures::schedule_names("|", "|") +
                     "|none (the file's own placement)|one-per-task")
      ->delimiter(',')->required()->group("Schedule");
  app.add_option("--baseline", baseline,
                 "The schedule every other is set against (an algorithm of --schedules) [the first of --schedules]")
      ->group("Schedule");
  app.add_option("--sd-weight", options.sd_weight, "heft-sd's k, the weight of each time's standard deviation")
      ->capture_default_str()->group("Schedule");
  sampling.add_to(app);
  distribution.add_to(app, false);
  app.add_option("--gantt", gantt,
                 "Draw each schedule's Gantt chart (at the mean times) with gnuplot: BASE-NAME.gp, .svg and .png")
      ->check(non_empty("name the base of the charts' files"))->group("Output");
  app.add_option("--cdf", cdf,
                 "Draw the schedules' makespan distributions side by side (empirical CDFs) with gnuplot: BASE.gp, .svg and .png")
      ->check(non_empty("name the base of the figure's files"))->group("Output");
  output.add_to(app, engine::Format::text);
}

std::string cdf_script(const std::string& graph, const std::vector<std::string>& names,
                       const std::vector<std::vector<double>>& makespans, const std::string& svg, const std::string& png) {
  std::ostringstream g;
  g << "# The schedules' empirical makespan CDFs, written by hetstruct compare.\n";
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::vector<double> x = makespans.at(i);
    std::sort(x.begin(), x.end());
    const std::size_t n = x.size(), step = n <= 2000 ? 1 : (n + 1999) / 2000;
    g << "$s" << i << " << EOD\n";
    for (std::size_t k = 1; k <= n; ++k)
      if (k % step == 0 || k == n) g << full(x[k - 1]) << ' ' << full(static_cast<double>(k) / static_cast<double>(n)) << '\n';
    g << "EOD\n";
  }
  std::string title = graph;
  for (char& c : title)
    if (c == '"' || c == '\\') c = '\'';
  g << "set title \"Makespan distributions on " << title << " (" << (makespans.empty() ? 0 : makespans[0].size())
    << " replications, common random numbers)\" noenhanced\n"
    << "set xlabel 'makespan'\nset ylabel 'P(makespan <= x)'\nset yrange [0:1]\nset grid\nset key bottom right noenhanced\n"
    << "plot ";
  for (std::size_t i = 0; i < names.size(); ++i)
    g << (i ? ", \\\n     " : "") << "$s" << i << " using 1:2 with steps lw 2 title '" << names[i] << "'";
  g << "\n";
  return "set terminal svg size 900,520 dynamic enhanced font 'sans,12'\nset output " + gnuplot_quote(svg, "svg") + "\n" +
         g.str() + "set terminal pngcairo size 1100,640 enhanced font 'sans,12'\nset output " + gnuplot_quote(png, "png") +
         "\nreplot\n";
}

int CompareCommand::execute() {
  if (options.model.graph.empty()) throw InputError("--graph", "missing", "the schedules are of a graph file: give --graph FILE");
  engine::ScheduleSet set = engine::parse_schedule_set(schedules, baseline);
  sampling.validate();
  const engine::DistributionOptions asked = distribution.resolved();
  output.value();  // a bad --format fails before any work
  if (!gantt.empty()) check_gnuplot_base(gantt, "--gantt");
  if (!cdf.empty()) check_gnuplot_base(cdf, "--cdf");
  options.schedule = set.baseline.name();
  const engine::Model model = options.resolved();
  std::vector<std::vector<double>> makespans;
  const auto records = engine::compare_schedule_set(model, set.others, sampling.run_options(), asked, cdf.empty() ? nullptr : &makespans);
  if (!cdf.empty()) {
    std::vector<std::string> names{set.baseline.name()};
    for (const auto& other : set.others) names.push_back(other.name());
    draw_with_gnuplot(
        cdf, "--cdf", [&](const std::string& svg, const std::string& png) { return cdf_script(model.graph, names, makespans, svg, png); },
        draw);
    std::cerr << "hetstruct compare: wrote " << cdf << ".gp, .svg, .png\n";
  }
  if (!gantt.empty()) {
    set.others.insert(set.others.begin(), set.baseline);
    for (const auto& choice : set.others) {
      if (choice.placement != engine::ScheduleChoice::Placement::schedule) {
        std::cerr << "hetstruct compare: no Gantt chart for " << choice.name() << " (a placement without a schedule)\n";
        continue;
      }
      engine::Model m = model;
      engine::apply_schedule_choice(choice, m.task_graph, m.processor_scales);
      const engine::ScheduledGraph scheduled = engine::schedule_graph(m, false);
      const std::string file = gantt + "-" + choice.name();
      draw_with_gnuplot(
          file, "--gantt",
          [&](const std::string& svg, const std::string& png) {
            return gantt_script(model.graph, *scheduled.structure.schedule, scheduled.names, svg, png);
          },
          draw);
      std::cerr << "hetstruct compare: wrote " << file << ".gp, .svg, .png\n";
    }
  }
  output.emit(records);
  return 0;
}

}  // namespace hetstruct::cli
