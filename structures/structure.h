// Algorithmic structures as Boost.Graph precedence graphs (Wilson, Figure 1).
//
// A vertex is a task: the processor that runs it, its level (iteration) and the law of its time.
// Zero-time vertices stand for synchronisation points: a barrier ends a synchronous level; an
// exchange is a nearest-neighbour synchronisation between two processors. An edge is a precedence
// and is marked when it crosses processors (where a real machine would communicate).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "distributions/law.h"
#include "structures/schedule.h"

namespace hetstruct::structures {

struct Platform;  // structures/platform.h

enum class TaskKind {
  compute,   // a task with a random time, run by `processor`
  barrier,   // zero-time: all tasks of a synchronous level have finished
  exchange,  // zero-time: neighbours `processor` and `processor + 1` have synchronised
  pooled,    // a master-slave task: dealt at run time to whichever processor is idle
};

struct Task {
  TaskKind kind = TaskKind::compute;
  int processor = -1;  // -1 for barriers and pooled tasks
  int level = 0;
  int law = -1;        // index into Structure::laws; -1 for zero-time vertices and pooled tasks
  std::string name;    // a custom DAG's task name, as its file gives it (for messages); empty otherwise
  int cores = 1;       // a custom DAG's task: the cores of its processor it takes while it runs
};

struct Precedence {
  bool crosses_processors = false;
  // A custom DAG's message time on this edge: an index into Structure::laws (a constant is c(x)),
  // or -1 for the model's communication cost C. Only an edge that crosses processors carries a
  // message; an edge within one processor costs nothing whatever this says.
  int comm_law = -1;
  // A custom DAG's edge: its position among the file's edges as the reader lists them (a one-port
  // model serves messages ready at the same time in this order); not_a_file_edge for the edges a
  // builder adds (each processor's chain) and for Wilson's structures.
  std::uint32_t file_index = not_a_file_edge;
  static constexpr std::uint32_t not_a_file_edge = UINT32_MAX;
  // The start order of a processor of several cores, not a precedence: the target starts no
  // earlier than the source starts (and when its cores are free), not after the source finishes.
  bool start_order = false;
};

using PrecedenceGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Task, Precedence>;
using Vertex = boost::graph_traits<PrecedenceGraph>::vertex_descriptor;

enum class StructureKind { asynchronous, synchronous, nearest_neighbor, master_slave, custom };

// How a custom DAG's processor takes its tasks (docs/graphs.md, "Dispatch").
enum class Dispatch {
  // In the order the input states (a DOT file's order, a mapping's lines, a schedule, a trace's
  // recorded starts): the processor never lets a later task overtake an earlier one.
  ordered,
  // Work-conserving, first come first served: a task joins its processor's queue when its inputs
  // are in (ties: the file's listing order), and the queue's head starts whenever it fits in the
  // free cores. The rule of HTCondor's slots, Slurm and SimGrid's hosts, where no order is stated.
  ready,
};
const char* to_string(Dispatch dispatch);
// Accepts ready and ordered (InputError naming `dispatch` otherwise).
Dispatch parse_dispatch(const std::string& name);

// How nearest neighbours synchronise after each task (docs/semantics.md).
enum class NeighborExchange {
  // Wilson's tables: each processor exchanges first with its left, then with its right neighbour,
  // each exchange needing both sides ready; task k+1 on processor i starts at max(f_0..f_{i+1}).
  sequential,
  // The plain max-plus recurrence max(f_{i-1}, f_i, f_{i+1}); known not to reproduce the paper.
  plain,
};

// The processors a structure runs on: width n, of which the first fast_count draw from the fast
// law (Wilson's m processors with the scaled law a*X); placement at the low end of the line is
// what reproduces the nearest-neighbour tables.
struct Processors {
  int width = 0;
  int fast_count = 0;
  distributions::Law slow_law = distributions::Law::paper_uniform();
  distributions::Law fast_law = distributions::Law::paper_uniform();

