#include "engine/simulate/model.h"
#include "engine/simulate/parameters.h"

#include "structures/platform.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

#include <charconv>

#include "distributions/format.h"
#include "distributions/input_error.h"
#include "distributions/law_syntax.h"
#include "engine/driver/resources.h"
#include "structures/custom.h"

namespace hetstruct::engine {

using distributions::Law;

namespace {

std::function<void(const std::string&)>& warning_handler() {
  static std::function<void(const std::string&)> handler;
  return handler;
}

// Why a component of a law can draw below 0 (scales are > 0 and keep the sign), or nothing.
const char* negative_cause(const distributions::Component& c) {
  switch (c.leaf.kind) {
    case distributions::LeafKind::normal:
      return "normal laws are not truncated, as in Wilson's tables; tn(mean,variance) truncates at 0";
    case distributions::LeafKind::uniform: return c.leaf.first < 0.0 ? "a uniform law's range starts below 0" : nullptr;
    case distributions::LeafKind::constant: return c.leaf.first < 0.0 ? "a negative constant" : nullptr;
    case distributions::LeafKind::empirical:
      return c.leaf.data->sorted.front() < 0.0 ? "the measured data has negative values" : nullptr;
    case distributions::LeafKind::truncated_normal:
    case distributions::LeafKind::exponential:
    case distributions::LeafKind::gamma:
    case distributions::LeafKind::lognormal:
    case distributions::LeafKind::weibull: return nullptr;
  }
  return nullptr;
}

// Negative times are not refused (Wilson's normal laws are not truncated): warn once.
// A note repeated by every configuration of a sweep is said once.
void warn_once(const std::string& text) {
  static std::mutex mutex;
  static std::set<std::string> said;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!said.insert(text).second) return;
  }
  warn(text);
}

void warn_negative_times(const std::vector<Law>& laws) {
  static bool warned = false;
  if (warned) return;
  const auto text = negative_time_warning(laws);
  if (!text) return;
  warned = true;
  warn(*text);
}

}  // namespace

std::optional<std::string> negative_time_warning(const std::vector<Law>& laws) {
  const Law* worst = nullptr;
  double worst_p = 0.01;
  for (const auto& law : laws) {
    const double p = law.cdf(-std::numeric_limits<double>::denorm_min());  // P(X < 0)
    if (p > worst_p) {
      worst = &law;
      worst_p = p;
    }
  }
  if (!worst) return std::nullopt;
  std::vector<std::string> causes;  // each once, in the law's order
  for (const auto& c : worst->components()) {
    const char* cause = negative_cause(c);
    if (cause && std::find(causes.begin(), causes.end(), cause) == causes.end()) causes.push_back(cause);
  }
  std::string why;
  for (const auto& cause : causes) why += (why.empty() ? "" : "; ") + cause;
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.3g%%", 100.0 * worst_p);
  return worst->to_string() + " draws a negative task time with probability " + percent + " (" + why + ")";
}

namespace {

// The options of STG and WfFormat files act on those files only.
void refuse_task_graph_options(const structures::TaskGraphOptions& options) {
  const structures::TaskGraphOptions defaults;
  const char* given = options.law.shape != defaults.law.shape ? "task_law"
                      : options.law.cv != defaults.law.cv     ? "task_cv"
                      : !options.mapping.empty()              ? "mapping"
                      : options.bandwidth != defaults.bandwidth ? "bandwidth"
                      : options.schedule                        ? "schedule"
                      : options.dispatch                        ? "dispatch"
                                                                : nullptr;
  if (given) throw InputError(given, "applies to a graph file only", "give a graph file");
}

}  // namespace

void set_warning_handler(std::function<void(const std::string&)> handler) { warning_handler() = std::move(handler); }

void warn(const std::string& text) {
  if (warning_handler()) warning_handler()(text);
}

structures::NeighborExchange parse_exchange(const std::string& name) {
  if (name == "sequential") return structures::NeighborExchange::sequential;
  if (name == "plain") return structures::NeighborExchange::plain;
  throw InputError("exchange", "unknown rule '" + name + "'", "choose sequential or plain");
}

const char* to_string(structures::NeighborExchange exchange) {
  return exchange == structures::NeighborExchange::plain ? "plain" : "sequential";
}

