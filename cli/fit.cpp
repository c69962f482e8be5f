#include "cli/fit.h"

#include <iostream>

#include "cli/output.h"
#include "distributions/input_error.h"
#include "engine/fit/fit.h"
#include "engine/simulate/model.h"

namespace hetstruct::cli {

void FitCommand::add_to(CLI::App& app) {
  app.description(
      "Task-time laws fitted by maximum likelihood to measured runs: for each group and candidate law, n, the law "
      "(paste it into a graph), log-likelihood, AIC, Kolmogorov-Smirnov and Anderson-Darling statistics with "
      "parametric-bootstrap p-values (1,000 refitted samples), observed and fitted mean, q05, q95; the lowest AIC "
      "marked best. A group of fewer than 20 runs gets its empirical law. See docs/fit.md.");
  app.add_option("--samples", samples, "A file of runs, one number a line (as emp(FILE) reads it): one group");
  app.add_option("--graph", graphs, "WfFormat traces: every task's runtime one run, pooled, grouped by --by")
      ->expected(1, -1);
  app.add_option("--sacct", sacct,
                 "sacct -X -P --format=JobID,JobName,Partition,NodeList,AllocCPUS,Elapsed,State,Start,End output: "
                 "COMPLETED jobs, grouped JOBNAME@PARTITION");
  by_option = app.add_option("--by", by,
                             "--graph groups: category (the task's category, else its name less _ID and digits), "
                             "name (always the name rule); ,machine appends @MACHINE")
                  ->capture_default_str();
  app.add_option("--laws", laws,
                 "Candidate laws, comma-separated, from exp,gamma,lognormal,weibull,normal,tn,lognormal-mix2,"
                 "lognormal-mix3 (default: all eight)");
  app.add_option("--seed", seed, "The bootstrap's seed (the same bytes on any thread count)")->capture_default_str();
  app.add_option("--out-graph", out_graph,
                 "With --graph: write the first trace again, each task with its group's best law in a \"law\" field "
                 "(simulate --graph draws from it)");
  output.add_to(app, engine::Format::text);
}

int FitCommand::execute() {
  const int inputs = !samples.empty() + !graphs.empty() + !sacct.empty();
  if (inputs != 1) throw InputError("fit", "give exactly one of --samples, --graph, --sacct");
  if (by_option->count() > 0 && graphs.empty()) throw InputError("by", "groups --graph traces only");
  if (!out_graph.empty() && graphs.empty()) throw InputError("out_graph", "needs --graph");
  engine::FitOptions options;
  if (!laws.empty()) options.laws = distributions::fit::parse_families(laws);
  options.seed = seed;
  output.value();  // a bad --format fails before any work
  const engine::Grouping grouping = engine::parse_grouping(by);
  const auto warn = [](const std::string& text) { engine::warn(text); };  // printed after the rows
  const std::vector<engine::Record> rows =
      engine::fit_rows(engine::groups_of({samples, graphs, sacct}, grouping, warn), options, warn);
  if (!out_graph.empty()) write_file_atomically(out_graph, engine::fitted_trace(graphs.front(), grouping, rows));
  output.emit(rows);
  return 0;
}

}  // namespace hetstruct::cli
