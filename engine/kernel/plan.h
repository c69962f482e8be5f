// A structure compiled once into flat arrays, evaluated many times.
//
// Regular structures get a specialised plan (a loop nest with no graph in it); any DAG, and any
// regular structure on request, gets the generic plan: tasks in topological order with CSR
// predecessor lists. Evaluating a replication allocates nothing: buffers live in a Workspace.
//
// Semantics (docs/semantics.md): a task starts at the max of its predecessors' finish times
// (sources at 0), never clipped at 0; the makespan is the max over the sinks (the last tasks).
//
// A custom DAG (PlanKind::dag of a StructureKind::custom structure):
//  - Task times. Replication r draws every task time from ONE stream, (seed, r, 0) of domain
//    dag_tasks, in the order of the structure's vertices (the file's task order), whatever the
//    mapping: task v takes processor_scale[p] times its law's draw (a*X is a times the draw of X).
//    One stream set-up per replication, not one per processor, and the same draws for the same
//    graph on any speeds, mapping or communication (common random numbers).
//  - Messages. An edge whose two ends are compute tasks on different processors carries a message:
//    its time is its Precedence::comm_law's draw, or the model's C (-1); with C = 0 an edge without
//    a law of its own carries none. Message times come from one stream, (seed, r, 0) of domain
//    messages, drawn in message order, so they never shift task times. Message order is the
//    file's edge order (Precedence::file_index, the reader's order of the edges; a graph built by
//    hand without it: by sending vertex, then its out-edges in insertion order).
//  - Port models (Port). `free`: a message only delays its receiver: task v starts at the max over
//    its predecessors u of finish(u) + c(u,v) (c = 0 within a processor): the longest path with
//    edge weights, any number of messages at once (macro-dataflow). The two one-port models give
//    each processor a send port and a receive port, each carrying one message at a time, and a
//    compute unit running one task at a time (a processor's tasks are chained by its order anyway).
//    A message from u (processor P) to v (processor Q) is ready at finish(u) and needs P's send
//    port and Q's receive port; v starts once its last input (a predecessor's finish, a message's
//    arrival) is in. Without `overlap` (Wilson's processors) a processor does not compute while it
//    communicates: a message also needs both P's and Q's compute idle (a rendezvous: the receiver
//    takes part, so even a message of time 0 waits for a receiver that computes), and a task also
//    needs its processor's two ports idle. With `overlap` ports and computation are independent.
//    They differ in when a message takes its ports:
//    `one_port` (booking; blocking sends issued in that order): items are served one at a time in
//    the order of their ready time (a message's finish(u), a task's last input), messages before
//    tasks at equal times, then messages in message order (the file's edge order, whichever tasks
//    send them) and tasks in plan order. Serving an item books its resources at once, possibly in
//    the future: a message starts at max(ready, P's send port free, Q's receive port free [, P's
//    and Q's compute free]), a task at max(ready, [its ports free]), each "free" being the end of
//    what the resource was booked for so far. So a message booked when its data is ready holds its
//    ports until it has gone, and a task served later will not start before such a booked
//    interval even when its processor is idle until then. With times >= 0 each port serves its
//    messages first come first served; a negative time (an untruncated normal) is served when
//    the simulation reaches it.
//    `one_port_greedy` (work-conserving): no processor idles while it has a task it can start or
//    a message it can send. A resource is busy from the start of what it runs until that item's
//    end is processed; nothing is booked ahead. Event by event: take every end at the earliest
//    time left (finishes and arrivals, together), free their resources and record what became
//    ready; then start, in this order, each waiting message whose resources (above) are all idle,
//    by ready time then message order, and then each waiting task whose resources are all idle,
//    in plan order (sources wait from time 0). An item starts at the max of its ready time and
//    the times its resources became free (each: the end of the last item it ran; with times >= 0
//    this max is the current event time); an item of time 0 holds its resources until its end, a
//    later event at the same time. A waiting message does not hold its sender: without overlap
//    the sender may start a task while its message waits for the receiver, and the message then
//    waits for an instant when both ends are idle.
//  Both one-port models are never faster than free. Each reduces to free when no two messages
//  share a port (no processor sends two messages, none receives two): with `overlap`, exactly, for
//  any times; without it, when moreover no message meets a computation at either end in the free
//  schedule (no task of P or Q runs across finish(u) or starts in [finish(u), finish(u) + c(u,v))),
//  for times >= 0. At C = 0 with no edge law there are no messages, and every port model is the
//  zero-communication longest path, bit for bit; at C > 0, however small, each crossing edge is a
//  message, and without overlap its rendezvous makes the makespan jump (tests/data/stencil4x4.dot:
//  42.1 at C = 0; at C = 1e-9, 70.6 under one_port, 45.5 under one_port_greedy, 42.1 with overlap).
//  - Processors of several cores (Structure::processor_cores, free port only). A processor of K
//    cores starts its tasks in its order (the chain's order, Precedence::start_order), each once
//    its inputs are in, the task before it has started, and as many of its cores as the task takes
//    (Task::cores, c) are free: it starts at max(inputs, the previous start, the c-th earliest
//    core free time), and holds the c cores that free earliest until it finishes. With K = 1 that
//    is the chain: each task after the one before it finishes.
//  - Ready dispatch (Structure::dispatch, free port only; docs/graphs.md "Dispatch"). A processor
//    of ready dispatch has no chain: its tasks join its queue when all their inputs are in, in
//    the order of that time (ties: the file's listing order), and whenever the queue's head fits
//    in the processor's free cores it starts and holds them until it finishes (first come, first
//    served: a later task never overtakes the head). Event by event: take every finish and
//    arrival at the earliest time left (a message of time 0 arrives with its sender's finish),
//    queue what became ready, then start on each processor what its queue's head allows, at that
//    time. A task of time 0 finishes at a later event of the same time. With a negative time (an
//    untruncated normal) a finish may come before the current time: it is taken next, at its own
//    time. In a plan with ready processors the ordered ones run in the same loop, a task of an
//    ordered processor of several cores joining the queue once the task before it has started:
//    the same starts as the ordered rule above.
//
// Correlated slowdowns (Slowdown, any plan; absent, nothing changes: evaluate() takes one branch
// per replication). Replication r draws its factors from one stream, (seed, r, 0) of domain
// slowdown, in a fixed order: the machine's factor M first (with a machine law), then processor
// 0's, 1's, ... factor F_i (with processor laws: one for all, or law i for processor i; processors
// 0..width-1 of the plan). Processor i's
// every task time in that replication is then (M * F_i) * x (a missing factor is 1, and with one
// law alone the factor is that law's draw: c(2) doubles every time exactly), x the time it would
// take without slowdowns (its processor's scale included). Messages are not slowed. The task
// streams are untouched: with and without slowdowns the same x (common random numbers).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "distributions/sampler.h"
#include "engine/kernel/communication.h"
#include "engine/kernel/port_models.h"
#include "engine/kernel/network.h"
#include "engine/kernel/streams.h"
#include "structures/structure.h"

