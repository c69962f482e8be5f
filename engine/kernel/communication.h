// Communication protocols: structures whose processors exchange messages of constant cost C
// (Wilson, Section 5). Processors are one-port: a processor talks to one peer at a time and never
// while it computes, unless a protocol says otherwise; a message occupies both ends for C.
//
// Each protocol is a named evaluator documented by its rules (docs/semantics.md gives the
// readings and their fit to Tables 3-8). A protocol object is made once per worker thread and
// keeps its buffers, so a replication allocates nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "distributions/sampler.h"
#include "engine/kernel/streams.h"
#include "structures/structure.h"

namespace hetstruct::engine {

// The task times of one replication in the order a protocol drew them, when kept: the control
// variates of a protocol plan (engine/kernel/plan.h evaluate_controls) are statistics of these draws,
// read after the run instead of drawing the streams a second time. Sized once; a replication
// appends without allocating once the buffers have grown to its draw count.
struct DrawLog {
  std::vector<int> processor;
  std::vector<double> value;

  // Master-slave protocols, when asked (dealing_from): the pool's state just before each slave's
  // draw numbered dealing_from or later, for the dealing controls (ControlSpec::dealing_draws,
  // bounds::Dealing). Only the protocol's state before the draw: a control built on it has mean 0.
  struct Waiting {
    double ready;  // the end of its current task
    int processor;
  };
  struct Dealing {
    std::size_t draw;         // the draw's number in this log
    double start;             // when the drawn task starts
    int processor;            // who draws it
    std::int64_t remaining;   // tasks still to deal after it
    double settled;           // the latest end among the processors neither drawing nor in line
    std::size_t line_begin;   // its line, in line order (ready, then processor): line[begin, end)
    std::size_t line_end;
  };
  std::size_t dealing_from = static_cast<std::size_t>(-1);
  std::vector<Dealing> dealings;
  std::vector<Waiting> line;

  void clear() {
    processor.clear();
    value.clear();
    dealings.clear();
    line.clear();
  }
  void add(int i, double x) {
    processor.push_back(i);
    value.push_back(x);
  }
  bool wants_dealing() const { return processor.size() >= dealing_from; }
};

// The task times of one replication, drawn on demand: processor i's k-th call to next(i) returns
// the k-th variate of its stream, exactly as in the zero-communication plans (common random
// numbers across protocols and against C = 0).
class TaskTimes {
 public:
  // `busy`, when given, gets each drawn time added to its processor's slot (busy times); `log`,
  // when given, gets every draw appended.
  // `factors`, when given, multiply each processor's every time (correlated slowdowns,
  // engine/kernel/plan.h); the monomorphic draws (LawDraws) then step aside.
  TaskTimes(const distributions::Sampler* samplers, ProcessorStream* streams, ProcessorStream& protocol_stream,
            double* busy = nullptr, DrawLog* log = nullptr, const double* factors = nullptr)
      : samplers_(samplers), streams_(streams), protocol_stream_(protocol_stream), busy_(busy), log_(log),
        factors_(factors) {}
  double next(int processor) {
    double x = samplers_[processor](streams_[processor]);
    if (factors_) x = factors_[processor] * x;
    if (busy_) busy_[processor] += x;
    if (log_) log_->add(processor, x);
    return x;
  }
  // Randomness that belongs to the protocol itself (a random initiation order, say): a stream of
  // its own, distinct from every processor's, so it never shifts the task times.
  ProcessorStream& protocol_stream() { return protocol_stream_; }

  // What LawDraws reads to draw the same variates without the per-draw dispatch.
  const distributions::Sampler* samplers() const { return samplers_; }
  ProcessorStream* streams() const { return streams_; }
  bool keeps_busy() const { return busy_ != nullptr; }
  bool slowed() const { return factors_ != nullptr; }
  DrawLog* log() const { return log_; }

 private:
  const distributions::Sampler* samplers_;
  ProcessorStream* streams_;
  ProcessorStream& protocol_stream_;
  double* busy_;
  DrawLog* log_;
  const double* factors_;
};

// Hot loops: processor i's next task time without a dispatch per draw. When every processor's law
// is one uniform (or one normal) leaf and no busy times are kept, as in Wilson's tables, run() gets
// a monomorphic draw (the zero-communication plans' UniformDraw / NormalDraw, engine/kernel/plan.h);
// otherwise TaskTimes::next. Either way the same variates from the same streams, bit for bit. The
// buffers are sized once (width), so a replication allocates nothing.
class LawDraws {
 public:
  explicit LawDraws(int width) {
    uniform_.reserve(static_cast<std::size_t>(width));
    normal_.reserve(static_cast<std::size_t>(width));
  }

  template <class Draw>
  struct Monomorphic {
    const Draw* draws;
    ProcessorStream* streams;
    DrawLog* log;  // null unless the controls read the draws (a branch that always predicts)
    double operator()(int i) const {
      const double x = draws[i](streams[i]);
      if (log) log->add(i, x);
      return x;
    }
  };
  struct General {
    TaskTimes* times;
    double operator()(int i) const { return times->next(i); }
  };

