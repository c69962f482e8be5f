#include "engine/simulate/parameters.h"

#include <stdexcept>

namespace hetstruct::engine {

namespace {

using K = ParameterKind;
using S = ParameterScope;

// The rows. A flag's TOML key is the flag without its dashes (CLI11 reads a sweep's file by the
// long names); a keyword is the flag's words joined by '_'.
const std::vector<Parameter> table = {
    // ---- The model (engine::parse_model), in the order the help lists them ----
    {"structure", "--structure", "-s", "structure", "structure", K::text, S::model, "async | sync | nn | ms ({})", ""},
    {"graph", "--graph", "", "graph", "graph", K::file, S::model,
     "A DAG instead of --structure, read by its extension: Graphviz .dot/.gv (vertex attributes processor, "
     "law, order; edge comm), Standard Task Graph Set .stg, WfFormat .json",
     ""},
    {"task_law", "--task-law", "", "task_law", "task-law", K::text, S::model,
     "STG/WfFormat: the law around each task's mean: normal | uniform | constant", ""},
    {"task_cv", "--task-cv", "", "task_cv", "task-cv", K::number, S::model,
     "STG/WfFormat: coefficient of variation of each task's time (0: the mean, constant)", "cv"},
    {"mapping", "--mapping", "", "mapping", "mapping", K::file, S::model,
     "A file of 'task processor' lines, in each processor's order (default: a DOT vertex's processor, "
     "WfFormat's machines, else one processor per task); replaces a DOT file's processors and orders",
     ""},
    {"schedule", "--schedule", "", "schedule", "schedule", K::text, S::model,
     "Place a graph's tasks by a static schedule computed from the mean times: {} (HEFT on mean + k sd); on the "
     "file's machine (its costs or processor_scale, else the processors its vertices name) or --scales (see "
     "hetstruct schedule)",
     ""},
    {"sd_weight", "--sd-weight", "", "sd_weight", "sd-weight", K::number, S::model,
     "With --schedule heft-sd: k, the weight of each time's standard deviation", "k"},
    {"bandwidth", "--bandwidth", "", "bandwidth", "bandwidth", K::number, S::model,
     "WfFormat: bytes per unit of time; a crossing edge's message takes the bytes the parent writes and "
     "the child reads over it (default: --comm for every crossing edge)",
     ""},
    {"width", "--n", "", "n", "n", K::count, S::model, "Width: number of processors", "n"},
    {"fast_count", "--m", "", "m", "m", K::count, S::model,
     "Fast processors (the first m), drawing a*X (with --graph too)", "m"},
    {"scale", "--a", "", "a", "a", K::number, S::model, "Scale of the fast processors' law, 0 < a (fractions allowed: 4/5)",
     "a"},
    {"law", "--law", "", "law", "law", K::law, S::model,
     "Task-time law: uniform = u(0,1), normal = n(1/2,1/12), or a law such as "
     "\"mix(0.3:u(0,1),0.7:n(0.5,1/12))\", gamma(2,0.25) or emp(times.txt) (see --help)",
     "X"},
    {"fast_law", "--fast-law", "", "fast_law", "fast-law", K::law, S::model,
     "Law of the fast processors (default: a times --law)", ""},
    {"levels", "--levels", "-p", "levels", "levels", K::count, S::model, "Tasks per processor (p)", "p"},
    {"comm_cost", "--comm", "-C", "comm", "comm", K::number, S::model,
     "Communication cost C: time of one message (Wilson Section 5; on a graph, of every edge between "
     "processors without a comm attribute)",
     "C"},
    {"processor_scale", "--scales", "", "scales", "scales", K::list, S::model,
     "With --graph: each processor's scale, a list 1,1,1/2 (processor j takes s_j times its tasks' "
     "laws; replaces the file's speeds)",
     "s_j"},
    {"processor_cores", "--cores", "", "cores", "cores", K::list, S::model,
     "With --graph: each processor's cores, a list 4,4,1 or one count for all (up to that many tasks "
     "run on a processor at once, each taking its cores; replaces the file's)",
     ""},
    {"port", "--port", "", "port", "port", K::text, S::model,
     "With --graph: {}, as a sweep spells them, are the same with --overlap", "port model"},
    {"dispatch", "--dispatch", "", "dispatch", "dispatch", K::text, S::model,
     "With --graph: how a processor takes its tasks: ready (work-conserving: a task joins its "
     "processor's queue when its inputs are in, and the queue's head starts whenever it fits in the "
     "free cores) | ordered (in the order the input states: a DOT file's, a mapping's, a schedule's, "
     "a trace's recorded starts). Default: ordered where the input states an order, ready where it "
     "does not (a WfFormat machine without recorded starts)",
     ""},
    {"platform", "--platform", "", "platform", "platform", K::file, S::model,
     "With a DOT --graph: a SimGrid platform file (4.1; a Full zone of hosts, links and routes, or a "
     "cluster; docs/platform.md). Vertices name their host= (or processor= by index), their law is "
     "work in flops; edges give bytes=; messages pay the route's latency, then share its links",
     ""},
    {"sharing", "--sharing", "", "sharing", "sharing", K::text, S::model,
     "With --platform: how links share their bandwidth: rtt (the default: SimGrid's CM02, weighted "
     "max-min, a message's weight its route's latency) | max-min (equal weights) | none (each message "
     "alone at its route's bottleneck)",
     ""},
    {"overlap", "--overlap", "", "overlap", "overlap", K::flag, S::model,
     "With --graph --port {}: a processor computes while it communicates (Wilson's do not)", ""},
    {"protocol", "--protocol", "", "protocol", "protocol", K::text, S::model,
     "Communication protocol (default: the first, the reading that best fits the paper); {}", ""},
    {"policy", "--policy", "", "policy", "policy", K::text, S::model, "Master-slave dealing (default: the first): {}",
     "dealing"},
    {"slowdown", "--slowdown", "", "slowdown", "slowdown", K::law, S::model,
     "Correlated slowdowns: each replication draws one factor per processor from this law (a law >= 0, "
     "e.g. u(1,2) or c(2)), or from its own law of a list of one per processor (c(1),mix(0.9:c(1),0.1:c(2))), "
     "and multiplies all that processor's task times by it; independent across "
     "processors. No closed form, bound, analytic estimate or estimator but mc applies",
     ""},
    {"machine_slowdown", "--machine-slowdown", "", "machine_slowdown", "machine-slowdown", K::law, S::model,
     "Correlated slowdowns: each replication draws one factor for the whole machine from this law and "
     "multiplies every task time by it (with --slowdown too: the product of the two factors)",
     ""},
    {"exchange", "--exchange", "", "exchange", "exchange", K::text, S::model,
     "Nearest-neighbour rule: sequential (Wilson's tables) | plain (max of neighbours)", ""},
    {"memory_check", "--no-memory-check", "", "memory_check", "no-memory-check", K::flag, S::model,
     "Build the model even when its estimated memory exceeds what the machine has available", ""},
    // ---- The run ----
    {"reps", "--reps", "-r", "reps", "reps", K::count, S::run, "Replications (independent simulated executions)", "N"},
    {"seed", "--seed", "", "seed", "seed", K::count, S::run, "Seed: the same seed gives the same numbers on any thread count",
     ""},
    {"threads", "--threads", "-t", "threads", "threads", K::count, S::run, "Worker threads (0: all cores)", ""},
    {"estimator", "--estimator", "", "estimator", "estimator", K::text, S::run,
     "auto | exact | cv | antithetic | antithetic-cv | mc: auto takes the exact expectation where one "
     "exists (sync at C = 0, async with normal, gamma, uniform or constant laws or their mixtures), else control variates (with "
     "antithetic pairs for ms), else plain Monte Carlo (mc)",
     ""},
    {"target_se", "--target-se", "", "target_se", "target-se", K::number, S::run,
     "Stop once the standard error is at most this (checked after whole waves of blocks; --reps is the cap)", ""},
    {"target_rel", "--target-rel", "", "target_rel", "target-rel", K::number, S::run,
     "Stop once the 95% CI half-width is at most this fraction of the mean (--reps is the cap)", ""},
    {"target_reps", "--target-reps", "", "target_reps", "target-reps", K::count, S::run,
     "Stop once the standard error is at most that of this many plain replications (s/sqrt(N), s the "
     "makespans' standard deviation on the same run; 10000 is the paper's precision; --reps is the cap)",
     ""},
    {"se_floor", "--se-floor", "", "se_floor", "se-floor", K::number, S::run,
     "A standard error at which the targets above count as met, whatever they ask (the target "
     "itself without them): --target-reps 10000 --se-floor 0.05 stops each cell at "
     "se <= max(0.05, the paper's), finer than the whole units Wilson's tables print",
     ""},
    {"metrics", "--metrics", "", "metrics", "metrics", K::flag, S::run,
     "Zhang-Yan measures on the total row: power weights, H, P_deg, speedup, efficiency", ""},
    {"criticality", "--criticality", "", "criticality", "criticality", K::flag, S::run,
     "One record per task: its criticality (the fraction of replications in which it lies on a critical path) "
     "with its binomial standard error, and its mean slack",
     ""},
    {"compare_to", "--compare-to", "", "compare_to", "compare-to", K::list, S::run,
     "OPTION=VALUE[,OPTION=VALUE...]: the paired difference and ratio of the means (common random numbers) "
     "against the model with these options set",
     ""},
    {"schedules", "--schedules", "", "schedules", "schedules", K::list, S::run,
     "compare: the schedules to compare, a list of at least two", ""},
    {"baseline", "--baseline", "", "baseline", "baseline", K::text, S::run,
     "compare: the schedule every other is set against (the first of the schedules by default)", ""},
    // ---- The distribution ----
    {"quantiles", "--quantiles", "", "quantiles", "quantiles", K::list, S::distribution,
     "Quantile levels in (0,1), a list or range: 0.1,0.9 or 0.05:0.95:0.05", ""},
    {"deadline", "--deadline", "", "deadline", "deadline", K::list, S::distribution,
     "Deadline T, or a list: P(makespan > T) with its exact (Clopper-Pearson) 95% CI", "T"},
    {"histogram", "--histogram", "", "histogram", "histogram", K::count, S::distribution,
     "Histogram of the makespan: BINS equal bins over [min, max]", ""},
    {"estimators", "--estimators", "", "estimators", "estimators", K::list, S::distribution,
     "Rows beyond the mean, a list: quantile, sd, p_deadline", ""},
    // ---- The sweep ----
    {"max_configs", "--max-configs", "", "max_configs", "max-configs", K::count, S::sweep,
     "Refuse a grid of more configurations", ""},
    {"skip_invalid", "--skip-invalid", "", "skip_invalid", "skip-invalid", K::flag, S::sweep,
     "Skip the configurations the model refuses instead of refusing the grid", ""},
    // ---- The output ----
    {"format", "--format", "-f", "format", "format", K::text, S::output, "csv | json | jsonl (one JSON object a line) | text",
     ""},
    // ---- The fit ----
    {"samples", "--samples", "", "samples", "samples", K::file, S::fit,
     "A file of runs, one number a line (as emp(FILE) reads it): one group", ""},
    {"sacct", "--sacct", "", "sacct", "sacct", K::file, S::fit, "sacct -X -P output: COMPLETED jobs, grouped JOBNAME@PARTITION",
     ""},
    {"by", "--by", "", "by", "by", K::text, S::fit, "How traces are grouped: category, name; ,machine appends @MACHINE", ""},
    {"laws", "--laws", "", "laws", "laws", K::list, S::fit, "Candidate laws, comma-separated", ""},
    {"out_graph", "--out-graph", "", "out_graph", "out-graph", K::file, S::fit,
     "With --graph: write the first trace again, each task with its group's best law in a \"law\" field", ""},
    // ---- HBSP's replay (bounds/hbsp/model.h names these in the papers' words) ----
    {"processors", "--processors", "", "processors", "processors", K::count, S::hbsp,
     "Use the first p processors of the machine (default: all)", "p"},
    {"size", "--size", "", "size", "size", K::text, S::hbsp,
     "Problem size n: items (matmul: the matrix order), or bytes as 4096B, 100KB, 2MB", "n"},
    {"item size", "--item-size", "", "item_size", "item-size", K::number, S::hbsp,
     "Packets per item (bytes per integer on the paper's cluster: 4)", ""},
    {"root", "--root", "", "root", "root", K::text, S::hbsp, "fastest | slowest | a processor name or 0-based index", ""},
    {"oversampling", "--oversampling", "", "oversampling", "oversampling", K::number, S::hbsp,
     "Sample sort: keys sampled per processor", ""},
    {"algorithm", "--algorithm", "", "algorithm", "algorithm", K::text, S::hbsp,
     "Built-in: scatter, broadcast1, broadcast2, prefix, matmul, samplesort", ""},
    {"workload", "--workload", "", "workload", "workload", K::text, S::hbsp, "balanced (P_j holds c_j*n) | equal (n/p)", ""},
    {"accounting", "--accounting", "", "accounting", "accounting", K::text, S::hbsp,
     "paper (messages to self count) | exact (they do not)", ""},
    {"cost form", "--form", "", "form", "form", K::text, S::hbsp,
     "Superstep cost: hbsp1 (w = max w_j), cj (w = max w_j/c_j), auto", ""},
    {"program", "--program", "", "program", "program", K::file, S::hbsp,
     "A superstep program CSV (step, processor, work, sends)", ""},
    {"trace", "--trace", "", "trace", "trace", K::file, S::hbsp, "An r_j trace: one r_j per rank and round", ""},
    // Errors of a whole command: the replay's inputs together, the probe's timings.
    {"hbsp replay", "hbsp replay", "", "hbsp_replay", "", K::command, S::hbsp,
     "Replay a superstep program (CSV or built-in algorithm) on a machine", ""},
    {"measurements", "hbsp probe", "", "measurements", "", K::command, S::hbsp,
     "The timings the probe took (engine/hbsp/probe.h)", ""},
};

}  // namespace

const char* to_string(ParameterKind kind) {
  switch (kind) {
    case K::text: return "text";
    case K::count: return "count";
    case K::number: return "number";
    case K::law: return "law";
    case K::list: return "list";
    case K::flag: return "flag";
    case K::file: return "file";
    case K::command: return "command";
  }
  return "?";
}

const std::vector<Parameter>& parameters() { return table; }

const Parameter* find_parameter(std::string_view name) {
  for (const auto& p : table)
    if (name == p.name) return &p;
  return nullptr;
}

const Parameter& parameter(std::string_view name) {
  if (const auto* p = find_parameter(name)) return *p;
  throw std::logic_error("the parameter table has no row '" + std::string(name) + "'");
}

std::string option_names(const Parameter& p) {
  std::string names = p.flag;
  if (*p.short_flag) names += std::string(",") + p.short_flag;
  return names;
}

std::string spell_tokens(std::string text, const std::function<std::string(const Parameter&)>& spell) {
  for (auto open = text.find('{'); open != std::string::npos; open = text.find('{', open)) {
    const auto close = text.find('}', open);
    if (close == std::string::npos) break;
    const auto* row = find_parameter(std::string_view(text).substr(open + 1, close - open - 1));
    if (!row) {
      open = close;
      continue;
    }
    const std::string spelled = spell(*row);
    text.replace(open, close - open + 1, spelled);
    open += spelled.size();
  }
  return text;
}

std::string help_of(const Parameter& p, const std::string& fill) {
  std::string help = p.help;
  if (const auto at = help.find("{}"); at != std::string::npos) help.replace(at, 2, fill);
  return help;
}

}  // namespace hetstruct::engine
