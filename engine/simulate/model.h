// What to simulate, as a library caller (the CLI, a test, the sweep, the paper's tables) states
// it: one of Wilson's structures on n processors of which m are fast, or a DAG file, with its
// communication. Every field is a value: laws are Laws, numbers are numbers, the protocol, the
// dealing policy and the port model are registry entries and enums. A law or number a record
// prints back keeps the text the user gave beside its value (distributions/spelled.h: a = 1/2,
// law = uniform). parse_model below makes a Model from texts, the one parser of every front end.
//
// Errors are InputError naming the parameter in the papers' words (width, fast_count, scale, law,
// fast_law, levels, comm_cost, exchange, protocol, policy, structure, graph, task_law, task_cv,
// mapping, bandwidth, memory_check); a front
// end maps those names to its own spelling (cli/parameters.h).
#pragma once

#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "distributions/spelled.h"
#include "engine/kernel/plan.h"
#include "structures/structure.h"
#include "structures/task_graphs.h"

namespace hetstruct::engine {

// The largest communication cost C accepted: 1e30, so that sums of 2C per message stay finite.
inline constexpr double max_comm_cost = 1e30;

using distributions::Spelled;

// The graph files a run of many models has read, each once per (file, reading options): a sweep
// over C, m, a or port models validates and runs every configuration from one read of each file.
// A structure handed out shares the read's graph (Structure::custom_graph copies it before a
// write). Reads past a budget of file bytes are not kept (each is read again, as without it), so
// a sweep over many large graphs holds no more than that. Thread-safe.
class GraphReads {
 public:
  explicit GraphReads(std::uint64_t budget_bytes = std::uint64_t{1} << 30) : budget_(budget_bytes) {}
  // structures::read_graph(path, options), from the kept read when there is one.
  structures::Structure read(const std::string& path, const structures::TaskGraphOptions& options);
  // How many times a file was read (for tests).
  std::size_t reads() const;

 private:
  struct Kept {
    std::string path;
    structures::TaskGraphOptions options;
    structures::Structure structure;
  };
  mutable std::mutex mutex_;
  std::vector<Kept> kept_;
  std::uint64_t budget_, used_ = 0;
  std::size_t reads_ = 0;
};

struct Model {
  std::optional<structures::StructureKind> structure;  // async, sync, nn, ms; none with a graph
  std::string graph;            // a graph file (DOT, STG or WfFormat, by extension) instead of a structure
  // STG and WfFormat only: the law around each task's mean, the mapping file, the bandwidth.
  structures::TaskGraphOptions task_graph;
  // Where a graph's reads are kept across models (a sweep's); null: the file is read by each build.
  std::shared_ptr<GraphReads> graph_reads;
  int width = 0;                // n
  int fast_count = 0;           // m
  Spelled<double> scale{0.5, "1/2"};                                // a
  Spelled<distributions::Law> law{distributions::Law::paper_uniform(), "uniform"};
  std::optional<Spelled<distributions::Law>> fast_law;             // none: a * law on the fast processors
  int levels = 1000;            // p, tasks per processor
  structures::NeighborExchange exchange = structures::NeighborExchange::sequential;
  Spelled<double> comm{0.0, "0"};                                   // C, the time of one message
  const ProtocolEntry* protocol = nullptr;  // of the structure's family; none: the structure's default
  std::optional<DealingPolicy> policy;      // master-slave dealing; none: dynamic
  // A graph's machine: the first fast_count processors take `scale` times their tasks' laws, or
  // `processor_scales` (one per processor) gives every processor's; either replaces the file's
  // speeds. Only with a graph; empty: none.
  std::vector<double> processor_scales;
  // A graph's cores per processor, or one count for every processor (empty: the file's, else 1
  // each). Only with a graph.
  std::vector<int> processor_cores;
  // A graph's machine is Wilson's even at m = 0: the first fast_count processors at `scale`, the
  // others at 1, the file's speeds and processor_scales replaced (at m = 0: equal processors). A
  // comparison that sets m or a on a graph (engine/sweep/grid.h) means that machine.
  bool wilson_machine = false;
  std::optional<Port> port;     // a graph's port model; none: free
  bool overlap = false;         // one-port models: a processor computes while it communicates
  // A SimGrid platform file a DOT graph runs on (structures/platform.h; empty: none), and how its
  // links share their bandwidth (engine/kernel/network.h; none: rtt).
  std::string platform;
  std::optional<Sharing> sharing;
  bool memory_check = true;     // refuse a model larger than the available memory (engine/driver/resources.h)
  // Correlated slowdowns (engine/kernel/plan.h): laws of a factor per processor and of one for the
  // whole machine, drawn each replication; none: independent task times.
  // slowdown: one law for every processor, or one per processor (comma-separated, as --scales).
  std::optional<Spelled<std::vector<distributions::Law>>> slowdown;
  std::optional<Spelled<distributions::Law>> machine_slowdown;