  const distributions::Law& law_of(int processor) const {
    return processor < fast_count ? fast_law : slow_law;
  }
  // Checks width >= 1 and 0 <= fast_count <= width; throws InputError.
  void validate() const;
};

// Wilson's (n, m) processors: n - m draw `law`, m draw `scale` * `law`.
Processors heterogeneous(int width, int fast_count, double scale, const distributions::Law& law);

struct Structure {
  StructureKind kind = StructureKind::custom;
  std::string name;          // "async", "sync", "nn", "ms" or the DOT file's name
  int width = 0;             // processors
  int fast_count = 0;
  int levels = 0;            // tasks per processor (p); for a custom DAG the longest chain
  NeighborExchange exchange = NeighborExchange::sequential;
  std::vector<distributions::Law> laws;  // regular structures: laws[i] is processor i's law
  // A custom DAG's processor speeds as its file gives them: a task on processor j takes
  // processor_scale[j] times a draw of its law (empty: every processor 1).
  std::vector<double> processor_scale;
  // A custom DAG's cores per processor (empty: 1 each). A processor of one core runs its tasks one
  // at a time, chained in the graph; one of several cores starts them in the same order, as many
  // at once as its cores allow (the engine enforces it: no chain edges on such a processor).
  std::vector<int> processor_cores;
  // A custom DAG's dispatch per processor (empty: every processor ordered), and why the rule is what
  // it is, for the front ends to print once (empty when every processor is ordered by its input).
  std::vector<Dispatch> dispatch;
  std::string dispatch_reason;
  bool ready(int processor) const {
    return !dispatch.empty() && dispatch[static_cast<std::size_t>(processor)] == Dispatch::ready;
  }
  // A custom DAG whose tasks give their time on each processor (a DOT vertex's `costs`): unrelated
  // processors, each task's law already its processor's entry. Processor scales do not apply.
  bool unrelated = false;
  // The static schedule that placed the tasks (structures/schedule.h), when one did.
  std::optional<Schedule> schedule;
  // A trace's recorded makespan (none when the file gives none), printed beside the model's.
  std::optional<double> recorded_makespan;
  // The SimGrid platform its processors are the hosts of (processor p is host p; none: no
  // platform): task laws are work in flops, message laws bytes (structures/platform.h).
  std::shared_ptr<const Platform> platform;
  // What a reader decided that the model's user should know (the front ends print each once).
  std::vector<std::string> notes;

  // The precedence graph. A regular structure is fully described by the fields above, so its
  // graph is built on first use only: the engine's loop plans never need it, and 10^6 levels on
  // 16 processors make a graph of several GB. The first call is not thread-safe.
  const PrecedenceGraph& graph() const;
  // A custom DAG's graph, filled in by its reader (its own copy first when copies share it).
  PrecedenceGraph& custom_graph();
  bool graph_built() const { return graph_ != nullptr; }

 private:
  // Shared by copies; a regular structure rebuilds its own when its description has changed since.
  mutable std::shared_ptr<PrecedenceGraph> graph_;
  mutable std::array<int, 3> built_for_{};  // width, levels, exchange
};

// The graph of a regular structure from its description (what Structure::graph() builds).
PrecedenceGraph regular_graph(const Structure& s);

// Wilson's Figure 1 structures. `levels` is p, the number of tasks per processor.
Structure asynchronous(const Processors& procs, int levels);
Structure synchronous(const Processors& procs, int levels);
Structure nearest_neighbor(const Processors& procs, int levels,
                           NeighborExchange exchange = NeighborExchange::sequential);
// The task pool: width * levels tasks dealt to whichever processor is idle; processor 0 deals.
// Width 1 is a pool of one processor that runs every task (no slave: no Eq. 13 bound).
Structure master_slave(const Processors& procs, int levels);

// Any DAG from a Graphviz DOT file. Vertex attributes: `processor` (0-based integer), `law` (law
// syntax) and optionally `order` (a number: its place on its processor). Edge attribute `comm`: the
// message's time when the edge crosses processors (a number or a law; none: the model's C). Graph
// attribute `processor_scale="1,1,1/2"`: processor j's tasks take scale[j] times a draw of their law.
// A processor runs its tasks one at a time in increasing `order`, else in the order the file first
// names them (never the names' order); see structures/custom.h for the rule and its errors.
// Throws InputError for a syntax error, a cycle, an order against a precedence, an unknown law, a
// missing attribute, or an attribute that looks like a slip for one of these.
Structure read_dot(const std::string& path);
Structure parse_dot(const std::string& text, const std::string& source_name);

const char* to_string(StructureKind kind);
// Accepts the short names (async, sync, nn, ms) and the paper's (asynch, synch); throws InputError.
StructureKind parse_structure_kind(const std::string& name);

}  // namespace hetstruct::structures