namespace hetstruct::engine {

enum class PlanKind {
  asynchronous,         // max over processors of the sum of its task times
  synchronous,          // sum over levels of the max of the level's task times
  neighbor_sequential,  // task k+1 on processor i starts at max(f_0..f_{i+1})
  neighbor_plain,       // task k+1 on processor i starts at max(f_{i-1}, f_i, f_{i+1})
  task_pool,            // width*levels tasks, each dealt to the earliest idle processor
  dag,                  // generic longest path in topological order
  protocol,             // a communication protocol (engine/kernel/communication.h) runs each replication
};

const char* to_string(PlanKind kind);

// How a DAG's messages use the processors (see above): Port, its names and their parser are the
// port-model registry's (engine/kernel/port_models.h).

// Where a generic plan's task times come from.
enum class TaskStreams {
  per_processor,  // Wilson's streams: processor i's k-th task draws the k-th variate of (seed, r, i)
  single,         // a custom DAG: one stream per replication, tasks in the file's order (above)
};

// Correlated slowdowns (above): the laws of the processors' factors (one law that every processor
// draws its own factor from, or one law per processor, processor i's factor from law i) and a law
// for the whole machine, either or both.
struct Slowdown {
  std::vector<distributions::Law> processor;  // empty: no processor factors
  std::optional<distributions::Law> machine;
  bool any() const { return !processor.empty() || machine; }
  // The processor laws as the law syntax writes them, comma-separated (empty without).
  std::string processor_text() const;
};

// A message of a DAG plan: from task `from` to task `to` (plan positions), its time drawn by
// samplers[law].
struct Message {
  std::uint32_t from = 0, to = 0;
  int law = -1;
};

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
  TaskStreams task_streams = TaskStreams::per_processor;
  std::vector<std::uint32_t> draw_order;  // single stream: task positions in the order they draw
  std::vector<double> task_scale;         // per task: its processor's scale (empty: all 1)
  // Communication, parallel to preds: the law index (into laws/samplers) of the message on that
  // edge, or -1 when it carries none. For analytic estimates; the evaluator reads pred_message.
  std::vector<int> pred_comm;
  std::vector<int> pred_message;          // parallel to preds: index into messages, or -1
  std::vector<Message> messages;          // in message order: the file's edge order (the one-port tie order)
  Port port = Port::free;
  bool overlap = false;                   // one-port models: a processor computes while it communicates
  // One-port: successors of task t: succs[succ_begin[t] .. succ_begin[t+1]), with the message
  // each edge carries (-1: none).
  std::vector<std::uint32_t> succ_begin, succs;
  std::vector<int> succ_message;
  // Processors of several cores (a custom DAG's; all empty when every processor has one): each
  // processor's cores, each task's cores, and the task its processor starts just before it (plan
  // positions; no_task on a processor of one core, whose order is a chain of precedences).
  std::vector<int> processor_cores;
  std::vector<std::uint32_t> task_cores;
  std::vector<std::uint32_t> start_after;
  std::vector<std::uint32_t> core_begin;  // processor p's cores in Workspace::core_free: [core_begin[p], core_begin[p+1])
  static constexpr std::uint32_t no_task = UINT32_MAX;
  bool multicore() const { return !processor_cores.empty(); }
  // Ready dispatch (Structure::dispatch; all empty when every processor is ordered): whether each
  // processor takes its tasks as they become ready, each processor's slots in Workspace::queue
  // ([queue_begin[p], queue_begin[p+1])), the tasks ready at time 0 in the file's listing order,
  // and on an ordered processor of several cores the task each task's start lets start
  // (start_after's inverse; no_task for none).
  std::vector<std::uint8_t> processor_ready;
  std::vector<std::uint32_t> queue_begin, ready_sources, start_next;
  bool ready_dispatch() const { return !processor_ready.empty(); }
  int cores_of(int p) const { return multicore() ? processor_cores[static_cast<std::size_t>(p)] : 1; }
  std::uint32_t cores_of_task(std::size_t t) const { return task_cores.empty() ? 1u : task_cores[t]; }

