#include "cli/model.h"

#include "cli/options.h"

#include "distributions/input_error.h"
#include "engine/kernel/communication.h"

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
                     "Place a graph's tasks by a static schedule computed from the mean times: heft | cpop | heft-sd "
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
  app.add_option("--a", model.scale, "Scale of the fast processors' law, 0 < a (fractions allowed: 4/5)")
      ->capture_default_str()->group(group);
  app.add_option("--law", model.law, "Task-time law: uniform = u(0,1), normal = n(1/2,1/12), or a law such as "
                                     "\"mix(0.3:u(0,1),0.7:n(0.5,1/12))\", gamma(2,0.25) or emp(times.txt) (see --help)")
      ->capture_default_str()->group(group);
  app.add_option("--fast-law", model.fast_law, "Law of the fast processors (default: a times --law)")->group(group);
  app.add_option("--levels,-p", model.levels, "Tasks per processor (p)")->capture_default_str()->group(group);
  app.add_option("--comm,-C", model.comm,
                 "Communication cost C: time of one message (Wilson Section 5; on a graph, of every edge between "
                 "processors without a comm attribute)")
      ->capture_default_str()->group(group);
  if (offer.graph) {
    app.add_option("--scales", model.processor_scales,
                   "With --graph: each processor's scale, a list 1,1,1/2 (processor j takes s_j times its tasks' "
                   "laws; replaces the file's speeds)")
        ->group(group);
    app.add_option("--cores", model.processor_cores,
                   "With --graph: each processor's cores, a list 4,4,1 or one count for all (up to that many tasks "
                   "run on a processor at once, each taking its cores; replaces the file's)")
        ->group(group);
    app.add_option("--port", port,
                   "With --graph: free (a message only delays its receiver; the default) | one-port (a processor "
                   "sends one message at a time and receives one at a time; a message books both ports when its "
                   "data is ready: blocking sends) | one-port-greedy (the same ports, work-conserving: no processor "
                   "idles while it has a task it can start or a message it can send)")
        ->check(non_empty("choose free, one-port or one-port-greedy; leave --port out for free"))->group(group);
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
    app.add_option("--slowdown", model.slowdown,
                   "Correlated slowdowns: each replication draws one factor per processor from this law (a law >= 0, "
                   "e.g. u(1,2) or c(2)) and multiplies all that processor's task times by it; independent across "
                   "processors. No closed form, bound, analytic estimate or estimator but mc applies")
        ->check(non_empty("give a law such as u(1,2); leave --slowdown out for independent times"))->group(group);
    app.add_option("--machine-slowdown", model.machine_slowdown,
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
  engine::Model m = model;
  m.exchange = engine::parse_exchange(exchange);
  m.task_graph.law.shape = structures::parse_task_law_shape(task_law);
  if (!structure.empty()) m.structure = structures::parse_structure_kind(structure);
  if (fixed_structure_) m.structure = fixed_structure_;
  const auto given = [&](const char* flag) {
    const auto* option = app_ ? app_->get_option_no_throw(flag) : nullptr;
    return option && option->count() > 0;
  };
  if (!m.graph.empty() && m.structure) throw InputError("--graph", "give either a structure or a graph, not both");
  if (!schedule.empty()) {
    structures::ScheduleOptions placed;
    placed.algorithm = structures::parse_schedule_algorithm(schedule);
    placed.sd_weight = sd_weight;
    m.task_graph.schedule = placed;
  }
  if (given("--sd-weight") && (!m.task_graph.schedule || m.task_graph.schedule->algorithm != structures::ScheduleAlgorithm::heft_sd))
    throw InputError("--sd-weight", "applies to the heft-sd schedule only", "leave it out, or choose heft-sd");
  if (!m.graph.empty()) {
    // A graph's processors, laws and levels are its own: these options would do nothing.
    for (const char* flag : {"--n", "--law", "--fast-law", "--levels", "--exchange"})
      if (given(flag))
        throw InputError(flag, "has no effect on a graph",
                         "a graph's width, laws and levels are its file's; give --m, --a, --scales, --comm, --port");
    // The law's shape around each cost needs a spread: without one the times are the costs.
    if (given("--task-law") && m.task_graph.law.shape != structures::TaskLawShape::constant && !(m.task_graph.law.cv > 0.0))
      throw InputError("--task-law", "has no effect without --task-cv: each task takes its cost, constant",
                       "give --task-cv V > 0, the coefficient of variation");
  } else {
    for (const char* flag : {"--scales", "--cores", "--port", "--overlap"})
      if (given(flag)) throw InputError(flag, "applies to a graph only", "give --graph FILE.dot");
    if (!given("--n")) throw InputError("--n", "missing", "give the width: the number of processors");
    // The exchange rule is nn's at C = 0: elsewhere it would do nothing.
    if (given("--exchange")) {
      if (m.structure != structures::StructureKind::nearest_neighbor)
        throw InputError("--exchange", "applies to the nearest-neighbour structure (nn) only", "leave it out, or give -s nn");
      if (protocols_ && m.comm_value() > 0.0)
        throw InputError("--exchange", "applies to nn at C = 0 only: with communication nn runs a protocol",
                         "choose the protocol with --protocol");
    }
  }
  if (!port.empty()) m.port = engine::parse_port(port);
  if (!policy.empty()) m.policy = engine::parse_policy(policy);
  // A protocol is one of its structure's family; a graph's is refused as the library words it.
  if (!protocol.empty() && (m.structure || !m.graph.empty()))
    m.protocol = &engine::find_protocol(m.graph.empty() ? *m.structure : structures::StructureKind::custom, protocol);
  return m;
}

}  // namespace hetstruct::cli
