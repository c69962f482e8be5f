// A structure compiled once into flat arrays, evaluated many times.
//
// Regular structures get a specialised plan (a loop nest with no graph in it); any DAG, and any
// regular structure on request, gets the generic plan: tasks in topological order with CSR
// predecessor lists. Evaluating a replication allocates nothing: buffers live in a Workspace.
//
// Semantics (wilson-semantics.md): a task starts at the max of its predecessors' finish times
// (sources at 0), never clipped at 0; the makespan is the max over the sinks (the last tasks).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "distributions/sampler.h"
#include "engine/communication.h"
#include "engine/streams.h"
#include "structures/structure.h"

namespace hetstruct::engine {

enum class PlanKind {
  asynchronous,         // max over processors of the sum of its task times
  synchronous,          // sum over levels of the max of the level's task times
  neighbor_sequential,  // task k+1 on processor i starts at max(f_0..f_{i+1})
  neighbor_plain,       // task k+1 on processor i starts at max(f_{i-1}, f_i, f_{i+1})
  task_pool,            // width*levels tasks, each dealt to the earliest idle processor
  dag,                  // generic longest path in topological order
  protocol,             // a communication protocol (engine/communication.h) runs each replication
};

const char* to_string(PlanKind kind);

class Plan {
 public:
  PlanKind kind = PlanKind::dag;
  int width = 0;   // processors (streams)
  int levels = 0;
  std::vector<distributions::Sampler> samplers;  // regular plans: one per processor
  std::vector<distributions::Law> laws;          // laws[k] is what samplers[k] draws (for analytic estimates)

  // When every processor's law is one uniform (or one normal) leaf, the regular plans run a loop
  // instantiated for that leaf: the same draws as `samplers`, without a dispatch per draw.
  std::vector<distributions::UniformDraw> uniform_draws;
  std::vector<distributions::NormalDraw> normal_draws;

  // Generic plan: tasks in topological order. task_sampler is -1 for zero-time vertices.
  std::vector<int> task_sampler;
  std::vector<int> task_processor;
  std::vector<std::uint32_t> pred_begin;  // predecessors of task t: preds[pred_begin[t] .. pred_begin[t+1])
  std::vector<std::uint32_t> preds;
  std::vector<std::uint32_t> sinks;

  // Protocol plans: which protocol of which structure, and what it knows of the structure.
  std::string structure;
  std::string protocol;
  CommSetup comm;

  // Tasks with a random time per replication (the unit of "ns per task").
  std::uint64_t compute_tasks() const;
};

struct CompileOptions {
  bool generic = false;    // compile a regular structure to the generic DAG plan too (for tests)
  double comm_cost = 0.0;  // C: with C > 0, sync, nn and ms run a communication protocol
  std::string protocol;    // a protocol by name (engine/communication.h); empty: the default
  std::string policy;      // master-slave dealing policy; empty: dynamic
};

// Throws InputError where a structure cannot be compiled as asked (a task pool has no fixed DAG).
Plan compile(const structures::Structure& structure, CompileOptions options = {});

// A processor's draw that also adds its value to the processor's busy time.
struct BusyDraw {
  const distributions::Sampler* draw;
  double* busy;
  template <class Engine>
  double operator()(Engine& eng) const {
    const double x = (*draw)(eng);
    *busy += x;
    return x;
  }
};

// Per-thread buffers sized once for a plan.
class Workspace {
 public:
  explicit Workspace(const Plan& plan);
  std::vector<ProcessorStream> streams;
  std::vector<double> first, second;  // finish and start times, or idle times
  std::vector<int> processors;        // the task pool's heap of idle processors
  std::unique_ptr<Protocol> protocol; // protocol plans: the protocol with its own buffers
  ProcessorStream protocol_stream;
  std::vector<double> busy;            // evaluate_busy: each processor's total task time
  std::vector<BusyDraw> busy_draws;    // evaluate_busy on regular plans
  std::vector<std::uint64_t> counts;   // evaluate_controls: task times drawn per processor
};

// Control variates of a replication (engine/estimators.h): statistics of its own task times whose
// expectations are known exactly (bounds/control_means.h), so that regression on them removes
// variance without bias.
struct ControlSpec {
  // Processor i's sum of the first sum_counts[i] variates of its task-time stream (empty: none).
  std::vector<std::uint64_t> sum_counts;
  // The sum over the plan's levels of the level's largest task time (each processor's k-th
  // variate is its task of level k): the synchronous zero-communication makespan.
  bool level_max = false;
  std::size_t size() const { return sum_counts.size() + (level_max ? 1 : 0); }
};

// The controls a plan supports: every processor's sum over its `levels` tasks, and the sum of
// level maxima for the plans whose tasks come in levels; for the task pool (whose processors run
// a random number of tasks) sums of the first shares[i] variates instead (`shares`: one count per
// processor, from the caller, who knows the laws). A DAG: each processor's busy time.
ControlSpec control_spec(const Plan& plan, const std::vector<std::uint64_t>& shares = {});

// The same replication as evaluate() (the same bits of the makespan), also writing spec.size()
// controls to `controls`: the sums first (processor order), then the level-maximum sum. Computed
// in the evaluator's own loop for the zero-communication plans; for protocol plans the streams are
// drawn again after the run (the protocol's code is untouched, and its draws are the same ones).
double evaluate_controls(const Plan& plan, const ControlSpec& spec, std::uint64_t seed, std::uint64_t replication,
                         Workspace& ws, double* controls);

// The makespan of replication `replication` under `seed`.
double evaluate(const Plan& plan, std::uint64_t seed, std::uint64_t replication, Workspace& ws);

// The same replication as evaluate() (the same bits), also adding up each processor's task times
// into ws.busy (its active computing time, Zhang and Yan's T_j^act). Slower: for the measures only.
double evaluate_busy(const Plan& plan, std::uint64_t seed, std::uint64_t replication, Workspace& ws);

// Generic plan with given task times (indexed in topological order; zero-time tasks ignored):
// the longest path. For tests against Boost.Graph.
double longest_path(const Plan& plan, std::span<const double> durations, std::span<double> finish);

}  // namespace hetstruct::engine