  // Correlated slowdowns and their samplers (empty without).
  Slowdown slowdown;
  std::vector<distributions::Sampler> slowdown_samplers;  // [machine, processor], those present
  bool slowed() const { return slowdown.any(); }

  // A DAG on a SimGrid platform (engine/kernel/network.h; none without): its links, routes and
  // sharing model. Task draws are works (task_scale: 1 / (speed * cores)), message draws bytes.
  std::shared_ptr<const Network> network;

  // Generic plan: the structure's vertex of each task (plan position -> vertex), for names.
  std::vector<std::uint32_t> task_vertex;

  // Protocol plans: which protocol of which structure (none for the other plans), and what it
  // knows of the structure.
  std::optional<structures::StructureKind> structure;
  const ProtocolEntry* protocol = nullptr;
  CommSetup comm;

  // Whether its tasks come from a pool: the task pool, or master-slave's dealing.
  bool pool() const { return kind == PlanKind::task_pool || structure == structures::StructureKind::master_slave; }
  // Tasks with a random time per replication (the unit of "ns per task").
  std::uint64_t compute_tasks() const;
  // Whether a replication communicates: a protocol, or a DAG with messages.
  bool communicates() const { return kind == PlanKind::protocol || !messages.empty(); }
  // The name of how it communicates: the protocol, the DAG's port model as the sweep spells it
  // (port_spelling, engine/kernel/port_models.h), or the platform's sharing ("platform-rtt").
  std::string communication() const;
};