namespace {

// The fields' own limits, checked where they are parsed and again where a model is built (a
// library caller may set a field directly).
void check_scale(const Spelled<double>& a) {
  if (!(a.value > 0.0)) throw InputError("scale", "the scale must be > 0, got " + a.text);
}

void check_comm_cost(const Spelled<double>& c) {
  if (!(c.value >= 0.0)) throw InputError("comm_cost", "the communication cost must be >= 0, got " + c.text);
  // Bounded as every other time the tool reads (HBSP numbers, law parameters): beyond, sums of
  // messages overflow a double.
  if (c.value > max_comm_cost)
    throw InputError("comm_cost", "the communication cost " + c.text + " is more than the limit 1e30");
}

}  // namespace

Spelled<double> parse_scale(const std::string& text) {
  Spelled<double> a{distributions::parse_number(text, "scale"), text};
  check_scale(a);
  return a;
}

Spelled<double> parse_comm_cost(const std::string& text) {
  Spelled<double> c{distributions::parse_number(text, "comm_cost"), text};
  check_comm_cost(c);
  return c;
}

Spelled<Law> parse_law_of(const std::string& parameter, const std::string& text) {
  if (parameter == "law" && text == "uniform") return {Law::paper_uniform(), text};
  if (parameter == "law" && text == "normal") return {Law::paper_normal(), text};
  try {
    return {distributions::parse_law(text), text};
  } catch (const InputError& e) {
    throw InputError(parameter, e.what());
  }
}

Spelled<std::vector<Law>> parse_slowdown(const std::string& text) {
  Spelled<std::vector<Law>> laws{{}, text};
  const auto items = distributions::split_outside_laws(text, ',');
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].find_first_not_of(" \t") == std::string::npos)
      throw InputError("slowdown", "'" + text + "': law " + std::to_string(i + 1) + " of " + std::to_string(items.size()) + " is empty",
                       "give one law, or one law per processor separated by commas");
    laws.value.push_back(parse_law_of("slowdown", items[i]).value);
  }
  return laws;
}

Model Model::wilson(structures::StructureKind structure, int n, int m, const std::string& scale, const std::string& law,
                    int levels, double comm) {
  Model model;
  model.structure = structure;
  model.width = n;
  model.fast_count = m;
  model.scale = parse_scale(scale);
  model.law = parse_law_of("law", law);
  model.levels = levels;
  model.comm = distributions::spelled_exactly(comm);
  check_comm_cost(model.comm);
  return model;
}

Law Model::fast_law_value() const { return fast_law ? fast_law->value : Law::scaled(scale.value, law.value); }

CompileOptions Model::compile_options() const {
  check_comm_cost(comm);
  CompileOptions options;
  options.comm_cost = comm.value;
  options.protocol = protocol;
  options.policy = policy;
  options.port = port;
  options.overlap = overlap;
  options.sharing = sharing;
  if (slowdown) options.slowdown.processor = slowdown->value;
  if (machine_slowdown) options.slowdown.machine = machine_slowdown->value;
  return options;
}

std::vector<double> parse_processor_scales(const std::string& text) {
  std::vector<double> scales;
  std::size_t begin = 0;
  for (;;) {
    const auto comma = text.find(',', begin);
    const std::string item = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    const double a = distributions::parse_number(item, "processor_scale");
    if (!(a > 0.0) || !std::isfinite(a))
      throw InputError("processor_scale", "a processor's scale must be a finite number > 0, got " + item);
    scales.push_back(a);
    if (comma == std::string::npos) return scales;
    begin = comma + 1;
  }
}

std::vector<int> parse_processor_cores(const std::string& text) {
  std::vector<int> cores;
  std::size_t begin = 0;
  for (;;) {
    const auto comma = text.find(',', begin);
    std::string item = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    std::size_t used = 0;
    long k = 0;
    try {
      k = std::stol(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || k < 1 || k > structures::max_cores)
      throw InputError("processor_cores", "'" + item + "' is not a core count",
                       "a whole number from 1 to " + std::to_string(structures::max_cores) + " per processor, such as 4,4,1");
    cores.push_back(static_cast<int>(k));
    if (comma == std::string::npos) return cores;
    begin = comma + 1;
  }
}

structures::Structure GraphReads::read(const std::string& path, const structures::TaskGraphOptions& options) {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (const Kept& k : kept_)
    if (k.path == path && k.options == options) return k.structure;
  ++reads_;
  structures::Structure s = structures::read_graph(path, options);
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (!ec && used_ + bytes <= budget_) {
    used_ += bytes;
    kept_.push_back({path, options, s});
  }
  return s;
}

std::size_t GraphReads::reads() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return reads_;
}