  // Wilson's (n, m) model of a structure: n - m processors draw `law`, m draw `scale` * `law`
  // (texts, parsed as parse_model parses them; InputError on scale, law, comm_cost).
  static Model wilson(structures::StructureKind structure, int n, int m, const std::string& scale,
                      const std::string& law, int levels, double comm = 0.0);

  // The fast processors' law: fast_law, else scale * law.
  distributions::Law fast_law_value() const;
  // True for Wilson's uniform setting: u(0,1) slow and a*u(0,1) fast (where Eq. 1-7 apply).
  bool is_paper_uniform() const;
  // Whether the model has correlated slowdowns.
  bool slowed() const { return slowdown || machine_slowdown; }
  // The plan's compile options: C, protocol, policy, port, overlap and slowdowns.
  CompileOptions compile_options() const;

  // Validates everything and builds the structure; refuses one that would not fit in memory
  // unless memory_check is off.
  structures::Structure build() const;
  structures::Structure build(structures::StructureKind kind) const;
};

// The parsers of the fields that keep their text, each refusing what the field cannot hold
// (InputError naming the parameter): a > 0; 0 <= C <= max_comm_cost; a law in the law syntax, or
// Wilson's names `uniform` (u(0,1)) and `normal` (n(1/2,1/12)) for `law`.
Spelled<double> parse_scale(const std::string& text);
Spelled<double> parse_comm_cost(const std::string& text);
Spelled<distributions::Law> parse_law_of(const std::string& parameter, const std::string& text);
// The processors' slowdown laws: one law, or a comma-separated list of one per processor
// ("c(1),mix(0.9:c(1),0.1:c(2))"; commas inside a law do not separate). InputError on `slowdown`.
Spelled<std::vector<distributions::Law>> parse_slowdown(const std::string& text);
// The processor scales a list "1,1,1/2" gives (InputError on processor_scale).
std::vector<double> parse_processor_scales(const std::string& text);
// The core counts a list "4,4,1" gives, or one count for every processor (InputError on
// processor_cores).
std::vector<int> parse_processor_cores(const std::string& text);

// A model as a front end states it: the texts of the parameters it was given, keyed by parameter
// name in the papers' words. parse_model turns them into a Model: the one parser that the command
// line (cli/model.cpp), the Python module (python/arguments.cpp) and the sweep's configurations
// (engine/sweep/grid.h to_model) share, so a name, a number or a combination means the same
// everywhere. The parameters: structure (async, sync, nn, ms), graph (a file), width, fast_count,
// levels (whole numbers), scale, comm_cost, law, fast_law (their texts kept beside their values:
// fractions and the names uniform and normal print back), protocol, policy, exchange, port, overlap (true, false),
// task_law (normal, uniform, constant), task_cv, bandwidth (numbers), mapping, processor_scale,
// processor_cores, schedule (heft, cpop, heft-sd), sd_weight, dispatch (ready, ordered), slowdown, machine_slowdown,
// memory_check (true, false). A parameter left out takes Model's default.
struct ModelTexts {
  std::map<std::string, std::string> texts;
  // The structure when the caller fixes it (the policies command: ms) instead of taking one.
  std::optional<structures::StructureKind> fixed_structure;
  // The caller runs protocols (with communication nn runs one, whatever the exchange says).
  bool protocols = true;
  // Refuse a parameter that would do nothing (a graph's width, an exchange off nn): what a user
  // states. A sweep's configuration carries every column's value, and tells what ran itself.
  bool refuse_unused = true;

  ModelTexts& set(const std::string& parameter, std::string text);
  bool given(const std::string& parameter) const { return texts.count(parameter) > 0; }
};

// The model the texts state: every name and number parsed, every combination checked that a
// model can be checked for before it is built (InputError naming the parameter; Model::build
// checks the rest: widths, scales, laws, files).
Model parse_model(const ModelTexts& texts);

// Where the library's warnings go (a law that draws negative times, say): the CLI prints them
// after the result; by default they are dropped.
void set_warning_handler(std::function<void(const std::string&)> handler);
void warn(const std::string& text);

// The warning for laws that draw a negative task time more than once in a hundred (the likeliest
// one, with what makes it negative: an untruncated normal, a uniform or constant below 0, measured
// data with negative values; exp, gamma, lognormal, weibull and tn never do), or nothing. Models
// give it once, for the first such model.
std::optional<std::string> negative_time_warning(const std::vector<distributions::Law>& laws);

// Accepts sequential and plain (InputError on `exchange` otherwise).
structures::NeighborExchange parse_exchange(const std::string& name);
const char* to_string(structures::NeighborExchange exchange);

}  // namespace hetstruct::engine
