// Criticality and slack of each task (simulate --criticality): plain Monte Carlo over the
// replications of a DAG plan, each replication's schedule recomputed with every task's start and
// finish.
//
// Rules (docs/simulate.md, "Criticality and slack"). In a replication, with the task and message
// times evaluate() draws (draw_dag_times: the same bits, slowdowns included):
//  - start(v) = max over v's predecessors u of finish(u) + c(u,v) (c = 0 on an edge without a
//    message; sources at 0), finish(v) = start(v) + d(v): the free port model's longest path,
//    computed as evaluate() computes it, so its makespan (the max over the sinks) is the same bits.
//    Precedences include each processor's order (a processor of one core chains its tasks).
//  - Critical tasks: every sink whose finish equals the makespan, then, backwards, every
//    predecessor u of a critical task v with finish(u) + c(u,v) == start(v). The comparisons are
//    exact: start(v) is the max of exactly those values. So ties count: a task on ANY path that
//    attains the makespan is critical, and two tasks can both be (criticalities sum to more than
//    a path's length).
//  - Latest finish: LF(v) = min(makespan if v is a sink, min over successors w of
//    LF(w) - d(w) - c(v,w)); slack(v) = LF(v) - finish(v) >= 0 up to the rounding of these
//    subtractions, and 0 exactly for a critical task (on a longest path by the rule above).
// A task's criticality is the fraction of replications in which it is critical, with its binomial
// standard error sqrt(p (1 - p) / reps); its slack is the mean over the replications, with its
// standard error. Replications are folded per block and the blocks in block order (engine/driver/blocks.h):
// the same bits on any number of threads.
//
// Plans: a custom DAG with the free port model on processors of one core, and Wilson's async,
// sync and nn at zero communication through their generic DAG plans (the same draws as their own
// plans). Refused (InputError): the one-port models and processors of several cores (a task's start
// there also waits for ports and cores, an order these rules do not follow), master-slave (its
// tasks are dealt at run time: no fixed graph) and the communication protocols (they do not expose
// each task's start and finish).
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

// One replication's schedule (plan order), from draw_dag_times' times in ws.
struct ReplicationSchedule {
  std::vector<double> start, finish, latest_finish;
  std::vector<std::uint8_t> critical;
  double makespan = 0.0;
  // A critical task's slack is 0 exactly; another's its latest finish less its finish.
  double slack(std::size_t t) const { return critical[t] ? 0.0 : latest_finish[t] - finish[t]; }
};
// Fills `out` for replication `replication` (buffers resized once, then reused).
void schedule_replication(const Plan& plan, std::uint64_t seed, std::uint64_t replication, Workspace& ws,
                          ReplicationSchedule& out);

struct TaskCriticality {
  std::string task;
  std::uint32_t position = 0;  // in plan order
  std::uint64_t critical = 0;  // replications in which it was critical
  double criticality = 0.0, criticality_stderr = 0.0;
  Estimate slack;
};

struct CriticalityRun {
  std::vector<TaskCriticality> tasks;  // compute tasks, in the structure's vertex order (the file's)
  Estimate makespan;                   // the same replications' makespan (evaluate()'s bits)
};

// Every replication of options (seed, reps, threads, progress) on `plan` (criticality_plan's).
CriticalityRun run_criticality(const structures::Structure& s, const Plan& plan, const RunOptions& options);

// One record per task, in the run's order: task, criticality, criticality_stderr, slack,
// slack_stderr, critical (the count of replications), reps, seed.
std::vector<Record> criticality_records(const CriticalityRun& run, std::uint64_t seed);

}  // namespace hetstruct::engine