bool Model::is_paper_uniform() const { return !fast_law && law.value == Law::paper_uniform(); }

structures::Structure Model::build() const {
  if (!graph.empty()) {
    if (structure) throw InputError("graph", "give either a structure or a graph, not both");
    std::error_code ec;
    const auto file_bytes = std::filesystem::file_size(graph, ec);
    if (memory_check && !ec) check_model_memory(0, file_bytes, "graph", graph + " and its graph");
    structures::TaskGraphOptions read_options = task_graph;
    if (read_options.schedule) {
      // A schedule places the tasks on the machine the file or the processors' scales give, on the
      // cores the file or processor_cores give, from the mean message times (C on edges without
      // their own).
      if (fast_count > 0 || wilson_machine)
        throw InputError("fast_count", "a schedule takes the machine the graph file or the processors' scales give",
                         "give the processors' scales (processor_scale) instead of fast processors");
      read_options.schedule->cores = processor_cores;
      check_comm_cost(comm);
      read_options.schedule->comm_cost = comm.value;
      if (!processor_scales.empty()) read_options.schedule->scales = processor_scales;
    }
    if (!platform.empty())
      read_options.platform = std::make_shared<const structures::Platform>(structures::read_platform(platform));
    structures::Structure s = graph_reads ? graph_reads->read(graph, read_options) : structures::read_graph(graph, read_options);
    if (s.unrelated && (!processor_scales.empty() || fast_count > 0 || wilson_machine))
      throw InputError(!processor_scales.empty() ? "processor_scale" : "fast_count",
                       "does not apply to a graph whose vertices give costs",
                       "each vertex's costs give its time on each processor");
    if (!processor_scales.empty() && (fast_count > 0 || wilson_machine))
      throw InputError("processor_scale", "give either the processors' scales or fast processors (m and a), not both");
    if (!processor_scales.empty()) {
      if (static_cast<int>(processor_scales.size()) != s.width)
        throw InputError("processor_scale", "gives " + std::to_string(processor_scales.size()) + " scales for the graph's " +
                                                std::to_string(s.width) + " processors");
      s.processor_scale = processor_scales;
    } else {
      check_scale(scale);
      const double a = scale.value;
      if (fast_count < 0 || fast_count > s.width)
        throw InputError("fast_count", "the fast count must be between 0 and the graph's " + std::to_string(s.width) +
                                           " processors, got " + std::to_string(fast_count));
      if (fast_count > 0) {
        // Wilson's machine: the first m processors a times faster, the others 1 (the file's speeds replaced).
        s.processor_scale.assign(static_cast<std::size_t>(s.width), 1.0);
        for (int j = 0; j < fast_count; ++j) s.processor_scale[static_cast<std::size_t>(j)] = a;
        s.fast_count = fast_count;
      } else if (wilson_machine) {
        s.processor_scale.clear();  // equal processors, the file's speeds replaced
        s.fast_count = 0;
      }
    }
    if (!processor_cores.empty()) {
      // One count stands for every processor.
      std::vector<int> cores = processor_cores;
      if (cores.size() == 1) cores.assign(static_cast<std::size_t>(s.width), cores.front());
      structures::set_processor_cores(s, std::move(cores), "processor_cores");
    }
    warn_negative_times(s.laws);
    for (const auto& note : s.notes) warn_once(note);
    return s;
  }
  if (!processor_scales.empty())
    throw InputError("processor_scale", "applies to a graph", "Wilson's structures take fast processors m and their scale a");
  if (!processor_cores.empty())
    throw InputError("processor_cores", "applies to a graph", "Wilson's processors have one core each");
  if (port || overlap)
    throw InputError(port ? "port" : "overlap", "port models apply to a graph",
                     "Wilson's structures communicate by their protocols");
  if (!structure) throw InputError("structure", "missing", "give a structure (async, sync, nn, ms) or a graph file");
  refuse_task_graph_options(task_graph);
  return build(*structure);
}

