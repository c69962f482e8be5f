#include "cli/model.h"

#include "cli/options.h"

#include "distributions/format.h"
#include "distributions/input_error.h"
#include "engine/kernel/communication.h"
#include "structures/schedule.h"

namespace hetstruct::cli {

namespace {

// A registry's names as the help lists them.
std::string listed(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : " | ") + n;
  return s;
}

}  // namespace

void ModelOptions::add_to(CLI::App& app, Offer offer) {
  app_ = &app;
  protocols_ = offer.protocol;
  fixed_structure_ = offer.fixed_structure;
  auto* group = "Model";
  if (offer.structure)
    app.add_option("--structure,-s", structure,
                   offer.structure_required ? "async | sync | nn | ms (Wilson's Figure 1)"
                                            : "async | sync | nn | ms (default: all that have closed forms)")
        ->group(group);
  if (offer.graph) {
    app.add_option("--graph", model.graph,
                   "A DAG instead of --structure, read by its extension: Graphviz .dot/.gv (vertex attributes processor, "
                   "law, order; edge comm), Standard Task Graph Set .stg, WfFormat .json")
        ->group(group);
    app.add_option("--task-law", task_law, "STG/WfFormat: the law around each task's mean: normal | uniform | constant")
        ->capture_default_str()->group(group);
    app.add_option("--task-cv", model.task_graph.law.cv,
                   "STG/WfFormat: coefficient of variation of each task's time (0: the mean, constant)")
        ->capture_default_str()->group(group);
    app.add_option("--mapping", model.task_graph.mapping,
                   "A file of 'task processor' lines, in each processor's order (default: a DOT vertex's processor, "
                   "WfFormat's machines, else one processor per task); replaces a DOT file's processors and orders")
        ->group(group);
    if (offer.schedule) {
      app.add_option("--schedule", schedule,
                     "Place a graph's tasks by a static schedule computed from the mean times: " + structures::schedule_names(" | ", " | ") + " "
                     "(HEFT on mean + k sd); on the file's machine (its costs or processor_scale, else the processors "
                     "its vertices name) or --scales (see hetstruct schedule)")
          ->group(group);
      app.add_option("--sd-weight", sd_weight, "With --schedule heft-sd: k, the weight of each time's standard deviation")
          ->capture_default_str()->group(group);
    }
    app.add_option("--bandwidth", model.task_graph.bandwidth,
                   "WfFormat: bytes per unit of time; a crossing edge's message takes the bytes the parent writes and "
                   "the child reads over it (default: --comm for every crossing edge)")
        ->group(group);
  }
  app.add_option("--n", model.width, "Width: number of processors")->group(group);
  app.add_option("--m", model.fast_count, "Fast processors (the first m), drawing a*X (with --graph too)")
      ->capture_default_str()->group(group);
  app.add_option("--a", scale, "Scale of the fast processors' law, 0 < a (fractions allowed: 4/5)")
      ->capture_default_str()->group(group);
  app.add_option("--law", law, "Task-time law: uniform = u(0,1), normal = n(1/2,1/12), or a law such as "
                                     "\"mix(0.3:u(0,1),0.7:n(0.5,1/12))\", gamma(2,0.25) or emp(times.txt) (see --help)")
      ->capture_default_str()->group(group);
  app.add_option("--fast-law", fast_law, "Law of the fast processors (default: a times --law)")->group(group);
  app.add_option("--levels,-p", model.levels, "Tasks per processor (p)")->capture_default_str()->group(group);
  app.add_option("--comm,-C", comm,
                 "Communication cost C: time of one message (Wilson Section 5; on a graph, of every edge between "
                 "processors without a comm attribute)")
      ->capture_default_str()->group(group);
  if (offer.graph) {
    app.add_option("--scales", scales,
                   "With --graph: each processor's scale, a list 1,1,1/2 (processor j takes s_j times its tasks' "
                   "laws; replaces the file's speeds)")
        ->group(group);
    app.add_option("--cores", cores,
                   "With --graph: each processor's cores, a list 4,4,1 or one count for all (up to that many tasks "
                   "run on a processor at once, each taking its cores; replaces the file's)")
        ->group(group);
    app.add_option("--port", port,
                   "With --graph: free (a message only delays its receiver; the default) | one-port (a processor "
                   "sends one message at a time and receives one at a time; a message books both ports when its "
                   "data is ready: blocking sends) | one-port-greedy (the same ports, work-conserving: no processor "
                   "idles while it has a task it can start or a message it can send); one-port-overlap and "
                   "one-port-greedy-overlap, as a sweep spells them, are the same with --overlap")
        ->check(non_empty("choose free, one-port or one-port-greedy; leave --port out for free"))->group(group);
    app.add_option("--dispatch", dispatch,
                   "With --graph: how a processor takes its tasks: ready (work-conserving: a task joins its "
                   "processor's queue when its inputs are in, and the queue's head starts whenever it fits in the "
                   "free cores) | ordered (in the order the input states: a DOT file's, a mapping's, a schedule's, "
                   "a trace's recorded starts). Default: ordered where the input states an order, ready where it "
                   "does not (a WfFormat machine without recorded starts)")
        ->check(non_empty("choose ready or ordered; leave --dispatch out for the input's rule"))->group(group);
    app.add_option("--platform", platform,
                   "With a DOT --graph: a SimGrid platform file (4.1; a Full zone of hosts, links and routes, or a "
                   "cluster; docs/platform.md). Vertices name their host= (or processor= by index), their law is "
                   "work in flops; edges give bytes=; messages pay the route's latency, then share its links")
        ->check(non_empty("give a platform file; leave --platform out for none"))->group(group);
    app.add_option("--sharing", sharing,
                   "With --platform: how links share their bandwidth: rtt (the default: SimGrid's CM02, weighted "
                   "max-min, a message's weight its route's latency) | max-min (equal weights) | none (each message "
                   "alone at its route's bottleneck)")
        ->check(non_empty("choose rtt, max-min or none; leave --sharing out for rtt"))->group(group);
    app.add_flag("--overlap", model.overlap,
                 "With --graph --port one-port or one-port-greedy: a processor computes while it communicates "
                 "(Wilson's do not)")
        ->group(group);
  }
  if (offer.protocol)
    app.add_option("--protocol", protocol,
                 "Communication protocol (default: the first, the reading that best fits the paper); sync: " +
                     listed(engine::synchronous_protocol_names()) + "; nn: " + listed(engine::neighbor_protocol_names()) +
                     "; ms: " + listed(engine::master_slave_protocol_names()))
      ->group(group);
  std::vector<std::string> policies;
  for (const auto& p : engine::master_slave_policies()) policies.push_back(p.name);
  if (offer.policy)
    app.add_option("--policy", policy, "Master-slave dealing (default: the first): " + listed(policies))->group(group);
  if (offer.slowdown) {
    app.add_option("--slowdown", slowdown,
                   "Correlated slowdowns: each replication draws one factor per processor from this law (a law >= 0, "
                   "e.g. u(1,2) or c(2)), or from its own law of a list of one per processor (c(1),mix(0.9:c(1),0.1:c(2))), "
                   "and multiplies all that processor's task times by it; independent across "
                   "processors. No closed form, bound, analytic estimate or estimator but mc applies")
        ->check(non_empty("give a law such as u(1,2); leave --slowdown out for independent times"))->group(group);
    app.add_option("--machine-slowdown", machine_slowdown,
                   "Correlated slowdowns: each replication draws one factor for the whole machine from this law and "
                   "multiplies every task time by it (with --slowdown too: the product of the two factors)")
        ->check(non_empty("give a law such as u(1,2); leave --machine-slowdown out for independent times"))->group(group);
  }
  app.add_option("--exchange", exchange, "Nearest-neighbour rule: sequential (Wilson's tables) | plain (max of neighbours)")
      ->capture_default_str()->group(group);
  app.add_flag("--no-memory-check{false}", model.memory_check,
               "Build the model even when its estimated memory exceeds what the machine has available")
      ->group(group);
}

