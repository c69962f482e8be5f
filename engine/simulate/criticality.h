// Criticality and slack of each task (the criticality parameter): plain Monte Carlo over the
// replications of a DAG plan, each replication's schedule recomputed with every task's start and
// finish.
//
// Rules (docs/criticality.md, "Criticality and slack"). In a replication, with the task and message
// times evaluate() draws (draw_dag_times: the same bits, slowdowns included), trace_dag
// (engine/kernel/plan.h) runs the plan's own evaluation (its port model, its cores) and records
// every start with its binders, the constraints whose time equals it:
//  - free port, one core a processor: start(v) = max over v's predecessors u of finish(u) + c(u,v)
//    (c = 0 on an edge without a message; sources at 0), finish(v) = start(v) + d(v). A
//    processor's order is a chain of precedences.
//  - several cores: also the start of the task the processor starts before v, and the finishes of
//    the tasks that last held the cores v takes; one-port models: also the item (task or message)
//    that last set the free time of a port or compute unit v (or a message) waits for.
//  - Critical tasks: every sink whose finish equals the makespan, then, backwards along binders,
//    every task whose finish binds a critical start or a message's start on the chain (a message
//    is bound by its sender's finish and its ports). A task reached only through its start (the
//    start order of several cores) is not critical itself; the chain goes on through what bound
//    its start. The comparisons are exact: a start is the max of exactly those times. So ties
//    count: a task on ANY chain that attains the makespan is critical, and criticalities may sum
//    to more than a path's length.
//  - Latest finish (free port, one core a processor only): LF(v) = min(makespan if v is a sink, min
//    over successors w of LF(w) - d(w) - c(v,w)); slack(v) = LF(v) - finish(v) >= 0 up to the
//    rounding of these subtractions, 0 exactly for a critical task. Under the one-port models and
//    on processors of several cores there is no slack: delaying a task there can change the order
//    in which ports and cores serve the others, so no backward pass through the realized
//    precedences says how long a task can wait without delaying the makespan.
// A task's criticality is the fraction of replications in which it is critical, with its binomial
// standard error sqrt(p (1 - p) / reps); its slack is the mean over the replications, with its
// standard error. Replications are folded per block and the blocks in block order (engine/driver/blocks.h):
// the same bits on any number of threads.
//
// Plans: a custom DAG under every port model and on processors of any cores, and Wilson's async,
// sync and nn at zero communication through their generic DAG plans (the same draws as their own
// plans). Refused (InputError): master-slave (its tasks are dealt at run time: no fixed graph) and
// the communication protocols (their messages run inside the protocol, which records no binders).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/driver/monte_carlo.h"
#include "engine/kernel/plan.h"
#include "engine/simulate/record.h"
#include "engine/driver/statistics.h"
#include "structures/structure.h"

namespace hetstruct::engine {

// The plan criticality runs on: `plan` itself for a custom DAG (checked), or the generic plan of
// Wilson's structure compiled with `options` (the same slowdowns). InputError (naming criticality)
// where the rules above do not apply.
Plan criticality_plan(const structures::Structure& s, const Plan& plan, const CompileOptions& options);

// A task's name in a record: its vertex's name in the file; for Wilson's structures p<i>_l<k>,
// processor i's task of level k (both from 0).
std::string task_name(const structures::Structure& s, const Plan& plan, std::uint32_t position);

// Whether the plan's tasks have a slack (the free port model on processors of one core), and why
// not where they have none (the reason above, for the reports).
bool has_slack(const Plan& plan);
inline constexpr const char* no_slack_reason =
    "under a one-port model, on processors of several cores or under ready dispatch, delaying a task can change the "
    "order in which ports and cores serve the others, so no backward pass says how long it can wait";

// One replication's schedule (plan order): trace_dag's starts, finishes and binders.
struct ReplicationSchedule {
  DagTrace trace;
  std::vector<double> latest_finish;  // empty without slack (has_slack)
  std::vector<std::uint8_t> critical;
  double makespan = 0.0;
  // The walk's buffers: tasks whose binders were followed, messages seen, binders to follow.
  std::vector<std::uint8_t> expanded, message_seen;
  std::vector<DagTrace::Binder> stack;
  // A critical task's slack is 0 exactly; another's its latest finish less its finish.
  double slack(std::size_t t) const { return critical[t] ? 0.0 : latest_finish[t] - trace.finish[t]; }
};
// Fills `out` for replication `replication` (buffers resized once, then reused).
void schedule_replication(const Plan& plan, std::uint64_t seed, std::uint64_t replication, Workspace& ws,
                          ReplicationSchedule& out);

struct TaskCriticality {
  std::string task;
  std::uint32_t position = 0;  // in plan order
  std::uint64_t critical = 0;  // replications in which it was critical
  double criticality = 0.0, criticality_stderr = 0.0;
  // Wilson's score interval at 95% for the fraction (it stays within [0, 1] and is not empty at 0 or 1).
  double criticality_ci_low = 0.0, criticality_ci_high = 0.0;
  Estimate slack;
};

struct CriticalityRun {
  std::vector<TaskCriticality> tasks;  // compute tasks, in the structure's vertex order (the file's)
  Estimate makespan;                   // the same replications' makespan (evaluate()'s bits)
  bool slack = true;                   // has_slack: without, every task's slack is empty
};

// Every replication of options (seed, reps, threads, progress) on `plan` (criticality_plan's).
CriticalityRun run_criticality(const structures::Structure& s, const Plan& plan, const RunOptions& options);

// One record per task, in the run's order: task, criticality, criticality_stderr,
// criticality_ci_low, criticality_ci_high, slack,
// slack_stderr (none without slack), critical (the count of replications), reps, seed.
std::vector<Record> criticality_records(const CriticalityRun& run, std::uint64_t seed);

}  // namespace hetstruct::engine