structures::Structure Model::build(structures::StructureKind kind) const {
  if (width < 1) throw InputError("width", "the width must be at least 1, got " + std::to_string(width));
  if (levels < 1) throw InputError("levels", "must be at least 1, got " + std::to_string(levels));
  structures::Processors procs{width, fast_count, law.value, law.value};
  procs.validate();
  if (memory_check) check_model_memory(static_cast<std::uint64_t>(width), 0, "width", std::to_string(width) + " processors");
  // Bad values are errors even where the structure does not use them (m = 0, not nn).
  check_scale(scale);
  if (fast_count > 0) procs.fast_law = fast_law_value();
  warn_negative_times({procs.slow_law, procs.fast_law});
  switch (kind) {
    case structures::StructureKind::asynchronous: return structures::asynchronous(procs, levels);
    case structures::StructureKind::synchronous: return structures::synchronous(procs, levels);
    case structures::StructureKind::nearest_neighbor: return structures::nearest_neighbor(procs, levels, exchange);
    case structures::StructureKind::master_slave: return structures::master_slave(procs, levels);
    case structures::StructureKind::custom: break;
  }
  throw InputError("structure", "a custom structure needs a graph file");
}

// ---- the one parser of a model's texts ------------------------------------------------------------

ModelTexts& ModelTexts::set(const std::string& parameter, std::string text) {
  texts[parameter] = std::move(text);
  return *this;
}

namespace {

int whole_number(const std::string& parameter, const std::string& text) {
  int v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
    throw InputError(parameter, "'" + text + "' is not a whole number");
  return v;
}

bool truth(const std::string& parameter, const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw InputError(parameter, "'" + text + "' is not true or false");
}

}  // namespace