engine::Model ModelOptions::resolved() const {
  const auto given = [&](const char* flag) {
    const auto* option = app_ ? app_->get_option_no_throw(flag) : nullptr;
    return option && option->count() > 0;
  };
  // The options given, as the library's parameters' texts: engine::parse_model parses and checks
  // them as it does the Python module's and the sweep's (its errors name the parameters, which
  // cli/parameters.cpp spells as flags). CLI11 has read the numbers by their types already.
  engine::ModelTexts t;
  t.fixed_structure = fixed_structure_;
  t.protocols = protocols_;
  const auto put = [&](const char* flag, const char* parameter, const std::string& text) {
    if (given(flag)) t.set(parameter, text);
  };
  const auto number = [](double x) { return distributions::format_exact(x); };
  put("--structure", "structure", structure);
  put("--graph", "graph", model.graph);
  put("--task-law", "task_law", task_law);
  put("--task-cv", "task_cv", number(model.task_graph.law.cv));
  put("--mapping", "mapping", model.task_graph.mapping);
  put("--bandwidth", "bandwidth", number(model.task_graph.bandwidth.value_or(0.0)));
  if (!schedule.empty()) t.set("schedule", schedule);  // --schedule, or the schedule command's --algorithm
  put("--sd-weight", "sd_weight", number(sd_weight));
  put("--n", "width", std::to_string(model.width));
  put("--m", "fast_count", std::to_string(model.fast_count));
  put("--a", "scale", scale);
  put("--law", "law", law);
  put("--fast-law", "fast_law", fast_law);
  put("--levels", "levels", std::to_string(model.levels));
  put("--comm", "comm_cost", comm);
  put("--scales", "processor_scale", scales);
  put("--cores", "processor_cores", cores);
  put("--port", "port", port);
  put("--overlap", "overlap", model.overlap ? "true" : "false");
  put("--dispatch", "dispatch", dispatch);
  put("--platform", "platform", platform);
  put("--sharing", "sharing", sharing);
  put("--protocol", "protocol", protocol);
  put("--policy", "policy", policy);
  put("--exchange", "exchange", exchange);
  put("--slowdown", "slowdown", slowdown);
  put("--machine-slowdown", "machine_slowdown", machine_slowdown);
  t.set("memory_check", model.memory_check ? "true" : "false");  // --no-memory-check{false} sets it
  return engine::parse_model(t);
}

}  // namespace hetstruct::cli