struct CompileOptions {
  bool generic = false;    // compile a regular structure to the generic DAG plan too (for tests)
  double comm_cost = 0.0;  // C: with C > 0, sync, nn and ms run a communication protocol
  const ProtocolEntry* protocol = nullptr;  // of the structure's family (find_protocol); none: the default
  std::optional<DealingPolicy> policy;      // master-slave dealing; none: dynamic
  std::optional<Port> port;  // a custom DAG's port model (none: free); refused on other structures
  bool overlap = false;      // one-port models: compute while communicating
  Slowdown slowdown;         // correlated slowdowns (none: independent times)
  std::optional<Sharing> sharing;  // a platform's bandwidth sharing (none: rtt); refused without a platform
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

// A processor's task times read in order from a row (evaluate_on_task_times) instead of drawn.
struct ReplayDraw {
  mutable const double* next;
  double operator()(ProcessorStream&) const { return *next++; }
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
  ProcessorStream slowdown_stream;     // slowdowns: the factors' stream
  std::vector<double> busy;            // evaluate_busy: each processor's total task time
  std::vector<BusyDraw> busy_draws;    // evaluate_busy on regular plans
  std::vector<std::uint64_t> counts;   // evaluate_controls: task times drawn per processor
  DrawLog log;                         // evaluate_controls: a protocol's draws
  std::vector<double> level_maxima;    // evaluate_controls: each level's largest task time
  std::vector<double> level_rows;      // evaluate_controls: each processor's task times by level
  std::vector<ReplayDraw> replay;      // evaluate_on_task_times: each processor's row
  std::vector<double> durations;       // DAG: this replication's task times (plan order)
  std::vector<double> message_times;   // DAG: this replication's message times
  std::vector<double> starts;          // DAG on processors of several cores: each task's start
  std::vector<double> core_free;       // and each core's free time, ascending per processor
  // Ready dispatch: each processor's queue of tasks (slots from Plan::queue_begin), its head and
  // tail, its free cores, the tasks made ready by one instant's events, and the processors to look at.
  std::vector<std::uint32_t> queue, queue_head, queue_tail, free_cores, newly_ready, touched;
  std::vector<std::uint8_t> is_touched;
  // One-port: inputs still missing per task, the time of the last input in, the ports' and
  // processors' free times, and the event heap.
  std::vector<std::uint32_t> missing;
  std::vector<double> input_time, send_free, receive_free, compute_free;
  struct Event {
    double time;
    std::uint32_t key;  // messages: their index; tasks: task_bit | position (after messages)
  };
  std::vector<Event> events;
  // One-port greedy: whether each processor's send port, receive port and compute unit are busy,
  // and the messages (by ready time, then message order) and tasks (plan order) waiting to start.
  std::vector<std::uint8_t> sending, receiving, computing;
  std::vector<std::uint32_t> waiting_messages, waiting_tasks;
  // Slowdowns: this replication's factor per processor, and the regular plans' scaled draws (of
  // the monomorphic uniform or normal draws where the plan has them: the same variates).
  std::vector<double> factors;
  template <class Draw>
  struct ScaledDraw {
    const Draw* draw;
    const double* factor;
    double operator()(ProcessorStream& s) const { return *factor * (*draw)(s); }
  };
  std::vector<ScaledDraw<distributions::Sampler>> scaled_draws;
  std::vector<ScaledDraw<distributions::UniformDraw>> scaled_uniform_draws;
  std::vector<ScaledDraw<distributions::NormalDraw>> scaled_normal_draws;
  std::shared_ptr<NetworkWorkspace> network;  // a platform's event loop (engine/kernel/network.h)
};

// The makespan of an asynchronous, synchronous or nearest-neighbour zero-communication plan on
// given task times (processor i's task of level k at task_times[i * plan.levels + k]), as
// evaluate() computes it from drawn ones: the same bits on the same values. The multi-fidelity
// control evaluates its surrogate on the protocol's own draws this way.
double evaluate_on_task_times(const Plan& plan, const double* task_times, Workspace& ws);

// This replication's slowdown factors, one per processor (the rule is at the top), into
// ws.factors: empty without slowdowns.
void draw_slowdowns(const Plan& plan, std::uint64_t seed, std::uint64_t replication, Workspace& ws);

// A DAG plan's task and message times of a replication, as evaluate() draws them (the same bits,
// slowdowns included): ws.durations (plan order; 0 for a zero-time task) and ws.message_times.
// For the evaluations that need every task's start and finish (engine/simulate/criticality.h).
void draw_dag_times(const Plan& plan, std::uint64_t seed, std::uint64_t replication, Workspace& ws);

// One replication of a DAG plan with what set each start: the evaluation evaluate() runs for the
// plan's port model and cores (the same functions, the same bits), recording every task's and
// message's start and end and, for each, its binders: the constraints whose time equals its start
// (a start is the max of exactly these times, so the comparisons are exact and ties keep them all).
// A constraint is a predecessor's finish (no message on the edge), a message's arrival, or:
//  - processors of several cores: the start of the task the processor starts just before (the
//    start order) and the finishes of the tasks that last held the cores the task takes (the c
//    cores that free earliest, equal free times taken by core index);
//  - one-port models: the task or message that last set the free time of a port or compute unit
//    the item waits for (the item whose end is that free time; of equal ends, the later one);
//  - a message's data: its sender's finish.
// A source's start at 0 has no binder (unless a resource frees at 0 too). For criticality
// (engine/simulate/criticality.h): the chains of binders back from the last finish.
struct DagTrace {
  enum class Bound : std::uint8_t { finish, arrival, start };  // a task's finish, a message's arrival, a task's start
  static constexpr std::uint32_t no_item = UINT32_MAX;
  struct Binder {
    Bound bound = Bound::finish;
    std::uint32_t item = no_item;  // a task's plan position or a message's index
  };
  struct Range {
    std::uint32_t begin = 0, end = 0;  // into binders
  };
  std::vector<double> start, finish;             // per task (plan order)
  std::vector<double> message_start, arrival;    // per message
  std::vector<Range> task_binders, message_binders;
  std::vector<Binder> binders;
  double makespan = 0.0;
  // The evaluators' bookkeeping: who set each resource's free time.
  std::vector<Binder> send_holder, receive_holder, compute_holder, core_holder;
  std::vector<double> core_free;
  std::vector<std::uint32_t> core_pick;
  // Ready dispatch: each processor's free cores in the order they freed (a ring over its cores from
  // Plan::core_begin, with its head and count), the cores each running task holds, and the batch.
  std::vector<std::uint32_t> core_ring, ring_head, ring_count, held, held_begin, batch;
};

// Replication `replication` of a DAG plan traced (above); returns its makespan, evaluate()'s bits.
double trace_dag(const Plan& plan, std::uint64_t seed, std::uint64_t replication, Workspace& ws, DagTrace& trace);

// The makespan of replication `replication` under `seed`.
double evaluate(const Plan& plan, std::uint64_t seed, std::uint64_t replication, Workspace& ws);

// The same replication as evaluate() (the same bits), also adding up each processor's task times
// into ws.busy (its active computing time, Zhang and Yan's T_j^act). Slower: for the measures only.
double evaluate_busy(const Plan& plan, std::uint64_t seed, std::uint64_t replication, Workspace& ws);

// Generic plan with given task times (indexed in topological order; zero-time tasks ignored):
// the longest path. For tests against Boost.Graph.
double longest_path(const Plan& plan, std::span<const double> durations, std::span<double> finish);

}  // namespace hetstruct::engine
