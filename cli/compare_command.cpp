#include "cli/compare_command.h"

#include <iostream>

#include "cli/gnuplot.h"
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
  output.add_to(app, engine::Format::text);
}

int CompareCommand::execute() {
  if (options.model.graph.empty()) throw InputError("--graph", "missing", "the schedules are of a graph file: give --graph FILE");
  engine::ScheduleSet set = engine::parse_schedule_set(schedules, baseline);
  sampling.validate();
  const engine::DistributionOptions asked = distribution.resolved();
  output.value();  // a bad --format fails before any work
  if (!gantt.empty()) check_gnuplot_base(gantt, "--gantt");
  options.schedule = set.baseline.name();
  const engine::Model model = options.resolved();
  const auto records = engine::compare_schedule_set(model, set.others, sampling.run_options(), asked);
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
