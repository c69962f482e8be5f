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

// The schedulers of the registry (structures/schedule_registry.h: names, summaries, functions).
enum class ScheduleAlgorithm { heft, cpop, heft_sd, peft, etf, min_min, max_min, sufferage, mct, met, olb };

// A name of the registry (InputError naming `schedule` otherwise, listing the names), and back.
ScheduleAlgorithm parse_schedule_algorithm(const std::string& name);
const char* to_string(ScheduleAlgorithm algorithm);
// The registry's names in its order, joined by `separator`, the last two by `last` ("heft, cpop
// or olb"; with last = separator, "heft|cpop|olb").
std::string schedule_names(const std::string& separator = ", ", const std::string& last = " or ");

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
  // The cores of the machine's processors (processor_cores, --cores): one count for every
  // processor, or one per processor. Empty: the graph's own (its processor_cores; 1 where it gives
  // none).
  std::vector<int> cores;
  bool operator==(const ScheduleOptions&) const = default;
};

// The deterministic problem a list scheduler sees: the time of each task on each processor, the
// time of each edge's message between two processors (zero on one processor), each processor's
// cores and the cores each task holds while it runs.
struct SchedulingProblem {
  std::size_t processors = 0;
  std::vector<std::vector<double>> cost;  // cost[task][processor]
  std::vector<int> cores;                 // cores[processor]; empty: 1 each
  std::vector<int> task_cores;            // task_cores[task]; empty: 1 each
  int cores_of(std::size_t processor) const { return cores.empty() ? 1 : cores[processor]; }
  int cores_of_task(std::size_t task) const { return task_cores.empty() ? 1 : task_cores[task]; }
  struct Edge {
    std::size_t from = 0, to = 0;
    double comm = 0.0;
  };
  std::vector<Edge> edges;  // in the file's order
};

// A schedule: each task's processor, start, finish and core, and each processor's tasks in the
// order they start.
struct Schedule {
  ScheduleAlgorithm algorithm = ScheduleAlgorithm::heft;
  struct Slot {
    int processor = -1;
    double start = 0.0, finish = 0.0;
    // The lowest index of the cores it holds: each processor's cores taken as the simulator takes
    // them (docs/schedule.md, "Processors of several cores"); 0 on a processor of one core.
    int core = 0;
  };
  std::vector<Slot> tasks;                       // in the DAG's task order
  std::vector<std::vector<std::size_t>> order;   // order[p]: processor p's tasks, first first
  std::vector<int> processor_cores;              // the cores of each processor (1 each without cores)
  double makespan = 0.0;                         // the latest finish
  std::vector<double> upward_rank;               // rank_u of each task, as the algorithm computed it
  std::vector<bool> critical;                    // CPOP: the tasks of its critical path (empty otherwise)

  // Whether some processor has several cores (the records and the chart then show each task's core).
  bool multicore() const;
};

// The problem of a reader's DAG: times are the laws' means (heft-sd: mean + k sd), a processor's
// scale times the task's law on related processors, the costs' entry on unrelated ones; the cores
// are the options', else the DAG's (1 beyond its list). InputError at `source` for a DAG without a
// machine, a scale or core list of the wrong length, a core count outside [1, max_cores], a task
// that takes more cores than every processor has, or a time that is not finite.
SchedulingProblem scheduling_problem(const CustomDag& dag, const ScheduleOptions& options, const std::string& source);

// Upward ranks: mean time over the processors plus the largest (mean message + rank) of the
// successors. Downward ranks: the largest (rank + mean time + mean message) of the predecessors.
std::vector<double> upward_ranks(const SchedulingProblem& problem);
std::vector<double> downward_ranks(const SchedulingProblem& problem);

// HEFT: tasks by decreasing upward rank, each on the processor where it finishes first, placed in
// the first idle interval long enough (insertion; on a processor of several cores, the earliest
// start at which its cores are free throughout without delaying a task placed before it, as the
// simulator runs the processor's order: docs/schedule.md).
Schedule heft(const SchedulingProblem& problem);
// CPOP: tasks by decreasing upward + downward rank; the tasks of the critical path on the one
// processor that runs them fastest in all, the others where they finish first (insertion).
Schedule cpop(const SchedulingProblem& problem);
// PEFT (Arabnejad and Barbosa, "List scheduling algorithm for heterogeneous systems by an optimistic
// cost table", IEEE TPDS 25(3), 2014): tasks by decreasing rank_oct (the mean of their row of the
// optimistic cost table), each on the processor of least insertion finish + OCT (docs/schedule.md).
Schedule peft(const SchedulingProblem& problem);
// The optimistic cost table OCT[task][processor] of PEFT.
std::vector<std::vector<double>> optimistic_cost_table(const SchedulingProblem& problem);
// The algorithm the options name on the problem they give, by the registry (heft-sd is heft on its
// problem).
Schedule schedule(const SchedulingProblem& problem, ScheduleAlgorithm algorithm);

// The schedule's processors and orders run as soon as possible on `problem`'s times, by the
// simulator's rule of ordered dispatch (what it does at constant times): each task starts at the
// latest of its messages' arrival, the start of its processor's previous task and the c-th
// earliest free time of the processor's cores (c: its cores), and holds the c cores that free
// earliest (equal free times: the lowest index) until it finishes; with one core, when the
// previous task has finished. A HEFT or CPOP schedule replayed on its own problem gives its own
// times and cores: insertion leaves no task a start it could have had earlier in its order.
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
