// Static list schedules of a DAG on a heterogeneous machine, computed from mean times: which
// processor runs each task, in which order, and when, if every time were its mean.
//
// HEFT and CPOP as Topcuoglu, Hariri and Wu define them ("Performance-effective and low-complexity
// task scheduling for heterogeneous computing", IEEE TPDS 13(3), 2002), and heft-sd, HEFT on each
// time's mean plus k standard deviations (the idea of SHEFT: Tang et al., "A stochastic scheduling
// algorithm for precedence constrained tasks on Grid", FGCS 27(8), 2011). docs/schedule.md states
// the rules and their ties.
//
// The model layer only: a schedule becomes a mapping (a processor and an order per task) that
// every graph reader applies as it applies a mapping file; the engine never sees a schedule.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hetstruct::structures {

struct CustomDag;

enum class ScheduleAlgorithm { heft, cpop, heft_sd };

// heft, cpop, heft-sd (InputError naming `schedule` otherwise).
ScheduleAlgorithm parse_schedule_algorithm(const std::string& name);
const char* to_string(ScheduleAlgorithm algorithm);

// What a schedule is computed from, beside the graph.
struct ScheduleOptions {
  ScheduleAlgorithm algorithm = ScheduleAlgorithm::heft;
  // heft-sd: each time counts as its mean plus sd_weight standard deviations (finite, >= 0).
  double sd_weight = 1.0;
  // The message time of an edge without its own (the model's communication cost C).
  double comm_cost = 0.0;
  // The machine of related processors: processor p takes scales[p] times its tasks' laws. Empty:
  // the graph's own machine (its costs' processors, else its processor_scale, else the processors
  // its tasks name).
  std::vector<double> scales;
};

// The deterministic problem a list scheduler sees: the time of each task on each processor and the
// time of each edge's message between two processors (zero on one processor).
struct SchedulingProblem {
  std::size_t processors = 0;
  std::vector<std::vector<double>> cost;  // cost[task][processor]
  struct Edge {
    std::size_t from = 0, to = 0;
    double comm = 0.0;
  };
  std::vector<Edge> edges;  // in the file's order
};

// A schedule: each task's processor, start and finish, and each processor's tasks in the order
// they run.
struct Schedule {
  ScheduleAlgorithm algorithm = ScheduleAlgorithm::heft;
  struct Slot {
    int processor = -1;
    double start = 0.0, finish = 0.0;
  };
  std::vector<Slot> tasks;                       // in the DAG's task order
  std::vector<std::vector<std::size_t>> order;   // order[p]: processor p's tasks, first first
  double makespan = 0.0;                         // the latest finish
  std::vector<double> upward_rank;               // rank_u of each task, as the algorithm computed it
  std::vector<bool> critical;                    // CPOP: the tasks of its critical path (empty otherwise)
};

// The problem of a reader's DAG: times are the laws' means (heft-sd: mean + k sd), a processor's
// scale times the task's law on related processors, the costs' entry on unrelated ones. InputError
// at `source` for a DAG without a machine, a scale list of the wrong length, processors of several
// cores, or a time that is not finite.
SchedulingProblem scheduling_problem(const CustomDag& dag, const ScheduleOptions& options, const std::string& source);

// Upward ranks: mean time over the processors plus the largest (mean message + rank) of the
// successors. Downward ranks: the largest (rank + mean time + mean message) of the predecessors.
std::vector<double> upward_ranks(const SchedulingProblem& problem);
std::vector<double> downward_ranks(const SchedulingProblem& problem);

// HEFT: tasks by decreasing upward rank, each on the processor where it finishes first, placed in
// the first idle interval long enough (insertion).
Schedule heft(const SchedulingProblem& problem);
// CPOP: tasks by decreasing upward + downward rank; the tasks of the critical path on the one
// processor that runs them fastest in all, the others where they finish first (insertion).
Schedule cpop(const SchedulingProblem& problem);
// The algorithm the options name on the problem they give (heft-sd is heft on its problem).
Schedule schedule(const SchedulingProblem& problem, ScheduleAlgorithm algorithm);

// The schedule's processors and orders run as soon as possible on `problem`'s times: each task
// starts when its processor's previous task has finished and its messages have arrived (what the
// simulator does at constant times). A HEFT or CPOP schedule replayed on its own problem gives its
// own times: insertion leaves no task a gap it could have started in earlier.
Schedule replay(const Schedule& schedule, const SchedulingProblem& problem);

// Computes the schedule of `options` on the DAG: on mean + k sd for heft-sd, then its times
// replayed at the mean times (every algorithm's times are the means').
Schedule schedule_dag(const CustomDag& dag, const ScheduleOptions& options, const std::string& source);

// Gives every task of the DAG its processor and, as its order, its place on that processor.
void apply_schedule(const Schedule& schedule, CustomDag& dag);

// The schedule as a mapping file (structures/custom.h): one `task processor` line per task, by
// start time, so that each processor's lines are in its order. InputError for a task name a
// mapping file cannot hold (empty, or with a blank or '#').
std::string mapping_text(const Schedule& schedule, const std::vector<std::string>& names);

}  // namespace hetstruct::structures