Model parse_model(const ModelTexts& t) {
  // Every name given or read is a model row of the parameter table (engine/simulate/parameters.h):
  // a front end that sets another has a bug, not the user.
  for (const auto& entry : t.texts)
    if (const auto* row = find_parameter(entry.first); !row || row->scope != ParameterScope::model)
      throw std::logic_error("parse_model: '" + entry.first + "' is not a model row of the parameter table");
  const auto text = [&t](const char* parameter) -> const std::string* {
    (void)engine::parameter(parameter);  // std::logic_error when the table has no row
    const auto it = t.texts.find(parameter);
    return it == t.texts.end() ? nullptr : &it->second;
  };
  const auto given = [&t](const char* parameter) { return t.given(parameter); };
  Model m;
  m.exchange = parse_exchange(text("exchange") ? *text("exchange") : "sequential");
  if (const auto* v = text("task_law")) m.task_graph.law.shape = structures::parse_task_law_shape(*v);
  if (const auto* v = text("task_cv")) m.task_graph.law.cv = distributions::parse_number(*v, "task_cv");
  if (const auto* v = text("bandwidth")) m.task_graph.bandwidth = distributions::parse_number(*v, "bandwidth");
  if (const auto* v = text("mapping")) m.task_graph.mapping = *v;
  if (const auto* v = text("dispatch"); v && !v->empty()) m.task_graph.dispatch = structures::parse_dispatch(*v);
  if (const auto* v = text("graph")) m.graph = *v;
  if (const auto* v = text("platform")) m.platform = *v;
  if (const auto* v = text("sharing"); v && !v->empty()) m.sharing = parse_sharing(*v);
  if (m.sharing && m.platform.empty()) throw InputError("sharing", "applies beside a platform only", "give a platform file");
  if (!m.platform.empty()) {
    if (m.graph.empty()) throw InputError("platform", "applies to a graph", "give a DOT graph whose vertices name their hosts");
    // What the platform already says (its hosts' speeds and cores, its links), refused by name.
    for (const char* parameter : {"processor_scale", "processor_cores", "fast_count", "scale", "bandwidth", "comm_cost", "port", "overlap"})
      if (given(parameter))
        throw InputError(parameter, "does not apply beside a platform",
                         "the platform's hosts give the speeds and cores, its links and routes the messages' times");
  }
  if (const auto* v = text("structure"); v && !v->empty()) m.structure = structures::parse_structure_kind(*v);
  if (t.fixed_structure) m.structure = t.fixed_structure;
  if (const auto* v = text("width")) m.width = whole_number("width", *v);
  if (const auto* v = text("fast_count")) m.fast_count = whole_number("fast_count", *v);
  if (const auto* v = text("levels")) m.levels = whole_number("levels", *v);
  if (const auto* v = text("overlap")) m.overlap = truth("overlap", *v);
  if (const auto* v = text("memory_check")) m.memory_check = truth("memory_check", *v);
  if (!m.graph.empty() && m.structure) throw InputError("graph", "give either a structure or a graph, not both");
  if (const auto* v = text("schedule"); v && !v->empty()) {
    structures::ScheduleOptions placed;
    placed.algorithm = structures::parse_schedule_algorithm(*v);
    if (const auto* k = text("sd_weight")) placed.sd_weight = distributions::parse_number(*k, "sd_weight");
    m.task_graph.schedule = placed;
  }
  if (given("sd_weight") && (!m.task_graph.schedule || m.task_graph.schedule->algorithm != structures::ScheduleAlgorithm::heft_sd))
    throw InputError("sd_weight", "applies to the heft-sd schedule only", "leave it out, or choose heft-sd");
  if (t.refuse_unused) {
    if (!m.graph.empty()) {
      // A graph's processors, laws and levels are its own: these would do nothing.
      for (const char* parameter : {"width", "law", "fast_law", "levels", "exchange"})
        if (given(parameter))
          throw InputError(parameter, "has no effect on a graph",
                           "a graph's width, laws and levels are its file's; give fast_count, scale, processor_scale, comm_cost, port");
      // The law's shape around each cost needs a spread: without one the times are the costs.
      if (given("task_law") && m.task_graph.law.shape != structures::TaskLawShape::constant && !(m.task_graph.law.cv > 0.0))
        throw InputError("task_law", "has no effect without task_cv: each task takes its cost, constant",
                         "give task_cv V > 0, the coefficient of variation");
    } else {
      for (const char* parameter : {"processor_scale", "processor_cores", "port", "overlap", "dispatch"})
        if (given(parameter)) throw InputError(parameter, "applies to a graph only", "give a graph file");
      // STG and WfFormat's options, as Model::build words them.
      for (const char* parameter : {"task_law", "task_cv", "mapping", "bandwidth"})
        if (given(parameter)) throw InputError(parameter, "applies to a graph file only", "give a graph file");
      if (!given("width"))
        throw InputError("width", "missing", "give the width: the number of processors");
      // The exchange rule is nn's at C = 0: elsewhere it would do nothing.
      if (given("exchange")) {
        if (m.structure != structures::StructureKind::nearest_neighbor)
          throw InputError("exchange", "applies to the nearest-neighbour structure (nn) only",
                           "leave it out, or give the structure nn");
        if (t.protocols && text("comm_cost") && parse_comm_cost(*text("comm_cost")).value > 0.0)
          throw InputError("exchange", "applies to nn at C = 0 only: with communication nn runs a protocol",
                           "choose the protocol (protocol)");
      }
    }
  }
  // The values, once the combinations are known to make sense.
  if (const auto* v = text("scale")) m.scale = parse_scale(*v);
  if (const auto* v = text("law")) m.law = parse_law_of("law", *v);
  if (const auto* v = text("fast_law"); v && !v->empty()) m.fast_law = parse_law_of("fast_law", *v);
  if (const auto* v = text("comm_cost")) m.comm = parse_comm_cost(*v);
  if (const auto* v = text("processor_scale")) m.processor_scales = parse_processor_scales(*v);
  if (const auto* v = text("processor_cores")) m.processor_cores = parse_processor_cores(*v);
  if (const auto* v = text("slowdown"); v && !v->empty()) m.slowdown = parse_slowdown(*v);
  if (const auto* v = text("machine_slowdown"); v && !v->empty()) m.machine_slowdown = parse_law_of("machine_slowdown", *v);
  if (const auto* v = text("port"); v && !v->empty()) {
    // The sweep's spelling of a one-port model with overlap, one-port-overlap, reads here too.
    const SpelledPort spelled = parse_port_spelling(*v);
    m.port = spelled.port;
    m.overlap = m.overlap || spelled.overlap;
  }
  if (const auto* v = text("policy"); v && !v->empty()) m.policy = parse_policy(*v);
  // A protocol is one of its structure's family; a graph's is refused as the library words it.
  if (const auto* v = text("protocol"); v && !v->empty() && (m.structure || !m.graph.empty()))
    m.protocol = &find_protocol(m.graph.empty() ? *m.structure : structures::StructureKind::custom, *v);
  return m;
}

}  // namespace hetstruct::engine