  // run(next) with next(i) one of the three functors above; `width` processors.
  template <class Run>
  decltype(auto) dispatch(TaskTimes& times, int width, Run&& run) {
    const distributions::Sampler* samplers = times.samplers();
    if (!times.keeps_busy() && !times.slowed()) {
      if (all_of_kind(samplers, width, distributions::LeafKind::uniform)) {
        uniform_.clear();
        for (int i = 0; i < width; ++i) uniform_.push_back(samplers[i].uniform_draw());
        return run(Monomorphic<distributions::UniformDraw>{uniform_.data(), times.streams(), times.log()});
      }
      if (all_of_kind(samplers, width, distributions::LeafKind::normal)) {
        normal_.clear();
        for (int i = 0; i < width; ++i) normal_.push_back(samplers[i].normal_draw());
        return run(Monomorphic<distributions::NormalDraw>{normal_.data(), times.streams(), times.log()});
      }
    }
    return run(General{&times});
  }

 private:
  static bool all_of_kind(const distributions::Sampler* samplers, int width, distributions::LeafKind kind) {
    for (int i = 0; i < width; ++i)
      if (samplers[i].single_kind() != kind) return false;
    return true;
  }
  std::vector<distributions::UniformDraw> uniform_;
  std::vector<distributions::NormalDraw> normal_;
};

// Master-slave dealing (master_slave_policies() says what each stands for).
enum class DealingPolicy { dynamic, equal, proportional, balanced, equal_finish };
const char* to_string(DealingPolicy policy);
// A policy by name (InputError on `policy`, listing the names, otherwise).
DealingPolicy parse_policy(const std::string& name);

// What every protocol knows of its structure. Processors 0..fast_count-1 are the fast ones.
struct CommSetup {
  int width = 0;
  int fast_count = 0;
  int levels = 0;          // tasks per processor (p); a master-slave pool holds width*levels tasks
  double comm_cost = 0.0;  // C
  // Per-processor mean task time, for policies that need it (the speed-proportional split).
  std::vector<double> mean_task_time;
  DealingPolicy policy = DealingPolicy::dynamic;  // master-slave dealing
};

class Protocol {
 public:
  virtual ~Protocol() = default;
  // The makespan of one replication.
  virtual double run(TaskTimes& times) = 0;
};

// ---- Protocol families, one file each -----------------------------------------------------------
// Each family keeps one registry: a protocol's name, a one-line summary and its factory, the
// default (the reading that best fits Wilson's tables) first. The names feed the help and validation,
// the factory the plan's workspaces; adding a protocol is its class and one entry.
struct ProtocolEntry {
  const char* name;
  const char* summary;
  std::unique_ptr<Protocol> (*make)(const CommSetup& setup);
};
const std::vector<ProtocolEntry>& synchronous_protocols();
const std::vector<ProtocolEntry>& neighbor_protocols();
const std::vector<ProtocolEntry>& master_slave_protocols();
// An entry's factory by name; InputError (protocol) naming the family otherwise.
std::unique_ptr<Protocol> make_from(const std::vector<ProtocolEntry>& family, const char* family_name,
                                    const std::string& name, const CommSetup& setup);
std::vector<std::string> names_of(const std::vector<ProtocolEntry>& family);

// The family of a structure that communicates by protocols (sync, nn, ms), its default (the
// reading that best fits Wilson's tables) first; InputError (protocol) for the others.
const std::vector<ProtocolEntry>& protocol_family(structures::StructureKind structure);
// A protocol of `structure` by name: the one place where a protocol's text becomes its entry.
// InputError (protocol) for a structure without protocols or a name not in its family.
const ProtocolEntry& find_protocol(structures::StructureKind structure, const std::string& name);
// Whether `protocol` is one of `structure`'s family.
bool in_family(structures::StructureKind structure, const ProtocolEntry& protocol);
std::vector<std::string> protocol_names(structures::StructureKind structure);

std::unique_ptr<Protocol> make_synchronous_protocol(const std::string& name, const CommSetup& setup);
std::unique_ptr<Protocol> make_neighbor_protocol(const std::string& name, const CommSetup& setup);
std::unique_ptr<Protocol> make_master_slave_protocol(const std::string& name, const CommSetup& setup);
std::vector<std::string> synchronous_protocol_names();
std::vector<std::string> neighbor_protocol_names();
std::vector<std::string> master_slave_protocol_names();


// A master-slave dealing policy: its name, the approach it stands for (the label
// `hetstruct policies` prints: overpartitioning, ostrich, hcgm, wilson_eq15, ...) and one line.
struct MasterSlavePolicy {
  DealingPolicy policy;
  std::string name;
  std::string approach;
  std::string summary;
};
// Every dealing policy, the default (dynamic) first: the one list the policy parser reads.
std::vector<MasterSlavePolicy> master_slave_policies();
// The tasks a static policy (setup.policy) gives each processor under master-slave protocol
// `protocol` (an entry of master_slave_protocols()), the master's included (empty for dynamic
// dealing). Throws InputError as the protocol's factory does.
std::vector<std::int64_t> master_slave_quotas(const ProtocolEntry& protocol, const CommSetup& setup);

}  // namespace hetstruct::engine
