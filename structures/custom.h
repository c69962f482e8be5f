// A user's own DAG, as every graph reader (DOT, STG, WfFormat) states it, and the one builder that
// turns it into a Structure: it chains the tasks of each processor in the user's order, checks that
// order against the precedences, and computes the levels.
//
// The order rule: tasks on one processor run in increasing `order` when the reader gives one (an
// explicit attribute, a mapping file's line), else in the order the file lists them. It is never
// the order of the names, and never changed to fit the precedences: an order that contradicts a
// precedence (a cycle through a processor's chain) is an error naming the tasks of the cycle.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "distributions/law.h"
#include "structures/structure.h"

namespace hetstruct::structures {

// Each processor index owns a random stream in every replication: a typo such as 999999 would make
// every replication reset a million streams, so indices stop well before that.
inline constexpr long max_processor = 65535;
// Processors a reader makes itself, not read as indices: one per task (an STG file's, WfFormat
// tasks that name no machine, one_per_task), or one per machine a trace names. As many as the file
// holds, never a typo: only what an int indexes bounds them (the memory check bounds the file).
inline constexpr long max_made_processors = 2147483646;
// Cores per processor or task, in every reader and option: machines of the traces have up to a
// few hundred; more than this is a typo, not a machine.
inline constexpr int max_cores = 65536;

struct CustomTask {
  std::string name;
  int processor = 0;
  int law = -1;                     // index into CustomDag::laws
  std::optional<double> order;      // explicit place on its processor (smaller first)
  int cores = 1;                    // the cores of its processor it takes while it runs (>= 1)
  std::string host;                 // a platform host's id (DOT host=; apply_platform sets `processor`)
  // Unrelated processors: costs[p] is the index in CustomDag::laws of its time on processor p, and
  // `law` is the entry of its processor, resolved by build_custom once the processor is known (a
  // file's processor, a mapping, a schedule). Empty: `law` on any processor, times its scale.
  std::vector<int> costs;
};

struct CustomEdge {
  std::size_t from = 0, to = 0;     // indices into CustomDag::tasks
  int comm_law = -1;                // index into CustomDag::laws; -1: the model's communication cost
  bool bytes = false;               // comm_law gives the message's bytes (DOT bytes=, under a platform)
};

struct CustomDag {
  std::vector<CustomTask> tasks;    // in the file's order
  std::vector<CustomEdge> edges;    // in the file's order (a one-port model breaks ties by it)
  std::vector<distributions::Law> laws;
  std::vector<double> processor_scale;  // empty: every processor 1
  // Cores per processor: up to that many of its tasks run at once, each taking its `cores`
  // (empty: every processor has 1 core, Wilson's processors).
  std::vector<int> processor_cores;
  // A trace's makespan as it was recorded on the real machine (none: not a trace, or not recorded).
  std::optional<double> recorded_makespan;
  // What the reader decided that the user should know (Structure::notes).
  std::vector<std::string> notes;
  // The processors of a schedule's machine (0: those the tasks use): the last ones may stay idle.
  int machine_width = 0;
  // Dispatch (Structure::dispatch). `dispatch` is the user's choice for every processor; without
  // one, a processor is ordered when its tasks have an `order` or the listing is an order (a DOT or
  // STG file's), and ready otherwise (a trace's machine without recorded starts), `unordered`
  // saying why for the front ends.
  std::optional<Dispatch> dispatch;
  bool listing_is_order = true;
  std::string unordered;

  // The index of `law` in `laws`, added if new: identical laws share one index.
  int law_index(const distributions::Law& law);

 private:
  std::map<std::string, int> law_by_text_;
};

// Kahn's algorithm, the smallest task index (the one the file lists first) among the ready ones
// first: the topological order closest to the file's. Shorter than n when the arcs close a cycle.
std::vector<std::size_t> file_topological_order(std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& arcs);
// InputError at `source` naming the tasks of a cycle ('x' -> 'y' -> 'x') when the arcs (task
// indices) close one.
void check_acyclic(const CustomDag& dag, const std::vector<std::pair<std::size_t, std::size_t>>& arcs, const std::string& source);

// Builds the custom structure: vertices in task order, the file's edges in their order, then one
// chain edge between consecutive tasks of each ordered processor (unless a file edge already links
// them); a processor of ready dispatch has no chain (its order is made as it runs).
// Throws InputError, `source` first, for a cycle (naming its tasks, and the processors whose order
// closes it), an edge given twice, two tasks with the same order on one processor, a processor with
// some tasks ordered and others not, a processor index out of range, a bad processor scale. Tasks
// with costs take the law of their processor's entry (a task without a processor, or one beyond its
// costs, is an InputError), and the machine has as many processors as the costs.
Structure build_custom(const CustomDag& dag, const std::string& source);

// Gives a built custom structure's processors these cores (one per processor: processor_cores), the chain
// of each processor of several cores becoming a start order. InputError at `where` for a count
// outside [1, max_cores], a list of another length than the processors, or a task that takes more
// cores than its processor then has.
void set_processor_cores(Structure& s, std::vector<int> cores, const std::string& where);

// A whole number's digits: the text itself, or without a fraction of zeros ("2.0", "2." and "2.00"
// are 2), so that a count written as a float reads as the count it states.
std::string whole_digits(const std::string& text);

// A processor index as text: a non-negative integer up to max_processor (InputError at `where`),
// a fraction of zeros allowed (1.0).
int parse_processor(const std::string& where, const std::string& text);

// A mapping file: one `task processor` pair a line; blank lines and text after '#' are ignored.
// The line order is the order on each processor. Throws InputError naming file:line for a bad line
// or a task given twice.
struct Mapping {
  struct Entry {
    int processor = 0;
    std::size_t line = 0;  // its place in the file: the task's order on its processor
  };
  std::map<std::string, Entry> task;
  std::string source;
};
Mapping read_mapping(const std::string& path);
Mapping parse_mapping(const std::string& text, const std::string& source);

// Applies a mapping to tasks named as in the graph file: each task gets its processor and, as its
// order, its line. Every task must be mapped and every mapped name must be a task, or one of
// `dropped` (a reader's dummy tasks, which a mapping may name or not) (InputError).
void apply_mapping(const Mapping& mapping, CustomDag& dag, const std::vector<std::string>& dropped = {});

// A DOT file's DAG as its reader states it, before build_custom (structures/dot.cpp; parse_dot
// builds it).
CustomDag parse_dot_dag(const std::string& text, const std::string& source);

// Reads a whole file (InputError for a directory or an unreadable file).
std::string read_text_file(const std::string& path, const std::string& what);

}  // namespace hetstruct::structures
